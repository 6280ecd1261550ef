"""Read a model's completion: tool calls or a final answer.

The format is the one the local model's tool-capable ChatML template teaches and Inspect's hf
provider parses: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``. Kept free of any
training framework so a verl or OpenRLHF adapter can reuse it.

A move is either one wave of calls or a final answer, never both: prose beside a call (an answer
around it, a call inside a sentence) makes the completion ill-formed, so neither the exact-call
metric nor any reward pays for hedging between the two kinds. Reasoning in ``<think>`` blocks is
not part of the move (Qwen3 templates emit one, often empty). Tags must balance: a stray
``</tool_call>`` or an unclosed ``<tool_call>`` / ``<think>`` is a broken move.

Each block is read by :func:`decode_call_block`, the one decoder the evaluation uses too
(``providers.local_chat`` imports it: ``llamacpp/local`` and ``local`` parse with it): a block it
refuses (a key beside ``name`` and ``arguments`` such as ``"id"``, ``"type"`` or a smuggled
``"answer"``; no name; arguments that are no object) makes the move ill-formed here as well, so no
step metric or reward pays for a call the evaluation never runs (a decoder of this module's own
would pay such a block in full).
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

_CALL_RE = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
_OPEN_TAG = "<tool_call>"
_CLOSE_TAG = "</tool_call>"
_THINK_RE = re.compile(r"<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


class ToolCallFormatError(ValueError):
    """A ``<tool_call>`` block that is not ``{"name": <tool>, "arguments": {...}}``."""


def decode_call_block(block: str) -> tuple[str, dict[str, Any]]:
    """The tool name and arguments of one ``<tool_call>`` body; ToolCallFormatError says what is wrong.

    The evaluation's decoder (re-exported by providers.local_chat) and the step metrics' alike. A
    ```` ```json ```` fence around the object, a double-encoded arguments string and the
    ``"parameters"`` alias are accepted; any other key beside ``name`` and ``arguments`` is not."""
    text = block.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    if not text:
        raise ToolCallFormatError("the <tool_call> block is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolCallFormatError(
            f"the <tool_call> block is not valid JSON ({exc.msg} at char {exc.pos})"
        ) from exc
    if not isinstance(data, dict):
        raise ToolCallFormatError(f"the <tool_call> block must be a JSON object, not {type(data).__name__}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ToolCallFormatError('the <tool_call> object needs a "name" string (the function to call)')
    arguments = data.get("arguments", data.get("parameters", {}))
    if isinstance(arguments, str):
        # Some models double-encode the arguments object.
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            raise ToolCallFormatError(
                f'"arguments" of {name!r} is a string that is not a JSON object ({exc.msg})'
            ) from exc
    if not isinstance(arguments, dict):
        raise ToolCallFormatError(
            f'"arguments" of {name!r} must be a JSON object, not {type(arguments).__name__}'
        )
    unknown = set(data) - {"name", "arguments", "parameters"}
    if unknown:
        raise ToolCallFormatError(f"the <tool_call> object has unexpected keys {sorted(unknown)}")
    return name.strip(), arguments


@dataclass
class ParsedCompletion:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answer: str | None = None
    # False when a tool-call tag is present but its JSON is broken, tags do not balance, prose
    # stands beside the calls, or nothing was said.
    well_formed: bool = True
    # Text outside the calls and think blocks (the answer when there is no call).
    prose: str = ""


def strip_thinking(text: str) -> tuple[str, bool]:
    """The text without complete ``<think>...</think>`` blocks, and whether what is left is free of
    think tags (an unclosed block is a truncated move)."""
    rest = _THINK_RE.sub("", text)
    return rest, "<think>" not in rest and "</think>" not in rest


def from_tool_calls(calls: list[tuple[str, dict[str, Any]]], n_raw: int, text: str) -> ParsedCompletion:
    """A move a provider already parsed (Inspect ``ToolCall`` objects): ``n_raw`` calls were made, of
    which ``calls`` parsed; ``text`` is the message's own text beside them."""
    rest, closed = strip_thinking(text)
    rest = rest.strip()
    ok = closed and len(calls) == n_raw and bool(calls) and not rest
    return ParsedCompletion(calls=calls, answer=None, well_formed=ok, prose=rest)


def completion_text(completion: Any) -> str:
    """TRL passes text completions as str and conversational ones as a list of messages."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        parts = []
        for m in completion:
            if isinstance(m, dict) and m.get("role") == "assistant":
                content = m.get("content") or ""
                parts.append(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
                for tc in m.get("tool_calls") or []:
                    fn = tc.get("function", tc)
                    args = fn.get("arguments", {})
                    if isinstance(args, str):
                        with contextlib.suppress(json.JSONDecodeError):
                            args = json.loads(args)
                    parts.append(
                        _OPEN_TAG
                        + json.dumps({"name": fn.get("name"), "arguments": args}, ensure_ascii=False)
                        + "</tool_call>"
                    )
        return "\n".join(parts)
    return str(completion)


def parse_completion(completion: Any) -> ParsedCompletion:
    text, closed = strip_thinking(completion_text(completion))
    calls: list[tuple[str, dict[str, Any]]] = []
    well_formed = True
    for raw in _CALL_RE.findall(text):
        try:
            calls.append(decode_call_block(raw))  # the evaluation's decoder: what it refuses is no call
        except ToolCallFormatError:
            well_formed = False
    # An opening tag without a matching close is a truncated or broken call; a closing tag
    # without an opening one is a call written wrong, not prose.
    blocks = len(_CALL_RE.findall(text))
    if text.count(_OPEN_TAG) != blocks or text.count(_CLOSE_TAG) != blocks or not closed:
        well_formed = False
    rest = _CALL_RE.sub("", text).replace(_OPEN_TAG, "").replace(_CLOSE_TAG, "").strip()
    answer = rest if not calls and rest else None
    if not calls and not rest:
        well_formed = False
    if calls and rest:  # a call and prose in one move: an answer around a call, a call in a sentence
        well_formed = False
    return ParsedCompletion(calls=calls, answer=answer, well_formed=well_formed, prose=rest)


def history_calls(prompt: Any) -> list[tuple[str, dict[str, Any]]]:
    """The calls the prompt's earlier assistant turns made: from a rendered prompt (the template's
    ``<tool_call>`` blocks; the tool section's placeholder example is not JSON and is skipped) or
    from a conversational prompt (TRL message lists)."""
    if isinstance(prompt, list):
        text = completion_text([m for m in prompt if isinstance(m, dict) and m.get("role") == "assistant"])
    else:
        text = prompt if isinstance(prompt, str) else ""
    out = []
    for raw in _CALL_RE.findall(text):
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            continue
        args = obj.get("arguments", {}) if isinstance(obj, dict) else None
        if isinstance(args, str):
            with contextlib.suppress(json.JSONDecodeError):
                args = json.loads(args)
        if isinstance(obj, dict) and isinstance(obj.get("name"), str) and isinstance(args, dict):
            out.append((obj["name"], args))
    return out
