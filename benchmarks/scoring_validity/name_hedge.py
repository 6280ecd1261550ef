"""A name offered beside an invented one ("정신아 또는 김철수") in one oracle line: how many tasks still pass?

Every required name/exact fact of an answerable task whose value is a name (no digit: route numbers,
codes and addresses are figure_hedge.py's) gets its oracle line rewritten with the value hedged with
an invented person, institution or place, in eight forms ("V 또는 X", "X 또는 V", "V(이)나 X", "V 혹은 X일 수
있습니다", "V입니다. 아니면 X일 수도 있습니다", "V/X", "V, X 중 하나", "X 내지 V"); graded by ``matching.score_answer`` with the task's query, as
``grading.grade`` grades the answer. Want 0 passing. The unchanged oracle is the control (want every
task passing).
"""

import asyncio
import re
import sys

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

INVENTED = {"person": "김철수", "institution": "세브란스병원", "place": "강서구"}


def _batchim(word: str) -> bool:
    c = word[-1]
    return "가" <= c <= "힣" and (ord(c) - 0xAC00) % 28 != 0


def forms(v: str, x: str) -> list[str]:
    return [
        f"{v} 또는 {x}",
        f"{x} 또는 {v}",
        f"{v}{'이나' if _batchim(v) else '나'} {x}",
        f"{v} 혹은 {x}일 수 있습니다",
        f"{v}입니다. 아니면 {x}일 수도 있습니다",
        f"{v}/{x}",
        f"{v}, {x} 중 하나",
        f"{x} 내지 {v}",
    ]


async def main(verbose: bool) -> None:
    be = shared_backend(BackendConfig())
    n = passed = oracle_ok = tasks = 0
    by_kind: dict[str, list[int]] = {k: [0, 0] for k in INVENTED}
    for t in load_tasks():
        if t.category == "unanswerable":
            continue
        g = await gold_truth(t, be, 0)
        text = oracle_answer(t, g.expected, context=g.context)
        question = f"{t.query}\n{t.query_en}"
        tasks += 1
        sc = matching.score_answer(t.facts, g.expected, text, question=question, context=g.context)
        oracle_ok += all(sc[f.id] >= 1 for f in t.facts if f.required)
        lines = text.splitlines()
        known = {matching.normalize_name(v) for v in g.expected.values() if isinstance(v, str)}
        for f in t.facts:
            v = g.expected.get(f.id)
            if (
                not f.required
                or f.matcher not in ("name", "exact")
                or not isinstance(v, str)
                or re.search(r"\d", v)
            ):
                continue
            i = next((k for k, line in enumerate(lines) if ":" in line and v in line.split(":", 1)[1]), None)
            if i is None:
                continue
            lab, val = lines[i].split(":", 1)
            for kind, x in INVENTED.items():
                if matching.normalize_name(x) in known or x in question:
                    continue
                for form in forms(v, x):
                    att = "\n".join(lines[:i] + [f"{lab}:{val.replace(v, form, 1)}"] + lines[i + 1 :])
                    s = matching.score_answer(t.facts, g.expected, att, question=question, context=g.context)
                    ok = all(s[h.id] >= 1 for h in t.facts if h.required)
                    n += 1
                    passed += ok
                    by_kind[kind][0] += ok
                    by_kind[kind][1] += 1
                    if ok and verbose:
                        print(t.id, f.id, f"{lab}:{val.replace(v, form, 1)}")
    print(f"oracle (unchanged) passing: {oracle_ok}/{tasks}")
    print(f"name hedged with an invented one in one oracle line: {passed}/{n} still pass")
    for kind, (p, k) in by_kind.items():
        print(f"  {kind} ({INVENTED[kind]}): {p}/{k}")


asyncio.run(main("-v" in sys.argv))
