"""The value an answer claims for a fact, read against the competitors and the other facts' values."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView
from kopa_inspect.matching.binding import _RESPECTIVE
from kopa_inspect.matching.denials import _mask_ranges
from kopa_inspect.matching.hedges import _LIST_ITEM_RE, _LIST_RUN, _unit_class
from kopa_inspect.matching.lexicon import COUNT_UNITS_KO, DISJUNCTIONS_KO, alternation
from kopa_inspect.matching.matchers import match_text
from kopa_inspect.matching.names import _NUMERIC, normalize_name
from kopa_inspect.matching.numbers import _mask, to_number
from kopa_inspect.matching.winners import (
    _CONTRAST,
    _FIELD_WORDS,
    _JOIN,
    _MARKER,
    _NEGATED,
    _alternative_units,
    _claim_units,
    _is_list_item,
    _polarity,
    _runner_up_blanked,
)

# a month/day date ("3/12 제출", "(2026.03, 5/12)"): no two figures; a count unit after it makes it two
# counts offered ("3/4건")
_SLASH_DATE = re.compile(
    r"(?<![\d./])(?:1[0-2]|0?[1-9])/(?:[12]\d|3[01]|0?[1-9])(?![\d./%])"
    rf"(?!\s*(?:{alternation(COUNT_UNITS_KO)}|원|도|회|번|석|표|%))"
)


def _listings(text: str) -> list[tuple[list[str], bool]]:
    """The items of every run of like figures joined only by list separators (dates, clock times and
    ranges are no figures here), and whether the run is said to be respective."""
    text = _SLASH_DATE.sub(
        lambda m: " " * len(m.group(0)), _mask_ranges(_mask(unicodedata.normalize("NFKC", text)))
    )
    out: list[tuple[list[str], bool]] = []
    for m in _LIST_RUN.finditer(text):
        items = [x.group(0).strip(" ,") for x in _LIST_ITEM_RE.finditer(m.group(0))]
        units = {u for u in map(_unit_class, items) if u}
        if len(items) > 1 and len(units) <= 1:
            around = text[max(0, m.start() - 40) : m.end() + 16]
            out.append((items, bool(_RESPECTIVE.search(around))))
    return out


def _listed_among_others(fact: Any, values: Sequence[Any], siblings: Sequence[Any], text: str) -> bool:
    """Is the value stated as one item of a listing beside a figure that is not the value restated,
    nor an element of a sibling fact's list (that list's own answer: "월별 값: 2.5, 2.25, 2"), nor, in a
    list said to be respective, a sibling fact's value ("최고기온과 최저기온은 각각 21도, 14도")? Siblings
    are the task's other facts about the same subject (or, without one, the other facts without one)."""
    scalars = [x for x in siblings if not isinstance(x, list | tuple)]
    elements = [
        y for x in siblings if isinstance(x, list | tuple) for y in x if not isinstance(y, dict | list)
    ]
    for items, respective in _listings(text):
        if not any(match_text(fact, v, item) >= 1.0 for item in items for v in values):
            continue
        allowed = [*values, *elements, *(scalars if respective else ())]
        if any(
            not any(match_text(fact, a, item, strict=a not in values) >= 1.0 for a in allowed)
            for item in items
        ):
            return True
    return False


def _same_value(a: Any, b: Any) -> bool:
    if normalize_name(a) == normalize_name(b):
        return True
    # a name holding one figure ("우성1", "중랑 향토역사관 3") is not that figure: else a competitor
    # name would be dropped as "another fact's value" whenever a count of 1 or 3 is also asked
    if any(isinstance(v, str) and not _NUMERIC.fullmatch(v.strip()) for v in (a, b)):
        return False
    x, y = to_number(a), to_number(b)
    return x is not None and y is not None and abs(x - y) <= 1e-9 * max(1.0, abs(x))


def _same_sentence(view: AnswerView, a: str, b: str) -> bool:
    return any(a in g and b in g for g in view.clause_groups)


def claimed_value_score(
    fact: Any, values: Sequence[Any], competitors: Sequence[Any], view: AnswerView, direction: int = 0
) -> float:
    """A "which one" figure or date: the value of each claim (a structured line whose label has a
    superlative marker, or a free-text clause with one) must be the expected value, not a
    competitor's; a claim stating both is no claim. No claim at all scores 0."""
    units: list[tuple[str, bool]] = []
    for label, value in view.lines:
        lab = _FIELD_WORDS.sub(" ", label)
        if _MARKER.search(lab) and not (direction and _polarity(lab) and _polarity(lab) != direction):
            value = _runner_up_blanked(value, than=True)
            items = [
                x for x in re.split(rf"\s*{_JOIN}\s*(?!\d{{3}})", value, flags=re.IGNORECASE) if x.strip()
            ]
            units.append((value, len(items) > 1 and all(_is_list_item(x, []) for x in items)))
    units_free = _claim_units(view, [])
    # a marker clause that states no candidate figure takes the clause after it in its sentence ("가장
    # 높은 곳은 도산대로 측정소, 81 ㎍/㎥입니다": the comma splits the claim from its figure)
    joined: list[tuple[str, bool]] = []
    k = 0
    while k < len(units_free):
        clause, is_list = units_free[k]
        if (
            k + 1 < len(units_free)
            and _MARKER.search(_FIELD_WORDS.sub(" ", clause))
            and not any(match_text(fact, x, clause) >= 1.0 for x in [*values, *competitors])
            and not _MARKER.search(_FIELD_WORDS.sub(" ", units_free[k + 1][0]))
            and _same_sentence(view, clause, units_free[k + 1][0])
        ):
            clause, is_list = clause + ", " + units_free[k + 1][0], is_list or units_free[k + 1][1]
            k += 1
        joined.append((clause, is_list))
        k += 1
    for clause, is_list in joined:
        clean = _runner_up_blanked(_FIELD_WORDS.sub(" ", clause), than=True)
        if _MARKER.search(clean) and not (direction and _polarity(clean) and _polarity(clean) != direction):
            units.append(
                (
                    clean,
                    is_list
                    or bool(
                        re.search(rf"\d\s*\S{{0,6}}\s+(?:{alternation(DISJUNCTIONS_KO)}|아니면|or)\s", clean)
                    ),
                )
            )
    if any(match_text(fact, c, u, strict=True) >= 1.0 for u in _alternative_units(view) for c in competitors):
        return 0.0  # a competitor's figure offered as an alternative ("아니면 8억 8,500만 원일 수도")
    right = wrong = 0
    for unit, is_list in units:
        r = any(match_text(fact, v, unit) >= 1.0 for v in values)
        w = any(match_text(fact, c, unit, strict=True) >= 1.0 for c in competitors)
        negated = _CONTRAST.search(unit) is None and bool(_NEGATED.search(unit))
        if negated:  # "가장 비싼 거래는 25억 원이 아닙니다": wrong if it denies the right value
            wrong += r
            continue
        right += r and not w
        wrong += (w and not r) or (w and r and is_list)  # a list of candidates' values is no claim
    if not right and not wrong:
        # no claim: the answer holds only if it states the value and no competitor's; a runner-up
        # bound to its rank ("- 다음으로 높은 시각: 10시 68%") states no competitor as the answer
        text = _runner_up_blanked(view.text)
        r = any(match_text(fact, v, text) >= 1.0 for v in values)
        w = any(match_text(fact, c, text, strict=True) >= 1.0 for c in competitors)
        return 1.0 if r and not w else 0.0
    return 1.0 if right and not wrong else 0.0
