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
from dataclasses import dataclass, field
from typing import Any

from kopa_inspect import matching
from kopa_inspect.backends import Backend
from kopa_inspect.execution import Session
from kopa_inspect.plans import SESSION_STEP, PlanError, PlanRun, Ref, execute_plan, refs_in
from kopa_inspect.scorers import axes
from kopa_inspect.scorers.answer_sets import full_answer_set
from kopa_inspect.scorers.gradable import Episode, Gradable
from kopa_inspect.scorers.grounding import (
    GoldStep,
    StepNeed,
    gold_arguments,
    shown_items,
    strip_tokens,
    token_params,
)
from kopa_inspect.scorers.run_view import run_view, turns_from_messages
from kopa_inspect.task_data.schema import resolve_value

# Re-exported: where grading's users have always found them.
__all__ = [
    "AXES",
    "Episode",
    "GoldTruth",
    "Gradable",
    "Grade",
    "StepNeed",
    "fact_context",
    "fact_needs",
    "gold_arguments",
    "gold_truth",
    "grade",
    "link_needs",
    "needed_steps",
    "oracle_answer",
    "shown_items",
    "step_needs",
    "strip_tokens",
    "token_params",
    "turns_from_messages",
]


AXES: tuple[str, ...] = (
    "success",
    "answer",
    "call_f1",
    "chain",
    "env",
    "parallel",
    "efficiency",
    "calls",
    "errors",
)

Call = tuple[str, dict[str, Any]]


# --- what the task needs -------------------------------------------------------------------------


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
        path = ref.path or ""
        first = re.match(r"[\w]+", path)
        if first and path[first.end() :].lstrip().startswith("("):
            # a function over the output ("max(nums(items[].pm10Value))") reads the fields it is given
            fields = set(re.findall(r"(?<![\w.&'\"])(items|totalCount|pageNo|numOfRows)\b", path))
            out.setdefault(ref.ref, set()).update(fields or {""})
        else:
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
            variants = [
                items[:lo] + [_perturbed(x, big) for x in items[lo:hi]] + items[hi:] for big in (True, False)
            ]
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
            out[sid] = StepNeed(recs, not recs, rows=tuple(shown))
            continue
        items = list(output.get("items") or [])
        keep = {
            matching.record_fingerprint(items[i])
            for i in _needed_indices(exprs, run.outputs, sid, len(shown))
        }
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


def _expression_needs(
    exprs: list[Any], run: PlanRun, steps: dict[str, Any], within: set[str] | None
) -> dict[str, StepNeed]:
    """Per gold step the expressions read (those in ``within`` when given): the records they alone
    depend on (the ablation of :func:`step_needs`), or the query where they read a non-item field."""
    reads: dict[str, set[str]] = {}
    for e in exprs:
        for sid, fields in _expr_steps(e, set(steps)).items():
            reads.setdefault(sid, set()).update(fields)
    per: dict[str, StepNeed] = {}
    for sid, fields in reads.items():
        if within is not None and sid not in within:
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
    return per


def fact_needs(task: Gradable, run: PlanRun) -> dict[str, dict[str, StepNeed]]:
    """Per required fact (refusals aside): for each needed gold step its value or keys read, the
    records that fact alone depends on (the ablation of :func:`step_needs`, on the fact's own
    expressions), or the query where it reads a non-item field. What grounds the fact
    (:func:`grounding.step_grounded`); the lookups that fed those steps are not among them."""
    needed = set(needed_steps(task))
    steps = {s.id: s for s in task.plan.steps}
    out: dict[str, dict[str, StepNeed]] = {}
    for f in task.facts:
        if not f.required or f.matcher == "refusal":
            continue
        exprs = [e for e in [f.value, *(f.keys or [])] if e is not None]
        out[f.id] = _expression_needs(exprs, run, steps, needed)
    return out


