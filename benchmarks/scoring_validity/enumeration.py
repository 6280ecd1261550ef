"""Enumeration: every candidate row listed with its figure, and no pick.

For each task with a required "which one" fact (``_which.py``), the other facts are answered as the
oracle answers them and the which-one facts are replaced by a list of every candidate row (its name
and figure, in item order): as structured lines ("- A: 337000만원"), as one prose sentence ("조회된
결과는 A 337000만원, B 88500만원, … 입니다"), and as one sentence per row ("A는 337000만원입니다.").
No which-one fact may hold: a list is no answer to "which one".
"""

import asyncio

from _which import rows_of, say, which_facts  # this folder is on sys.path when run as a script

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend


def row_text(row) -> str:
    name = next((v for w, v in row if w.fact.matcher in ("name", "exact")), None)
    figs = [say(w.fact, v) for w, v in row if w.fact.matcher not in ("name", "exact")]
    return " ".join(str(x) for x in ([name] if name is not None else []) + figs)


async def main():
    be = shared_backend(BackendConfig())
    forms = ("structured lines", "one prose sentence", "a sentence per row")
    tasks = dict.fromkeys(forms, 0)
    facts_total, facts_pass = dict.fromkeys(forms, 0), dict.fromkeys(forms, 0)
    n = 0
    for t in load_tasks():
        g = await gold_truth(t, be, 0)
        ws = which_facts(t, g)
        if not ws:
            continue
        n += 1
        ids = {w.fact.id for w in ws}
        lines = oracle_answer(t, g.expected, context=g.context).splitlines()
        keep = [ln for f, ln in zip(t.facts, lines[1:], strict=False) if f.id not in ids]
        rows = [row_text(r) for r in rows_of(ws)]
        answers = {
            "structured lines": "\n".join(
                [lines[0], *keep, *(f"- {r.split(' ', 1)[0]}: {r.split(' ', 1)[-1]}" for r in rows)]
            ),
            "one prose sentence": "\n".join([lines[0], *keep])
            + "\n\n조회된 결과는 "
            + ", ".join(rows)
            + "입니다.",
            "a sentence per row": "\n".join([lines[0], *keep])
            + "\n\n"
            + " ".join(f"{r.split(' ', 1)[0]}은(는) {r.split(' ', 1)[-1]}입니다." for r in rows),
        }
        for form, ans in answers.items():
            sc = matching.score_answer(t.facts, g.expected, ans, question=t.query, context=g.context)
            held = [w.fact.id for w in ws if sc[w.fact.id] >= 1.0]
            facts_total[form] += len(ws)
            facts_pass[form] += len(held)
            if held:
                tasks[form] += 1
                print(form.upper(), "HOLDS", t.id, held)
    for form in forms:
        print(
            f"{form}: tasks with a which-one fact held {tasks[form]}/{n}; facts held {facts_pass[form]}/{facts_total[form]}"
        )


asyncio.run(main())
