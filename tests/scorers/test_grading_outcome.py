"""Success by grounded outcome, both ways: the routes a careful agent takes to the right records
pass, and a right value the run never showed fails.

Each case replays real calls through the embedded emulator at the task's clock
(:func:`scorers.corpus.replay_calls`), as the Inspect tools record them.
"""

from __future__ import annotations

from typing import Any

import pytest

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.corpus import replay_calls
from kopa_inspect.scorers.grading import Grade, gold_truth, grade, oracle_answer
from kopa_inspect.scorers.grounding import GoldStep, MadeCall, StepNeed, asks_the_question, step_grounded
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

TRADE, RENT = "molit_getRTMSDataSvcAptTrade", "molit_getRTMSDataSvcAptRent"
STAN = "stanregincd_getStanReginCdList"


async def _grade(task_id: str, calls: list[tuple[str, dict[str, Any]]], answer: str | None = None) -> Grade:
    task = next(t for t in load_tasks() if t.id == task_id)
    backend = shared_backend(BackendConfig())
    gold = await gold_truth(task, backend, 0)
    entries = await replay_calls(task, backend, calls)
    return grade(
        task,
        gold,
        answer if answer is not None else oracle_answer(task, gold.expected),
        entries,
        records=entries,
    )


# kopa-001: 마포구 this month's top sale and its price, last month's number of sales, top jeonse.
MAPO = "11440"


async def test_code_typed_without_the_lookup_is_grounded_by_the_records_it_showed() -> None:
    g = await _grade(
        "kopa-001",
        [
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (RENT, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "numOfRows": 1}),
        ],
    )
    assert g.success == 1.0, g.explanation()
    assert g.env is not None and g.env < 1.0  # the skipped lookup still shows on its own axis


async def test_other_page_size_and_order_pass() -> None:
    g = await _grade(
        "kopa-001",
        [
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "numOfRows": 5, "pageNo": 1}),
            (RENT, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 1000}),
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 1000}),
        ],
    )
    assert g.success == 1.0, g.explanation()


async def test_right_values_never_shown_fail() -> None:
    no_calls = await _grade("kopa-001", [])
    assert no_calls.success == 0.0
    # last month asked for another month: the count was never shown
    wrong_month = await _grade(
        "kopa-001",
        [
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (RENT, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202608", "numOfRows": 10}),
        ],
    )
    assert wrong_month.success == 0.0 and "not grounded" in wrong_month.explanation()
    # the jeonse deposit stated without asking the rent list
    no_rent = await _grade(
        "kopa-001",
        [
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "numOfRows": 10}),
        ],
    )
    assert no_rent.success == 0.0
    # another district's sales show other records
    other = await _grade(
        "kopa-001",
        [
            (TRADE, {"LAWD_CD": "11410", "DEAL_YMD": "202610", "numOfRows": 100}),
            (RENT, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "numOfRows": 10}),
        ],
    )
    assert other.success == 0.0


async def test_a_max_needs_every_candidate_not_only_the_winner() -> None:
    # only the first 3 rows of this month's sales: the winner's record may be there, the rest is not
    g = await _grade(
        "kopa-001",
        [
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 3}),
            (RENT, {"LAWD_CD": MAPO, "DEAL_YMD": "202610", "numOfRows": 100}),
            (TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "numOfRows": 10}),
        ],
    )
    assert g.success == 0.0


# kopa-134: 서울대치초등학교's lunch on a date of next year: no meals there (the evidence call).
SCHOOL, MEAL = "neis_schoolInfo", "neis_mealServiceDietInfo"


async def _daechi_meal(extra: dict[str, Any]) -> Grade:
    school = {"SCHUL_NM": "서울대치초등학교"}
    task = next(t for t in load_tasks() if t.id == "kopa-134")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    codes = gold.run.args["s2"]
    meal = {
        "ATPT_OFCDC_SC_CODE": codes["ATPT_OFCDC_SC_CODE"],
        "SD_SCHUL_CODE": codes["SD_SCHUL_CODE"],
        "MLSV_YMD": "20270310",
        **extra,
    }
    return await _grade("kopa-134", [("neis_get_api_key", {}), (SCHOOL, school), (MEAL, meal)])


