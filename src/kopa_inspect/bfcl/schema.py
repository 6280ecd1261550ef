"""BFCL function docs as Inspect tool definitions, the way BFCL offers them to function-calling APIs.

Follows BFCL's ``convert_to_tool`` for OpenAI-style APIs (``model_handler/utils.py``, which cannot be
imported without tree-sitter): dots in names become underscores (its AST checker maps them back),
BFCL's type names become JSON Schema types (``GORILLA_TO_OPENAPI``; unknown ones become strings),
and a float parameter says so in its description.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from inspect_ai.tool import ToolInfo, ToolParam, ToolParams

from kopa_inspect.bfcl.library import bfcl


def tool_name(function_name: str) -> str:
    return re.sub(r"\.", "_", function_name)


def _cast(schema: dict[str, Any], mapping: dict[str, str], *, is_property: bool) -> dict[str, Any]:
    var_type = schema.get("type")
    if is_property and var_type == "float":
        schema["format"] = "float"
        schema["description"] = schema.get("description", "") + " This is a float type value."
    schema["type"] = mapping.get(var_type, "string") if isinstance(var_type, str) else "string"
    if isinstance(schema.get("properties"), dict):
        schema["properties"] = {
            k: _cast(dict(v), mapping, is_property=True) for k, v in schema["properties"].items()
        }
    if isinstance(schema.get("items"), dict):
        schema["items"] = _cast(dict(schema["items"]), mapping, is_property=False)
    return schema


def tool_info(function_doc: dict[str, Any]) -> ToolInfo:
    doc = copy.deepcopy(function_doc)
    mapping = bfcl().GORILLA_TO_OPENAPI
    params = doc.get("parameters") or {}
    properties = {
        name: ToolParam.model_validate(_cast(dict(schema), mapping, is_property=True))
        for name, schema in (params.get("properties") or {}).items()
    }
    return ToolInfo(
        name=tool_name(doc["name"]),
        description=doc.get("description") or doc["name"],
        parameters=ToolParams(properties=properties, required=list(params.get("required") or [])),
    )


def tool_infos(function_docs: list[dict[str, Any]]) -> list[ToolInfo]:
    return [tool_info(f) for f in function_docs]
