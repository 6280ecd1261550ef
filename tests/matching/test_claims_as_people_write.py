"""Which-one claims written the way careful models write them, both ways.

Each right answer below was written from the tool outputs of a KOPA-Bench task (kopa-003, kopa-073,
kopa-086); each wrong one claims a competitor, offers two candidates, or says the right value only as
the start of a change or as a runner-up.
"""

from __future__ import annotations

import pytest

from kopa_inspect import matching

# kopa-003: the district with the most sales last month
MOST = [
    {
        "id": "most",
        "description": "거래가 가장 많은 구 (district with most deals)",
        "matcher": "name",
        "value": "$x",
        "competitors": "$c",
    }
]
MOST_CTX = {"most": {"competitors": ["강남구", "송파구", "서초구"]}}


@pytest.mark.parametrize(
    ("answer", "score"),
    [
        ("서초구가 195건으로 세 구 중 가장 많았습니다.", 1.0),
        ("세 구 중 서초구가 가장 많았습니다.", 1.0),
        ("강남구는 133건, 서초구는 195건, 송파구는 170건으로 세 구 중 서초구가 가장 많았습니다.", 1.0),
        ("강남구, 서초구, 송파구 중 가장 많은 곳은 서초구입니다.", 1.0),
        # a superlative about the change, beside the level's winner
        (
            "서초구가 195건으로 가장 많았습니다. 세 구 모두 8월보다 늘었고, 증가 폭은 송파구가 가장 컸습니다.",
            1.0,
        ),
        ("송파구가 세 구 중 가장 많았습니다.", 0.0),
        ("강남구, 서초구, 송파구 중 가장 많은 곳은 송파구입니다.", 0.0),
        ("서초구가 세 구 중 가장 적었고 송파구가 가장 많았습니다.", 0.0),
        ("서초구 또는 송파구가 세 구 중 가장 많았습니다.", 0.0),
        ("증가 폭은 송파구가 가장 컸습니다.", 0.0),  # no claim on the level, a competitor named
    ],
)
def test_most_deals(answer: str, score: float) -> None:
    assert matching.score_answer(MOST, {"most": "서초구"}, answer, context=MOST_CTX)["most"] == score


# kopa-073: the month with the highest consumer price index, and that index
CPI = [
    {"id": "month", "description": "최고 달", "matcher": "month", "value": "$x", "competitors": "$c"},
    {"id": "value", "description": "최고 지수", "matcher": "number", "value": "$y", "competitors": "$d"},
    {"id": "last", "description": "작년 9월 값 (202509)", "matcher": "number", "value": "$z"},
]
CPI_EXPECTED = {"month": "202609", "value": 119.3, "last": "116.95"}
CPI_CTX = {
    "month": {"competitors": [f"2026{m:02d}" for m in range(1, 10)]},
    "value": {"competitors": [117.88, 118.08, 118.24, 118.3, 118.5, 118.63, 118.86, 119.05, 119.3]},
}
LAST = " 작년 9월 지수는 116.95였습니다."


@pytest.mark.parametrize(
    "answer",
    [
        "올해 1~9월 소비자물가지수(총지수)는 117.88에서 매달 올라 9월에 119.3으로 가장 높았습니다(8월 119.05가 그다음).",
        "소비자물가지수는 9월에 119.3으로 가장 높았습니다(8월 119.05가 그다음).",
        "소비자물가지수는 117.88에서 매달 올라 9월에 119.3으로 가장 높았습니다.",
    ],
)
def test_highest_index_credited(answer: str) -> None:
    assert matching.score_answer(CPI, CPI_EXPECTED, answer + LAST, context=CPI_CTX) == {
        "month": 1.0,
        "value": 1.0,
        "last": 1.0,
    }


@pytest.mark.parametrize(
    "answer",
    [
        "소비자물가지수는 119.3에서 매달 내려 1월에 117.88으로 가장 낮았습니다.",
        "소비자물가지수는 8월에 119.05로 가장 높았습니다(9월 119.3이 그다음).",
        "소비자물가지수는 8월에 119.05로 가장 높았습니다.",
        "소비자물가지수는 117.88에서 119.3 사이로, 가장 높은 달은 1월 또는 9월입니다.",
    ],
)
def test_highest_index_not_credited(answer: str) -> None:
    scores = matching.score_answer(CPI, CPI_EXPECTED, answer + LAST, context=CPI_CTX)
    assert scores["month"] == 0.0 and scores["value"] == 0.0