async def test_refusal_evidence_asked_as_specifically_as_the_question_passes() -> None:
    assert (await _daechi_meal({})).success == 1.0
    lunch = await _daechi_meal({"MMEAL_SC_CODE": "2"})
    assert lunch.success == 1.0, lunch.explanation()


async def test_refusal_evidence_about_something_else_fails() -> None:
    assert (await _daechi_meal({"MMEAL_SC_CODE": "3"})).success == 0.0  # dinner: not what was asked
    assert (await _daechi_meal({"MLSV_YMD": "20270311"})).success == 0.0  # another day


async def test_school_search_narrowed_to_the_named_city() -> None:
    ok = await _grade(
        "kopa-144",
        [("neis_get_api_key", {}), (SCHOOL, {"SCHUL_NM": "한빛누리초등학교", "ATPT_OFCDC_SC_CODE": "B10"})],
    )
    assert ok.success == 1.0, ok.explanation()
    other_city = await _grade(
        "kopa-144",
        [("neis_get_api_key", {}), (SCHOOL, {"SCHUL_NM": "한빛누리초등학교", "ATPT_OFCDC_SC_CODE": "J10"})],
    )
    assert other_city.success == 0.0


# --- the pure rules -------------------------------------------------------------------------------

GOLD = GoldStep(
    tool=TRADE,
    args={"LAWD_CD": MAPO, "DEAL_YMD": "202609"},
    accept=None,
    shown=frozenset({"r1", "r2"}),
    total_count=197,
)
COUNT = StepNeed(frozenset(), True)


@pytest.mark.parametrize(
    ("call", "grounded"),
    [
        (
            MadeCall(
                TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "numOfRows": 1}, True, frozenset({"r1"}), 197
            ),
            True,
        ),
        # an equivalent query: same count, the same rows in view
        (
            MadeCall(
                TRADE,
                {"LAWD_CD": MAPO, "DEAL_YMD": "202609", "dealType": "x"},
                True,
                frozenset({"r2", "r9"}),
                197,
            ),
            True,
        ),
        # a coincidentally equal count over other rows
        (MadeCall(TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202608"}, True, frozenset({"r7"}), 197), False),
        (MadeCall(TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202608"}, True, frozenset({"r1"}), 150), False),
        (MadeCall(TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202609"}, False), False),  # refused
        (
            MadeCall(RENT, {"LAWD_CD": MAPO, "DEAL_YMD": "202609"}, True, frozenset({"r1"}), 197),
            False,
        ),  # other tool
    ],
)
def test_count_grounding(call: MadeCall, grounded: bool) -> None:
    assert step_grounded(COUNT, GOLD, [call]) is grounded


def test_records_grounding_unions_calls() -> None:
    need = StepNeed(frozenset({"a", "b", "c"}), False)
    gold = GoldStep(STAN, {"locatadd_nm": "서울특별시 마포구"}, None, frozenset({"a", "b", "c"}), 3)
    page1 = MadeCall(STAN, {"locatadd_nm": "마포구", "pageNo": 1}, True, frozenset({"a", "b"}))
    page2 = MadeCall(STAN, {"locatadd_nm": "마포구", "pageNo": 2}, True, frozenset({"c"}))
    assert step_grounded(need, gold, [page1, page2])
    assert not step_grounded(need, gold, [page1])


def test_empty_gold_is_no_anchor_for_an_equivalent_query() -> None:
    gold = GoldStep(TRADE, {"LAWD_CD": MAPO, "DEAL_YMD": "202612"}, None, frozenset(), 0)
    assert not step_grounded(
        COUNT, gold, [MadeCall(TRADE, {"LAWD_CD": "11410", "DEAL_YMD": "202612"}, True, frozenset(), 0)]
    )


@pytest.mark.parametrize(
    ("got", "same"),
    [
        ({"A": "1", "D": "20270310"}, True),
        ({"A": "1", "D": "20270310", "numOfRows": 5}, True),
        ({"A": "1", "D": "20270310", "M": "2"}, True),
        ({"A": "1", "D": "20270310", "M": "3"}, False),
        ({"A": "1", "D": "20270310", "X": "2"}, False),
        ({"A": "2", "D": "20270310", "M": "2"}, False),
        ({"A": "1", "M": "2"}, False),
    ],
)
def test_asks_the_question(got: dict[str, Any], same: bool) -> None:
    assert asks_the_question({"A": "1", "D": "20270310"}, got, may_add={"M": ["2"]}) is same
