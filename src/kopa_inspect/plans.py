"""Plans: DAGs of tool calls whose arguments may reference earlier outputs.

One format for KOPA-Bench gold plans, EDGE trajectories and GRPO targets. A reference is the
string ``"$s1.items[0].nx"``: a step id, then a JMESPath expression evaluated on that step's
normalized output (:meth:`Parsed.as_output`: ``resultCode``, ``totalCount``, ``items`` ...).
A reference may end in a string slice (``"$s1.items[0].region_cd[:5]"``, a 10-digit 법정동코드 to
its 5-digit LAWD_CD). The dict form ``{"ref": "s1", "path": "...", "slice": [0, 5], "template":
"{}0600"}`` says the same and can also format the value into a template.

A step may list, per argument, further acceptable values (``accept``, BFCL style): literals or
references resolved like args against the gold run (:meth:`PlanStep.resolve_accept`). The scorer
reads them wherever a gold call is compared (:func:`kopa_inspect.matching.arguments_equal`); they
are no data-flow links and do not order the plan.

``"$session.<platform>"`` (reserved step id ``session``) is the session token the platform's
auth tool (``<platform>_get_api_key``, e.g. the NEIS key trap) issued in this run; executing a
plan obtains it first, as a correct agent must.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import jmespath
import networkx as nx
from jmespath import functions as jp_functions
from pydantic import BaseModel, Field, model_validator

from kopa_inspect.execution import CallResult, Session

_REF_RE = re.compile(r"^\$(?P<step>[A-Za-z_][\w-]*)(?:\.(?P<path>.+?))?(?:\[(?P<a>-?\d*):(?P<b>-?\d*)\])?$")


# Reserved pseudo-step: "$session.neis" = the token neis_get_api_key issued (not a plan step).
SESSION_STEP = "session"

# Real APIs send numbers as formatted strings (" 195,000", "798.5 Kcal", "-" for missing), so the
# JMESPath of references (and of KOPA-Bench answer facts) has num(x) and nums(list) besides the
# built-ins: "$s2.max_by(items, &num(dealAmount)).umdNm".
_NUM_RE = re.compile(r"\s*([-+]?\d+(?:\.\d+)?)\s*(?:[A-Za-z%℃°㎡]+|원|만원|건|명|개|회|분|초)?\s*")


def to_num(value: Any) -> float | None:
    """A formatted API number to a float: ``" 195,000"`` -> 195000.0; ``"-"``, ``""`` -> None."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    m = _NUM_RE.fullmatch(str(value).replace(",", "").strip())
    if not m:
        return None
    out = float(m.group(1))
    return out if out == out and out not in (float("inf"), float("-inf")) else None


class _Functions(jp_functions.Functions):
    @jp_functions.signature({"types": []})
    def _func_num(self, value: Any) -> float | None:
        return to_num(value)

    @jp_functions.signature({"types": ["array"]})
    def _func_nums(self, values: list[Any]) -> list[float]:
        return [n for n in (to_num(v) for v in values) if n is not None]


JMESPATH_OPTIONS = jmespath.Options(custom_functions=_Functions())


def search(expression: str, data: Any) -> Any:
    """JMESPath with ``num``/``nums``: the one evaluator for plan references and answer facts."""
    return jmespath.search(expression, data, options=JMESPATH_OPTIONS)


class PlanError(ValueError):
    """A plan that cannot run: a cycle, an unknown step, a reference that finds nothing."""


class Ref(BaseModel):
    ref: str
    path: str | None = None
    slice: tuple[int | None, int | None] | None = None
    template: str | None = None

    @classmethod
    def parse(cls, value: Any) -> Ref | None:
        if isinstance(value, dict) and "ref" in value:
            return cls.model_validate(value)
        if isinstance(value, str) and value.startswith("$"):
            m = _REF_RE.match(value)
            if not m:
                raise PlanError(f"malformed reference {value!r}")
            a, b = m.group("a"), m.group("b")
            sl = None
            if a is not None or b is not None:
                sl = (int(a) if a else None, int(b) if b else None)
            return cls(ref=m.group("step"), path=m.group("path"), slice=sl)
        return None

    def resolve(self, outputs: dict[str, dict[str, Any]]) -> Any:
        if self.ref not in outputs:
            raise PlanError(f"reference to step {self.ref!r} that has no output")
        value: Any = outputs[self.ref]
        if self.path:
            value = search(self.path, value)
        if value is None:
            raise PlanError(f"${self.ref}.{self.path} found nothing")
        if self.slice is not None:
            value = str(value)[slice(*self.slice)]
        if self.template is not None:
            value = self.template.format(value)
        return value


