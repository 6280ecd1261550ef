"""Scorers: the execution-grounded KOPA scorers (one per axis), their metrics and an optional model judge."""

from kopa_inspect.scorers.grading import AXES, GoldTruth, Grade, gold_truth, grade, oracle_answer
from kopa_inspect.scorers.judge import kopa_judge
from kopa_inspect.scorers.kopa import (
    AXIS_SCORERS,
    BackendUnreachable,
    _register_bare_name,
    axis_values,
    kopa_scorers,
    scorer_name,
)
from kopa_inspect.scorers.metrics import pass_at_k, pass_hat_k, pass_k

__all__ = [
    "AXES",
    "AXIS_SCORERS",
    "BackendUnreachable",
    "GoldTruth",
    "Grade",
    "axis_values",
    "gold_truth",
    "grade",
    "kopa_judge",
    "kopa_scorers",
    "oracle_answer",
    "pass_at_k",
    "pass_hat_k",
    "pass_k",
    "scorer_name",
]

# `inspect score LOG` looks scorers up by their unprefixed names (see _register_bare_name).
_register_bare_name(kopa_judge)
