"""Completion parsing lives in :mod:`kopa_inspect.steps.parsing` (the step task and the rewards share it)."""

from kopa_inspect.steps.parsing import ParsedCompletion, completion_text, parse_completion

__all__ = ["ParsedCompletion", "completion_text", "parse_completion"]
