"""A value's other names in its own gold row (corp_name and corp_eng_name name one company)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from kopa_inspect.matching.fact_fields import _as_list
from kopa_inspect.matching.hedges import _person_like, _same_kind
from kopa_inspect.matching.names import normalize_name


def _row_dicts(node: Any) -> Iterable[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for x in node.values():
            yield from _row_dicts(x)
    elif isinstance(node, list | tuple):
        for x in node:
            yield from _row_dicts(x)


def _scalar(x: Any) -> bool:
    return isinstance(x, str | int | float) and not isinstance(x, bool)


# An alias longer than this is a text (a description, an overview), not another name of the value.
_ALIAS_MAX_CHARS = 60
# Fields named as the two ends of one thing (a route's start and end stop, the previous and next
# station, the high and the low): each is a candidate the question may mean, never the other's alias.
# UNCERTAIN: a word list over field names.
_ENDS = (
    ("start", "end"),
    ("prev", "next"),
    ("from", "to"),
    ("dep", "arr"),
    ("orig", "dest"),
    ("first", "last"),
    ("min", "max"),
    ("high", "low"),
    ("up", "down"),
    ("begin", "end"),
    ("출발", "도착"),
    ("시작", "종료"),
    ("상행", "하행"),
    ("이전", "다음"),
    ("최고", "최저"),
    ("기점", "종점"),
)


def _other_ends(key: str) -> set[str]:
    """The field names of the other end of ``key`` ("startnodenm" -> "endnodenm"), lower-cased."""
    k = key.lower()
    out = set()
    for a, b in _ENDS:
        for x, y in ((a, b), (b, a)):
            if x in k:
                out.add(k.replace(x, y))
    return out


def row_aliases(value: Any, data: Any, exclude: Iterable[Any] = ()) -> list[Any]:
    """The value's other names in its own result row: the scalar fields that EVERY row (JSON object)
    of ``data`` holding ``value`` (a field equal to it, names normalized) also holds, e.g. a corpCode
    row's ``corp_eng_name`` beside its ``corp_name``, a station's code beside its name. Not aliases:
    a field of the value's own kind (a 역 beside a 역: the row's other stop is a candidate the
    question may mean), a second person beside a person, a text longer than 60 characters, anything in
    ``exclude`` (the fact's competitors), the field of the other end ("endnodenm" beside "startnodenm",
    :data:`_ENDS`). A value found in no row, or in rows of different things
    (a party in every candidate's row), has none (their common fields only). UNCERTAIN: a row's
    field is taken for another name of the same thing; only an exact field value finds the row."""
    if not _scalar(value):
        return []
    v = unicodedata.normalize("NFKC", str(value)).strip()
    v_n = normalize_name(v)
    if not v_n:
        return []
    common: dict[str, Any] | None = None
    for row in _row_dicts(data):
        own = [k for k, x in row.items() if _scalar(x) and normalize_name(x) == v_n]
        if not own:
            continue
        ends = {e for k in own for e in _other_ends(str(k))}
        here = {
            normalize_name(x): x
            for k, x in row.items()
            if _scalar(x) and normalize_name(x) not in ("", v_n) and str(k).lower() not in ends
        }
        common = here if common is None else {k: common[k] for k in common if k in here}
    if not common:
        return []
    ex = {normalize_name(e) for e in exclude if _scalar(e)}
    return [
        x
        for k, x in common.items()
        if k not in ex
        and len(str(x)) <= _ALIAS_MAX_CHARS
        and not _same_kind(v, str(x))
        and not (_person_like(v) and _person_like(str(x).strip()))
    ]


def with_row_aliases(
    context: Mapping[str, Mapping[str, Any]], expected: Mapping[str, Any], outputs: Any
) -> dict[str, dict[str, Any]]:
    """``context`` (per fact id, as :func:`score_answer` takes it) with each single value's
    :func:`row_aliases` in the gold outputs added as ``aliases`` (competitors excluded)."""
    out = {k: dict(v) for k, v in context.items()}
    for fid, value in expected.items():
        ctx = out.setdefault(fid, {})
        found = row_aliases(value, outputs, _as_list(ctx.get("competitors")))
        if found:
            ctx["aliases"] = found
    return out
