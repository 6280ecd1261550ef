"""The grading axes, one function each, over a run (:class:`~.run_view.RunView`) and the gold
truth of its task (see :mod:`.grading` for each axis's definition).

:class:`Retrieval` answers, once per run, which made calls deliver which gold step and which
needed steps the run retrieved; ``call_f1``, ``chain`` and ``env`` read it, ``success`` reads
the facts' grounding (:mod:`.grounding`) and the state ``env`` reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kopa_inspect import matching
from kopa_inspect.apis import get_operation
from kopa_inspect.plans import SESSION_STEP
from kopa_inspect.scorers.gradable import Gradable
from kopa_inspect.scorers.grounding import (
    StepNeed,
    absence_shown,
    asks_the_question,
    gold_arguments,
    row_contained,
    step_grounded,
    token_params,
)
from kopa_inspect.scorers.run_view import RunView

if TYPE_CHECKING:
    from kopa_inspect.scorers.grading import GoldTruth


def short(value: Any, n: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


def known(op_id: str) -> bool:
    try:
        get_operation(op_id)
    except KeyError:
        return False
    return True


class Retrieval:
    """Which made calls deliver which gold steps, and which needed steps the run retrieved.

    A needed step is retrieved by the gold arguments, by the records its OK calls showed (any page
    size, filter or order), or, where it needs only the query, by the same question. A step whose
    gold answer holds no record (an error such as NODATA, or OK with no rows) is retrieved only by
    the gold question itself (the filters the user's question states may be added,
    ``PlanStep.may_add``), with the gold's own outcome. A consumer's call asked with a linked value
    before any output had shown it is no evidence of its producer (*tainted*)."""

    def __init__(self, task: Gradable, gold: GoldTruth, run: RunView) -> None:
        self.task, self.gold, self.run = task, gold, run
        self.steps = task.plan.steps
        self.index = {s.id: i for i, s in enumerate(self.steps)}
        self.needs: dict[str, StepNeed] = gold.needs
        self.made = run.made
        self.ok = [c.ok for c in run.calls]
        self.records = [set(c.records) for c in run.calls]
        self.codes = [c.code for c in run.calls]
        self.empty = {
            sid
            for sid in self.needs
            if self.steps[self.index[sid]].expect_error or not gold.run.outputs.get(sid, {}).get("items")
        }
        self.needed = [s.id for s in self.steps if s.id in self.needs]
        self.tainted: dict[str, set[int]] = {}
        self.covering = {
            sid: [i for i in range(len(self.made)) if self.covers(i, sid)] for sid in self.needed
        }
        self._taint()
        self.covering = {
            sid: [i for i in cov if i not in self.tainted.get(sid, ())] for sid, cov in self.covering.items()
        }
        self.done = {sid: self.retrieved(sid) for sid in self.needed}
        self.first_cover = {sid: (cov[0] if cov else None) for sid, cov in self.covering.items()}

    def same_failure(
        self, i: int, sid: str, args: dict[str, Any], m_args: dict[str, Any], accept: Any
    ) -> bool:
        """A failing call that asked the gold question (any page size) and got the gold's error
        (when the API code is known): a call that fails for another reason (a bad page number
        beside the right arguments) is no evidence. A call asked with a step's ``accept`` value
        (another way to show the same, e.g. the region without its province) may also come back
        OK."""
        step = self.steps[self.index[sid]]
        code, want = self.codes[i], self.gold.run.codes.get(sid)
        same_code = code is None or want is None or code == want
        # A step scripted to fail for want of its session token (kopa-035's e1) is that failure only
        # when the call, too, leaves the token out (through Inspect it is refused before the API).
        if not set(step.args) & token_params() and self.run.keyed[i]:
            return False
        if asks_the_question(args, m_args, may_add=step.may_add):
            return not self.ok[i] and same_code
        return asks_the_question(args, m_args, accept, step.may_add) and (self.ok[i] or same_code)

    def same_tool_outcome(self, i: int, k: int) -> bool | None:
        """The checks :meth:`covers` and ``call_f1``'s pairing share, made call i against gold call
        k: another tool is no match; a gold step that fails on purpose is matched only by the same
        failure; otherwise a refused call is no match. None: an OK call to the same tool, for the
        caller's own checks."""
        name, args = self.gold.calls[k]
        if self.made[i][0] != name:
            return False
        if self.steps[k].expect_error:
            return self.same_failure(i, self.steps[k].id, args, self.made[i][1], self.gold.accept_of(k))
        if not self.ok[i]:
            return False
        return None

    def covers(self, i: int, sid: str) -> bool:
        """Does made call i deliver (part of) gold step sid?"""
        k = self.index[sid]
        first = self.same_tool_outcome(i, k)
        if first is not None:
            return first
        name, args = self.gold.calls[k]
        m_args = self.made[i][1]
        accept = self.gold.accept_of(k)
        if sid in self.empty:
            return asks_the_question(args, m_args, accept, self.steps[k].may_add)
        if gold_arguments(name, args, m_args, accept):
            return True
        need = self.needs.get(sid)
        if need is None:
            return False
        if need.records and self.records[i] & need.records:
            return True
        if need.via and any(self.records[i] & self.needs[v].records for v in need.via):
            return True
        return need.query and matching.same_query(args, m_args, accept=accept)

    def same_tool_ok(self, sid: str) -> list[bool]:
        name, args = self.gold.calls[self.index[sid]]
        accept = self.gold.accept_of(self.index[sid])
        return [
            self.ok[i] and matching.same_query(args, m_args, accept=accept)
            for i, (t, m_args) in enumerate(self.made)
            if t == name
        ]

    def retrieved(self, sid: str) -> bool:
        k = self.index[sid]
        step = self.steps[k]
        name, args = self.gold.calls[k]
        accept = self.gold.accept_of(k)
        ok_same_tool = [
            i for i, (t, _) in enumerate(self.made) if t == name and i not in self.tainted.get(sid, ())
        ]
        if step.expect_error or sid in self.empty:
            return any(self.covers(i, sid) for i in ok_same_tool)
        if any(self.ok[i] and gold_arguments(name, args, self.made[i][1], accept) for i in ok_same_tool):
            return True
        need = self.needs[sid]
        if need.via and not need.records and not need.query:
            return any(self.same_tool_ok(sid)) or all(self.retrieved(v) for v in need.via)
        got: set[str] = (
            set().union(*(self.records[i] for i in ok_same_tool if self.ok[i])) if ok_same_tool else set()
        )
        query_ok = any(
            self.ok[i] and matching.same_query(args, self.made[i][1], accept=accept) for i in ok_same_tool
        )
        if need.records:
            return need.records <= got and (not need.query or query_ok)
        return query_ok

    def fed_before(self, p: int, link: StepNeed | None, j: int) -> bool:
        """Were producer step p's records that a link reads shown before made call j (or its gold
        arguments asked; its query, for a link that reads ``totalCount``)?"""
        sid = self.steps[p].id
        if link is None or self.steps[p].expect_error or sid in self.empty:
            return any(i < j for i in self.covering[sid])
        name, args = self.gold.calls[p]
        accept = self.gold.accept_of(p)
        # a consumer call asked with a remembered value (tainted) feeds nothing either
        prior = [
            i
            for i in range(j)
            if self.made[i][0] == name and self.ok[i] and i not in self.tainted.get(sid, ())
        ]
        if any(gold_arguments(name, args, self.made[i][1], accept) for i in prior):
            return True
        got: set[str] = set().union(*(self.records[i] for i in prior)) if prior else set()
        if not link.records <= got:
            return False
        return not link.query or any(matching.same_query(args, self.made[i][1], accept=accept) for i in prior)

    def consumer_calls(self, sid: str) -> list[int]:
        """Calls that asked for the consumer's own rows: covering it by its gold arguments or by
        showing its records; the same query at another page counts only where the step needs no
        record (a count)."""
        need = self.needs.get(sid)
        if need is None or not need.records or sid in self.empty or self.steps[self.index[sid]].expect_error:
            return self.covering[sid]
        name, args = self.gold.calls[self.index[sid]]
        accept = self.gold.accept_of(self.index[sid])
        return [
            i
            for i in self.covering[sid]
            if self.records[i] & need.records or gold_arguments(name, args, self.made[i][1], accept)
        ]

    def _taint(self) -> None:
        # A consumer's own call is no evidence of its producer when it was asked with the linked
        # value before any output had shown it (an item code typed from memory: the consumer's
        # answer repeats the producer's record). Paging links carry no such value.
        gold = self.gold
        for p, c, arg in self.task.plan.links():
            if p == SESSION_STEP or p not in self.needs or c not in self.needs or arg in matching.PAGING_ARGS:
                continue
            value = matching.normalize_value(gold.run.args.get(c, {}).get(arg))
            p_name, p_args = gold.calls[self.index[p]]
            for j in self.consumer_calls(c):
                if (
                    matching.normalize_value(self.made[j][1].get(arg)) == value
                    and not gold_arguments(p_name, p_args, self.made[j][1], gold.accept_of(self.index[p]))
                    and not self.fed_before(self.index[p], gold.links.get((p, c)), j)
                ):
                    self.tainted.setdefault(p, set()).add(j)

    def links(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for p, c, _ in self.task.plan.links():
            if p != SESSION_STEP and p in self.needs and c in self.needs and (p, c) not in out:
                out.append((p, c))
        return out


# --- the axes -------------------------------------------------------------------------------------


def answer_axis(
    task: Gradable, gold: GoldTruth, answer: str, shown: str | None = None
) -> tuple[dict[str, float], float, list[str]]:
    """Per-fact scores (:func:`matching.score_answer`), their mean over required facts, and a line
    per required fact missed. ``shown``: the tool outputs the agent read (a refusal may cite them)."""
    # the question as the model may have read it: the English run shows the gloss beside the query,
    # so a refusal may repeat either one's names and figures
    question = f"{task.query}\n{task.query_en}"
    scores = matching.score_answer(
        task.facts, gold.expected, answer, question=question, context=gold.context, shown=shown
    )
    required = [f for f in task.facts if f.required]
    missing = [
        f"fact {f.id} ({f.description}): expected {short(gold.expected.get(f.id))}"
        for f in required
        if scores[f.id] < 1.0
    ]
    mean = sum(scores[f.id] for f in required) / len(required) if required else 1.0
    return scores, mean, missing


def pair_f1(n_gold: int, n_made: int, pair: Callable[[int, int], bool]) -> float:
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


def call_f1_axis(r: Retrieval) -> float:
    """Gold calls matched one-to-one to OK calls (a call the API refused is no gold call, unless
    the gold step itself fails on purpose and the call fails the same way)."""
    gold = r.gold

    def pair(k: int, i: int) -> bool:
        first = r.same_tool_outcome(i, k)
        if first is not None:
            return first
        name, args = gold.calls[k]
        sid, accept = r.steps[k].id, gold.accept_of(k)
        if gold_arguments(name, args, r.made[i][1], accept):
            return True
        # another page size or equivalent query that alone shows what the step delivers
        need = r.needs.get(sid)
        if need is None:
            return False
        if sid in r.empty or not need.records:
            return matching.same_query(args, r.made[i][1], accept=accept)
        return need.records <= r.records[i] and (
            not need.query or matching.same_query(args, r.made[i][1], accept=accept)
        )

    return pair_f1(len(gold.calls), len(r.made), pair)


def chain_axis(r: Retrieval) -> float | None:
    """Links between needed steps realized: both retrieved, and a call asking for the consumer's
    rows made after the producer's linked records had been shown. Without links: the share of
    needed steps retrieved; None when nothing is needed."""
    links = r.links()
    if not links:
        return sum(r.done.values()) / len(r.needed) if r.needed else None
    realized = 0
    for p, c in links:
        link = r.gold.links.get((p, c))
        if r.done[p] and r.done[c] and any(r.fed_before(r.index[p], link, j) for j in r.consumer_calls(c)):
            realized += 1
    return realized / len(links)


@dataclass
class StateReach:
    items: list[str]  # token:<platform>, the task's token: entries, records:<step> per needed step
    reached: dict[str, bool] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)

    @property
    def env(self) -> float | None:
        return sum(self.reached.values()) / len(self.items) if self.items else None


