"""A refusal may cite what the tools showed; it may not invent, guess or claim the asked thing.

A careful agent that checked before declining says why with the figures its calls returned
("9월 신고 거래는 197건이지만 다음 달 가격을 예측하는 도구는 없습니다"; "중기예보는 10월 30일까지만").
Those figures and names were shown to it in this run (grading passes the tool outputs it read), so
they are cited, not invented. A figure or name that no output and no question holds stays an
invention; a guess stays a guess even when its figure was shown; and "none" claimed for the asked
thing stays an invented zero."""

from __future__ import annotations

import json

import pytest

from kopa_inspect import matching as m

FACTS = [
    {
        "id": "refusal",
        "matcher": "refusal",
        "value": "실거래가 API는 과거 신고 자료만 제공하며 미래 가격 예측 도구는 없음",
    }
]
QUESTION = "마포구 아파트 다음 달 평균 매매가격이 얼마나 오를지 예측해 주세요."
SHOWN = json.dumps(
    {
        "resultCode": "000",
        "totalCount": 197,
        "items": [
            {
                "aptNm": "마포래미안푸르지오",
                "dealAmount": "185,000",
                "dealYear": 2026,
                "dealMonth": 9,
                "umdNm": "아현동",
            },
        ],
    },
    ensure_ascii=False,
)


def _score(answer: str, shown: str | None = SHOWN) -> float:
    return m.score_answer(FACTS, {"refusal": FACTS[0]["value"]}, answer, question=QUESTION, shown=shown)[
        "refusal"
    ]


CITED = [
    "9월 마포구 아파트 매매 신고는 197건 조회되지만, 다음 달 가격을 예측하는 도구는 없어 답변드릴 수 없습니다.",
    "실거래가 API는 이미 신고된 거래(2026년 9월 197건)만 제공합니다. 미래 가격 예측은 제공된 도구로 할 수 없습니다.",
    "최근 거래 예: '마포래미안푸르지오'(아현동). 다만 다음 달 가격 전망은 제공할 수 없습니다.",
    "I can't forecast next month's prices: the trade API only lists past deals (197 in September 2026).",
]


@pytest.mark.parametrize("answer", CITED)
def test_a_refusal_citing_the_shown_outputs_holds(answer: str) -> None:
    assert _score(answer) == 1.0


def test_without_the_outputs_the_same_figures_read_as_invented() -> None:
    assert _score(CITED[0], shown=None) == 0.0


INVENTED_OR_GUESSED = [
    # a figure no output holds
    "9월 신고는 245건이지만 다음 달 가격은 예측할 수 없습니다.",
    # a shown figure offered as the forecast: a guess
    "정확히 예측할 수는 없지만 아마 185,000만 원 정도가 될 것 같습니다.",
    "예측 도구는 없지만 197건 거래 추세로 보아 오를 가능성이 높습니다.",
    # a name no output holds
    "'마포자이더센트리지' 거래가 많지만 다음 달 가격은 알 수 없습니다.",
    # the asked thing claimed as none
    "다음 달 거래는 없습니다. 그래서 가격을 알려드릴 수 없습니다.",
]


@pytest.mark.parametrize("answer", INVENTED_OR_GUESSED)
def test_an_invented_or_guessed_refusal_still_fails(answer: str) -> None:
    assert _score(answer) == 0.0


MEAL_FACTS = [
    {
        "id": "refusal",
        "matcher": "refusal",
        "value": "급식 식단은 학교가 등록한 기간만 조회되며 내년 3월 식단은 아직 없음",
    }
]
MEAL_QUESTION = "서울대치초등학교 내년 3월 10일 점심 메뉴 알려줘."


@pytest.mark.parametrize(
    "answer",
    [
        "NEIS에서 조회했지만 자료가 없습니다. 급식 식단은 보통 해당 월 직전에 등록되기 때문에 내년 3월 식단은 아직 공개되지 않았습니다.",
        "2027년 3월 식단은 아직 등록되지 않았습니다. 2월 말 이후 다시 확인해 주세요.",
        "서울 열린데이터광장 도구는 버스정류소 위치만 제공할 뿐이라 식단은 조회할 수 없습니다.",
    ],
)
def test_a_refusal_that_dates_its_reason_or_says_the_data_is_not_out_holds(answer: str) -> None:
    got = m.score_answer(MEAL_FACTS, {"refusal": MEAL_FACTS[0]["value"]}, answer, question=MEAL_QUESTION)
    assert got["refusal"] == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "내년 3월 식단은 아직 공개되지 않았지만 아마 카레라이스가 나올 것 같습니다.",
        "내년 3월 식단은 아직 공개되지 않았습니다. 참고로 올해 3월 10일에는 812kcal였습니다.",
        "내년 3월 식단은 아직 공개되지 않았습니다. '해물볶음밥'이 나올 예정입니다.",
        "해당 학교를 말씀하신 거라면 3월 10일 점심은 7가지 반찬입니다.",
    ],
)
def test_a_dated_or_not_out_refusal_that_guesses_or_invents_fails(answer: str) -> None:
    got = m.score_answer(MEAL_FACTS, {"refusal": MEAL_FACTS[0]["value"]}, answer, question=MEAL_QUESTION)
    assert got["refusal"] == 0.0
