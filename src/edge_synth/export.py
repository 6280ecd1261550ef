"""Phase B.4: rows -> a Hugging Face ``datasets.Dataset`` (schema in src/edge_synth/README.md).

Two columns are what TRL 1.16's SFTTrainer reads as they are (trl/trainer/sft_trainer.py,
``tokenize_fn``: ``tools = example.get("tools")``, a JSON string is parsed, a list is passed on to
``apply_chat_template(messages, tools=tools)``):

- ``tools``: the tool JSON schemas as the step form shows them (``trainable.compact_tools``), an
  Arrow ``List(Json())`` (per-tool parameter schemas differ, which no single struct type could
  hold; ``Json`` decodes each back to a dict; each is stored as the exact text ``json`` wrote);
- ``messages``: the HF chat structure, ready to train on: each API result compacted
  (``edge_synth.trainable``: the rows and fields the chain and the answer use, the count) so a row
  fits a small model's context, and ``tool_calls[].function.arguments`` as the exact JSON text of
  the call (OpenAI's wire form). Not ``Json()``: ``datasets`` writes a ``Json`` value with pandas'
  ujson (10 decimals: 1e-12 becomes 0.0) and reads it back with its imprecise float parser
  (126.9915771784 becomes 126.99157717840001), and a template's ``tojson`` then trains the model on
  digits the call never had. kopa_grpo's training template writes a string as it is; for a template
  that wants a dict (Qwen2.5's ``arguments | tojson``), :func:`chat_messages` parses them exactly.

``messages_json`` keeps the conversation with the whole API results (what the step form reads and
compacts itself), ``tools_json`` the whole tool schemas as a JSON string (lossless, what kopa_grpo.data reads).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
from datasets import Dataset, Features, Json, List, Value

from edge_synth.compose import Composed
from edge_synth.sample import Draft
from edge_synth.trainable import compact_messages, compact_tools

_TOOL_CALL = {
    "id": Value("string"),
    "type": Value("string"),
    "function": {"name": Value("string"), "arguments": Value("string")},
}
MESSAGE = {
    "role": Value("string"),
    "content": Value("string"),
    "tool_calls": List(_TOOL_CALL),
    "tool_call_id": Value("string"),
    "name": Value("string"),
}

FEATURES = Features(
    {
        "id": Value("string"),
        "index": Value("int64"),
        "query": Value("string"),
        "answer": Value("string"),
        "messages": List(MESSAGE),
        "messages_json": Value("string"),
        "tools": List(Json()),
        "tools_json": Value("string"),
        "plan_json": Value("string"),
        "gold_calls_json": Value("string"),
        "facts_json": Value("string"),
        "platforms": List(Value("string")),
        "junctions": List(Value("string")),
        "n_calls": Value("int64"),
        "seed": Value("int64"),
        "clock": Value("string"),
        "edge_ids": List(Value("string")),
    }
)


def hf_message(m: dict[str, Any]) -> dict[str, Any]:
    calls = [
        {
            **tc,
            "function": {
                "name": tc["function"]["name"],
                "arguments": _args_text(tc["function"]["arguments"]),
            },
        }
        for tc in m.get("tool_calls") or []
    ]
    return {
        "role": m["role"],
        "content": m.get("content") or "",
        "tool_calls": calls,
        "tool_call_id": m.get("tool_call_id"),
        "name": m.get("name"),
    }


def _args_text(arguments: Any) -> str:
    # Python's json writes each float as the shortest text that reads back as the same float.
    return (
        arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False, sort_keys=True)
    )


def _exact_json(value: Any) -> str:
    # Given as text, ``Json()`` stores it as is; given a dict it would write it with ujson (10 decimals).
    return json.dumps(value, ensure_ascii=False)


def make_row(draft: Draft, comp: Composed, *, seed: int, clock: str | None) -> dict[str, Any]:
    from kopa_inspect.apis import get_operation
    from kopa_inspect.apis._schema import coerce_call, coerce_messages

    # Gold calls in the schema's types (apis._schema.coerce_call): the plan ran with the values as
    # the earlier outputs gave them (mapX "127.041900" for a number, TAGO citycode 25 for a string),
    # which Inspect refuses before the tool runs; SFT/GRPO must learn the call the benchmark accepts.
    # The API reads both spellings alike (same request text, or the same decimal): see _schema.
    gold = [
        {"id": s.id, "name": s.tool, "arguments": coerce_call(s.tool, comp.run.args[s.id])}
        for s in comp.plan.steps
    ]
    messages = coerce_messages(comp.messages)
    plan = json.loads(comp.plan.model_dump_json())
    facts = json.loads(json.dumps(comp.facts, ensure_ascii=False, default=str))
    trainable = compact_messages(messages, plan, facts, comp.query, comp.answer)
    return {
        "id": f"edge-s{seed}-{draft.index:07d}",
        "index": draft.index,
        "query": comp.query,
        "answer": comp.answer,
        "messages": [hf_message(m) for m in trainable],
        "messages_json": json.dumps(messages, ensure_ascii=False),
        "tools": [_exact_json(t) for t in compact_tools(comp.tools)],
        "tools_json": json.dumps(comp.tools, ensure_ascii=False),
        "plan_json": comp.plan.model_dump_json(),
        "gold_calls_json": json.dumps(gold, ensure_ascii=False, default=str),
        "facts_json": json.dumps(comp.facts, ensure_ascii=False, default=str),
        "platforms": sorted({get_operation(s.tool).platform for s in comp.plan.steps}),
        "junctions": [j.type for j in draft.junctions],
        "n_calls": len(comp.plan.steps),
        "seed": seed,
        "clock": clock or "",
        "edge_ids": draft.edge_ids(),
    }


def to_dataset(rows: list[dict[str, Any]]) -> Dataset:
    # Rows written before the columns held text (arguments and tools as dicts) are stored alike.
    rows = [
        {
            **r,
            "messages": [hf_message(m) for m in r["messages"]],
            "tools": [t if isinstance(t, str) else _exact_json(t) for t in r["tools"]],
        }
        for r in rows
    ]
    return Dataset.from_list(rows, features=FEATURES)


def save(
    rows: list[dict[str, Any]], out: str | Path, *, test_fraction: float = 0.0
) -> datasets.DatasetDict | Dataset:
    """Save as a Dataset, or a DatasetDict with a deterministic test split (by index)."""
    ds = to_dataset(rows)
    if test_fraction > 0 and len(rows) >= 10:
        k = max(1, round(1 / test_fraction))
        test = ds.filter(lambda r: r["index"] % k == k - 1)
        train = ds.filter(lambda r: r["index"] % k != k - 1)
        dd = datasets.DatasetDict({"train": train, "test": test})
        dd.save_to_disk(str(out))
        return dd
    ds.save_to_disk(str(out))
    return ds


def chat_messages(row: dict[str, Any]) -> list[dict[str, Any]]:
    """messages for ``tokenizer.apply_chat_template``: tool-call arguments as dicts, as templates expect."""
    msgs = json.loads(row["messages_json"])
    for m in msgs:
        for tc in m.get("tool_calls") or []:
            tc["function"] = {**tc["function"], "arguments": json.loads(tc["function"]["arguments"])}
    return msgs