def state_axis(r: Retrieval) -> StateReach:
    """The required state and how much of it the run reached (``env`` is its share)."""
    state: list[str] = []
    for s in r.steps:
        if s.id in r.needs:
            for p in sorted(s.session_platforms()):
                if f"token:{p}" not in state:
                    state.append(f"token:{p}")
    for item in r.task.required_state:
        if item.startswith("token:") and item not in state:
            state.append(item)
    state += [f"records:{sid}" for sid in r.needed]
    out = StateReach(state)
    for item in state:
        kind, _, name = item.partition(":")
        if kind == "token":
            # the token was obtained and used: an OK call on the platform, or a needed failing step
            # there retrieved with the gold's own error (a call without the token fails otherwise)
            ok = name in r.run.tokens and (
                any(
                    r.ok[i] and known(t) and get_operation(t).platform == name
                    for i, (t, _) in enumerate(r.made)
                )
                or any(
                    r.done.get(sid)
                    and r.steps[r.index[sid]].expect_error
                    and known(r.steps[r.index[sid]].tool)
                    and get_operation(r.steps[r.index[sid]].tool).platform == name
                    for sid in r.needed
                )
            )
        else:
            ok = r.done.get(name, False)
        out.reached[item] = bool(ok)
        if not ok:
            if kind == "records":
                step = r.steps[r.index[name]]
                out.missing.append(
                    f"records of {name}: {step.tool}({short(r.gold.calls[r.index[name]][1], 200)})"
                )
            else:
                out.missing.append(f"state {item}")
    return out