def fact_alternatives(
    task: Gradable, run: PlanRun, expected: dict[str, Any]
) -> dict[str, list[dict[str, StepNeed]]]:
    """Per required fact with ``also_from`` sources: what each source's gold steps must have shown
    (:func:`_expression_needs`). A source that does not give the fact's own value on the gold run
    grounds nothing and is left out."""
    steps = {s.id: s for s in task.plan.steps}
    out: dict[str, list[dict[str, StepNeed]]] = {}
    for f in task.facts:
        if not f.required or not f.also_from:
            continue
        for ref in f.also_from:
            try:
                value = resolve_value(ref, run.outputs)
            except PlanError:
                continue
            if matching.normalize_value(value) != matching.normalize_value(expected.get(f.id)):
                continue
            per = _expression_needs([ref], run, steps, None)
            if per:
                out.setdefault(f.id, []).append(per)
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

    # per gold step id: every record its question has over all pages, for the steps whose count a
    # fact or state reads (:mod:`.answer_sets`)
    full_sets: dict[str, frozenset[str]] = field(default_factory=dict)
    # per required fact: its ``also_from`` sources, each what its own gold steps must have shown
    # (:func:`fact_alternatives`); any one grounds the fact as well as ``facts`` does
    alternatives: dict[str, list[dict[str, StepNeed]]] = field(default_factory=dict)

    # per gold step index: what its call asked and its output showed (:meth:`step_view`), built once
    _step_views: dict[int, GoldStep] = field(default_factory=dict, repr=False, compare=False)

    def accept_of(self, index: int) -> dict[str, list[Any]] | None:
        return (self.accepts[index] or None) if index < len(self.accepts) else None

    def step_view(self, k: int, step: Any) -> GoldStep:
        """Gold step ``k``'s call and what its output showed, for grounding (computed once: every
        grade of a run against this gold reads it per fact)."""
        if k not in self._step_views:
            output = self.run.outputs.get(step.id, {})
            total = output.get("totalCount")
            self._step_views[k] = GoldStep(
                tool=self.calls[k][0],
                args=self.calls[k][1],
                accept=self.accept_of(k),
                shown=frozenset(matching.record_fingerprint(i) for i in shown_items(output)),
                total_count=int(total) if isinstance(total, int | str) and str(total).isdigit() else None,
                may_add=step.may_add or None,
                full=self.full_sets.get(step.id),
            )
        return self._step_views[k]

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
    per_fact = fact_needs(task, run)
    counted = {sid for sid, n in needs.items() if n.query} | {
        sid for f in per_fact.values() for sid, n in f.items() if n.query
    }
    full_sets: dict[str, frozenset[str]] = {}
    for step in task.plan.steps:
        if step.id in counted and not step.expect_error and step.id in run.args:
            found = await full_answer_set(
                session, step.tool, dict(run.args[step.id]), run.outputs.get(step.id, {}).get("totalCount")
            )
            if found:
                full_sets[step.id] = found
    return GoldTruth(
        run,
        expected,
        calls,
        context,
        needs,
        accepts,
        link_needs(task, run, needs),
        per_fact,
        full_sets,
        fact_alternatives(task, run, expected),
    )


# facts whose value is a list (or a refusal): no aggregate's winner, no competitors or ties inferred
_LISTS = ("refusal", "set", "ranked_set", "dish_set", "date_set")


