"""One value said of a whole list of names binds to each: "A, B, C 세 곳 모두 일요일은 휴진이에요",
"A와 B는 둘 다 12시 30분에 마감합니다", "A and B both close at 12:30". The names must be one list right
before the word (모두, 둘 다, 셋 다, both, all), a count said with it must be the list's, and only the
clause after the word is the shared value: a name outside the list, a miscounted list, "중 하나", a
denied value still fail."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

CLINICS = ("365열린소아청소년과의원", "굿모닝내과의원", "맑은피부과의원")


def _closing(expected: tuple[str, str, str]) -> tuple[list[dict[str, object]], dict[str, str]]:
    facts = [
        {
            "id": f"sat{i}",
            "matcher": "time",
            "value": f"$d{i}.items[0].trmtSatEnd",
            "subject": s,
            "description": f"{i}번째 병원 토요일 마감",
        }
        for i, s in enumerate(CLINICS, 1)
    ]
    return facts, {f"sat{i}": v for i, v in enumerate(expected, 1)}


SAT, SAT_EXPECTED = _closing(("1400", "1230", "1230"))


def _sunday() -> list[dict[str, object]]:
    return [
        {
            "id": f"sun{i}",
            "matcher": "exact",
            "value": f"$d{i}.items[0].noTrmtSun",
            "subject": s,
            "description": f"{i}번째 병원 일요일 휴진",
        }
        for i, s in enumerate(CLINICS, 1)
    ]


SUN = _sunday()
SUN_EXPECTED = {"sun1": "휴진", "sun2": "휴진", "sun3": "휴진"}


@pytest.mark.parametrize(
    "answer",
    [
        "앞의 세 의원 모두 토요일에 진료합니다. 365열린소아청소년과의원은 오후 2시(14시)까지로 가장 늦게까지 하고, "
        "굿모닝내과의원과 맑은피부과의원은 둘 다 12시 30분에 마감합니다.",
        "365열린소아청소년과의원은 14시, 굿모닝내과의원과 맑은피부과의원은 모두 12시 30분까지 진료합니다.",
        "365열린소아청소년과의원 closes at 14:00; 굿모닝내과의원 and 맑은피부과의원 both close at 12:30.",
    ],
)
def test_shared_time_binds_each_name(answer: str) -> None:
    assert m.score_answer(SAT, SAT_EXPECTED, answer) == dict.fromkeys(SAT_EXPECTED, 1.0)


@pytest.mark.parametrize(
    "answer",
    [
        "비교해 보니 차이가 없습니다. 365열린소아청소년과의원, 굿모닝내과의원, 맑은피부과의원 세 곳 모두 일요일은 휴진이에요.",
        "365열린소아청소년과의원, 굿모닝내과의원, 맑은피부과의원은 모두 일요일 휴진입니다.",
    ],
)
def test_shared_state_binds_each_name(answer: str) -> None:
    assert m.score_answer(SUN, SUN_EXPECTED, answer) == dict.fromkeys(SUN_EXPECTED, 1.0)


@pytest.mark.parametrize(
    ("answer", "failing"),
    [
        # the shared value said of two names only: the third is not in the list
        (
            "굿모닝내과의원과 맑은피부과의원은 둘 다 14시에 마감합니다. 365열린소아청소년과의원은 12시 30분입니다.",
            ("sat1", "sat2", "sat3"),
        ),
        # a count that is not the list's ("세 곳 모두" after two names)
        (
            "365열린소아청소년과의원은 14시, 굿모닝내과의원과 맑은피부과의원 세 곳 모두 12시 30분에 마감합니다.",
            ("sat2",),
        ),
        # one of them, not both
        (
            "365열린소아청소년과의원은 14시, 굿모닝내과의원과 맑은피부과의원 중 한 곳은 12시 30분에 마감합니다.",
            ("sat2",),
        ),
        # denied
        (
            "365열린소아청소년과의원은 14시, 굿모닝내과의원과 맑은피부과의원은 둘 다 12시 30분이 아닙니다.",
            ("sat2", "sat3"),
        ),
        # said of another list
        (
            "365열린소아청소년과의원과 굿모닝내과의원은 둘 다 14시, 맑은피부과의원은 12시 30분에 마감합니다.",
            ("sat2",),
        ),
    ],
)
def test_shared_value_attacks_fail(answer: str, failing: tuple[str, ...]) -> None:
    got = m.score_answer(SAT, SAT_EXPECTED, answer)
    assert [f for f in failing if got[f] != 0.0] == []