def parallel_axis(r: Retrieval) -> float | None:
    """Over the gold plan's waves of 2+ independent needed steps, how far the run issued them in
    one assistant turn; None without such waves or without turns."""
    waves = [[s.id for s in wave if s.id in r.needs and not s.expect_error] for wave in r.task.plan.levels()]
    waves = [w for w in waves if len(w) > 1]
    turn_of = r.run.turn_of
    if not waves or turn_of is None:
        return None
    scores = []
    for w in waves:
        groups: dict[Any, int] = {}
        for k, sid in enumerate(w):
            i = r.first_cover[sid]
            t = turn_of[i] if i is not None else None
            key = t if t is not None else ("alone", k)
            groups[key] = groups.get(key, 0) + 1
        scores.append((max(groups.values()) - 1) / (len(w) - 1))
    return sum(scores) / len(scores)


def efficiency_axis(r: Retrieval, state: StateReach) -> float:
    """The gold plan's calls (optional steps included, + auth calls) over calls made (capped at 1).

    Its optional steps (a lookup the agent may skip, the scripted failing call of an error-recovery
    task) are calls a careful agent makes too, so the gold trajectory itself scores 1.0. On a task
    that needs no call (an unanswerable task without evidence steps) every call is a wasted one: 0
    for any call, 1.0 for none. UNCERTAIN: the paper reports "tool-call efficiency" with no formula."""
    n_gold = len(r.needed) + sum(1 for x in state.items if x.startswith("token:"))
    n_made = r.run.n_calls
    if n_gold == 0:
        return 1.0 if n_made == 0 else 0.0
    n_ref = n_gold + sum(1 for s in r.steps if s.id not in r.needs)
    return 0.0 if n_made == 0 else min(1.0, n_ref / n_made)


