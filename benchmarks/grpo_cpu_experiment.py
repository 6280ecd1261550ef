"""The CPU experiment: SmolLM2-135M-Instruct base vs EDGE+SFT vs EDGE+SFT+GRPO on the step-level task.

    .venv/bin/python benchmarks/grpo_cpu_experiment.py --data .kopa/edge/dataset --out .kopa/cpu-exp \\
        --sft-minutes 10 --grpo-minutes 8 --edge-rows 120 --bench-rows 40 --engine llamacpp --threads 1

1. EDGE data: ``--data`` (a ``kopa synth`` dataset folder), synthesized with ``kopa synth`` if absent;
2. SFT (configs/sft-cpu.yaml) on the training side of the held-out split, then GRPO
   (configs/grpo-cpu.yaml) starting from the SFT checkpoint; each for a wall-time budget (a run stops
   at the end of the step that passes it, and saves);
3. the three models on ``kopa_inspect/kopa_steps`` (``profile=cpu``, greedy, ``--max-tokens``): the
   held-out EDGE trajectories (``--edge-rows``) and steps of KOPA-Bench gold plans (``--bench-rows``);
   engine ``llamacpp`` (each model exported to GGUF F16 by kopa_grpo.gguf_export, base included, so
   all three run at the same precision) or ``hf`` (``hf/local -M model_path=``);
4. paired tests per metric and pair of models on the same samples: exact McNemar (two-sided binomial
   test on the discordant pairs) and a paired bootstrap 95% interval of the difference, both per step;
   beside them the trajectory-clustered ones (all in kopa_inspect.stats): steps of one trajectory are
   correlated, so the per-step figures overstate the evidence. A cluster bootstrap (whole
   trajectories resampled) for each mean and difference, and a sign-flip permutation test on the
   per-trajectory net differences (exact up to 16 trajectories that differ, 200,000 random sign
   assignments beyond; the exact McNemar test when every trajectory has one step);
5. OUT/experiment.json (everything), OUT/summary.md (tables), the training curves
   (OUT/{sft,grpo}/metrics.jsonl and rewards.png) and the Inspect logs (OUT/logs).

Nothing is tuned on the held-out rows; whatever the numbers show is what gets reported.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

KEYS = ("parse", "kind", "tool_name", "exact", "answer")


def synthesize(out: Path, n: int) -> Path:
    edge = out / "edge"
    dataset = edge / "dataset"
    if not dataset.exists():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "kopa_inspect.cli",
                "synth",
                "--out",
                str(edge),
                "--n",
                str(n),
                "--seed",
                "0",
            ],
            check=True,
        )
    return dataset


# --- statistics: kopa_inspect.stats ---------------------------------------------------------------


def compare(
    scores: dict[str, dict[str, dict[str, float]]], a: str, b: str, clusters: dict[str, str] | None = None
) -> dict[str, Any]:
    """Paired comparison of model ``b`` against ``a`` on each metric (samples where both defined):
    per step (McNemar, bootstrap) and clustered by trajectory (``clusters``: {sample id: trajectory
    id}; default the sample id before its ``#<step>`` suffix, kopa_steps' id form)."""
    from kopa_inspect.stats import cluster_bootstrap_diff, mcnemar_exact, paired_bootstrap_diff, signflip_test
    from kopa_inspect.steps.stats import trajectory_of

    out: dict[str, Any] = {}
    for key in KEYS:
        ids = sorted(
            sid
            for sid, v in scores[a].items()
            if sid in scores[b] and not math.isnan(v[key]) and not math.isnan(scores[b][sid][key])
        )
        if not ids:
            continue
        xa = [scores[a][s][key] for s in ids]
        xb = [scores[b][s][key] for s in ids]
        cl = [(clusters or {}).get(s) or trajectory_of(s) for s in ids]
        only_a = sum(1 for x, y in zip(xa, xb, strict=True) if x >= 1 and y < 1)
        only_b = sum(1 for x, y in zip(xa, xb, strict=True) if x < 1 and y >= 1)
        diff, lo, hi = paired_bootstrap_diff(xa, xb)
        _, clo, chi = cluster_bootstrap_diff(xa, xb, cl)
        out[key] = {
            "n": len(ids),
            "a": sum(xa) / len(ids),
            "b": sum(xb) / len(ids),
            "diff": diff,
            "diff_ci": [lo, hi],
            "only_a": only_a,
            "only_b": only_b,
            "mcnemar_p": mcnemar_exact(only_a, only_b),
            "clusters": len(set(cl)),
            "clusters_discordant": len({c for c, x, y in zip(cl, xa, xb, strict=True) if x != y}),
            "clustered_diff_ci": [clo, chi],
            "clustered_p": signflip_test(xa, xb, cl),
        }
    return out


# --- evaluation ------------------------------------------------------------------------------------


def model_spec(
    engine: str, hf_dir: Path, gguf_dir: Path, label: str, threads: int | None, gguf_type: str = "f16"
) -> tuple[str, dict[str, Any]]:
    if engine == "hf":
        args: dict[str, Any] = {"model_path": str(hf_dir), "device": "cpu"}
        return "hf/local", args
    from kopa_grpo.gguf_export import export

    # The type is in the name, so a folder never mixes an F16 and a BF16 export of one model.
    gguf_file = gguf_dir / f"{label}.{gguf_type}.gguf"
    if not gguf_file.exists():
        export(hf_dir, gguf_file, dtype=gguf_type)
    args = {"model_path": str(gguf_file.resolve()), "n_ctx": 8192}
    if threads:
        args["n_threads"] = threads
    return "llamacpp/local", args


def step_cap(gold_tokens: int, floor: int, factor: float = 1.25, slack: int = 32) -> int:
    """The generation limit of one step: room for the gold move with a margin (a correct move may be
    worded longer), never below ``floor`` (the old global limit), so no gold move is ever cut."""
    return max(floor, math.ceil(factor * gold_tokens) + slack)


def gold_caps(
    split: str, data: Path, gguf: Path, floor: int, test_percent: int = 10
) -> tuple[dict[str, int], dict[str, int]]:
    """({step id: limit}, {step id: gold tokens}) for every step of ``split``: the gold turn as the
    chat template writes it (calls as <tool_call> blocks, end token included), tokenized by the
    GGUF's own vocabulary (all three models share SmolLM2's tokenizer)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from llama_cpp import Llama

    from kopa_grpo.data import _target_message
    from kopa_inspect.providers.chat_templates import render
    from kopa_inspect.providers.local_chat import message_dicts, render_prompt, tool_dicts
    from kopa_inspect.steps.task import chat_messages, load_examples, settings_for, tool_info

    vocab = Llama(model_path=str(gguf), vocab_only=True, verbose=False)
    gold: dict[str, int] = {}
    for ex in load_examples(
        split,
        str(data) if split == "edge" else None,
        settings=settings_for("cpu"),
        order="trajectory",
        test_percent=test_percent,
    ):
        tools = [tool_info(t) for t in ex.tools]
        head = render_prompt(chat_messages(ex.messages), tools, "chatml")
        full = render(
            "chatml",
            message_dicts(chat_messages([*ex.messages, _target_message(ex)])),
            tool_dicts(tools),
            add_generation_prompt=False,
        )
        if not full.startswith(head):
            raise ValueError(
                f"{ex.id}: the chatml template is not prefix-preserving; cannot cut the gold turn"
            )
        gold[ex.id] = len(vocab.tokenize(full[len(head) :].encode("utf-8"), add_bos=False, special=True))
    vocab.close()
    return {i: step_cap(n, floor) for i, n in gold.items()}, gold


def base_gguf(out: Path, base_dir: Path) -> Path:
    """The base model's GGUF export (its vocabulary counts the gold tokens on the hf engine too)."""
    from kopa_grpo.gguf_export import export

    path = out / "gguf" / "base.gguf"
    if not path.exists():
        export(base_dir, path)
    return path


def evaluate(
    label: str,
    model: str,
    model_args: dict[str, Any],
    split: str,
    rows: int,
    data: Path,
    log_dir: Path,
    max_tokens: int,
    caps_file: Path | None = None,
    test_percent: int = 10,
) -> tuple[dict[str, dict[str, float]], dict[str, Any]]:
    """Per-sample step scores of one model on one split ({sample id: {metric: value}})."""
    from inspect_ai import eval as inspect_eval

    from kopa_inspect.steps.task import kopa_steps

    # Whole trajectories, steps in order: llama.cpp reuses the previous step's prompt from its KV cache.
    task = kopa_steps(
        split=split,
        data=str(data) if split == "edge" else None,
        profile="cpu",
        order="trajectory",
        max_tokens_file=str(caps_file) if caps_file else None,
        test_percent=test_percent,
    )
    logs = inspect_eval(
        task,
        model=model,
        model_args=model_args,
        limit=rows,
        max_tokens=max_tokens,
        temperature=0.0,
        log_dir=str(log_dir / split / label),
        display="none",
        fail_on_error=False,
        max_connections=1,
        metadata={"label": label},
    )
    log = logs[0]
    if log.status != "success":
        raise RuntimeError(f"evaluation of {label} on {split} ended {log.status}: {log.error}")
    out = {}
    for s in log.samples or []:
        score = next(iter((s.scores or {}).values()), None)
        if score is not None and isinstance(score.value, dict):
            out[str(s.id)] = {k: float(score.value[k]) for k in KEYS}
    return out, engine_profile(log)


def engine_profile(log: Any) -> dict[str, Any]:
    """Where an evaluation's time went, from llama.cpp's own timings in each model call: prompt
    tokens (all, and evaluated = not served from the KV cache), prompt-processing and generation
    seconds, generated tokens, and why generation stopped."""
    prof: dict[str, Any] = {
        "calls": 0,
        "prompt_tokens": 0,
        "prompt_eval_tokens": 0,
        "prompt_eval_s": 0.0,
        "completion_tokens": 0,
        "generation_s": 0.0,
        "finish": {},
    }
    for sample in log.samples or []:
        for ev in sample.events:
            call = getattr(ev, "call", None) if getattr(ev, "event", "") == "model" else None
            if call is None or not isinstance(call.response, dict) or "prompt_eval_s" not in call.response:
                continue
            r = call.response
            prof["calls"] += 1
            prof["prompt_tokens"] += int(call.request.get("prompt_tokens") or 0)
            prof["prompt_eval_tokens"] += int(r.get("prompt_eval_tokens") or 0)
            prof["prompt_eval_s"] += float(r.get("prompt_eval_s") or 0.0)
            prof["completion_tokens"] += int(r.get("completion_tokens") or 0)
            prof["generation_s"] += float(r.get("generation_s") or 0.0)
            prof["finish"][r.get("finish_reason")] = prof["finish"].get(r.get("finish_reason"), 0) + 1
    prof["prompt_eval_s"] = round(prof["prompt_eval_s"], 1)
    prof["generation_s"] = round(prof["generation_s"], 1)
    return prof


def completions(log_dir: Path) -> dict[str, str]:
    """{sample id: the model's raw output text} from the newest Inspect log in ``log_dir``."""
    from inspect_ai.log import read_eval_log

    logs = sorted(log_dir.glob("*.eval"))
    if not logs:
        return {}
    log = read_eval_log(str(logs[-1]))
    out = {}
    for s in log.samples or []:
        texts = [
            ev.call.response.get("text", "")
            for ev in s.events
            if getattr(ev, "event", "") == "model"
            and getattr(ev, "call", None) is not None
            and isinstance(ev.call.response, dict)
        ]
        out[str(s.id)] = texts[-1] if texts else (s.output.completion if s.output else "")
    return out


def changed_outputs(log_root: Path, split: str, a: str, b: str) -> dict[str, int]:
    """How many greedy outputs of model ``b`` differ from ``a``'s on the same steps (any character):
    more sensitive than the scores, which move only when a difference crosses a metric."""
    xa, xb = completions(log_root / split / a), completions(log_root / split / b)
    common = sorted(set(xa) & set(xb))
    return {"n": len(common), "changed": sum(xa[i] != xb[i] for i in common)}


def summarize(scores: dict[str, dict[str, float]], clusters: dict[str, str] | None = None) -> dict[str, Any]:
    from kopa_inspect.stats import cluster_bootstrap_ci, wilson_ci
    from kopa_inspect.steps.stats import trajectory_of

    out = {}
    for key in KEYS:
        ids = [sid for sid, v in scores.items() if not math.isnan(v[key])]
        vals = [scores[sid][key] for sid in ids]
        cl = [(clusters or {}).get(sid) or trajectory_of(sid) for sid in ids]
        lo, hi = wilson_ci(sum(vals), len(vals))
        clo, chi = cluster_bootstrap_ci(vals, cl)
        out[key] = {
            "mean": sum(vals) / len(vals) if vals else float("nan"),
            "ci": [lo, hi],
            "n": len(vals),
            "clustered_ci": [clo, chi],
            "clusters": len(set(cl)),
        }
    return out


def p_text(p: float) -> str:
    """A p-value to 3 significant digits; a Monte Carlo p at its floor (no random flip reached the
    observed statistic) as the bound it is, "≤1e-05", not as if it were exact."""
    from kopa_inspect.stats import N_PERMUTATIONS

    floor = 2 / (N_PERMUTATIONS + 1)
    return f"≤{floor:.1g}" if p <= floor * (1 + 1e-9) else f"{p:.3g}"


def table(results: dict[str, Any], split: str) -> str:
    lines = [
        f"### {split}",
        "",
        "Each cell: mean [95% Wilson CI, steps independent] {95% trajectory-cluster bootstrap CI} "
        "n = steps / trajectories.",
        "",
        "| model | " + " | ".join(KEYS) + " |",
        "|---|" + "---:|" * len(KEYS),
    ]
    for label, summ in results["summary"][split].items():
        cells = []
        for k in KEYS:
            m = summ[k]
            if not m["n"]:
                cells.append("–")
                continue
            cell = f"{m['mean']:.3f} [{m['ci'][0]:.2f}, {m['ci'][1]:.2f}]"
            if "clustered_ci" in m:
                cell += (
                    f" {{{m['clustered_ci'][0]:.2f}, {m['clustered_ci'][1]:.2f}}} n={m['n']}/{m['clusters']}"
                )
            else:
                cell += f" n={m['n']}"
            cells.append(cell)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Paired: per step (bootstrap CI, exact McNemar) and clustered by trajectory (cluster bootstrap CI, "
        "sign-flip permutation test on per-trajectory differences, exact up to 16 differing trajectories, "
        "else 200,000 random flips; trajectories with a discordant step / all).",
        "",
        "| comparison | metric | n | A | B | B−A [95% CI] | A only / B only | McNemar p "
        "| clustered CI | trajectories | clustered p |",
        "|---|---|---:|---:|---:|---|---|---:|---|---:|---:|",
    ]
    for name, comp in results["tests"][split].items():
        for k, t in comp.items():
            row = (
                f"| {name} | {k} | {t['n']} | {t['a']:.3f} | {t['b']:.3f} | {t['diff']:+.3f} "
                f"[{t['diff_ci'][0]:+.3f}, {t['diff_ci'][1]:+.3f}] | {t['only_a']} / {t['only_b']} | "
                f"{t['mcnemar_p']:.3g} |"
            )
            if "clustered_p" in t:
                row += (
                    f" [{t['clustered_diff_ci'][0]:+.3f}, {t['clustered_diff_ci'][1]:+.3f}] | "
                    f"{t['clusters_discordant']} / {t['clusters']} | {p_text(t['clustered_p'])} |"
                )
            else:
                row += " | | |"
            lines.append(row)
    return "\n".join(lines) + "\n"


def plot_curves(out: Path) -> Path | None:
    """OUT/curves.png: SFT loss and token accuracy per step, GRPO rewards per step (metrics.jsonl)."""

    def rows(mode: str) -> list[dict[str, Any]]:
        f = out / mode / "metrics.jsonl"
        return [json.loads(line) for line in f.read_text().splitlines()] if f.exists() else []

    sft, grpo = rows("sft"), rows("grpo")
    if not sft and not grpo:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for key in ("loss", "mean_token_accuracy"):
        pts = [(r["step"], r[key]) for r in sft if key in r and "train_runtime" not in r]
        if pts:
            ax1.plot(*zip(*pts, strict=True), marker="o", label=key)
    ax1.set_title("SFT (sft-cpu)")
    ax1.set_xlabel("optimizer step (4 rows)")
    ax1.legend(fontsize=8)
    keys = sorted(
        {k for r in grpo for k in r if k.startswith("rewards/") and k.endswith("/mean")} | {"reward"}
    )
    for key in keys:
        pts = [(r["step"], r[key]) for r in grpo if r.get(key) is not None and "loss" in r]
        if pts:
            ax2.plot(
                *zip(*pts, strict=True), marker="o", label=key.replace("rewards/", "").replace("/mean", "")
            )
    ax2.set_title("GRPO after SFT (grpo-cpu), 4 completions per step")
    ax2.set_xlabel("optimizer step")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    path = out / "curves.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=".kopa/cpu-experiment")
    ap.add_argument("--data", default=None, help="an EDGE dataset folder (default: synthesize OUT/edge)")
    ap.add_argument("--n", type=int, default=800, help="trajectories to synthesize when --data is not given")
    ap.add_argument("--sft-minutes", type=float, default=10.0)
    ap.add_argument("--grpo-minutes", type=float, default=8.0)
    ap.add_argument(
        "--sft-steps",
        type=int,
        default=None,
        help="stop SFT after this many optimizer steps (with --sft-minutes 0: a fixed amount of "
        "training whatever else runs on the machine)",
    )
    ap.add_argument("--grpo-steps", type=int, default=None, help="the same for GRPO")
    ap.add_argument("--edge-rows", type=int, default=120, help="held-out EDGE steps evaluated")
    ap.add_argument("--bench-rows", type=int, default=40, help="KOPA-Bench gold-plan steps evaluated")
    ap.add_argument(
        "--max-tokens",
        type=int,
        default=128,
        help="generation limit; with --gold-caps the floor of each step's own limit",
    )
    ap.add_argument(
        "--gold-caps",
        action="store_true",
        help="limit each step to max(--max-tokens, 1.25 x its gold move's tokens + 32): no gold move "
        "is cut (a global 128 cut 28 of 100 EDGE and 14 of 30 bench gold moves), a rambling "
        "model stops early",
    )
    ap.add_argument(
        "--test-percent",
        type=int,
        default=10,
        help="EDGE held-out share in percent (kopa_steps test_percent; training keeps the rest): a "
        "larger share gives the same number of held-out steps from fewer synthesized rows",
    )
    ap.add_argument("--engine", choices=["llamacpp", "hf"], default="llamacpp")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--gguf-type",
        choices=["f16", "bf16"],
        default="f16",
        help="precision of the GGUF exports (all three models alike); bf16 pays off only on a "
        "llama.cpp built for a CPU with AVX512_BF16 (llama_print_system_info says so)",
    )
    ap.add_argument("--skip-train", action="store_true")
    ap.add_argument(
        "--only-model",
        action="append",
        choices=["base", "sft", "sft+grpo"],
        default=None,
        help="evaluate only these models (repeatable; several processes can share the work: each "
        "model's scores land in OUT/scores/<split>/<model>.json and are reused by later runs)",
    )
    a = ap.parse_args()

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    data = Path(a.data) if a.data else synthesize(out, a.n)
    timings["synth_wall_seconds"] = round(time.perf_counter() - t0, 1)

    from kopa_grpo.train import train
    from kopa_inspect.providers.local import prepare_local_model

    base_dir = prepare_local_model()
    stats: dict[str, Any] = {"args": vars(a)}
    if a.engine == "llamacpp":
        import llama_cpp

        # Which llama.cpp build ran (a generic AVX2 wheel or one built for this CPU): it sets the speed.
        stats["llama_cpp"] = {
            "version": llama_cpp.__version__,
            "path": llama_cpp.__file__,
            "system_info": llama_cpp.llama_print_system_info().decode().strip(),
        }
    overrides: dict[str, Any] = {"torch_threads": a.threads} if a.threads else {}
    # Training takes the train side of the same split the evaluation holds out.
    overrides["prompt"] = {"test_percent": a.test_percent}
    if not a.skip_train:
        for mode, config, minutes, steps, extra in (
            ("sft", "sft-cpu", a.sft_minutes, a.sft_steps, {}),
            (
                "grpo",
                "grpo-cpu",
                a.grpo_minutes,
                a.grpo_steps,
                {"model": str((out / "sft" / "merged").resolve())},
            ),
        ):
            t0, c0 = time.perf_counter(), os.times()
            if steps:
                extra = {**extra, "trainer": {"max_steps": steps}}
            train(
                data,
                config,
                out / mode,
                overrides={**overrides, **extra, "time_budget_minutes": minutes or None},
            )
            stats[mode] = json.loads((out / mode / "train_stats.json").read_text())
            stats[mode]["wall_seconds"] = round(time.perf_counter() - t0, 1)
            c1 = os.times()  # user + system CPU of this process (all torch threads) over load, train, merge
            stats[mode]["cpu_seconds"] = round(c1.user + c1.system - c0.user - c0.system, 1)
            print(f"{mode}: {json.dumps(stats[mode])}", flush=True)

    models = {"base": base_dir, "sft": out / "sft" / "merged", "sft+grpo": out / "grpo" / "merged"}
    results: dict[str, Any] = {"scores": {}, "summary": {}, "tests": {}, "eval_seconds": {}}
    for split, rows in (("edge", a.edge_rows), ("bench", a.bench_rows)):
        if rows <= 0:
            continue
        results["scores"][split] = {}
        for label, hf_dir in models.items():
            saved = out / "scores" / split / f"{label.replace('+', '_')}.json"
            if saved.exists():
                done = json.loads(saved.read_text())
                results["scores"][split][label] = done["scores"]
                results["eval_seconds"][f"{split}/{label}"] = done["seconds"]
                results.setdefault("engine", {})[f"{split}/{label}"] = done.get("engine")
                continue
            if a.only_model and label not in a.only_model:
                continue
            t0 = time.perf_counter()
            model, margs = model_spec(a.engine, hf_dir, out / "gguf", label, a.threads, a.gguf_type)
            caps_file = None
            if a.gold_caps:
                caps_file = out / "caps" / f"{split}-{label.replace('+', '_')}.json"
                caps, gold = gold_caps(
                    split,
                    data,
                    Path(margs.get("model_path") or base_gguf(out, base_dir)),
                    a.max_tokens,
                    a.test_percent,
                )
                caps_file.parent.mkdir(parents=True, exist_ok=True)
                caps_file.write_text(json.dumps(caps), encoding="utf-8")
                (out / "caps" / f"{split}-gold-tokens.json").write_text(json.dumps(gold), encoding="utf-8")
            scores, prof = evaluate(
                label, model, margs, split, rows, data, out / "logs", a.max_tokens, caps_file, a.test_percent
            )
            if (
                len(scores) < rows
            ):  # a smaller synthesis or more unanswerable steps: say so, never report fewer
                raise RuntimeError(
                    f"{split}: only {len(scores)} scored steps of the {rows} asked for ({label})"
                )
            seconds = round(time.perf_counter() - t0, 1)
            saved.parent.mkdir(parents=True, exist_ok=True)
            saved.write_text(
                json.dumps({"scores": scores, "seconds": seconds, "rows": rows, "engine": prof}),
                encoding="utf-8",
            )
            results["scores"][split][label] = scores
            results["eval_seconds"][f"{split}/{label}"] = seconds
            results.setdefault("engine", {})[f"{split}/{label}"] = prof
            print(f"eval {split}/{label}: {seconds} s", flush=True)
        gold_file = out / "caps" / f"{split}-gold-tokens.json"
        if gold_file.exists():
            ids = sorted(next(iter(results["scores"][split].values()), {}))  # the evaluated steps
            gold = json.loads(gold_file.read_text())
            lens = sorted(gold[i] for i in ids if i in gold)
            if lens:
                results.setdefault("gold_tokens", {})[split] = {
                    "n": len(lens),
                    "median": lens[len(lens) // 2],
                    "p90": lens[int(0.9 * len(lens))],
                    "max": lens[-1],
                    f"over_{a.max_tokens}": sum(n > a.max_tokens for n in lens),
                }
        sc = results["scores"][split]
        if set(sc) != set(models):
            continue  # another process evaluates the rest; a later run without --only-model aggregates
        results["summary"][split] = {label: summarize(s) for label, s in sc.items()}
        results.setdefault("changed_outputs", {})[split] = {
            "sft+grpo vs sft": changed_outputs(out / "logs", split, "sft", "sft+grpo"),
            "sft vs base": changed_outputs(out / "logs", split, "base", "sft"),
        }
        results["tests"][split] = {
            "sft vs base": compare(sc, "base", "sft"),
            "sft+grpo vs sft": compare(sc, "sft", "sft+grpo"),
            "sft+grpo vs base": compare(sc, "base", "sft+grpo"),
        }
        (out / "experiment.json").write_text(
            json.dumps({**stats, **results, **timings}, indent=2), encoding="utf-8"
        )
    plot_curves(out)
    summary = "".join(table(results, split) + "\n" for split in results["summary"])
    (out / "summary.md").write_text(summary, encoding="utf-8")
    (out / "experiment.json").write_text(
        json.dumps({**stats, **results, **timings}, indent=2), encoding="utf-8"
    )
    print(summary)


if __name__ == "__main__":
    main()
