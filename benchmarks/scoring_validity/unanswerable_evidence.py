"""Unanswerable tasks: a refusal counts only with its evidence calls, and a guess never counts.

For every unanswerable task: the oracle's refusal with no calls and after the gold (evidence)
calls; hedged answers after the gold calls (a figure, a figure in words, a guess, an English
guess); and, for each evidence step (``call:`` in required_state), junk calls to the same tool:
each identifying argument changed (a digit bumped, a word appended), and the gold arguments with a
paging value the API refuses (the call fails for another reason).
"""

import asyncio
import re

from _calls import gold_calls, run_calls  # this folder is on sys.path when run as a script

from kopa_inspect.apis import get_operation
from kopa_inspect.backends import BackendConfig
from kopa_inspect.matching import PAGING_ARGS
from kopa_inspect.scorers.grading import gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

GUESSES = [
    "조회해 보았지만 정확히 답할 수는 없습니다. 다만 약 3억 2,000만 원 정도로 예상됩니다.",
    "정확히 알 수는 없지만 아마 삼억 원 정도일 겁니다.",
    "제공된 도구로는 확인할 수 없지만, 아마 지금보다 오를 것으로 보입니다.",
    "I cannot confirm it with the tools, but it is probably around three hundred.",
    "확인할 수 없습니다. 대신 비슷한 곳은 '한빛초등학교'입니다.",
]


def mutate(value):
    """Another value of the same kind: a digit string with its last digit bumped, a word extended."""
    text = str(value)
    if re.fullmatch(r"\d+", text):
        return text[:-1] + str((int(text[-1]) + 1) % 10)
    return text + "동" if re.search(r"[가-힣]", text) else text + "X"


async def main():
    be = shared_backend(BackendConfig())
    n = with_steps = env_defined = 0
    bare_pass = gold_pass = 0
    guess_total = guess_pass = 0
    junk_total = junk_pass = 0
    for task in load_tasks():
        if task.category != "unanswerable":
            continue
        n += 1
        gold = await gold_truth(task, be, 0)
        refusal = oracle_answer(task, gold.expected)
        calls = await gold_calls(task, gold, be)
        bare = grade(task, gold, refusal, [])
        full = grade(task, gold, refusal, calls)
        with_steps += bool(task.plan.steps)
        env_defined += full.env is not None
        bare_pass += bare.success == 1.0
        gold_pass += full.success == 1.0
        if full.success != 1.0:
            print("GOLD REFUSAL FAILS", task.id, full.missing[:3])
        for answer in GUESSES:
            guess_total += 1
            if grade(task, gold, answer, calls).success == 1.0:
                guess_pass += 1
                print("GUESS PASSES", task.id, answer)
        evidence = [x.split(":", 1)[1] for x in task.required_state if x.startswith("call:")]
        ids = [s.id for s in task.plan.steps]
        for sid in evidence:
            tool, args = gold.calls[ids.index(sid)]
            rest = [c for i, c in zip(ids, gold.calls, strict=True) if i != sid]
            variants = [{**args, k: mutate(v)} for k, v in args.items() if k not in PAGING_ARGS]
            paging = [x.name for x in get_operation(tool).params if x.name in PAGING_ARGS]
            if paging:  # the right question with a paging value the API refuses: fails for another reason
                variants.append({**args, paging[0]: "x"})
            for alt in variants:
                made = await run_calls(task, be, [*_auth(task), *rest, (tool, alt)])
                junk_total += 1
                if grade(task, gold, refusal, made).success == 1.0:
                    junk_pass += 1
                    print("JUNK PASSES", task.id, sid, alt)
    print(f"unanswerable={n} with_evidence_steps={with_steps} env_defined={env_defined}")
    print(f"refusal without calls passes: {bare_pass}/{n}; after the gold calls: {gold_pass}/{n}")
    print(f"guesses after the gold calls passing: {guess_pass}/{guess_total}")
    print(f"junk evidence calls passing: {junk_pass}/{junk_total}")


def _auth(task):
    return [
        (p + "_get_api_key", {}) for p in sorted({p for s in task.plan.steps for p in s.session_platforms()})
    ]


asyncio.run(main())
