"""Execution-grounded grading of one run, framework-free (the scorer, reports and GRPO reuse it).

Ground truth: the gold plan runs through the same backend as the agent, at the task's clock and
the run's seed; the expected fact values (and the facts' subjects, competitors, accept lists and
keys) are resolved from those outputs. Nothing is stored as a literal answer, so live and replay
runs are graded against what the APIs said in that run.

What the task needs (computed, CONTRACT item 2): a gold step is *needed* iff a required fact, a
``pages:``/``call:`` entry of ``required_state`` or a needed step's argument depends on it
(transitively through plan links) and the task does not mark it ``required=False``. Steps that
feed nothing (an extra lookup, a scripted failing call) are optional. For each needed step the
gold run tells which *records* the facts and links depend on: a shown output item is needed when
removing it from the gold output, or (under a max/min/sum/avg/sort_by) pushing its figures to
either end, changes a dependent fact value or link argument (found by group testing), so a
maximum needs every candidate record, not just the winner. A step whose dependents read a
non-item field (``totalCount``) or that yields no needed item needs the *query* (the same
arguments apart from paging), except a page holding no needed record beside pages of the same
fact that do (a filtered count): it is retrieved with them.

Facts: :func:`fact_context` resolves each fact's subject, competitors, accept list and keys; a
max/min fact without competitors gets every other candidate of its aggregate, so only its claimed
value counts (see :mod:`kopa_inspect.matching`).

A needed step is **retrieved** when an OK agent call to the same tool (i) has the gold arguments
(:func:`gold_arguments`: normalized, a larger first page allowed, ``accept`` lists, nothing added
that changes the answer: an added filter, page number or page size of the operation makes it a
call judged by its records; an argument the operation does not have is ignored, as the API does), or
(ii) the union of the records shown to the agent by its OK calls to that tool (fingerprints from
``tools.call_entry``) holds every needed record, and the query is matched where it is needed, or
(iii) the step needs only the query and an OK call asked it (:func:`matching.same_query`). So any
page size, equivalent filter and order pass.

A needed step whose gold answer holds **no record** (the API answers with an error such as NODATA
and the step is ``expect_error``, or OK with no rows) would meet (ii) vacuously, so it is retrieved
only by the gold question itself: a call to the same tool with the same identifying arguments
(:func:`matching.same_query`: normalized, the step's ``accept`` values, any page size or page, no
extra filter) that got the same outcome (OK; or failing with the gold's API code when the call's
``tools.call_entry`` record is known, so a call that fails for another reason is no evidence). A
call asked with one of the step's ``accept`` values is another way to the same evidence (the
region without its province) and may come back OK.
A consumer's own call is no evidence of its producer when it was asked with the linked value
(any link but a page size) before an output had shown it: a code typed from memory whose answer
repeats the producer's record (kopa-065's itemSeq) leaves the producer unretrieved.

This is how an unanswerable task's evidence steps (``call:<step>`` in ``required_state``: the
region lookup that finds nothing, the meal call for a date with no meals) are judged: success
needs the refusal fact and every evidence step retrieved, and ENVIRONMENT is defined for them.

Axes (one dict per sample; ``None`` = undefined for this task, left out of means):

- ``answer``: mean fact score over required facts (:func:`matching.score_answer`).
- ``call_f1``: F1 of a maximum one-to-one matching of the agent's API calls to all gold calls: the
  same tool, an OK answer (a refused call is no gold call; a gold step that fails on purpose needs
  the same failure), and the gold arguments (:func:`gold_arguments`) or, for a needed step, a call
  that alone shows every record it needs. Repeats and extra calls lower precision. A diagnostic,
  success does not read it.
- ``chain``: share of data-flow links between needed steps the agent realized: both retrieved, and
  a call asking for the consumer's rows made after the producer's records its arguments read had
  been shown (or after the producer's gold call; its query, for a link that reads ``totalCount``).
  A value typed from memory, a producer asked later, or one asked at a page without the linked
  record realizes nothing. Without links: share of needed steps retrieved; None when nothing is
  needed. Success does not read it (order is not required of the state; UNCERTAIN: the paper
  gives no formula).
- ``env``: share of required state reached: ``token:<platform>`` (auth tool called and an OK
  call on that platform, or a needed failing step there retrieved with the gold's error code), ``records:<step>`` for every needed step, and the task's own
  ``pages:``/``call:`` entries. None when the task needs no state (an unanswerable task with no
  evidence step: private data no API holds).
  Never 1.0 for zero calls on a task that needs calls.
- ``parallel``: over the waves of the gold plan with 2+ independent needed steps, how far the
  agent issued them in one assistant turn ((largest same-turn group - 1) / (wave size - 1),
  averaged). None when the gold has no independent calls or no turns were given.
- ``efficiency``: the gold plan's calls (steps, optional ones included, + auth calls) over calls
  made (capped at 1); on a task that needs no call, 1.0 for no call and 0 for any (a wasted call);
  ``calls``, ``errors``: counts.
- ``success`` (by outcome): every required fact holds and is *grounded*
  (:mod:`kopa_inspect.scorers.grounding`): the records its own gold steps read were shown by OK
  calls of the run (:func:`fact_needs`), by any route; the session tokens of those steps' platforms
  were obtained; and the task's own ``pages:``/``call:``/``token:`` state is reached (an unanswerable
  task's evidence). Lookups that only fed arguments, the order of calls and their page sizes do not
  gate it: ``chain``, ``env`` and ``call_f1`` report them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kopa_inspect import matching
from kopa_inspect.apis import get_operation, platforms
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import Backend
from kopa_inspect.execution import DEFAULT_MAX_CHARS, DEFAULT_MAX_ITEMS, Session
from kopa_inspect.plans import SESSION_STEP, Plan, PlanRun, Ref, execute_plan, refs_in
from kopa_inspect.scorers.grounding import (
    GoldStep,
    MadeCall,
    StepNeed,
    asks_the_question,
    gold_arguments,
    rows_shown,
    step_grounded,
)
from kopa_inspect.scorers.grounding import own_params as _own_params
from kopa_inspect.task_data.schema import AnswerFact, resolve_value


class Gradable(Protocol):
    """What grading reads of a task: a KOPA-Bench task, or an EDGE trajectory graded as a GRPO
    episode (:class:`Episode`)."""

    @property
    def plan(self) -> Plan: ...
    @property
    def facts(self) -> Sequence[AnswerFact]: ...
    @property
    def required_state(self) -> Sequence[str]: ...
    @property
    def query(self) -> str: ...
    @property
    def query_en(self) -> str: ...
    @property
    def clock(self) -> str | None: ...


@dataclass(frozen=True)
class Episode:
    """A plan and its facts graded outside the benchmark (an EDGE row as a GRPO episode): no state
    beyond what the plan needs, the user's question as the model read it."""

    plan: Plan
    facts: Sequence[AnswerFact]
    clock: str | None = None
    query: str = ""
    query_en: str = ""
    required_state: Sequence[str] = ()


