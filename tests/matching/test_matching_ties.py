"""A "which one" pick whose winner is tied: the answer names the tie.

When the data ties (four districts at the same 9.8℃ low), the truth is the tied set: an answer
holds when it names every tied member and claims no one outside the tie, in any style (a list
with 공동, a table, English). Naming one of the tied alone as *the* coldest (or one of two equal
stops as the one with "more") is a false claim of a unique winner and fails; so do a member
outside the tie and a hedge with one. Where the question itself breaks the tie by order
("처음으로 가장 높아지는 시각": the first hour that reaches the maximum) the gold's first member alone
holds, and naming the whole tie holds too."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

# KMA 단기예보 TMN for seven Seoul districts: 종로·노원·송파·도봉 tie at 9.8
FACTS = [
    {
        "id": "coldest",
        "matcher": "name",
        "value": "$_.min_by(X, &t).g",
        "description": "가장 추운 구 (coldest)",
    }
]
EXPECTED = {"coldest": "종로구"}
CONTEXT = {
    "coldest": {
        "competitors": ["종로구", "노원구", "은평구", "강서구", "관악구", "송파구", "도봉구"],
        "ties": ["노원구", "송파구", "도봉구"],
        "tie_required": True,
    }
}


def _score(answer: str, context: dict = CONTEXT) -> float:
    return m.score_answer(FACTS, EXPECTED, answer, context=context)["coldest"]


TIE_NAMED = [
    "종로구, 노원구, 송파구, 도봉구가 9.8도로 공동 최저입니다. 은평·강서·관악은 9.9도입니다.",
    "가장 추운 곳은 종로구·노원구·송파구·도봉구(모두 9.8℃)입니다.",
    "[최종 답변]\n- 가장 추운 구: 종로구, 노원구, 송파구, 도봉구 (9.8℃ 동률)",
    "| 구 | 최저기온 |\n|---|---|\n| 종로구 | 9.8 |\n| 노원구 | 9.8 |\n| 송파구 | 9.8 |\n| 도봉구 | 9.8 |\n"
    "| 은평구 | 9.9 |\n\n가장 추운 구는 종로구, 노원구, 송파구, 도봉구로 9.8도로 같습니다.",
    "The coldest are 종로구, 노원구, 송파구 and 도봉구, tied at 9.8°C.",
]


@pytest.mark.parametrize("answer", TIE_NAMED)
def test_an_answer_naming_the_whole_tie_holds(answer: str) -> None:
    assert _score(answer) == 1.0


TIE_MISSED = [
    # one of the tied as the unique winner
    "가장 추운 구는 종로구로 9.8도입니다.",
    "가장 추운 곳은 노원구(9.8℃)입니다.",
    # part of the tie only
    "종로구와 노원구가 9.8도로 가장 춥습니다.",
    # a member outside the tie named among the coldest
    "종로구, 노원구, 송파구, 도봉구, 은평구가 가장 춥습니다.",
    # a hedge with an outsider
    "가장 추운 곳은 은평구 또는 종로구입니다.",
    # every candidate listed as the pick, the tie among them
    "[최종 답변]\n- 가장 추운 구: 종로구, 노원구, 은평구, 강서구, 관악구, 송파구, 도봉구",
    "가장 추운 구는 종로구, 노원구, 은평구, 강서구, 관악구, 송파구, 도봉구입니다.",
    # the wrong winner
    "가장 추운 구는 은평구입니다.",
]


@pytest.mark.parametrize("answer", TIE_MISSED)
def test_a_unique_claim_or_a_wrong_member_fails(answer: str) -> None:
    assert _score(answer) == 0.0


def test_a_tie_the_question_breaks_by_order_takes_the_first_alone() -> None:
    facts = [
        {
            "id": "time",
            "matcher": "time",
            "value": "$_.max_by(X, &t).fcstTime",
            "description": "최대 시각 (fcstTime)",
        }
    ]
    context = {
        "time": {
            "competitors": ["0600", "1200", "1500", "1600", "1800"],
            "ties": ["1600"],
            "tie_required": False,
        }
    }
    first = "기온이 처음으로 가장 높아지는 시각은 15시이고, 기온은 14도입니다."
    both = "15시와 16시에 14도로 가장 높습니다(15시가 처음)."
    wrong = "기온이 가장 높아지는 시각은 12시입니다."
    outsider = "가장 높은 시각은 15시, 16시, 18시입니다."
    got = {
        a: m.score_answer(facts, {"time": "1500"}, a, context=context)["time"]
        for a in (first, both, wrong, outsider)
    }
    assert got == {first: 1.0, both: 1.0, wrong: 0.0, outsider: 0.0}


def test_without_a_tie_nothing_changes() -> None:
    context = {"coldest": {"competitors": CONTEXT["coldest"]["competitors"]}}
    assert _score("가장 추운 구는 종로구로 9.8도입니다.", context) == 1.0
    assert _score("종로구, 노원구, 송파구, 도봉구가 9.8도로 가장 춥습니다.", context) == 0.0
