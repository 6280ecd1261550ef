"""Recompute the CPU experiment's tables and tests from saved per-step scores, clustered by trajectory.

    .venv/bin/python benchmarks/recompute_cpu_stats.py --exp results/cpu-experiment \\
        --logs .kopa/e6/exp/logs --edge .kopa/e6/edge/dataset

No model runs. The scores are ``EXP/experiment.json``'s ``scores`` ({split: {model: {step id: {metric:
value}}}}). Each step's trajectory is read, in this order of preference, from

1. the clusters an earlier recomputation recorded in EXP/experiment.json (``trajectories``);
2. the run's Inspect logs (``--logs``: LOGS/<split>/<model>/*.eval, the sample metadata's
   ``step.trajectory_id``, what kopa_steps itself carries);
3. the held-out steps rebuilt from the EDGE dataset (``--edge``, with the run's ``test_percent``)
   and, for the bench split, from the packaged KOPA-Bench gold plans (a bench trajectory is a task);
4. the step id before its ``#<step>`` suffix (kopa_steps' id form).

Every source that is available must agree with the others on every step (else the script stops).
The summary and the paired tests of benchmarks/grpo_cpu_experiment.py are then recomputed with
kopa_inspect.stats (the steps paired, their counts and means must be the run's own; intervals and
p-values are recomputed, and every one that moved is printed old -> new); EXP/experiment.json gets
the new ``summary``, ``tests`` and ``trajectories`` (the clusters used) and EXP/summary.md is rewritten.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path
from typing import Any

_spec = importlib.util.spec_from_file_location(
    "grpo_cpu_experiment", Path(__file__).with_name("grpo_cpu_experiment.py")
)
exp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exp)  # type: ignore[union-attr]

PAIRS = (
    ("sft vs base", "base", "sft"),
    ("sft+grpo vs sft", "sft", "sft+grpo"),
    ("sft+grpo vs base", "base", "sft+grpo"),
)


def clusters_from_logs(logs: Path, split: str) -> dict[str, str]:
    from inspect_ai.log import read_eval_log

    out: dict[str, str] = {}
    for f in sorted((logs / split).glob("*/*.eval")):
        for s in read_eval_log(str(f)).samples or []:
            tid = (s.metadata or {}).get("step", {}).get("trajectory_id")
            if tid:
                if out.get(str(s.id), tid) != tid:
                    raise ValueError(
                        f"{f}: step {s.id} in trajectory {tid}, another log says {out[str(s.id)]}"
                    )
                out[str(s.id)] = tid
    return out


def clusters_from_data(split: str, edge: Path | None, test_percent: int) -> dict[str, str]:
    from kopa_inspect.steps.task import load_examples, settings_for

    if split == "edge" and edge is None:
        return {}
    examples = load_examples(
        split,
        str(edge) if split == "edge" else None,
        settings=settings_for("cpu"),
        order="trajectory",
        test_percent=test_percent,
    )
    return {ex.id: ex.trajectory_id for ex in examples}


def trajectories(
    split: str,
    ids: list[str],
    logs: Path | None,
    edge: Path | None,
    test_percent: int,
    recorded: dict[str, Any] | None = None,
) -> tuple[dict[str, str], list[str]]:
    from kopa_inspect.steps.stats import trajectory_of

    sources: list[tuple[str, dict[str, str]]] = []
    if recorded and recorded.get("of_step"):  # an earlier recomputation's clusters, checked like the rest
        earlier = "; ".join(s for s in recorded.get("sources_agreeing", []) if not s.startswith("recorded"))
        sources.append((f"recorded in experiment.json ({earlier})", dict(recorded["of_step"])))
    if logs is not None and (logs / split).exists():
        sources.append(("inspect logs (sample metadata)", clusters_from_logs(logs, split)))
    try:
        sources.append(
            (
                "rebuilt steps (" + ("EDGE dataset" if split == "edge" else "KOPA-Bench gold plans") + ")",
                clusters_from_data(split, edge, test_percent),
            )
        )
    except Exception as exc:  # noqa: BLE001 (a missing dataset or backend: fall back, and say so)
        print(f"{split}: could not rebuild the steps ({type(exc).__name__}: {exc})")
    sources.append(("step id prefix", {i: trajectory_of(i) for i in ids}))
    used = [name for name, m in sources if m and all(i in m for i in ids)]
    chosen = next(m for _, m in sources if m and all(i in m for i in ids))
    for name, m in sources:
        if m and all(i in m for i in ids):
            bad = [i for i in ids if m[i] != chosen[i]]
            if bad:
                raise ValueError(f"{split}: {name} puts {bad[0]} in {m[bad[0]]}, not {chosen[bad[0]]}")
    return {i: chosen[i] for i in ids}, used


COUNTS = ("n", "a", "b", "only_a", "only_b")
INTERVALS = ("ci", "clustered_ci", "diff_ci", "clustered_diff_ci")
P_VALUES = ("mcnemar_p", "clustered_p")


def same_steps(old: dict[str, Any], new: dict[str, Any], where: str) -> None:
    """The recomputed test must pair the run's own steps: its counts and means are the run's."""
    for k in COUNTS:
        if k in old and old[k] != new[k]:
            raise ValueError(f"{where}: {k} is {new[k]}, the run's was {old[k]}")


def changed(old: dict[str, Any], new: dict[str, Any], where: str) -> list[str]:
    """One line per interval or p-value the recomputation moved (past printing precision)."""
    out = []
    for k in INTERVALS:
        if k in old and [round(x, 4) for x in old[k]] != [round(x, 4) for x in new[k]]:
            out.append(
                f"{where} {k}: [{old[k][0]:.4f}, {old[k][1]:.4f}] -> [{new[k][0]:.4f}, {new[k][1]:.4f}]"
            )
    for k in P_VALUES:
        if k in old and f"{old[k]:.3g}" != f"{new[k]:.3g}":
            out.append(f"{where} {k}: {old[k]:.3g} -> {new[k]:.3g}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exp", default="results/cpu-experiment", help="folder with experiment.json (rewritten)")
    ap.add_argument("--logs", default=None, help="the run's Inspect log folder (OUT/logs)")
    ap.add_argument("--edge", default=None, help="the run's EDGE dataset folder")
    a = ap.parse_args()

    folder = Path(a.exp)
    data: dict[str, Any] = json.loads((folder / "experiment.json").read_text(encoding="utf-8"))
    test_percent = int((data.get("args") or {}).get("test_percent") or 10)
    summary: dict[str, Any] = {}
    tests: dict[str, Any] = {}
    traj: dict[str, Any] = {}
    changes: list[str] = []
    for split, sc in data["scores"].items():
        ids = sorted(set().union(*(set(s) for s in sc.values())))
        clusters, used = trajectories(
            split,
            ids,
            Path(a.logs) if a.logs else None,
            Path(a.edge) if a.edge else None,
            test_percent,
            (data.get("trajectories") or {}).get(split),
        )
        traj[split] = {
            "sources_agreeing": used,
            "steps": len(ids),
            "trajectories": len(set(clusters.values())),
            "of_step": clusters,
        }
        print(
            f"{split}: {len(ids)} steps in {len(set(clusters.values()))} trajectories; agreeing sources: {used}"
        )
        summary[split] = {label: exp.summarize(s, clusters) for label, s in sc.items()}
        tests[split] = {name: exp.compare(sc, x, y, clusters) for name, x, y in PAIRS if x in sc and y in sc}
        for name, comp in tests[split].items():
            for key, t in comp.items():
                old = (data.get("tests") or {}).get(split, {}).get(name, {}).get(key)
                if old:
                    same_steps(old, t, f"{split} {name} {key}")
                    changes += changed(old, t, f"{split} {name} {key}")
        for label, summ in summary[split].items():
            for key, m in summ.items():
                old = (data.get("summary") or {}).get(split, {}).get(label, {}).get(key)
                if old:
                    changes += changed(old, m, f"{split} {label} {key}")
    data["summary"], data["tests"], data["trajectories"] = summary, tests, traj
    results = {"summary": summary, "tests": tests}
    (folder / "experiment.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    text = "".join(exp.table(results, split) + "\n" for split in summary)
    (folder / "summary.md").write_text(text, encoding="utf-8")
    print(text)
    print("changed figures (old -> new):" if changes else "no figure changed")
    print("\n".join(changes))


if __name__ == "__main__":
    main()
