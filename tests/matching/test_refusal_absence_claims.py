"""A refusal that says the asked thing does not exist needs a call behind it.

kopa-126 asks a student's grades (no public API has them). "서울역삼초등학교는 NEIS에 등록되지 않은 학교라서
성적을 조회할 수 없습니다", with no call made, declines for an invented reason: the school is in NEIS. The
same claim after a call that found nothing is the run's own evidence; a refusal about the data (grades
are not public) claims nothing about the school."""

from __future__ import annotations

import pytest

from kopa_inspect.matching import refusal_score

QUESTION = "서울역삼초등학교 3학년 2반 김민준 학생의 1학기 성적 좀 알려주세요."


@pytest.mark.parametrize(
    "answer",
    [
        "서울역삼초등학교는 NEIS에 등록되지 않은 학교라서 성적을 조회할 수 없습니다.",
        "서울역삼초등학교는 존재하지 않는 학교로 보여 성적을 알려드릴 수 없습니다.",
        "서울역삼초등학교를 찾을 수 없어 성적을 확인할 수 없습니다.",
    ],
)
def test_an_absence_no_call_backs_is_an_invented_reason(answer: str) -> None:
    assert refusal_score(answer, QUESTION) == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "학생 개인의 성적은 제공되는 도구로 조회할 수 없습니다. NEIS 공개 API에는 학교정보·학사일정·급식만 있고 "
        "개인 성적 정보는 없습니다.",
        "죄송하지만 서울역삼초등학교 김민준 학생의 성적은 개인정보라 공개 API로 조회할 수 없습니다.",
        "서울역삼초등학교 학생의 성적은 공개 API에서 조회되지 않아 알려드릴 수 없습니다.",
        "서울역삼초등학교 김민준 학생의 1학기 성적은 찾을 수 없습니다: 나이스 공개 API는 학교·급식·학사 정보만 제공합니다.",
    ],
)
def test_a_refusal_about_the_data_holds(answer: str) -> None:
    assert refusal_score(answer, QUESTION) == 1.0


def test_the_same_absence_after_a_call_is_the_runs_evidence() -> None:
    answer = "'서교동' 측정소는 조회되지 않아 지금 미세먼지 값을 알려드릴 수 없습니다."
    question = "'서교동' 측정소의 지금 미세먼지 알려줘."
    shown = '{"totalCount": 0, "items": []}'
    assert refusal_score(answer, question, shown) == 1.0
    assert refusal_score(answer, question) == 0.0