def fact_context(task: Gradable, outputs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per fact: subject, competitors, accept and keys resolved against the gold outputs. A max/min
    fact without explicit competitors gets every other candidate of its aggregate
    (:func:`matching.competitor_expr`)."""
    context = {f.id: f.resolve_context(outputs) for f in task.facts}
    for f in task.facts:
        # a max/min fact without explicit competitors: every other candidate of the aggregate is one
        expr = matching.competitor_expr(f.value) if f.matcher not in _LISTS else None
        if expr and not context[f.id].get("competitors") and not f.subject:
            try:
                found = resolve_value(expr, outputs)
            except Exception:  # noqa: BLE001 - an expression that does not resolve gives no competitors
                found = None
            if isinstance(found, list):
                flat = [x for x in found if x is not None and not isinstance(x, dict | list)]
                context[f.id]["competitors"] = flat or None
        if f.matcher not in _LISTS:
            ties = tied_with_winner(f.value, outputs)
            if ties:
                context[f.id]["ties"] = ties
                context[f.id]["tie_required"] = not matching.ORDER_BREAKS_TIE.search(task.query or "")
    return context


def tied_with_winner(value_expr: Any, outputs: dict[str, dict[str, Any]]) -> list[Any]:
    """The other candidates of a ``max_by``/``min_by`` pick whose ranking key equals the winner's
    (the pick itself takes the first of them, in list order)."""
    exprs = matching.tie_exprs(value_expr)
    if exprs is None:
        return []
    try:
        keys, values = resolve_value(exprs.keys, outputs), resolve_value(exprs.values, outputs)
    except Exception:  # noqa: BLE001 - an expression that does not resolve names no tie
        return []
    if not isinstance(keys, list) or not isinstance(values, list) or len(keys) != len(values):
        return []
    ranked = [
        (k, v)
        for k, v in zip(keys, values, strict=True)
        if isinstance(k, int | float | str) and k is not None
    ]
    if len(ranked) < 2:
        return []
    try:
        best = max(k for k, _ in ranked) if exprs.largest else min(k for k, _ in ranked)
    except TypeError:  # mixed key types: no order to tie in
        return []
    winner = next(v for k, v in ranked if k == best)
    out: list[Any] = []
    for k, v in ranked:
        if k == best and v != winner and v not in out and v is not None:
            out.append(v)
    return out


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
    """Grade a run from its final answer and its calls, one axis function each (:mod:`.axes`).

    ``calls``: every tool call in order (``tool``, ``args``, ``ok``; ``records`` when they are
    ``tools.call_entry`` dicts). ``records``: the sample's ``tools.call_entry`` log, whose record
    fingerprints are attached to ``calls`` by tool and arguments. ``turns``: the calls grouped by
    assistant turn (:func:`turns_from_messages`), for the ``parallel`` axis. ``outputs``: the tool
    outputs the model read (their records ground a fact shown in another form, :func:`grounding.same_row`).
    """
    run = run_view(calls, tokens, turns=turns, records=records, outputs=outputs)
    fact_scores, answer_score, missing = axes.answer_axis(
        task, gold, answer, "\n".join(outputs or []) or None
    )
    retrieval = axes.Retrieval(task, gold, run)
    state = axes.state_axis(retrieval)
    facts_ok = all(fact_scores[f.id] >= 1.0 for f in task.facts if f.required)
    success, ungrounded = axes.success_axis(retrieval, facts_ok, state)
    return Grade(
        success=1.0 if success else 0.0,
        answer=answer_score,
        call_f1=axes.call_f1_axis(retrieval),
        chain=axes.chain_axis(retrieval),
        env=state.env,
        parallel=axes.parallel_axis(retrieval),
        efficiency=axes.efficiency_axis(retrieval, state),
        calls=float(run.n_calls),
        errors=float(sum(1 for c in run.calls if not c.ok)),
        missing=missing + state.missing + ungrounded,
        fact_scores=fact_scores,
    )


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
    (:data:`kopa_inspect.matching.answer_view.ANSWER_HEADER_KO` / ``_EN``), used by the oracle provider.

    Each line's label is the fact's subject (when it has one) and description; a "which one" fact's
    label carries a superlative marker so the line is read as the claim. ``context`` (resolved
    subjects ...) or the gold ``outputs`` to resolve it from are needed when a subject is a
    ``$`` reference."""
    from kopa_inspect.matching.answer_view import ANSWER_HEADER_EN, ANSWER_HEADER_KO

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
        label = re.sub(
            r"\(?\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b\)?", " ", f.description
        )
        label = re.sub(r"\s+", " ", label).strip() or f.id
        # a subject with accepted variants ("2026년|2026|올해") is written in its first, unless the
        # label already says one
        forms = matching.accepted_variants(subject)
        if forms and not any(matching.normalize_name(x) in matching.normalize_name(label) for x in forms):
            label = f"{forms[0]} {label}"
        winner = bool(ctx.get("competitors")) or bool(matching.infer_competitors(f.value, expected.get(f.id)))
        if winner and not matching._MARKER.search(matching._FIELD_WORDS.sub(" ", label)):
            label += " (1위)"
        label = label.replace(":", " ")
        shown = _shown_value(f, expected.get(f.id), language)
        if ctx.get("ties") and ctx.get("tie_required"):  # the truth is the tied set: every member named
            tied = ", ".join([shown, *(_shown_value(f, t, language) for t in ctx["ties"])])
            shown = f"{tied} (tied)" if language == "en" else f"{tied} (공동 1위, 같은 값)"
        lines.append(f"- {label}: {shown}")
    head = ANSWER_HEADER_EN if language == "en" else ANSWER_HEADER_KO
    return head + "\n" + "\n".join(lines)