def refs_in(value: Any) -> Iterator[Ref]:
    ref = Ref.parse(value)
    if ref is not None:
        yield ref
    elif isinstance(value, dict):
        for v in value.values():
            yield from refs_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from refs_in(v)


def resolve_args(value: Any, outputs: dict[str, dict[str, Any]]) -> Any:
    ref = Ref.parse(value)
    if ref is not None:
        return ref.resolve(outputs)
    if isinstance(value, dict):
        return {k: resolve_args(v, outputs) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_args(v, outputs) for v in value]
    return value


def _tool_params(tool: str) -> set[str] | None:
    """The argument names of an API operation; None for a tool this registry does not know (plans
    over made-up tools in EDGE and the tests)."""
    from kopa_inspect.apis import get_operation

    try:
        return {p.name for p in get_operation(tool).params}
    except KeyError:
        return None


class PlanStep(BaseModel):
    id: str = Field(pattern=r"^[A-Za-z_][\w-]*$")
    tool: str = Field(description="operation id, e.g. kma_getVilageFcst")
    args: dict[str, Any] = Field(default_factory=dict)
    # A required step must be made by the agent for success (ACTION axis); optional steps
    # (e.g. a lookup the agent may skip if it knows the code) count for call_f1 only.
    required: bool = True
    # A step that the API answers with an error on purpose (error-recovery tasks).
    expect_error: bool = False
    # Per argument name, further values that are right too (BFCL-style acceptable values):
    # literals, or references ("$s1.items[0].locallow_nm") resolved against the gold run's outputs.
    # An accepted value must be as good an answer to the question as the gold one (a synonym of a
    # region name, an equivalent code); the scorer then counts a call with it as the gold call.
    accept: dict[str, list[Any]] = Field(default_factory=dict)
    # Filters the user's own question states that a call may add to this step's arguments and
    # still ask its question (literal values): lunch when the user asks about lunch. Read where a
    # step's answer holds no record (an unanswerable task's evidence), since an added filter there
    # cannot be judged by the records it shows.
    may_add: dict[str, list[Any]] = Field(default_factory=dict)
    note: str | None = None

    @model_validator(mode="after")
    def _check_accept(self) -> PlanStep:
        known = _tool_params(self.tool)
        for key, values in self.accept.items():
            if known is not None and key not in known:
                raise PlanError(
                    f"step {self.id}: accept key {key!r} is not an argument of tool {self.tool} "
                    f"(its arguments: {sorted(known)})"
                )
            if key not in self.args:
                # arguments_equal compares the gold step's own arguments only: an accept list for an
                # argument the step does not pass would never be read
                raise PlanError(
                    f"step {self.id}: accept key {key!r} is not an argument of step {self.id} "
                    f"(it passes {sorted(self.args)})"
                )
            for v in values:
                list(refs_in(v))  # syntax check: a malformed reference raises PlanError here
        for key, values in self.may_add.items():
            if known is not None and key not in known:
                raise PlanError(f"step {self.id}: may_add key {key!r} is not an argument of tool {self.tool}")
            if key in self.args:
                raise PlanError(
                    f"step {self.id}: may_add key {key!r} is already an argument of the step; "
                    "use accept for other values of it"
                )
            if not values or any(list(refs_in(v)) for v in values):
                raise PlanError(f"step {self.id}: may_add {key!r} needs one or more literal values")
        return self

    def depends_on(self) -> set[str]:
        return {r.ref for r in refs_in(self.args)} - {SESSION_STEP}

    def accept_refs(self) -> set[str]:
        """Steps the accept lists refer to (checked to exist; no ordering, no data-flow link)."""
        return {r.ref for r in refs_in(self.accept)} - {SESSION_STEP}

    def resolve_accept(self, outputs: dict[str, dict[str, Any]]) -> dict[str, list[Any]]:
        """The accept lists against a run's outputs. A reference that finds nothing is left out (the
        gold run decides what is acceptable, as for an answer fact's accept entries); a reference
        to a list contributes every element."""
        out: dict[str, list[Any]] = {}
        for key, values in self.accept.items():
            got: list[Any] = []
            for v in values:
                try:
                    r = resolve_args(v, outputs)
                except PlanError:
                    continue
                got.extend(r if isinstance(r, list) else [r])
            out[key] = [g for g in got if g is not None]
        return out

    def session_platforms(self) -> set[str]:
        """Platforms whose auth-tool token this step passes ("$session.neis" -> "neis")."""
        return {r.path for r in refs_in(self.args) if r.ref == SESSION_STEP and r.path}


