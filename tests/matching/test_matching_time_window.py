"""The question's own time window is no competing claim for the hour of a maximum.

A careful answer repeats the window it searched ("09시~15시 중 습도가 가장 높은 시각은 오전 9시",
"between noon and 9 p.m. the strongest wind is at 12:00"); the window's ends are hours of the
competition but not claimed. A competing hour claimed outright, or offered beside the right one,
still fails."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {
        "id": "time",
        "matcher": "time",
        "value": "$_.max_by(X, &v).fcstTime",
        "description": "최대 시각 (fcstTime)",
    }
]
CONTEXT = {"time": {"competitors": ["1000", "1100", "1200", "1300", "1400", "1500"]}}


def _score(answer: str) -> float:
    return m.score_answer(FACTS, {"time": "0900"}, answer, context=CONTEXT)["time"]


RIGHT = [
    "내일(10월 29일) 09시~15시 중 습도가 가장 높은 시각은 오전 9시이며 습도는 71%입니다. 이후 점차 낮아져 15시에는 56%로 예보됐습니다.",
    "오전 9시부터 오후 3시까지 중에서 습도가 가장 높은 때는 9시(71%)입니다.",
    "09:00~15:00 사이 최고 습도는 09:00의 71%입니다.",
    "Between 9 a.m. and 3 p.m., humidity peaks at 09:00 (71%).",
    "From 09:00 to 15:00 the highest humidity is at 9 AM, 71%.",
]


@pytest.mark.parametrize("answer", RIGHT)
def test_the_window_repeated_beside_the_claim_holds(answer: str) -> None:
    assert _score(answer) == 1.0


WRONG = [
    "09시~15시 중 습도가 가장 높은 시각은 15시입니다.",
    "습도가 가장 높은 시각은 오전 9시 또는 오전 10시입니다.",
    "Between 9 a.m. and 3 p.m., humidity peaks at 11:00.",
    "가장 높은 시각은 10시~11시입니다.",
]


@pytest.mark.parametrize("answer", WRONG)
def test_a_competing_hour_claimed_still_fails(answer: str) -> None:
    assert _score(answer) == 0.0


def test_a_bare_hour_window_is_no_claim() -> None:
    facts = [
        {"id": "time", "matcher": "time", "value": "$_.max_by(X, &v).fcstTime", "description": "최대 시각"}
    ]
    context = {"time": {"competitors": ["1300", "1500", "1800", "2100"]}}
    right = "내일 해운대구 12~21시 중 최대 풍속 시각은 12:00, 4.7 m/s입니다."
    wrong = "내일 해운대구 12~21시 중 최대 풍속 시각은 21:00입니다."
    got = {a: m.score_answer(facts, {"time": "1200"}, a, context=context)["time"] for a in (right, wrong)}
    assert got == {right: 1.0, wrong: 0.0}
