"""Every row's figure listed for a single-valued figure: does a listing hold the fact?

For every required number, money or duration fact with one scalar value and no competitors (a plain
fact: "종로구의 최고기온", "지난달 매매 건수"), the oracle's line for it is replaced by a list of figures
that holds the value (tests/grpo/test_grpo_rewards_attacks.py's LISTING case, "21도, 17도, 14도"):

- rows: the value's field over every row of the step it is read from ("$s2.items[0].fcstValue" ->
  every fcstValue of s2), when that step shows at least two distinct values (12 at most, the value
  kept), in row order;
- task figures: for a value with no rows (a totalCount, an average), the value and the task's other
  facts' figures of the same kind, in fact order;
- decoys: when the task has no other such figure, the value beside two invented ones (2x + 7, x / 2).

Each list is written as the line ("- label: a, b, c") and as a prose sentence ("label은(는) a, b,
c입니다."). None may hold the fact. Controls: the oracle's own answer and the value alone in the same
prose sentence must hold it. Run it with the matcher under test on the path (PYTHONPATH=src).
"""

import asyncio
import re
from typing import Any

from _which import say  # this folder is on sys.path when run as a script

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

KINDS = ("number", "money", "duration")
FORMS = {"line": "- {label}: {items}", "prose": "{label}은(는) {items}입니다."}


def row_values(fact: Any, value: Any, outputs: dict[str, dict[str, Any]]) -> list[Any]:
    """The value's field over every row of the step it is read from (distinct, row order, value kept)."""
    m = re.match(r"\$(\w+)\.", str(fact.value))
    field = re.search(r"\.\s*\"?([A-Za-z_]\w*)\"?\s*(?:\|\s*\[0\])?\s*$", str(fact.value))
    if not m or not field or m.group(1) not in outputs:
        return []
    rows = [r.get(field.group(1)) for r in outputs[m.group(1)].get("items") or [] if isinstance(r, dict)]
    seen: list[Any] = []
    for r in rows:
        if r is not None and str(r).strip() and not any(matching._same_value(r, s) for s in seen):
            seen.append(r)
    if len(seen) < 2 or not any(matching._same_value(value, s) for s in seen):
        return []
    if len(seen) > 12:  # the value and eleven others around it
        k = next(i for i, s in enumerate(seen) if matching._same_value(value, s))
        lo = max(0, min(k - 5, len(seen) - 12))
        seen = seen[lo : lo + 12]
    return seen


def decoys(value: Any) -> list[Any]:
    x = matching.to_number(value)
    if x is None:
        return []
    return [value, f"{x * 2 + 7:g}", f"{(x / 2 if x else 3):g}"]


async def main():
    be = shared_backend(BackendConfig())
    total: dict[tuple[str, str], int] = {}
    passing: dict[tuple[str, str], int] = {}
    control_fail: list[tuple[str, str, str]] = []
    shown = 0
    for t in load_tasks():
        g = await gold_truth(t, be, 0)
        lines = oracle_answer(t, g.expected, context=g.context).splitlines()
        oracle_scores = matching.score_answer(
            t.facts, g.expected, "\n".join(lines), question=t.query, context=g.context
        )
        for idx, f in enumerate(t.facts, start=1):
            v = g.expected.get(f.id)
            if (
                f.matcher not in KINDS
                or not f.required
                or v is None
                or isinstance(v, list | dict)
                or matching._as_list(g.context[f.id].get("competitors"))
            ):
                continue
            if oracle_scores[f.id] < 1:
                control_fail.append((t.id, f.id, "oracle"))
            rows = row_values(f, v, g.run.outputs)
            same_kind = [
                g.expected[o.id]
                for o in t.facts
                if o.id != f.id
                and o.matcher == f.matcher
                and g.expected.get(o.id) is not None
                and not isinstance(g.expected[o.id], list | dict)
                and not matching._same_value(g.expected[o.id], v)
            ]
            if rows:
                kind, items = "rows", rows
            elif same_kind:
                kind, items = "task figures", [v, *list(dict.fromkeys(same_kind))[:5]]
            else:
                kind, items = "decoys", decoys(v)
            if len(items) < 2:
                continue
            label = lines[idx][2 : lines[idx].rindex(":")].strip()
            rest = [*lines[:idx], *lines[idx + 1 :]]
            said = ", ".join(say(f, x) for x in items)
            prose_alone = "\n".join(rest) + "\n\n" + FORMS["prose"].format(label=label, items=say(f, v))
            if (
                matching.score_answer(t.facts, g.expected, prose_alone, question=t.query, context=g.context)[
                    f.id
                ]
                < 1
            ):
                control_fail.append((t.id, f.id, "prose alone"))
            for form, tmpl in FORMS.items():
                text = tmpl.format(label=label, items=said)
                ans = (
                    "\n".join([*rest[:idx], text, *rest[idx:]])
                    if form == "line"
                    else "\n".join(rest) + "\n\n" + text
                )
                total[(kind, form)] = total.get((kind, form), 0) + 1
                if (
                    matching.score_answer(t.facts, g.expected, ans, question=t.query, context=g.context)[f.id]
                    >= 1
                ):
                    passing[(kind, form)] = passing.get((kind, form), 0) + 1
                    if shown < 8:
                        shown += 1
                        print("HOLDS", t.id, f.id, repr(text[:120]))
    for key in sorted(total):
        print(f"{key[0]} ({key[1]}): {passing.get(key, 0)}/{total[key]} hold")
    n, p = sum(total.values()), sum(passing.values())
    print(f"all listings: {p}/{n} hold; controls failing: {len(control_fail)} {control_fail[:6]}")


asyncio.run(main())
