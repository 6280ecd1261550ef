"""The KOPA-Bench scorers: one Inspect scorer per axis (see grading.py), graded once per sample.

Each axis is its own registered scorer, named ``kopa_<axis>`` (``kopa_success`` first, then
``kopa_answer``, ``kopa_call_f1`` ...), so ``samples_df`` has one numeric column per axis
(``score_kopa_success`` ...), the viewer shows the overall success first, and ``inspect score LOG``
rebuilds every scorer from the registry (see ``_register_bare_name``).
The first axis scorer that runs for a sample grades it; the others read the same grade (Inspect
runs a sample's scorers one after another on the same TaskState).

Ground truth is execution-grounded: the gold plan runs through the run's own backend at the
task's clock. The calls made are read from the trajectory (every tool call the model emitted to an
API tool, so a call Inspect rejected against the schema counts as a failed call, as the API's own
rejection would); tokens issued come from the sample store (written by the tools); the final
answer is the last assistant message.

Undefined axes (a grade value of None, e.g. ``env`` for a task with no required state) are scored
NaN: Inspect leaves them out of means and stderr, and ``samples_df`` shows them as missing, not 0.

A backend that does not answer at all (connection refused, timeout) is not the agent's failure:
the scorer raises, Inspect records a sample error, and ``inspect eval-retry`` reruns the sample.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

import httpx
from inspect_ai._util.registry import RegistryInfo, registry_add, registry_info
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool
from inspect_ai.scorer import Metric, Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState
from inspect_ai.util import store

from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._envelope import HttpResponse
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.apis._spec import Operation
from kopa_inspect.backends import Backend, BackendConfig, BackendError
from kopa_inspect.plans import PlanError
from kopa_inspect.scorers.gold_cache import GOLD_CACHE, gold_key
from kopa_inspect.scorers.grading import AXES, GoldTruth, gold_truth, grade, turns_from_messages
from kopa_inspect.scorers.metrics import success_metrics
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.task_version import TASK_VERSION
from kopa_inspect.tools import CALLS_KEY, TOKENS_KEY, shared_backend


class BackendUnreachable(RuntimeError):
    """The backend gave no answer at all; the sample is an error, not a score."""


def _transport_failure(message: str) -> bool:
    """Whether a BackendError text is an httpx transport failure ("ConnectError: ...")."""
    name = message.split(":", 1)[0].strip()
    cls = getattr(httpx, name, None)
    return isinstance(cls, type) and issubclass(cls, httpx.TransportError)


class _RaisingBackend(Backend):
    """Wraps the run's backend for the gold run: a transport failure escapes Session.call (which
    would otherwise turn it into a failed step and the sample into a zero)."""

    def __init__(self, inner: Backend) -> None:
        super().__init__(inner.config)
        self.inner = inner
        self.kind = inner.kind

    def credential(self, platform_id: str) -> str | None:
        return self.inner.credential(platform_id)

    async def _send(
        self, req: Any, clock: str | None
    ) -> HttpResponse:  # pragma: no cover - send is overridden
        raise NotImplementedError

    async def send(
        self, op: Operation, args: dict[str, Any], clock: str | None = None, key_override: str | None = None
    ) -> HttpResponse:
        try:
            return await self.inner.send(op, args, clock, key_override)
        except BackendError as exc:
            if _transport_failure(str(exc)):
                raise BackendUnreachable(f"{self.kind} backend did not answer (gold run): {exc}") from None
            raise


def calls_from_messages(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """Every API or auth tool call in a trajectory, in order, with whether it succeeded.

    The final answer is the last assistant message: tool calls that message carries (a turn or
    message limit reached with an answer and calls in one message) were made after the answer was
    written, their results never read for it, so they are left out."""
    known = set(operations()) | {auth_tool_name(p.id) for p in platforms().values() if p.session_token_param}
    results = {m.tool_call_id: m for m in messages if isinstance(m, ChatMessageTool) and m.tool_call_id}
    assistants = [k for k, m in enumerate(messages) if isinstance(m, ChatMessageAssistant)]
    final = assistants[-1] if assistants else -1
    out: list[dict[str, Any]] = []
    for k, m in enumerate(messages):
        if not isinstance(m, ChatMessageAssistant) or k == final:
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
                    "code": "ok"
                    if res is not None and error is None
                    else (error.type if error else "no_result"),
                }
            )
    return out


def outputs_from_messages(messages: list[ChatMessage]) -> list[str]:
    """The text of every OK tool result the model read before its final answer."""
    assistants = [k for k, m in enumerate(messages) if isinstance(m, ChatMessageAssistant)]
    final = assistants[-1] if assistants else len(messages)
    return [
        m.text
        for k, m in enumerate(messages)
        if isinstance(m, ChatMessageTool) and k < final and m.error is None and m.text
    ]


@dataclass
class SampleGrade:
    """What every axis scorer of one sample reports."""

    values: dict[str, float | None]
    answer: str
    explanation: str
    metadata: dict[str, Any] = field(default_factory=dict)


# One grade per TaskState (weak: a state gone is a grade gone).
_GRADES: WeakKeyDictionary[TaskState, SampleGrade] = WeakKeyDictionary()


def _check_agent_calls() -> None:
    calls: list[dict[str, Any]] = store().get(CALLS_KEY, []) or []
    for call in calls:
        if call.get("code") == "HTTP" and _transport_failure(str(call.get("message", ""))):
            raise BackendUnreachable(
                f"backend did not answer the agent's {call.get('tool')} call: {call['message']}"
            )


async def cached_gold_truth(task_json: dict[str, Any], task: BenchTask, config: BackendConfig) -> GoldTruth:
    """The task's gold on the run's backend: from the process-wide cache where the backend's answers
    are a function of the request, seed and clock (gold_cache), else computed for this sample."""

    def compute() -> Awaitable[GoldTruth]:
        return gold_truth(task, _RaisingBackend(shared_backend(config)), config.seed)

    key = gold_key(task_json, config, TASK_VERSION)
    return await (compute() if key is None else GOLD_CACHE.get(key, compute))


async def _grade(state: TaskState, config: BackendConfig) -> SampleGrade:
    task = BenchTask.model_validate(state.metadata["task"])
    answer = state.output.completion if state.output else ""
    _check_agent_calls()
    try:
        gold = await cached_gold_truth(state.metadata["task"], task, config)
    except PlanError as exc:
        # A gold plan that no longer runs (live drift, a recording without its calls) is not
        # the agent's failure to hide: zero, and say why.
        return SampleGrade(
            values={k: 0.0 for k in AXES},
            answer=answer,
            explanation=f"gold plan failed on this backend: {exc}",
            metadata={"gold_error": str(exc)},
        )
    st = store()
    g = grade(
        task,
        gold,
        answer,
        calls_from_messages(state.messages),
        set(st.get(TOKENS_KEY, [])),
        turns=turns_from_messages(state.messages),
        records=list(st.get(CALLS_KEY, []) or []),
        outputs=outputs_from_messages(state.messages),
    )
    return SampleGrade(
        values=dict(g.values()),
        answer=answer,
        explanation=g.explanation(),
        # a copy: the gold is shared with every other sample of the task (gold_cache)
        metadata={"missing": g.missing, "fact_scores": g.fact_scores, **copy.deepcopy(gold.to_json())},
    )


async def sample_grade(state: TaskState, config: BackendConfig) -> SampleGrade:
    """The sample's grade, computed by the first axis scorer that asks."""
    cached = _GRADES.get(state)
    if cached is None:
        cached = _GRADES[state] = await _grade(state, config)
    return cached


