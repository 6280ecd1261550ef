"""The CPU experiment: SmolLM2-135M-Instruct base vs EDGE+SFT vs EDGE+GRPO on KOPA-Bench.

    /work/venv/bin/python benchmarks/grpo_cpu_experiment.py --minutes 30 --out results/cpu-experiment
    /work/venv/bin/python benchmarks/grpo_cpu_experiment.py --minutes 1 --limit 2 --n 20 --out /tmp/x  # plumbing

1. EDGE data (``kopa synth``; the dataset lands in OUT/edge/dataset) unless --data points at one;
2. SFT (configs/sft-cpu.yaml) and GRPO (configs/cpu-30min.yaml), LoRA, for a fixed wall-time
   budget each (--minutes, split evenly; a run stops at its budget or its max_steps, whichever
   comes first, and saves);
3. KOPA-Bench for the three models (and the oracle as the ceiling) through ``kopa grid``
   machinery (eval_set; resumable), all tasks unless --limit, the held-out platforms included;
4. ``kopa report`` tables and figures, and train throughput (tokens/s, completions/s, peak RSS)
   per run in OUT/experiment.json.

Whatever the numbers show is what gets reported (results/cpu-experiment/README.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def synthesize(out: Path, n: int, rounds: int, paths: int) -> Path:
    """EDGE through its CLI (resumable: a rerun reuses OUT/edge); returns the dataset folder."""
    edge = out / "edge"
    dataset = edge / "dataset"
    if not dataset.exists():
        subprocess.run(
            [sys.executable, "-m", "kopa_inspect.cli", "synth", "--out", str(edge), "--n", str(n), "--seed", "0",
             "--rounds", str(rounds), "--paths", str(paths)],
            check=True,
        )
    return dataset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="results/cpu-experiment")
    ap.add_argument("--data", default=None, help="an EDGE dataset folder (default: synthesize one)")
    ap.add_argument("--n", type=int, default=400, help="trajectories to synthesize when --data is not given")
    ap.add_argument("--rounds", type=int, default=30, help="EDGE grounding rounds (kopa synth --rounds)")
    ap.add_argument("--paths", type=int, default=80, help="EDGE paths per grounding round (kopa synth --paths)")
    ap.add_argument("--minutes", type=float, default=30.0, help="total training budget, split SFT/GRPO")
    ap.add_argument("--limit", type=int, default=None, help="evaluate on the first N tasks only")
    ap.add_argument("--max-turns", type=int, default=8, help="agent turns per KOPA-Bench sample")
    ap.add_argument("--max-tokens", type=int, default=256, help="tokens per model turn at evaluation")
    ap.add_argument("--threads", type=int, default=None,
                    help="torch threads for training and evaluation (1 is faster on a shared CPU)")
    ap.add_argument("--skip-train", action="store_true")
    a = ap.parse_args()

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    data = Path(a.data) if a.data else synthesize(out, a.n, a.rounds, a.paths)
    timings["synth_wall_seconds"] = round(time.perf_counter() - t0, 1)
    if a.threads:
        import torch

        torch.set_num_threads(a.threads)

    from kopa_grpo.train import train

    stats: dict[str, object] = {}
    overrides: dict[str, object] = {"torch_threads": a.threads} if a.threads else {}
    if not a.skip_train:
        half = a.minutes / 2
        for mode, config in (("sft", "sft-cpu"), ("grpo", "cpu-30min")):
            t0 = time.perf_counter()
            train(data, config, out / mode, overrides={**overrides, "time_budget_minutes": half})
            stats[mode] = json.loads((out / mode / "train_stats.json").read_text())
            stats[mode]["wall_seconds"] = round(time.perf_counter() - t0, 1)  # type: ignore[index]

    from kopa_inspect.report.grid import Grid, GridModel, run_grid
    from kopa_inspect.report.write import make_report

    grid = Grid(
        log_dir=str(out / "logs"),
        limit=a.limit,
        task_args={"max_turns": a.max_turns},
        eval_args={"max_tokens": a.max_tokens},
        models=[
            GridModel(label="oracle (gold plans)", model="kopa/oracle"),
            GridModel(label="SmolLM2-135M base", model="hf/local", args={"model_path": "local", "device": "cpu"}),
            GridModel(label="SmolLM2-135M EDGE+SFT", model="hf/local",
                      args={"model_path": str((out / "sft" / "merged").resolve()), "device": "cpu"}),
            GridModel(label="SmolLM2-135M EDGE+GRPO", model="hf/local",
                      args={"model_path": str((out / "grpo" / "merged").resolve()), "device": "cpu"}),
        ],
    )
    t0 = time.perf_counter()
    runs = run_grid(grid, max_connections=1)
    timings["eval_wall_seconds"] = round(time.perf_counter() - t0, 1)
    stats["eval_runs"] = [{"label": r.label, "success": r.success, "skipped": r.skipped} for r in runs]
    make_report(out / "logs", out / "report")
    stats.update(timings)
    (out / "experiment.json").write_text(json.dumps(stats, indent=2), encoding="utf-8")
    print(json.dumps(stats, indent=2))
    print(f"report: {out / 'report' / 'report.md'}")


if __name__ == "__main__":
    main()
