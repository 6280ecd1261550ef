"""Per-group values after a list of names bind in order: "수원, 용인, 화성의 7월 건수는 각각 75건, 114건,
96건입니다" says 75 of 수원, 114 of 용인, 96 of 화성 ("A와 B는 각각 X, Y", "… respectively"). A list whose
count differs from the names' (three names, two values) binds nothing, and the order holds: the values
in another order are wrong."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _counts(*subjects: str) -> list[dict[str, object]]:
    return [
        {
            "id": f"c{i}",
            "matcher": "number",
            "value": f"$s{i}.totalCount",
            "subject": s,
            "description": "7월 거래 건수",
            "competitors": [],
        }
        for i, s in enumerate(subjects)
    ]


CITIES = _counts("수원시", "용인시", "화성시")
EXPECTED = {"c0": 75, "c1": 114, "c2": 96}


@pytest.mark.parametrize(
    "answer",
    [
        "수원, 용인, 화성의 7월 건수는 각각 75건, 114건, 96건입니다.",
        "수원시, 용인시, 화성시의 7월 거래 건수는 각각 75건, 114건, 96건입니다.",
        "수원시, 용인시와 화성시는 각각 75건, 114건, 96건이었습니다.",
        "7월 건수는 수원시, 용인시, 화성시 순서대로 75건, 114건, 96건입니다.",
        "Suwon, Yongin and Hwaseong: 수원시, 용인시 and 화성시 had 75, 114 and 96 deals respectively.",
        "수원시는 75건, 용인시는 114건, 화성시는 96건입니다.",
    ],
)
def test_respective_values_bind_in_order(answer: str) -> None:
    assert m.score_answer(CITIES, EXPECTED, answer) == {"c0": 1.0, "c1": 1.0, "c2": 1.0}


def test_two_names_two_values() -> None:
    facts = _counts("서울특별시 강남구", "서울특별시 서초구")
    assert m.score_answer(facts, {"c0": 120, "c1": 98}, "강남구와 서초구는 각각 120건, 98건입니다.") == {
        "c0": 1.0,
        "c1": 1.0,
    }
    assert m.score_answer(
        facts, {"c0": 120, "c1": 98}, "강남구와 서초구의 건수는 각각 120건과 98건입니다."
    ) == {"c0": 1.0, "c1": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "수원, 용인, 화성의 7월 건수는 각각 75건, 114건입니다.",  # three names, two values
        "수원, 용인, 화성의 7월 건수는 각각 75건, 114건, 96건, 88건입니다.",  # three names, four values
        "수원, 용인, 화성의 7월 건수는 75건, 114건, 96건입니다.",  # no "각각": a listing, no binding
        "수원, 용인, 화성의 7월 건수는 각각 75건 또는 114건, 96건입니다.",
    ],
)
def test_count_mismatch_binds_nothing(answer: str) -> None:
    assert m.score_answer(CITIES, EXPECTED, answer)["c1"] == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "수원, 용인, 화성의 7월 건수는 각각 114건, 75건, 96건입니다.",  # the first two swapped
        "화성, 용인, 수원의 7월 건수는 각각 75건, 114건, 96건입니다.",  # the names in another order
    ],
)
def test_order_is_the_binding(answer: str) -> None:
    assert m.score_answer(CITIES, EXPECTED, answer)["c0"] == 0.0


# names qualified by their city ("부산 센텀시티, 제주 동문시장") are one list
STOPS = _counts("수원월드컵경기장", "센텀시티", "동문시장")
STOPS_EXPECTED = {"c0": 20, "c1": 20, "c2": 28}


def test_names_with_their_city_before_them_are_one_list() -> None:
    answer = "수원월드컵경기장, 부산 센텀시티, 제주 동문시장 정류장의 양방향 도착 예정 버스는 각각 20대, 20대, 28대입니다."
    assert m.score_answer(STOPS, STOPS_EXPECTED, answer) == {"c0": 1.0, "c1": 1.0, "c2": 1.0}
    swapped = "수원월드컵경기장, 부산 센텀시티, 제주 동문시장 정류장의 양방향 도착 예정 버스는 각각 28대, 20대, 20대입니다."
    assert m.score_answer(STOPS, STOPS_EXPECTED, swapped) == {"c0": 0.0, "c1": 1.0, "c2": 0.0}


# the names after the figures, said to be their order ("(A, B, C, D 순)")
PARTIES = _counts("더불어민주당", "국민의힘", "조국혁신당", "진보당")
PARTIES_EXPECTED = {"c0": 83, "c1": 73, "c2": 33, "c3": 16}


@pytest.mark.parametrize(
    "answer",
    [
        "네 정당의 의원 수는 각각 83명, 73명, 33명, 16명입니다(더불어민주당, 국민의힘, 조국혁신당, 진보당 순).",
        "의원 수는 83명, 73명, 33명, 16명입니다 (더불어민주당, 국민의힘, 조국혁신당, 진보당 순서).",
    ],
)
def test_names_after_the_figures_in_their_order_hold(answer: str) -> None:
    assert m.score_answer(PARTIES, PARTIES_EXPECTED, answer) == dict.fromkeys(PARTIES_EXPECTED, 1.0)


def test_names_after_the_figures_in_another_order_miss() -> None:
    answer = "네 정당의 의원 수는 각각 83명, 73명, 33명, 16명입니다(국민의힘, 더불어민주당, 진보당, 조국혁신당 순)."
    assert m.score_answer(PARTIES, PARTIES_EXPECTED, answer) == dict.fromkeys(PARTIES_EXPECTED, 0.0)


# the same names' second list in the next sentence ("7월에는 각각 …")
GU = [
    {"id": f"{k}{i}", "matcher": "number", "value": "$x", "subject": g, "description": d}
    for k, d in (("n", "8월 거래 건수"), ("p", "그 전달 7월 거래 건수 (previous month)"))
    for i, g in enumerate(["분당구", "영통구", "해운대구"])
]
GU_EXPECTED = {"n0": 50, "n1": 64, "n2": 83, "p0": 75, "p1": 114, "p2": 96}


def test_second_list_in_the_next_sentence_binds_to_the_same_names() -> None:
    answer = (
        "분당구, 영통구, 해운대구의 8월 아파트 매매 건수는 각각 50건, 64건, 83건으로 해운대구가 제일 많습니다. "
        "7월에는 각각 75건, 114건, 96건이었으므로 세 곳 모두 7월보다 줄었습니다."
    )
    assert m.score_answer(GU, GU_EXPECTED, answer) == dict.fromkeys(GU_EXPECTED, 1.0)


def test_second_list_in_the_next_sentence_swapped_misses() -> None:
    answer = (
        "분당구, 영통구, 해운대구의 8월 아파트 매매 건수는 각각 50건, 64건, 83건입니다. "
        "7월에는 각각 96건, 114건, 75건이었습니다."
    )
    scores = m.score_answer(GU, GU_EXPECTED, answer)
    assert (scores["p0"], scores["p2"]) == (0.0, 0.0)


# amounts with decimals in a respective list ("각각 약 18.5조 원, 약 1.07조 원, …")
FIRMS = [
    {
        "id": f"v{i}",
        "matcher": "money",
        "value": "$x",
        "unit": "원",
        "subject": s,
        "description": f"{s} 영업이익",
    }
    for i, s in enumerate(["현대자동차", "NAVER", "카카오"])
]
FIRMS_EXPECTED = {"v0": "18,502,853,480,141", "v1": "1,072,814,250,836", "v2": "586,512,000,000"}


def test_decimal_amounts_in_a_respective_list_bind() -> None:
    answer = (
        "현대자동차, NAVER, 카카오의 2025년 영업이익은 각각 약 18.5조 원, 약 1.07조 원, 약 5,865억 원입니다."
    )
    assert m.score_answer(FIRMS, FIRMS_EXPECTED, answer) == {"v0": 1.0, "v1": 1.0, "v2": 1.0}
    swapped = (
        "현대자동차, NAVER, 카카오의 2025년 영업이익은 각각 약 1.07조 원, 약 18.5조 원, 약 5,865억 원입니다."
    )
    assert m.score_answer(FIRMS, FIRMS_EXPECTED, swapped) == {"v0": 0.0, "v1": 0.0, "v2": 1.0}
