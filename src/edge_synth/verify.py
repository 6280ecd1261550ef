"""Phase A.2: execution grounding of candidate links as a Beta-Bernoulli bandit.

Each link starts with a weak Beta prior centred on its proposal confidence. Each round samples
paths: a start call filled from the value pool, then links chosen by Thompson sampling (draw
theta ~ Beta(a, b) per link, take the best) and executed through the backend, item values
flowing along the link. A link's consumer call either succeeds with rows (a = a + 1), fails
*structurally* (NODATA, empty rows, invalid value, unparseable body: b = b + 1) or fails
*environmentally* (rate limit, auth, transport: b = b + 0.1, the world's fault, not the link's).
Links whose posterior mean falls under a threshold after a few trials are pruned. Verified
outputs go into the value pool, which opens frontier calls, and their observed value formats
propose new links (the graph is dynamic).

Rows are not proof. Two checks make "the consumer returned rows" count as a success:

- field meaning (semantics.py), before any execution: look-alike links (a DART business year into
  KASI's holiday year, a date from one platform into another platform's date parameter) never
  enter the bandit;
- the counterfactual, at execution: the consumer is called again with *another value of the same
  type* (another row's value of the producer field, else another pool value for the parameter). If
  the rows are the same, the consumer does not depend on the value (it ignores the parameter, or
  the parameter filters nothing): the trial is a structural failure ("insensitive"). A link is
  verified only with at least one success whose counterfactual differed.

The paper's quantities are measured on *held-out* walks: fresh random walks (their own RNG
stream, results never fed back) over the links still active at round 0 and after every
``eval_every`` rounds; first vs last is the paper's "path execution success" before/after.

Determinism: each path has its own RNG (seed, round, index) and reads the state as it was at the
start of its round; the round's updates are applied afterwards in path order. So the same seed
gives the same verified graph however the calls interleave.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from edge_synth.fields import FORMAT_BRIDGES, data_params, param_format, value_format
from edge_synth.graph import Edge, LinkGraph
from edge_synth.pool import ValuePool, key_of, required_data_params
from edge_synth.runner import Verdict, call
from edge_synth.semantics import link_meaning
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import Backend
from kopa_inspect.execution import Session

STRUCTURAL_PENALTY = 1.0
ENVIRONMENTAL_PENALTY = 0.1
PRIOR_STRENGTH = 2.0


@dataclass
class GroundingConfig:
    rounds: int = 30
    paths_per_round: int = 40
    max_path_len: int = 4
    prune_threshold: float = 0.3
    min_trials: int = 3
    eval_paths: int = 150
    eval_every: int = 10  # held-out walks at round 0, every k rounds and after the last round
    concurrency: int = 16
    explore: float = 0.3
    counterfactual_confirmations: int = 2  # counterfactual calls per link until it is trusted
    meaning_filter: bool = True

    def __post_init__(self) -> None:
        if not (1 <= self.rounds <= 100 and 1 <= self.paths_per_round <= 500):
            raise ValueError(
                "grounding budget: rounds in 1..100 and paths_per_round in 1..500 (the paper's 100x500)"
            )


@dataclass
class LinkStat:
    alpha: float
    beta: float
    trials: int = 0
    successes: int = 0
    structural: int = 0
    environmental: int = 0
    reasons: Counter = field(default_factory=Counter)
    pruned_round: int | None = None
    dependent: int = 0  # successes whose counterfactual gave other rows
    insensitive: int = 0  # rows did not change with another value: the consumer ignores the link

    @property
    def mean(self) -> float:
        return self.alpha / (self.alpha + self.beta)

    def to_json(self) -> dict[str, Any]:
        return {
            "alpha": round(self.alpha, 3),
            "beta": round(self.beta, 3),
            "mean": round(self.mean, 4),
            "trials": self.trials,
            "successes": self.successes,
            "structural": self.structural,
            "environmental": self.environmental,
            "reasons": dict(sorted(self.reasons.items())),
            "pruned_round": self.pruned_round,
            "dependent": self.dependent,
            "insensitive": self.insensitive,
        }


@dataclass
class Observation:
    """What one path saw, applied to the shared state after its round."""

    calls: int = 0
    link_results: list[tuple[str, Verdict]] = field(default_factory=list)
    dependent: list[str] = field(default_factory=list)  # links whose counterfactual differed
    worked: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    outputs: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    start_failed: bool = False
    ok: bool = False
    length: int = 0


@dataclass
class GroundingReport:
    rounds: list[dict[str, Any]]
    heldout: list[dict[str, Any]]  # fresh walks over the active links: round, paths, success
    first_round: float  # held-out path success at round 0 (the candidate graph as proposed)
    last_round: float  # held-out path success after the last round (pruned links gone)
    verified_walks: float  # held-out path success over the verified links only
    n_proposed: int  # links proposed before the meaning check
    n_rejected_meaning: int
    n_candidate: int  # links that entered the bandit
    n_tried: int
    n_verified: int
    n_pruned: int
    n_untested: int
    n_dynamic: int
    n_insensitive: int  # links with a counterfactual that showed no dependence
    pruned_share: float  # pruned / candidate links (the paper's "pruned links" share)
    pruned_share_of_tried: float
    pruned_link_success: float | None  # success rate of pruned links while they were tried
    calls: int
    budget: dict[str, int]
    meaning_rejections: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Grounder:
    def __init__(
        self,
        graph: LinkGraph,
        backend: Backend,
        *,
        seed: int,
        clock: str | None,
        pool: ValuePool | None = None,
        config: GroundingConfig | None = None,
    ) -> None:
        self.graph = graph
        self.backend = backend
        self.seed = seed
        self.clock = clock
        self.pool = pool or ValuePool(clock)
        self.config = config or GroundingConfig()
        self.n_proposed = len(graph.edges)
        self.meaning_rejected: dict[str, str] = {}
        if self.config.meaning_filter:
            for eid, e in sorted(graph.edges.items()):
                m = link_meaning(e)
                if not m.agree:
                    self.meaning_rejected[eid] = m.why
            for eid in self.meaning_rejected:
                graph.remove(eid)
        self.stats: dict[str, LinkStat] = {eid: self._prior(e) for eid, e in graph.edges.items()}
        self.pruned: set[str] = set()
        self.calls = 0
        self.n_dynamic = 0
        self._observed_formats: set[tuple[str, str]] = set()
        self._starts_key: tuple | None = None
        self._starts: list[str] = []

    @staticmethod
    def _prior(e: Edge) -> LinkStat:
        p = e.prior if e.llm_score is None else 0.5 * (e.prior + e.llm_score)
        return LinkStat(alpha=PRIOR_STRENGTH * p, beta=PRIOR_STRENGTH * (1 - p))

    def active(self, op_id: str, only: set[str] | None = None) -> list[Edge]:
        return [
            e
            for e in self.graph.out_edges(op_id)
            if e.id not in self.pruned and (only is None or e.id in only)
        ]

    def starts(self, only: set[str] | None = None) -> list[str]:
        key = (
            len(self.pruned),
            len(self.pool.records),
            len(self.pool.worked),
            len(self.graph.edges),
            None if only is None else len(only),
        )
        if self._starts_key != key:
            self._starts_key = key
            self._starts = self._compute_starts(only)
        return self._starts

    def _compute_starts(self, only: set[str] | None) -> list[str]:
        return sorted(
            op_id
            for op_id in self.graph.g.nodes
            if self.active(op_id, only) and self.pool.fillable(get_operation(op_id))
        )

    # one path ----------------------------------------------------------------------------------
    async def _path(
        self,
        rng: random.Random,
        policy: str,
        only: set[str] | None,
        sem: asyncio.Semaphore,
        counterfactual: bool = True,
    ) -> Observation:
        obs = Observation()
        starts = self.starts(only)
        if not starts:
            return obs
        # Platform first, then a tool: a 600-dataset catalog must not drown ten small platforms.
        by_platform: dict[str, list[str]] = {}
        for s in starts:
            by_platform.setdefault(s.split("_")[0], []).append(s)
        cur = rng.choice(by_platform[rng.choice(sorted(by_platform))])
        args = self.pool.fill(get_operation(cur), rng)
        if args is None:
            return obs
        session = Session(self.backend, clock=self.clock, seed=self.seed)
        async with sem:
            res, verdict = await call(session, cur, args)
        obs.calls += 1
        if verdict.outcome != "ok":
            obs.start_failed = True
            return obs
        obs.worked.append((cur, args))
        obs.outputs.append((cur, res.parsed.items))
        items = res.parsed.items
        target_len = rng.randint(2, self.config.max_path_len)
        while obs.length + 1 < target_len:
            choice = self._choose(cur, items, rng, policy, only)
            if choice is None:
                break
            edge, co_links, nargs, row = choice
            async with sem:
                res, verdict = await call(session, edge.consumer, nargs)
            obs.calls += 1
            obs.length += 1
            if (
                verdict.outcome == "ok"
                and counterfactual
                and self.stats[edge.id].dependent < self.config.counterfactual_confirmations
            ):
                alt = self._alternative(edge, items, row, nargs, rng)
                if alt is not None:
                    async with sem:
                        cf, _ = await call(session, edge.consumer, {**nargs, edge.param: alt})
                    obs.calls += 1
                    if cf.ok and _rows_key(cf.parsed.items) == _rows_key(res.parsed.items):
                        verdict = Verdict("structural", "insensitive")
                    else:
                        obs.dependent.append(edge.id)
            for e in (edge, *co_links):
                obs.link_results.append((e.id, verdict))
            if verdict.outcome != "ok":
                obs.ok = False
                return obs
            obs.worked.append((edge.consumer, nargs))
            obs.outputs.append((edge.consumer, res.parsed.items))
            cur, items = edge.consumer, res.parsed.items
        obs.ok = obs.length >= 1
        return obs

    def _alternative(
        self,
        edge: Edge,
        items: list[dict[str, Any]],
        row: dict[str, Any],
        nargs: dict[str, Any],
        rng: random.Random,
    ) -> Any:
        """Another value of the same type for the link's parameter: another row's value first."""
        current = str(nargs[edge.param])
        for it in items[:50]:
            v = it.get(edge.field)
            if _present(v) and str(apply_slice(v, edge.slice)) != current:
                return apply_slice(v, edge.slice)
        vals = [
            self.pool.records[i].get(key_of(edge.param)) for i in self.pool.by_key.get(key_of(edge.param), [])
        ]
        others = sorted({str(v) for v in vals if _present(v) and str(v) != current})
        if others:
            return rng.choice(others)
        return None

    def _choose(
        self, cur: str, items: list[dict[str, Any]], rng: random.Random, policy: str, only: set[str] | None
    ) -> tuple[Edge, list[Edge], dict[str, Any], dict[str, Any]] | None:
        cands = [e for e in self.active(cur, only) if any(_present(it.get(e.field)) for it in items[:10])]
        if not cands:
            return None
        if policy == "thompson":
            draws = [(rng.betavariate(self.stats[e.id].alpha, self.stats[e.id].beta), e.id) for e in cands]
            order = [eid for _, eid in sorted(draws, reverse=True)]
            ranked = [self.graph.edges[eid] for eid in order]
            if rng.random() < self.config.explore:
                # Verification wants every link tried, not only the best exploited: sometimes
                # the least-tried link goes first.
                ranked.sort(key=lambda e: (self.stats[e.id].trials, rng.random()))
        else:
            ranked = list(cands)
            rng.shuffle(ranked)
        for edge in ranked[:5]:
            idx = [i for i, it in enumerate(items[:10]) if _present(it.get(edge.field))]
            item = items[rng.choice(idx)]
            given = {edge.param: apply_slice(item[edge.field], edge.slice)}
            co = [
                e
                for e in cands
                if e.consumer == edge.consumer
                and e.param != edge.param
                and e.param not in given
                and _present(item.get(e.field))
            ]
            co_used = []
            for e in co:
                if e.param not in given:
                    given[e.param] = apply_slice(item[e.field], e.slice)
                    co_used.append(e)
            nargs = self.pool.fill(get_operation(edge.consumer), rng, given)
            if nargs is not None:
                return edge, co_used, nargs, item
        return None

    # rounds ------------------------------------------------------------------------------------
    async def _batch(
        self, n: int, tag: str, policy: str, only: set[str] | None = None, counterfactual: bool = True
    ) -> list[Observation]:
        sem = asyncio.Semaphore(self.config.concurrency)
        rngs = [random.Random(f"{self.seed}|{tag}|{i}") for i in range(n)]
        return list(await asyncio.gather(*(self._path(r, policy, only, sem, counterfactual) for r in rngs)))

    def _apply(self, observations: list[Observation], round_no: int) -> None:
        for obs in observations:
            self.calls += obs.calls
            for eid in obs.dependent:
                self.stats[eid].dependent += 1
            for eid, v in obs.link_results:
                st = self.stats[eid]
                st.trials += 1
                st.reasons[v.reason] += 1
                if v.outcome == "ok":
                    st.alpha += 1
                    st.successes += 1
                elif v.outcome == "structural":
                    st.beta += STRUCTURAL_PENALTY
                    st.structural += 1
                    if v.reason == "insensitive":
                        st.insensitive += 1
                else:
                    st.beta += ENVIRONMENTAL_PENALTY
                    st.environmental += 1
            for op_id, args in obs.worked:
                self.pool.note_worked(op_id, args)
            for op_id, items in obs.outputs:
                self.pool.add_output(items)
                self._propose_from_values(op_id, items)
        for eid, st in sorted(self.stats.items()):
            if eid in self.pruned:
                continue
            if (st.trials >= self.config.min_trials and st.mean < self.config.prune_threshold) or (
                st.insensitive >= 1 and st.dependent == 0
            ):
                # An insensitive link is not a chain, whatever its successes: pruned at once.
                self.pruned.add(eid)
                st.pruned_round = round_no

    def _propose_from_values(self, op_id: str, items: list[dict[str, Any]]) -> None:
        """Observed value formats propose links the specs did not reveal (the dynamic graph).

        A proposal still has to pass the meaning check, so a value format alone adds nothing."""
        if not items:
            return
        neighbours = self.graph.g.graph.get("pairs", {}).get(op_id)
        if neighbours is None:
            return
        for fname, value in items[0].items():
            if (op_id, fname) in self._observed_formats or not _present(value):
                continue
            self._observed_formats.add((op_id, fname))
            vf = value_format(value)
            if vf is None:
                continue
            for cons_id in neighbours:
                cons = get_operation(cons_id)
                for p in data_params(cons):
                    pf = param_format(p)
                    if pf is None or (vf, pf) not in FORMAT_BRIDGES:
                        continue
                    e = Edge(
                        op_id,
                        fname,
                        cons_id,
                        p.name,
                        FORMAT_BRIDGES[(vf, pf)],
                        ["observed-format"],
                        0.45,
                        "code",
                    )
                    if e.id in self.graph.edges or e.id in self.meaning_rejected:
                        continue
                    if self.config.meaning_filter and not (m := link_meaning(e)).agree:
                        self.meaning_rejected[e.id] = m.why
                        continue
                    self.graph.add(e)
                    self.stats[e.id] = self._prior(e)
                    self.n_dynamic += 1

    def verified_ids(self) -> set[str]:
        need_cf = self.config.counterfactual_confirmations > 0
        return {
            eid
            for eid, st in self.stats.items()
            if eid not in self.pruned and st.successes >= 1 and (st.dependent >= 1 or not need_cf)
        }

    async def _heldout(self, r: int) -> dict[str, Any]:
        """Fresh uniform random walks over the links active now; nothing they see is applied."""
        active = {eid for eid in self.stats if eid not in self.pruned}
        obs = await self._batch(
            self.config.eval_paths, f"heldout-{r}", "uniform", active, counterfactual=False
        )
        multi = [o for o in obs if o.length >= 1]
        self.calls += sum(o.calls for o in obs)
        return {
            "round": r,
            "paths": len(multi),
            "success": _rate([o.ok for o in multi]),
            "active_links": len(active),
        }

    async def run(self, progress=None) -> GroundingReport:
        cfg = self.config
        heldout = [await self._heldout(0)]
        rounds = []
        for r in range(cfg.rounds):
            obs = await self._batch(cfg.paths_per_round, f"round-{r}", "thompson")
            self._apply(obs, r)
            multi = [o for o in obs if o.length >= 1]
            rounds.append(
                {
                    "round": r,
                    "paths": len(obs),
                    "multi_step": len(multi),
                    "success": _rate([o.ok for o in multi]),
                    "calls": sum(o.calls for o in obs),
                    "active_links": len(self.stats) - len(self.pruned),
                    "pruned": len(self.pruned),
                    "verified": len(self.verified_ids()),
                    "pool_records": len(self.pool.records),
                }
            )
            if (r + 1) % max(1, cfg.eval_every) == 0 or r + 1 == cfg.rounds:
                heldout.append(await self._heldout(r + 1))
            if progress:
                progress(r + 1, cfg.rounds, rounds[-1])
        ver = self.verified_ids()
        ver_obs = await self._batch(cfg.eval_paths, "heldout-verified", "uniform", ver, counterfactual=False)
        self.calls += sum(o.calls for o in ver_obs)
        pruned = [self.stats[e] for e in self.pruned]
        tested_pruned = sum(s.trials for s in pruned)
        tried = sum(1 for s in self.stats.values() if s.trials > 0)
        n_cand = len(self.stats)
        why = Counter(re.sub(r"\s*\(.*\)$", "", w) for w in self.meaning_rejected.values())
        return GroundingReport(
            rounds=rounds,
            heldout=heldout,
            first_round=heldout[0]["success"],
            last_round=heldout[-1]["success"],
            verified_walks=_rate([o.ok for o in ver_obs if o.length >= 1]),
            n_proposed=self.n_proposed + self.n_dynamic,
            n_rejected_meaning=len(self.meaning_rejected),
            n_candidate=n_cand,
            n_tried=tried,
            n_verified=len(ver),
            n_pruned=len(self.pruned),
            n_untested=n_cand - tried,
            n_dynamic=self.n_dynamic,
            n_insensitive=sum(1 for s in self.stats.values() if s.insensitive and not s.dependent),
            pruned_share=round(len(self.pruned) / n_cand, 4) if n_cand else 0.0,
            pruned_share_of_tried=round(len(self.pruned) / tried, 4) if tried else 0.0,
            pruned_link_success=round(sum(s.successes for s in pruned) / tested_pruned, 4)
            if tested_pruned
            else None,
            calls=self.calls,
            budget={
                "rounds": cfg.rounds,
                "paths_per_round": cfg.paths_per_round,
                "eval_paths": cfg.eval_paths,
            },
            meaning_rejections=dict(sorted(why.items())),
        )


def _rows_key(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, ensure_ascii=False, sort_keys=True, default=str)


def apply_slice(value: Any, sl: tuple[int, int] | None) -> Any:
    return str(value)[sl[0] : sl[1]] if sl else value


def _present(v: Any) -> bool:
    return v is not None and str(v).strip() != "" and not isinstance(v, dict | list)


def _rate(xs: list[bool]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


__all__ = [
    "Grounder",
    "GroundingConfig",
    "GroundingReport",
    "LinkStat",
    "apply_slice",
    "required_data_params",
]
