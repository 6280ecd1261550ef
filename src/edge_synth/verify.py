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

Determinism: each path has its own RNG (seed, round, index) and reads the state as it was at the
start of its round; the round's updates are applied afterwards in path order. So the same seed
gives the same verified graph however the calls interleave.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from edge_synth.fields import FORMAT_BRIDGES, data_params, param_format, value_format
from edge_synth.graph import Edge, LinkGraph
from edge_synth.pool import ValuePool, required_data_params
from edge_synth.runner import Verdict, call
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
    concurrency: int = 16
    explore: float = 0.3


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

    @property
    def mean(self) -> float:
        return self.alpha / (self.alpha + self.beta)

    def to_json(self) -> dict[str, Any]:
        return {
            "alpha": round(self.alpha, 3), "beta": round(self.beta, 3), "mean": round(self.mean, 4),
            "trials": self.trials, "successes": self.successes, "structural": self.structural,
            "environmental": self.environmental, "reasons": dict(sorted(self.reasons.items())),
            "pruned_round": self.pruned_round,
        }


@dataclass
class Observation:
    """What one path saw, applied to the shared state after its round."""

    calls: int = 0
    link_results: list[tuple[str, Verdict]] = field(default_factory=list)
    worked: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    outputs: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    start_failed: bool = False
    ok: bool = False
    length: int = 0


