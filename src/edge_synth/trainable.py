"""Tool results in an exported conversation, cut to what a model trained on the row needs.

A raw result is the whole API page (77 apartment trades of 25 fields each, ~20,000 characters): a
row rendered with the SmolLM2 template ran to a median of ~11,000 tokens and most rows did not fit
its 8,192-token context, so SFT either cut the answer off or trained on raw API JSON. The step form
(``kopa_inspect.steps.build.compact_result``) already shows a model less: the envelope header goes
and a note says how many rows were shown. Here the same shape is kept, with the rows and fields
chosen by what the chain and the answer use instead of by position, because a row's trajectory must
stay true end to end (the step form may drop a step whose move it hid; a trajectory cannot):

- fields: those a later call or a fact reads (``$s1.items[8].umdNm``, a max_by measure, a fact's
  field, measure and row label), those whose value the user's query or the answer says (the
  name a person picks a row by) and the field that names each shown row for a person
  (``describe.row_label``); a result with none of them, or a list whose taken row no name tells
  apart (a KMA observation is known by its ``category``), keeps every field;
- rows: every row where the chain reduces over the list (max_by/min_by: the model must see all
  rows to find the largest; validity.py guarantees the page is the whole list), else the first
  :data:`SHOWN_ROWS` rows (what a person would see) plus each row the chain or a fact takes;
- tools: each schema as the step form shows it (``compact_tool``: the summary line, parameter
  descriptions cut; names, types, enums and required kept): the whole descriptions list every
  output field and were the larger half of a row's tokens once results were cut;
- the count: ``totalCount`` stays, and ``_shown`` says "{total}건 중 {n}건" when the rows shown are
  fewer than the list has (left out here, or a page of a longer list), as the step form writes it.

Values are not rewritten: the kept part of each row is the API's own values, and Python's ``json``
writes a float back as the shortest text that reads as the same float (126.9915771784 stays so).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from edge_synth.describe import row_label
from kopa_inspect.steps.build import compact_result, compact_tool

SHOWN_ROWS = 5
# Results that are not a list of rows (an error text, a bare object) are cut as the step form cuts them.
FALLBACK_CHARS = 2000
_ENVELOPE = ("resultCode", "resultMsg", "numOfRows", "pageNo", "_truncated")

_ROW_REF = re.compile(r"^\$(s\d+)\.items\[(\d+)\]\.(\w+)")
_REDUCE_REF = re.compile(r"^\$(s\d+)\.(?:max_by|min_by)\(items,\s*&to_number\((\w+)\)\)\.(\w+)")
_TOP_REF = re.compile(r"^\$(s\d+)\.(\w+)")


@dataclass
class StepUse:
    """What the chain and the answer read from one step's result."""

    fields: set[str] = field(default_factory=set)
    rows: set[int] = field(default_factory=set)
    all_rows: bool = False


def _references(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.startswith("$s") else []
    if isinstance(value, dict):
        return [r for v in value.values() for r in _references(v)]
    if isinstance(value, list | tuple):
        return [r for v in value for r in _references(v)]
    return []


def step_uses(plan: dict[str, Any], facts: list[dict[str, Any]]) -> dict[str, StepUse]:
    """{step id: the fields and rows of its result that a later call or a fact reads}."""
    uses: dict[str, StepUse] = {}
    refs = _references([s.get("args") or {} for s in plan.get("steps", [])]) + _references(
        [f.get("value") for f in facts]
    )
    for ref in refs:
        if m := _ROW_REF.match(ref):
            use = uses.setdefault(m.group(1), StepUse())
            use.rows.add(int(m.group(2)))
            use.fields.add(m.group(3))
        elif m := _REDUCE_REF.match(ref):
            use = uses.setdefault(m.group(1), StepUse())
            use.all_rows = True
            use.fields.update((m.group(2), m.group(3)))
        elif m := _TOP_REF.match(ref):
            uses.setdefault(m.group(1), StepUse())
    for f in facts:
        for step_key, row_key in (("step", "row"), ("winner_step", None)):
            sid = f.get(step_key)
            if not sid:
                continue
            use = uses.setdefault(str(sid), StepUse())
            use.fields.update(str(f[k]) for k in ("field", "measure", "row_label_field") if f.get(k))
            if row_key and isinstance(f.get(row_key), int):
                use.rows.add(f[row_key])
            if f.get("row_reason") in ("max", "min"):
                use.all_rows = True
    return uses


def _said(value: Any, text: str) -> bool:
    if value is None or isinstance(value, bool | dict | list):
        return False
    s = str(value).strip()
    return len(s) >= 2 and s in text


def compact_tool_result(content: str, use: StepUse | None, said_text: str, op_id: str | None = None) -> str:
    """One tool result, cut to the rows and fields ``use`` names (see the module docstring)."""
    try:
        data = json.loads(content)
    except (TypeError, ValueError):
        return compact_result(content, FALLBACK_CHARS)
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return compact_result(content, FALLBACK_CHARS)
    use = use or StepUse()
    items: list[Any] = data["items"]
    if use.all_rows:
        keep_rows = list(range(len(items)))
    else:
        keep_rows = sorted(
            set(range(min(SHOWN_ROWS, len(items)))) | {i for i in use.rows if 0 <= i < len(items)}
        )
    rows = [items[i] for i in keep_rows]
    # Fields said or naming a row are read off the rows the chain takes (all rows of a long list
    # would say some value of nearly every field somewhere), else off the rows shown.
    taken = [items[i] for i in sorted(use.rows) if 0 <= i < len(items)] or rows[:SHOWN_ROWS]
    named = [r for r in taken if isinstance(r, dict)]
    fields = set(use.fields) | {k for r in named for k, v in r.items() if _said(v, said_text)}
    unnamed = False
    if op_id:
        all_dicts = [r for r in items if isinstance(r, dict)]
        labels = [row_label(op_id, r, all_dicts) for r in named]
        fields |= {label[0] for label in labels if label}
        # A row told apart by no name (a KMA observation is its `category`) keeps every field; a
        # largest/smallest is told apart by its measure, and all its rows are shown.
        unnamed = not use.all_rows and len(items) > 1 and any(label is None for label in labels)
    dict_rows = [r for r in rows if isinstance(r, dict)]
    present = [k for k in dict.fromkeys(k for r in dict_rows for k in r) if k in fields]
    if present and not unnamed:
        rows = [{k: r[k] for k in r if k in fields} if isinstance(r, dict) else r for r in rows]
    out = {k: v for k, v in data.items() if k not in _ENVELOPE and k != "items"}
    out["items"] = rows
    total = data.get("totalCount")
    total = total if isinstance(total, int) else len(items)
    if len(rows) < max(total, len(items)):
        out["_shown"] = f"{max(total, len(items))}건 중 {len(rows)}건"
    return json.dumps(out, ensure_ascii=False)


def compact_messages(
    messages: list[dict[str, Any]], plan: dict[str, Any], facts: list[dict[str, Any]], query: str, answer: str
) -> list[dict[str, Any]]:
    """The conversation with each API result compacted; session-token results kept whole (the
    next call passes the token on)."""
    uses = step_uses(plan, facts)
    said = f"{query}\n{answer}"
    out = []
    for m in messages:
        cid = str(m.get("tool_call_id") or "")
        if m.get("role") == "tool" and cid.startswith("call_s"):
            m = {
                **m,
                "content": compact_tool_result(
                    m.get("content") or "", uses.get(cid[len("call_") :]), said, m.get("name")
                ),
            }
        out.append(m)
    return out


def compact_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool schemas as the step form shows them (its default settings)."""
    return [compact_tool(t) for t in tools]
