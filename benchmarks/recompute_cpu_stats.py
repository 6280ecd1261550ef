"""Recompute the CPU experiment's tables and tests from saved per-step scores, clustered by trajectory.

    .venv/bin/python benchmarks/recompute_cpu_stats.py --exp results/cpu-experiment \\
        --logs .kopa/e6/exp/logs --edge .kopa/e6/edge/dataset

No model runs. The scores are ``EXP/experiment.json``'s ``scores`` ({split: {model: {step id: {metric:
value}}}}). Each step's trajectory is read, in this order of preference, from

1. the run's Inspect logs (``--logs``: LOGS/<split>/<model>/*.eval, the sample metadata's
   ``step.trajectory_id``, what kopa_steps itself carries);
2. the held-out steps rebuilt from the EDGE dataset (``--edge``, with the run's ``test_percent``)
   and, for the bench split, from the packaged KOPA-Bench gold plans (a bench trajectory is a task);
3. the step id before its ``#<step>`` suffix (kopa_steps' id form).

Every source that is available must agree with the others on every step (else the script stops).
The summary and the paired tests of benchmarks/grpo_cpu_experiment.py are then recomputed (the per-step
figures reproduce the run's: same seeds) with the trajectory-clustered CIs and sign-flip p-values beside
them; EXP/experiment.json gets the new ``summary``, ``tests`` and ``trajectories`` (the clusters used)
and EXP/summary.md is rewritten.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path
from typing import Any

_spec = importlib.util.spec_from_file_location("grpo_cpu_experiment", Path(__file__).with_name("grpo_cpu_experiment.py"))
exp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exp)  # type: ignore[union-attr]

PAIRS = (("sft vs base", "base", "sft"), ("sft+grpo vs sft", "sft", "sft+grpo"), ("sft+grpo vs base", "base", "sft+grpo"))


def clusters_from_logs(logs: Path, split: str) -> dict[str, str]:
    from inspect_ai.log import read_eval_log

    out: dict[str, str] = {}
    for f in sorted((logs / split).glob("*/*.eval")):
        for s in read_eval_log(str(f)).samples or []:
            tid = (s.metadata or {}).get("step", {}).get("trajectory_id")
            if tid:
                if out.get(str(s.id), tid) != tid:
                    raise ValueError(f"{f}: step {s.id} in trajectory {tid}, another log says {out[str(s.id)]}")
                out[str(s.id)] = tid
    return out


def clusters_from_data(split: str, edge: Path | None, test_percent: int) -> dict[str, str]:
    from kopa_inspect.steps.task import load_examples, settings_for

    if split == "edge" and edge is None:
        return {}
    examples = load_examples(split, str(edge) if split == "edge" else None, settings=settings_for("cpu"),
                             order="trajectory", test_percent=test_percent)
    return {ex.id: ex.trajectory_id for ex in examples}


def trajectories(split: str, ids: list[str], logs: Path | None, edge: Path | None, test_percent: int
                 ) -> tuple[dict[str, str], list[str]]:
    from kopa_inspect.steps.stats import trajectory_of

    sources: list[tuple[str, dict[str, str]]] = []
    if logs is not None and (logs / split).exists():
        sources.append(("inspect logs (sample metadata)", clusters_from_logs(logs, split)))
    try:
        sources.append(("rebuilt steps (" + ("EDGE dataset" if split == "edge" else "KOPA-Bench gold plans") + ")",
                        clusters_from_data(split, edge, test_percent)))
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
    for split, sc in data["scores"].items():
        ids = sorted(set().union(*(set(s) for s in sc.values())))
        clusters, used = trajectories(split, ids, Path(a.logs) if a.logs else None,
                                      Path(a.edge) if a.edge else None, test_percent)
        traj[split] = {"sources_agreeing": used, "steps": len(ids), "trajectories": len(set(clusters.values())),
                       "of_step": clusters}
        print(f"{split}: {len(ids)} steps in {len(set(clusters.values()))} trajectories; agreeing sources: {used}")
        summary[split] = {label: exp.summarize(s, clusters) for label, s in sc.items()}
        tests[split] = {name: exp.compare(sc, x, y, clusters) for name, x, y in PAIRS if x in sc and y in sc}
        for name, comp in tests[split].items():  # the per-step figures must be the run's own
            for key, t in comp.items():
                old = (data.get("tests") or {}).get(split, {}).get(name, {}).get(key)
                if old and (old["mcnemar_p"], old["diff_ci"]) != (t["mcnemar_p"], t["diff_ci"]):
                    raise ValueError(f"{split} {name} {key}: per-step figures differ from the run's")
    data["summary"], data["tests"], data["trajectories"] = summary, tests, traj
    results = {"summary": summary, "tests": tests}
    (folder / "experiment.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    text = "".join(exp.table(results, split) + "\n" for split in summary)
    (folder / "summary.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
