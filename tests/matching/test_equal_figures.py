"""Two facts with the same figure are two answers (kopa-020: 10 buses due at each of two stops).

An answer that gives the figure once, for one stop, answers half the question; one that gives it for
each stop, or once "for both", answers all of it."""

from __future__ import annotations

import pytest

from kopa_inspect import matching

STOPS = [
    {"id": "n1", "description": "첫 정류장 도착 예정 수", "matcher": "number", "value": "$a1.totalCount"},
    {"id": "n2", "description": "둘째 정류장 도착 예정 수", "matcher": "number", "value": "$a2.totalCount"},
]


@pytest.mark.parametrize(
    "answer",
    [
        "부산 센텀시티 정류장 두 곳 모두 조회했습니다. BSB5828999 정류장에 10대, 길 건너 BSB6453860 정류장에 10대가 도착 예정입니다.",
        "센텀시티 두 정류장에는 각각 10대, 10대의 버스가 도착 예정입니다.",
        "두 정류장 모두 10대씩 도착 예정이에요.",
        "양쪽 다 10대씩입니다.",
        "Both stops have 10 buses due.",
        "| 정류장 | 도착 예정 |\n|---|---|\n| BSB5828999 | 10대 |\n| BSB6453860 | 10대 |",
    ],
)
def test_the_figure_given_for_each_stop(answer: str) -> None:
    assert matching.score_answer(STOPS, {"n1": 10, "n2": 10}, answer) == {"n1": 1.0, "n2": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "센텀시티 정류장에는 도착 예정 버스가 10대 있습니다.",
        "도착 예정 버스는 10대입니다.",
        "한쪽 정류장에 10대가 옵니다.",
    ],
)
def test_the_figure_given_once_answers_one_stop(answer: str) -> None:
    scores = matching.score_answer(STOPS, {"n1": 10, "n2": 10}, answer)
    assert sorted(scores.values()) == [0.0, 1.0]


def test_different_figures_and_facts_with_subjects_are_read_as_before() -> None:
    assert matching.score_answer(STOPS, {"n1": 10, "n2": 7}, "첫 정류장 10대, 둘째 정류장 7대") == {
        "n1": 1.0,
        "n2": 1.0,
    }
    bound = [{**f, "subject": s} for f, s in zip(STOPS, ("BSB5828999", "BSB6453860"), strict=True)]
    answer = "BSB5828999 정류장에 10대, BSB6453860 정류장에 10대"
    assert matching.score_answer(bound, {"n1": 10, "n2": 10}, answer) == {"n1": 1.0, "n2": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "첫 정류장 도착 예정 수는 10대가 아닙니다. 둘째 정류장은 10대입니다.",
        "첫 정류장은 10~12대, 둘째 정류장은 10대입니다.",
    ],
)
def test_a_denied_or_ranged_figure_is_not_said_for_its_stop(answer: str) -> None:
    scores = matching.score_answer(STOPS, {"n1": 10, "n2": 10}, answer)
    assert sorted(scores.values()) == [0.0, 1.0]
