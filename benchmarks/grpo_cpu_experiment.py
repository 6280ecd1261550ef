"""The CPU experiment: SmolLM2-135M-Instruct base vs EDGE+SFT vs EDGE+GRPO on KOPA-Bench.

    .venv/bin/python benchmarks/grpo_cpu_experiment.py --minutes 30 --out results/cpu-experiment

1. EDGE data (``kopa synth``) unless --data points at an existing dataset;
2. SFT and GRPO (LoRA) for a fixed wall-time budget each (--minutes, split evenly);
3. KOPA-Bench for the three models (and the oracle as the ceiling) through ``kopa grid``
   machinery (eval_set; resumable), all tasks unless --limit, the held-out platforms included;
4. ``kopa report`` tables and figures, and train throughput (tokens/s, peak RSS) per run.

Whatever the numbers show is what gets reported (results/cpu-experiment/README.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="results/cpu-experiment")
    ap.add_argument("--data", default=None, help="an EDGE dataset folder (default: synthesize one)")
    ap.add_argument("--n", type=int, default=400, help="trajectories to synthesize when --data is not given")
    ap.add_argument("--minutes", type=float, default=30.0, help="total training budget, split SFT/GRPO")
    ap.add_argument("--limit", type=int, default=None, help="evaluate on the first N tasks only")
    ap.add_argument("--skip-train", action="store_true")
    a = ap.parse_args()

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    data = Path(a.data) if a.data else out / "edge"
    if not a.data and not data.exists():
        subprocess.run([sys.executable, "-m", "kopa_inspect.cli", "synth", "--out", str(data), "--n", str(a.n),
                        "--seed", "0"], check=True)

    from grpo.train import train

    stats: dict[str, object] = {}
    if not a.skip_train:
        half = a.minutes / 2
        for mode, config in (("sft", "sft-cpu"), ("grpo", "cpu-30min")):
            t0 = time.perf_counter()
            train(data, config, out / mode, overrides={"time_budget_minutes": half})
            stats[mode] = json.loads((out / mode / "train_stats.json").read_text())
            stats[mode]["wall_seconds"] = round(time.perf_counter() - t0, 1)

    from kopa_inspect.report.grid import Grid, GridModel, run_grid
    from kopa_inspect.report.write import make_report

    grid = Grid(
        log_dir=str(out / "logs"),
        limit=a.limit,
        models=[
            GridModel(label="oracle (gold plans)", model="kopa/oracle"),
            GridModel(label="SmolLM2-135M base", model="hf/local", args={"model_path": "local"}),
            GridModel(label="SmolLM2-135M EDGE+SFT", model="hf/local",
                      args={"model_path": str((out / "sft" / "merged").resolve())}),
            GridModel(label="SmolLM2-135M EDGE+GRPO", model="hf/local",
                      args={"model_path": str((out / "grpo" / "merged").resolve())}),
        ],
    )
    t0 = time.perf_counter()
    run_grid(grid, max_connections=1)
    stats["eval_wall_seconds"] = round(time.perf_counter() - t0, 1)
    make_report(out / "logs", out / "report")
    (out / "experiment.json").write_text(json.dumps(stats, indent=2), encoding="utf-8")
    print(json.dumps(stats, indent=2))
    print(f"report: {out / 'report' / 'report.md'}")


if __name__ == "__main__":
    main()
