"""BFCL's summary figures from per-category accuracies, with BFCL's own aggregation functions.

The grouping is that of BFCL's ``generate_leaderboard_csv`` (``eval_runner_helper.py``), restricted
to the categories this package runs:

- multi-turn: the unweighted mean of base, miss_func, miss_param and long_context (the paper's figure);
- simple: the unweighted mean of simple_python, simple_java and simple_javascript;
- non-live AST: the unweighted mean of simple, multiple, parallel and parallel_multiple;
- irrelevance: the non-live irrelevance category (BFCL averages it with live irrelevance, not run here);
- overall: BFCL's percentage weights (non-live 10, irrelevance 10, multi-turn 30) over these three,
  renormalised by BFCL's function; its live (10) and agentic (40) parts are not run, so this is not
  BFCL's leaderboard overall;
- leaderboard_overall: BFCL's leaderboard overall itself (weights 10/10/10/30/40), where, as BFCL
  does, the categories not run count 0: a lower bound, comparable only between runs of this subset.

A figure is given only when all its categories ran (BFCL shows N/A otherwise).
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.bfcl.categories import MULTI_TURN, SIMPLE
from kopa_inspect.bfcl.library import aggregation

NA = "N/A"


def _category(per_category: dict[str, tuple[float, int]], name: str) -> dict[str, Any]:
    if name not in per_category:
        return {"accuracy": 0, "total_count": 0, "display_accuracy": NA}
    accuracy, count = per_category[name]
    return {"accuracy": accuracy, "total_count": count, "display_accuracy": accuracy}


def summary(per_category: dict[str, tuple[float, int]]) -> dict[str, float]:
    """``{category: (accuracy, entries)}`` -> BFCL's group figures that are defined."""
    h = aggregation()

    def cat(name: str) -> dict[str, Any]:
        return _category(per_category, name)

    simple = h.calculate_unweighted_accuracy([cat(c) for c in SIMPLE])
    non_live = h.calculate_unweighted_accuracy(
        [simple, cat("multiple"), cat("parallel"), cat("parallel_multiple")]
    )
    multi_turn = h.calculate_unweighted_accuracy([cat(c) for c in MULTI_TURN])
    irrelevance = cat("irrelevance")
    groups = {"non_live_ast": non_live, "irrelevance": irrelevance, "multi_turn": multi_turn}
    figures = {"simple": simple, **groups}
    weights = {"non_live_ast": 10, "irrelevance": 10, "multi_turn": 30}
    if all(g["display_accuracy"] != NA for g in groups.values()):
        figures["overall"] = h.calculate_percentage_weighted_accuracy(
            list(groups.values()), [weights[k] for k in groups]
        )
        not_run = cat("live")  # live and agentic: 0, as BFCL counts a category it has no score for
        total_irrelevance = h.calculate_unweighted_accuracy([irrelevance, cat("live_irrelevance")])
        leaderboard = h.calculate_percentage_weighted_accuracy(
            [non_live, not_run, total_irrelevance, multi_turn, not_run], [10, 10, 10, 30, 40]
        )
        figures["leaderboard_overall"] = {**leaderboard, "display_accuracy": leaderboard["accuracy"]}
    return {k: float(v["accuracy"]) for k, v in figures.items() if v["display_accuracy"] != NA}
