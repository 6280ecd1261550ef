"""The tool-calling chat templates of the local models: one source for ``hf/local`` and ``llamacpp/``.

Both local paths show a model the same tool section and read back the same ``<tool_call>{json}
</tool_call>`` blocks; only the turn markers differ by family:

- :data:`CHATML_TOOL_TEMPLATE` (SmolLM2, Qwen-style ChatML: a system turn, a ``tool`` turn shown
  as a user turn of ``<tool_response>`` blocks). It is written into the ``hf/local`` folder
  (:func:`kopa_inspect.providers.local.prepare_local_model`) and rendered by transformers there,
  and rendered by :func:`render` for ``llamacpp/smollm2``: the same text on both engines.
- :data:`GEMMA_TOOL_TEMPLATE` (Gemma 3: no system or tool role; the system text and the tool
  section open the first user turn, as Gemma's own template does).

Each template is assembled from the fragments below, so a change to the tool section, to how a
call is written back, or to how tool results are grouped reaches every family at once.

Both message shapes render: Hugging Face / TRL tool calls (``{"type": "function", "function":
{"name", "arguments"}}``) and Inspect's (a ToolCall dumped to ``{"id", "function": "<name>",
"arguments"}``); tools either wrapped (``{"type": "function", "function": {...}}``) or bare
(``{"name", "description", "parameters"}``).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

DEFAULT_SYSTEM = "You are a helpful assistant."

# Arguments as the model wrote them: a JSON object rendered with tojson, a string kept verbatim.
_RENDER_ARGS = r"""{%- macro render_args(args) -%}
{%- if args is string -%}{{- args -}}{%- else -%}{{- args | tojson -}}{%- endif -%}
{%- endmacro -%}
"""


def _split_system(default: str) -> str:
    """Sets ``system_text`` (the first system message, else ``default``) and ``rest``."""
    if "'" in default or "\\" in default:
        raise ValueError("the default system text cannot hold quotes or backslashes")
    return (
        r"""{%- if messages and messages[0]['role'] == 'system' -%}
{%- set system_text = messages[0]['content'] or '' -%}
{%- set rest = messages[1:] -%}
{%- else -%}
{%- set system_text = '"""
        + default
        + r"""' -%}
{%- set rest = messages -%}
{%- endif -%}
"""
    )


# The tool section: word for word the same for every family, so every model is told the same thing.
#
# Compact (the evaluation contract): one block a tool instead of the tool's JSON schema,
#
#     ## <name>
#     <description, as many lines as it has>
#     - <param> (<type>[, required][, one of <enum json>][, <other key> <json>]...): <description>
#
# The JSON schema's scaffolding (``{"type": "function", "function": {...}}``, ``"type": "object"``,
# ``"properties"``, ``"additionalProperties": false``, quotes and braces around every key) cost about
# 40 SmolLM2 tokens a tool and the old Hermes preamble about 95; a tool was 55% of a held-out step's
# prompt. Nothing a model needs is dropped: name, description, each parameter's name, type,
# required flag, enum and description, and any other key of a parameter's schema (default, items)
# as JSON; tests/tools/test_tool_rendering.py reads all of them back from the text for every tool of every
# spec. ``additionalProperties: false`` is not shown (every tool here has it; the parameters listed
# are the ones there are). Jinja, not Python: transformers renders this same template for hf/local
# and for training (the tokenizer's template), and :func:`render` for llama.cpp, so the three read
# one text. Jinja's ``p.items`` would find dict.items, hence the ``p['key']`` lookups.
_TYPE_FRAGMENT = r"""{%- if 'type' in p -%}{%- if p['type'] is string -%}{{- p['type'] -}}{%- else -%}{{- p['type'] | tojson -}}{%- endif -%}{%- else -%}{{- 'any' -}}{%- endif -%}"""
_REQUIRED_FRAGMENT = r"""{%- if pname in required -%}{{- ', required' -}}{%- endif -%}"""
_ENUM_FRAGMENT = r"""{%- if 'enum' in p -%}{{- ', one of ' + (p['enum'] | tojson) -}}{%- endif -%}"""
_OTHER_KEYS_FRAGMENT = r"""{%- for key, value in p.items() -%}{%- if key not in ['type', 'enum', 'description'] -%}{{- ', ' + key + ' ' + (value | tojson) -}}{%- endif -%}{%- endfor -%}"""