# kopa-086: the 동 of the priciest sale, the nearest station and its index
DONG = [
    {"id": "dong", "description": "최고가 거래 동", "matcher": "name", "value": "$x", "competitors": "$c"},
    {"id": "station", "description": "측정소", "matcher": "name", "value": "$y"},
    {"id": "value", "description": "khaiValue", "matcher": "number", "value": "$z"},
]
DONG_EXPECTED = {"dong": "동원동", "station": "수내동", "value": "67"}
DONG_CTX = {
    "dong": {"competitors": ["율동", "판교동", "동원동", "정자동", "삼평동", "금곡동", "궁내동", "하산운동"]}
}
STATIONS = (
    " 동원동 근처 측정소는 수내동(1.6km)과 정자동(3.7km)인데, 가장 가까운 수내동의 현재 통합대기지수는 67, "
    "정자동은 68로 둘 다 보통입니다."
)


def test_priciest_dong_beside_the_nearest_station() -> None:
    answer = "분당구 9월 최고가 거래 단지(동원더샵에듀포레, 37억 500만원)는 동원동에 있습니다." + STATIONS
    assert matching.score_answer(DONG, DONG_EXPECTED, answer, context=DONG_CTX) == {
        "dong": 1.0,
        "station": 1.0,
        "value": 1.0,
    }


@pytest.mark.parametrize(
    "answer",
    [
        "분당구 9월 최고가 거래 단지(동원더샵에듀포레, 37억 500만원)는 정자동에 있습니다." + STATIONS,
        "최고가 거래는 정자동에서 나왔습니다." + STATIONS,
        "가장 가까운 동은 동원동, 최고가 거래는 정자동입니다.",
    ],
)
def test_another_dong_claimed_is_not_credited(answer: str) -> None:
    assert matching.score_answer(DONG, DONG_EXPECTED, answer, context=DONG_CTX)["dong"] == 0.0


# kopa-072: the policy rate month by month (a set of figures)
SERIES = [{"id": "series", "description": "월별 값", "matcher": "set", "value": "$x"}]
RATES = ["2.5", "2.5", "2.25", "2.25", "2.25", "2", "2", "2", "2"]


@pytest.mark.parametrize(
    ("answer", "score"),
    [
        ("| 월 | 기준금리 |\n|---|---|\n| 2026.01 | 2.50% |\n| 2026.03 | 2.25% |\n| 2026.06 | 2.00% |", 1.0),
        ("월별: 2.50%, 2.50%, 2.25%, 2.25%, 2.25%, 2.00%, 2.00%, 2.00%, 2.00%", 1.0),
        ("월별: 2.5, 2.5, 2.25, 2.25, 2.25, 2, 2, 2, 2", 1.0),
        ("1~2월 2.50%, 3~9월 2.25%", 2 / 3),
        ("2026년 1월부터 9월까지 기준금리 2.5%", 1 / 3),
    ],
)
def test_a_series_of_figures_read_as_numbers(answer: str, score: float) -> None:
    assert matching.score_answer(SERIES, {"series": RATES}, answer)["series"] == pytest.approx(score)


# the mid-term forecast's sky said in English (kopa-087's English gloss)
SKY = [
    {
        "id": "sky",
        "description": "오후 하늘",
        "matcher": "code_label",
        "value": "$w1.x",
        "labels": "kma_mid_wf",
    }
]


@pytest.mark.parametrize(
    ("expected", "answer", "score"),
    [
        ("흐림", "the mid-range forecast says cloudy skies in the afternoon", 1.0),
        ("맑음", "clear skies in the afternoon", 1.0),
        ("구름많음", "mostly cloudy in the afternoon", 1.0),
        ("흐리고 비", "cloudy with rain in the afternoon", 1.0),
        ("흐림", "mostly cloudy in the afternoon", 0.0),
        ("흐림", "clear skies in the afternoon", 0.0),
        ("구름많음", "cloudy in the afternoon", 0.0),
        ("흐림", "cloudy with rain in the afternoon", 0.0),
    ],
)
def test_mid_term_sky_in_english(expected: str, answer: str, score: float) -> None:
    assert matching.score_answer(SKY, {"sky": expected}, answer)["sky"] == score
