"""Zero-call ENV, wrong-winner sweep over every which-one fact (explicit or inferred competitors)."""

import asyncio

from _calls import gold_calls  # this folder is on sys.path when run as a script

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend


async def main():
    be = shared_backend(BackendConfig())
    env1 = undefined = n = 0
    ww_total = ww_pass = 0
    right_fail = []
    for task in load_tasks():
        gold = await gold_truth(task, be, 0)
        g = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), [])
        n += 1
        if g.env is None:
            undefined += 1
        elif g.env >= 1.0:
            env1 += 1
        calls = await gold_calls(task, gold, be)
        base = oracle_answer(task, gold.expected, context=gold.context)
        for f in task.facts:
            if not f.required:
                continue
            comps = gold.context[f.id].get("competitors") or matching.infer_competitors(
                f.value, gold.expected[f.id]
            )
            comps = [c for c in comps if isinstance(c, str)]
            if not comps or not isinstance(gold.expected[f.id], str):
                continue
            right = gold.expected[f.id]
            lines = base.splitlines()
            idx = 1 + [x.id for x in task.facts].index(f.id)
            for wrong in list(dict.fromkeys(comps))[:4]:
                if matching.normalize_name(right) in matching.normalize_name(wrong):
                    continue
                ww_total += 1
                ans = "\n".join(
                    lines[:idx] + [lines[idx][: lines[idx].rindex(":") + 1] + " " + wrong] + lines[idx + 1 :]
                )
                ans += "\n\n후보: " + ", ".join([right, *comps])
                if grade(task, gold, ans, calls).fact_scores[f.id] >= 1.0:
                    ww_pass += 1
                    print("WRONG WINNER PASSES", task.id, f.id, wrong)
            if grade(task, gold, base, calls).fact_scores[f.id] < 1.0:
                right_fail.append((task.id, f.id))
    print(f"tasks={n} zero-call env==1.0: {env1}, env undefined: {undefined}")
    print(
        f"wrong-winner answers: {ww_total}, passing: {ww_pass}; right-winner oracle lines failing: {right_fail}"
    )


asyncio.run(main())