def _as_value(value: float | None) -> float:
    return float("nan") if value is None else float(value)


def _axis_metrics(axis: str) -> list[Metric]:
    return success_metrics() if axis == "success" else [mean(), stderr()]


SCORER_PREFIX = "kopa_"


def scorer_name(axis: str) -> str:
    """The scorer (and ``samples_df`` column ``score_<name>``) of one axis."""
    return SCORER_PREFIX + axis


def _register_bare_name(factory: Any) -> Any:
    """Also register a scorer factory under its name without the package prefix.

    Inspect 0.3.285 writes a scorer into the log by its unqualified name (``kopa_success``), and
    ``inspect score LOG`` looks that name up as is, which finds only unprefixed registrations; so
    every extension-package scorer would fail to reload. A thin alias under the bare name (a distinct
    object: registry tags live on the object) fixes that. The ``kopa_`` prefix keeps the bare names
    clear of Inspect's own scorers (``answer``, ``f1`` ...). Private registry API, pinned Inspect.
    """
    info = registry_info(factory)
    bare = info.name.split("/")[-1]
    if bare != info.name:

        def alias(*args: Any, **kwargs: Any) -> Scorer:
            return factory(*args, **kwargs)

        alias.__name__ = alias.__qualname__ = bare
        alias.__doc__ = factory.__doc__
        registry_add(alias, RegistryInfo(type="scorer", name=bare, metadata=dict(info.metadata)))
    return factory


def _axis_scorer(axis: str) -> Any:
    def factory(backend: dict[str, Any] | None = None) -> Scorer:
        config = BackendConfig.model_validate(backend or {})

        async def score(state: TaskState, target: Target) -> Score:
            g = await sample_grade(state, config)
            value = _as_value(g.values.get(axis))
            if axis != "success":
                shown = "undefined for this task" if math.isnan(value) else f"{value:.3g}"
                return Score(value=value, explanation=f"{axis} = {shown}")
            # the whole grade once, on the headline score
            return Score(value=value, answer=g.answer, explanation=g.explanation, metadata=g.metadata)

        return score

    name = scorer_name(axis)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = f"KOPA-Bench axis {axis!r} (grading.py): one value per sample, NaN when undefined."
    return _register_bare_name(scorer(metrics=_axis_metrics(axis), name=name)(factory))


# One registered scorer per axis, in AXES order (success first).
AXIS_SCORERS: dict[str, Any] = {axis: _axis_scorer(axis) for axis in AXES}


def kopa_scorers(backend: dict[str, Any] | None = None) -> list[Scorer]:
    """Every axis scorer for one backend, success first."""
    return [make(backend=backend) for make in AXIS_SCORERS.values()]


def axis_values(scores: dict[str, Any] | None) -> dict[str, float | None]:
    """A sample's axis values from its ``scores`` (EvalSample.scores or TaskState.scores); NaN -> None."""
    out: dict[str, float | None] = {}
    for axis in AXES:
        s = (scores or {}).get(scorer_name(axis))
        if s is None:
            continue
        v = s.value if hasattr(s, "value") else s.get("value")
        out[axis] = None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
    return out
