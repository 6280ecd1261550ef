"""Phase B.1: sample executable plans (walks and small DAGs of 2-8 calls) over verified links.

A plan grows one junction at a time and each new call is executed *before* it is kept, so a
sampled plan is executable by construction (composition executes it again from scratch, and the
filter a third time). Junction types, by what flows through them:

- SEQ: one code value from one row feeds the next call (``$s1.items[0].region_cd[:5]``);
- SEM: a name/text value feeds the next call (a station name, an apartment name);
- FAN: k rows of one output each feed a parallel call of the same tool (one wave);
- DRV: a value derived from many rows feeds the next call (the row with the largest x);
- CMP: two parallel calls whose results the answer compares;
- COND: a condition a person has (conditions.py: field, threshold with a reason, two branches)
  decides which of two calls comes next (the taken branch is in the plan; the query states both).

Balance is decided by the trajectory index alone (start platform, the junction order and target
length cycle with the index), never by what earlier trajectories produced, so shards and resumed
runs sample exactly what one uninterrupted run samples. SEM and CMP junctions succeed less often
than SEQ (they need a name link or two comparable outputs), so the junction order asks for them
more often (``JUNCTION_ORDER``).

What a later step may take besides its links (the user must be able to know every argument):
a value the clock gives (today, last month, the latest KMA issue time), an enum value or the
schema default, or a name the user can say (a station, a region); never a code from the value
pool (a school code or a corp code nobody mentioned). A link whose value just echoes one of the
producer's own arguments (LAWD_CD in, sggCd out) carries nothing and is not used.
"""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from typing import Any

from edge_synth.askable import asks_anything, is_askable, picks_by
from edge_synth.clock import is_clock_value
from edge_synth.conditions import conditions_for
from edge_synth.describe import row_label
from edge_synth.draft import CODE_LIKE, COUNT, Draft, Junction, numeric, numeric_fields, visible_count
from edge_synth.facts import make_facts
from edge_synth.fields import (
    concept,
    data_params,
    is_name_like,
    is_plumbing,
    norm,
    param_format,
)
from edge_synth.graph import Edge, LinkGraph
from edge_synth.lexicon import region_names
from edge_synth.natural import COUNTABLE, true_count
from edge_synth.pool import RADIUS_M, ValuePool, key_of
from edge_synth.runner import call
from edge_synth.validity import NAMED_TAKERS, found_by_search, partial, unnarrowed_page
from edge_synth.verify import _present
from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.backends import Backend
from kopa_inspect.execution import Session
from kopa_inspect.plans import SESSION_STEP, PlanError, PlanRun, PlanStep, resolve_args

JUNCTIONS = ("SEQ", "FAN", "DRV", "SEM", "CMP", "COND")
# The order junctions are asked for, cycled from an index-dependent offset (SEM twice, CMP three
# times: a comparison needs two named rows with different results, and fails most often).
JUNCTION_ORDER = ("SEM", "CMP", "SEQ", "DRV", "SEM", "CMP", "FAN", "CMP", "COND")
MIN_CALLS, MAX_CALLS = 2, 8


