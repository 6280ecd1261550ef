"""EDGE end to end: graph -> grounding -> sampling -> composition -> filtering -> export.

Layout of an output directory::

    OUT/graph/candidate.json   proposed links (with why)          OUT/graph/pool.json  value pool
    OUT/graph/verified.json    links that survived execution      OUT/graph/grounding.json  stats
    OUT/chunks/chunk_00000.jsonl  rows of candidate indices [0, C) (+ .stats.json: drops, timings)
    OUT/dataset/               datasets.save_to_disk
    OUT/report/                edges.csv, graph.png, summary.json, report.md

Determinism and resumption: a trajectory is a pure function of (seed, clock, verified graph,
pool, its index). Chunks are written atomically; a resumed run loads the graph stage and the
finished chunks, computes the missing ones and assembles the same dataset. Dedup and truncation to
``n`` happen at assembly, in index order. ``--shard i/n`` computes chunks ``k % n == i``; shards
writing into one directory (or copied into one) merge at assembly.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from edge_synth.compose import compose
from edge_synth.export import make_row, save
from edge_synth.filter import (
    BenchIndex,
    answer_holds,
    answer_ok,
    answer_well_formed,
    argument_sources,
    artefacts,
    claims_overlap,
    links_of,
    plan_key,
    same_outputs,
)
from edge_synth.graph import LinkGraph, build_candidate_graph
from edge_synth.leak import answer_in_query
from edge_synth.natural import FLUENCY_CHECKS, fluency_problems, naturalness_problems
from edge_synth.pool import ValuePool, pool_from_json, pool_to_json
from edge_synth.retrieve import Embedder
from edge_synth.sample import Sampler
from edge_synth.verify import Grounder, GroundingConfig
from edge_synth.warm import cache_dir
from kopa_inspect.apis import operations
from kopa_inspect.backends import BackendConfig, make_backend
from kopa_inspect.plans import Plan, PlanError
from kopa_inspect.world import parse_clock

try:  # the benchmark's held-out platforms, if the task schema has landed
    from kopa_inspect.task_data.schema import HELD_OUT_PLATFORMS as _HELD
except ImportError:  # pragma: no cover
    _HELD = frozenset({"nec", "assembly", "lawgo"})  # TODO: keep in sync with task_data.schema
HELD_OUT_PLATFORMS: tuple[str, ...] = tuple(sorted(_HELD))


@dataclass
class SynthConfig:
    out: str
    n: int = 100
    seed: int = 0
    clock: str | None = None
    model: str | None = None
    workers: int = 1
    shard: tuple[int, int] = (0, 1)
    chunk_size: int = 50
    backend: BackendConfig = field(default_factory=BackendConfig)
    grounding: GroundingConfig = field(default_factory=GroundingConfig)
    include_held_out: bool = False
    # Exclusion would make "link Jaccard 0" true by construction and cut the meaningful links; the
    # content filter (filter.BenchIndex.overlap) decides instead. True restores the exclusion.
    avoid_bench_links: bool = False
    bench_path: str | None = None
    use_retriever: bool = True
    llm_links: bool = True  # with a model: score candidate links once, drop < 0.3 (paper Phase A)
    seed_regions: bool = True
    max_chunks: int = 400
    test_fraction: float = 0.0
    # Stop after this many chunks in this process (tests use it to simulate an interruption).
    stop_after_chunks: int | None = None

    @property
    def excluded(self) -> tuple[str, ...]:
        return () if self.include_held_out else HELD_OUT_PLATFORMS


def _write_json(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    tmp.replace(path)


# --- the run's manifest: what its rows are a function of -----------------------------------------


class RunMismatch(ValueError):
    """A resume asked for another world or recipe than the one OUT was made with."""


def _manifest(cfg: SynthConfig, clock: str) -> dict[str, Any]:
    return {
        "seed": cfg.seed,
        "clock": clock,
        "model": cfg.model,
        "rounds": cfg.grounding.rounds,
        "paths": cfg.grounding.paths_per_round,
        "backend": cfg.backend.kind,
        "chunk_size": cfg.chunk_size,
        "excluded_platforms": list(cfg.excluded),
        "avoid_bench_links": cfg.avoid_bench_links,
    }


def resolve_run(cfg: SynthConfig) -> tuple[SynthConfig, dict[str, Any]]:
    """Fix the run's clock and record it, or reuse the recorded one (OUT/manifest.json).

    ``clock=None`` means *today* (kopa_inspect.world.default_clock): without a record, a run begun
    one day and resumed the next would compute its remaining chunks in another world (other
    forecasts, another "last month") and mix the two in one dataset. So the first run resolves the
    clock to an explicit time and writes it down with the seed, model and budget; a resume without
    ``--clock`` reuses it, one with another ``--clock`` (or seed, model, chunking) is refused.
    Directories made before the manifest carry the same record in graph/grounding.json.
    """
    out = Path(cfg.out)
    mpath = out / "manifest.json"
    recorded: dict[str, Any] | None = None
    if mpath.exists():
        recorded = json.loads(mpath.read_text(encoding="utf-8"))
    elif (out / "graph" / "grounding.json").exists():
        made = (
            json.loads((out / "graph" / "grounding.json").read_text(encoding="utf-8")).get("made_with") or {}
        )
        if made:
            recorded = {"seed": made.get("seed"), "clock": made.get("clock"), "model": made.get("model")}
    if recorded is None:
        clock = parse_clock(cfg.clock).isoformat()
        manifest = _manifest(cfg, clock)
        _write_json(mpath, manifest)
        return replace(cfg, clock=clock), manifest
    rec_clock = recorded.get("clock")
    if rec_clock is None:
        raise RunMismatch(
            f"{cfg.out} was made before runs recorded their clock: the day its world followed is "
            "unknown; use --fresh or another --out"
        )
    if cfg.clock is not None and parse_clock(cfg.clock) != parse_clock(rec_clock):
        raise RunMismatch(
            f"--clock {cfg.clock} differs from the clock recorded in {mpath}: {rec_clock}. Resume "
            "without --clock (the recorded one is reused) or start over with --fresh / another --out"
        )
    wrong = [
        f"{k} {getattr(cfg, k)!r} (recorded {recorded[k]!r})"
        for k in ("seed", "model", "chunk_size")
        if k in recorded and recorded[k] != getattr(cfg, k)
    ]
    if wrong:
        raise RunMismatch(
            f"{cfg.out} was made with another seed/clock/model or chunking: {', '.join(wrong)}; use --fresh or another --out"
        )
    if mpath.exists():
        return replace(cfg, clock=rec_clock), recorded
    manifest = {**_manifest(cfg, rec_clock), **recorded}  # a pre-manifest directory: record it now
    _write_json(mpath, manifest)
    return replace(cfg, clock=rec_clock), manifest


# --- stage 1: the verified graph ---------------------------------------------------------------


def graph_stage(
    cfg: SynthConfig, progress: Callable[..., None] | None = None
) -> tuple[LinkGraph, ValuePool, dict]:
    gdir = Path(cfg.out) / "graph"
    if (gdir / "verified.json").exists() and (gdir / "pool.json").exists():
        verified = LinkGraph.from_json(json.loads((gdir / "verified.json").read_text()))
        pool = pool_from_json(json.loads((gdir / "pool.json").read_text()))
        grounding = json.loads((gdir / "grounding.json").read_text())
        made_with = grounding.get("made_with", {})
        if made_with and (made_with.get("seed"), made_with.get("clock")) != (cfg.seed, cfg.clock):
            raise ValueError(
                f"{cfg.out} holds a graph made with seed/clock {made_with}; use another --out or --fresh"
            )
        return verified, pool, grounding
    t0 = time.perf_counter()
    ops = list(operations().values())
    embedder = Embedder(cache_dir()) if cfg.use_retriever else None
    cand = build_candidate_graph(ops, embedder)
    llm_stats = None
    if cfg.model and cfg.llm_links:
        from edge_synth.llm import score_links

        llm_stats = asyncio.run(score_links(cand, cfg.model))
    t_graph = time.perf_counter() - t0
    _write_json(gdir / "candidate.json", cand.to_json())
    pool = ValuePool(cfg.clock, None if cfg.seed_regions else [])

    async def ground():
        backend = make_backend(cfg.backend, seed=cfg.seed)
        try:
            g = Grounder(cand, backend, seed=cfg.seed, clock=cfg.clock, pool=pool, config=cfg.grounding)
            report = await g.run(progress)
            return g, report
        finally:
            await backend.aclose()

    t1 = time.perf_counter()
    g, report = asyncio.run(ground())
    verified = g.graph.subgraph(sorted(g.verified_ids()))
    grounding = {
        "report": report.to_json(),
        "stats": {eid: st.to_json() for eid, st in sorted(g.stats.items())},
        "edges": {eid: e.to_json() for eid, e in sorted(g.graph.edges.items())},
        "seconds": {"candidate_graph": round(t_graph, 2), "grounding": round(time.perf_counter() - t1, 2)},
        "n_ops": len(ops),
        "llm_link_scores": llm_stats,
        "meaning_rejected": dict(sorted(g.meaning_rejected.items())),
        "made_with": {"seed": cfg.seed, "clock": cfg.clock, "backend": cfg.backend.kind, "model": cfg.model},
    }
    _write_json(gdir / "grounding.json", grounding)
    _write_json(gdir / "pool.json", pool_to_json(g.pool))
    _write_json(gdir / "verified.json", verified.to_json())  # last: its presence marks the stage done
    return verified, g.pool, grounding


# --- stage 2: chunks of trajectories -------------------------------------------------------------


def not_fluent_reason(query: str) -> str | None:
    """``not_fluent:<check>`` when the query reads as stacked noun phrases (natural.fluency_problems:
    a phrase said twice, a date twice, three '중' in a sentence, three questions in one ...), else
    None. The grammar mostly avoids these; the long chains it cannot say plainly are dropped rather
    than taught (a model trained on them learns to stack noun phrases)."""
    problems = fluency_problems(query)
    if not problems:
        return None
    return "not_fluent:" + next((c for c in FLUENCY_CHECKS if c in problems[0]), problems[0]).strip("'")


def no_fact_reason(comp: Any) -> str:
    """Why a composed row has no fact: ``no_askable_fact`` when a leaf's rows hold nothing a person
    asks (askable.py: a grid cell lookup, a record's edit date), else ``no_fact`` (every field it
    could ask echoed an argument of the call)."""
    return "no_askable_fact" if getattr(comp, "silent", None) else "no_fact"


def closed_book_reason(query: str, facts: list[dict[str, Any]]) -> str | None:
    """``answer_in_query`` when an answer built from the query alone (leak.py: the query echoed, a
    name it offers claimed, a figure it says) earns credit on a fact by the step metric, else None.
    Such a row would teach, and grade as right, an answer that skips its calls."""
    return "answer_in_query" if answer_in_query(query, facts) is not None else None


async def _chunk(
    cfg: SynthConfig,
    graph: LinkGraph,
    pool: ValuePool,
    k: int,
    bench: BenchIndex,
    backends: tuple[Any, Any] | None = None,
) -> dict[str, Any]:
    """Candidates of chunk ``k``. ``backends`` (sampling, re-execution) may be shared by the chunks
    of one process: building an embedded emulator costs about a second (its router compiles ~750
    routes), and it keeps no state between calls (no quota unless configured), so sharing changes
    no output; the re-execution backend still never serves a sampling call."""
    own = backends is None
    backend, fresh = (
        backends
        if backends is not None
        else (
            make_backend(cfg.backend, seed=cfg.seed),
            make_backend(cfg.backend, seed=cfg.seed),  # re-execution on a backend that saw no sampling call
        )
    )
    sampler = Sampler(
        graph,
        pool,
        backend,
        seed=cfg.seed,
        clock=cfg.clock,
        excluded_platforms=cfg.excluded,
        banned_links=bench.links if cfg.avoid_bench_links else frozenset(),
    )
    all_ops = sorted(op_id for op_id, op in operations().items() if op.platform not in cfg.excluded)
    drops: Counter[str] = Counter()
    sources: Counter[str] = Counter()  # where each argument of a composed row can be known from
    sources_kept: Counter[str] = Counter()
    links_before: set[tuple[str, str, str]] = set()  # links of rows that reached the contamination check
    writers: Counter[str] = Counter()  # grammar / model / grammar after a rejected model rewrite
    rows = []
    t: defaultdict[str, float] = defaultdict(float)  # seconds spent per stage
    try:
        for idx in range(k * cfg.chunk_size, (k + 1) * cfg.chunk_size):
            t0 = time.perf_counter()
            draft, why = await sampler.sample(idx)
            t["sample"] += time.perf_counter() - t0
            if draft is None:
                drops[why] += 1
                continue
            t0 = time.perf_counter()
            try:
                # Composition executes the plan from scratch (execute_plan) on a backend that
                # has not seen the sampling calls; that run must reproduce what sampling saw.
                comp = await compose(
                    draft, fresh, seed=cfg.seed, clock=cfg.clock, model=cfg.model, all_ops=all_ops
                )
                same = same_outputs(comp.run.outputs, draft.outputs) and same_outputs(
                    comp.run.args, draft.args
                )
            except PlanError:
                drops["compose_failed"] += 1
                continue
            writers[comp.writer] += 1
            t["compose_execute"] += comp.seconds["execute"]
            t["compose_write"] += comp.seconds["write"]
            if not same:
                drops["nondeterministic"] += 1
                continue
            if not comp.facts or not comp.answer.strip():
                drops[no_fact_reason(comp)] += 1  # no question: nothing a person asks, or all echoed
                continue
            if comp.invalid:
                drops[comp.invalid[0]] += 1  # named_pick_after_chain / partial_pick / unrelated_asks
                continue
            if not answer_ok(comp.answer, comp.facts):
                drops["answer_missing_fact"] += 1
                continue
            if not answer_holds(comp.answer, comp.facts):
                drops["answer_not_scored"] += 1  # the metric cannot read its own answer: no target
                continue
            if not answer_well_formed(
                comp.answer, comp.facts, [m["content"] for m in comp.messages if m["role"] == "tool"]
            ):
                drops["answer_not_well_formed"] += 1  # the episode grader's form checks refuse it
                continue
            if claims_overlap(comp.facts):
                drops["claims_overlap"] += 1  # two winners over one measure share a row: a swap passes
                continue
            src = argument_sources(comp.plan, comp.query, cfg.clock)
            sources.update(str(a["source"]) for a in src)
            if any(a["source"] is None for a in src):
                drops["unknowable_argument"] += 1
                continue
            values = [
                v
                for out in comp.run.outputs.values()
                for it in out.get("items", [])
                for v in it.values()
                if not isinstance(v, dict | list)
            ]
            values += [
                v for a in comp.run.args.values() for v in a.values() if not isinstance(v, dict | list)
            ]
            bad = artefacts(comp.query, values) + artefacts(comp.answer, values)
            if bad:
                drops[f"artefact:{bad[0]}"] += 1
                continue
            if unnatural := naturalness_problems(comp.query, comp.answer):
                drops[f"unnatural:{unnatural[0].split(' ')[0]}"] += 1  # a chain of requests, an API name ...
                continue
            if (stacked := not_fluent_reason(comp.query)) is not None:
                drops[stacked] += 1
                continue
            links_before |= links_of(comp.plan)
            if (overlap := bench.contaminated(comp.plan, comp.query)) is not None:
                drops[f"contamination:{overlap}"] += 1
                continue
            t0 = time.perf_counter()
            leak = closed_book_reason(comp.query, comp.facts)
            t["leak_check"] += time.perf_counter() - t0
            if leak is not None:
                drops[leak] += 1  # an answer from the query alone earns credit: the calls are not needed
                continue
            sources_kept.update(str(a["source"]) for a in src)
            rows.append(make_row(draft, comp, seed=cfg.seed, clock=cfg.clock))
    finally:
        if own:
            await backend.aclose()
            await fresh.aclose()
    return {
        "chunk": k,
        "rows": rows,
        "drops": dict(drops),
        "seconds": {k2: round(v, 3) for k2, v in t.items()},
        "candidates": cfg.chunk_size,
        "arg_sources": dict(sources),
        "arg_sources_kept": dict(sources_kept),
        "links_before": sorted(list(x) for x in links_before),
        "writers": dict(writers),
    }


def _chunk_path(cfg: SynthConfig, k: int) -> Path:
    return Path(cfg.out) / "chunks" / f"chunk_{k:05d}.jsonl"


def _write_chunk(cfg: SynthConfig, result: dict[str, Any]) -> None:
    path = _chunk_path(cfg, result["chunk"])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for row in result["rows"]:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    _write_json(path.with_suffix(".stats.json"), {k: v for k, v in result.items() if k != "rows"})
    tmp.replace(path)  # the .jsonl appears last: a chunk with one is complete


def _read_chunk(cfg: SynthConfig, k: int) -> dict[str, Any] | None:
    path = _chunk_path(cfg, k)
    if not path.exists() or not path.with_suffix(".stats.json").exists():
        return None
    stats = json.loads(path.with_suffix(".stats.json").read_text())
    stats["rows"] = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    return stats


def _worker(args: tuple[dict[str, Any], int]) -> dict[str, Any]:
    cfg_d, k = args
    cfg = _cfg_from_dict(cfg_d)
    gdir = Path(cfg.out) / "graph"
    graph = LinkGraph.from_json(json.loads((gdir / "verified.json").read_text()))
    pool = pool_from_json(json.loads((gdir / "pool.json").read_text()))
    bench = BenchIndex.load(cfg.bench_path)
    return asyncio.run(_chunk(cfg, graph, pool, k, bench))


def _cfg_to_dict(cfg: SynthConfig) -> dict[str, Any]:
    d = asdict(cfg)
    d["backend"] = cfg.backend.model_dump()
    return d


def _cfg_from_dict(d: dict[str, Any]) -> SynthConfig:
    d = dict(d)
    d["backend"] = BackendConfig(**d["backend"])
    d["grounding"] = GroundingConfig(**d["grounding"])
    d["shard"] = tuple(d["shard"])
    return SynthConfig(**d)


# The same calls may appear twice with two different questions (other facts, another row asked
# for); a third copy of a call sequence adds little. The report counts distinct call sequences.
MAX_ROWS_PER_PLAN = 2


@dataclass
class Assembled:
    rows: list[dict[str, Any]]
    drops: Counter
    chunks: int
    seconds: Counter
    candidates: int
    arg_sources: Counter = field(default_factory=Counter)
    arg_sources_kept: Counter = field(default_factory=Counter)
    links_before: set = field(default_factory=set)


def assemble(cfg: SynthConfig, chunk_results: list[dict[str, Any]]) -> Assembled:
    """Rows in index order, duplicates dropped (first wins), truncated to n."""
    drops: Counter[str] = Counter()
    secs: Counter[str] = Counter()
    per_plan: Counter[str] = Counter()
    seen_queries: set[str] = set()  # two plans under one query teach two answers to one question
    rows: list[dict[str, Any]] = []
    cands = 0
    src: Counter[str] = Counter()
    src_kept: Counter[str] = Counter()
    links_before: set[tuple[str, str, str]] = set()
    for res in sorted(chunk_results, key=lambda r: r["chunk"]):
        drops.update(res["drops"])
        secs.update(res["seconds"])
        cands += res["candidates"]
        src.update(res.get("arg_sources", {}))
        src_kept.update(res.get("arg_sources_kept", {}))
        links_before |= {tuple(x) for x in res.get("links_before", [])}
        for row in res["rows"]:
            key = plan_key(Plan.model_validate_json(row["plan_json"]))
            if row["query"] in seen_queries:
                drops["duplicate_query"] += 1
                continue
            if per_plan[key] >= MAX_ROWS_PER_PLAN:
                drops["duplicate"] += 1
                continue
            per_plan[key] += 1
            seen_queries.add(row["query"])
            rows.append(row)
    if len(rows) > cfg.n:
        drops["over_target"] += len(rows) - cfg.n
        rows = rows[: cfg.n]
    return Assembled(rows, drops, len(chunk_results), secs, cands, src, src_kept, links_before)


def _shares(c: Counter) -> dict[str, Any]:
    """Counts of argument sources and the share a model can know (everything but None)."""
    total = sum(c.values())
    known = total - c.get("None", 0)
    return {
        "counts": dict(sorted(c.items())),
        "total": total,
        "knowable_share": round(known / total, 4) if total else None,
    }


def run(cfg: SynthConfig, progress: Callable[[str, int, int, dict], None] | None = None) -> dict[str, Any]:
    """Run (or resume) a synthesis; returns the summary written to OUT/report/summary.json."""
    t_start = time.perf_counter()
    Path(cfg.out).mkdir(parents=True, exist_ok=True)
    cfg, manifest = resolve_run(cfg)
    graph, pool, grounding = graph_stage(
        cfg, (lambda r, n, info: progress("ground", r, n, info)) if progress else None
    )
    t_graph = time.perf_counter() - t_start
    shard_i, shard_n = cfg.shard
    bench = BenchIndex.load(cfg.bench_path)
    results: list[dict[str, Any]] = []
    # Finished chunks (this shard's or others') count toward the target.
    for k in range(cfg.max_chunks):
        r = _read_chunk(cfg, k)
        if r is not None:
            results.append(r)
    done = {r["chunk"] for r in results}

    def kept() -> int:
        return len(assemble(cfg, results).rows)

    def kept_own() -> int:
        """This shard's rows that survive dedup against every chunk visible now (its own and the
        other shards'): a shard stops at its share of the *merged* dataset, so a shard that runs
        after another (or is resumed) makes up for the rows the merge drops as duplicates."""
        rows = assemble(cfg, results).rows if len(results) else []
        own = sum(1 for r in rows if (r["index"] // cfg.chunk_size) % shard_n == shard_i)
        if kept() >= cfg.n:
            return share
        return own

    share = -(-cfg.n // shard_n)
    todo = [k for k in range(cfg.max_chunks) if k % shard_n == shard_i and k not in done]
    computed = 0
    t_synth = time.perf_counter()
    pool_exec = ProcessPoolExecutor(cfg.workers) if cfg.workers > 1 else None
    # One event loop and one pair of emulator backends for all chunks computed in this process.
    loop = asyncio.new_event_loop() if pool_exec is None else None
    shared = (
        (make_backend(cfg.backend, seed=cfg.seed), make_backend(cfg.backend, seed=cfg.seed)) if loop else None
    )
    try:
        while todo and kept_own() < share and kept() < cfg.n:
            if cfg.stop_after_chunks is not None and computed >= cfg.stop_after_chunks:
                break
            batch, todo = todo[: max(1, cfg.workers)], todo[max(1, cfg.workers) :]
            if pool_exec is not None:
                new = list(pool_exec.map(_worker, [(_cfg_to_dict(cfg), k) for k in batch]))
            else:
                assert loop is not None
                new = [loop.run_until_complete(_chunk(cfg, graph, pool, k, bench, shared)) for k in batch]
            for r in new:
                _write_chunk(cfg, r)
                results.append(r)
                computed += 1
            if progress:
                progress("synth", min(kept(), cfg.n), cfg.n, {"chunks": len(results)})
    finally:
        if pool_exec is not None:
            pool_exec.shutdown()
        if loop is not None:
            if shared is not None:
                for b in shared:
                    loop.run_until_complete(b.aclose())
            loop.close()
    t_synth = time.perf_counter() - t_synth
    complete = kept() >= cfg.n or (not todo and shard_n == 1)
    asm = assemble(cfg, results)
    summary: dict[str, Any] = {
        "n_target": cfg.n,
        "n_kept": len(asm.rows),
        "complete": complete,
        "seed": cfg.seed,
        "clock": cfg.clock,
        "made_with": manifest,
        "shard": list(cfg.shard),
        "chunks": asm.chunks,
        "chunks_computed_now": computed,
        "candidates": asm.candidates,
        "drops": dict(sorted(asm.drops.items())),
        "keep_rate": round(len(asm.rows) / asm.candidates, 4) if asm.candidates else 0.0,
        "distinct_plans": len({plan_key(Plan.model_validate_json(r["plan_json"])) for r in asm.rows}),
        "seconds": {
            "graph_stage_now": round(t_graph, 2),
            "synth_now": round(t_synth, 2),
            **{f"cum_{k}": round(v, 2) for k, v in asm.seconds.items()},
        },
        "grounding": grounding["report"],
        "grounding_seconds": grounding.get("seconds", {}),
        "composition_writers": dict(sum((Counter(r.get("writers", {})) for r in results), Counter())),
        "argument_sources": _shares(asm.arg_sources),
        "argument_sources_kept": _shares(asm.arg_sources_kept),
        "avoid_bench_links": cfg.avoid_bench_links,
        "excluded_platforms": list(cfg.excluded),
        "bench_tasks": bench.n_tasks,
        "pid": os.getpid(),
    }
    from edge_synth.report import write_report

    if complete:
        save(asm.rows, Path(cfg.out) / "dataset", test_fraction=cfg.test_fraction)
        summary["dataset"] = str(Path(cfg.out) / "dataset")
    summary.update(write_report(cfg.out, graph, grounding, asm.rows, bench, asm.links_before, summary))
    _write_json(Path(cfg.out) / "report" / "summary.json", summary)
    return summary
