"""Identifiers in their standard written forms are the same identifier.

A business registration number with or without hyphens (105-88-52441 == 1058852441), a phone number
with hyphens, spaces or none, a date as 2025.10.22 / 2025. 10. 22. / 2025-10-22 / 2025년 10월 22일 /
10월 22일 (the year left to the question), a clock time as 14:30 / 1430 / 14시 30분 / 오후 2시 30분. Another
number, a number split by other words, or a number glued inside a longer one stays a miss."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _one(matcher: str, value: str, answer: str, **extra: object) -> float:
    fact = {"id": "x", "matcher": matcher, "value": "$s1.items[0].v", "description": "값", **extra}
    return m.score_answer([fact], {"x": value}, answer)["x"]


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        ("1058852441", "사업자등록번호는 105-88-52441입니다."),
        ("1058852441", "사업자등록번호: 105 88 52441"),
        ("105-88-52441", "사업자등록번호는 1058852441입니다."),
        ("105-88-52441", "The business registration number is 105-88-52441."),
        ("051-888-1234", "전화번호는 0518881234입니다."),
        ("0518881234", "전화번호는 051-888-1234입니다."),
        ("02-123-4567", "대표번호: 02 123 4567"),
        ("02-123-4567", "☎ 02)123-4567"),
        ("031-8008-1234", "연락처는 031.8008.1234입니다."),
        ("20251022", "시행일은 2025년 10월 22일입니다."),
        ("20251022", "시행일은 2025-10-22입니다."),
        ("20251022", "시행일: 2025. 10. 22."),
        ("2025-10-22", "시행일은 20251022입니다."),
    ],
)
def test_exact_identifier_forms_hold(value: str, answer: str) -> None:
    assert _one("exact", value, answer) == 1.0


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        ("1058852441", "사업자등록번호는 105-88-52442입니다."),  # another number
        ("1058852441", "사업자등록번호는 2105-88-52441입니다."),  # inside a longer one
        ("1058852441", "105건, 88건, 52441원"),  # split by other words
        ("1058852441", "사업자등록번호는 105-88-52441 또는 105-88-52442입니다."),  # hedged
        ("051-888-1234", "전화번호는 051-888-1235입니다."),
        ("051-888-1234", "전화번호는 888-1234입니다."),  # the area code left out
        ("20251022", "시행일은 2025년 10월 23일입니다."),
        ("20251022", "시행일은 2024-10-22입니다."),
        ("20251022", "시행일은 2025년 10월 22일 또는 23일입니다."),
    ],
)
def test_exact_identifier_attacks_miss(value: str, answer: str) -> None:
    assert _one("exact", value, answer) == 0.0


@pytest.mark.parametrize(
    "answer",
    ["2025.10.22", "2025. 10. 22.", "2025-10-22", "2025년 10월 22일", "10월 22일", "2025/10/22", "20251022"],
)
def test_date_forms_hold(answer: str) -> None:
    assert _one("date", "20251022", f"최고 열량 날짜는 {answer}입니다.") == 1.0


@pytest.mark.parametrize("answer", ["2025.10.23", "2024년 10월 22일", "10월 23일", "22일"])
def test_date_attacks_miss(answer: str) -> None:
    assert _one("date", "20251022", f"최고 열량 날짜는 {answer}입니다.") == 0.0


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        ("1430", "14:30"),
        ("14:30", "1430"),
        ("1430", "14시 30분"),
        ("1430", "오후 2시 30분"),
        ("1430", "2:30 PM"),
    ],
)
def test_time_forms_hold(value: str, answer: str) -> None:
    assert _one("time", value, f"토요일 진료 종료는 {answer}입니다.") == 1.0


@pytest.mark.parametrize(("value", "answer"), [("1430", "2시 30분"), ("1430", "14:00"), ("1430", "1430원")])
def test_time_attacks_miss(value: str, answer: str) -> None:
    assert _one("time", value, f"토요일 진료 종료는 {answer}입니다.") == 0.0


def test_name_fact_holding_an_identifier() -> None:
    assert _one("name", "1058852441", "사업자등록번호는 105-88-52441입니다.") == 1.0
    assert _one("name", "1058852441", "사업자등록번호는 105-88-52440입니다.") == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "홈페이지는 https://hyehwa-h.b10.kr 입니다.",
        "홈페이지 주소는 hyehwa-h.b10.kr 입니다.",
        "홈페이지: http://hyehwa-h.b10.kr/",
        "Homepage: hyehwa-h.b10.kr",
    ],
)
def test_web_address_with_or_without_its_scheme_holds(answer: str) -> None:
    assert _one("name", "https://hyehwa-h.b10.kr", answer) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "홈페이지는 https://hyehwa-m.b10.kr 입니다.",  # another school's
        "홈페이지는 b10.kr 입니다.",  # the education office's domain only
        "홈페이지는 https://hyehwa-h.b10.kr.evil.example 입니다.",  # inside a longer host
    ],
)
def test_other_web_address_misses(answer: str) -> None:
    assert _one("name", "https://hyehwa-h.b10.kr", answer) == 0.0


# a count beside the filing dates of what it counts, the dates written month/day
COUNT = {"id": "n", "matcher": "number", "value": "$s3.totalCount", "description": "올해 정기공시 건수"}


@pytest.mark.parametrize(
    "answer",
    [
        "- 올해 제출된 정기공시: 3건 — 사업보고서 (2025.12, 3/12 제출), 분기보고서 (2026.03, 5/12), 반기보고서 (2026.06, 8/11)",
        "올해 정기공시는 3건입니다(3/12 사업보고서, 5/12 분기보고서, 8/11 반기보고서).",
    ],
)
def test_count_beside_month_day_dates_holds(answer: str) -> None:
    assert m.score_answer([COUNT], {"n": 3}, answer) == {"n": 1.0}


@pytest.mark.parametrize(
    "answer", ["올해 정기공시는 3/4건입니다.", "올해 정기공시는 3건/4건입니다.", "정기공시 2건, 3건, 4건"]
)
def test_count_offered_beside_another_misses(answer: str) -> None:
    assert m.score_answer([COUNT], {"n": 3}, answer) == {"n": 0.0}


# a leaflet's key facts, each with the forms an answer to the English gloss uses ("술|음주|alcohol")
LEAFLET = [
    {"id": "t", "matcher": "key_facts", "value": "$s2.items[0].atpnWarnQesitm", "keys": ["술|음주|alcohol"]}
]
WARNING = "매일 세 잔 이상 정기적으로 술을 마시는 사람이 이 약을 복용해야 할 경우 반드시 의사 또는 약사와 상의하십시오."


@pytest.mark.parametrize(
    "answer",
    [
        "술을 매일 세 잔 이상 마신다면 의사와 상의하세요.",
        "음주자는 주의가 필요합니다.",
        "If you drink alcohol daily (3+ drinks), ask a doctor first.",
    ],
)
def test_key_fact_in_any_of_its_forms_holds(answer: str) -> None:
    assert m.score_answer(LEAFLET, {"t": WARNING}, answer) == {"t": 1.0}


@pytest.mark.parametrize("answer", ["음식과 관련된 주의사항은 없습니다.", "No food or drink warnings apply."])
def test_key_fact_unsaid_misses(answer: str) -> None:
    assert m.score_answer(LEAFLET, {"t": WARNING}, answer) == {"t": 0.0}
