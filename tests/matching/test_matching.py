"""Answer and call matching (framework-free; GRPO rewards reuse these functions)."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        (790000, "가격은 790,000원입니다"),
        ("790,000", "79만 원"),
        (7_900_000_000, "약 79억 원에 거래되었습니다"),
        (7_950_000_000, "79억 5,000만원"),
        ("12.5", "기온은 12.5도입니다"),
        (-3, "최저 -3℃"),
        ("82,500", "8억 2,500만원에 팔렸습니다"),  # 만원 amount restated in 원
        (144, "총 144건"),
        (16, "15시 기온은 16℃예요"),
        (12.46, "약 12.5도"),  # rounded to the stated precision
    ],
)
def test_number_matches(expected: object, answer: str) -> None:
    assert m.number_score(expected, answer) == 1.0


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        (790000, "가격은 780,000원입니다"),
        (7_949_000_000, "79억"),  # a 1억 precision is coarser than 1% of the value
        (3.4, "3도"),  # an integer is too coarse for 3.4
        (144, "2026년 10월 15일"),
        (12, "1.2만"),
        ("-", "12"),
    ],
)
def test_number_mismatches(expected: object, answer: str) -> None:
    assert m.number_score(expected, answer) == 0.0


def test_number_tolerance() -> None:
    assert m.number_score(100, "101", tolerance=1) == 1.0
    assert m.number_score(100, "102", tolerance=1) == 0.0


def test_extract_numbers_minus_and_dates() -> None:
    raw = [n.value for n in m.extract_numbers("2026-10-15, 영하 -3.5도, 1천만 원", mask_dates=False)]
    assert 2026 in raw and -3.5 in raw and 10_000_000 in raw
    assert -10 not in raw  # "-10" inside a date is not negative
    # by default the digits of dates and clock times are not figures
    assert [n.value for n in m.extract_numbers("2026-10-15 15:00, 10월 3일, 영하 -3.5도")] == [-3.5]


@pytest.mark.parametrize(
    "answer",
    ["2026년 12월 25일", "2026-12-25", "2026.12.25", "20261225", "12월 25일 성탄절", "날짜: 2026/12/25"],
)
def test_date_matches(answer: str) -> None:
    assert m.date_score(20261225, answer) == 1.0
    assert m.date_score("2026-12-25", answer) == 1.0


def test_date_mismatches() -> None:
    assert m.date_score("20261225", "2025년 12월 25일") == 0.0
    assert m.date_score("20261225", "12월 24일") == 0.0
    assert m.date_score("not a date", "2026-12-25") == 0.0


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        ("서울특별시 종로구", "서울 종로구입니다"),
        ("서울특별시 종로구", "서울시 종로구"),
        ("부산광역시", "부산"),
        ("경기도 성남시 분당구", "경기 성남시분당구"),
        ("래미안 퍼스티지", "'래미안퍼스티지' 아파트"),
        ("충청북도 청주시", "충북 청주시"),
    ],
)
def test_name_matches(expected: str, answer: str) -> None:
    assert m.name_score(expected, answer) == 1.0


def test_name_mismatch() -> None:
    assert m.name_score("서울특별시 종로구", "서울 중구") == 0.0
    assert m.name_score("", "anything") == 0.0


def test_set_partial_credit() -> None:
    assert m.set_score(["개천절", "한글날"], "개천절과 한글날이 있습니다") == 1.0
    assert m.set_score(["개천절", "한글날"], "개천절만 있습니다") == 0.5
    assert m.fact_score("set", ["개천절", "한글날"], "개천절만") == 0.5
    assert not m.fact_holds({"matcher": "set"}, ["개천절", "한글날"], "개천절만")


@pytest.mark.parametrize(
    "answer",
    [
        "제공된 도구로는 답할 수 없습니다.",
        "과거 관측 자료는 제공하지 않습니다",
        "I cannot answer this with the available tools.",
        "해당 정보를 알 수 없어요",
    ],
)
def test_refusal_detected(answer: str) -> None:
    assert m.is_refusal(answer)
    assert m.fact_score("refusal", "literal", answer) == 1.0


def test_refusal_not_detected() -> None:
    assert not m.is_refusal("2019년 3월 1일 최고기온은 12도였습니다.")


def test_exact_and_unknown_matcher() -> None:
    assert m.fact_score("exact", "NO_DATA", "코드 no_data 입니다") == 1.0
    with pytest.raises(ValueError):
        m.fact_score("fuzzy", 1, "1")


def test_arguments_equal_normalizes() -> None:
    gold = {"nx": 60, "ny": "127", "base_date": "20261015", "serviceKey": "k", "dataType": "JSON"}
    assert m.arguments_equal(gold, {"nx": "60", "ny": 127, "base_date": " 20261015 ", "pageNo": 1})
    assert not m.arguments_equal(gold, {"nx": 61, "ny": 127, "base_date": "20261015"})
    assert not m.arguments_equal(gold, {"nx": 60, "ny": 127})  # missing argument
    # leading zeros are meaningful in codes and times
    assert not m.arguments_equal({"base_time": "0500"}, {"base_time": 500})
    # a larger first page holds the gold rows; a different page does not
    assert m.arguments_equal({"numOfRows": 10}, {"numOfRows": 100})
    assert not m.arguments_equal({"numOfRows": 10, "pageNo": 2}, {"numOfRows": 100, "pageNo": 2})
    assert not m.arguments_equal({"numOfRows": 100}, {"numOfRows": 10})


def test_argument_match_score_partial() -> None:
    assert m.argument_match_score({"a": 1, "b": 2}, {"a": 1, "b": 2}) == 1.0
    assert m.argument_match_score({"a": 1, "b": 2}, {"a": 1, "b": 3}) == pytest.approx(0.75)
    assert m.argument_match_score({"a": 1}, {}) == 0.0


def test_call_prf_and_matching_is_one_to_one() -> None:
    gold = [("t", {"x": 1}), ("t", {"x": 2}), ("u", {})]
    made = [("t", {"x": 2}), ("t", {"x": 1}), ("t", {"x": 1})]
    assert m.match_calls(gold, made) == {0: 1, 1: 0}
    p, r, f = m.call_prf(gold, made)
    assert p == pytest.approx(2 / 3) and r == pytest.approx(2 / 3) and f == pytest.approx(2 / 3)
    assert m.call_prf([], []) == (1.0, 1.0, 1.0)
    assert m.call_prf([], [("t", {})])[2] == 0.0


def test_accept_lists_in_call_matching() -> None:
    gold = [("t", {"region": "서울특별시 마포구", "numOfRows": 10})]
    made = [("t", {"region": "마포구", "numOfRows": 10})]
    assert m.call_prf(gold, made)[2] == 0.0
    assert m.call_prf(gold, made, accepts=[{"region": ["마포구", "서울 마포구"]}])[2] == 1.0
    assert m.call_prf(gold, [("t", {"region": "강남구"})], accepts=[{"region": ["마포구"]}])[2] == 0.0
    assert m.same_query(
        {"region": "서울특별시 마포구", "numOfRows": 10},
        {"region": "마포구", "numOfRows": 3},
        accept={"region": ["마포구"]},
    )
