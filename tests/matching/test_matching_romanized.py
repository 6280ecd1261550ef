"""An English answer names the task's places in Latin letters, and they are those places.

"Jongno-gu 200; Mapo-gu 253" states the counts of 서울특별시 종로구 and 마포구; "Haeundae Beach",
"Dongmun Market", "U-dong" name their rows. The counts swapped between two romanized districts,
or another district's romanized name, still fail."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m
from kopa_inspect.matching.romanized import expand_romanized, romanize


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [
        ("종로", "jongno"),
        ("신라", "silla"),
        ("국민", "gungmin"),
        ("한국어", "hangugeo"),
        ("부산", "busan"),
        ("제주", "jeju"),
        ("청운동", "cheongundong"),
        ("해운대", "haeundae"),
        ("경기", "gyeonggi"),
        ("백리", "baengni"),
    ],
)
def test_revised_romanization_with_its_sound_changes(hangul: str, latin: str) -> None:
    assert romanize(hangul) == latin


FACTS = [
    {
        "id": "n1",
        "matcher": "number",
        "value": "$a.totalCount",
        "subject": "서울특별시 종로구",
        "description": "거래 건수",
    },
    {
        "id": "n2",
        "matcher": "number",
        "value": "$b.totalCount",
        "subject": "서울특별시 마포구",
        "description": "거래 건수",
    },
    {
        "id": "n3",
        "matcher": "number",
        "value": "$c.totalCount",
        "subject": "서울특별시 서초구",
        "description": "거래 건수",
    },
]
EXPECTED = {"n1": 200, "n2": 253, "n3": 165}


@pytest.mark.parametrize(
    "answer",
    [
        "Apartment sale counts in October 2026: Jongno-gu 200, Mapo-gu 253, Seocho-gu 165.",
        "Jongno District had 200 sales, Mapo District 253 and Seocho District 165.",
        "In Seoul's Jongro-gu there were 200 deals; Mapo-gu: 253; Seocho-gu: 165.",
    ],
)
def test_romanized_districts_bind_their_counts(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == {"n1": 1.0, "n2": 1.0, "n3": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "Apartment sale counts in October 2026: Jongno-gu 253, Mapo-gu 200, Seocho-gu 165.",
        "Jongno-gu 165, Mapo-gu 253, Seocho-gu 200.",
    ],
)
def test_counts_swapped_between_romanized_districts_fail(answer: str) -> None:
    scores = m.score_answer(FACTS, EXPECTED, answer)
    assert scores["n1"] == 0.0 and min(scores.values()) == 0.0


def test_only_a_whole_word_run_is_a_name() -> None:
    names = ["우동", "동문시장", "해운대해수욕장"]
    assert (
        expand_romanized("U-dong 56; Dongmun Market 30; Haeundae Beach 26", names)
        == "우동 56; 동문시장 30; 해운대해수욕장 26"
    )
    # inside another word, or a form two names share, is no name
    assert expand_romanized("Kudong and Udongs", names) == "Kudong and Udongs"
    assert expand_romanized("Busan", ["부산광역시", "부산"]) == "Busan"


def test_names_fixed_by_use_and_english_superlatives() -> None:
    facts = [
        {
            "id": "coldest",
            "matcher": "name",
            "value": "$_.min_by(X, &t).g",
            "description": "가장 추운 곳 (coldest)",
        },
        {
            "id": "party",
            "matcher": "name",
            "value": "$w.items[0].jdName",
            "subject": "울산광역시",
            "description": "울산광역시 2018년 당선자 정당",
        },
    ]
    expected = {"coldest": "파주시", "party": "더불어민주당"}
    context = {"coldest": {"competitors": ["수원시 영통구", "성남시 분당구", "파주시", "양평군", "포천시"]}}
    right = "The coldest is Paju at 0.6°C. Ulsan mayor: changed (2018: Democratic Party)."
    assert m.score_answer(facts, expected, right, context=context) == {"coldest": 1.0, "party": 1.0}
    wrong = "The coldest is Yangpyeong at 1.1°C. Ulsan mayor: changed (2018: People Power Party)."
    assert m.score_answer(facts, expected, wrong, context=context) == {"coldest": 0.0, "party": 0.0}


def test_a_latin_gloss_beside_the_hangul_name_is_read_once() -> None:
    names = ["서울특별시", "부산광역시"]
    text = "Seoul (서울) 8, Busan (부산) 2 — and many words later in the same sentence, Seoul had the most."
    out = expand_romanized(text, names)
    assert out.startswith("Seoul (서울) 8,") and out.endswith("서울특별시 had the most.")


# kopa-032 in English: three schools said "Maetan High", "Yeongtong High", "Jeongja High"
SCHOOL_CAL = [
    {
        "id": f"cal_{k}",
        "description": f"{s} 열량",
        "matcher": "number",
        "value": "$x",
        "tolerance": 0.5,
        "subject": s,
    }
    for k, s in (("a", "매탄고등학교"), ("b", "영통고등학교"), ("c", "정자고등학교"))
]
SCHOOL_EXPECTED = {"cal_a": "834.2 Kcal", "cal_b": "786.2 Kcal", "cal_c": "852.6 Kcal"}


def test_schools_said_the_way_people_say_them_in_english() -> None:
    answer = (
        "- Maetan High (Suwon): 834.2 kcal\n- Yeongtong High (Suwon): 786.2 kcal\n"
        "- Jeongja High School (Bundang): 852.6 kcal"
    )
    assert m.score_answer(SCHOOL_CAL, SCHOOL_EXPECTED, answer) == dict.fromkeys(SCHOOL_EXPECTED, 1.0)


def test_calories_swapped_between_schools_said_in_english_fail() -> None:
    answer = "- Maetan High: 786.2 kcal\n- Yeongtong High: 834.2 kcal\n- Jeongja High: 852.6 kcal"
    scores = m.score_answer(SCHOOL_CAL, SCHOOL_EXPECTED, answer)
    assert scores["cal_a"] == 0.0 and scores["cal_b"] == 0.0
