"""The tool a model sees for an operation: name, description and JSON schema.

One function for every consumer (Inspect tools, MCP servers, EDGE datasets, GRPO prompts) so
the schema a model is trained on is the schema it is evaluated with.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from kopa_inspect.apis import get_platform
from kopa_inspect.apis._spec import Operation

MAX_FIELDS_IN_DESCRIPTION = 24


def tool_description(op: Operation) -> str:
    platform = get_platform(op.platform)
    lines = [f"[{platform.name}] {op.summary}"]
    if op.output_fields:
        shown = list(op.output_fields.items())[:MAX_FIELDS_IN_DESCRIPTION]
        lines.append("응답 항목 (output fields): " + ", ".join(f"{k}={v}" for k, v in shown))
    if platform.session_token_param:
        lines.append(
            f"먼저 {platform.id}_get_api_key 도구로 세션 토큰을 받아 {platform.session_token_param}에 넣으세요 "
            f"(first get a session token with {platform.id}_get_api_key and pass it as {platform.session_token_param})."
        )
    return "\n".join(lines)


def parameters_schema(op: Operation) -> dict[str, Any]:
    platform = get_platform(op.platform)
    props: dict[str, Any] = {}
    required: list[str] = []
    if platform.session_token_param:
        props[platform.session_token_param] = {
            "type": "string",
            "description": f"세션 토큰 ({platform.id}_get_api_key 결과) (session token from {platform.id}_get_api_key)",
        }
        required.append(platform.session_token_param)
    for p in op.visible_params:
        if p.name in platform.key_params:
            continue
        props[p.name] = p.json_schema()
        if p.required:
            required.append(p.name)
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def tool_schema(op: Operation) -> dict[str, Any]:
    """OpenAI/Hugging Face chat-template function format."""
    return {
        "type": "function",
        "function": {"name": op.id, "description": tool_description(op), "parameters": parameters_schema(op)},
    }


def auth_tool_name(platform_id: str) -> str:
    return f"{platform_id}_get_api_key"


def auth_tool_schema(platform_id: str) -> dict[str, Any]:
    platform = get_platform(platform_id)
    return {
        "type": "function",
        "function": {
            "name": auth_tool_name(platform_id),
            "description": f"[{platform.name}] API 세션 토큰 발급 (issue a short-lived session token for this platform's tools)",
            "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
        },
    }


# --- argument types: the schema's types, and Inspect's check of them ------------------------------
#
# Inspect validates a tool call's arguments against the tool's JSON schema (jsonschema Draft 7,
# inspect_ai.model._call_tools.validate_tool_input) before the tool runs and answers a mistyped one
# ("60" for an integer) with a parsing error: the call never reaches the API. Plan values come from
# earlier outputs as the API gave them (numbers as strings, TM coordinates as "127.041900", TAGO
# citycode 25 for a string cityCode), so a gold call written as the plan resolves it is refused by
# the harness it is meant to teach. Every consumer writes a gold call through coerce_to_schema: the
# oracle, EDGE's export (messages, gold_calls_json), the step builder (KOPA-Bench and EDGE steps,
# hence SFT/GRPO rows); the rewards, the step metrics and the episode environment refuse what
# schema_errors refuses.
#
# What coercion may change is bounded by the wire: a request carries every value as query text
# (backends.build_request; httpx writes str(value), booleans as true/false, a list comma-joined),
# and the emulator reads a number parameter with float(), an integer with int() (emulator.coerce;
# no integer or number parameter has a pattern or an enum). So:
# - string <- int/float/bool: the text the request already carried (str(60.0) is "60.0", not
#   "60"): byte-identical on the wire.
# - integer <- "60": only a canonical integer text (str(int(t)) == t): byte-identical. "007" and
#   "60.0" are left as they are (int("60.0") is the API's own error 10; dropping a leading zero
#   would change the text) and stay refused.
# - number <- "127": int, byte-identical. number <- "127.041900": float, sent as "127.0419": the
#   one change of spelling, the same double for the emulator's float() and for the real API, whose
#   coordinates are decimals in a query string (TourAPI mapX/mapY, AirKorea tmX/tmY, HIRA
#   xPos/yPos). Exponents, "nan", "1_000" and full-width digits (all of which float() accepts) are
#   never turned into numbers.
# - array of strings <- "A,B": ["A", "B"] (the request joins a list with commas: the same text);
#   list elements are coerced by the items' type.
# Anything else is left unchanged, and schema_errors reports it as Inspect would.

_INT_TEXT = re.compile(r"-?[0-9]+")
_DECIMAL_TEXT = re.compile(r"-?[0-9]+\.[0-9]+")


def wire_text(value: Any) -> str:
    """The text a request carries for one scalar value (httpx's primitive_value_to_str)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def coerce_value(value: Any, prop: Mapping[str, Any] | None) -> Any:
    """``value`` in the type ``prop`` (one JSON-schema property) asks for, where the request the API
    receives stays the same (see the notes above); otherwise ``value`` unchanged."""
    kind = (prop or {}).get("type")
    if kind == "string" and isinstance(value, int | float):
        return wire_text(value)
    if (
        kind == "integer"
        and isinstance(value, str)
        and _INT_TEXT.fullmatch(value)
        and str(int(value)) == value
    ):
        return int(value)
    if kind == "number" and isinstance(value, str):
        if _INT_TEXT.fullmatch(value) and str(int(value)) == value:
            return int(value)
        if _DECIMAL_TEXT.fullmatch(value):
            return float(value)
    if kind == "array":
        items = (prop or {}).get("items") or {}
        if isinstance(value, str) and items.get("type") == "string" and value:
            return value.split(",")
        if isinstance(value, list):
            return [coerce_value(v, items) for v in value]
    return value


def _properties(schema: Any) -> dict[str, Any] | None:
    if schema is None:
        return None
    if hasattr(schema, "parameters"):  # an Inspect ToolInfo / ToolDef
        schema = schema.parameters
    if hasattr(schema, "model_dump"):  # Inspect ToolParams
        schema = schema.model_dump(exclude_none=True)
    if "function" in schema:  # a chat-template tool
        schema = schema["function"].get("parameters") or {}
    return dict(schema.get("properties") or {})


def coerce_to_schema(args: Mapping[str, Any], schema: Any) -> dict[str, Any]:
    """Each argument in the type the tool's schema asks for, as a careful model writes it.

    ``schema``: the parameters' JSON schema, a chat-template tool, an Inspect ToolInfo or
    ToolParams; None leaves ``args`` as they are. Arguments the schema does not name are kept
    (Inspect refuses them; that is schema_errors' verdict, not a spelling)."""
    props = _properties(schema)
    if props is None:
        return dict(args)
    return {k: coerce_value(v, props.get(k)) for k, v in args.items()}


def coerce_call(tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """coerce_to_schema with the schema of the catalog operation ``tool`` (unknown names and auth
    tools: unchanged)."""
    from kopa_inspect.apis import operations

    op = operations().get(tool)
    return coerce_to_schema(args, parameters_schema(op) if op is not None else None)


def coerce_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat messages with every tool call's arguments coerced (coerce_call); arguments stored as a
    JSON string stay a string (keys sorted, as edge_synth.compose writes them)."""
    out = []
    for m in messages:
        calls = m.get("tool_calls")
        if not calls:
            out.append(m)
            continue
        new_calls = []
        for tc in calls:
            fn = dict(tc.get("function") or {})
            raw = fn.get("arguments")
            args = json.loads(raw) if isinstance(raw, str) else raw
            if isinstance(args, dict):
                fixed = coerce_call(fn.get("name", ""), args)
                fn["arguments"] = (
                    json.dumps(fixed, ensure_ascii=False, sort_keys=True) if isinstance(raw, str) else fixed
                )
            new_calls.append({**tc, "function": fn})
        out.append({**m, "tool_calls": new_calls})
    return out


@cache
def inspect_params(tool: str) -> Any:
    """The ToolParams Inspect validates a call of ``tool`` against (tools.operation_tool and
    auth_tool build theirs the same way), or None for a name outside the catalog."""
    from inspect_ai.tool import ToolParams

    from kopa_inspect.apis import operations, platforms

    op = operations().get(tool)
    if op is not None:
        return ToolParams.model_validate(parameters_schema(op))
    if any(auth_tool_name(p.id) == tool and p.session_token_param for p in platforms().values()):
        return ToolParams()
    return None


def schema_errors(tool: str, args: Mapping[str, Any]) -> str | None:
    """Inspect's own verdict on a call of a catalog tool: its validation message (argument names,
    required ones, types, enums), or None when Inspect runs the call. Names outside the catalog:
    None (no schema to check; the tool-name rules judge them)."""
    from inspect_ai.model._call_tools import validate_tool_input

    params = inspect_params(tool)
    if params is None or not isinstance(args, Mapping):
        return None
    return validate_tool_input(dict(args), params)


@cache
def _validator(tool: str) -> Any:
    from jsonschema import Draft7Validator

    params = inspect_params(tool)
    return None if params is None else Draft7Validator(params.model_dump(exclude_none=True))


def accepted(tool: str, args: Mapping[str, Any]) -> bool:
    """schema_errors(tool, args) is None, on a cached validator (the rewards ask it per call)."""
    v = _validator(tool)
    return v is None or (isinstance(args, Mapping) and v.is_valid(dict(args)))


def mistyped(tool: str, args: Mapping[str, Any]) -> set[str]:
    """Names of the arguments whose value Inspect refuses for their own property (type, enum)."""
    v = _validator(tool)
    if v is None:
        return set()
    return {str(e.absolute_path[0]) for e in v.iter_errors(dict(args)) if e.absolute_path}