class Sampler:
    def __init__(
        self,
        graph: LinkGraph,
        pool: ValuePool,
        backend: Backend,
        *,
        seed: int,
        clock: str | None,
        excluded_platforms: tuple[str, ...] = (),
        banned_links: set[tuple[str, str, str]] | frozenset = frozenset(),
    ) -> None:
        self.graph = graph
        self.pool = pool
        self.backend = backend
        self.seed = seed
        self.clock = clock
        self.excluded = set(excluded_platforms)
        # (producer tool, consumer tool, argument) links of KOPA-Bench gold plans: never sampled,
        # so training data and benchmark share no link (the paper's link Jaccard of 0.0).
        self.banned = set(banned_links)
        ops = [n for n in sorted(graph.g.nodes) if get_operation(n).platform not in self.excluded]
        self.starts = [
            n for n in ops if self._outs(n) and pool.fillable(get_operation(n)) and not says_a_grid_cell(n)
        ]
        self.platforms = sorted({get_operation(n).platform for n in self.starts})

    def _outs(self, op_id: str) -> list[Edge]:
        return [
            e
            for e in self.graph.out_edges(op_id)
            if get_operation(e.consumer).platform not in self.excluded
            and (e.producer, e.consumer, e.param) not in self.banned
        ]

    def plan_shape(self, index: int) -> tuple[str, str, int]:
        """(start platform, first junction, target calls), cycling with the index for balance."""
        plat = self.platforms[(index // len(JUNCTIONS)) % len(self.platforms)] if self.platforms else ""
        junction = JUNCTION_ORDER[index % len(JUNCTION_ORDER)]
        target = MIN_CALLS + (index * 5 + index // 7) % (MAX_CALLS - MIN_CALLS + 1)
        return plat, junction, target

    async def sample(self, index: int) -> tuple[Draft | None, str]:
        """A draft plan for trajectory ``index`` or (None, why not)."""
        rng = random.Random(f"{self.seed}|sample|{index}")
        if not self.starts:
            return None, "no_start"
        plat, first, target = self.plan_shape(index)
        starts = [s for s in self.starts if get_operation(s).platform == plat] or self.starts
        why = "start_failed"
        for _restart in range(2):  # a start whose rows feed nothing is replaced once
            draft, why = await self._grow(index, rng, starts, first, target)
            if draft is not None:
                return draft, "ok"
        return None, why

    async def _grow(
        self, index: int, rng: random.Random, starts: list[str], first: str, target: int
    ) -> tuple[Draft | None, str]:
        session = Session(self.backend, clock=self.clock, seed=self.seed)
        draft = Draft(index)
        for _attempt in range(5):
            op_id = rng.choice(starts)
            args = self.pool.fill(get_operation(op_id), rng)
            if args is None:
                continue
            if _attempt < 4 and rng.random() < 0.6:
                args = {**args, **self.optional_filter(get_operation(op_id), rng)}
            if not all(self.person_says(op_id, get_operation(op_id).param(k), v) for k, v in args.items()):
                continue  # a content id or a HIRA code from the pool: nothing a person starts with
            if await self._add(draft, session, PlanStep(id="s1", tool=op_id, args=args)):
                break
        else:
            return None, "start_failed"
        pos = JUNCTION_ORDER.index(first)
        failures = 0
        while draft.n_calls < target and failures < 8:
            wanted = JUNCTION_ORDER[pos % len(JUNCTION_ORDER)]
            ok = await self._extend(draft, session, rng, wanted, target)
            if not ok:
                failures += 1
                if draft.n_calls == 1 and failures >= 6:
                    break  # this start feeds nothing that works: give up on it early
            pos += 1 + rng.randrange(2)
        if draft.n_calls < MIN_CALLS:
            return None, "too_short"
        if not has_fact(draft) and not await self._mend(draft, session, rng):
            return None, "no_askable_leaf"
        return draft, "ok"

    async def _mend(self, draft: Draft, session: Session, rng: random.Random) -> bool:
        """A walk whose leaves hold nothing a person asks (it ended on a grid-cell lookup, a corp-code
        list, a list of rows none of which can be named) would be composed, executed and dropped
        (``no_askable_fact``). Instead: go one step further from the silent leaf, to an operation
        that has something to ask (up to two tries, within MAX_CALLS); failing that, take the silent
        last step back while the walk keeps MIN_CALLS calls. True when the walk now has a fact."""
        for jtype in ("SEM", "SEQ"):
            if draft.n_calls >= MAX_CALLS:
                break
            if await self._extend(draft, session, rng, jtype, draft.n_calls + 1, anchor=draft.steps[-1].id):
                if has_fact(draft):
                    return True
                self._drop_last(draft)
        while draft.n_calls > MIN_CALLS and self._drop_last(draft):
            if has_fact(draft):
                return True
        return False

    def _drop_last(self, draft: Draft) -> bool:
        """Take back the last call if it is a leaf that only its own junction feeds (a SEQ/SEM/DRV/COND
        step; one consumer of a FAN or CMP would break that junction). False if it cannot be."""
        last = draft.steps[-1].id
        feeding = [j for j in draft.junctions if last in j.consumers]
        if any(j.producer == last for j in draft.junctions) or any(len(j.consumers) != 1 for j in feeding):
            return False
        draft.junctions = [j for j in draft.junctions if last not in j.consumers]
        self._rollback(draft, [last])
        return True

    async def _add(self, draft: Draft, session: Session, step: PlanStep) -> bool:
        platform = get_platform(get_operation(step.tool).platform)
        if platform.session_token_param:
            # The auth-tool trap: the plan passes "$session.<platform>", issued before the call.
            step.args[platform.session_token_param] = f"${SESSION_STEP}.{platform.id}"
            if platform.id not in session.tokens:
                session.issue_token(platform.id)
        try:
            args = resolve_args(step.args, {**draft.outputs, SESSION_STEP: dict(session.tokens)})
        except PlanError:
            return False
        key = json.dumps([step.tool, args], ensure_ascii=False, sort_keys=True, default=str)
        if key in draft.call_keys.values():
            return False  # the same call twice adds nothing to a plan
        res, verdict = await call(session, step.tool, args)
        if verdict.outcome != "ok":
            return False
        if partial(res.output()) and (bigger := whole_page(step.tool, args, res.output())) is not None:
            # one page of a short list (19 departments, 10 shown): ask for the whole list (a page size is
            # request plumbing), so that "the department with the most specialists" is over all of them
            res2, verdict2 = await call(session, step.tool, {**args, **bigger})
            if verdict2.outcome == "ok" and not partial(res2.output()):
                step.args.update(bigger)
                args = {**args, **bigger}
                key = json.dumps([step.tool, args], ensure_ascii=False, sort_keys=True, default=str)
                res = res2
        draft.steps.append(step)
        draft.outputs[step.id] = res.output()
        draft.call_keys[step.id] = key
        draft.args[step.id] = args
        return True

    def _args(
        self,
        edge: Edge,
        ref_item: int | str,
        producer: str,
        items: list[dict[str, Any]],
        row: dict[str, Any],
        rng: random.Random,
    ) -> dict[str, Any] | None:
        """Consumer arguments: the link's reference, co-links from the same row, the rest from the pool."""
        args: dict[str, Any] = {edge.param: edge.ref(producer, ref_item)}
        for co in self._outs(edge.producer):
            if co.consumer == edge.consumer and co.param not in args and _present(row.get(co.field)):
                args[co.param] = co.ref(producer, ref_item)
        op = get_operation(edge.consumer)
        literal = self.pool.fill(op, rng, {k: "_" for k in args})
        if literal is None:
            return None
        for k, v in literal.items():
            if k not in args and not self.knowable_literal(op.id, op.param(k), v):
                return None  # a value the user never gave and no result holds
        return {**{k: v for k, v in literal.items() if k not in args}, **args}

    def optional_filter(self, op: Any, rng: random.Random) -> dict[str, Any]:
        """One optional filter of a start call (a school name, an address) from the value pool.

        A start without required inputs returns the same rows every time, so every plan from it
        repeats; a filter the user states (the query names it) varies where the chain begins."""
        opts = [
            p
            for p in data_params(op)
            if not p.required and not p.enum and p.type == "string" and self.pool.by_key.get(key_of(p.name))
        ]
        if not opts:
            return {}
        p = rng.choice(opts)
        vals = sorted({str(self.pool.records[i][key_of(p.name)]) for i in self.pool.by_key[key_of(p.name)]})
        vals = [v for v in vals if v.strip() and len(v) <= 30]
        return {p.name: rng.choice(vals)} if vals else {}

    def knowable_literal(self, op_id: str, p: Any, value: Any) -> bool:
        """May a later step pass ``value`` for ``p`` without a link? (clock, enum, default, a name)."""
        if p is None or is_plumbing(p):
            return True
        if p.enum and str(value) in {str(x) for x in p.enum}:
            return True
        if p.default is not None and str(value) == str(p.default):
            return True
        if is_clock_value(self.pool.clock_vals, op_id, param_format(p), value):
            return True
        if concept(p.name) == "radius" and str(value) == str(RADIUS_M):
            return True  # the query states the radius ("반경 2000m")
        return is_name_like(p.name, p.description) and not str(value).isdigit()

    def person_says(self, op_id: str, p: Any, value: Any) -> bool:
        """Could a person state ``value`` for ``p`` in a question? Names and words, today's or last
        month's date, an enum or the default, and region codes (said with the region's name,
        "서울특별시 노원구(11350)"); not an internal id or another system's code."""
        text = str(value).strip()
        if p is None or is_plumbing(p) or re.search(r"[가-힣\s]", text):
            return True  # a name, an address, a word
        # A code, a number or a token (a content id, "731Y001", an encrypted ykiho) only where the
        # user knows it: an enum value, the default, today's date, a district's code.
        if p.enum or (p.default is not None and str(value) == str(p.default)):
            return True
        if is_clock_value(self.pool.clock_vals, op_id, param_format(p), value):
            return True
        return concept(p.name) == "lawd5" and str(value) in region_names()

    @staticmethod
    def echo_values(draft: Draft, step_id: str) -> set[str]:
        """The literal values a step was called with: a link that hands one back echoes."""
        return {str(v) for v in draft.args.get(step_id, {}).values() if not isinstance(v, dict | list)}

    async def _extend(
        self,
        draft: Draft,
        session: Session,
        rng: random.Random,
        jtype: str,
        target: int,
        anchor: str | None = None,
    ) -> bool:
        # Mostly extend the last call (walks); sometimes an earlier one (small DAGs).
        if anchor is None:
            anchor = (
                draft.steps[-1].id if rng.random() < 0.7 or draft.n_calls == 1 else rng.choice(draft.steps).id
            )
        items = draft.outputs[anchor]["items"]
        anchor_op = draft.step(anchor).tool
        shown = visible_count(anchor_op, draft.args[anchor], draft.outputs[anchor])
        if shown < len(items) and jtype == "DRV":
            return False  # "the largest" over rows the model cannot all see is not answerable
        if jtype == "DRV" and partial(draft.outputs[anchor]):
            return False  # "the largest" of one page of a longer list: nobody's question (partial_pick)
        if jtype in NAMED_TAKERS and len(items) > 1 and found_by_search(draft, anchor):
            # a row of a list found around another row's place or point cannot be named by the user
            # (validity.py, named_pick_after_chain): from such a list only a measure picks (DRV)
            return False
        if jtype in NAMED_TAKERS and unnarrowed_page(draft, anchor):
            # a row named from one page of a longer list the user did not narrow (no place, month or
            # name of theirs): they could not know it (validity.py, named_from_unnarrowed_list)
            return False
        items = items[:shown]
        echo = self.echo_values(draft, anchor)

        def fresh(it: dict[str, Any], e: Edge) -> bool:
            v = it.get(e.field)
            return _present(v) and str(v) not in echo and str(_sliced(v, e)) not in echo

        edges = [e for e in self._outs(anchor_op) if any(fresh(it, e) for it in items[:10])]
        if jtype == "SEM":
            edges = [e for e in edges if e.kind == "name"] or []
        elif jtype == "CMP":
            # Two results are compared on a measure: a consumer that only looks something up
            # (KMA's grid table: codes, coordinates) has none, and would spend the junction.
            edges = [e for e in edges if may_compare(e.consumer)]
        elif jtype in ("SEQ", "DRV"):
            edges = [e for e in edges if e.kind != "name"] or edges
        if target - draft.n_calls <= (1 if jtype in ("SEQ", "SEM", "DRV", "COND") else 3) and jtype != "CMP":
            # The walk ends here: end it where a person has something to ask (askable.py), not on a
            # lookup whose row would be dropped for want of a question. (A CMP's facts are its own.)
            edges = [e for e in edges if asks_anything(e.consumer)] or edges
        if not edges:
            return False
        # Links found by name or alias carry meaning; format-only links (any YYYYMMDD into any date
        # parameter) are executable but often arbitrary, so they are sampled less.
        edge = rng.choices(edges, weights=[link_weight(e) for e in edges])[0]
        new_id = f"s{draft.n_calls + 1}"
        rows = [i for i, it in enumerate(items[:10]) if fresh(it, edge)]
        room = target - draft.n_calls

        if jtype in ("SEQ", "SEM"):
            # A row taken from several is one the user can name ("'석촌호수'"); a position ("the
            # ninth row") is nothing a person asks about. A single row needs no name.
            if (
                len(items) > 1
            ):  # a name unique in the whole list (the grammar reads it there), not only in the rows shown
                rows = [
                    i
                    for i in rows
                    if row_label(anchor_op, items[i], draft.outputs[anchor]["items"]) is not None
                ]
            if not rows:
                return False
            j = rng.choice(rows)
            args = self._args(edge, j, anchor, items, items[j], rng)
            if args is None or not await self._add(
                draft, session, PlanStep(id=new_id, tool=edge.consumer, args=args)
            ):
                return False
            draft.junctions.append(Junction(jtype, anchor, [new_id], edge.id, {"item": j}))
            return True

        if jtype == "DRV":
            # "the hospital with the most doctors", "the nearest stop": a measure a person picks by
            nums = [
                f
                for f in numeric_fields(items, op_id=anchor_op)
                if f != edge.field and picks_by(anchor_op, f)
            ]
            if nums:
                f = rng.choice(nums)
                how = rng.choice(["max_by", "min_by"])
                expr = f"{how}(items, &to_number({f}))"
                vals = [numeric(it[f]) for it in items]
                best_v = (max if how == "max_by" else min)(v for v in vals if v is not None)
                if sum(v == best_v for v in vals) != 1:
                    return False  # a tie: "the largest" would name two rows
                best = items[vals.index(best_v)]
                if not fresh(best, edge):
                    return False
                args = self._args(edge, expr, anchor, items, best, rng)
                detail: dict[str, Any] = {"reduce": how, "by": f}
            elif edge.slice:
                j = rows[0]
                args = self._args(edge, j, anchor, items, items[j], rng)
                detail = {"derive": "slice", "slice": list(edge.slice), "item": j}
            else:
                return False
            if args is None or not await self._add(
                draft, session, PlanStep(id=new_id, tool=edge.consumer, args=args)
            ):
                return False
            draft.junctions.append(Junction("DRV", anchor, [new_id], edge.id, detail))
            return True

        if jtype in ("FAN", "CMP"):
            tries = [edge]
            if jtype == "CMP":
                # A comparison needs a measure both results share; a link whose consumers have none
                # (or tie) would spend the junction, so up to two more links are tried.
                rest = [e for e in edges if e.id != edge.id]
                while rest and len(tries) < 5:
                    e2 = rng.choices(rest, weights=[link_weight(e) for e in rest])[0]
                    rest.remove(e2)
                    tries.append(e2)
            for e in tries:
                e_rows = [i for i, it in enumerate(items[:10]) if fresh(it, e)]
                if await self._fan(draft, session, rng, jtype, e, anchor, items, e_rows, room):
                    return True
            return False

        if jtype == "COND":
            return await self._cond(draft, session, rng, anchor, anchor_op, items, edges, fresh, room)
        return False

    async def _cond(
        self,
        draft: Draft,
        session: Session,
        rng: random.Random,
        anchor: str,
        anchor_op: str,
        items: list[dict[str, Any]],
        edges: list[Edge],
        fresh: Any,
        room: int,
    ) -> bool:
        """COND from the curated table only (conditions.py): the field, threshold and the two branches
        a person chooses between. The condition reads one row the user names (or the only row)."""
        if room < 1 or any(j.type == "COND" for j in draft.junctions):
            return False  # one condition per question: a person states one
        options = conditions_for(anchor_op)
        if not options:
            return False
        cond = rng.choice(options)
        rows = [
            i
            for i, it in enumerate(items[:10])
            if numeric(it.get(cond.field)) is not None
            and (len(items) == 1 or row_label(anchor_op, it, draft.outputs[anchor]["items"]) is not None)
        ]
        if not rows:
            return False
        j = rng.choice(rows)
        value = numeric(items[j][cond.field])
        assert value is not None
        holds = value >= cond.threshold
        branch = cond.then if holds else cond.otherwise
        taken = [e for e in edges if e.consumer in branch and fresh(items[j], e)]
        if not taken:
            return False
        edge = rng.choices(taken, weights=[link_weight(e) for e in taken])[0]
        args = self._args(edge, j, anchor, items, items[j], rng)
        new_id = f"s{draft.n_calls + 1}"
        if args is None or not await self._add(
            draft, session, PlanStep(id=new_id, tool=edge.consumer, args=args)
        ):
            return False
        other = cond.otherwise[0] if holds else cond.then[0]
        draft.junctions.append(
            Junction(
                "COND",
                anchor,
                [new_id],
                edge.id,
                {
                    "field": cond.field,
                    "threshold": float(cond.threshold),
                    "holds": holds,
                    "then": edge.consumer if holds else other,
                    "else": other if holds else edge.consumer,
                    "item": j,
                },
            )
        )
        return True

    async def _fan(
        self,
        draft: Draft,
        session: Session,
        rng: random.Random,
        jtype: str,
        edge: Edge,
        anchor: str,
        items: list[dict[str, Any]],
        rows: list[int],
        room: int,
    ) -> bool:
        """FAN (k rows into parallel calls of one tool) or CMP (two, compared on a shared measure)."""
        distinct: list[int] = []
        seen: set[str] = set()
        anchor_op = draft.step(anchor).tool
        whole = draft.outputs[anchor]["items"]
        for i in rows:
            if len(items) > 1 and row_label(anchor_op, items[i], whole) is None:
                continue  # each row fanned out to is one the query names, never a position
            v = str(items[i][edge.field])
            if v not in seen:
                seen.add(v)
                distinct.append(i)
        k = 2 if jtype == "CMP" else min(3, room)
        if len(distinct) < 2 or room < 2:
            return False
        chosen = sorted(rng.sample(distinct, k)) if len(distinct) > k else distinct
        added: list[str] = []
        for j in chosen:
            sid = f"s{draft.n_calls + 1}"
            args = self._args(edge, j, anchor, items, items[j], rng)
            if args is None or not await self._add(
                draft, session, PlanStep(id=sid, tool=edge.consumer, args=args)
            ):
                break
            added.append(sid)
        if len(added) < 2:
            self._rollback(draft, added)
            return False
        detail: dict[str, Any] = {"items": chosen[: len(added)]}
        if jtype == "CMP":
            outs = [draft.outputs[s]["items"] for s in added]
            if any(len(o) != 1 for o in outs):
                # "Which is larger" over the first of many rows compares rows nobody chose; what a
                # person compares there is how many there are ("근처 병원이 더 많은 쪽"), where the
                # number is one a person asks (natural.COUNTABLE) and the true total is known (a
                # page of 100 rows is no count).
                counts = [true_count(draft.outputs[s]) for s in added]
                if edge.consumer not in COUNTABLE or None in counts or len(set(counts)) < len(counts):
                    self._rollback(draft, added)
                    return False
                detail["compare"] = COUNT
                draft.junctions.append(Junction(jtype, anchor, added, edge.id, detail))
                return True
            # compared on what a person asks of both ("의사 수", "월요일 진료 종료 시각"): askable.py
            common = sorted(
                f
                for f in set.intersection(*(set(numeric_fields(o, 1, edge.consumer)) for o in outs))
                if is_askable(edge.consumer, f)
            )
            if not common:
                self._rollback(draft, added)
                return False
            f = rng.choice(common)
            values = [numeric(o[0].get(f)) for o in outs]
            if len(set(values)) < len(values):
                self._rollback(draft, added)  # a tie has no answer to "which is larger"
                return False
            detail["compare"] = f
        draft.junctions.append(Junction(jtype, anchor, added, edge.id, detail))
        return True

    @staticmethod
    def _rollback(draft: Draft, added: list[str]) -> None:
        for sid in added:
            draft.call_keys.pop(sid, None)
            draft.args.pop(sid, None)
            draft.steps = [s for s in draft.steps if s.id != sid]
            draft.outputs.pop(sid, None)


# The page size a person's client would raise to get a short list whole (request plumbing).
PAGE_SIZE_PARAMS = ("numOfRows", "pSize", "num_of_rows")
WHOLE_LIST_MAX = 100  # the rows a model is shown at most (execution.DEFAULT_MAX_ITEMS)


def whole_page(op_id: str, args: dict[str, Any], output: dict[str, Any]) -> dict[str, Any] | None:
    """The paging arguments that fetch a list of at most WHOLE_LIST_MAX rows whole, or None (no page-size
    parameter, or a longer list: then no largest/smallest is asked of its page)."""
    total = true_count(output)
    if total is None or total > WHOLE_LIST_MAX:
        return None
    op = get_operation(op_id)
    names = {p.name for p in op.visible_params}
    for name in PAGE_SIZE_PARAMS:
        if name in names:
            return {name: WHOLE_LIST_MAX}
    if {"START_INDEX", "END_INDEX"} <= names:
        start = int(args.get("START_INDEX", 1) or 1)
        return {"START_INDEX": start, "END_INDEX": start + WHOLE_LIST_MAX - 1} if start == 1 else None
    return None


def has_fact(draft: Draft) -> bool:
    """Would the grammar find a fact in this draft (facts.make_facts over the outputs sampling saw,
    which composition reproduces)? The fields it reads and the rows it can name decide it; which of
    them it draws does not, so a probe RNG is enough."""
    run = PlanRun(args=draft.args, outputs=draft.outputs)
    return bool(make_facts(draft, run, random.Random(f"probe|{draft.index}")))


@lru_cache(maxsize=4096)
def may_compare(op_id: str) -> bool:
    """Does the operation declare an output field that could be a measure (not a code, id, date,
    coordinate or name)? Only such consumers can answer "which is larger"."""
    op = get_operation(op_id)
    return "lookup" not in op.tags and any(
        not CODE_LIKE.search(norm(f)) and not is_name_like(f, d) for f, d in op.output_fields.items()
    )


@lru_cache(maxsize=4096)
def says_a_grid_cell(op_id: str) -> bool:
    """Does the operation require a KMA grid cell (nx/ny) or a point (longitude/latitude)? A person
    never says one ("날씨 알려줘, 격자 60, 127"): they name the place, and the chain finds the cell
    (kma_getGridPointList) or the point (a place's mapx/mapy)."""
    op = get_operation(op_id)
    return any(concept(p.name, op_id) in ("nx", "ny", "lon", "lat") for p in data_params(op) if p.required)


def _sliced(v: Any, e: Edge) -> Any:
    return str(v)[e.slice[0] : e.slice[1]] if e.slice else v


def link_weight(e: Edge) -> float:
    if any(r.startswith(("name", "alias")) for r in e.reasons):
        return 3.0
    if any(r.startswith("semantic") for r in e.reasons):
        return 1.5
    return 1.0
