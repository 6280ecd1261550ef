"""The truth scan: exported EDGE rows checked for facts a real API would contradict.

Each fault class is a function of one row that returns what is wrong with it (empty when nothing
is). ``scan`` runs every class over a dataset and names the faulty rows per class, so a run's report
shows each class's count (0 on a default run) and a planted row proves each class is looked for.

Classes:
- ``kma_schedule``: a KMA call whose base_date/base_time (or tmFc) is not the latest issuance that
  operation's own schedule serves at the row's clock (``clock.latest_issue``): the 3-hourly 단기예보
  time given to 초단기실황, or today's 0200 asked before 02:10. Such a call answers with an older
  observation than "now", and the answer states it as current.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from edge_synth.clock import SCHEDULES, clock_value, clock_values
from edge_synth.fields import param_format
from kopa_inspect.apis import get_operation


def row_calls(row: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(operation, arguments) of every call the row teaches: the conversation's tool calls and the
    gold calls (the two are written apart, so either can be wrong alone)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for m in json.loads(row.get("messages_json") or "[]"):
        for tc in m.get("tool_calls") or []:
            args = tc["function"]["arguments"]
            calls.append((tc["function"]["name"], json.loads(args) if isinstance(args, str) else args))
    for call in json.loads(row.get("gold_calls_json") or "[]"):
        calls.append((call["name"], call.get("arguments") or {}))
    return calls


def kma_schedule_faults(row: dict[str, Any]) -> list[str]:
    """Scheduled calls whose issuance is not the latest one served at the row's clock."""
    if not row.get("clock"):
        return []  # no clock, no "latest" to hold the row to (export always writes one)
    expected = clock_values(row["clock"])
    faults = []
    for op_id, args in row_calls(row):
        if op_id not in SCHEDULES:
            continue
        op = get_operation(op_id)
        for name, value in args.items():
            p = op.param(name)
            want = clock_value(expected, op_id, param_format(p, op_id)) if p is not None else None
            if want is not None and str(value) != want:
                faults.append(f"{op_id} {name}={value} (latest at {row['clock']}: {want})")
    return sorted(set(faults))


FAULT_CLASSES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "kma_schedule": kma_schedule_faults,
}


def scan(rows: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """Every fault class -> the ids of the rows it finds (a class with none maps to [])."""
    found: dict[str, list[str]] = {name: [] for name in FAULT_CLASSES}
    for row in rows:
        for name, check in FAULT_CLASSES.items():
            if check(row):
                found[name].append(str(row.get("id", "")))
    return found


def scan_details(rows: Iterable[dict[str, Any]], examples: int = 5) -> dict[str, dict[str, Any]]:
    """Per class: the count of faulty rows and the first few faults, as the report shows them."""
    out: dict[str, dict[str, Any]] = {name: {"rows": 0, "examples": []} for name in FAULT_CLASSES}
    for row in rows:
        for name, check in FAULT_CLASSES.items():
            faults = check(row)
            if faults:
                out[name]["rows"] += 1
                if len(out[name]["examples"]) < examples:
                    out[name]["examples"].append(f"{row.get('id', '')}: {faults[0]}")
    return out
