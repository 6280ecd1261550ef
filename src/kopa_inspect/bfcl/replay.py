"""Scripted models for BFCL's self-tests: one that replays BFCL's ground truth, one that is always wrong.

Both are mockllm outputs (``get_model("mockllm/model", custom_outputs=...)``). The gold replay is a
list of outputs in dataset order, for a run of one sample at a time (``max_samples=1``): each
multi-turn turn is one step with all its gold calls, then a closing answer without calls.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo

from kopa_inspect.bfcl.calls import gold_call_arguments
from kopa_inspect.bfcl.categories import Check, check_of
from kopa_inspect.bfcl.data import checker_entry, entry, entry_ids, ground_truth
from kopa_inspect.bfcl.library import bfcl
from kopa_inspect.bfcl.schema import tool_name

MODEL = "mockllm/model"
NO_SUCH_FUNCTION = "no_such_function"


def _calls(calls: list[tuple[str, dict[str, Any]]]) -> ModelOutput:
    tool_calls = [
        ToolCall(id=f"call_{i}", function=name, arguments=args) for i, (name, args) in enumerate(calls)
    ]
    message = ChatMessageAssistant(content="", tool_calls=tool_calls, model=MODEL)
    return ModelOutput(
        model=MODEL, choices=[ChatCompletionChoice(message=message, stop_reason="tool_calls")], usage=_usage()
    )


def _answer(text: str = "Done.") -> ModelOutput:
    message = ChatMessageAssistant(content=text, model=MODEL)
    return ModelOutput(
        model=MODEL, choices=[ChatCompletionChoice(message=message, stop_reason="stop")], usage=_usage()
    )


def _usage() -> ModelUsage:
    # Set, so that Inspect does not count tokens with tiktoken (which would download its data).
    return ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)


def _accepted(values: list[Any], may_omit: bool) -> tuple[bool, Any]:
    """(give it?, the value): the first accepted value, nested answers resolved alike; left out
    when that is allowed (``""`` among the accepted values of an optional parameter)."""
    if may_omit and "" in values:
        return False, None
    return True, _resolved(next((v for v in values if v != ""), ""))


def _resolved(value: Any) -> Any:
    """A dict inside an answer lists accepted values per key, as a parameter does."""
    if isinstance(value, dict):
        inner = {k: _accepted(vs, True) if isinstance(vs, list) else (True, vs) for k, vs in value.items()}
        return {k: v for k, (give, v) in inner.items() if give}
    if isinstance(value, list):
        return [_resolved(v) for v in value]
    return value


def _one_possible_answer(
    possible: list[dict[str, dict[str, list[Any]]]], category: str, functions: list[dict[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    """Each function with, per parameter, the first accepted value (in Java or JavaScript source
    text for those categories)."""
    calls = []
    for call in possible:
        ((name, params),) = call.items()
        doc: dict[str, Any] = next((f for f in functions if f["name"] == name), {"parameters": {}})
        properties = doc["parameters"].get("properties", {})
        required = set(doc["parameters"].get("required", []))
        args = {}
        for p, values in params.items():
            give, value = _accepted(values, p not in required)
            if give:
                args[p] = source_text(value, category, properties.get(p, {}))
        calls.append((tool_name(name), args))
    return calls


def _quoted(value: Any, js: bool, bare: bool = False, int_suffix: str = "") -> str:
    if isinstance(value, str):
        return value if bare else json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value}{int_suffix}"
    if isinstance(value, list):
        inner = ", ".join(_quoted(v, js) for v in value)
        return f"[{inner}]" if js else f"new ArrayList<>(Arrays.asList({inner}))"
    if isinstance(value, dict):
        if js:
            return "{" + ", ".join(f"{k}: {_quoted(v, js)}" for k, v in value.items()) + "}"
        puts = " ".join(f"put({json.dumps(k)}, {_quoted(v, js)});" for k, v in value.items())
        return f"new HashMap<String, Object>() {{{{ {puts} }}}}"
    return str(value)


def _candidates(value: Any, js: bool) -> list[str]:
    """Source texts that may stand for ``value``; BFCL's own converter picks the right one."""
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, int):
        return [str(value), f"{value}L", f"{value}n"]
    if isinstance(value, float):
        texts = [repr(value), f"{value}f", f"{value!r}F"]
        return texts + ([f"{int(value)}", f"{int(value)}f"] if value.is_integer() else [])
    if isinstance(value, list):
        texts = []
        for bare, suffix in ((False, ""), (True, ""), (False, "L")):
            inner = ", ".join(_quoted(v, js, bare, suffix) for v in value)
            if js:
                texts += [f"[{inner}]", f"new Array({inner})"]
            else:
                types = ("int", "String", "Object", "double", "long", "float", "boolean")
                texts += [
                    f"new ArrayList<>(Arrays.asList({inner}))",
                    *(f"new {t}[]{{{inner}}}" for t in types),
                ]
        return texts
    if isinstance(value, dict):
        return [
            _quoted(value, js),
            "{" + ", ".join(f"{json.dumps(k)}: {_quoted(v, js)}" for k, v in value.items()) + "}",
        ]
    return [str(value), json.dumps(value)]


def source_text(value: Any, category: str, schema: dict[str, Any]) -> Any:
    """``value`` as the Java/JavaScript source text BFCL's checker converts back to it; other
    categories take the value itself. When no candidate converts back, the first is given (and
    the replay of that entry is expected to fail)."""
    if category not in ("simple_java", "simple_javascript"):
        return value
    js = category == "simple_javascript"
    converter = bfcl_converters()[category]
    kind, nested = schema.get("type", "String"), (schema.get("items") or {}).get("type")
    candidates = _candidates(value, js)
    for text in candidates:
        try:
            converted = converter(text, kind, nested) if nested else converter(text, kind)
        except Exception:  # a converter that rejects a candidate: try the next one
            continue
        if converted == value:
            return text
    return candidates[0]


def bfcl_converters() -> dict[str, Any]:
    from bfcl_eval.eval_checker.ast_eval.type_convertor.java_type_converter import java_type_converter
    from bfcl_eval.eval_checker.ast_eval.type_convertor.js_type_converter import js_type_converter

    bfcl()
    return {"simple_java": java_type_converter, "simple_javascript": js_type_converter}


def gold_outputs_for(category: str, entry_id: str) -> list[ModelOutput]:
    gold = ground_truth(category, entry_id)
    check = check_of(category)
    if check is Check.IRRELEVANCE:
        return [_answer("None of the functions applies.")]
    if check is Check.AST:
        return [_calls(_one_possible_answer(gold, category, checker_entry(category, entry_id)["function"]))]
    involved = entry(category, entry_id)["involved_classes"]
    outputs: list[ModelOutput] = []
    for turn in gold:
        if turn:
            outputs.append(_calls([gold_call_arguments(c, involved) for c in turn]))
        outputs.append(_answer())
    return outputs


def gold_outputs(categories: list[str], per_category: int | None = None) -> list[ModelOutput]:
    """The replay of BFCL's ground truth for ``dataset(categories, per_category)``, in its order."""
    return [
        output
        for category in categories
        for entry_id in entry_ids(category)[:per_category]
        for output in gold_outputs_for(category, entry_id)
    ]


def wrong_model(
    input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
) -> ModelOutput:
    """Calls a function that does not exist, then (after its error) answers without calls."""
    if input and isinstance(input[-1], ChatMessageTool):
        return _answer()
    return _calls([(NO_SUCH_FUNCTION, {})])