_RENDER_TOOL = (
    r"""{%- macro render_tool(fn) -%}
{{- '\n## ' + fn['name'] -}}
{%- if fn['description'] is defined and fn['description'] -%}{{- '\n' + fn['description'] -}}{%- endif -%}
{%- set params = fn['parameters'] if fn['parameters'] is defined and fn['parameters'] is mapping else {} -%}
{%- set required = params['required'] if 'required' in params and params['required'] else [] -%}
{%- set props = params['properties'] if 'properties' in params and params['properties'] else {} -%}
{%- for pname, p in props.items() -%}
{{- '\n- ' + pname + ' (' -}}
"""
    + _TYPE_FRAGMENT
    + "\n"
    + _REQUIRED_FRAGMENT
    + "\n"
    + _ENUM_FRAGMENT
    + "\n"
    + _OTHER_KEYS_FRAGMENT
    + r"""
{{- ')' -}}
{%- if 'description' in p and p['description'] -%}{{- ': ' + p['description'] -}}{%- endif -%}
{%- endfor -%}
{%- endmacro -%}
"""
)

TOOLS_SECTION = r"""{%- if tools -%}
{{- '\n\n# Tools\n\nYou may call one or more of the tools below. Write each call as\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n\n<tools>' -}}
{%- for tool in tools -%}
{%- if tool.function is defined and tool.function is mapping -%}{%- set fn = tool.function -%}{%- else -%}{%- set fn = tool -%}{%- endif -%}
{{- render_tool(fn) -}}
{%- endfor -%}
{{- '\n</tools>' -}}
{%- endif -%}"""

# Sets ``name`` and ``args`` of ``tool_call`` in either message shape.
_CALL_NAME_ARGS = r"""{%- if tool_call.function is defined and tool_call.function is mapping -%}
{%- set name = tool_call.function.name -%}{%- set args = tool_call.function.arguments -%}
{%- else -%}
{%- set name = tool_call.function -%}{%- set args = tool_call.arguments -%}
{%- endif -%}
"""

# One call written back as the model is asked to write it (parse_tool_calls reads exactly this).
_CALL_BLOCK = (
    r"""'<tool_call>\n{"name": "' + name + '", "arguments": ' + render_args(args) + '}\n</tool_call>'"""
)


def _tool_results(turn_open: str, turn_close: str) -> str:
    """A run of consecutive ``tool`` messages as one user turn of ``<tool_response>`` blocks."""
    return (
        r"""{%- elif message['role'] == 'tool' -%}
{%- if loop.first or rest[loop.index0 - 1]['role'] != 'tool' -%}{{- '"""
        + turn_open
        + r"""' -}}{%- endif -%}
{{- '\n<tool_response>\n' + content + '\n</tool_response>' -}}
{%- if loop.last or rest[loop.index0 + 1]['role'] != 'tool' -%}{{- '"""
        + turn_close
        + r"""' -}}{%- endif -%}
"""
    )


_CONTENT = r"""{%- set content = message['content'] if message['content'] is string else '' -%}
"""

CHATML_TOOL_TEMPLATE = (
    _RENDER_ARGS
    + _RENDER_TOOL
    + _split_system(DEFAULT_SYSTEM)
    + r"""{{- '<|im_start|>system\n' + system_text -}}
"""
    + TOOLS_SECTION
    + r"""
{{- '<|im_end|>\n' -}}
{%- for message in rest -%}
"""
    + _CONTENT
    + r"""{%- if message['role'] == 'assistant' and message.get('tool_calls') -%}
{{- '<|im_start|>assistant' -}}
{%- if content -%}{{- '\n' + content -}}{%- endif -%}
{%- for tool_call in message['tool_calls'] -%}
"""
    + _CALL_NAME_ARGS
    + r"""{{- '\n' + """
    + _CALL_BLOCK
    + r""" -}}
{%- endfor -%}
{{- '<|im_end|>\n' -}}
"""
    + _tool_results(r"<|im_start|>user", r"<|im_end|>\n")
    + r"""{%- else -%}
{{- '<|im_start|>' + message['role'] + '\n' + content + '<|im_end|>\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}{%- endif -%}"""
)

