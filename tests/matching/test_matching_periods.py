"""One place's figures for two periods are told apart by the period the answer names.

A task asks a district's count this month and the month before ("10월 거래 건수", "그 전달 9월 거래
건수"), or seats at two elections ("2024년 22대", "2020년 21대"). "10월 200건(9월 234건)" states 200 for
October and 234 for September, however the figures are bracketed or listed; the same figures with
the months swapped fail both facts."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {
        "id": "n1",
        "matcher": "number",
        "value": "$b1.totalCount",
        "subject": "종로구",
        "description": "서울특별시 종로구 10월 거래 건수 (deal count)",
    },
    {
        "id": "p1",
        "matcher": "number",
        "value": "$c1.totalCount",
        "subject": "종로구",
        "description": "서울특별시 종로구 그 전달 9월 거래 건수 (previous month)",
    },
    {
        "id": "n2",
        "matcher": "number",
        "value": "$b2.totalCount",
        "subject": "마포구",
        "description": "서울특별시 마포구 10월 거래 건수 (deal count)",
    },
    {
        "id": "p2",
        "matcher": "number",
        "value": "$c2.totalCount",
        "subject": "마포구",
        "description": "서울특별시 마포구 그 전달 9월 거래 건수 (previous month)",
    },
]
EXPECTED = {"n1": 200, "p1": 234, "n2": 253, "p2": 197}

RIGHT = [
    "종로구는 10월 200건(9월 234건), 마포구는 10월 253건(9월 197건)입니다.",
    "- 종로구: 200건 (9월 234건 → 34건 감소)\n- 마포구: 253건 (9월 197건 → 56건 증가)\n\n모두 10월 기준입니다.",
    "10월 종로구 200건, 마포구 253건입니다. 9월에는 종로구 234건, 마포구 197건이었습니다.",
]


@pytest.mark.parametrize("answer", RIGHT)
def test_each_period_reads_its_own_figure(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == dict.fromkeys(EXPECTED, 1.0)


def test_the_periods_swapped_fail() -> None:
    answer = "종로구는 10월 234건(9월 200건), 마포구는 10월 197건(9월 253건)입니다."
    assert m.score_answer(FACTS, EXPECTED, answer) == dict.fromkeys(EXPECTED, 0.0)


def test_the_periods_swapped_across_listed_clauses_fail() -> None:
    answer = "10월 종로구 234건, 마포구 197건입니다. 9월에는 종로구 200건, 마포구 253건이었습니다."
    assert m.score_answer(FACTS, EXPECTED, answer) == dict.fromkeys(EXPECTED, 0.0)
