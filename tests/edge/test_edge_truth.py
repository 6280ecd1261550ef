"""The truth scan finds a planted fault of each class and passes the row without it."""

from __future__ import annotations

import json
from typing import Any

from edge_synth.report import truth_scan_md
from edge_synth.truth import FAULT_CLASSES, scan, scan_details

AT_1317 = "2026-12-07T13:17:00+09:00"
AT_0020 = "2026-12-08T00:20:00+09:00"
AT_0100 = "2026-12-08T01:00:00+09:00"


def _row(
    rid: str, clock: str, tool: str, args: dict[str, Any], gold_args: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An exported row with one call, in the conversation (arguments as JSON text) and as gold."""
    messages = [
        {"role": "system", "content": f"현재 시각 {clock}"},
        {"role": "user", "content": "지금 날씨 알려줘"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "name": tool, "content": "{}"},
        {"role": "assistant", "content": "..."},
    ]
    gold = [{"id": "s1", "name": tool, "arguments": gold_args if gold_args is not None else args}]
    return {
        "id": rid,
        "clock": clock,
        "messages_json": json.dumps(messages),
        "gold_calls_json": json.dumps(gold),
    }


def _ncst(base_date: str, base_time: str) -> dict[str, Any]:
    return {"base_date": base_date, "base_time": base_time, "nx": 60, "ny": 127}


def test_every_class_is_reported_even_at_zero() -> None:
    assert scan([]) == {name: [] for name in FAULT_CLASSES}
    assert "kma_schedule" in FAULT_CLASSES


def test_the_3_hourly_time_on_an_ultra_short_observation_is_reported() -> None:
    planted = _row("bad", AT_1317, "kma_getUltraSrtNcst", _ncst("20261207", "1100"))
    right = _row("good", AT_1317, "kma_getUltraSrtNcst", _ncst("20261207", "1200"))
    assert scan([planted, right]) == {"kma_schedule": ["bad"]}


def test_near_midnight_the_previous_days_issuance_is_the_latest() -> None:
    rows = [
        _row("ncst-ok", AT_0020, "kma_getUltraSrtNcst", _ncst("20261207", "2300")),
        _row("ncst-today", AT_0020, "kma_getUltraSrtNcst", _ncst("20261208", "0000")),  # served at 00:40
        _row("vilage-ok", AT_0100, "kma_getVilageFcst", _ncst("20261207", "2300")),
        _row("vilage-0200", AT_0100, "kma_getVilageFcst", _ncst("20261208", "0200")),  # served at 02:10
    ]
    assert scan(rows)["kma_schedule"] == ["ncst-today", "vilage-0200"]


def test_a_fault_in_the_gold_calls_alone_is_reported() -> None:
    row = _row("gold", AT_1317, "kma_getUltraSrtNcst", _ncst("20261207", "1200"), _ncst("20261207", "1100"))
    assert scan([row])["kma_schedule"] == ["gold"]


def test_mid_range_issue_times_and_unscheduled_calls() -> None:
    mid_ok = _row("mid-ok", AT_0100, "kma_mid_getMidTa", {"regId": "11B10101", "tmFc": "202612071800"})
    mid_bad = _row("mid-bad", AT_0100, "kma_mid_getMidTa", {"regId": "11B10101", "tmFc": "202612080600"})
    other = _row("other", AT_1317, "kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "12"})
    grid = _row("grid", AT_1317, "kma_getGridPointList", {"level1": "서울특별시"})
    assert scan([mid_ok, mid_bad, other, grid])["kma_schedule"] == ["mid-bad"]


def test_the_report_shows_each_class_with_its_count() -> None:
    planted = _row("bad", AT_1317, "kma_getUltraSrtNcst", _ncst("20261207", "1100"))
    details = scan_details([planted])
    assert details["kma_schedule"]["rows"] == 1
    assert "base_time=1100" in details["kma_schedule"]["examples"][0]
    assert "1200" in details["kma_schedule"]["examples"][0]
    md = "\n".join(truth_scan_md(details))
    assert "## Truth scan" in md and "| kma_schedule | 1 |" in md
    assert "| kma_schedule | 0 |" in "\n".join(truth_scan_md(scan_details([])))