# No <bos> here: the tokenizer adds it (the Gemma GGUF says add_bos_token).
GEMMA_TOOL_TEMPLATE = (
    _RENDER_ARGS
    + _RENDER_TOOL
    + _split_system("")
    + r"""{%- set tools_text -%}
"""
    + TOOLS_SECTION
    + r"""
{%- endset -%}
{%- set ns = namespace(prefix=(system_text + tools_text) | trim) -%}
{%- for message in rest -%}
"""
    + _CONTENT
    + r"""{%- if message['role'] == 'assistant' -%}
{{- '<start_of_turn>model\n' + content -}}
{%- for tool_call in message.get('tool_calls') or [] -%}
"""
    + _CALL_NAME_ARGS
    + r"""{%- if content or not loop.first -%}{{- '\n' -}}{%- endif -%}
{{- """
    + _CALL_BLOCK
    + r""" -}}
{%- endfor -%}
{{- '<end_of_turn>\n' -}}
"""
    + _tool_results(r"<start_of_turn>user", r"<end_of_turn>\n")
    + r"""{%- else -%}
{{- '<start_of_turn>user\n' -}}
{%- if ns.prefix -%}{{- ns.prefix + '\n\n' -}}{%- set ns.prefix = '' -%}{%- endif -%}
{{- content + '<end_of_turn>\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<start_of_turn>model\n' -}}{%- endif -%}"""
)

TEMPLATES: dict[str, str] = {"chatml": CHATML_TOOL_TEMPLATE, "gemma": GEMMA_TOOL_TEMPLATE}

# Where generation stops: the end of the assistant turn, or the model starting to write a tool
# result itself (a small model often invents one after its call; the call before it still counts).
STOP_STRINGS: dict[str, list[str]] = {
    "chatml": ["<|im_end|>", "<|im_start|>", "<tool_response>"],
    "gemma": ["<end_of_turn>", "<start_of_turn>", "<tool_response>"],
}


def _tojson(
    value: Any, ensure_ascii: bool = False, indent: int | None = None, sort_keys: bool = False
) -> str:
    # transformers' chat-template tojson: non-ASCII kept, so Korean descriptions stay readable
    # (and the text is the one the hf path renders).
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, sort_keys=sort_keys)


@cache
def compiled(template: str) -> Any:
    """A template compiled as transformers compiles chat templates (sandboxed, same options)."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    env.filters["tojson"] = _tojson
    return env.from_string(template)


def template_source(template: str) -> str:
    """The Jinja source for a template name or string; a bare word that names no template is an error
    (a misspelt name would otherwise render as a one-word prompt)."""
    if template in TEMPLATES:
        return TEMPLATES[template]
    if "{" not in template:
        raise ValueError(
            f"chat_template {template!r} is not a template name ({', '.join(TEMPLATES)}) nor a Jinja template string"
        )
    return template


def render_tools(tools: list[dict[str, Any]]) -> str:
    """The tool section alone (from ``\\n\\n# Tools`` to ``</tools>``), as every template renders it."""
    return str(compiled(_RENDER_TOOL + TOOLS_SECTION).render(tools=tools or None))


def render(
    template: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    add_generation_prompt: bool = True,
) -> str:
    """``template`` (a name in :data:`TEMPLATES` or a Jinja string) over plain message and tool dicts."""
    source = template_source(template)
    return str(
        compiled(source).render(
            messages=messages, tools=tools or None, add_generation_prompt=add_generation_prompt
        )
    )
