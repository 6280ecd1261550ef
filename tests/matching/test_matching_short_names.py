"""The usual short forms of the task's names are those names: "매탄고" for 매탄고등학교, "서울" for
서울특별시, "영통중" for 영통중학교, "카카오" for (주)카카오, "수원" for 수원시.

A short form credits a name only where no other name of the task has the same short form (then it
credits neither), and only as a word of its own ("매탄고개" and "수원도서관" name something else)."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _students(*schools: str) -> list[dict[str, object]]:
    return [
        {
            "id": f"n{i}",
            "matcher": "number",
            "value": f"$s{i}.items[0].n",
            "subject": s,
            "description": "학생 수",
            "competitors": [],
        }
        for i, s in enumerate(schools)
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "매탄고는 1,024명, 영통고는 987명입니다.",
        "매탄고의 학생 수는 1,024명이고 영통고는 987명입니다.",
        "[최종 답변]\n- 매탄고: 1,024명\n- 영통고: 987명",
        "Maetan: 매탄고 has 1,024 students and 영통고 has 987.",
    ],
)
def test_school_short_forms_bind_their_figures(answer: str) -> None:
    facts = _students("매탄고등학교", "영통고등학교")
    assert m.score_answer(facts, {"n0": 1024, "n1": 987}, answer) == {"n0": 1.0, "n1": 1.0}


@pytest.mark.parametrize(
    ("subjects", "answer"),
    [
        (("서울특별시", "경기도"), "서울은 12건, 경기는 30건입니다."),
        (("부산광역시", "대구광역시"), "부산 12건, 대구 30건입니다."),
        (("영통중학교", "매탄중학교"), "영통중 12명, 매탄중 30명입니다."),
        (("매탄초등학교", "원천초등학교"), "매탄초는 12명이고 원천초는 30명입니다."),
        (("수원시", "용인시"), "수원은 12건이고 용인은 30건입니다."),
        (("경기도 수원시", "경기도 용인시"), "경기 수원시 12건, 경기 용인시 30건."),
    ],
)
def test_place_and_school_short_forms_as_subjects(subjects: tuple[str, str], answer: str) -> None:
    facts = _students(*subjects)
    assert m.score_answer(facts, {"n0": 12, "n1": 30}, answer) == {"n0": 1.0, "n1": 1.0}


WHICH = [
    {
        "id": "w",
        "matcher": "name",
        "value": "$s1.max_by(items, &n).SCHUL_NM",
        "description": "학생 수가 가장 많은 학교",
        "competitors": ["영통고등학교", "수원고등학교", "효원고등학교"],
    }
]


@pytest.mark.parametrize(
    "answer",
    [
        "학생 수가 가장 많은 학교는 매탄고입니다.",
        "매탄고가 가장 많습니다(1,024명).",
        "[최종 답변]\n- 가장 많은 학교: 매탄고",
        "The school with the most students is 매탄고.",
    ],
)
def test_which_one_winner_said_short(answer: str) -> None:
    assert m.score_answer(WHICH, {"w": "매탄고등학교"}, answer) == {"w": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "학생 수가 가장 많은 학교는 영통고입니다.",  # a competitor said short
        "학생 수가 가장 많은 학교는 매탄고 또는 영통고입니다.",  # hedged between two short forms
        "매탄고, 영통고, 수원고, 효원고 중 가장 많은 곳은 영통고입니다.",
        "학생 수가 가장 많은 학교는 매탄중입니다.",  # another school of the same name
        "학생 수가 가장 많은 곳은 매탄고개 근처 학교입니다.",  # a word that begins with the short form
    ],
)
def test_short_form_attacks_miss(answer: str) -> None:
    assert m.score_answer(WHICH, {"w": "매탄고등학교"}, answer) == {"w": 0.0}


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        ("주식회사 카카오", "대표 회사는 카카오입니다."),
        ("(주)카카오", "회사명은 카카오입니다."),
        ("카카오(주)", "Company: 카카오"),
        ("서울특별시", "서울입니다."),
        ("매탄고등학교", "해당 학교는 매탄고예요."),
        ("경기여자고등학교", "경기여고입니다."),
    ],
)
def test_plain_name_fact_short_form(value: str, answer: str) -> None:
    facts = [{"id": "x", "matcher": "name", "value": "$s1.items[0].nm", "description": "이름"}]
    assert m.score_answer(facts, {"x": value}, answer) == {"x": 1.0}


def test_shared_short_form_credits_neither() -> None:
    # two companies shortened to the same word: "한빛" names neither
    facts = [
        {
            "id": "w",
            "matcher": "name",
            "value": "$s1.max_by(items, &n).nm",
            "description": "매출이 가장 큰 회사",
            "competitors": ["한빛 주식회사"],
        }
    ]
    assert m.score_answer(facts, {"w": "(주)한빛"}, "매출이 가장 큰 회사는 한빛입니다.") == {"w": 0.0}
    assert m.score_answer(facts, {"w": "(주)한빛"}, "매출이 가장 큰 회사는 (주)한빛입니다.") == {"w": 1.0}
    # 광주광역시 and 경기도 광주시: "광주" binds neither's figure
    subj = _students("광주광역시", "광주시")
    assert m.score_answer(subj, {"n0": 12, "n1": 30}, "광주는 12건입니다.")["n1"] == 0.0
    assert m.score_answer(subj, {"n0": 12, "n1": 30}, "광주광역시는 12건, 광주시는 30건입니다.") == {
        "n0": 1.0,
        "n1": 1.0,
    }


@pytest.mark.parametrize(
    "answer",
    [
        "매탄고는 987명, 영통고는 1,024명입니다.",  # swapped
        "매탄고등기술학교는 1,024명입니다. 영통고는 987명입니다.",  # another school
        "수원도서관 근처 매탄고는 987명입니다.",
    ],
)
def test_short_subject_attacks_miss(answer: str) -> None:
    facts = _students("매탄고등학교", "영통고등학교")
    assert m.score_answer(facts, {"n0": 1024, "n1": 987}, answer)["n0"] == 0.0


def test_refusal_keeps_the_questions_short_name() -> None:
    q = "매탄고 내일 급식 메뉴를 알려줘"
    facts = [{"id": "r", "matcher": "refusal", "value": "미래 날짜"}]
    assert m.score_answer(
        facts, {"r": "미래 날짜"}, "매탄고의 내일 급식은 아직 공개되지 않아 확인할 수 없습니다.", question=q
    ) == {"r": 1.0}


# An office said with its place's short name ("대전시장", "경기도지사", "제주도지사") names that place.
OFFICE_FACTS = [
    {
        "id": "name1",
        "matcher": "name",
        "value": "$w1.items[0].name",
        "subject": "대전광역시",
        "description": "대전광역시 당선자",
    },
    {
        "id": "name2",
        "matcher": "name",
        "value": "$w2.items[0].name",
        "subject": "경기도",
        "description": "경기도 당선자",
    },
]
OFFICE_EXPECTED = {"name1": "송서은", "name2": "조우준"}


@pytest.mark.parametrize(
    "answer",
    [
        "| 지역 | 당선자 |\n|---|---|\n| 대전시장 | 송서은 |\n| 경기도지사 | 조우준 |",
        "대전시장은 송서은, 경기도지사는 조우준입니다.",
    ],
)
def test_an_office_with_the_short_place_name_binds_to_the_place(answer: str) -> None:
    assert m.score_answer(OFFICE_FACTS, OFFICE_EXPECTED, answer) == {"name1": 1.0, "name2": 1.0}


def test_an_office_swapped_between_places_fails() -> None:
    answer = "대전시장은 조우준, 경기도지사는 송서은입니다."
    assert m.score_answer(OFFICE_FACTS, OFFICE_EXPECTED, answer) == {"name1": 0.0, "name2": 0.0}


# the question's own gloss ("네이버(NAVER)") and the usual short forms no rule derives ("현대차")
COMPANIES = [
    {
        "id": "top",
        "matcher": "name",
        "value": "$x",
        "description": "영업이익 1위",
        "competitors": ["NAVER", "카카오"],
    }
]
COMPANY_Q = "네이버(NAVER), 카카오, 현대자동차 2025년 영업이익 중 어디가 제일 많이 벌었어요?"


@pytest.mark.parametrize("answer", ["현대차가 1위입니다.", "현대자동차가 가장 많이 벌었습니다."])
def test_usual_short_form_of_the_winner_holds(answer: str) -> None:
    assert m.score_answer(COMPANIES, {"top": "현대자동차"}, answer, question=COMPANY_Q) == {"top": 1.0}


@pytest.mark.parametrize("answer", ["네이버가 1위입니다.", "가장 많이 번 곳은 네이버, 현대차입니다."])
def test_the_glossed_form_of_a_competitor_is_that_competitor(answer: str) -> None:
    assert m.score_answer(COMPANIES, {"top": "현대자동차"}, answer, question=COMPANY_Q) == {"top": 0.0}


# several CEOs in one field: each said, joined by any word
CEOS = [{"id": "ceo", "matcher": "name", "value": "$x", "description": "대표이사"}]


@pytest.mark.parametrize(
    "answer",
    [
        "대표이사는 전영현, 노태문입니다.",
        "The CEOs are 전영현 (Jun Young-hyun) and 노태문 (Roh Tae-moon).",
        "노태문·전영현 공동대표",
    ],
)
def test_every_ceo_said_holds(answer: str) -> None:
    assert m.score_answer(CEOS, {"ceo": "전영현, 노태문"}, answer) == {"ceo": 1.0}


@pytest.mark.parametrize("answer", ["대표이사는 전영현입니다.", "대표이사는 전영현, 한종희입니다."])
def test_a_ceo_left_out_misses(answer: str) -> None:
    assert m.score_answer(CEOS, {"ceo": "전영현, 노태문"}, answer) == {"ceo": 0.0}
