"""Two measures said of the same places in one sentence, joined by a connective.

"오전 강수확률은 서울 30%, 부산 10%, 제주 20%이고 최고기온은 서울 22℃, …" states 제주's rain chance
before "이고" and its high after: the last place of the first list holds its own measure's figure, and
the second measure's figures never answer the first. The swapped figures stay misses."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

CITIES = ["서울", "부산", "제주"]
FACTS = [
    {"id": f"pop{i}", "description": f"{c} 오전 강수확률", "matcher": "number", "value": "$x", "subject": c}
    for i, c in enumerate(CITIES, 1)
]
FACTS += [
    {
        "id": f"tmax{i}",
        "description": f"{c} 최고기온",
        "matcher": "number",
        "value": "$x",
        "tolerance": 0.5,
        "subject": c,
    }
    for i, c in enumerate(CITIES, 1)
]
EXPECTED = {"pop1": 30, "pop2": 10, "pop3": 20, "tmax1": 22, "tmax2": 25, "tmax3": 27}


@pytest.mark.parametrize(
    "answer",
    [
        "9월 28일 오전 강수확률은 서울 30%, 부산 10%, 제주 20%이고 최고기온은 서울 22℃, 부산 25℃, 제주 27℃로 "
        "예보됐습니다. 비 올 확률이 가장 낮은 곳은 부산입니다.",
        "오전 강수확률은 서울 30%, 부산 10%, 제주 20%이며 최고기온은 서울 22도, 부산 25도, 제주 27도입니다.",
        "오전 강수확률은 서울 30%, 부산 10%, 제주 20%입니다. 최고기온은 서울 22℃, 부산 25℃, 제주 27℃입니다.",
    ],
)
def test_both_measures_in_one_sentence_hold(answer: str) -> None:
    assert set(m.score_answer(FACTS, EXPECTED, answer).values()) == {1.0}


@pytest.mark.parametrize(
    ("answer", "lost"),
    [
        (
            "오전 강수확률은 서울 30%, 부산 10%, 제주 27%이고 최고기온은 서울 22℃, 부산 25℃, 제주 20℃로 예보됐습니다.",
            {"pop3", "tmax3"},
        ),
        (
            "오전 강수확률은 서울 30%, 부산 10%이고 최고기온은 서울 22℃, 부산 25℃, 제주 20℃로 예보됐습니다.",
            {"pop3", "tmax3"},
        ),
    ],
)
def test_figure_of_the_other_measure_misses(answer: str, lost: set[str]) -> None:
    scores = m.score_answer(FACTS, EXPECTED, answer)
    assert {k for k, v in scores.items() if v < 1.0} == lost


# a second list whose own topic word is no measure word of the facts ("초미세먼지" for pm25Value)
GU = ["종로구", "마포구", "강남구"]
AIR_FACTS = [
    {"id": f"deals{i}", "description": f"{g} 거래 건수", "matcher": "number", "value": "$x", "subject": g}
    for i, g in enumerate(GU, 1)
]
AIR_FACTS += [
    {"id": f"air{i}", "description": f"{g} pm25Value", "matcher": "number", "value": "$x", "subject": g}
    for i, g in enumerate(GU, 1)
]
AIR_EXPECTED = {"deals1": 8, "deals2": 21, "deals3": 10, "air1": 19, "air2": 18, "air3": 14}


def test_second_list_with_its_own_topic_holds() -> None:
    answer = "종로구, 마포구, 강남구의 이번 달 아파트 거래는 각각 8건, 21건, 10건이고, 초미세먼지는 각각 19, 18, 14㎍/㎥입니다."
    assert set(m.score_answer(AIR_FACTS, AIR_EXPECTED, answer).values()) == {1.0}


def test_second_list_swapped_with_the_first_misses() -> None:
    answer = "종로구, 마포구, 강남구의 이번 달 아파트 거래는 각각 19건, 18건, 14건이고, 초미세먼지는 각각 8, 21, 10㎍/㎥입니다."
    assert set(m.score_answer(AIR_FACTS, AIR_EXPECTED, answer).values()) == {0.0}


# a field name with digits ("PM10") and a gloss ("은(는)") is the clause's own topic
PM_FACTS = [
    {"id": "pm10", "matcher": "number", "value": "$x", "description": "PM10 (㎍/㎥)"},
    {"id": "avg3", "matcher": "number", "value": "$x", "description": "가까운 3곳 평균 PM10"},
]


def test_a_field_named_with_digits_is_its_own_topic() -> None:
    answer = (
        "가장 가까운 측정소은(는) 도산대로, PM10 (㎍/㎥)은(는) 81, 가까운 3곳 평균 PM10은(는) 69.7입니다."
    )
    assert m.score_answer(PM_FACTS, {"pm10": 81, "avg3": 69.6667}, answer) == {"pm10": 1.0, "avg3": 1.0}
