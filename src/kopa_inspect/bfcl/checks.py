"""One entry's verdict from BFCL's own checkers, with the glue of BFCL's eval runner around them.

Mirrors ``eval_runner._evaluate_single_ast_entry``, ``_evaluate_single_relevance_entry`` and
``_evaluate_single_multi_turn_entry`` (which cannot be imported without the provider SDKs): decode,
the format check, then ``ast_checker`` / ``multi_turn_checker`` decide.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.tool import ToolCall

from kopa_inspect.bfcl import backends
from kopa_inspect.bfcl.calls import UndecodableCall, ast_form
from kopa_inspect.bfcl.library import bfcl

# The AST checker looks this name up in MODEL_CONFIG_MAPPING (see library.py): a function-calling model.
CHECKER_MODEL_NAME = "kopa_inspect"


def _language(category: str) -> Any:
    lang = bfcl().Language
    if category == "simple_java":
        return lang.JAVA
    if category == "simple_javascript":
        return lang.JAVASCRIPT
    return lang.PYTHON


def check_ast(
    category: str, e: dict[str, Any], possible_answer: list[dict[str, Any]], calls: list[ToolCall]
) -> dict[str, Any]:
    b = bfcl()
    try:
        decoded = ast_form(calls)
    except UndecodableCall as exc:
        return {
            "valid": False,
            "error": [f"Invalid syntax. Failed to decode AST. {exc}"],
            "error_type": "ast_decoder:decoder_failed",
        }
    if not b.utils.is_function_calling_format_output(decoded):
        return {
            "valid": False,
            "error": ["Did not output in the specified format."],
            "error_type": "ast_decoder:decoder_wrong_output_format",
        }
    return b.ast_checker(
        e["function"], decoded, possible_answer, _language(category), category, CHECKER_MODEL_NAME
    )


def check_irrelevance(calls: list[ToolCall]) -> dict[str, Any]:
    try:
        decoded = ast_form(calls)
    except UndecodableCall:
        return {"valid": True}
    if bfcl().utils.is_empty_output(decoded):
        return {"valid": True}
    return {
        "valid": False,
        "error": ["Valid syntax. Successfully decode AST when it should not."],
        "error_type": "irrelevance_error:decoder_success",
    }


def check_multi_turn(
    e: dict[str, Any],
    gold_turns: list[list[str]],
    model_turns: list[list[list[str]]] | None,
    force_quit: bool,
) -> dict[str, Any]:
    if model_turns is None:
        return {
            "valid": False,
            "error_message": "no model turns recorded",
            "error_type": "multi_turn:inference_error",
        }
    if force_quit or len(model_turns) != len(gold_turns):
        return {
            "valid": False,
            "error_message": f"Model was force-terminated during inference phase ({len(model_turns)} of {len(gold_turns)} turns).",
            "error_type": "multi_turn:force_terminated",
        }
    name = backends.run_name("check")
    category = e["id"].rsplit("_", 1)[0]
    try:
        return bfcl().multi_turn_checker(model_turns, gold_turns, e, category, name)
    finally:
        backends.release(name)
        backends.release(name + "_ground_truth")
