"""Two facts with the same figure are two answers: each must be given.

"두 정류장 모두 도착 예정 버스가 몇 대씩" with 10 at each stop: "센텀시티 정류장에는 10대" answers one stop,
and no matcher can tell which, so a figure shared by several facts without a subject counts once per
time it is said, or for all of them where the answer says it holds for each ("각각 10대", "두 곳 모두
10대", "both have 10"). The facts said fewer times than they are asked keep only the first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from kopa_inspect.matching.denials import _mask_ranges, undenied
from kopa_inspect.matching.fact_fields import _NUMERIC_KINDS, _get
from kopa_inspect.matching.numbers import _mask, to_number

# a figure said for every one of the asked things at once
_FOR_EACH = re.compile(
    r"각각|모두|둘\s*다|양쪽\s*(?:다|모두)|똑같이|같은|동일|\b(?:both|each|all)\b", re.IGNORECASE
)
_FIGURE = re.compile(r"(?<![\d.])\d[\d,]*(?:\.\d+)?")
_SENTENCE = re.compile(r"[^.!?\n]+")


def _times_said(value: float, text: str) -> tuple[int, bool]:
    """How often ``value`` is said as a figure, and whether a sentence saying it says it is for each."""
    times, for_each = 0, False
    for sentence in _SENTENCE.findall(text):
        here = sum(1 for m in _FIGURE.finditer(sentence) if to_number(m.group(0)) == value)
        times += here
        for_each |= bool(here and _FOR_EACH.search(sentence))
    return times, for_each


def each_equal_value_said(
    facts: Sequence[Any],
    expected: Mapping[str, Any],
    subjects: Mapping[str, Any],
    answer: str,
    scores: dict[str, float],
) -> dict[str, float]:
    """``scores`` with the facts of a shared figure said fewer times than asked kept to the first."""
    groups: dict[float, list[str]] = {}
    for f in facts:
        fid = str(_get(f, "id"))
        value = to_number(expected.get(fid)) if _get(f, "matcher") in _NUMERIC_KINDS else None
        if value is not None and not subjects.get(fid) and scores.get(fid) == 1.0:
            groups.setdefault(value, []).append(fid)
    # a figure denied ("10대가 아닙니다") or inside a range ("10~12대") is not said as the answer
    text = _mask_ranges(_mask(undenied(unicodedata.normalize("NFKC", answer or ""))))
    out = dict(scores)
    for value, fids in groups.items():
        if len(fids) < 2:
            continue
        times, for_each = _times_said(value, text)
        if not for_each and times < len(fids):
            for fid in fids[max(times, 1) :]:
                out[fid] = 0.0
    return out
