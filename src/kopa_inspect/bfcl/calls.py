"""A model's tool calls in the two forms BFCL's checkers read, and BFCL's gold calls back as tool calls.

The forms are those of BFCL's OpenAI function-calling handler: ``decode_ast`` gives
``[{name: {arg: value}}]`` (the AST checker's input) and ``decode_execute`` gives
``["name(arg=repr(value),...)"]`` (what the multi-turn backends execute).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from typing import Any

from inspect_ai.tool import ToolCall

from kopa_inspect.bfcl.library import bfcl


class UndecodableCall(ValueError):
    """A tool call whose arguments did not parse (BFCL counts the response as not decoded)."""


def _checked(calls: list[ToolCall]) -> list[ToolCall]:
    for call in calls:
        if call.parse_error:
            raise UndecodableCall(f"{call.function}: {call.parse_error}")
    return calls


def ast_form(calls: list[ToolCall]) -> list[dict[str, dict[str, Any]]]:
    return [{call.function: dict(call.arguments)} for call in _checked(calls)]


def execute_form(calls: list[ToolCall]) -> list[str]:
    return [
        f"{call.function}({','.join(f'{k}={v!r}' for k, v in call.arguments.items())})"
        for call in _checked(calls)
    ]


def _backend_method(name: str, involved_classes: list[str]) -> Any:
    mapping = bfcl().multi_turn_utils.CLASS_FILE_PATH_MAPPING
    for class_name in involved_classes:
        cls = getattr(importlib.import_module(mapping[class_name]), class_name)
        if hasattr(cls, name) and not name.startswith("_"):
            return getattr(cls, name)
    raise KeyError(f"no backend of {involved_classes} has a method {name!r}")


def gold_call_arguments(call: str, involved_classes: list[str]) -> tuple[str, dict[str, Any]]:
    """``"sort('a.pdf')"`` -> ``("sort", {"file_name": "a.pdf"})``: positional arguments named by
    the backend method's own signature (a tool call has named arguments only)."""
    node = ast.parse(call.strip(), mode="eval").body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise ValueError(f"not a plain function call: {call!r}")
    name = node.func.id
    args = [ast.literal_eval(a) for a in node.args]
    kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg is not None}
    if args:
        signature = inspect.signature(_backend_method(name, involved_classes))
        bound = signature.bind_partial(None, *args, **kwargs)  # None stands for self
        kwargs = {k: v for k, v in bound.arguments.items() if k != "self"}
    return name, kwargs
