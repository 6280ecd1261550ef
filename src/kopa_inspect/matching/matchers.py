"""One fact's matcher applied to a stretch of text (the dispatch over the matcher kinds)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kopa_inspect.matching.codes import code_label_score
from kopa_inspect.matching.dates import date_score, date_set_score, month_score
from kopa_inspect.matching.denials import _mask_ranges
from kopa_inspect.matching.fact_fields import _NUMERIC_KINDS, _get
from kopa_inspect.matching.names import (
    _NUMERIC,
    dish_set_score,
    exact_score,
    key_facts_score,
    name_score,
    ranked_set_score,
    set_score,
)
from kopa_inspect.matching.numbers import money_score, number_score
from kopa_inspect.matching.times import duration_score, time_score

# the periods a series is told by ("2026.01", "3~9월", "2월"): no figures of it
_PERIODS = re.compile(
    r"(?<![\d.])(?:\d{4}[./-]\d{1,2}(?:[./-]\d{1,2})?|\d{1,4}(?:\s*~\s*\d{1,4})?\s*(?:년|월|일))(?![\d])"
)


def _all_numeric(expected: Any) -> bool:
    return (
        isinstance(expected, list | tuple)
        and bool(expected)
        and all(
            isinstance(x, int | float) or (isinstance(x, str) and bool(_NUMERIC.fullmatch(x.strip())))
            for x in expected
        )
    )


def numeric_set_score(expected: Sequence[Any], text: str) -> float:
    """A set of figures (a monthly series: 2.5, 2.25, 2): each said as a number, in the API's precision
    or with trailing zeros ("2.50%", "2.00%"), not as a string inside another figure."""
    items = list(dict.fromkeys(str(x).strip() for x in expected))
    figures = _PERIODS.sub(lambda m: " " * len(m.group(0)), text)
    return sum(number_score(x, figures) >= 1.0 for x in items) / len(items)


def match_text(
    fact: Any, expected: Any, text: str, keys: Sequence[Any] | None = None, strict: bool = False
) -> float:
    """One fact's matcher applied to a stretch of text (no binding, no dump check). ``strict``
    drops the fact's tolerances: a competitor counts as stated only when it is said as such."""
    matcher = _get(fact, "matcher", "exact")
    tol = 0.0 if strict else float(_get(fact, "tolerance", 0.0) or 0.0)
    rel = 0.0 if strict else float(_get(fact, "rel_tol", 0.0) or 0.0)
    unit = _get(fact, "unit")
    if expected is None:
        return 0.0
    if matcher in _NUMERIC_KINDS:
        text = _mask_ranges(text)
    if matcher == "number":
        if isinstance(expected, list):
            return set_score(expected, text)
        return number_score(expected, text, tol, rel, unit)
    if matcher == "money":
        return money_score(expected, text, tol, rel, unit or "원")
    if matcher == "date":
        return date_score(expected, text)
    if matcher == "time":
        return time_score(expected, text)
    if matcher == "month":
        return month_score(expected, text)
    if matcher == "date_set":
        return date_set_score(expected, text)
    if matcher == "duration":
        return duration_score(expected, text, tol, rel, unit)
    if matcher == "code_label":
        return code_label_score(expected, text, _get(fact, "labels"))
    if matcher == "name":
        if isinstance(expected, list):
            return 1.0 if any(name_score(e, text) for e in expected) else 0.0
        return name_score(expected, text)
    if matcher == "ranked_set":
        return ranked_set_score(expected, text)
    if matcher == "set":
        return numeric_set_score(expected, text) if _all_numeric(expected) else set_score(expected, text)
    if matcher == "dish_set":
        return dish_set_score(expected, text)
    if matcher == "key_facts":
        return key_facts_score(keys, expected, text)
    if matcher == "exact":
        return exact_score(expected, text)
    raise ValueError(f"unknown matcher {matcher!r}")
