"""EDGE throughput over the registered APIs: verified trajectories per minute, keep rate, and
where the time goes (graph stage, execution, composition).

    .venv/bin/python benchmarks/edge_bench.py --n 2000 --workers 2 --out .kopa/edge-bench

The graph stage (retrieval, field matching, execution grounding) runs once per output directory;
``--fresh`` discards it. Embeddings are cached in $KOPA_EDGE_CACHE (default ~/.cache/kopa-edge),
so only a first run on a machine pays for embedding the tool signatures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

from edge_synth.pipeline import SynthConfig, run
from edge_synth.verify import GroundingConfig
from kopa_inspect.apis import operations, platforms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--paths", type=int, default=80)
    ap.add_argument("--chunk-size", type=int, default=50)
    ap.add_argument("--json", help="also write the result here")
    ap.add_argument("--out", default=".kopa/edge-bench")
    ap.add_argument("--fresh", action="store_true", help="discard the graph stage and chunks in --out")
    args = ap.parse_args()
    if args.fresh and Path(args.out).exists():
        shutil.rmtree(args.out)
    t0 = time.perf_counter()
    cfg = SynthConfig(
        out=args.out,
        n=args.n,
        seed=args.seed,
        workers=args.workers,
        chunk_size=args.chunk_size,
        grounding=GroundingConfig(rounds=args.rounds, paths_per_round=args.paths),
    )
    s = run(cfg)
    wall = time.perf_counter() - t0
    g = s["grounding"]
    secs = s["seconds"]
    synth = secs["synth_now"]
    execution = sum(secs.get(f"cum_{k}", 0.0) for k in ("sample", "compose_execute", "reexecute"))
    write = secs.get("cum_compose_write", 0.0)
    result = {
        "tools": len(operations()),
        "platforms": len(platforms()),
        "workers": args.workers,
        "kept": s["n_kept"],
        "target": s["n_target"],
        "keep_rate": s["keep_rate"],
        "drops": s["drops"],
        "wall_s": round(wall, 1),
        "graph_stage_s": secs["graph_stage_now"],
        "synth_s": synth,
        "verified_per_min_synth": round(60 * s["n_kept"] / synth, 1) if synth else None,
        "verified_per_min_wall": round(60 * s["n_kept"] / wall, 1),
        "cpu_s_execution": round(execution, 1),
        "cpu_s_composition": round(write, 1),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "grounding_s": s["grounding_seconds"].get("grounding"),
        "budget": g["budget"],
        "grounding_calls": g["calls"],
        "links": {
            k: g[k]
            for k in (
                "n_proposed",
                "n_rejected_meaning",
                "n_candidate",
                "n_tried",
                "n_verified",
                "n_pruned",
                "n_untested",
                "n_insensitive",
                "n_dynamic",
            )
        },
        "heldout_path_success_first_last": [g["first_round"], g["last_round"]],
        "heldout_per_round": g["heldout"],
        "pruned_share": g["pruned_share"],
        "pruned_share_of_tried": g["pruned_share_of_tried"],
        "pruned_link_success": g["pruned_link_success"],
        "junction_shares": s["junction_shares"],
        "coverage": s["coverage"],
        "knowable_share_before_filter": s["argument_sources"]["knowable_share"],
        "knowable_share_kept": s["argument_sources_kept"]["knowable_share"],
        "answer_rows": s["answer_rows"],
        "link_jaccard_vs_bench_before_after": [
            s["link_jaccard_vs_bench_before_filter"],
            s["link_jaccard_vs_bench"],
        ],
        "bench_tasks": s["bench_tasks"],
    }
    text = json.dumps(result, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