@dataclass
class GroundingReport:
    rounds: list[dict[str, Any]]
    before: float  # path success on the candidate graph (uniform link choice)
    after: float  # path success on the verified graph (uniform link choice)
    first_round: float
    last_round: float
    pruned_link_success: float | None
    n_candidate: int
    n_verified: int
    n_pruned: int
    n_untested: int
    n_dynamic: int
    calls: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Grounder:
    def __init__(
        self, graph: LinkGraph, backend: Backend, *, seed: int, clock: str | None,
        pool: ValuePool | None = None, config: GroundingConfig | None = None,
    ) -> None:
        self.graph = graph
        self.backend = backend
        self.seed = seed
        self.clock = clock
        self.pool = pool or ValuePool(clock)
        self.config = config or GroundingConfig()
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
        return [e for e in self.graph.out_edges(op_id) if e.id not in self.pruned and (only is None or e.id in only)]

    def starts(self, only: set[str] | None = None) -> list[str]:
        key = (len(self.pruned), len(self.pool.records), len(self.pool.worked), len(self.graph.edges), id(only))
        if self._starts_key != key:
            self._starts_key = key
            self._starts = self._compute_starts(only)
        return self._starts

    def _compute_starts(self, only: set[str] | None) -> list[str]:
        return sorted(
            op_id for op_id in self.graph.g.nodes
            if self.active(op_id, only) and self.pool.fillable(get_operation(op_id))
        )

    # one path ----------------------------------------------------------------------------------
    async def _path(self, rng: random.Random, policy: str, only: set[str] | None, sem: asyncio.Semaphore) -> Observation:
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
            edge, co_links, nargs = choice
            async with sem:
                res, verdict = await call(session, edge.consumer, nargs)
            obs.calls += 1
            obs.length += 1
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

    def _choose(
        self, cur: str, items: list[dict[str, Any]], rng: random.Random, policy: str, only: set[str] | None
    ) -> tuple[Edge, list[Edge], dict[str, Any]] | None:
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
            co = [e for e in cands if e.consumer == edge.consumer and e.param != edge.param
                  and e.param not in given and _present(item.get(e.field))]
            co_used = []
            for e in co:
                if e.param not in given:
                    given[e.param] = apply_slice(item[e.field], e.slice)
                    co_used.append(e)
            nargs = self.pool.fill(get_operation(edge.consumer), rng, given)
            if nargs is not None:
                return edge, co_used, nargs
        return None

    # rounds ------------------------------------------------------------------------------------
    async def _batch(self, n: int, tag: str, policy: str, only: set[str] | None = None) -> list[Observation]:
        sem = asyncio.Semaphore(self.config.concurrency)
        rngs = [random.Random(f"{self.seed}|{tag}|{i}") for i in range(n)]
        return list(await asyncio.gather(*(self._path(r, policy, only, sem) for r in rngs)))

    def _apply(self, observations: list[Observation], round_no: int) -> None:
        for obs in observations:
            self.calls += obs.calls
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
                else:
                    st.beta += ENVIRONMENTAL_PENALTY
                    st.environmental += 1
            for op_id, args in obs.worked:
                self.pool.note_worked(op_id, args)
            for op_id, items in obs.outputs:
                self.pool.add_output(items)
                self._propose_from_values(op_id, items)
        for eid, st in sorted(self.stats.items()):
            if eid not in self.pruned and st.trials >= self.config.min_trials and st.mean < self.config.prune_threshold:
                self.pruned.add(eid)
                st.pruned_round = round_no

    def _propose_from_values(self, op_id: str, items: list[dict[str, Any]]) -> None:
        """Observed value formats propose links the specs did not reveal (the dynamic graph)."""
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
                    e = Edge(op_id, fname, cons_id, p.name, FORMAT_BRIDGES[(vf, pf)], ["observed-format"], 0.45, "code")
                    if e.id not in self.graph.edges:
                        self.graph.add(e)
                        self.stats[e.id] = self._prior(e)
                        self.n_dynamic += 1

    def verified_ids(self) -> set[str]:
        return {eid for eid, st in self.stats.items() if eid not in self.pruned and st.successes >= 1}

    async def run(self, progress=None) -> GroundingReport:
        cfg = self.config
        cand_ids = set(self.graph.edges)
        before_obs = await self._batch(cfg.eval_paths, "eval-before", "uniform", cand_ids)
        # The baseline's outputs are real observations too, but its link results are not applied
        # (it measures the candidate graph as proposed).
        rounds = []
        for r in range(cfg.rounds):
            obs = await self._batch(cfg.paths_per_round, f"round-{r}", "thompson")
            self._apply(obs, r)
            multi = [o for o in obs if o.length >= 1]
            rounds.append({
                "round": r,
                "paths": len(obs),
                "multi_step": len(multi),
                "success": _rate([o.ok for o in multi]),
                "calls": sum(o.calls for o in obs),
                "active_links": len(self.stats) - len(self.pruned),
                "pruned": len(self.pruned),
                "verified": len(self.verified_ids()),
                "pool_records": len(self.pool.records),
            })
            if progress:
                progress(r + 1, cfg.rounds, rounds[-1])
        ver = self.verified_ids()
        after_obs = await self._batch(cfg.eval_paths, "eval-after", "uniform", ver)
        self.calls += sum(o.calls for o in before_obs) + sum(o.calls for o in after_obs)
        pruned = [self.stats[e] for e in self.pruned]
        tested_pruned = sum(s.trials for s in pruned)
        return GroundingReport(
            rounds=rounds,
            before=_rate([o.ok for o in before_obs if o.length >= 1]),
            after=_rate([o.ok for o in after_obs if o.length >= 1]),
            first_round=rounds[0]["success"] if rounds else 0.0,
            last_round=rounds[-1]["success"] if rounds else 0.0,
            pruned_link_success=(sum(s.successes for s in pruned) / tested_pruned) if tested_pruned else None,
            n_candidate=len(cand_ids),
            n_verified=len(ver),
            n_pruned=len(self.pruned),
            n_untested=sum(1 for s in self.stats.values() if s.trials == 0),
            n_dynamic=self.n_dynamic,
            calls=self.calls,
        )


def apply_slice(value: Any, sl: tuple[int, int] | None) -> Any:
    return str(value)[sl[0]:sl[1]] if sl else value


def _present(v: Any) -> bool:
    return v is not None and str(v).strip() != "" and not isinstance(v, dict | list)


def _rate(xs: list[bool]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


__all__ = ["Grounder", "GroundingConfig", "GroundingReport", "LinkStat", "apply_slice", "required_data_params"]
