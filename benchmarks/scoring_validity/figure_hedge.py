"""A figure hedged with another ("197 또는 401") in one oracle line: how many tasks still pass?

Each oracle line with a figure gets "X 또는 Y" (Y = 2X + 7) in place of its first figure X; a time
("02:00") is skipped, since splitting it makes no hedge. Before be22dc3: 339/362 lines passed.
"""

import asyncio
import re

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

NUM = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)(?![\d.,])")


async def main():
    be = shared_backend(BackendConfig())
    n = passed = 0
    ex = []
    for t in load_tasks():
        if t.category == "unanswerable":
            continue
        g = await gold_truth(t, be, 0)
        text = oracle_answer(t, g.expected, context=g.context)
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if ":" not in line:
                continue
            lab, val = line.split(":", 1)
            m = NUM.search(val)
            if not m:
                continue
            fig = m.group(1)
            if val[m.end() : m.end() + 1] == ":":
                continue  # a clock time, not a figure to hedge
            try:
                other = str(float(fig.replace(",", "")) * 2 + 7).rstrip("0").rstrip(".")
            except ValueError:
                continue
            hedged = val[: m.start()] + f"{fig} 또는 {other}" + val[m.end() :]
            att = "\n".join(lines[:i] + [f"{lab}:{hedged}"] + lines[i + 1 :])
            sc = matching.score_answer(t.facts, g.expected, att, question=t.query, context=g.context)
            n += 1
            ok = all(sc[f.id] >= 1 for f in t.facts if f.required)
            passed += ok
            if ok and len(ex) < 4:
                ex.append((t.id, f"{lab}:{hedged}"))
    print(f"figure hedged 'X 또는 Y' in one oracle line: {passed}/{n} lines still pass")
    for e in ex:
        print(e)


asyncio.run(main())
