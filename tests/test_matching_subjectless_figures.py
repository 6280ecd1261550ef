"""Figures without a subject are read where their own measure is named.

A task's facts may all be counts of one thing's parts ("교육위원회 위원 중 위원장 소속 정당 위원 수",
"교육위원회 전체 초선 위원 수"). A figure said in a clause that names another fact's own measure
("초선 위원은 4명") is that fact's, not this one's: so "위원은 3명, 초선 위원은 4명" does not state 4
members of the party. Clauses that name no measure stay readable for every fact."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {"id": "n", "matcher": "number", "value": "$s3.totalCount", "description": "교육위원회 위원 중 위원장 소속 정당 위원 수"},
    {"id": "first", "matcher": "number", "value": "$s1.length(x)", "description": "교육위원회 전체 초선 위원 수"},
    {"id": "seats", "matcher": "number", "value": "$s2.totalCount", "description": "위원장 소속 정당 전체 의석수"},
]
EXPECTED = {"n": 4, "first": 4, "seats": 33}

RIGHT = [
    "교육위원회 내 조국혁신당 소속 위원은 4명, 초선 위원은 4명, 조국혁신당 전체 의석은 33석입니다.",
    "[최종 답변]\n- 위원장 소속 정당 위원: 4명\n- 초선 위원: 4명\n- 전체 의석수: 33석",
    "조국혁신당 위원은 4명입니다. 초선은 4명이고 의석은 33석입니다.",
    "Four of the committee's members are from the chair's party, four are first-term, and the party holds 33 seats.".replace(
        "Four", "4").replace("four", "4"),
]


@pytest.mark.parametrize("answer", RIGHT)
def test_each_figure_read_where_it_is_said(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == {"n": 1.0, "first": 1.0, "seats": 1.0}


def test_another_measures_figure_is_not_this_ones() -> None:
    wrong = "교육위 조국혁신당 위원은 3명, 초선 위원은 4명, 조국혁신당 전체 의석은 33석입니다."
    assert m.score_answer(FACTS, EXPECTED, wrong) == {"n": 0.0, "first": 1.0, "seats": 1.0}
