"""KOPA-Bench task records: the schema of ``kopa_bench.jsonl`` and how an answer fact is resolved.

A task is a Korean question fixed at a clock, the tools it may use, a gold :class:`Plan` and the
facts a correct answer must state. Facts are *references* into the gold plan's outputs (not
literal answers), so ground truth is recomputed by executing the gold plan on whatever backend
the agent used (embedded emulator at any seed, live, replay): the answer key never goes stale.

Fact values:

- ``"$s2.items[0].fcstValue"``: a step id, then JMESPath over that step's normalized output
  (:meth:`Parsed.as_output`), as in plan references; an optional string slice ``[:5]`` at the end.
- ``"$_.<jmespath>"``: JMESPath over *all* outputs ``{step_id: output}``, for facts that combine
  steps (compare two parallel calls, sum over a fan-out).
- JMESPath here has two extra functions: ``num(x)`` (``" 195,000"`` -> 195000.0, ``"12.5"`` -> 12.5,
  ``null`` for ``"-"``/blank) and ``nums(list)`` (``num`` over a list, blanks dropped), because the
  real APIs send numbers as formatted strings.
- Anything not starting with ``$`` is a literal (unanswerable tasks: ``matcher="refusal"``).

Session tokens (the NEIS auth-tool trap): a task lists ``"token:neis"`` in ``required_state``
and the NEIS steps pass ``"KEY": "$session.neis"``; ``$session.<platform>`` resolves to the
token the platform's ``<platform>_get_api_key`` tool issued in this run (see plans.py).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Literal

import networkx as nx
from pydantic import BaseModel, Field, field_validator, model_validator

from kopa_inspect.plans import Plan, PlanError, Ref, search, to_num

# Platforms whose tasks form the held-out split (the paper's held-out-platform test, 31 tasks):
# EDGE must not sample trajectories over these platforms, so its training data never sees them.
HELD_OUT_PLATFORMS: frozenset[str] = frozenset({"nec", "assembly", "lawgo"})

Category = Literal[
    "chain2", "chain3", "chain4plus", "parallel", "pagination", "error_recovery", "unanswerable"
]
# How each matcher reads an answer: kopa_inspect/matching (the package docstring).
Matcher = Literal[
    "number",
    "money",
    "date",
    "time",
    "month",
    "date_set",
    "duration",
    "code_label",
    "name",
    "set",
    "ranked_set",
    "dish_set",
    "key_facts",
    "exact",
    "refusal",
]
Difficulty = Literal["easy", "medium", "hard"]

CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]

# The paper's six domains plus the supporting ones this emulator adds.
DOMAINS: tuple[str, ...] = (
    "transport",
    "finance",
    "education",
    "law",
    "politics",
    "district",
    "weather",
    "environment",
    "health",
    "tourism",
    "real_estate",
)

__all__ = [
    "HELD_OUT_PLATFORMS",
    "AnswerFact",
    "BenchTask",
    "load_tasks",
    "resolve_value",
    "search",
    "to_num",
    "plan_is_parallel",
    "gold_call_count",
    "is_empty",
    "is_reference",
]

DEFAULT_PATH = Path(__file__).with_name("kopa_bench.jsonl")

_STATE_RE = re.compile(r"^(token:[a-z0-9_]+|pages:[A-Za-z_][\w-]*|call:[A-Za-z_][\w-]*)$")
_CLOCK_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?\+09:00$")


# --- fact resolution ---------------------------------------------------------------------------


def is_reference(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("$")


def resolve_value(value: Any, outputs: dict[str, dict[str, Any]]) -> Any:
    """A fact value against a gold run's outputs; literals come back unchanged."""
    if not is_reference(value):
        return value
    if value.startswith("$_."):
        return search(value[3:], outputs)
    ref = Ref.parse(value)
    assert ref is not None
    if ref.ref not in outputs:
        raise PlanError(f"fact references step {ref.ref!r} that has no output")
    out: Any = outputs[ref.ref]
    if ref.path:
        out = search(ref.path, out)
    if out is not None and ref.slice is not None:
        out = str(out)[slice(*ref.slice)]
    return out


def is_empty(value: Any) -> bool:
    return (
        value is None
        or (isinstance(value, str) and not value.strip())
        or (isinstance(value, list | dict) and len(value) == 0)
    )


# --- the records ---------------------------------------------------------------------------------


