"""Read a model's completion: tool calls or a final answer.

The format is the one the local model's tool-capable ChatML template teaches and Inspect's hf
provider parses: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``. Kept free of any
training framework so a verl or OpenRLHF adapter can reuse it.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

_CALL_RE = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
_OPEN_TAG = "<tool_call>"


@dataclass
class ParsedCompletion:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answer: str | None = None
    # False when a tool-call tag is present but its JSON is broken, or nothing was said.
    well_formed: bool = True


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
                        _OPEN_TAG + json.dumps({"name": fn.get("name"), "arguments": args}, ensure_ascii=False)
                        + "</tool_call>"
                    )
        return "\n".join(parts)
    return str(completion)


def parse_completion(completion: Any) -> ParsedCompletion:
    text = completion_text(completion)
    calls: list[tuple[str, dict[str, Any]]] = []
    well_formed = True
    for raw in _CALL_RE.findall(text):
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            well_formed = False
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
            well_formed = False
            continue
        args = obj.get("arguments", obj.get("parameters", {}))
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                well_formed = False
                continue
        if not isinstance(args, dict):
            well_formed = False
            continue
        calls.append((obj["name"], args))
    # An opening tag without a matching close is a truncated or broken call.
    if text.count(_OPEN_TAG) != len(_CALL_RE.findall(text)):
        well_formed = False
    rest = _CALL_RE.sub("", text).replace(_OPEN_TAG, "").strip()
    answer = rest if not calls and rest else None
    if not calls and not rest:
        well_formed = False
    return ParsedCompletion(calls=calls, answer=answer, well_formed=well_formed)
