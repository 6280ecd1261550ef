"""Prompt rendering and tool-call parsing for local models run as raw text (the llama.cpp engine).

A GGUF model served by llama.cpp takes a prompt string and returns a completion string, so the
chat format is ours to apply on both sides:

- :func:`render_prompt` turns Inspect messages and tools into the model's prompt with a Jinja chat
  template from :mod:`kopa_inspect.providers.chat_templates`. The ChatML template is the very
  template the ``hf/local`` folder carries, rendered with the same ``tojson`` (non-ASCII kept) as
  transformers, so ``llamacpp/smollm2`` and ``hf/local`` see the same text and the engines can be
  compared on equal prompts. Gemma models get the same tool section inside Gemma's turn markers.
- :func:`parse_completion` turns the completion into a ``ChatMessageAssistant`` whose
  ``tool_calls`` are real Inspect ``ToolCall`` objects (arguments coerced by Inspect's own
  ``parse_tool_call`` against the tool schemas), so the KOPA-Bench agent loop and the scorer work
  unchanged. A malformed call becomes a ``ToolCall`` with a ``parse_error`` that says what is wrong;
  Inspect sends it back to the model as a ``parsing`` error instead of running anything.

Pure functions, no engine import: unit-testable without llama.cpp.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Literal

from inspect_ai.model import ChatMessage, ChatMessageAssistant
from inspect_ai.tool import ToolCall, ToolInfo

# The templates themselves live in chat_templates: one source for hf/local and llamacpp/.
from kopa_inspect.providers.chat_templates import render

# One decoder of a <tool_call> block for the evaluation and the step metrics / rewards (steps.parsing),
# re-exported here: what this provider refuses, no metric or reward pays for.
from kopa_inspect.steps.parsing import ToolCallFormatError, decode_call_block

TemplateName = Literal["chatml", "gemma"]


def template_for_architecture(architecture: str | None) -> TemplateName:
    """The chat template for a GGUF ``general.architecture`` (gemma* -> gemma, otherwise ChatML)."""
    return "gemma" if (architecture or "").lower().startswith("gemma") else "chatml"


def message_dicts(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """Inspect messages as the plain dicts a chat template reads (content flattened to text).

    A failed tool call comes back as ``Error: <message>``, as Inspect's OpenAI provider sends it.
    """
    out: list[dict[str, Any]] = []
    for message in messages:
        content = message.text
        entry: dict[str, Any] = {"role": message.role, "content": content}
        if message.role == "tool" and message.error is not None:
            entry["content"] = f"Error: {message.error.message}" + (f"\n{content}" if content else "")
        if message.role == "assistant" and message.tool_calls:
            entry["tool_calls"] = [
                {"id": call.id, "function": call.function, "arguments": call.arguments}
                for call in message.tool_calls
            ]
        out.append(entry)
    return out


def tool_dicts(tools: list[ToolInfo]) -> list[dict[str, Any]]:
    """Tools as ``{"name", "description", "parameters"}`` JSON schemas (None fields dropped)."""
    return [tool.model_dump(exclude_none=True) for tool in tools]


def render_prompt(messages: list[ChatMessage], tools: list[ToolInfo], template: str = "chatml") -> str:
    """The prompt text for ``messages`` and ``tools``, ending with the assistant turn's opening."""
    return render(template, message_dicts(messages), tool_dicts(tools), add_generation_prompt=True)


_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)


def _call_id(prefix: str, index: int, block: str) -> str:
    # Deterministic (same completion, same ids) and unique within a conversation: the prefix is
    # the turn's position, the digest tells apart calls within a turn.
    digest = hashlib.sha1(f"{index}:{block}".encode()).hexdigest()[:8]
    return f"{prefix}_{index}_{digest}"


def parse_tool_calls(
    completion: str, tools: list[ToolInfo], id_prefix: str = "call"
) -> tuple[str, list[ToolCall]]:
    """The text outside the ``<tool_call>`` blocks and one ToolCall per block.

    A block left open at the end (the model stopped before ``</tool_call>``) is still parsed. A bad
    block gives a ToolCall whose ``parse_error`` explains the problem (and repeats the raw block),
    so the model is told instead of the call being dropped silently.
    """
    from inspect_ai.model._call_tools import parse_tool_call

    calls: list[ToolCall] = []
    for index, match in enumerate(_BLOCK.finditer(completion)):
        block = match.group(1)
        call_id = _call_id(id_prefix, index, block)
        try:
            name, arguments = decode_call_block(block)
        except ToolCallFormatError as exc:
            shown = block.strip()[:2000]
            calls.append(
                ToolCall(
                    id=call_id,
                    function="unknown",
                    arguments={},
                    parse_error=(
                        f"Malformed tool call: {exc}. Write each call as "
                        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>. '
                        f"Received: {shown}"
                    ),
                )
            )
            continue
        # Inspect's own parser: coerces argument types against the schema and flags what it cannot.
        calls.append(parse_tool_call(call_id, name, json.dumps(arguments, ensure_ascii=False), tools))
    content = _BLOCK.sub("", completion).strip()
    return content, calls


def parse_completion(
    completion: str, tools: list[ToolInfo], model_name: str, id_prefix: str = "call"
) -> ChatMessageAssistant:
    """The assistant message for a raw completion: text plus Inspect ToolCalls (none without tools)."""
    if not tools:
        return ChatMessageAssistant(content=completion.strip(), model=model_name, source="generate")
    content, calls = parse_tool_calls(completion, tools, id_prefix)
    return ChatMessageAssistant(
        content=content, tool_calls=calls or None, model=model_name, source="generate"
    )
