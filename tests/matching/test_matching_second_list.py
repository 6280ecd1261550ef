"""A second respective list after the names binds the fact whose own measure its lead-in names.

Careful models give two measures per group in one sentence: "강남구, 서초구, 송파구의 9월 건수는 각각 133건,
195건, 170건이었고, 그 전달인 8월에는 각각 67건, 181건, 69건이었습니다", "서울, 부산, 제주 각각 30%, 10%, 20%이고,
최고기온은 각각 22℃, 25℃, 27℃입니다". The later list belongs to the fact whose own measure word (one no
other fact of the subject has: 전달, 기온) is said before it; a fact with no own word keeps the first
list, so swapping the two lists still fails, and a later list in another order or of another length
binds nothing."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

GU = ("서울특별시 강남구", "서울특별시 서초구", "서울특별시 송파구")


def _two_months() -> list[dict[str, object]]:
    facts: list[dict[str, object]] = []
    for i, s in enumerate(GU, 1):
        facts.append(
            {
                "id": f"n{i}",
                "matcher": "number",
                "value": f"$a{i}.totalCount",
                "subject": s,
                "description": "거래 건수 (deal count)",
                "competitors": [],
            }
        )
        facts.append(
            {
                "id": f"p{i}",
                "matcher": "number",
                "value": f"$b{i}.totalCount",
                "subject": s,
                "description": "그 전달 거래 건수 (previous month)",
                "competitors": [],
            }
        )
    return facts


MONTHS = _two_months()
MONTHS_EXPECTED = {"n1": 133, "n2": 195, "n3": 170, "p1": 67, "p2": 181, "p3": 69}
ALL_MONTHS = dict.fromkeys(MONTHS_EXPECTED, 1.0)


@pytest.mark.parametrize(
    "answer",
    [
        "지난달 가장 많이 거래된 곳은 서초구입니다. 강남구, 서초구, 송파구의 9월 매매 건수는 각각 133건, 195건, 170건이었고, "
        "그 전달인 8월에는 각각 67건, 181건, 69건이었습니다. 세 구 모두 전달보다 증가했습니다.",
        "강남구, 서초구, 송파구의 거래 건수는 각각 133건, 195건, 170건이고, 그 전달 건수는 각각 67건, 181건, 69건입니다.",
        "강남구, 서초구와 송파구는 각각 133건, 195건, 170건이며, 전달에는 각각 67건, 181건, 69건이었어요.",
    ],
)
def test_second_list_binds_the_measure_it_names(answer: str) -> None:
    assert m.score_answer(MONTHS, MONTHS_EXPECTED, answer) == ALL_MONTHS


def _weather() -> list[dict[str, object]]:
    facts: list[dict[str, object]] = []
    for i, s in enumerate(("서울", "부산", "제주"), 1):
        facts.append(
            {
                "id": f"pop{i}",
                "matcher": "number",
                "value": f"$w{i}.POP",
                "subject": s,
                "description": f"{s} 오전 강수확률",
                "competitors": [],
            }
        )
        facts.append(
            {
                "id": f"tmax{i}",
                "matcher": "number",
                "value": f"$w{i}.TMX",
                "subject": s,
                "description": f"{s} 최고기온",
                "competitors": [],
            }
        )
    return facts


WEATHER = _weather()
WEATHER_EXPECTED = {"pop1": 30, "pop2": 10, "pop3": 20, "tmax1": 22, "tmax2": 25, "tmax3": 27}


@pytest.mark.parametrize(
    "answer",
    [
        "9월 28일 오전 강수확률은 서울, 부산, 제주 각각 30%, 10%, 20%이고, 최고기온은 각각 22℃, 25℃, 27℃입니다. "
        "가장 비 올 확률이 낮은 곳은 부산입니다.",
        "서울, 부산, 제주의 오전 강수확률은 각각 30%, 10%, 20%이며, 최고기온은 각각 22도, 25도, 27도입니다.",
    ],
)
def test_second_list_of_another_unit_binds_its_measure(answer: str) -> None:
    assert m.score_answer(WEATHER, WEATHER_EXPECTED, answer) == dict.fromkeys(WEATHER_EXPECTED, 1.0)


def test_unit_with_a_slash_is_one_item() -> None:
    facts = [
        {
            "id": f"a{i}",
            "matcher": "number",
            "value": f"$x{i}.pm25Value",
            "subject": s,
            "description": "초미세먼지 농도",
            "competitors": [],
        }
        for i, s in enumerate(("종로구", "마포구", "강남구"), 1)
    ]
    expected = {"a1": 19, "a2": 18, "a3": 14}
    answer = "종로구, 마포구, 강남구의 초미세먼지 농도는 각각 19, 18, 14㎍/㎥입니다."
    assert m.score_answer(facts, expected, answer) == dict.fromkeys(expected, 1.0)


@pytest.mark.parametrize(
    ("answer", "failing"),
    [
        # the two months swapped: the count fact has no own word and reads the first list only
        (
            "강남구, 서초구, 송파구의 9월 매매 건수는 각각 67건, 181건, 69건이었고, 그 전달인 8월에는 각각 133건, 195건, "
            "170건이었습니다.",
            ("n1", "n2", "n3"),
        ),
        (
            "강남구, 서초구, 송파구의 거래 건수는 각각 67건, 181건, 69건이고, 그 전달 건수는 각각 133건, 195건, 170건입니다.",
            ("n1", "n2", "n3", "p1", "p2", "p3"),
        ),
        # the second list in another order
        (
            "강남구, 서초구, 송파구의 9월 매매 건수는 각각 133건, 195건, 170건이었고, 그 전달인 8월에는 각각 181건, 67건, "
            "69건이었습니다.",
            ("p1", "p2"),
        ),
        # the second list one short: binds nothing
        (
            "강남구, 서초구, 송파구의 9월 매매 건수는 각각 133건, 195건, 170건이었고, 그 전달인 8월에는 각각 67건, "
            "181건이었습니다.",
            ("p1", "p2", "p3"),
        ),
        # the second list said without 각각: a listing, no binding
        (
            "강남구, 서초구, 송파구의 9월 매매 건수는 각각 133건, 195건, 170건이었고, 그 전달인 8월에는 67건, 181건, "
            "69건이었습니다.",
            ("p1", "p2", "p3"),
        ),
    ],
)
def test_second_list_attacks_fail(answer: str, failing: tuple[str, ...]) -> None:
    got = m.score_answer(MONTHS, MONTHS_EXPECTED, answer)
    assert [f for f in failing if got[f] != 0.0] == []


def test_weather_lists_swapped_fail() -> None:
    answer = "서울, 부산, 제주의 최고기온은 각각 30도, 10도, 20도이고, 강수확률은 각각 22%, 25%, 27%입니다."
    got = m.score_answer(WEATHER, WEATHER_EXPECTED, answer)
    assert [f for f, v in got.items() if v != 0.0] == []
