"""Prompt rendering and tool-call parsing for local models run as raw text (the llama.cpp engine).

A GGUF model served by llama.cpp takes a prompt string and returns a completion string, so the
chat format is ours to apply on both sides:

- :func:`render_prompt` turns Inspect messages and tools into the model's prompt with a Jinja chat
  template. The ChatML template is the very template the ``hf/local`` folder carries
  (:data:`kopa_inspect.providers.local.TOOL_CHAT_TEMPLATE`), rendered with the same ``tojson``
  (non-ASCII kept) as transformers, so ``llamacpp/smollm2`` and ``hf/local`` see the same text and
  the engines can be compared on equal prompts. Gemma models get the same tool section inside
  Gemma's turn markers (:data:`GEMMA_TOOL_TEMPLATE`).
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
from functools import cache
from typing import Any, Literal

from inspect_ai.model import ChatMessage, ChatMessageAssistant
from inspect_ai.tool import ToolCall, ToolInfo

from kopa_inspect.providers.local import TOOL_CHAT_TEMPLATE

TemplateName = Literal["chatml", "gemma"]

# The tool section is word for word the ChatML template's, so both families are told the same thing.
_TOOLS_SECTION = r"""{%- if tools -%}
{{- '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>' -}}
{%- for tool in tools -%}
{%- if tool.function is defined and tool.function is mapping -%}{%- set fn = tool.function -%}{%- else -%}{%- set fn = tool -%}{%- endif -%}
{{- '\n' + ({'type': 'function', 'function': fn} | tojson) -}}
{%- endfor -%}
{{- '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' -}}
{%- endif -%}"""

# Gemma 3 has no system role and no tool role: the system text (with the tool section) opens the
# first user turn, as Gemma's own template does, and tool results come back in a user turn.
# No <bos> here: the tokenizer adds it (the GGUF says add_bos_token).
GEMMA_TOOL_TEMPLATE = (
    r"""{%- macro render_args(args) -%}
{%- if args is string -%}{{- args -}}{%- else -%}{{- args | tojson -}}{%- endif -%}
{%- endmacro -%}
{%- if messages and messages[0]['role'] == 'system' -%}
{%- set system_text = messages[0]['content'] or '' -%}
{%- set rest = messages[1:] -%}
{%- else -%}
{%- set system_text = '' -%}
{%- set rest = messages -%}
{%- endif -%}
{%- set tools_text -%}
"""
    + _TOOLS_SECTION
    + r"""
{%- endset -%}
{%- set ns = namespace(prefix=(system_text + tools_text) | trim) -%}
{%- for message in rest -%}
{%- set content = message['content'] if message['content'] is string else '' -%}
{%- if message['role'] == 'assistant' -%}
{{- '<start_of_turn>model\n' + content -}}
{%- for tool_call in message.get('tool_calls') or [] -%}
{%- if tool_call.function is defined and tool_call.function is mapping -%}
{%- set name = tool_call.function.name -%}{%- set args = tool_call.function.arguments -%}
{%- else -%}
{%- set name = tool_call.function -%}{%- set args = tool_call.arguments -%}
{%- endif -%}
{%- if content or not loop.first -%}{{- '\n' -}}{%- endif -%}
{{- '<tool_call>\n{"name": "' + name + '", "arguments": ' + render_args(args) + '}\n</tool_call>' -}}
{%- endfor -%}
{{- '<end_of_turn>\n' -}}
{%- elif message['role'] == 'tool' -%}
{%- if loop.first or rest[loop.index0 - 1]['role'] != 'tool' -%}{{- '<start_of_turn>user' -}}{%- endif -%}
{{- '\n<tool_response>\n' + content + '\n</tool_response>' -}}
{%- if loop.last or rest[loop.index0 + 1]['role'] != 'tool' -%}{{- '<end_of_turn>\n' -}}{%- endif -%}
{%- else -%}
{{- '<start_of_turn>user\n' -}}
{%- if ns.prefix -%}{{- ns.prefix + '\n\n' -}}{%- set ns.prefix = '' -%}{%- endif -%}
{{- content + '<end_of_turn>\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<start_of_turn>model\n' -}}{%- endif -%}"""
)

TEMPLATES: dict[str, str] = {"chatml": TOOL_CHAT_TEMPLATE, "gemma": GEMMA_TOOL_TEMPLATE}

# Where generation stops: the end of the assistant turn, or the model starting to write a tool
# result itself (a small model often invents one after its call; the call before it still counts).
STOP_STRINGS: dict[str, list[str]] = {
    "chatml": ["<|im_end|>", "<|im_start|>", "<tool_response>"],
    "gemma": ["<end_of_turn>", "<start_of_turn>", "<tool_response>"],
}


def template_for_architecture(architecture: str | None) -> TemplateName:
    """The chat template for a GGUF ``general.architecture`` (gemma* -> gemma, otherwise ChatML)."""
    return "gemma" if (architecture or "").lower().startswith("gemma") else "chatml"


def _tojson(value: Any, ensure_ascii: bool = False, indent: int | None = None, sort_keys: bool = False) -> str:
    # transformers' chat-template tojson: non-ASCII kept, so Korean descriptions stay readable
    # (and the prompt is the same text the hf path renders).
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, sort_keys=sort_keys)


@cache
def _compiled(template: str) -> Any:
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = _tojson
    return env.from_string(template)


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
                {"id": call.id, "function": call.function, "arguments": call.arguments} for call in message.tool_calls
            ]
        out.append(entry)
    return out


def tool_dicts(tools: list[ToolInfo]) -> list[dict[str, Any]]:
    """Tools as ``{"name", "description", "parameters"}`` JSON schemas (None fields dropped)."""
    return [tool.model_dump(exclude_none=True) for tool in tools]


def render_prompt(messages: list[ChatMessage], tools: list[ToolInfo], template: str = "chatml") -> str:
    """The prompt text for ``messages`` and ``tools``, ending with the assistant turn's opening."""
    source = TEMPLATES.get(template, template)  # a name or a Jinja template string
    return _compiled(source).render(
        messages=message_dicts(messages),
        tools=tool_dicts(tools) or None,
        add_generation_prompt=True,
    )


