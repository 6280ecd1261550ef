"""Unit or scale swap: the right digits said in the wrong unit.

For every required money, time and duration fact of KOPA-Bench (gold facts, oracle answer), the
fact's line is rewritten: money in won said with its leading scale word ("33.7억 원", the control)
and with another scale ("33.7만 원", "33.7천 원", "33.7조 원"), and the API digits with another unit
("337000원" for 337000 만원); a clock time said right ("15시", the control) and as minutes, seconds or
a day ("15분", "15초", "15일") or in the other half of the day ("오전 3시" for 15:00); a duration in
seconds said right ("38초", the control) and in minutes or hours ("38분", "38시간"). Controls must
hold; swaps must not.
"""

import asyncio

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

_WON = {"원": 1, "천원": 1e3, "만원": 1e4, "억원": 1e8}
_SCALE = {"조": 1e12, "억": 1e8, "만": 1e4, "천": 1e3}


def _num(x: float) -> str:
    return f"{x:,.4f}".rstrip("0").rstrip(".")


def variants(f, value) -> tuple[str, dict[str, str]] | None:
    """(control, {swap kind: text}) for one fact, or None when it is not a money/time/duration."""
    if f.matcher == "money" and matching.to_number(value) is not None:
        unit = f.unit or "원"
        won = matching.to_number(value) * _WON.get(unit, 1)
        top = next((w for w, s in _SCALE.items() if abs(won) >= s), None)
        if top is None:
            return None
        lead = won / _SCALE[top]
        swaps = {f"money scale {top}->{w}": f"{_num(lead)}{w} 원" for w in _SCALE if w != top}
        digits = f"{matching.to_number(value):g}"
        swaps |= {f"money unit {unit}->{u}": f"{digits}{u}" for u in _WON if u != unit}
        return f"{_num(lead)}{top} 원", swaps
    if f.matcher == "time" and isinstance(value, str | int):
        hhmm = str(value).replace(":", "").zfill(4)
        h, m = int(hhmm[:2]), int(hhmm[2:])
        said = f"{h}시" + (f" {m}분" if m else "")
        half = f"오전 {h - 12}시" if h > 12 else f"오후 {h}시" if 0 < h < 12 else None
        swaps = {"time as minutes": f"{h}분", "time as seconds": f"{h}초", "time as a day": f"{h}일"}
        if half:
            swaps["time other half of the day"] = half + (f" {m}분" if m else "")
        return said, swaps
    if f.matcher == "duration" and (f.unit or "s") == "s" and matching.to_number(value) is not None:
        s = int(matching.to_number(value))
        return f"{s}초", {"duration s->min": f"{s}분", "duration s->h": f"{s}시간"}
    return None


async def main():
    be = shared_backend(BackendConfig())
    control_fail: list[tuple[str, str]] = []
    total: dict[str, int] = {}
    passing: dict[str, int] = {}
    for t in load_tasks():
        g = await gold_truth(t, be, 0)
        lines = oracle_answer(t, g.expected, context=g.context).splitlines()
        for f in t.facts:
            v = variants(f, g.expected.get(f.id)) if f.required else None
            if v is None:
                continue
            control, swaps = v
            idx = 1 + [x.id for x in t.facts].index(f.id)
            label = lines[idx][2 : lines[idx].rindex(":")].strip()

            def score(text: str, t=t, g=g, f=f, lines=lines, idx=idx, label=label) -> float:
                ans = "\n".join([*lines[:idx], f"- {label}: {text}", *lines[idx + 1 :]])
                return matching.score_answer(t.facts, g.expected, ans, question=t.query, context=g.context)[
                    f.id
                ]

            if score(control) < 1.0:
                control_fail.append((t.id, f.id, control))
            for kind, text in swaps.items():
                total[kind] = total.get(kind, 0) + 1
                if score(text) >= 1.0:
                    passing[kind] = passing.get(kind, 0) + 1
                    print("SWAP HOLDS", t.id, f.id, repr(text))
    for kind in sorted(total):
        print(f"{kind}: {passing.get(kind, 0)}/{total[kind]} pass")
    print(f"all swaps: {sum(passing.values())}/{sum(total.values())}; controls failing: {control_fail}")


asyncio.run(main())