class AnswerFact(BaseModel):
    """One thing a correct final answer must state, with how to compare it.

    Reference-valued fields (``value``, ``subject``, ``competitors``, ``accept`` entries, ``keys``
    entries) are resolved against the gold run like ``value`` (:meth:`resolve_context`); how the
    scorer uses them is documented in :mod:`kopa_inspect.matching`.
    """

    id: str
    description: str = Field(description="what the fact is, in Korean with an English gloss")
    value: Any = Field(description="a plan reference ($s2.items[0].x, $_.<expr>) or a literal")
    matcher: Matcher
    # number/money/duration: absolute tolerance on the value (0 = the number as the API gives it,
    # rounding to the API's own precision allowed by the scorer). A tolerance as large as the value
    # is ignored by the scorer (matching.check_tolerance says so). Ignored by other matchers.
    tolerance: float = Field(default=0.0, ge=0.0)
    required: bool = True
    # The entity the fact is about: the answer must state the value next to it.
    subject: str | None = None
    # A "$..." reference (or literal list) of WRONG values: the other candidates' names or figures.
    competitors: Any = None
    # More acceptable values (literals or references), BFCL style.
    accept: list[Any] = Field(default_factory=list)
    # Relative tolerance for number/money/duration (0.01 = 1%).
    rel_tol: float = Field(default=0.0, ge=0.0, lt=1.0)
    # Unit of the API value: 원/만원/천원/억원 (money, number), s/min/h (duration), %, °C ...
    unit: str | None = None
    # code_label: the code table in matching.CODE_TABLES (kma_sky, kma_pty, kma_mid_wf, airkorea_grade).
    labels: str | None = None
    # key_facts: phrases (literals or references) a long legal/drug text answer must contain.
    keys: list[Any] | None = None
    # "Which one" facts over ranked lists (matching 4b; EDGE writes them, no KOPA-Bench task needs them):
    # the field the pick ranks by, the reference to the winner's figure, and the owner of the ranked list
    # ("건국대학교병원" for its departments). Two picks over one measure in different lists are told apart
    # only by their scopes; without these fields a grader reading AnswerFact models (kopa_grpo.env) failed
    # a right answer and passed the two winners swapped (tests/scorers/test_grader_edge_fact_fields.py).
    measure: str | None = None
    winner_value_ref: str | None = None
    scope: str | None = None
    # Other sources of the same value: references into other gold steps (often optional ones) that
    # show it too ("전문의 수" read from the hospital list's own specialist count instead of the
    # department call; a party's seats from the seat table instead of counting its members). A run
    # that showed one of them grounds the fact as well as the value's own steps do. Each must resolve
    # to the value on the gold run (tests/task_data checks it; the grader ignores one that does not).
    also_from: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> AnswerFact:
        if self.matcher == "refusal" and is_reference(self.value):
            raise ValueError(f"fact {self.id}: a refusal fact is a literal, not a reference")
        if self.matcher != "refusal" and not is_reference(self.value):
            raise ValueError(f"fact {self.id}: only refusal facts may be literals")
        if any(not is_reference(v) for v in self.also_from):
            raise ValueError(f"fact {self.id}: also_from entries are references to other gold steps")
        for v in [
            self.value,
            self.subject,
            self.competitors,
            *self.accept,
            *(self.keys or []),
            *self.also_from,
        ]:
            if is_reference(v) and not v.startswith("$_."):
                Ref.parse(v)  # syntax check
        if self.matcher == "code_label":
            from kopa_inspect.matching import CODE_TABLES

            if self.labels not in CODE_TABLES:
                raise ValueError(f"fact {self.id}: code_label needs labels in {sorted(CODE_TABLES)}")
        if self.matcher == "key_facts" and not self.keys:
            raise ValueError(f"fact {self.id}: key_facts needs keys")
        if not is_reference(self.value) and self.tolerance:
            from kopa_inspect.matching import check_tolerance

            check_tolerance(self, self.value)
        return self

    def resolve(self, outputs: dict[str, dict[str, Any]]) -> Any:
        return resolve_value(self.value, outputs)

    def resolve_context(self, outputs: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """subject, competitors, accept and keys with their references resolved (None if absent)."""

        def one(v: Any) -> Any:
            try:
                return resolve_value(v, outputs)
            except PlanError:
                return None

        competitors = one(self.competitors) if self.competitors is not None else None
        if competitors is not None and not isinstance(competitors, list):
            competitors = [competitors]
        accept: list[Any] = []
        for a in self.accept:
            r = one(a)
            accept.extend(r if isinstance(r, list) else [r])
        keys = None
        if self.keys is not None:
            keys = []
            for k in self.keys:
                r = one(k)
                keys.extend(r if isinstance(r, list) else [r])
        subject = one(self.subject) if self.subject is not None else None
        return {
            "subject": None if subject is None else str(subject),
            "competitors": [c for c in competitors or [] if c is not None] or None,
            "accept": [a for a in accept if a is not None],
            "keys": None if keys is None else [k for k in keys if k is not None],
        }


class BenchTask(BaseModel):
    """One KOPA-Bench task (a line of kopa_bench.jsonl)."""

    id: str = Field(pattern=r"^kopa-\d{3}$")
    category: Category
    domain: str
    platforms: list[str]
    tools: list[str] = Field(
        description="operation ids the agent is given; the gold plan's tools are a subset"
    )
    query: str = Field(description="the question, natural Korean")
    query_en: str = Field(description="an English gloss of the question")
    clock: str = Field(description="ISO-8601 KST (+09:00): what 오늘/내일 mean in this task")
    plan: Plan
    facts: list[AnswerFact]
    required_state: list[str] = Field(default_factory=list)
    difficulty: Difficulty = "medium"
    n_calls: int = Field(
        ge=0, description="gold calls: API steps plus auth-tool calls (one per token:<platform>)"
    )
    parallel: bool = Field(description="the gold plan has a wave of 2+ concurrent calls")
    held_out: bool = False
    notes: str | None = None

    @field_validator("clock")
    @classmethod
    def _clock(cls, v: str) -> str:
        if not _CLOCK_RE.match(v):
            raise ValueError(f"clock {v!r} must be ISO-8601 with +09:00")
        return v

    @field_validator("required_state")
    @classmethod
    def _state(cls, v: list[str]) -> list[str]:
        for s in v:
            if not _STATE_RE.match(s):
                raise ValueError(f"required_state entry {s!r}: token:<platform> | pages:<step> | call:<step>")
        return v

    @field_validator("domain")
    @classmethod
    def _domain(cls, v: str) -> str:
        if v not in DOMAINS:
            raise ValueError(f"domain {v!r} not in {DOMAINS}")
        return v

    @model_validator(mode="after")
    def _consistency(self) -> BenchTask:
        plan_tools = set(self.plan.tools())
        if not plan_tools <= set(self.tools):
            raise ValueError(f"{self.id}: gold tools {sorted(plan_tools - set(self.tools))} not in tools")
        if self.n_calls != gold_call_count(self.plan, self.required_state):
            raise ValueError(f"{self.id}: n_calls {self.n_calls} != gold steps + auth-tool calls")
        if self.parallel != plan_is_parallel(self.plan):
            raise ValueError(f"{self.id}: parallel flag disagrees with the plan's waves")
        if not self.facts:
            raise ValueError(f"{self.id}: no answer facts")
        ids = [f.id for f in self.facts]
        if len(ids) != len(set(ids)):
            raise ValueError(f"{self.id}: duplicate fact ids")
        if (self.category == "unanswerable") != all(f.matcher == "refusal" for f in self.facts):
            raise ValueError(f"{self.id}: unanswerable tasks (and only they) have refusal facts")
        step_ids = {s.id for s in self.plan.steps}
        by_id = {s.id: s for s in self.plan.steps}
        named: set[str] = set()
        for s in self.required_state:
            kind, _, name = s.partition(":")
            if kind in ("pages", "call") and name not in step_ids:
                raise ValueError(f"{self.id}: required_state {s!r} names no gold step")
            if kind in ("pages", "call"):
                if not by_id[name].required:
                    raise ValueError(
                        f"{self.id}: required_state {s!r} names an optional step (required=false)"
                    )
                named.add(name)
        if self.category == "unanswerable":
            # Evidence steps (the calls that show the data is not there) count only through
            # required_state; a step no entry reaches would be skipped silently by the scorer.
            graph = self.plan.graph()
            reached = set(named)
            for name in named:
                reached |= nx.ancestors(graph, name)
            for st in self.plan.steps:
                if st.id not in reached:
                    raise ValueError(
                        f"{self.id}: step {st.id} of an unanswerable task feeds no required_state entry: "
                        f"list it as 'call:{st.id}' (an evidence step) or remove it"
                    )
        return self

    @property
    def held_out_platforms(self) -> list[str]:
        return sorted(set(self.platforms) & HELD_OUT_PLATFORMS)


def gold_call_count(plan: Plan, required_state: list[str] | tuple[str, ...]) -> int:
    """API steps plus one auth-tool call per required session token (the agent makes both)."""
    return len(plan.steps) + sum(1 for s in required_state if s.startswith("token:"))


def plan_is_parallel(plan: Plan) -> bool:
    """A wave with 2+ *required* calls. Optional steps (a lookup the agent may skip) and the
    failing call of an error-recovery task (it precedes the retry; plans carry no order beyond
    data flow) do not make a task parallel."""
    return any(sum(1 for s in wave if s.required and not s.expect_error) > 1 for wave in plan.levels())


def load_tasks(path: str | Path | None = None) -> list[BenchTask]:
    """All tasks of a JSONL file (default: the packaged kopa_bench.jsonl), in file order."""
    p = Path(path) if path is not None else DEFAULT_PATH
    if path is None:
        return list(_load_default())
    return _parse_file(p)


@cache
def _load_default() -> tuple[BenchTask, ...]:
    return tuple(_parse_file(DEFAULT_PATH))


def _parse_file(p: Path) -> list[BenchTask]:
    tasks = []
    with p.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                tasks.append(BenchTask.model_validate(json.loads(line)))
            except Exception as exc:
                raise ValueError(f"{p}:{lineno}: {exc}") from exc
    return tasks
