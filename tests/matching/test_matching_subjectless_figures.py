"""Figures without a subject are read where their own measure is named.

A task's facts may all be counts of one thing's parts ("교육위원회 위원 중 위원장 소속 정당 위원 수",
"교육위원회 전체 초선 위원 수"). A figure said in a clause that names another fact's own measure
("초선 위원은 4명") is that fact's, not this one's: so "위원은 3명, 초선 위원은 4명" does not state 4
members of the party. Clauses that name no measure stay readable for every fact."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {
        "id": "n",
        "matcher": "number",
        "value": "$s3.totalCount",
        "description": "교육위원회 위원 중 위원장 소속 정당 위원 수",
    },
    {
        "id": "first",
        "matcher": "number",
        "value": "$s1.length(x)",
        "description": "교육위원회 전체 초선 위원 수",
    },
    {
        "id": "seats",
        "matcher": "number",
        "value": "$s2.totalCount",
        "description": "위원장 소속 정당 전체 의석수",
    },
]
EXPECTED = {"n": 4, "first": 4, "seats": 33}

RIGHT = [
    "교육위원회 내 조국혁신당 소속 위원은 4명, 초선 위원은 4명, 조국혁신당 전체 의석은 33석입니다.",
    "[최종 답변]\n- 위원장 소속 정당 위원: 4명\n- 초선 위원: 4명\n- 전체 의석수: 33석",
    "조국혁신당 위원은 4명입니다. 초선은 4명이고 의석은 33석입니다.",
    "Four of the committee's members are from the chair's party, four are first-term, and the party holds 33 seats.".replace(
        "Four", "4"
    ).replace("four", "4"),
]


@pytest.mark.parametrize("answer", RIGHT)
def test_each_figure_read_where_it_is_said(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == {"n": 1.0, "first": 1.0, "seats": 1.0}


def test_another_measures_figure_is_not_this_ones() -> None:
    wrong = "교육위 조국혁신당 위원은 3명, 초선 위원은 4명, 조국혁신당 전체 의석은 33석입니다."
    assert m.score_answer(FACTS, EXPECTED, wrong) == {"n": 0.0, "first": 1.0, "seats": 1.0}


# the question's own ordinal ("22대 국회") restated is no count of 22
BILLS = [
    {
        "id": "bills",
        "matcher": "number",
        "value": "$b1.totalCount",
        "description": "22대 개정안 수 (amendment bills)",
    }
]
BILLS_Q = "22대 국회에 발의된 민법 관련 법률안 건수도 알려주세요."


def test_the_questions_ordinal_is_no_count() -> None:
    answer = "22대 국회 민법 개정안 건수는 다음 목록을 참고하세요: 2200004 민법 전부개정법률안, 2200033 민법 일부개정법률안"
    assert m.score_answer(BILLS, {"bills": 22}, answer, question=BILLS_Q) == {"bills": 0.0}


@pytest.mark.parametrize(
    "answer",
    [
        "22대 국회에 발의된 민법 관련 법률안은 22건입니다.",
        "22건 (22대 국회 기준)",
        "In the 22nd Assembly, 22 bills were filed.",
    ],
)
def test_the_count_beside_the_questions_ordinal_holds(answer: str) -> None:
    assert m.score_answer(BILLS, {"bills": 22}, answer, question=BILLS_Q) == {"bills": 1.0}


# two ordinals of the question that label two periods' figures stay labels
TERMS = [
    {"id": "n", "matcher": "number", "value": "$a.totalCount", "description": "22대 당선자 수"},
    {"id": "p", "matcher": "number", "value": "$b.totalCount", "description": "21대 당선자 수"},
]
TERMS_Q = "서울 지역구 당선자 수가 22대와 21대에 각각 몇 명이었나요?"


def test_ordinals_labelling_two_periods_bind_their_figures() -> None:
    right = "22대에는 48명, 21대에는 41명이 당선됐습니다."
    swapped = "22대에는 41명, 21대에는 48명이 당선됐습니다."
    assert m.score_answer(TERMS, {"n": 48, "p": 41}, right, question=TERMS_Q) == {"n": 1.0, "p": 1.0}
    assert m.score_answer(TERMS, {"n": 48, "p": 41}, swapped, question=TERMS_Q) == {"n": 0.0, "p": 0.0}


# a fraction in words ("20분의 1") holds no count of 20
LAW_BILLS = [{"id": "bills", "matcher": "number", "value": "$b1.totalCount", "description": "개정안 수"}]


def test_a_fraction_in_words_is_no_count() -> None:
    answer = "제7조는 증액청구가 20분의 1을 넘지 못한다고 정합니다. 개정안은 14건 발의됐습니다."
    assert m.score_answer(LAW_BILLS, {"bills": 20}, answer) == {"bills": 0.0}
    right = "제7조는 증액청구가 20분의 1을 넘지 못한다고 정합니다. 관련 법률안은 20건 발의됐습니다."
    assert m.score_answer(LAW_BILLS, {"bills": 20}, right) == {"bills": 1.0}