_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


class ToolCallFormatError(ValueError):
    """A ``<tool_call>`` block that is not ``{"name": <tool>, "arguments": {...}}``."""


def _call_id(prefix: str, index: int, block: str) -> str:
    # Deterministic (same completion, same ids) and unique within a conversation: the prefix is
    # the turn's position, the digest tells apart calls within a turn.
    digest = hashlib.sha1(f"{index}:{block}".encode()).hexdigest()[:8]
    return f"{prefix}_{index}_{digest}"


def decode_call_block(block: str) -> tuple[str, dict[str, Any]]:
    """The tool name and arguments of one ``<tool_call>`` body; ToolCallFormatError says what is wrong."""
    text = block.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    if not text:
        raise ToolCallFormatError("the <tool_call> block is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolCallFormatError(f"the <tool_call> block is not valid JSON ({exc.msg} at char {exc.pos})") from exc
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
            raise ToolCallFormatError(f'"arguments" of {name!r} is a string that is not a JSON object ({exc.msg})') from exc
    if not isinstance(arguments, dict):
        raise ToolCallFormatError(f'"arguments" of {name!r} must be a JSON object, not {type(arguments).__name__}')
    unknown = set(data) - {"name", "arguments", "parameters"}
    if unknown:
        raise ToolCallFormatError(f"the <tool_call> object has unexpected keys {sorted(unknown)}")
    return name.strip(), arguments


def parse_tool_calls(completion: str, tools: list[ToolInfo], id_prefix: str = "call") -> tuple[str, list[ToolCall]]:
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
    return ChatMessageAssistant(content=content, tool_calls=calls or None, model=model_name, source="generate")
