"""Routes to the right records the gold plan does not take, both ways.

- A question with no record answered by a wider call that showed every row it has (a year's
  holidays for a month with none; every listing within 3 km for the lodgings there); a wider call
  cut by paging, or one asking another value, shows no absence.
- A page the task requires, shown through another endpoint that adds fields (MOLIT's development
  endpoint at another page size); a page left unread is not.
- A fact's ``also_from`` source: the same value shown by another call the plan lists (the seat table
  for a party's seats, the hospital list's own specialist count, the province-wide real-time list);
  a source the run never asked, or a value of another row, grounds nothing.

Each case replays real calls through the embedded emulator at the task's clock.
"""

from __future__ import annotations

from typing import Any

import pytest

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.corpus import outputs_of, replay_calls
from kopa_inspect.scorers.grading import Grade, gold_truth, grade
from kopa_inspect.scorers.grounding import GoldStep, MadeCall, absence_shown, row_contained
from kopa_inspect.task_data.schema import load_tasks, resolve_value
from kopa_inspect.tools import shared_backend

REST = "kasi_getRestDeInfo"
NEARBY = "tourapi_locationBasedList2"
TRADE_DEV = "molit_getRTMSDataSvcAptTradeDev"
SEATS = "assembly_yavrcqtlzqcaqvalg"
WINNERS = "nec_getWinnerInfoInqire"


async def _grade(task_id: str, calls: list[tuple[str, dict[str, Any]]], answer: str) -> Grade:
    task = next(t for t in load_tasks() if t.id == task_id)
    backend = shared_backend(BackendConfig())
    gold = await gold_truth(task, backend, 0)
    entries = await replay_calls(task, backend, calls)
    return grade(task, gold, answer, entries, records=entries, outputs=outputs_of(entries))


# kopa-016: every public holiday from September to November (none in November).
HOLIDAYS = (
    "9~11월 공휴일: 2026.09.24, 2026.09.25, 2026.09.26(추석), 2026.10.03(개천절), "
    "2026.10.05(대체공휴일), 2026.10.09(한글날). 11월에는 공휴일이 없습니다."
)


async def test_a_year_shown_whole_grounds_a_month_without_holidays() -> None:
    g = await _grade("kopa-016", [(REST, {"solYear": "2026", "numOfRows": 50})], HOLIDAYS)
    assert g.success == 1.0, g.explanation()


async def test_a_year_cut_by_paging_shows_no_absence() -> None:
    # the first 10 of the year's rows: September and October may be there, November is unseen
    g = await _grade(
        "kopa-016",
        [
            (REST, {"solYear": "2026", "numOfRows": 10}),
            (REST, {"solYear": "2026", "solMonth": "09"}),
            (REST, {"solYear": "2026", "solMonth": "10"}),
        ],
        HOLIDAYS,
    )
    assert g.success == 0.0
    assert "not grounded" in g.explanation()


async def test_another_year_shows_nothing_of_this_one() -> None:
    g = await _grade(
        "kopa-016",
        [
            (REST, {"solYear": "2025", "numOfRows": 50}),
            (REST, {"solYear": "2026", "solMonth": "09"}),
            (REST, {"solYear": "2026", "solMonth": "10"}),
        ],
        HOLIDAYS,
    )
    assert g.success == 0.0


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (MadeCall(REST, {"solYear": "2026", "numOfRows": 50}, True, frozenset({"a", "b"}), 2), True),
        (MadeCall(REST, {"solYear": "2026", "solMonth": "11"}, True, frozenset(), 0), True),
        (
            MadeCall(REST, {"solYear": "2026", "numOfRows": 1}, True, frozenset({"a"}), 2),
            False,
        ),  # cut by paging
        (
            MadeCall(REST, {"solYear": "2025", "numOfRows": 50}, True, frozenset({"a", "b"}), 2),
            False,
        ),  # another year
        (MadeCall(REST, {"solYear": "2026", "solMonth": "12"}, True, frozenset(), 0), False),  # another month
        (MadeCall(REST, {"solYear": "2026"}, False), False),  # refused
        (MadeCall("kasi_getHoliDeInfo", {"solYear": "2026"}, True, frozenset(), 0), False),  # another tool
    ],
)
def test_absence_shown(call: MadeCall, shown: bool) -> None:
    gold = GoldStep(REST, {"solYear": "2026", "solMonth": "11"}, None, frozenset(), 0)
    assert absence_shown(gold, [call]) is shown


# kopa-089: lodgings within 3 km of 성산일출봉 (none: only sights and restaurants there).
async def _seongsan(nearby: dict[str, Any], answer: str) -> Grade:
    task = next(t for t in load_tasks() if t.id == "kopa-089")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    xy = {k: gold.run.args["n2"][k] for k in ("mapX", "mapY")}
    return await _grade(
        "kopa-089",
        [
            ("kma_mid_getMidLandFcst", dict(gold.run.args["w1"])),
            ("tourapi_detailCommon2", dict(gold.run.args["s2"])),
            (NEARBY, {**xy, **nearby}),
        ],
        answer,
    )


async def test_every_listing_nearby_shows_there_is_no_lodging() -> None:
    task = next(t for t in load_tasks() if t.id == "kopa-089")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    sky = gold.expected["sky"]
    answer = f"그날 제주 오전 하늘은 {sky} 예보입니다. 반경 3km 안 숙소는 0곳입니다."
    whole = await _seongsan({"radius": 3000, "numOfRows": 100}, answer)
    assert whole.success == 1.0, whole.explanation()
    first_row = await _seongsan({"radius": 3000, "numOfRows": 1}, answer)
    assert first_row.success == 0.0
    smaller_circle = await _seongsan({"radius": 1000, "numOfRows": 100}, answer)
    assert smaller_circle.success == 0.0


