"""An optional model-graded answer check, beside the deterministic matchers.

The judge sees the question, the expected facts (resolved from the gold run, which the kopa
scorer leaves in its Score metadata, or recomputed here) and the agent's answer, and says
whether the answer states every fact. It catches paraphrases the matchers miss (and is itself
fallible: report it beside ``answer``, never instead of it).
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.model import get_model
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from kopa_inspect.backends import BackendConfig
from kopa_inspect.plans import PlanError
from kopa_inspect.scorers.grading import gold_truth
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.tools import shared_backend

JUDGE_TEMPLATE = """You grade answers to questions about Korean public data.

Question: {question}

Facts a correct answer must state (from the reference API results):
{facts}

Answer to grade:
{answer}

Does the answer state every fact above, with the same values (formatting, units written in
Korean, rounding to the shown precision are fine)? For a question marked unanswerable, the
answer must say that it cannot be answered and must not invent data.
Reply with one line of reasoning, then a final line: GRADE: C (correct) or GRADE: I (incorrect)."""


@scorer(metrics=[mean(), stderr()])
def kopa_judge(model: str | None = None, backend: dict[str, Any] | None = None) -> Scorer:
    """``model``: a model name, or ``"grader"`` (or None) for the eval's ``--model-role grader``."""
    config = BackendConfig.model_validate(backend or {})

    async def score(state: TaskState, target: Target) -> Score:
        task = BenchTask.model_validate(state.metadata["task"])
        answer = state.output.completion if state.output else ""
        try:
            expected = (await gold_truth(task, shared_backend(config), config.seed)).expected
        except PlanError as exc:
            return Score(value=INCORRECT, answer=answer, explanation=f"gold plan failed: {exc}")
        if all(f.matcher == "refusal" for f in task.facts):
            facts = "- (unanswerable: the tools cannot answer this question)"
        else:
            facts = "\n".join(f"- {f.description}: {expected.get(f.id)!r}" for f in task.facts if f.required)
        prompt = JUDGE_TEMPLATE.format(question=task.query, facts=facts, answer=answer or "(no answer)")
        judge_model = get_model(role="grader", required=True) if model in (None, "grader") else get_model(model)
        out = await judge_model.generate(prompt)
        m = re.search(r"GRADE:\s*([CI])", out.completion)
        value = CORRECT if m and m.group(1) == "C" else INCORRECT
        return Score(value=value, answer=answer, explanation=out.completion)

    return score
