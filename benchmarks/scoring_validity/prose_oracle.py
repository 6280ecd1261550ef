"""Oracle facts written as prose (no structured section): how many tasks still pass the answer?"""

import asyncio

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend


async def main():
    be = shared_backend(BackendConfig())
    n = ok = 0
    bad = []
    for t in load_tasks():
        if t.category == "unanswerable":
            continue
        g = await gold_truth(t, be, 0)
        lines = oracle_answer(t, g.expected, context=g.context).splitlines()[1:]
        prose = (
            ", ".join(
                f"{line[2:].split(':', 1)[0].strip()}은(는) {line.split(':', 1)[1].strip()}" for line in lines
            )
            + "입니다."
        )
        sc = matching.score_answer(t.facts, g.expected, prose, question=t.query, context=g.context)
        n += 1
        if all(sc[f.id] >= 1 for f in t.facts if f.required):
            ok += 1
        else:
            bad.append((t.id, [k for k, v in sc.items() if v < 1]))
    print(f"prose pass {ok}/{n}")
    [print(b) for b in bad[:15]]


asyncio.run(main())
