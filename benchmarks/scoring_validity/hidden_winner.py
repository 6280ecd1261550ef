"""Winners hidden in a list: every which-one fact answered with all its candidates, winner first.

For each required fact with competitors (names, or figures of a max/min: explicit or inferred, as
wrong_winner_and_env.py; at most 3), three answers after the gold calls: the oracle's structured line with the value "winner, c1, c2",
the same as prose ("가장 … 곳은 winner, c1, c2입니다"), and a denial ("winner은(는) 가장 … 아닙니다"
in place of the line). None may hold the fact; the oracle's own answer must.
"""

import asyncio
import re

from _calls import gold_calls  # this folder is on sys.path when run as a script

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend


async def main():
    be = shared_backend(BackendConfig())
    total = {f"{w} {k}": 0 for w in ("name", "figure") for k in ("structured list", "prose list", "denial")}
    passing = dict.fromkeys(total, 0)
    right_fail = []
    for task in load_tasks():
        gold = await gold_truth(task, be, 0)
        base = oracle_answer(task, gold.expected, context=gold.context)
        calls = None
        for f in task.facts:
            right = gold.expected.get(f.id)
            comps = gold.context[f.id].get("competitors") or matching.infer_competitors(f.value, right)
            if f.matcher in ("number", "money") and right is not None and not isinstance(right, list):
                # a which-one figure: the candidates' figures, written like the oracle writes the value
                unit = f.unit if f.unit in ("원", "만원", "천원", "억원") else ""
                comps = [c for c in dict.fromkeys(comps or []) if matching.to_number(c) is not None]
                comps = [f"{c}{unit}" for c in comps if matching.to_number(c) != matching.to_number(right)][
                    :3
                ]
                right = f"{right}{unit}"
                kind_of = "figure"
            else:
                comps = [c for c in dict.fromkeys(comps or []) if isinstance(c, str)]
                comps = [
                    c for c in comps if matching.normalize_name(right) not in matching.normalize_name(c)
                ][:3]
                kind_of = "name"
            if not f.required or not comps or not isinstance(right, str):
                continue
            calls = calls if calls is not None else await gold_calls(task, gold, be)
            lines = base.splitlines()
            idx = 1 + [x.id for x in task.facts].index(f.id)
            label = lines[idx][2 : lines[idx].rindex(":")].strip()
            label = (
                re.sub(r"\s*\([^)]*\)", "", label).strip() or label
            )  # "(top price; API unit 만원)" glosses off
            listed = ", ".join([right, *comps])
            answers = {
                "structured list": "\n".join([*lines[:idx], f"- {label}: {listed}", *lines[idx + 1 :]]),
                "prose list": "\n".join([*lines[:idx], *lines[idx + 1 :]])
                + f"\n\n가장 해당하는 곳({label})은 {listed}입니다.",
                "denial": "\n".join([*lines[:idx], *lines[idx + 1 :]])
                + f"\n\n{right}은(는) {label}의 1위가 아닙니다.",
            }
            for kind, answer in answers.items():
                kind = f"{kind_of} {kind}"
                total[kind] += 1
                if grade(task, gold, answer, calls).fact_scores[f.id] >= 1.0:
                    passing[kind] += 1
                    print(kind.upper(), "PASSES", task.id, f.id)
            if grade(task, gold, base, calls).fact_scores[f.id] < 1.0:
                right_fail.append((task.id, f.id))
    for kind in total:
        print(f"{kind}: {passing[kind]}/{total[kind]} pass")
    print(f"oracle lines failing: {right_fail}")


asyncio.run(main())