# kopa-006: the cheapest of all this month's sales (three pages of the list are required).
async def test_required_pages_read_through_the_development_endpoint() -> None:
    task = next(t for t in load_tasks() if t.id == "kopa-006")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    answer = f"가장 싸게 거래된 건은 {gold.expected['apt']}, {gold.expected['price']}만원입니다."
    args = {"LAWD_CD": "11710", "DEAL_YMD": "202610", "numOfRows": 15}
    both = await _grade(
        "kopa-006", [(TRADE_DEV, {**args, "pageNo": 1}), (TRADE_DEV, {**args, "pageNo": 2})], answer
    )
    assert both.success == 1.0, both.explanation()
    first_only = await _grade("kopa-006", [(TRADE_DEV, {**args, "pageNo": 1})], answer)
    assert first_only.success == 0.0


def test_a_row_with_added_fields_is_contained_one_with_another_value_is_not() -> None:
    gold = {"aptNm": "삼성3", "dealAmount": "83,100", "dealDay": "4", "rnum": "1"}
    assert row_contained(gold, gold | {"rnum": "7", "aptDong": "101", "rgstDate": "26.10.20"})
    assert not row_contained(gold, gold | {"dealAmount": "93,700"})
    assert not row_contained(gold, {k: v for k, v in gold.items() if k != "dealDay"})


# kopa-097: Busan PPP winners and the PPP's seats now (the member list's count, or the seat table).
async def _busan(extra: list[tuple[str, dict[str, Any]]]) -> Grade:
    task = next(t for t in load_tasks() if t.id == "kopa-097")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    answer = f"부산 지역구 국민의힘 당선자는 {gold.expected['won']}명, 현재 국민의힘 의석은 {gold.expected['seats']}석입니다."
    return await _grade("kopa-097", [(WINNERS, {**gold.run.args["s2"], "numOfRows": 100}), *extra], answer)


async def test_seats_from_the_seat_table_pass() -> None:
    whole = await _busan([(SEATS, {})])
    assert whole.success == 1.0, whole.explanation()
    filtered = await _busan([(SEATS, {"POLY_NM": "국민의힘"})])
    assert filtered.success == 1.0, filtered.explanation()


async def test_seats_never_shown_or_of_another_party_fail() -> None:
    assert (await _busan([])).success == 0.0
    assert (await _busan([(SEATS, {"POLY_NM": "더불어민주당"})])).success == 0.0


async def test_every_also_from_source_gives_the_fact_value_on_the_gold_run() -> None:
    tasks = [t for t in load_tasks() if any(f.also_from for f in t.facts)]
    assert len(tasks) >= 4
    backend = shared_backend(BackendConfig())
    for task in tasks:
        gold = await gold_truth(task, backend, 0)
        for f in task.facts:
            for ref in f.also_from:
                assert str(resolve_value(ref, gold.run.outputs)) == str(gold.expected[f.id]), (
                    task.id,
                    f.id,
                    ref,
                )
            assert len(gold.alternatives.get(f.id, [])) == len(f.also_from), (task.id, f.id)


# kopa-090: tomorrow at 서울대치초등학교 (강남구): the 8 o'clock rain chance of the 구's grid, or of
# the school's own 동 (an accepted argument value: its forecast row grounds the fact too).
async def _daechi(nx: int, ny: int, answer: str) -> Grade:
    task = next(t for t in load_tasks() if t.id == "kopa-090")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    calls: list[tuple[str, dict[str, Any]]] = [("neis_get_api_key", {})]
    for sid in ("s1", "s2", "s3", "h1"):
        step = next(s for s in task.plan.steps if s.id == sid)
        calls.append((step.tool, {k: v for k, v in gold.run.args[sid].items() if k != "KEY"}))
    calls.append(("kma_getVilageFcst", {**gold.run.args["w1"], "nx": nx, "ny": ny}))
    return await _grade("kopa-090", calls, answer)


async def test_the_schools_own_grid_grounds_the_forecast_another_does_not() -> None:
    task = next(t for t in load_tasks() if t.id == "kopa-090")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    menu = ", ".join(matching.dishes(gold.expected["menu"]))
    answer = (
        f"내일은 공휴일이 아니고 학사일정에도 행사가 없어 정상 등교일입니다. 점심은 {menu}입니다. "
        f"등교 시간(8시) 강수확률은 {gold.expected['pop']}%입니다."
    )
    assert (await _daechi(61, 126, answer)).success == 1.0  # the 구's grid (the gold)
    own = await _daechi(61, 125, answer)  # 대치동
    assert own.success == 1.0, own.explanation()
    other = await _daechi(62, 125, answer)  # 세곡동: another 동's forecast
    assert other.success == 0.0


@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        ("Tomorrow is a normal school day: no public holiday falls on it.", True),
        ("Yes, a regular school day, with classes as usual.", True),
        ("Tomorrow is a public holiday (개천절), so there is no school.", False),
    ],
)
def test_a_school_day_said_in_english(answer: str, credited: bool) -> None:
    task = next(t for t in load_tasks() if t.id == "kopa-090")
    fact = next(f for f in task.facts if f.id == "holiday")
    score = matching.score_answer([fact], {"holiday": "평일"}, answer)["holiday"]
    assert (score == 1.0) is credited
