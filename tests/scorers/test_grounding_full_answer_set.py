"""A count is grounded when every record of the gold question's whole answer set was shown.

The gold reads a count from ``totalCount`` of a filtered query (one party's members); a careful
agent may page the unfiltered list and count the rows itself. When the records it was shown hold
every record of the gold question (all pages, :mod:`kopa_inspect.scorers.answer_sets`), the count
is grounded. A view missing one of them is not, and neither is any view when the answer set was
not read (too large, or empty: an empty set would hold vacuously)."""

from __future__ import annotations

from kopa_inspect import matching
from kopa_inspect.scorers.grounding import GoldStep, MadeCall, StepNeed, step_grounded

TOOL = "assembly_nwvrqwxyaytdsfvhu"
PARTY = [{"HG_NM": f"의원{i}", "POLY_NM": "조국혁신당"} for i in range(12)]
OTHERS = [{"HG_NM": f"다른{i}", "POLY_NM": "진보당"} for i in range(30)]
FULL = frozenset(matching.record_fingerprint(r) for r in PARTY)
NEED = StepNeed(frozenset(), True)


def _gold(full: frozenset[str] | None = FULL) -> GoldStep:
    return GoldStep(
        tool=TOOL,
        args={"POLY_NM": "조국혁신당", "pSize": 5},
        accept=None,
        shown=frozenset(matching.record_fingerprint(r) for r in PARTY[:5]),
        total_count=12,
        full=full,
    )


def _call(rows: list[dict], **args: object) -> MadeCall:
    return MadeCall(TOOL, args, True, frozenset(matching.record_fingerprint(r) for r in rows), total_count=42)


def test_every_record_of_the_answer_set_shown_by_wider_pages_grounds_the_count() -> None:
    rows = PARTY + OTHERS
    calls = [
        _call(rows[:20], pSize=20, pIndex=1),
        _call(rows[20:40], pSize=20, pIndex=2),
        _call(rows[40:], pSize=20, pIndex=3),
    ]
    assert step_grounded(NEED, _gold(), calls)


def test_the_rows_read_from_the_outputs_count_too() -> None:
    assert step_grounded(NEED, _gold(), [], shown_rows=PARTY + OTHERS[:3])


def test_a_view_missing_one_record_does_not_ground_the_count() -> None:
    rows = PARTY[1:] + OTHERS
    assert not step_grounded(NEED, _gold(), [_call(rows, pSize=100)])


def test_without_the_answer_set_only_the_query_grounds_the_count() -> None:
    wide = [_call(PARTY + OTHERS, pSize=100)]
    assert not step_grounded(NEED, _gold(full=None), wide)
    assert not step_grounded(NEED, _gold(full=frozenset()), wide)
    assert step_grounded(NEED, _gold(full=None), [_call(PARTY[:3], POLY_NM="조국혁신당", pSize=3)])
