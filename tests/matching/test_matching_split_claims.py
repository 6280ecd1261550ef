"""A claim split from its figure by a comma, and a date range with its weekdays, read as written.

"가장 높은 곳은 도산대로 측정소, 81 ㎍/㎥입니다. 다음은 청계천로 77" claims 81 (the comma splits the claim
clause from its figure; the runner-ups follow in their own sentence); "9월 24일(목)~26일(토)" states the
24th to the 26th. A competitor's figure after the comma, a hedge, or a range running past the set
still fail."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {"id": "value", "matcher": "number", "value": "$s1.max(nums(items[].pm10Value))", "description": "최고값"}
]
CONTEXT = {"value": {"competitors": [77, 75, 60, 42]}}


def _score(answer: str) -> float:
    return m.score_answer(FACTS, {"value": 81}, answer, context=CONTEXT)["value"]


@pytest.mark.parametrize(
    "answer",
    [
        "미세먼지가 가장 높은 곳은 도산대로 측정소, 81 ㎍/㎥입니다. 다음은 청계천로 77, 공항대로 75 ㎍/㎥입니다.",
        "열량이 가장 높았던 날은 10월 2일, 81입니다.\n(2위는 77, 3위는 75)",
    ],
)
def test_the_figure_after_the_comma_is_the_claims(answer: str) -> None:
    assert _score(answer) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "미세먼지가 가장 높은 곳은 도산대로 측정소, 77 ㎍/㎥입니다. 다음은 81입니다.",
        "미세먼지가 가장 높은 곳은 도산대로 측정소, 81 또는 77 ㎍/㎥입니다.",
    ],
)
def test_a_competitors_figure_or_a_hedge_after_the_comma_fails(answer: str) -> None:
    assert _score(answer) == 0.0


HOLIDAYS = [
    {"id": "days", "matcher": "date_set", "value": "$m.items[].locdate", "description": "공휴일 날짜 목록"}
]
DAYS = [20260924, 20260925, 20260926, 20261003]


def test_a_range_with_weekdays_states_its_days() -> None:
    right = "- 9월 24일(목)~26일(토): 추석 연휴\n- 10월 3일(토): 개천절"
    past = "- 9월 24일(목)~27일(일): 추석 연휴\n- 10월 3일(토): 개천절"
    assert m.score_answer(HOLIDAYS, {"days": DAYS}, right)["days"] == 1.0
    assert m.score_answer(HOLIDAYS, {"days": DAYS}, past)["days"] == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "9월 24~26일 추석, 10월 3일 개천절이 공휴일입니다. (조회 기준일 9월 30일)",
        "9월 1일부터 11월 30일까지 공휴일은 9월 24일, 25일, 26일(추석)과 10월 3일(개천절)입니다.",
        "공휴일: 9월 24일, 9월 25일, 9월 26일, 10월 3일. 9월 28일(월)은 대체공휴일이 아닙니다.",
    ],
)
def test_other_dates_said_as_no_holiday_hold(answer: str) -> None:
    assert m.score_answer(HOLIDAYS, {"days": DAYS}, answer)["days"] == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "9월 24~26일 추석, 10월 3일 개천절, 그리고 9월 28일 추석 대체공휴일이 있습니다.",
        "공휴일은 9월 24일, 25일, 26일, 29일, 10월 3일입니다.",
    ],
)
def test_an_invented_holiday_inside_the_period_fails(answer: str) -> None:
    assert m.score_answer(HOLIDAYS, {"days": DAYS}, answer)["days"] == 0.0
