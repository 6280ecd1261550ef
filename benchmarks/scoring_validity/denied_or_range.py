"""Plain facts said the wrong way: the right value denied, or hidden in a range.

For every required fact with one scalar value and no competitors (figures, dates, times, names), the
oracle's line for it is replaced by a denial ("- label: 14(이)가 아닙니다", "label은(는) 14이(가)
아닙니다", "label is not 14") or, for figures, by a range that holds the value at one end ("14~20",
"14에서 20 사이", "10~14"). None may hold the fact (a range is no figure); the oracle's line must.
Facts whose value another line of the oracle answer already states are skipped and counted (a fact
without a subject is read against the whole answer).
"""

import asyncio

from _which import say  # this folder is on sys.path when run as a script

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

DENIALS = {
    "denied (line)": "- {label}: {v}(이)가 아닙니다",
    "denied (prose)": "{label}은(는) {v}이(가) 아닙니다.",
    "denied (English)": "The {label} is not {v}.",
}
RANGES = {
    "range above (line)": "- {label}: {v}~{hi}",
    "range below (prose)": "{label}은(는) {lo}에서 {v} 사이입니다.",
}


async def main():
    be = shared_backend(BackendConfig())
    total: dict[str, int] = {}
    passing: dict[str, int] = {}
    right_fail = []
    stated_elsewhere = 0
    for t in load_tasks():
        g = await gold_truth(t, be, 0)
        lines = oracle_answer(t, g.expected, context=g.context).splitlines()
        for idx, f in enumerate(t.facts, start=1):
            v = g.expected.get(f.id)
            if (
                not f.required
                or v is None
                or isinstance(v, list | dict)
                or f.matcher in ("refusal", "key_facts")
                or matching._as_list(g.context[f.id].get("competitors"))
            ):
                continue
            label = lines[idx][2 : lines[idx].rindex(":")].strip()
            rest = [*lines[:idx], *lines[idx + 1 :]]
            # a fact without a subject is read against the whole answer: when another line of the
            # oracle answer already states its value, a denial in its own line cannot take it back
            if (
                matching.score_answer(
                    t.facts, g.expected, "\n".join(rest), question=t.query, context=g.context
                )[f.id]
                >= 1
            ):
                stated_elsewhere += 1
                continue
            forms = dict(DENIALS)
            x = matching.to_number(v)
            if f.matcher in ("number", "money") and x is not None and x > 0:
                forms |= RANGES
            for kind, form in forms.items():
                text = form.format(
                    label=label,
                    v=say(f, v),
                    hi=say(f, f"{x * 2:g}" if x else v),
                    lo=say(f, f"{x / 2:g}" if x else v),
                )
                ans = (
                    "\n".join([*rest[:idx], text, *rest[idx:]])
                    if text.startswith("- ")
                    else "\n".join(rest) + "\n\n" + text
                )
                total[kind] = total.get(kind, 0) + 1
                if (
                    matching.score_answer(t.facts, g.expected, ans, question=t.query, context=g.context)[f.id]
                    >= 1
                ):
                    passing[kind] = passing.get(kind, 0) + 1
                    print(kind.upper(), "HOLDS", t.id, f.id, repr(text))
            if (
                matching.score_answer(
                    t.facts, g.expected, "\n".join(lines), question=t.query, context=g.context
                )[f.id]
                < 1
            ):
                right_fail.append((t.id, f.id))
    for kind in total:
        print(f"{kind}: {passing.get(kind, 0)}/{total[kind]} pass")
    print(
        f"facts skipped (value stated by another line): {stated_elsewhere}; oracle lines failing: {right_fail}"
    )


asyncio.run(main())
