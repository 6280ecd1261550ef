"""The gold figure said in the opposite extreme's role ("최저기온: 21" for the high): how many facts hold?

Every required number/money/duration fact whose description names one extreme (최고/최저/최대/최소) gets
its oracle line's label switched to the other extreme (the value kept), as a line and as one prose
sentence; graded by ``matching.score_answer`` with the task's query. Facts another oracle line states
with the same figure are skipped (counted). Want 0 holding; the unchanged oracle is the control.
"""

import asyncio
import re

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

SWAP = {"최고": "최저", "최저": "최고", "최대": "최소", "최소": "최대"}
EXT = re.compile("|".join(SWAP))


async def main() -> None:
    be = shared_backend(BackendConfig())
    n = {"line": 0, "prose": 0}
    held = {"line": 0, "prose": 0}
    skipped = oracle_bad = 0
    for t in load_tasks():
        if t.category == "unanswerable":
            continue
        g = await gold_truth(t, be, 0)
        text = oracle_answer(t, g.expected, context=g.context)
        q = f"{t.query}\n{t.query_en}"
        sc = matching.score_answer(t.facts, g.expected, text, question=q, context=g.context)
        oracle_bad += not all(sc[f.id] >= 1 for f in t.facts if f.required)
        lines = text.splitlines()
        for f in t.facts:
            if not f.required or f.matcher not in ("number", "money", "duration"):
                continue
            if len(set(EXT.findall(re.sub(r"\([^)]*\)", " ", f.description)))) != 1:
                continue
            i = next((k for k, ln in enumerate(lines) if ln.startswith("- ") and f.description in ln), None)
            if i is None:
                continue
            lab, val = lines[i][2:].split(":", 1)
            others = "\n".join(lines[:i] + lines[i + 1 :])
            if matching.match_text(f, g.expected[f.id], others) >= 1:
                skipped += 1
                continue
            swapped = EXT.sub(lambda m: SWAP[m.group(0)], lab)
            for form, new in (("line", f"- {swapped}:{val}"), ("prose", f"{swapped}은(는){val}입니다.")):
                att = "\n".join(lines[:i] + [new] + lines[i + 1 :]) if form == "line" else others + "\n" + new
                s = matching.score_answer(t.facts, g.expected, att, question=q, context=g.context)
                n[form] += 1
                held[form] += s[f.id] >= 1
    for form in n:
        print(f"opposite extreme ({form}): {held[form]}/{n[form]} facts hold")
    print(f"skipped (value stated by another line): {skipped}; oracle tasks failing: {oracle_bad}")


asyncio.run(main())
