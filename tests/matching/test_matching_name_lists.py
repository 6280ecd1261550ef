"""Lists of the task's places said the short way, with one value for all or a value before them.

"부산·대구·광주는 각각 2명씩" gives each of the three 2; "9.8℃: 종로, 노원, 송파, 도봉" gives each of
the four 9.8; "서초가 195건" names 서울특별시 서초구 (a district after its city, or the question's own
short form). A list with another value, a list that leaves a place out, and a value bound before a
list to the wrong place still fail."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m
from kopa_inspect.matching.names import short_forms

SEATS = [
    {
        "id": "n1",
        "matcher": "number",
        "value": "$a.x",
        "subject": "서울특별시",
        "description": "서울특별시 당선자 수",
    },
    {
        "id": "n2",
        "matcher": "number",
        "value": "$b.x",
        "subject": "부산광역시",
        "description": "부산광역시 당선자 수",
    },
    {
        "id": "n3",
        "matcher": "number",
        "value": "$c.x",
        "subject": "대구광역시",
        "description": "대구광역시 당선자 수",
    },
    {
        "id": "n4",
        "matcher": "number",
        "value": "$d.x",
        "subject": "광주광역시",
        "description": "광주광역시 당선자 수",
    },
]
SEATS_EXPECTED = {"n1": 15, "n2": 2, "n3": 2, "n4": 2}


@pytest.mark.parametrize(
    "answer",
    [
        "더불어민주당은 서울 15명으로 가장 많았고, 부산·대구·광주는 각각 2명씩이었습니다.",
        "서울 15명, 부산·대구·광주는 각각 2명입니다.",
        "서울이 15명이고 부산, 대구, 광주는 모두 2명입니다.",
    ],
)
def test_one_value_for_a_whole_list_holds_for_each(answer: str) -> None:
    assert m.score_answer(SEATS, SEATS_EXPECTED, answer) == dict.fromkeys(SEATS_EXPECTED, 1.0)


@pytest.mark.parametrize(
    ("answer", "lost"),
    [
        ("서울 15명, 부산·대구·광주는 각각 3명씩이었습니다.", {"n2", "n3", "n4"}),
        ("서울 15명, 부산·대구는 각각 2명씩, 광주는 5명입니다.", {"n4"}),
        ("부산·대구·광주 15명, 서울은 2명입니다.", {"n1", "n2", "n3", "n4"}),
    ],
)
def test_a_wrong_shared_value_fails_its_places(answer: str, lost: set[str]) -> None:
    scores = m.score_answer(SEATS, SEATS_EXPECTED, answer)
    assert {k for k, v in scores.items() if v < 1.0} == lost


TMN = [
    {"id": f"t{k}", "matcher": "number", "value": f"$w{k}.x", "subject": g, "description": f"{g} 최저기온"}
    for k, g in enumerate(["종로구", "노원구", "은평구", "강서구"], 1)
]
TMN_EXPECTED = {"t1": 9.8, "t2": 9.8, "t3": 9.9, "t4": 9.9}
QUESTION = "내일 아침 서울 종로·노원·은평·강서 네 개 구의 최저기온을 비교해 주세요."


def test_a_value_labelling_the_list_after_it_holds_for_each() -> None:
    answer = "- 9.8℃: 종로, 노원\n- 9.9℃: 은평, 강서"
    assert m.score_answer(TMN, TMN_EXPECTED, answer, question=QUESTION) == dict.fromkeys(TMN_EXPECTED, 1.0)
    swapped = "- 9.9℃: 종로, 노원\n- 9.8℃: 은평, 강서"
    assert m.score_answer(TMN, TMN_EXPECTED, swapped, question=QUESTION) == dict.fromkeys(TMN_EXPECTED, 0.0)


def test_a_district_short_form_only_where_it_is_a_place_for_sure() -> None:
    assert "강남" in short_forms("서울특별시 강남구")
    assert "부산진" in short_forms("부산진구")
    assert short_forms("종로구") == [] and short_forms("김민구") == []
    assert "종로" in short_forms("종로구", question=QUESTION)


# three places asked nearest first ("가까운 순 세 곳"): the right three in another order rank them wrong
NEAREST = [
    {
        "id": "top3",
        "matcher": "ranked_set",
        "value": "$x",
        "description": "가까운 3곳 (three nearest, nearest first)",
    }
]
THREE = ["소문난닭갈비 중동점", "시골냉면 해운대해수욕장점", "명가막국수 해운대해수욕장점"]


@pytest.mark.parametrize(
    "answer",
    [
        "가까운 순: 소문난닭갈비 중동점(464m), 시골냉면 해운대해수욕장점(591m), 명가막국수 해운대해수욕장점(684m).",
        "1. 소문난닭갈비 중동점 - 464m\n2. 시골냉면 해운대해수욕장점 - 591m\n3. 명가막국수 해운대해수욕장점 - 684m",
        "제일 가까운 곳은 소문난닭갈비 중동점이고, 그다음 시골냉면 해운대해수욕장점, 명가막국수 해운대해수욕장점 순입니다.",
    ],
)
def test_ranked_three_in_order_hold(answer: str) -> None:
    assert m.score_answer(NEAREST, {"top3": THREE}, answer) == {"top3": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "가까운 순: 소문난닭갈비 중동점(464m), 명가막국수 해운대해수욕장점(591m), 시골냉면 해운대해수욕장점(684m).",
        "가까운 순: 시골냉면 해운대해수욕장점, 소문난닭갈비 중동점, 명가막국수 해운대해수욕장점",
    ],
)
def test_ranked_three_in_another_order_miss(answer: str) -> None:
    assert m.score_answer(NEAREST, {"top3": THREE}, answer) == {"top3": 0.0}
