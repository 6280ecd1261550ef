"""Which field names a row for a person (``row_label``): the school's name, not its education
office's. The Korean names of an operation's result, an output field and a parameter
(``op_noun``, ``field_label``, ``param_label``) live in ``edge_synth.lexicon``.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from edge_synth.fields import concept, is_name_like
from edge_synth.lexicon import field_label as field_label
from edge_synth.lexicon import name_field
from kopa_inspect.apis import get_operation


def row_label(
    op_id: str, row: dict[str, Any], items: list[dict[str, Any]] | None = None
) -> tuple[str, str] | None:
    """(field, value) that names ``row`` for a person, or None.

    A name-like field whose value tells this row apart from the others in ``items`` (a school's
    name, not its education office's, which fifty schools share); among several, the one with the
    most distinct values across the rows. An operation of the askable table names its rows by its
    declared name field only (lexicon.name_field: the station, not the 권역 it belongs to; the
    daycare, not its address): a row whose name another row shares has no name a person can say."""
    fields = get_operation(op_id).output_fields
    own = name_field(op_id)
    if own is not None:
        v = row.get(own)
        if not _sayable(v) or (items and sum(str(it.get(own, "")).strip() == v.strip() for it in items) != 1):
            return None
        return own, v.strip()
    cands = list(
        dict.fromkeys(
            [f for f in fields if is_name_like(f, fields.get(f, ""))] + [f for f in row if is_name_like(f)]
        )
    )
    rows = items or [row]

    scored = []
    for pos, f in enumerate(cands):
        v = row.get(f)
        if not _sayable(v):
            continue
        same = sum(1 for it in rows if str(it.get(f, "")).strip() == v.strip())
        if same != 1 and len(rows) > 1:
            continue  # does not single the row out
        distinct = len({str(it.get(f, "")).strip() for it in rows})
        # Among equals, a place at a coarser level names the row last: a one-row result with
        # 시도, 시군구 and 읍면동 is the 읍면동 ("'서울특별시'의 시군구 이름은 성북구" named nothing).
        coarse = _REGION_LEVEL.get(concept(f, op_id) or "", 0)
        scored.append((coarse, -distinct, pos, f, v.strip()))
    if not scored:
        return None
    _, _, _, f, v = min(scored)
    return f, v


def _sayable(v: Any) -> TypeGuard[str]:
    # A masked name ("강*은", privacy masking of an owner) names nobody a person could say.
    return (
        isinstance(v, str) and bool(v.strip()) and not v.strip().isdigit() and len(v) <= 40 and "*" not in v
    )


_REGION_LEVEL = {"sidonm": 3, "sggnm": 2, "umdnm": 1}
