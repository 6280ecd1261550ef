"""Execution-grounded grading of one run, framework-free (the scorer, reports and GRPO reuse it).

Ground truth: the gold plan runs through the same backend as the agent, at the task's clock and
the run's seed; the expected fact values are resolved from those outputs. Nothing is stored as
a literal answer, so live and replay runs are graded against what the APIs said in that run.

Axes (one dict per sample):

- ``answer``: share of required facts the final answer states (set facts give partial credit).
- ``call_f1``: F1 of the agent's API calls against the gold calls (name + normalized args).
- ``chain``: share of gold data-flow links (step output -> later step argument) the agent realized:
  both calls made, the producer first. Without links: the recall of gold calls.
- ``env``: share of required state reached (``token:<platform>``, ``pages:<step>``, ``call:<step>``;
  session tokens a gold step passes are required implicitly).
- ``efficiency``: gold calls over calls made (capped at 1); ``calls``, ``errors``: counts.
- ``success``: every required fact stated, every required gold step made with the expected
  outcome (OK, or the error an error-recovery step expects), and ``env`` = 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kopa_inspect import matching
from kopa_inspect.apis import get_operation, platforms
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import Backend
from kopa_inspect.execution import Session
from kopa_inspect.plans import SESSION_STEP, PlanRun, execute_plan
from kopa_inspect.task_data.schema import BenchTask

AXES: tuple[str, ...] = ("success", "answer", "call_f1", "chain", "env", "efficiency", "calls", "errors")

Call = tuple[str, dict[str, Any]]


def token_params() -> set[str]:
    return {p.session_token_param for p in platforms().values() if p.session_token_param}


def strip_tokens(args: dict[str, Any]) -> dict[str, Any]:
    tokens = token_params()
    return {k: v for k, v in args.items() if k not in tokens}


@dataclass
class GoldTruth:
    run: PlanRun
    expected: dict[str, Any]
    calls: list[Call]  # per gold step, in plan order, token args removed

    def to_json(self) -> dict[str, Any]:
        return {
            "expected": self.expected,
            "calls": [{"tool": t, "args": a} for t, a in self.calls],
        }


async def gold_truth(task: BenchTask, backend: Backend, seed: int = 0) -> GoldTruth:
    """Run the gold plan (raises PlanError when a gold step fails) and resolve every fact."""
    session = Session(backend, clock=task.clock, seed=seed)
    run = await execute_plan(task.plan, session)
    expected = {f.id: f.resolve(run.outputs) for f in task.facts}
    calls = [(s.tool, strip_tokens(run.args[s.id])) for s in task.plan.steps]
    return GoldTruth(run, expected, calls)


@dataclass
class Grade:
    success: float
    answer: float
    call_f1: float
    chain: float
    env: float
    efficiency: float
    calls: float
    errors: float
    missing: list[str] = field(default_factory=list)
    fact_scores: dict[str, float] = field(default_factory=dict)

    def values(self) -> dict[str, float]:
        return {k: float(getattr(self, k)) for k in AXES}

    def explanation(self) -> str:
        head = ", ".join(f"{k}={getattr(self, k):.3g}" for k in AXES)
        if not self.missing:
            return head + "\nall facts, gold calls and state reached"
        return head + "\nmissing:\n" + "\n".join(f"- {m}" for m in self.missing)


def _auth_names() -> set[str]:
    return {auth_tool_name(p.id) for p in platforms().values() if p.session_token_param}


def _short(value: Any, n: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


def grade(
    task: BenchTask,
    gold: GoldTruth,
    answer: str,
    calls: list[dict[str, Any]],
    tokens: set[str] | None = None,
) -> Grade:
    """Grade a run from its final answer and its call records (``tools.call_entry`` dicts)."""
    missing: list[str] = []
    auth = _auth_names()
    api_calls = [c for c in calls if c["tool"] not in auth]
    made: list[Call] = [(c["tool"], strip_tokens(c.get("args") or {})) for c in api_calls]
    made_ok = [bool(c.get("ok")) for c in api_calls]
    tokens = set(tokens or ())
    tokens |= {c["tool"][: -len("_get_api_key")] for c in calls if c["tool"] in auth}

    # RESPONSE: the facts.
    fact_scores: dict[str, float] = {}
    for f in task.facts:
        expected = gold.expected.get(f.id)
        s = matching.fact_score(f.matcher, expected, answer, f.tolerance)
        fact_scores[f.id] = s
        if f.required and s < 1.0:
            missing.append(f"fact {f.id} ({f.description}): expected {_short(expected)}")
    required_facts = [f for f in task.facts if f.required]
    answer_score = sum(fact_scores[f.id] for f in required_facts) / len(required_facts) if required_facts else 1.0
    facts_ok = all(fact_scores[f.id] >= 1.0 for f in required_facts)

    # ACTION: gold calls, one-to-one.
    _, _, f1 = matching.call_prf(gold.calls, made)
    mapping = matching.match_calls(gold.calls, made)

    def step_made(step_index: int, want_ok: bool = True) -> bool:
        name, args = gold.calls[step_index]
        return any(
            m_name == name and made_ok[i] == want_ok and matching.arguments_equal(args, m_args)
            for i, (m_name, m_args) in enumerate(made)
        )

    steps = task.plan.steps
    index = {s.id: i for i, s in enumerate(steps)}
    required_ok = True
    for i, s in enumerate(steps):
        if s.required and not step_made(i, want_ok=not s.expect_error):
            required_ok = False
            missing.append(f"call {s.id}: {s.tool}({_short(gold.calls[i][1], 200)})")

    links = [(p, c, a) for p, c, a in task.plan.links() if p != SESSION_STEP]
    if links:
        realized = sum(
            1
            for p, c, _ in links
            if index[p] in mapping and index[c] in mapping and mapping[index[p]] < mapping[index[c]]
        )
        chain = realized / len(links)
    else:
        chain = len(mapping) / len(steps) if steps else 1.0

    # ENVIRONMENT: required state.
    state = list(task.required_state)
    for s in steps:
        for p in sorted(s.session_platforms()):
            if f"token:{p}" not in state:
                state.append(f"token:{p}")
    reached = 0
    for item in state:
        kind, _, name = item.partition(":")
        if kind == "token":
            ok = name in tokens and any(
                made_ok[i] and get_operation(t).platform == name for i, (t, _) in enumerate(made) if _known(t)
            )
        else:  # pages:<step> / call:<step>
            ok = name in index and step_made(index[name], want_ok=not steps[index[name]].expect_error)
        if ok:
            reached += 1
        else:
            missing.append(f"state {item}")
    env = reached / len(state) if state else 1.0

    n_gold = len(steps) + len({p for s in steps for p in s.session_platforms()})
    n_made = len(calls)
    efficiency = (1.0 if n_gold == 0 else 0.0) if n_made == 0 else min(1.0, max(n_gold, 1) / n_made)
    errors = sum(1 for ok in made_ok if not ok)

    success = 1.0 if facts_ok and required_ok and env >= 1.0 else 0.0
    return Grade(
        success=success,
        answer=answer_score,
        call_f1=f1,
        chain=chain,
        env=env,
        efficiency=efficiency,
        calls=float(n_made),
        errors=float(errors),
        missing=missing,
        fact_scores=fact_scores,
    )


def _known(op_id: str) -> bool:
    try:
        get_operation(op_id)
    except KeyError:
        return False
    return True


def oracle_answer(task: BenchTask, expected: dict[str, Any], language: str = "ko") -> str:
    """A final answer that states every expected fact (used by the oracle provider)."""
    facts = list(task.facts)
    if facts and all(f.matcher == "refusal" for f in facts):
        if language == "en":
            return "This cannot be answered with the available tools: no API provides this information."
        return "제공된 도구로는 이 질문에 답할 수 없습니다. 해당 정보를 제공하는 API가 없습니다."
    lines = []
    for f in facts:
        value = expected.get(f.id)
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        lines.append(f"- {f.description}: {shown}")
    head = "Answer:" if language == "en" else "답변:"
    return head + "\n" + "\n".join(lines)


