"""The KOPA-Bench scorer: one dict Score per sample on the three axes (see grading.py).

Ground truth is execution-grounded: the gold plan runs through the run's own backend at the
task's clock. The calls made are read from the trajectory (every tool call the model emitted to an
API tool, so a call Inspect rejected against the schema counts as a failed call, as the API's own
rejection would); tokens issued come from the sample store (written by the tools); the final
answer is the last assistant message.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool
from inspect_ai.scorer import Score, Scorer, Target, grouped, mean, scorer, stderr
from inspect_ai.solver import TaskState
from inspect_ai.util import store

from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import BackendConfig
from kopa_inspect.plans import PlanError
from kopa_inspect.scorers.grading import AXES, gold_truth, grade
from kopa_inspect.scorers.metrics import pass_k
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.tools import TOKENS_KEY, shared_backend


def calls_from_messages(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """Every API or auth tool call in a trajectory, in order, with whether it succeeded."""
    known = set(operations()) | {auth_tool_name(p.id) for p in platforms().values() if p.session_token_param}
    results = {m.tool_call_id: m for m in messages if isinstance(m, ChatMessageTool) and m.tool_call_id}
    out: list[dict[str, Any]] = []
    for m in messages:
        if not isinstance(m, ChatMessageAssistant):
            continue
        for tc in m.tool_calls or []:
            if tc.function not in known:
                continue
            res = results.get(tc.id)
            error = None if res is None else res.error
            out.append(
                {
                    "tool": tc.function,
                    "args": dict(tc.arguments or {}),
                    "ok": res is not None and error is None,
                    "code": "ok" if res is not None and error is None else (error.type if error else "no_result"),
                }
            )
    return out


def _metrics() -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {k: [mean(), stderr()] for k in AXES}
    out["success"] += [grouped(mean(), "category", all=False), pass_k()]
    out["answer"] += [grouped(mean(), "category", all=False)]
    return out


@scorer(metrics=_metrics())
def kopa_scorer(backend: dict[str, Any] | None = None) -> Scorer:
    config = BackendConfig.model_validate(backend or {})

    async def score(state: TaskState, target: Target) -> Score:
        task = BenchTask.model_validate(state.metadata["task"])
        answer = state.output.completion if state.output else ""
        try:
            gold = await gold_truth(task, shared_backend(config), config.seed)
        except PlanError as exc:
            # A gold plan that no longer runs (live drift, a recording without its calls) is not
            # the agent's failure to hide: zero, and say why.
            return Score(
                value={k: 0.0 for k in AXES},
                answer=answer,
                explanation=f"gold plan failed on this backend: {exc}",
                metadata={"gold_error": str(exc)},
            )
        st = store()
        g = grade(task, gold, answer, calls_from_messages(state.messages), set(st.get(TOKENS_KEY, [])))
        return Score(
            value=g.values(),
            answer=answer,
            explanation=g.explanation(),
            metadata={"missing": g.missing, "fact_scores": g.fact_scores, **gold.to_json()},
        )

    return score
