"""Per-group values after a list of names bind in order: "수원, 용인, 화성의 7월 건수는 각각 75건, 114건,
96건입니다" says 75 of 수원, 114 of 용인, 96 of 화성 ("A와 B는 각각 X, Y", "… respectively"). A list whose
count differs from the names' (three names, two values) binds nothing, and the order holds: the values
in another order are wrong."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _counts(*subjects: str) -> list[dict[str, object]]:
    return [{"id": f"c{i}", "matcher": "number", "value": f"$s{i}.totalCount", "subject": s, "description": "7월 거래 건수",
             "competitors": []} for i, s in enumerate(subjects)]


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
    assert m.score_answer(facts, {"c0": 120, "c1": 98}, "강남구와 서초구는 각각 120건, 98건입니다.") == {"c0": 1.0, "c1": 1.0}
    assert m.score_answer(facts, {"c0": 120, "c1": 98}, "강남구와 서초구의 건수는 각각 120건과 98건입니다.") == {"c0": 1.0, "c1": 1.0}


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
