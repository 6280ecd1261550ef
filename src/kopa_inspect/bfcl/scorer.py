"""The BFCL scorer (BFCL's checkers decide) and a metric with BFCL's summary figures."""

from __future__ import annotations

import json
from collections import defaultdict

from inspect_ai.model import ChatMessageAssistant
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    grouped,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from kopa_inspect.bfcl import checks
from kopa_inspect.bfcl.categories import Check, check_of
from kopa_inspect.bfcl.data import checker_entry, ground_truth
from kopa_inspect.bfcl.solver import FORCE_QUIT_KEY, TURNS_KEY
from kopa_inspect.bfcl.weighting import summary


def _first_answer_calls(state: TaskState) -> list:
    for message in state.messages:
        if isinstance(message, ChatMessageAssistant):
            return list(message.tool_calls or [])
    return []


def verdict(state: TaskState) -> dict:
    category, entry_id = state.metadata["category"], state.metadata["bfcl_id"]
    e = checker_entry(category, entry_id)
    check = check_of(category)
    if check is Check.MULTI_TURN:
        return checks.check_multi_turn(
            e,
            ground_truth(category, entry_id),
            state.store.get(TURNS_KEY),
            bool(state.store.get(FORCE_QUIT_KEY)),
        )
    if check is Check.IRRELEVANCE:
        return checks.check_irrelevance(_first_answer_calls(state))
    return checks.check_ast(category, e, ground_truth(category, entry_id), _first_answer_calls(state))


@metric
def bfcl_summary() -> Metric:
    """BFCL's group figures (multi_turn, non_live_ast, ...) from the per-category accuracies."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        totals: dict[str, list[float]] = defaultdict(list)
        for s in scores:
            category = (s.sample_metadata or {}).get("category") or (s.score.metadata or {}).get("category")
            totals[str(category)].append(s.score.as_float())
        per_category = {c: (sum(v) / len(v), len(v)) for c, v in totals.items() if v}
        return {f"bfcl_{k}": v for k, v in summary(per_category).items()}

    return compute


@scorer(metrics=[accuracy(), stderr(), grouped(accuracy(), "category"), bfcl_summary()])
def bfcl_checker() -> Scorer:
    """C when BFCL's checker accepts the entry, I otherwise; the checker's error goes in the explanation."""

    async def score(state: TaskState, target: Target) -> Score:
        result = verdict(state)
        valid = bool(result.get("valid"))
        error = {k: v for k, v in result.items() if k not in ("valid", "details", "execution_result")}
        return Score(
            value=CORRECT if valid else INCORRECT,
            explanation=None if valid else json.dumps(error, default=str)[:2000],
            metadata={"category": state.metadata["category"], "error_type": result.get("error_type")},
        )

    return score
