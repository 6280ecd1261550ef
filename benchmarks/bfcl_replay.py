"""BFCL's ground truth replayed through kopa_inspect/bfcl (and a wrong model), per category.

    .venv/bin/python benchmarks/bfcl_replay.py --categories all              # every shipped entry
    .venv/bin/python benchmarks/bfcl_replay.py --categories ast --per-category 5 --model wrong

Prints each category's accuracy, BFCL's summary figures, the entries that did not score as
expected (with the checker's error) and the wall time. The replay must score 1.0 wherever BFCL's
ground truth is reachable; the wrong model (a call to a function that does not exist) must score 0.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from kopa_inspect.bfcl import categories as cats
from kopa_inspect.bfcl.replay import gold_outputs, wrong_model
from kopa_inspect.bfcl.task import bfcl


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--categories", default="all", help="BFCL categories or groups, comma-separated")
    ap.add_argument("--per-category", type=int, default=None)
    ap.add_argument("--model", choices=["gold", "wrong"], default="gold")
    a = ap.parse_args()
    names = cats.resolve(a.categories)
    outputs = gold_outputs(names, a.per_category) if a.model == "gold" else wrong_model
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as log_dir:
        (log,) = inspect_eval(
            bfcl(categories=names, per_category=a.per_category),
            model=get_model("mockllm/model", custom_outputs=outputs),
            max_samples=1,
            display="none",
            log_dir=log_dir,
        )
        seconds = time.perf_counter() - start
        if log.status != "success":
            raise SystemExit(f"run ended {log.status}: {log.error}")
        report(log, a.model, seconds)


def report(log: EvalLog, model: str, seconds: float) -> None:
    expected = "C" if model == "gold" else "I"
    metrics = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    print(f"{model} model, {len(log.samples)} entries, {seconds:.0f} s")
    for name, value in metrics.items():
        print(f"  {name:28s} {value:.4f}")
    unexpected = [s for s in log.samples if s.scores["bfcl_checker"].value != expected]
    print(f"{len(unexpected)} entries not {expected}:")
    for s in unexpected:
        print(f"  {s.id}: {(s.scores['bfcl_checker'].explanation or '')[:300]}")


if __name__ == "__main__":
    main()
