"""Is a fact grounded? Whether the agent's own OK calls showed what a required fact is read from.

Success is judged by outcome (issue: "KOPA-Bench credits every correct answer"): a fact counts when
its value is right *and* the records it is computed from were shown to the agent in this run,
whichever tools, filters, page sizes, lookups or order got them there. A code typed from memory
that returned the right records is no cheat (the records were shown); a value never shown cannot
be grounded, so a guess stays at 0.

Per gold step a fact reads, :class:`StepNeed` says what must have been shown (the records the
fact's value depends on, found by ablation on the gold output in :mod:`.grading`; or the query
itself when the fact reads a non-item field such as ``totalCount``). :func:`step_grounded` checks
one step against the run's calls, all pure functions of plain data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kopa_inspect import matching
from kopa_inspect.apis import get_operation, platforms
from kopa_inspect.execution import DEFAULT_MAX_CHARS, DEFAULT_MAX_ITEMS


def token_params() -> set[str]:
    return {p.session_token_param for p in platforms().values() if p.session_token_param}


def strip_tokens(args: Mapping[str, Any]) -> dict[str, Any]:
    tokens = token_params()
    return {k: v for k, v in args.items() if k not in tokens}


def shown_items(output: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The items a model is shown of an output (CallResult.for_model's cut: 100 items, 30k chars)."""
    out = dict(output)
    items = list(out.get("items") or [])
    out["items"] = items[:DEFAULT_MAX_ITEMS]
    while len(json.dumps(out, ensure_ascii=False)) > DEFAULT_MAX_CHARS and len(out["items"]) > 1:
        out["items"] = out["items"][: max(1, len(out["items"]) // 2)]
    return [i for i in out["items"] if isinstance(i, dict)]


@dataclass(frozen=True)
class StepNeed:
    """What one gold step must deliver to the agent."""

    records: frozenset[str]  # fingerprints of the output items the dependents read
    query: bool  # the dependents read a non-item field, or no item is needed: the query itself
    # Item-only steps that hold no needed record, beside steps of the same fact that do (a page of
    # a filtered count with no match): grounded when those steps are (one filtered call may
    # replace the pages).
    via: frozenset[str] = frozenset()
    # The needed records themselves and the fields the dependents read of them: a record may reach
    # the agent in another form (another API version's extra fields, another tool's view of the
    # same row), which its fingerprint does not recognise (:func:`same_row`).
    rows: tuple[Mapping[str, Any], ...] = ()
    fields: frozenset[str] = frozenset()


@dataclass(frozen=True)
class MadeCall:
    """One API call of the run, as grading sees it (tokens stripped, unknown arguments dropped)."""

    tool: str
    args: Mapping[str, Any]
    ok: bool
    records: frozenset[str] = frozenset()  # fingerprints of the items the model was shown
    total_count: int | None = None
    code: str | None = None


@dataclass(frozen=True)
class GoldStep:
    """A gold step's call and what its output showed."""

    tool: str
    args: Mapping[str, Any]
    accept: Mapping[str, Sequence[Any]] | None
    shown: frozenset[str]  # fingerprints of the items shown of the gold output
    total_count: int | None
    may_add: Mapping[str, Sequence[Any]] | None = None
    # every record the gold question has, over all its pages (:mod:`.answer_sets`), where it was read
    full: frozenset[str] | None = None


def own_params(op_id: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments the operation has (an unknown name is ignored by the API, as data.go.kr does);
    all of them when the operation is not registered."""
    try:
        names = {p.name for p in get_operation(op_id).params}
    except KeyError:
        return dict(args)
    return {k: v for k, v in args.items() if k in names}


def gold_arguments(op_id: str, want: Mapping[str, Any], got: Mapping[str, Any], accept: Any = None) -> bool:
    """``got`` asks what the gold ``want`` asks: :func:`matching.arguments_equal` (normalized, a
    larger first page, ``accept`` values) with nothing added that changes the answer. An added
    argument of the operation (a filter, a page number, a page size the gold left at its default)
    may narrow or move the rows: such a call is judged by the records it showed, not as the gold
    call. Added arguments the operation does not have, or set to its documented default, are
    harmless."""
    if not matching.arguments_equal(want, got, accept=accept):
        return False
    w, g = matching.normalize_args(want), matching.normalize_args(own_params(op_id, got))
    extra = {k: v for k, v in g.items() if k not in w}
    if not extra:
        return True
    try:
        defaults = {
            p.name: matching.normalize_value(p.default)
            for p in get_operation(op_id).params
            if p.default is not None
        }
    except KeyError:
        return False
    return all(defaults.get(k) == v for k, v in extra.items())


def asks_the_question(
    want: Mapping[str, Any],
    got: Mapping[str, Any],
    accept: Mapping[str, Sequence[Any]] | None = None,
    may_add: Mapping[str, Sequence[Any]] | None = None,
) -> bool:
    """The gold question (:func:`matching.same_query`: any paging, ``accept`` values), or the gold
    question narrowed only by filters the user's question itself states (``may_add``: lunch when
    the user asks for lunch, the education office of the city the user named). Any other added or
    changed argument asks something else: dinner only, another school, an extra filter."""
    if matching.same_query(want, got, accept=accept):
        return True
    if not may_add:
        return False
    g = matching.normalize_args(got)
    extra = {
        k: v for k, v in g.items() if k not in matching.normalize_args(want) and k not in matching.PAGING_ARGS
    }
    if not extra or any(k not in may_add for k in extra):
        return False
    if not all(any(matching.normalize_value(a) == v for a in may_add[k]) for k, v in extra.items()):
        return False
    return matching.same_query(want, {k: v for k, v in got.items() if k not in extra}, accept=accept)


def _same_answer_set(gold: GoldStep, call: MadeCall) -> bool:
    """An equivalent query: the same ``totalCount`` and the same rows in view (the records shown by
    the call and by the gold overlap). A month asked with the one-month
    parameter instead of a FROM/TO range, or a filter that changes nothing, qualifies; another
    period or place shows other rows and does not."""
    # A gold answer with no rows is no anchor: any query that finds nothing would match it.
    if gold.total_count is None or call.total_count != gold.total_count or not gold.shown:
        return False
    return bool(gold.shown & call.records)


def rows_shown(outputs: Sequence[str | None]) -> list[dict[str, Any]]:
    """The records of the tool outputs the model read (JSON with an ``items`` list, as
    ``CallResult.for_model`` writes them); other text (an error message) holds none."""
    rows: list[dict[str, Any]] = []
    for text in outputs:
        if not text:
            continue
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        items = doc.get("items") if isinstance(doc, dict) else None
        if isinstance(items, list):
            rows.extend(i for i in items if isinstance(i, dict))
    return rows


# Of the fields a gold record and its other form share beyond those the fact reads, the share that may
# differ: an API version computes a derived figure its own way (AirKorea's khaiValue without ver=1.3
# leaves PM2.5 out), which makes it no other row.
_DERIVED_SHARE = 0.2


def same_row(gold_row: Mapping[str, Any], fields: frozenset[str], shown: Mapping[str, Any]) -> bool:
    """``shown`` is the gold record in another form: it holds every field the fact reads with the
    gold's value, shares at least two fields with it (row numbers aside), and agrees on all but a
    fifth of the other shared fields; so it is the same row seen through another API version or
    another tool's view of it."""
    want = {k: v for k, v in gold_row.items() if k not in matching.ROW_NUMBER_FIELDS}
    shared = [k for k in want if k in shown and k not in matching.ROW_NUMBER_FIELDS]
    if not fields <= set(shared) or len(shared) < min(2, len(want)):
        return False
    differ = [k for k in shared if matching.normalize_value(want[k]) != matching.normalize_value(shown[k])]
    if any(k in fields for k in differ):
        return False
    return len(differ) <= _DERIVED_SHARE * max(1, len(shared) - len(fields))


def accepted_swaps(
    args: Mapping[str, Any], accept: Mapping[str, Sequence[Any]] | None
) -> dict[str, set[str]]:
    """Per gold argument value, the accepted values that may stand for it in a record asked with
    them (the school's own 동 grid for the 구's: ``ny`` 125 for 126)."""
    swaps: dict[str, set[str]] = {}
    for key, values in (accept or {}).items():
        if key in args:
            swaps.setdefault(matching.normalize_value(args[key]), set()).update(
                matching.normalize_value(v) for v in values
            )
    return swaps


def row_contained(
    gold_row: Mapping[str, Any], shown: Mapping[str, Any], swaps: Mapping[str, set[str]] | None = None
) -> bool:
    """``shown`` holds every field of ``gold_row`` (row numbers aside) with the same value: the same
    record through a view that adds fields (an API's development endpoint, a newer version), or,
    with ``swaps`` (:func:`accepted_swaps`), asked with an accepted argument value, where a field
    holding a gold argument's value may hold an accepted one instead."""
    want = {k: v for k, v in gold_row.items() if k not in matching.ROW_NUMBER_FIELDS}
    if not want or not all(k in shown for k in want):
        return False
    for k, v in want.items():
        g, o = matching.normalize_value(v), matching.normalize_value(shown[k])
        if g != o and o not in (swaps or {}).get(g, ()):
            return False
    return True


def absence_shown(gold: GoldStep, calls: Sequence[MadeCall]) -> bool:
    """A gold question with no record, answered by a wider one: an OK call to the same tool that
    asks nothing the gold does not (the same values, paging aside; filters left out) and showed
    every row it has (``totalCount`` within the records shown). The rows the gold's filters keep
    are among them, and there are none: a year's holidays shown whole for a month with none, every
    listing within 3 km for the lodgings there. A wider call cut by paging shows no absence."""
    want = matching.normalize_args(gold.args)
    for c in calls:
        if c.tool != gold.tool or not c.ok or c.total_count is None or len(c.records) < c.total_count:
            continue
        got = {
            k: v
            for k, v in matching.normalize_args(own_params(gold.tool, c.args)).items()
            if k not in matching.PAGING_ARGS
        }
        if all(k in want and want[k] == v for k, v in got.items()):
            return True
    return False


def step_grounded(
    need: StepNeed, gold: GoldStep, calls: Sequence[MadeCall], shown_rows: Sequence[Mapping[str, Any]] = ()
) -> bool:
    """Did the run's OK calls show what ``need`` asks for?

    The gold arguments (:func:`gold_arguments`) always do. Otherwise: every needed record among
    the records OK calls to the gold step's tool showed (any page size, order, filter or number of
    calls), or, failing its fingerprint, shown in another form among ``shown_rows`` (every record
    of the run's tool outputs; :func:`same_row`); and where the query itself is needed (a count), a
    call asking the same question at any paging, an equivalent query (:func:`_same_answer_set`), or
    every record of the gold question's whole answer set shown by any calls (``gold.full``: the
    agent counted them itself from a wider list)."""
    same_tool = [c for c in calls if c.tool == gold.tool and c.ok]
    if any(gold_arguments(gold.tool, gold.args, c.args, gold.accept) for c in same_tool):
        return True
    shown: set[str] = set().union(*(c.records for c in same_tool)) if same_tool else set()
    unseen = need.records - shown
    if unseen:
        rows = [r for r in need.rows if matching.record_fingerprint(r) in unseen]
        swaps = accepted_swaps(gold.args, gold.accept)
        if len(rows) < len(unseen) or not all(
            any(
                same_row(r, need.fields, s) or (gold.accept and row_contained(r, s, swaps))
                for s in shown_rows
            )
            for r in rows
        ):
            return False
    if need.query:
        if any(
            matching.same_query(gold.args, c.args, accept=gold.accept) or _same_answer_set(gold, c)
            for c in same_tool
        ):
            return True
        if gold.full:
            seen = shown | {matching.record_fingerprint(r) for r in shown_rows}
            return gold.full <= seen
        return False
    return bool(need.records)
