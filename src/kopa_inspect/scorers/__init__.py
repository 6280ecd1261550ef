"""Scorers: the execution-grounded KOPA scorer, its metrics and an optional model judge."""

from kopa_inspect.scorers.grading import AXES, GoldTruth, Grade, gold_truth, grade, oracle_answer
from kopa_inspect.scorers.judge import kopa_judge
from kopa_inspect.scorers.kopa import kopa_scorer
from kopa_inspect.scorers.metrics import pass_at_k, pass_hat_k, pass_k

__all__ = [
    "AXES",
    "GoldTruth",
    "Grade",
    "gold_truth",
    "grade",
    "kopa_judge",
    "kopa_scorer",
    "oracle_answer",
    "pass_at_k",
    "pass_hat_k",
    "pass_k",
]
