"""Both ways: the right answer and a contradicting one in the same answer.

For each required "which one" fact (``_which.py``; B = the first candidate that is not the winner A),
the oracle's line for the fact is replaced by an answer that gives A and also B: in the structured
line ("A 또는 B", "A입니다. 아니면 B일 수도 있습니다") or in prose after the other lines ("… 은(는) A입니다.
아니면 B일 수도 있습니다", "A인데, B일 가능성도 있습니다", "A입니다. 혹시 B일지도 모릅니다", "A or
possibly B"). None may hold the fact; the oracle's own line must.
"""

import asyncio

from _which import say, which_facts  # this folder is on sys.path when run as a script

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

LINE = {
    "line: A 또는 B": "{a} 또는 {b}",
    "line: A입니다. 아니면 B일 수도": "{a}입니다. 아니면 {b}일 수도 있습니다.",
    "line: A (B일 수도)": "{a} ({b}일 수도 있음)",
}
PROSE = {
    "prose: 아니면 B일 수도": "{label}은(는) {a}입니다. 아니면 {b}일 수도 있습니다.",
    "prose: A 또는 B": "{label}은(는) {a} 또는 {b}입니다.",
    "prose: B일 가능성도": "{label}은(는) {a}인데, {b}일 가능성도 있습니다.",
    "prose: 혹시 B일지도": "{label}은(는) {a}입니다. 혹시 {b}일지도 모릅니다.",
    "prose: A or possibly B": "The answer ({label}) is {a}, or possibly {b}.",
}


async def main():
    be = shared_backend(BackendConfig())
    total = dict.fromkeys([*LINE, *PROSE], 0)
    passing = dict.fromkeys(total, 0)
    right_fail = []
    for t in load_tasks():
        g = await gold_truth(t, be, 0)
        lines = oracle_answer(t, g.expected, context=g.context).splitlines()
        for w in which_facts(t, g):
            b = next(c for c in w.candidates if not matching._same_value(c, w.right))
            a, b = say(w.fact, w.right), say(w.fact, b)
            idx = 1 + [x.id for x in t.facts].index(w.fact.id)
            label = lines[idx][2 : lines[idx].rindex(":")].strip()
            answers = {
                k: "\n".join([*lines[:idx], f"- {label}: {v.format(a=a, b=b)}", *lines[idx + 1 :]])
                for k, v in LINE.items()
            }
            rest = "\n".join([*lines[:idx], *lines[idx + 1 :]])
            answers |= {k: rest + "\n\n" + v.format(a=a, b=b, label=w.label) for k, v in PROSE.items()}
            for kind, ans in answers.items():
                total[kind] += 1
                if (
                    matching.score_answer(t.facts, g.expected, ans, question=t.query, context=g.context)[
                        w.fact.id
                    ]
                    >= 1
                ):
                    passing[kind] += 1
                    print(kind.upper(), "HOLDS", t.id, w.fact.id)
            if (
                matching.score_answer(
                    t.facts, g.expected, "\n".join(lines), question=t.query, context=g.context
                )[w.fact.id]
                < 1
            ):
                right_fail.append((t.id, w.fact.id))
    for kind in total:
        print(f"{kind}: {passing[kind]}/{total[kind]} pass")
    print(f"all: {sum(passing.values())}/{sum(total.values())}; oracle lines failing: {right_fail}")


asyncio.run(main())
