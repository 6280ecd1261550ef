"""English dates and months read like Korean ones: "October 2, 2026", "Oct. 2", "2 October 2026",
"16 October" are 2026-10-02 style dates, "September 2026" / "Sept 2026" a month. Only a month name
beside a day or a year is a date ("in May", "the March report" state nothing); a wrong day, month or
year still fails, and a date offered beside another stays a guess."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _one(matcher: str, value: str, answer: str) -> float:
    fact = {"id": "v", "matcher": matcher, "value": "$s.x", "description": "최고 열량 날짜"}
    return m.score_answer([fact], {"v": value}, answer)["v"]


@pytest.mark.parametrize(
    "answer",
    [
        "The highest-calorie lunch in October was on October 2, 2026 at 864.6 kcal.",
        "It peaked on Oct. 2, 2026 (864.6 kcal).",
        "It peaked on Oct 2 (864.6 kcal).",
        "Highest: 2 October 2026, 864.6 kcal.",
        "The top day was October 2nd.",
        "Tomorrow (Friday, 2 October 2026) is the highest-calorie day.",
    ],
)
def test_english_date_holds(answer: str) -> None:
    assert _one("date", "20261002", answer) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "The highest month was September 2026 at 119.3.",
        "Highest: Sept 2026 (119.3).",
        "Highest: Sep. 2026 (119.3).",
    ],
)
def test_english_month_holds(answer: str) -> None:
    assert _one("month", "202609", answer) == 1.0


@pytest.mark.parametrize(
    ("matcher", "value", "answer"),
    [
        ("date", "20261002", "It peaked on October 3, 2026."),
        ("date", "20261002", "It peaked on November 2, 2026."),
        ("date", "20261002", "It peaked on October 2, 2025."),
        ("date", "20261002", "The October menu was the richest."),  # a month name alone is no date
        ("date", "20261002", "It peaked on October 2 or October 3, 2026."),
        ("date", "20261002", "It peaked on October 2, 2026 or October 3, 2026."),
        (
            "date",
            "20261002",
            "가장 높은 날은 10월 2일 또는 10월 3일입니다.",
        ),  # full dates both sides, Korean too
        ("month", "202609", "The highest month was September 2025."),
        ("month", "202609", "The highest month was August 2026."),
        ("month", "202609", "The highest month was September 2026 or October 2026."),
        ("month", "202605", "I may check it later in 2026."),  # 'may' is no month
    ],
)
def test_wrong_english_date_fails(matcher: str, value: str, answer: str) -> None:
    assert _one(matcher, value, answer) == 0.0