AXES: tuple[str, ...] = ("success", "answer", "call_f1", "chain", "env", "parallel", "efficiency", "calls", "errors")

Call = tuple[str, dict[str, Any]]


def token_params() -> set[str]:
    return {p.session_token_param for p in platforms().values() if p.session_token_param}


def strip_tokens(args: dict[str, Any]) -> dict[str, Any]:
    tokens = token_params()
    return {k: v for k, v in args.items() if k not in tokens}


# --- what the task needs -------------------------------------------------------------------------


def shown_items(output: dict[str, Any]) -> list[dict[str, Any]]:
    """The items a model is shown of an output (CallResult.for_model's cut: 100 items, 30k chars)."""
    out = dict(output)
    items = list(out.get("items") or [])
    out["items"] = items[:DEFAULT_MAX_ITEMS]
    while len(json.dumps(out, ensure_ascii=False)) > DEFAULT_MAX_CHARS and len(out["items"]) > 1:
        out["items"] = out["items"][: max(1, len(out["items"]) // 2)]
    return [i for i in out["items"] if isinstance(i, dict)]


def _expr_steps(expr: Any, step_ids: set[str]) -> dict[str, set[str]]:
    """step id -> top-level output fields an expression reads (``items``, ``totalCount`` ...)."""
    out: dict[str, set[str]] = {}
    if not isinstance(expr, str) or not expr.startswith("$"):
        return out
    if expr.startswith("$_."):
        for sid in step_ids:
            for m in re.finditer(rf"(?<![\w.$'\"]){re.escape(sid)}(?![\w])(?:\.(\w+))?", expr[3:]):
                out.setdefault(sid, set()).add(m.group(1) or "")
        return out
    ref = Ref.parse(expr)
    if ref is not None and ref.ref in step_ids:
        first = re.match(r"[\w]+", ref.path or "")
        out.setdefault(ref.ref, set()).add(first.group(0) if first else "")
    return out


def needed_steps(task: Gradable) -> list[str]:
    """Gold steps the task needs (see the module docstring), in plan order."""
    steps = {s.id: s for s in task.plan.steps}
    ids = set(steps)
    direct: set[str] = set()
    for f in task.facts:
        if f.required:
            for expr in [f.value, *(f.keys or [])]:
                direct |= set(_expr_steps(expr, ids))
    for item in task.required_state:
        kind, _, name = item.partition(":")
        if kind in ("pages", "call") and name in ids:
            direct.add(name)
    needed: set[str] = set()
    todo = [s for s in direct if steps[s].required]
    while todo:
        sid = todo.pop()
        if sid in needed:
            continue
        needed.add(sid)
        todo.extend(d for d in steps[sid].depends_on() if d in steps and steps[d].required)
    return [s.id for s in task.plan.steps if s.id in needed]


def _dependents(task: Gradable, sid: str, needed: set[str]) -> tuple[list[Any], bool]:
    """Expressions (fact values, link Refs) that read step ``sid``, and whether one reads a
    non-item field of it."""
    ids = {s.id for s in task.plan.steps}
    exprs: list[Any] = []
    query = False
    for f in task.facts:
        if not f.required:
            continue
        for expr in [f.value, *(f.keys or [])]:
            fields = _expr_steps(expr, ids).get(sid)
            if fields is not None:
                exprs.append(expr)
                query |= any(x != "items" for x in fields)
    for s in task.plan.steps:
        if s.id not in needed:
            continue
        for r in refs_in(s.args):
            if r.ref == sid:
                exprs.append(r)
                first = re.match(r"[\w]+", r.path or "")
                query |= (first.group(0) if first else "") != "items"
    return exprs, query


def _evaluate(expr: Any, outputs: dict[str, dict[str, Any]]) -> str:
    try:
        value = expr.resolve(outputs) if isinstance(expr, Ref) else resolve_value(expr, outputs)
    except Exception as exc:  # noqa: BLE001 - a reference that breaks without the item is a dependence
        return f"<error {type(exc).__name__}>"
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


_AGGREGATE = re.compile(r"\b(?:max|min|max_by|min_by|sort_by|avg|sum)\s*\(")
_FIGURE = re.compile(r"\s*[-+]?[\d,]*\d(?:\.\d+)?\s*")


def _perturbed(item: dict[str, Any], big: bool) -> dict[str, Any]:
    """The item with every figure set far above (or to zero below) any real value."""
    out: dict[str, Any] = {}
    for k, v in item.items():
        if isinstance(v, int | float) and not isinstance(v, bool):
            out[k] = 10**15 if big else 0
        elif isinstance(v, str) and _FIGURE.fullmatch(v):
            out[k] = str(10**15) if big else "0"
        else:
            out[k] = v
    return out


def _needed_indices(exprs: list[Any], outputs: dict[str, dict[str, Any]], sid: str, n_shown: int) -> set[int]:
    """Indices of the shown items of step ``sid`` the expressions depend on.

    An item is needed when removing it, or (for a max/min/sum/avg over the items) pushing its
    figures to either end, changes an expression's value: so a maximum needs every candidate,
    not only the winner. Found by group testing (a block that changes nothing holds no needed
    item), O(needed x log n) evaluations instead of one per item."""
    output = outputs[sid]
    items = list(output.get("items") or [])
    base = [_evaluate(e, outputs) for e in exprs]
    ranks = any(isinstance(e, str) and _AGGREGATE.search(e) for e in exprs)

    def changed(lo: int, hi: int) -> bool:
        variants = [items[:lo] + items[hi:]]
        if ranks:  # the perturbations first: under an aggregate they are what usually changes it
            variants = [items[:lo] + [_perturbed(x, big) for x in items[lo:hi]] + items[hi:] for big in (True, False)]
            variants.append(items[:lo] + items[hi:])
        for variant in variants:
            trial = {**outputs, sid: {**output, "items": variant}}
            if any(_evaluate(e, trial) != b for e, b in zip(exprs, base, strict=True)):
                return True
        return False

    found: set[int] = set()

    def search(lo: int, hi: int) -> None:
        if lo >= hi or not changed(lo, hi):
            return
        if hi - lo == 1:
            found.add(lo)
            return
        if hi - lo <= 8:  # small blocks one by one: cheaper than halving when most items count
            found.update(i for i in range(lo, hi) if changed(i, i + 1))
            return
        mid = (lo + hi) // 2
        search(lo, mid)
        search(mid, hi)

    search(0, min(n_shown, len(items)))
    return found


def step_needs(task: Gradable, run: PlanRun) -> dict[str, StepNeed]:
    """For each needed step, the records its dependents read (by ablation on the gold output)."""
    needed = needed_steps(task)
    out: dict[str, StepNeed] = {}
    for sid in needed:
        step = next(s for s in task.plan.steps if s.id == sid)
        if step.expect_error:
            out[sid] = StepNeed(frozenset(), True)
            continue
        exprs, query = _dependents(task, sid, set(needed))
        output = run.outputs.get(sid, {})
        shown = shown_items(output)
        if not exprs:  # a required_state page: every record shown there
            recs = frozenset(matching.record_fingerprint(i) for i in shown)
            out[sid] = StepNeed(recs, not recs)
            continue
        items = list(output.get("items") or [])
        keep = {matching.record_fingerprint(items[i]) for i in _needed_indices(exprs, run.outputs, sid, len(shown))}
        out[sid] = StepNeed(frozenset(keep), query or not keep)
    ids = {s.id for s in task.plan.steps}
    for sid, need in list(out.items()):
        if need.records or sid not in out or next(s for s in task.plan.steps if s.id == sid).expect_error:
            continue
        exprs, reads_fields = _dependents(task, sid, set(needed))
        if reads_fields or not exprs:
            continue
        siblings: set[str] = set()
        for e in exprs:
            if isinstance(e, str):
                siblings |= {x for x in _expr_steps(e, ids) if x != sid and x in out and out[x].records}
        if siblings and all(isinstance(e, str) for e in exprs):
            out[sid] = StepNeed(frozenset(), False, frozenset(siblings))
    return out


def fact_needs(task: Gradable, run: PlanRun) -> dict[str, dict[str, StepNeed]]:
    """Per required fact (refusals aside): for each needed gold step its value or keys read, the
    records that fact alone depends on (the ablation of :func:`step_needs`, on the fact's own
    expressions), or the query where it reads a non-item field. What grounds the fact
    (:func:`grounding.step_grounded`); the lookups that fed those steps are not among them."""
    needed = set(needed_steps(task))
    steps = {s.id: s for s in task.plan.steps}
    ids = set(steps)
    out: dict[str, dict[str, StepNeed]] = {}
    for f in task.facts:
        if not f.required or f.matcher == "refusal":
            continue
        exprs = [e for e in [f.value, *(f.keys or [])] if e is not None]
        reads: dict[str, set[str]] = {}
        for e in exprs:
            for sid, fields in _expr_steps(e, ids).items():
                reads.setdefault(sid, set()).update(fields)
        per: dict[str, StepNeed] = {}
        for sid, fields in reads.items():
            if sid not in needed:
                continue
            if steps[sid].expect_error:
                per[sid] = StepNeed(frozenset(), True)
                continue
            output = run.outputs.get(sid, {})
            items = list(output.get("items") or [])
            found = sorted(_needed_indices(exprs, run.outputs, sid, len(shown_items(output))))
            keep = frozenset(matching.record_fingerprint(items[i]) for i in found)
            rows = tuple(items[i] for i in found)
            text = " ".join(e for e in exprs if isinstance(e, str))
            read = frozenset(k for r in rows for k in r if re.search(rf"(?<![\w]){re.escape(k)}(?![\w])", text))
            per[sid] = StepNeed(keep, any(x != "items" for x in fields) or not keep, rows=rows, fields=read)
        for sid, need in list(per.items()):
            siblings = frozenset(x for x, n in per.items() if x != sid and n.records)
            if not need.records and not (reads[sid] - {"items"}) and not steps[sid].expect_error and siblings:
                per[sid] = StepNeed(frozenset(), False, siblings)
        out[f.id] = per
    return out


def link_needs(task: Gradable, run: PlanRun, needs: dict[str, StepNeed]) -> dict[tuple[str, str], StepNeed]:
    """Per link (producer, consumer) between needed steps: the producer's shown records the
    consumer's arguments depend on (same ablation as :func:`step_needs`, on that link's references
    only), and whether a reference reads a non-item field (``totalCount``: the query itself)."""
    steps = {s.id: s for s in task.plan.steps}
    out: dict[tuple[str, str], StepNeed] = {}
    for p, c, _ in task.plan.links():
        if p == SESSION_STEP or p not in needs or c not in needs or (p, c) in out:
            continue
        if steps[p].expect_error:
            out[(p, c)] = StepNeed(frozenset(), True)
            continue
        refs = [r for r in refs_in(steps[c].args) if r.ref == p]
        query = False
        for r in refs:
            first = re.match(r"[\w]+", r.path or "")
            query |= (first.group(0) if first else "") != "items"
        output = run.outputs.get(p, {})
        items = list(output.get("items") or [])
        keep = frozenset(
            matching.record_fingerprint(items[i])
            for i in _needed_indices(list(refs), run.outputs, p, len(shown_items(output)))
        )
        out[(p, c)] = StepNeed(keep, query or not keep)
    return out


# --- gold truth ----------------------------------------------------------------------------------


@dataclass
class GoldTruth:
    run: PlanRun
    expected: dict[str, Any]
    calls: list[Call]  # per gold step, in plan order, token args removed
    context: dict[str, dict[str, Any]] = field(default_factory=dict)  # resolved subject/competitors/...
    needs: dict[str, StepNeed] = field(default_factory=dict)  # needed step id -> what it must deliver
    # per gold step (plan order): its accept lists resolved against the gold outputs
    accepts: list[dict[str, list[Any]]] = field(default_factory=list)
    # per data-flow link (producer, consumer) between needed steps: the producer's records (and
    # whether its query) the consumer's arguments read (:func:`link_needs`)
    links: dict[tuple[str, str], StepNeed] = field(default_factory=dict)
    # per required fact: what its own gold steps must have shown for it to be grounded (:func:`fact_needs`)
    facts: dict[str, dict[str, StepNeed]] = field(default_factory=dict)

    def accept_of(self, index: int) -> dict[str, list[Any]] | None:
        return (self.accepts[index] or None) if index < len(self.accepts) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "expected": self.expected,
            "calls": [{"tool": t, "args": a} for t, a in self.calls],
            "needed_steps": sorted(self.needs),
            "accepts": {i: a for i, a in enumerate(self.accepts) if a},
        }


async def gold_truth(task: Gradable, backend: Backend, seed: int = 0) -> GoldTruth:
    """Run the gold plan (raises PlanError when a gold step fails) and resolve every fact."""
    session = Session(backend, clock=task.clock, seed=seed)
    run = await execute_plan(task.plan, session)
    expected = {f.id: f.resolve(run.outputs) for f in task.facts}
    # a value's other names in its own gold row (corp_name / corp_eng_name) are no alternative to it:
    # "삼성전자 또는 SAMSUNG ELECTRONICS" names one company twice (matching.name_hedged's aliases)
    context = matching.with_row_aliases(fact_context(task, run.outputs), expected, run.outputs)
    calls = [(s.tool, strip_tokens(run.args[s.id])) for s in task.plan.steps]
    accepts = [s.resolve_accept(run.outputs) for s in task.plan.steps]
    needs = step_needs(task, run)
    return GoldTruth(run, expected, calls, context, needs, accepts, link_needs(task, run, needs),
                     fact_needs(task, run))


def fact_context(task: Gradable, outputs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per fact: subject, competitors, accept and keys resolved against the gold outputs. A max/min
    fact without explicit competitors gets every other candidate of its aggregate
    (:func:`matching.competitor_expr`)."""
    context = {f.id: f.resolve_context(outputs) for f in task.facts}
    for f in task.facts:
        # a max/min fact without explicit competitors: every other candidate of the aggregate is one
        expr = matching.competitor_expr(f.value) if f.matcher not in ("refusal", "set", "dish_set", "date_set") else None
        if expr and not context[f.id].get("competitors") and not f.subject:
            try:
                found = resolve_value(expr, outputs)
            except Exception:  # noqa: BLE001 - an expression that does not resolve gives no competitors
                found = None
            if isinstance(found, list):
                flat = [x for x in found if x is not None and not isinstance(x, dict | list)]
                context[f.id]["competitors"] = flat or None
    return context


# --- the grade -----------------------------------------------------------------------------------


@dataclass
class Grade:
    success: float
    answer: float
    call_f1: float
    chain: float | None
    env: float | None
    parallel: float | None
    efficiency: float
    calls: float
    errors: float
    missing: list[str] = field(default_factory=list)
    fact_scores: dict[str, float] = field(default_factory=dict)

    def values(self) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for k in AXES:
            v = getattr(self, k)
            out[k] = None if v is None else float(v)
        return out

    def explanation(self) -> str:
        head = ", ".join(f"{k}={'undefined' if v is None else f'{v:.3g}'}" for k, v in self.values().items())
        if not self.missing:
            return head + "\nall facts and required state reached"
        return head + "\nmissing:\n" + "\n".join(f"- {m}" for m in self.missing)


def _auth_names() -> set[str]:
    return {auth_tool_name(p.id) for p in platforms().values() if p.session_token_param}


def _short(value: Any, n: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


def turns_from_messages(messages: list[Any]) -> list[list[dict[str, Any]]]:
    """The tool calls of each assistant turn, in order (duck-typed: ``role``, ``tool_calls`` with
    ``function`` and ``arguments``; no Inspect import). Turns without tool calls are left out."""
    turns: list[list[dict[str, Any]]] = []
    for m in messages:
        if getattr(m, "role", None) != "assistant":
            continue
        tcs = getattr(m, "tool_calls", None) or []
        if tcs:
            turns.append([{"tool": tc.function, "args": dict(tc.arguments or {})} for tc in tcs])
    return turns


def _same_call(a: dict[str, Any], tool: str, args: dict[str, Any]) -> bool:
    return a["tool"] == tool and matching.normalize_args(strip_tokens(a.get("args") or {})) == matching.normalize_args(
        strip_tokens(args)
    )


def _attach(calls: list[dict[str, Any]], entries: list[dict[str, Any]] | None, key: str) -> list[Any]:
    """Per call, ``key`` of the matching entry (same tool and arguments, one-to-one, in order)."""
    out: list[Any] = [c.get(key) for c in calls]
    if not entries:
        return out
    used: set[int] = set()
    for i, c in enumerate(calls):
        if out[i] is not None:
            continue
        for j, e in enumerate(entries):
            # A failed call takes no code from an answered record: a token-less call Inspect refused
            # left no record, and stripped of tokens it looks like the keyed call that followed.
            if j in used or ("ok" in c and "ok" in e and bool(c["ok"]) != bool(e["ok"])):
                continue
            if _same_call(e, c["tool"], c.get("args") or {}):
                used.add(j)
                out[i] = e.get(key)
                break
    return out


def _api_codes(calls: list[dict[str, Any]], entries: list[dict[str, Any]] | None) -> list[str | None]:
    """Per call, the API's result code (``INFO-3``, ``03`` ...) from its ``tools.call_entry`` record
    (the call itself when it is one, else the matching entry of ``entries``); None when unknown
    (calls read from messages carry only ok / the error type)."""
    own = [c.get("code") if "records" in c else None for c in calls]
    bare = [{k: v for k, v in c.items() if k != "code"} for c in calls]
    found = _attach(bare, entries, "code")
    return [o if o is not None else f for o, f in zip(own, found, strict=True)]


def _turn_of_calls(calls: list[dict[str, Any]], turns: list[list[dict[str, Any]]]) -> list[int | None]:
    flat = [(t, c) for t, turn in enumerate(turns) for c in turn]
    used: set[int] = set()
    out: list[int | None] = []
    for c in calls:
        hit = None
        for k, (t, fc) in enumerate(flat):
            if k not in used and _same_call(fc, c["tool"], c.get("args") or {}):
                used.add(k)
                hit = t
                break
        out.append(hit)
    return out


def grade(
    task: Gradable,
    gold: GoldTruth,
    answer: str,
    calls: list[dict[str, Any]],
    tokens: set[str] | None = None,
    *,
    turns: list[list[dict[str, Any]]] | None = None,
    records: list[dict[str, Any]] | None = None,
    outputs: list[str] | None = None,
) -> Grade:
    """Grade a run from its final answer and its calls.

    ``calls``: every tool call in order (``tool``, ``args``, ``ok``; ``records`` when they are
    ``tools.call_entry`` dicts). ``records``: the sample's ``tools.call_entry`` log, whose record
    fingerprints are attached to ``calls`` by tool and arguments. ``turns``: the calls grouped by
    assistant turn (:func:`turns_from_messages`), for the ``parallel`` axis. ``outputs``: the tool
    outputs the model read (their records ground a fact shown in another form, :func:`grounding.same_row`).
    """
    missing: list[str] = []
    auth = _auth_names()
    tokens = set(tokens or ())
    tokens |= {c["tool"][: -len("_get_api_key")] for c in calls if c["tool"] in auth}
    api_calls = [c for c in calls if c["tool"] not in auth]
    # an argument the operation does not have never reaches the API's answer: left out
    made: list[Call] = [(c["tool"], _own_params(c["tool"], strip_tokens(c.get("args") or {}))) for c in api_calls]
    made_ok = [bool(c.get("ok")) for c in api_calls]
    made_records = [set(r or ()) for r in _attach(api_calls, records, "records")]
    made_codes = _api_codes(api_calls, records)
    made_keyed = [bool(set(c.get("args") or {}) & token_params()) for c in api_calls]
    made_totals = _attach(api_calls, records, "total_count")
    view = [MadeCall(t, a, ok, frozenset(r), tc if isinstance(tc, int) else None, code)
            for (t, a), ok, r, tc, code in zip(made, made_ok, made_records, made_totals, made_codes, strict=True)]

    # RESPONSE: the facts.
    # the question as the model may have read it: the English run shows the gloss beside the query,
    # so a refusal may repeat either one's names and figures
    question = f"{task.query}\n{task.query_en}"
    fact_scores = matching.score_answer(task.facts, gold.expected, answer, question=question, context=gold.context)
    for f in task.facts:
        if f.required and fact_scores[f.id] < 1.0:
            missing.append(f"fact {f.id} ({f.description}): expected {_short(gold.expected.get(f.id))}")
    required_facts = [f for f in task.facts if f.required]
    answer_score = sum(fact_scores[f.id] for f in required_facts) / len(required_facts) if required_facts else 1.0
    facts_ok = all(fact_scores[f.id] >= 1.0 for f in required_facts)

    steps = task.plan.steps
    index = {s.id: i for i, s in enumerate(steps)}
    needs = gold.needs

    # Needed steps whose gold answer holds no record (an error such as NODATA, or OK with no rows):
    # "every needed record was shown" would hold vacuously, so only the gold question itself
    # retrieves them: the same identifying arguments (normalized, ``accept`` values, any page size
    # or page), never a narrower or another one (dinner only, another school, an extra filter).
    empty = {sid for sid in needs if steps[index[sid]].expect_error or not gold.run.outputs.get(sid, {}).get("items")}

    def _same_failure(i: int, sid: str, args: dict[str, Any], m_args: dict[str, Any], accept: Any) -> bool:
        """A failing call that asked the gold question (any page size) and got the gold's error
        (when the API code is known): a call that fails for another reason (a bad page number
        beside the right arguments) is no evidence. A call asked with a step's ``accept`` value
        (another way to show the same, e.g. the region without its province) may also come back
        OK."""
        code, want = made_codes[i], gold.run.codes.get(sid)
        same_code = code is None or want is None or code == want
        # A step scripted to fail for want of its session token (kopa-035's e1) is that failure only
        # when the call, too, leaves the token out (through Inspect it is refused before the API).
        if not set(steps[index[sid]].args) & token_params() and made_keyed[i]:
            return False
        may_add = steps[index[sid]].may_add
        if asks_the_question(args, m_args, may_add=may_add):
            return not made_ok[i] and same_code
        return asks_the_question(args, m_args, accept, may_add) and (made_ok[i] or same_code)

    def same_tool_outcome(i: int, k: int) -> bool | None:
        """The checks :func:`covers` and ``f1_pair`` share, made call i against gold call k: another
        tool is no match; a gold step that fails on purpose is matched only by the same failure
        (:func:`_same_failure`); otherwise a refused call is no match. None: an OK call to the same
        tool, for the caller's own checks."""
        name, args = gold.calls[k]
        if made[i][0] != name:
            return False
        if steps[k].expect_error:
            return _same_failure(i, steps[k].id, args, made[i][1], gold.accept_of(k))
        if not made_ok[i]:
            return False
        return None

    def covers(i: int, sid: str) -> bool:
        """Does made call i deliver (part of) gold step sid?"""
        first = same_tool_outcome(i, index[sid])
        if first is not None:
            return first
        name, args = gold.calls[index[sid]]
        m_args = made[i][1]
        accept = gold.accept_of(index[sid])
        if sid in empty:
            return asks_the_question(args, m_args, accept, steps[index[sid]].may_add)
        if gold_arguments(name, args, m_args, accept):
            return True
        need = needs.get(sid)
        if need is None:
            return False
        if need.records and made_records[i] & need.records:
            return True
        if need.via and any(made_records[i] & needs[v].records for v in need.via):
            return True
        return need.query and matching.same_query(args, m_args, accept=accept)

    def same_tool_ok(sid: str) -> list[bool]:
        name, args = gold.calls[index[sid]]
        accept = gold.accept_of(index[sid])
        return [
            made_ok[i] and matching.same_query(args, m_args, accept=accept) for i, (t, m_args) in enumerate(made) if t == name
        ]

    tainted: dict[str, set[int]] = {}  # per producer step: consumer calls that cannot show it (below)

    def retrieved(sid: str) -> bool:
        step = steps[index[sid]]
        name, args = gold.calls[index[sid]]
        accept = gold.accept_of(index[sid])
        ok_same_tool = [i for i, (t, _) in enumerate(made) if t == name and i not in tainted.get(sid, ())]
        if step.expect_error or sid in empty:
            return any(covers(i, sid) for i in ok_same_tool)
        if any(made_ok[i] and gold_arguments(name, args, made[i][1], accept) for i in ok_same_tool):
            return True
        need = needs[sid]
        if need.via and not need.records and not need.query:
            return any(same_tool_ok(sid)) or all(retrieved(v) for v in need.via)
        got: set[str] = set().union(*(made_records[i] for i in ok_same_tool if made_ok[i])) if ok_same_tool else set()
        query_ok = any(made_ok[i] and matching.same_query(args, made[i][1], accept=accept) for i in ok_same_tool)
        if need.records:
            return need.records <= got and (not need.query or query_ok)
        return query_ok

    needed = [s.id for s in steps if s.id in needs]
    covering = {sid: [i for i in range(len(made)) if covers(i, sid)] for sid in needed}

    # chain: links between needed steps, realized when the consumer was asked (some call covering
    # it) after the producer's records that its arguments read had been shown (OK calls to the
    # producer's tool before it), or after a call with the producer's gold arguments; a link that
    # reads the producer's query (totalCount) needs that query asked before. A value typed from
    # memory, or a producer asked only later or at a page without the linked record, realizes nothing.
    def fed_before(p: int, link: StepNeed | None, j: int) -> bool:
        sid = steps[p].id
        if link is None or steps[p].expect_error or sid in empty:
            return any(i < j for i in covering[sid])
        name, args = gold.calls[p]
        accept = gold.accept_of(p)
        # a consumer call asked with a remembered value (tainted below) feeds nothing either
        prior = [i for i in range(j) if made[i][0] == name and made_ok[i] and i not in tainted.get(sid, ())]
        if any(gold_arguments(name, args, made[i][1], accept) for i in prior):
            return True
        got: set[str] = set().union(*(made_records[i] for i in prior)) if prior else set()
        if not link.records <= got:
            return False
        return not link.query or any(matching.same_query(args, made[i][1], accept=accept) for i in prior)

    def consumer_calls(sid: str) -> list[int]:
        """Calls that asked for the consumer's own rows: covering it by its gold arguments or by
        showing its records; the same query at another page counts only where the step needs no
        record (a count)."""
        need = needs.get(sid)
        if need is None or not need.records or sid in empty or steps[index[sid]].expect_error:
            return covering[sid]
        name, args = gold.calls[index[sid]]
        accept = gold.accept_of(index[sid])
        return [i for i in covering[sid] if made_records[i] & need.records
                or gold_arguments(name, args, made[i][1], accept)]

    # A consumer's own call is no evidence of its producer when it was asked with the linked value
    # before any output had shown it (an item code typed from memory: the consumer's answer repeats
    # the producer's record). Paging links (a page size taken from a count) carry no such value.
    for p, c, arg in task.plan.links():
        if p == SESSION_STEP or p not in needs or c not in needs or arg in matching.PAGING_ARGS:
            continue
        value = matching.normalize_value(gold.run.args.get(c, {}).get(arg))
        p_name, p_args = gold.calls[index[p]]
        for j in consumer_calls(c):
            if (matching.normalize_value(made[j][1].get(arg)) == value
                    and not gold_arguments(p_name, p_args, made[j][1], gold.accept_of(index[p]))
                    and not fed_before(index[p], gold.links.get((p, c)), j)):
                tainted.setdefault(p, set()).add(j)
    covering = {sid: [i for i in cov if i not in tainted.get(sid, ())] for sid, cov in covering.items()}
    done = {sid: retrieved(sid) for sid in needed}
    first_cover = {sid: (cov[0] if cov else None) for sid, cov in covering.items()}

    # ACTION (diagnostic): gold calls matched one-to-one to OK calls (a call the API refused is no
    # gold call, unless the gold step itself fails on purpose and the call fails the same way).
    def f1_pair(k: int, i: int) -> bool:
        first = same_tool_outcome(i, k)
        if first is not None:
            return first
        name, args = gold.calls[k]
        sid, accept = steps[k].id, gold.accept_of(k)
        if gold_arguments(name, args, made[i][1], accept):
            return True
        # another page size or equivalent query that alone shows what the step delivers
        need = needs.get(sid)
        if need is None:
            return False
        if sid in empty or not need.records:
            return matching.same_query(args, made[i][1], accept=accept)
        return need.records <= made_records[i] and (
            not need.query or matching.same_query(args, made[i][1], accept=accept))

    f1 = _pair_f1(len(gold.calls), len(made), f1_pair)

    links = []
    for p, c, _ in task.plan.links():
        if p != SESSION_STEP and p in needs and c in needs and (p, c) not in links:
            links.append((p, c))
    if links:
        realized = 0
        for p, c in links:
            link = gold.links.get((p, c))
            if done[p] and done[c] and any(fed_before(index[p], link, j) for j in consumer_calls(c)):
                realized += 1
        chain: float | None = realized / len(links)
    else:
        chain = sum(done.values()) / len(needed) if needed else None

    # ENVIRONMENT: tokens, records of needed steps, the task's pages/call entries.
    state: list[str] = []
    for s in steps:
        if s.id in needs:
            for p in sorted(s.session_platforms()):
                if f"token:{p}" not in state:
                    state.append(f"token:{p}")
    for item in task.required_state:
        if item.startswith("token:") and item not in state:
            state.append(item)
    for sid in needed:
        state.append(f"records:{sid}")
    reached = 0
    reached_item: dict[str, bool] = {}
    for item in state:
        kind, _, name = item.partition(":")
        if kind == "token":
            # the token was obtained and used: an OK call on the platform, or a needed failing step
            # there retrieved with the gold's own error (a call without the token fails otherwise)
            ok = name in tokens and (
                any(made_ok[i] and _known(t) and get_operation(t).platform == name for i, (t, _) in enumerate(made))
                or any(
                    done.get(sid) and steps[index[sid]].expect_error and _known(steps[index[sid]].tool)
                    and get_operation(steps[index[sid]].tool).platform == name
                    for sid in needed
                )
            )
        else:
            ok = done.get(name, False)
        reached_item[item] = bool(ok)
        if ok:
            reached += 1
        else:
            if kind == "records":
                step = steps[index[name]]
                missing.append(f"records of {name}: {step.tool}({_short(gold.calls[index[name]][1], 200)})")
            else:
                missing.append(f"state {item}")
    env = reached / len(state) if state else None

    # parallel: independent needed steps issued in one assistant turn.
    parallel: float | None = None
    waves = [
        [s.id for s in wave if s.id in needs and not s.expect_error] for wave in task.plan.levels()
    ]
    waves = [w for w in waves if len(w) > 1]
    if waves and turns is not None:
        turn_of = _turn_of_calls(api_calls, turns)
        scores = []
        for w in waves:
            groups: dict[Any, int] = {}
            for k, sid in enumerate(w):
                i = first_cover[sid]
                t = turn_of[i] if i is not None else None
                key = t if t is not None else ("alone", k)
                groups[key] = groups.get(key, 0) + 1
            scores.append((max(groups.values()) - 1) / (len(w) - 1))
        parallel = sum(scores) / len(scores)

    n_gold = len(needed) + sum(1 for x in state if x.startswith("token:"))
    n_made = len(calls)
    # The gold plan's calls over calls made (capped at 1): its optional steps (a lookup the agent may
    # skip, the scripted failing call of an error-recovery task) are calls a careful agent makes too,
    # so the gold trajectory itself scores 1.0. On a task that needs no call (an unanswerable task
    # without evidence steps) every call is a wasted one: 0 for any call, 1.0 for none. UNCERTAIN:
    # the paper reports "tool-call efficiency" with no formula (shared/reference/paper.md).
    if n_gold == 0:
        efficiency = 1.0 if n_made == 0 else 0.0
    else:
        n_ref = n_gold + sum(1 for s in steps if s.id not in needs)
        efficiency = 0.0 if n_made == 0 else min(1.0, n_ref / n_made)
    errors = sum(1 for ok in made_ok if not ok)

    # SUCCESS by outcome: every required fact right and grounded (its own gold steps' records shown
    # by OK calls of this run, whatever the route), the tokens of those steps' platforms, and the
    # task's own required state (pages, an unanswerable task's evidence calls, listed tokens).
    grounded_ok, platforms_used = True, set()
    seen_rows = rows_shown(outputs or [])
    for fid, per in gold.facts.items():
        for sid, need in per.items():
            step = steps[index[sid]]
            if step.expect_error or sid in empty:
                ok = done.get(sid, False)
            elif need.via and not need.records and not need.query:
                ok = any(same_tool_ok(sid)) or all(
                    step_grounded(per[v], _gold_step(gold, index[v], steps[index[v]]), view, seen_rows)
                    for v in need.via)
            else:
                ok = step_grounded(need, _gold_step(gold, index[sid], step), view, seen_rows)
            if _known(step.tool):
                platforms_used.add(get_operation(step.tool).platform)
            if not ok:
                grounded_ok = False
                missing.append(f"fact {fid} not grounded: no OK call showed what {sid} "
                               f"({step.tool}) shows for it")
    own_state = {f"records:{x.partition(':')[2]}" for x in task.required_state if x.startswith(("pages:", "call:"))}
    state_ok = all(
        reached_item.get(item, False) for item in state
        if item in own_state or item in task.required_state
        or (item.startswith("token:") and item[len("token:"):] in platforms_used)
    )
    success = 1.0 if facts_ok and grounded_ok and state_ok else 0.0
    return Grade(
        success=success,
        answer=answer_score,
        call_f1=f1,
        chain=chain,
        env=env,
        parallel=parallel,
        efficiency=efficiency,
        calls=float(n_made),
        errors=float(errors),
        missing=missing,
        fact_scores=fact_scores,
    )


def _gold_step(gold: GoldTruth, k: int, step: Any) -> GoldStep:
    output = gold.run.outputs.get(step.id, {})
    total = output.get("totalCount")
    return GoldStep(
        tool=gold.calls[k][0], args=gold.calls[k][1], accept=gold.accept_of(k),
        shown=frozenset(matching.record_fingerprint(i) for i in shown_items(output)),
        total_count=int(total) if isinstance(total, int | str) and str(total).isdigit() else None,
        may_add=step.may_add or None,
    )


def _pair_f1(n_gold: int, n_made: int, pair: Any) -> float:
    """F1 of a maximum one-to-one matching of gold calls to made calls (``pair(k, i)``: may gold
    call k be made call i). Augmenting paths, so a call that fits two gold steps is given to the
    one nothing else fits."""
    if n_gold == 0 and n_made == 0:
        return 1.0
    if n_gold == 0 or n_made == 0:
        return 0.0
    fits = [[i for i in range(n_made) if pair(k, i)] for k in range(n_gold)]
    owner: dict[int, int] = {}

    def place(k: int, seen: set[int]) -> bool:
        for i in fits[k]:
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or place(owner[i], seen):
                owner[i] = k
                return True
        return False

    matched = sum(place(k, set()) for k in range(n_gold))
    p, r = matched / n_made, matched / n_gold
    return 2 * p * r / (p + r) if matched else 0.0


def _known(op_id: str) -> bool:
    try:
        get_operation(op_id)
    except KeyError:
        return False
    return True


# --- the oracle's answer -------------------------------------------------------------------------

_DURATION_WORDS = {"s": "초", "sec": "초", "min": "분", "h": "시간"}


def _shown_value(f: Any, value: Any, language: str) -> str:
    """A fact's value written the way a careful model would say it."""
    if value is None:
        return "-"
    m = f.matcher
    if m == "time":
        digits = re.sub(r"\D", "", str(value)).zfill(4)
        return f"{digits[:2]}:{digits[2:4]}"
    if m == "month":
        digits = re.sub(r"\D", "", str(value))
        return f"{digits[:4]}-{digits[4:6]}" if language == "en" else f"{digits[:4]}년 {int(digits[4:6])}월"
    if m == "date_set":
        days = [matching.to_date(v) for v in (value if isinstance(value, list) else [value])]
        return ", ".join(d.isoformat() for d in days if d is not None)
    if m == "duration":
        return f"{value}{_DURATION_WORDS.get(f.unit or 's', '초')}"
    if m in ("money", "number") and f.unit in ("원", "만원", "천원", "억원") and not isinstance(value, list):
        return f"{value}{f.unit}"
    if m == "code_label" and f.labels in matching.CODE_TABLES:
        table = matching.CODE_TABLES[f.labels]
        key = str(value).strip()
        num = matching.to_number(key)
        if key not in table and num is not None and float(num).is_integer():
            key = str(int(num))
        return table[key][0] if key in table else str(value)
    if m == "dish_set":
        return ", ".join(matching.dishes(value))
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    text = re.sub(r"<[^>]+>", " ", str(value))  # HTML in drug texts ("<p>...</p>") is no part of the answer
    return re.sub(r"\s+", " ", text).strip()


def oracle_answer(
    task: Gradable,
    expected: dict[str, Any],
    language: str = "ko",
    context: dict[str, dict[str, Any]] | None = None,
    outputs: dict[str, dict[str, Any]] | None = None,
) -> str:
    """A final answer that states every expected fact in the structured section
    (:data:`kopa_inspect.solvers.prompts.ANSWER_HEADER_KO` / ``_EN``), used by the oracle provider.

    Each line's label is the fact's subject (when it has one) and description; a "which one" fact's
    label carries a superlative marker so the line is read as the claim. ``context`` (resolved
    subjects ...) or the gold ``outputs`` to resolve it from are needed when a subject is a
    ``$`` reference."""
    from kopa_inspect.solvers.prompts import ANSWER_HEADER_EN, ANSWER_HEADER_KO

    facts = list(task.facts)
    if facts and all(f.matcher == "refusal" for f in facts):
        if language == "en":
            return "This cannot be answered with the available tools: no API provides this information."
        return "제공된 도구로는 이 질문에 답할 수 없습니다. 해당 정보를 제공하는 API가 없습니다."
    if context is None and outputs is not None:  # subjects given as references need the outputs
        context = fact_context(task, outputs)
    context = context or {}
    lines = []
    for f in facts:
        ctx = context.get(f.id, {})
        subject = ctx.get("subject") or (f.subject if f.subject and not f.subject.startswith("$") else None)
        # API field names ("EIGHT_RIDE_NUM", "fcstValue") read as a pasted listing: left out
        label = re.sub(r"\(?\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b\)?", " ", f.description)
        label = re.sub(r"\s+", " ", label).strip() or f.id
        if subject and matching.normalize_name(subject) not in matching.normalize_name(label):
            label = f"{subject} {label}"
        winner = bool(ctx.get("competitors")) or bool(matching.infer_competitors(f.value, expected.get(f.id)))
        if winner and not matching._MARKER.search(matching._FIELD_WORDS.sub(" ", label)):
            label += " (1위)"
        label = label.replace(":", " ")
        lines.append(f"- {label}: {_shown_value(f, expected.get(f.id), language)}")
    head = ANSWER_HEADER_EN if language == "en" else ANSWER_HEADER_KO
    return head + "\n" + "\n".join(lines)
