"""EDGE throughput over the registered APIs: verified trajectories per minute, keep rate, and
where the time goes (graph stage, execution, composition).

    /work/venv/bin/python benchmarks/edge_bench.py --n 2000 --workers 2 --out .kopa/edge-bench

The graph stage (retrieval, field matching, execution grounding) runs once per output directory;
``--fresh`` discards it. Embeddings are cached in $KOPA_EDGE_CACHE (default ~/.cache/kopa-edge),
so only a first run on a machine pays for embedding the tool signatures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

from edge_synth.pipeline import SynthConfig, run
from edge_synth.verify import GroundingConfig
from kopa_inspect.apis import operations, platforms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--paths", type=int, default=80)
    ap.add_argument("--chunk-size", type=int, default=50)
    ap.add_argument("--out", default=".kopa/edge-bench")
    ap.add_argument("--fresh", action="store_true", help="discard the graph stage and chunks in --out")
    args = ap.parse_args()
    if args.fresh and Path(args.out).exists():
        shutil.rmtree(args.out)
    t0 = time.perf_counter()
    cfg = SynthConfig(out=args.out, n=args.n, seed=args.seed, workers=args.workers, chunk_size=args.chunk_size,
                      grounding=GroundingConfig(rounds=args.rounds, paths_per_round=args.paths))
    s = run(cfg)
    wall = time.perf_counter() - t0
    g = s["grounding"]
    secs = s["seconds"]
    synth = secs["synth_now"]
    execution = sum(secs.get(f"cum_{k}", 0.0) for k in ("sample", "compose_execute", "reexecute"))
    write = secs.get("cum_compose_write", 0.0)
    result = {
        "tools": len(operations()), "platforms": len(platforms()), "workers": args.workers,
        "kept": s["n_kept"], "target": s["n_target"], "keep_rate": s["keep_rate"], "drops": s["drops"],
        "wall_s": round(wall, 1), "graph_stage_s": secs["graph_stage_now"], "synth_s": synth,
        "verified_per_min_synth": round(60 * s["n_kept"] / synth, 1) if synth else None,
        "verified_per_min_wall": round(60 * s["n_kept"] / wall, 1),
        "cpu_s_execution": round(execution, 1), "cpu_s_composition": round(write, 1),
        "links": {k: g[k] for k in ("n_candidate", "n_verified", "n_pruned", "n_untested", "n_dynamic")},
        "path_success_before_after": [g["before"], g["after"]],
        "bandit_first_last_round": [g["first_round"], g["last_round"]],
        "pruned_link_success": g["pruned_link_success"],
        "coverage": s["coverage"], "link_jaccard_vs_bench": s["link_jaccard_vs_bench"],
        "bench_tasks": s["bench_tasks"],
    }
    print(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
