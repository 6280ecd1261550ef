"""EDGE datasets -> GRPO/SFT training rows.

Three forms, all read from an EDGE dataset saved with ``save_to_disk`` (columns documented in
src/edge_synth/README.md: messages_json, tools_json, facts_json, clock, seed ...):

- ``step``: one row per assistant turn of a trajectory. The prompt is the conversation up to
  that turn (earlier calls and their real results included), rendered as text with the model's
  own chat template and the trajectory's tool schemas, exactly as Inspect's hf provider renders
  it at evaluation; the target is that turn's tool call(s) or the final answer. Cheap: one
  generation per row, rewards computed from the target and by executing the predicted call.
- ``episode``: one row per trajectory: the system and user turns only, for multi-turn rollouts
  in which the model calls the tools itself (TRL ``environment_factory``, see env.py).
- ``sft``: the step rows as prompt-completion text pairs (the completion is the target turn as
  the template renders it, end token included), so SFTTrainer's loss covers the assistant turns
  only, on exactly the prompts GRPO sees, and the prompt-length filter keeps whole steps instead
  of truncating a conversation before its final answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from datasets import Dataset, DatasetDict, load_from_disk

from kopa_grpo.config import PromptSettings

Form = Literal["step", "episode", "sft"]


def load_edge(path: str | Path, split: str = "train") -> Dataset:
    ds = load_from_disk(str(path))
    if isinstance(ds, DatasetDict):
        if split not in ds:
            raise ValueError(f"{path} has splits {list(ds)}; no {split!r}")
        ds = ds[split]
    missing = {"messages_json", "tools_json", "facts_json", "clock", "seed"} - set(ds.column_names)
    if missing:
        raise ValueError(f"{path} is not an EDGE dataset: missing columns {sorted(missing)}")
    return ds


def _normalize_message(m: dict[str, Any]) -> dict[str, Any]:
    """Chat templates want tool-call arguments as dicts; EDGE may store JSON strings."""
    out = {k: v for k, v in m.items() if v is not None}
    calls = []
    for tc in m.get("tool_calls") or []:
        fn = dict(tc.get("function", {}))
        if isinstance(fn.get("arguments"), str):
            fn["arguments"] = json.loads(fn["arguments"])
        calls.append({"type": "function", "function": fn})
    if calls:
        out["tool_calls"] = calls
    if out.get("content") is None:
        out["content"] = ""
    return out


def compact_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """The tool schema with its description cut to the first line (the output-field list goes)."""
    fn = dict(tool.get("function", tool))
    fn["description"] = (fn.get("description") or "").split("\n", 1)[0]
    return {"type": "function", "function": fn} if "function" in tool else fn


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n] + " ...(생략; cut)"


def trajectory(row: dict[str, Any], prompt: PromptSettings | None = None
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    prompt = prompt or PromptSettings()
    messages = [_normalize_message(m) for m in json.loads(row["messages_json"])]
    tools = json.loads(row["tools_json"])
    if prompt.tools == "called":
        called = {tc["function"]["name"] for m in messages for tc in m.get("tool_calls", [])}
        tools = [t for t in tools if t.get("function", t).get("name") in called]
    if prompt.compact_tools:
        tools = [compact_tool(t) for t in tools]
    if prompt.max_tool_result_chars is not None:
        for m in messages:
            if m["role"] == "tool" and isinstance(m.get("content"), str) and not (m.get("name") or "").endswith(
                    "_get_api_key"):
                m["content"] = _cut(m["content"], prompt.max_tool_result_chars)
    return messages, tools


def clock_of(row: dict[str, Any]) -> str | None:
    """EDGE writes "" when synthesized without a fixed clock; the backends take None for that."""
    return row.get("clock") or None


def render_prompt(tokenizer: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    return tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)


_AUTH_SUFFIX = "_get_api_key"


def _issued_tokens(messages: list[dict[str, Any]]) -> dict[str, str]:
    """Session tokens the auth tools handed out in ``messages`` ({platform: token}).

    A step prompt shows the model an earlier token; the execution reward must accept a later
    call that passes it, so the step row carries the tokens issued before it."""
    tokens: dict[str, str] = {}
    for m in messages:
        name = m.get("name") or ""
        if m["role"] == "tool" and name.endswith(_AUTH_SUFFIX):
            try:
                tokens[name[: -len(_AUTH_SUFFIX)]] = json.loads(m["content"])["token"]
            except (ValueError, KeyError, TypeError):
                continue
    return tokens


def step_rows(row: dict[str, Any], tokenizer: Any, prompt: PromptSettings | None = None) -> list[dict[str, Any]]:
    messages, tools = trajectory(row, prompt)
    # Token results are never cut (the model must be able to copy the token).
    raw = [_normalize_message(m) for m in json.loads(row["messages_json"])]
    rows = []
    for k, m in enumerate(messages):
        if m["role"] != "assistant" or k == 0:
            continue
        calls = [(tc["function"]["name"], tc["function"].get("arguments") or {}) for tc in m.get("tool_calls", [])]
        rows.append(
            {
                "prompt": render_prompt(tokenizer, messages[:k], tools),
                "kind": "call" if calls else "answer",
                "target_calls_json": json.dumps(calls, ensure_ascii=False),
                "target_answer": "" if calls else m.get("content", ""),
                "facts_json": row["facts_json"],
                "session_tokens_json": json.dumps(_issued_tokens(raw[:k])),
                "clock": row["clock"] or "",
                "seed": int(row["seed"]),
                "trajectory_id": row.get("id", ""),
            }
        )
    return rows


def sft_rows(row: dict[str, Any], tokenizer: Any, prompt: PromptSettings | None = None) -> list[dict[str, str]]:
    """Prompt-completion text pairs: the completion is what the template appends for the target
    turn (the template is prefix-preserving: the rendered context is a prefix of the rendered
    conversation including that turn)."""
    messages, tools = trajectory(row, prompt)
    out = []
    for k, m in enumerate(messages):
        if m["role"] != "assistant" or k == 0:
            continue
        head = render_prompt(tokenizer, messages[:k], tools)
        full = tokenizer.apply_chat_template(messages[: k + 1], tools=tools, tokenize=False)
        if not full.startswith(head):
            raise ValueError("the chat template is not prefix-preserving; SFT pairs cannot be cut from it")
        out.append({"prompt": head, "completion": full[len(head):]})
    return out


def episode_row(row: dict[str, Any]) -> dict[str, Any]:
    messages, tools = trajectory(row)
    head = [m for m in messages if m["role"] in ("system", "user")][:2]
    from kopa_grpo.env import group_key

    called = [tc["function"]["name"] for m in messages for tc in m.get("tool_calls", [])]
    platforms = list(row.get("platforms") or []) or sorted({name.split("_", 1)[0] for name in called})
    return {
        "prompt": head,
        "environment": group_key(platforms),
        "tools_json": json.dumps(tools, ensure_ascii=False),
        "facts_json": row["facts_json"],
        "plan_json": row.get("plan_json", "{}"),
        "clock": row["clock"],
        "seed": int(row["seed"]),
        "trajectory_id": row.get("id", ""),
    }


def _n_tokens(tokenizer: Any, text: str) -> int:
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def build(path: str | Path, form: Form, tokenizer: Any = None, limit: int | None = None,
          prompt: PromptSettings | None = None) -> Dataset:
    prompt = prompt or PromptSettings()
    edge = load_edge(path)
    if limit is not None:
        edge = edge.select(range(min(limit, len(edge))))
    if form in ("step", "sft") and tokenizer is None:
        raise ValueError(f"the {form} form renders text with the model's chat template: pass a tokenizer")
    if form == "step":
        rows = [r for ex in edge for r in step_rows(ex, tokenizer, prompt)]
        key = "prompt"
    elif form == "episode":
        # The prompt is the system and user turns; the tools come from the environment (env.py).
        rows = [episode_row(ex) for ex in edge]
        key = None
    elif form == "sft":
        rows = [r for ex in edge for r in sft_rows(ex, tokenizer, prompt)]
        key = "prompt"
    else:
        raise ValueError(f"unknown form {form!r}")
    n_all = len(rows)
    if key is not None and prompt.max_prompt_tokens is not None:
        rows = [r for r in rows if _n_tokens(tokenizer, r[key]) <= prompt.max_prompt_tokens]
    if not rows:
        raise ValueError(
            f"{path}: no training rows in form {form!r} ({n_all} before the max_prompt_tokens="
            f"{prompt.max_prompt_tokens} filter)"
        )
    return Dataset.from_list(rows)
