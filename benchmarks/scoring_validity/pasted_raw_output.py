"""Measure: raw-dump model and wrong-winner answers over all tasks (grade() directly, embedded backend)."""

import asyncio
import json
import time

from _calls import gold_calls  # this folder is on sys.path when run as a script

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend


def dump_answer(task, gold):
    parts = []
    for s in task.plan.steps:
        out = dict(gold.run.outputs[s.id])
        out["items"] = out.get("items", [])[:100]
        parts.append(json.dumps(out, ensure_ascii=False))
    return "\n".join(parts)


async def main():
    be = shared_backend(BackendConfig())
    n = dump_pass = oracle_pass = 0
    t0 = time.time()
    failed_oracle = []
    for task in load_tasks():
        gold = await gold_truth(task, be, 0)
        calls = await gold_calls(task, gold, be)  # executed and recorded as the Inspect tools do
        o = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), calls)
        oracle_pass += o.success == 1.0
        if o.success != 1.0:
            failed_oracle.append((task.id, o.missing[:3]))
        if task.category == "unanswerable":
            continue
        n += 1
        d = grade(task, gold, dump_answer(task, gold), calls)
        dump_pass += d.success == 1.0
    print(
        f"answerable={n} dump_pass={dump_pass} oracle_grade_pass={oracle_pass}/{len(load_tasks())} {time.time() - t0:.1f}s"
    )
    for f in failed_oracle:
        print("ORACLE FAIL", f)


asyncio.run(main())
