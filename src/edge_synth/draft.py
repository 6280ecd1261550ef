"""A sampled plan as composition reads it (``Draft``: its calls, the junctions between them, what
each call returned) and the measures in its rows.

The sampler (``edge_synth.sample``) grows drafts; the fact builder (``edge_synth.facts``) and the
query and answer writers read them. Living apart from the sampler, these let the sampler ask the
fact builder whether a draft has a fact without the two importing each other.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from edge_synth.fields import concept, norm, value_format
from kopa_inspect.apis import get_operation
from kopa_inspect.plans import PlanStep
from kopa_inspect.trajectories import render_output

COUNT = "__count__"  # a CMP junction that compares how many rows each call returned


@dataclass
class Junction:
    type: str
    producer: str  # step id
    consumers: list[str]  # step ids
    edge_id: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Draft:
    index: int
    steps: list[PlanStep] = field(default_factory=list)
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    junctions: list[Junction] = field(default_factory=list)
    call_keys: dict[str, str] = field(default_factory=dict)  # step id -> (tool, concrete args)
    args: dict[str, dict[str, Any]] = field(default_factory=dict)  # step id -> concrete args sent

    @property
    def n_calls(self) -> int:
        return len(self.steps)

    def step(self, sid: str) -> PlanStep:
        return next(s for s in self.steps if s.id == sid)

    def edge_ids(self) -> list[str]:
        return sorted({j.edge_id for j in self.junctions})


def visible_count(op_id: str, args: dict[str, Any], output: dict[str, Any]) -> int:
    """How many rows of ``output`` the model is shown (CallResult.for_model cuts long outputs):
    a row the model never sees cannot be the one a query or an answer points at."""
    return len(json.loads(render_output(op_id, args, output)).get("items", []))


def numeric(v: Any) -> float | None:
    try:
        return float(str(v).replace(",", "").strip())
    except (TypeError, ValueError):
        return None


CODE_LIKE = re.compile(
    r"(id|cd|code|no|num|seq|sn|ymd|date|dtm|dt|de|time|tm|year|yy|mm|dd|x|y|lat|lon|lng|pos|nx|ny)$"
)


def is_measure(name: str, value: Any) -> bool:
    """A quantity worth comparing or ranking (a price, a count, a level), not an id, code or date."""
    text = str(value).strip()
    if (
        CODE_LIKE.search(norm(name))
        or re.fullmatch(r"0\d+", text)
        or value_format(text) in ("date8", "code10", "ym6")
    ):
        return False
    return numeric(text) is not None


# A position, a rank or a serial number is no quantity a person ranks by ("서열이 가장 큰 동").
_NOT_A_MEASURE = re.compile(r"위도|경도|좌표|서열|순번|순서|일련|코드|번호|지번|본번|부번|자리")


def numeric_fields(items: list[dict[str, Any]], min_items: int = 2, op_id: str | None = None) -> list[str]:
    """Measures present in every row; with ``op_id`` only fields its spec declares (and so can name)."""
    if len(items) < min_items:
        return []
    declared = get_operation(op_id).output_fields if op_id else None
    keys = [
        k
        for k, v in items[0].items()
        if is_measure(k, v)
        and "," not in str(v)
        and (declared is None or (k in declared and not _NOT_A_MEASURE.search(declared[k])))
        and concept(k, op_id) not in ("lon", "lat")
    ]
    return sorted(
        k for k in keys if all(numeric(it.get(k)) is not None and "," not in str(it.get(k)) for it in items)
    )
