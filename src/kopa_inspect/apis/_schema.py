"""The tool a model sees for an operation: name, description and JSON schema.

One function for every consumer (Inspect tools, MCP servers, EDGE datasets, GRPO prompts) so
the schema a model is trained on is the schema it is evaluated with.
"""

from __future__ import annotations

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
