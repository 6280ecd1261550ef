"""EDGE datasets -> GRPO/SFT training rows, on the same steps the ``kopa_steps`` task evaluates.

Four forms, all read from an EDGE dataset saved with ``save_to_disk`` (columns documented in
src/edge_synth/README.md), *training side of the held-out split only*
(:func:`kopa_inspect.steps.build.split_of`: the ``kopa_steps`` EDGE split evaluates the rest):

- ``step``: one row per assistant turn (:mod:`kopa_inspect.steps.build`: only the tools in play,
  compact results, unanswerable steps dropped). The prompt is rendered exactly as Inspect's hf
  provider renders the ``kopa_steps`` sample at evaluation (:func:`hf_render`), so training and
  evaluation see the same text. Columns for the rewards: kind, target_calls_json (token arguments
  kept), facts_json, tools_json, tool_results_json, session_tokens_json, clock, seed.
- ``sft``: the same prompts with the target turn as the completion (end token included), so
  SFTTrainer's loss covers the assistant turn only.
- ``episode``: one row per trajectory: the system and user turns only, for multi-turn rollouts in
  which the model calls the tools itself (TRL ``environment_factory``, see env.py); the
  environment holds only the trajectory's tools plus its distractors.
- ``trajectory``: one row per trajectory, the whole conversation as exported (``messages``: API
  results compacted, call arguments as exact JSON text) and its tools as a JSON string, for
  SFTTrainer with ``assistant_only_loss`` and :mod:`kopa_grpo.training_template`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from datasets import Dataset

from kopa_grpo.config import PromptSettings
from kopa_inspect.steps import build as steps

Form = Literal["step", "episode", "sft", "trajectory"]


def hf_render(
    tokenizer: Any,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    add_generation_prompt: bool = True,
) -> str:
    """The text Inspect's hf provider (``HuggingFaceAPI.hf_chat``) renders for these messages and
    tools: Inspect messages dumped without None fields, tools as Inspect's JSON schema dump."""
    import copy

    from inspect_ai.model._providers.hf import message_content_to_string
    from inspect_ai.model._reasoning import emulate_reasoning_history
    from inspect_ai.util._json import JSON_SCHEMA_EXTENDED_FIELDS, json_schema_dump

    from kopa_inspect.steps.task import chat_messages, tool_info

    hf_messages = message_content_to_string(copy.deepcopy(emulate_reasoning_history(chat_messages(messages))))
    dicts = [m.model_dump(exclude_none=True) for m in hf_messages]
    tool_list = [json_schema_dump(tool_info(t), exclude=JSON_SCHEMA_EXTENDED_FIELDS) for t in tools]
    return tokenizer.apply_chat_template(
        dicts,
        tools=tool_list or None,
        add_generation_prompt=add_generation_prompt,
        tokenize=False,
        enable_thinking=None,
    )


def _target_message(ex: steps.StepExample) -> dict[str, Any]:
    if ex.kind == "answer":
        return {"role": "assistant", "content": ex.target_answer}
    calls = [
        {"id": f"call_t{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(ex.target_calls)
    ]
    return {"role": "assistant", "content": "", "tool_calls": calls}


def step_row(ex: steps.StepExample, tokenizer: Any) -> dict[str, Any]:
    return {
        "prompt": hf_render(tokenizer, ex.messages, ex.tools),
        "kind": ex.kind,
        "target_calls_json": json.dumps(ex.target_calls, ensure_ascii=False),
        "target_answer": ex.target_answer,
        "facts_json": json.dumps(ex.facts, ensure_ascii=False),
        "tools_json": json.dumps(ex.tools, ensure_ascii=False),
        "tool_results_json": json.dumps(ex.tool_results, ensure_ascii=False),
        "session_tokens_json": json.dumps(ex.session_tokens),
        "clock": ex.clock,
        "seed": ex.seed,
        "trajectory_id": ex.trajectory_id,
        "step_id": ex.id,
    }


def sft_row(ex: steps.StepExample, tokenizer: Any) -> dict[str, str]:
    """Prompt-completion text pair: the completion is what the template appends for the target
    turn (the template is prefix-preserving: the rendered context is a prefix of the rendered
    conversation including that turn)."""
    head = hf_render(tokenizer, ex.messages, ex.tools)
    full = hf_render(tokenizer, [*ex.messages, _target_message(ex)], ex.tools, add_generation_prompt=False)
    if not full.startswith(head):
        raise ValueError("the chat template is not prefix-preserving; SFT pairs cannot be cut from it")
    return {"prompt": head, "completion": full[len(head) :], "kind": ex.kind, "step_id": ex.id}


def episode_row(row: dict[str, Any]) -> dict[str, Any]:
    """System + user turns; the environment is keyed by the trajectory's own tools (env.py)."""
    from kopa_grpo.env import tools_key

    messages = json.loads(row["messages_json"])
    head = [
        {"role": m["role"], "content": m.get("content") or ""}
        for m in messages
        if m["role"] in ("system", "user")
    ][:2]
    tools = json.loads(row["tools_json"])
    names = [t.get("function", t)["name"] for t in tools]
    return {
        "prompt": head,
        "environment": tools_key(names),
        "tools_json": json.dumps(tools, ensure_ascii=False),
        "facts_json": row["facts_json"],
        "plan_json": row.get("plan_json", "{}"),
        "clock": row["clock"],
        "seed": int(row["seed"]),
        "trajectory_id": row.get("id", ""),
    }


def trajectory_row(row: dict[str, Any]) -> dict[str, Any]:
    """A conversational SFT row; ``tools`` as text (TRL parses a JSON string exactly, whereas a list
    of schemas in one Arrow column would be merged into one struct with every tool's keys)."""
    messages = [
        {
            "role": m["role"],
            "content": m.get("content") or "",
            "tool_calls": [
                {
                    "id": tc["id"],
                    "type": tc.get("type") or "function",
                    "function": {"name": tc["function"]["name"], "arguments": tc["function"]["arguments"]},
                }
                for tc in m.get("tool_calls") or []
            ],
            "tool_call_id": m.get("tool_call_id"),
            "name": m.get("name"),
        }
        for m in row["messages"]
    ]
    return {"messages": messages, "tools": row["tools_json"], "trajectory_id": row.get("id", "")}


def _n_tokens(tokenizer: Any, text: str) -> int:
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def _order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: hashlib.sha256(r["step_id"].encode("utf-8")).hexdigest())


