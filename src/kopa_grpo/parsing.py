"""Completion parsing lives in :mod:`kopa_inspect.steps.parsing` (the step task and the rewards share it)."""

from kopa_inspect.steps.parsing import (
    ParsedCompletion,
    completion_text,
    from_tool_calls,
    history_calls,
    parse_completion,
    strip_thinking,
)

__all__ = [
    "ParsedCompletion",
    "completion_text",
    "from_tool_calls",
    "history_calls",
    "parse_completion",
    "strip_thinking",
]