class Plan(BaseModel):
    steps: list[PlanStep]

    @model_validator(mode="after")
    def _check(self) -> Plan:
        ids = [s.id for s in self.steps]
        if len(ids) != len(set(ids)):
            raise PlanError(f"duplicate step ids in {ids}")
        known = set(ids)
        for step in self.steps:
            for dep in step.depends_on():
                if dep not in known:
                    raise PlanError(f"step {step.id} references unknown step {dep!r}")
            for dep in step.accept_refs():
                if dep not in known:
                    raise PlanError(f"step {step.id}: accept references unknown step {dep!r}")
        if not nx.is_directed_acyclic_graph(self.graph()):
            raise PlanError("plan has a cycle")
        return self

    def graph(self) -> nx.DiGraph[str]:
        g: nx.DiGraph[str] = nx.DiGraph()
        for s in self.steps:
            g.add_node(s.id)
        for s in self.steps:
            for dep in s.depends_on():
                g.add_edge(dep, s.id)
        return g

    def levels(self) -> list[list[PlanStep]]:
        """Steps grouped into waves that can run in parallel (a fan-out is one wave)."""
        by_id = {s.id: s for s in self.steps}
        return [[by_id[i] for i in gen] for gen in nx.topological_generations(self.graph())]

    def links(self) -> list[tuple[str, str, str]]:
        """Data-flow links (producer step, consumer step, consumer argument)."""
        out = []
        for s in self.steps:
            for arg, value in s.args.items():
                for r in refs_in(value):
                    out.append((r.ref, s.id, arg))
        return out

    def tools(self) -> list[str]:
        return sorted({s.tool for s in self.steps})


class PlanRun(BaseModel):
    """A plan executed: each step's concrete args and normalized output."""

    model_config = {"arbitrary_types_allowed": True}

    args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    outputs: dict[str, dict[str, Any]] = Field(default_factory=dict)
    ok: dict[str, bool] = Field(default_factory=dict)
    codes: dict[str, str] = Field(default_factory=dict)

    @property
    def all_ok(self) -> bool:
        return all(self.ok.values())


async def execute_plan(plan: Plan, session: Session, *, stop_on_error: bool = True) -> PlanRun:
    """Run a plan wave by wave; calls in one wave go out concurrently."""
    run = PlanRun()
    expected_errors = {s.id for s in plan.steps if s.expect_error}
    for wave in plan.levels():
        for platform in sorted(set().union(*(s.session_platforms() for s in wave))):
            if platform not in session.tokens:
                session.issue_token(platform)  # the auth-tool call a correct agent makes first
        scope = {**run.outputs, SESSION_STEP: dict(session.tokens)}
        concrete = [(s, resolve_args(s.args, scope)) for s in wave]
        results: list[CallResult] = await asyncio.gather(*(session.call(s.tool, a) for s, a in concrete))
        for (step, args), res in zip(concrete, results, strict=True):
            run.args[step.id] = args
            run.outputs[step.id] = res.output()
            run.ok[step.id] = res.ok if step.id not in expected_errors else not res.ok
            run.codes[step.id] = res.code
        if stop_on_error and not all(run.ok[s.id] for s, _ in concrete):
            failed = [s.id for s, _ in concrete if not run.ok[s.id]]
            raise PlanError(
                f"step(s) {failed} failed: "
                + "; ".join(
                    f"{sid}: {run.codes[sid]} {run.outputs[sid].get('resultMsg', '')}" for sid in failed
                )
            )
    return run
