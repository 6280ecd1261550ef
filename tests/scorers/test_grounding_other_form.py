"""A record shown in another form grounds a fact; another record does not.

The agent asks AirKorea without ``ver=1.3`` (fewer fields, and a khaiValue computed without
PM2.5): each hourly row is the gold row in another form, so the 24-hour maximum it reads is
grounded. A row that differs in the field the fact reads, or in more than a fifth of the other
shared fields, is another record."""

from __future__ import annotations

from kopa_inspect.scorers.grounding import same_row

GOLD = {
    "stationName": "광안동",
    "mangName": "도시대기",
    "sidoName": "부산",
    "dataTime": "2026-10-23 15:00",
    "so2Value": "0.004",
    "coValue": "0.4",
    "o3Value": "0.045",
    "no2Value": "0.016",
    "pm10Value": "47",
    "pm25Value": "28",
    "khaiValue": "76",
    "khaiGrade": "2",
    "so2Grade": "1",
    "coGrade": "1",
    "o3Grade": "2",
    "no2Grade": "1",
    "pm10Grade": "2",
}
OTHER_VERSION = {k: v for k, v in GOLD.items() if k not in ("mangName", "pm25Value")} | {"khaiValue": "62"}
READS = frozenset({"pm10Value"})


def test_the_same_row_through_another_api_version() -> None:
    assert same_row(GOLD, READS, OTHER_VERSION)


def test_a_row_that_differs_in_the_field_read_is_another_record() -> None:
    assert not same_row(GOLD, READS, OTHER_VERSION | {"pm10Value": "48"})


def test_a_row_that_differs_in_many_other_fields_is_another_record() -> None:
    other_station = OTHER_VERSION | {
        "stationName": "좌동",
        "dataTime": "2026-10-23 14:00",
        "so2Value": "0.003",
        "o3Value": "0.040",
        "no2Value": "0.020",
    }
    assert not same_row(GOLD, READS, other_station)


def test_a_row_missing_the_field_read_is_no_evidence() -> None:
    assert not same_row(GOLD, READS, {k: v for k, v in OTHER_VERSION.items() if k != "pm10Value"})


def test_an_aggregate_over_items_needs_the_records_not_the_query() -> None:
    from kopa_inspect.scorers.grading import _expr_steps

    assert _expr_steps("$d1.max(nums(items[].pm10Value))", {"d1"}) == {"d1": {"items"}}
    assert _expr_steps("$w1.length(items[?jdName=='국민의힘'])", {"w1"}) == {"w1": {"items"}}
    assert _expr_steps("$s1.totalCount", {"s1"}) == {"s1": {"totalCount"}}
    assert _expr_steps("$s1.items[0].name", {"s1"}) == {"s1": {"items"}}
