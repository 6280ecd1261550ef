"""The harness's own cost: a full KOPA-Bench run with ``kopa/oracle`` (no model time).

    .venv/bin/python benchmarks/harness_bench.py                      # all 145 tasks, embedded emulator
    .venv/bin/python benchmarks/harness_bench.py --compare logs/main/local   # + share of a real model run

Reports wall time, peak RSS, per-task harness cost (tool execution, gold-plan grading, Inspect's
own bookkeeping) and, given the logs of a real model run, the harness's share of that run's time
per sample. Run it on an otherwise idle machine; the figures go to benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument(
        "--compare", default=None, help="log dir of a real model run to compute the harness share"
    )
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log

    from kopa_inspect.scorers import axis_values

    with tempfile.TemporaryDirectory() as log_dir:
        t0 = time.perf_counter()
        log = inspect_eval(
            "kopa_inspect/kopa_bench", model="kopa/oracle", limit=a.limit, log_dir=log_dir, display="none"
        )[0]
        wall = time.perf_counter() - t0
        samples = read_eval_log(log.location).samples or []
    success = statistics.mean(float(axis_values(s.scores)["success"]) for s in samples)
    per_sample = [s.total_time for s in samples if s.total_time is not None]
    out = {
        "tasks": len(samples),
        "oracle_success": round(success, 4),
        "wall_seconds": round(wall, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "harness_seconds_per_task": round(wall / max(1, len(samples)), 3),
        "sample_total_time_median_s": round(statistics.median(per_sample), 3) if per_sample else None,
    }
    if a.compare:
        from inspect_ai.analysis import samples_df

        df = samples_df(a.compare, quiet=True)
        model_median = float(df["total_time"].median())
        out["compared_model_sample_median_s"] = round(model_median, 2)
        out["harness_share_of_model_run"] = round(out["harness_seconds_per_task"] / model_median, 4)
    print(json.dumps(out, indent=2) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
