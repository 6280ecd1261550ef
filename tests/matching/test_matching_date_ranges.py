"""A date range states every day in it. For a date-set fact, "10월 24일~26일" holds 24, 25 and 26; a range
that covers a day outside the set ("10월 16일부터 20일까지 5일간" for exams on the 16th, 17th and 20th)
claims days that are not in it and fails, however many of the set's days it covers."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _days(value: list[str], answer: str) -> float:
    fact = {
        "id": "days",
        "matcher": "date_set",
        "value": "$s.items[].AA_YMD",
        "description": "시험 날짜 (exam days)",
    }
    return m.score_answer([fact], {"days": value}, answer)["days"]


FESTIVAL = ["20261024", "20261025", "20261026"]
EXAMS = ["20261016", "20261017", "20261020"]


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        (FESTIVAL, "축제는 10월 24일~26일입니다."),
        (FESTIVAL, "10월 24일부터 26일까지 사흘간 열립니다."),
        (EXAMS, "시험은 10월 16일, 17일, 20일입니다."),
        (EXAMS, "시험은 10월 16~17일과 20일입니다."),
        (EXAMS, "2학기 중간고사는 10월 16일부터 17일까지, 그리고 20일입니다."),
    ],
)
def test_range_within_the_set_holds(value: list[str], answer: str) -> None:
    assert _days(value, answer) == 1.0


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        (EXAMS, "대치고 10월 시험(2학기 중간고사)은 10월 16일부터 20일까지 5일간입니다."),
        (EXAMS, "시험 기간은 10월 16일~20일입니다."),
        (FESTIVAL, "축제는 10월 23일~26일입니다."),
        (FESTIVAL, "축제는 10월 24일부터 27일까지입니다."),
    ],
)
def test_range_beyond_the_set_fails(value: list[str], answer: str) -> None:
    assert _days(value, answer) == 0.0