def _shows_step(r: Retrieval, per: dict[str, StepNeed], sid: str) -> bool:
    """Did the run's OK calls show what gold step ``sid`` gives a fact (``per``: that fact's or
    source's needs)? A step that fails on purpose counts only as that failure; one with no record by
    the gold question or a wider one that showed all its rows (:func:`absence_shown`)."""
    step, need = r.steps[r.index[sid]], per[sid]
    view = r.gold.step_view(r.index[sid], step)
    if step.expect_error:
        return r.done.get(sid, False)
    if not r.gold.run.outputs.get(sid, {}).get("items"):
        return r.done.get(sid, False) or absence_shown(view, r.run.calls)
    if need.via and not need.records and not need.query:
        return (sid in r.needs and any(r.same_tool_ok(sid))) or all(_shows_step(r, per, v) for v in need.via)
    return step_grounded(need, view, r.run.calls, r.run.rows)


def _page_shown(r: Retrieval, sid: str) -> bool:
    """Every record of a page the task requires reached the agent, through any tool: by its
    fingerprint, or as a row holding all of its fields with the same values (another API version's
    view of it, which adds fields)."""
    items = [i for i in r.gold.run.outputs.get(sid, {}).get("items") or [] if isinstance(i, dict)]
    seen: set[str] = set().union(*r.records) if r.records else set()
    return bool(items) and all(
        matching.record_fingerprint(i) in seen or any(row_contained(i, s) for s in r.run.rows) for i in items
    )


def success_axis(r: Retrieval, facts_ok: bool, state: StateReach) -> tuple[bool, list[str]]:
    """Success by outcome: every required fact right and grounded (its own gold steps' records
    shown by OK calls of this run, whatever the route, or those of one of its ``also_from``
    sources), the tokens of those steps' platforms, and the task's own required state (pages, an
    unanswerable task's evidence calls, listed tokens)."""
    missing: list[str] = []
    grounded, platforms_used = True, set()
    for fid, per in r.gold.facts.items():
        unshown = [sid for sid in per if not _shows_step(r, per, sid)]
        if unshown and any(
            all(_shows_step(r, alt, sid) for sid in alt) for alt in r.gold.alternatives.get(fid, [])
        ):
            unshown = []
        for sid in per:
            if known(r.steps[r.index[sid]].tool):
                platforms_used.add(get_operation(r.steps[r.index[sid]].tool).platform)
        for sid in unshown:
            grounded = False
            missing.append(
                f"fact {fid} not grounded: no OK call showed what {sid} ({r.steps[r.index[sid]].tool}) "
                "shows for it"
            )
    required_state: Sequence[str] = r.task.required_state
    own = {f"records:{x.partition(':')[2]}" for x in required_state if x.startswith(("pages:", "call:"))}

    def reached(item: str) -> bool:
        if state.reached.get(item, False):
            return True
        sid = item.partition(":")[2]
        if not item.startswith("records:") or sid in r.empty or r.steps[r.index[sid]].expect_error:
            return False
        # a page the task requires, shown in another form (another endpoint's or version's view of
        # the same rows, other page sizes)
        return step_grounded(
            r.needs[sid], r.gold.step_view(r.index[sid], r.steps[r.index[sid]]), r.run.calls, r.run.rows
        ) or (item in own and _page_shown(r, sid))

    state_ok = all(
        reached(item)
        for item in state.items
        if item in own
        or item in required_state
        or (item.startswith("token:") and item[len("token:") :] in platforms_used)
    )
    return facts_ok and grounded and state_ok, missing
