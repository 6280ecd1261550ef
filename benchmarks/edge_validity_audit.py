"""Audit a stored EDGE dataset for rows taken by name from a list the chain found around another result
row's place or point (edge_synth.validity: ``named_pick_after_chain``), read from the plans as stored.

    python benchmarks/edge_validity_audit.py OUT/dataset

Counts plan references ``$sN.items[i].field`` into such a list that had more than one row (a point's
two coordinates count apart), facts with ``row_reason`` "named" on such a list, and queries with "는요?".
A list around a place table looked up by the user's own words (natural.PLACE_ROWS, called first with
literal arguments) is the user's own search and not counted.
"""

from __future__ import annotations

import json
import re
import sys

import datasets

from edge_synth.fields import concept
from edge_synth.natural import PLACE_ROWS
from edge_synth.validity import SEARCH_CONCEPTS

_REF = re.compile(r"^\$s\d+\.")
_ITEM_REF = re.compile(r"^\$s\d+\.items\[\d+\]")
_FIELD = re.compile(r"\.([A-Za-z_]\w*)(\[\d*:\d*\])?$")


def _outputs(row: dict) -> dict[str, dict]:
    outs = {}
    for m in json.loads(row["messages_json"]):
        if m["role"] == "tool" and str(m.get("tool_call_id", "")).startswith("call_s"):
            try:
                outs[m["tool_call_id"][5:]] = json.loads(m["content"])
            except (TypeError, ValueError):
                continue
    return outs


def audit(path: str) -> dict[str, int]:
    refs = facts = b_neun_yo = 0
    for row in datasets.load_from_disk(path):
        steps = {s["id"]: s for s in json.loads(row["plan_json"])["steps"]}
        outs = _outputs(row)
        searched = set()
        for s in steps.values():
            for v in s["args"].values():
                if not (isinstance(v, str) and _REF.match(v)):
                    continue
                prod = steps[v[1:].split(".")[0]]
                own = prod["tool"] in PLACE_ROWS and not any(
                    isinstance(x, str) and x.startswith("$") for x in prod["args"].values()
                )
                m = _FIELD.search(v)
                if m and not own and (concept(m.group(1), prod["tool"]) or "") in SEARCH_CONCEPTS:
                    searched.add(s["id"])
        for s in steps.values():
            for v in s["args"].values():
                if isinstance(v, str) and _ITEM_REF.match(v):
                    prod = v[1:].split(".")[0]
                    if prod in searched and len(outs.get(prod, {}).get("items", [])) > 1:
                        refs += 1
        for f in json.loads(row["facts_json"]):
            many = len(outs.get(f.get("step"), {}).get("items", [])) > 1
            if f.get("row_reason") == "named" and f.get("step") in searched and many:
                facts += 1
        b_neun_yo += "는요?" in row["query"]
    return {
        "named_refs_into_searched_lists": refs,
        "named_facts_on_searched_lists": facts,
        "queries_with_b_neun_yo": b_neun_yo,
    }


if __name__ == "__main__":
    print(json.dumps(audit(sys.argv[1])))