def select_rows(
    rows: list[dict[str, Any]], max_rows: int | None, answer_share: float | None
) -> list[dict[str, Any]]:
    """A fixed, hashed order; with ``max_rows``, at least ``answer_share`` of them answer rows (as
    many as exist), so a short CPU run still learns to stop calling and answer."""
    rows = _order(rows)
    if max_rows is None or len(rows) <= max_rows:
        return rows
    answers = [r for r in rows if r["kind"] == "answer"]
    calls = [r for r in rows if r["kind"] != "answer"]
    n_ans = min(len(answers), round(max_rows * (answer_share or 0.0)))
    picked = answers[:n_ans] + calls[: max_rows - n_ans]
    picked += answers[n_ans : n_ans + max_rows - len(picked)]
    return _order(picked)


def rows_from_file(rows: list[dict[str, Any]], rows_file: str | Path) -> list[dict[str, Any]]:
    """The rows a ``rows_file`` names (its ``step_ids``), in its order; every id must be a row here."""
    ids = json.loads(Path(rows_file).read_text(encoding="utf-8")).get("step_ids")
    if not isinstance(ids, list) or not ids:
        raise ValueError(f"{rows_file}: no step_ids list to train on")
    by_id = {r["step_id"]: r for r in rows}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ValueError(
            f"{rows_file}: {len(missing)} of {len(ids)} step ids are not training rows under these prompt "
            f"settings (first: {missing[0]!r}); was it written for another dataset, split or profile?"
        )
    return [by_id[i] for i in ids]


def build(
    path: str | Path,
    form: Form,
    tokenizer: Any = None,
    limit: int | None = None,
    prompt: PromptSettings | None = None,
    split: steps.Split = "train",
) -> Dataset:
    """Training rows from the *train* side of the EDGE dataset at ``path`` (``split="test"``: the
    held-out side in the same form, for probing a trained model, never for training)."""
    prompt = prompt or PromptSettings()
    edge = steps.load_edge_rows(path, split, prompt.test_percent)
    if limit is not None:
        edge = edge[:limit]
    if form == "trajectory":
        rows = [trajectory_row(r) for r in edge]
        if not rows:
            raise ValueError(f"{path}: no training trajectories")
        return Dataset.from_list(rows)
    if form == "episode":
        rows = [episode_row(r) for r in edge]
        if not rows:
            raise ValueError(f"{path}: no training trajectories")
        return Dataset.from_list(rows)
    if form not in ("step", "sft"):
        raise ValueError(f"unknown form {form!r}")
    if tokenizer is None:
        raise ValueError(f"the {form} form renders text with the model's chat template: pass a tokenizer")
    settings = prompt.step_settings()
    examples = [ex for r in edge for ex in steps.edge_steps(r, settings)]
    make = step_row if form == "step" else sft_row
    rows = [make(ex, tokenizer) for ex in examples]
    n_all = len(rows)
    if prompt.max_completion_tokens is not None:
        # The gold turn as the template writes it (end token included) must fit: an SFT target is
        # never cut, and a GRPO row whose gold move is longer than max_completion_length could
        # not earn its reward at all (the config sets the two equal).
        gold = rows if form == "sft" else [sft_row(ex, tokenizer) for ex in examples]
        keep = [_n_tokens(tokenizer, g["completion"]) <= prompt.max_completion_tokens for g in gold]
        rows = [r for r, k in zip(rows, keep, strict=True) if k]
    if prompt.max_prompt_tokens is not None:
        answer_limit = prompt.max_answer_prompt_tokens or prompt.max_prompt_tokens
        rows = [
            r
            for r in rows
            if _n_tokens(tokenizer, r["prompt"])
            <= (answer_limit if r["kind"] == "answer" else prompt.max_prompt_tokens)
        ]
    if prompt.rows_file:
        rows = rows_from_file(rows, prompt.rows_file)
    else:
        rows = select_rows(rows, prompt.max_rows, prompt.answer_share)
    if not rows:
        raise ValueError(
            f"{path}: no training rows in form {form!r} ({n_all} before the max_prompt_tokens="
            f"{prompt.max_prompt_tokens} filter)"
        )
    return Dataset.from_list(rows)
