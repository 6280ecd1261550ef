"""A name given with its alias ("삼성전자 또는 SAMSUNG ELECTRONICS CO,.LTD"): does a right answer keep the
point, and does a guess between two rows still lose it?

Every required name/exact fact of an answerable task whose value is a name (no digit, as name_hedge.py)
and whose gold row (``matching.row_aliases`` over the gold outputs) holds another name in letters (an
alias: no digit, no URL, 2-40 characters): its oracle line rewritten as "V 또는 A", "A 또는 V", "V 혹은 A"
(the alias, want passing) and, for up to 4 competitors of the fact (other rows), "V 또는 C" and
"V 또는 C's alias" (a name of C's row that the gold row does not share; want 0). Graded by
``matching.score_answer`` twice: with the context ``grading.gold_truth`` gives now (``gold.context``)
and with the gold rows known (``matching.with_row_aliases(gold.context, gold.expected,
gold.run.outputs)``, what grading passes once that one line is added to ``gold_truth``).
"""

import asyncio
import re
import sys

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend


def _name_aliases(aliases: list) -> list[str]:
    return [
        str(a).strip()
        for a in aliases
        if isinstance(a, str)
        and not re.search(r"\d|://", a)
        and 2 <= len(a.strip()) <= 40
        and re.search(r"[A-Za-z가-힣]", a)
    ][:2]


async def main(verbose: bool) -> None:
    be = shared_backend(BackendConfig())
    # [passing with gold.context, passing with the rows known, total]
    rows = {"alias": [0, 0, 0], "competitor": [0, 0, 0], "competitor alias": [0, 0, 0]}
    oracle = [0, 0, 0]
    for t in load_tasks():
        if t.category == "unanswerable":
            continue
        g = await gold_truth(t, be, 0)
        known_rows = matching.with_row_aliases(g.context, g.expected, g.run.outputs)
        text = oracle_answer(t, g.expected, context=g.context)
        question = f"{t.query}\n{t.query_en}"
        lines = text.splitlines()

        def passes(answer: str, ctx: dict, g=g, t=t, question=question) -> bool:
            s = matching.score_answer(t.facts, g.expected, answer, question=question, context=ctx)
            return all(s[h.id] >= 1 for h in t.facts if h.required)

        oracle[0] += passes(text, g.context)
        oracle[1] += passes(text, known_rows)
        oracle[2] += 1
        for f in t.facts:
            v = g.expected.get(f.id)
            if (
                not f.required
                or f.matcher not in ("name", "exact")
                or not isinstance(v, str)
                or re.search(r"\d", v)
            ):
                continue
            aliases_all = known_rows.get(f.id, {}).get("aliases") or []
            aliases = _name_aliases(aliases_all)
            if not aliases:
                continue
            i = next((k for k, line in enumerate(lines) if ":" in line and v in line.split(":", 1)[1]), None)
            if i is None:
                continue
            lab, val = lines[i].split(":", 1)
            cases = [
                ("alias", form)
                for a in aliases
                for form in (f"{v} 또는 {a}", f"{a} 또는 {v}", f"{v} 혹은 {a}")
            ]
            for c in (known_rows.get(f.id, {}).get("competitors") or [])[:4]:
                if not isinstance(c, str) or matching.normalize_name(c) == matching.normalize_name(v):
                    continue
                cases.append(("competitor", f"{v} 또는 {c}"))
                # a name of the competitor's own row (not one its row shares with the gold row: "서울특별시")
                cases += [
                    ("competitor alias", f"{v} 또는 {a}")
                    for a in _name_aliases(matching.row_aliases(c, g.run.outputs, [v, *aliases_all]))[:1]
                ]
            for kind, form in cases:
                att = "\n".join(lines[:i] + [f"{lab}:{val.replace(v, form, 1)}"] + lines[i + 1 :])
                before, after = passes(att, g.context), passes(att, known_rows)
                rows[kind][0] += before
                rows[kind][1] += after
                rows[kind][2] += 1
                if verbose:
                    print(t.id, f.id, kind, f"{lab}:{val.replace(v, form, 1)}", int(before), int(after))
    print(
        f"oracle (unchanged) passing: {oracle[0]}/{oracle[2]} (gold.context), {oracle[1]}/{oracle[2]} (rows known)"
    )
    for kind, (b, a, n) in rows.items():
        want = "want all" if kind == "alias" else "want 0"
        print(f"V with {kind}: {b}/{n} pass with gold.context, {a}/{n} with the rows known ({want})")


asyncio.run(main("-v" in sys.argv))
