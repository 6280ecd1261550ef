"""Reports: the verified graph (edge list + figure) and what the dataset covers."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

from edge_synth.filter import BenchIndex, jaccard, links_of
from edge_synth.graph import LinkGraph
from kopa_inspect.plans import Plan


def write_edges_csv(path: Path, graph: LinkGraph, grounding: dict[str, Any]) -> None:
    stats = grounding.get("stats", {})
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["edge_id", "producer", "field", "slice", "consumer", "param", "kind", "reasons",
                    "trials", "successes", "structural", "environmental", "posterior_mean"])
        for eid in sorted(graph.edges):
            e, st = graph.edges[eid], stats.get(eid, {})
            w.writerow([eid, e.producer, e.field, f"{e.slice[0]}:{e.slice[1]}" if e.slice else "", e.consumer,
                        e.param, e.kind, "; ".join(e.reasons), st.get("trials", 0), st.get("successes", 0),
                        st.get("structural", 0), st.get("environmental", 0), st.get("mean", "")])


def draw_graph(path: Path, graph: LinkGraph) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import networkx as nx

    g = nx.DiGraph()
    for e in graph.edges.values():
        g.add_edge(e.producer, e.consumer)
    fig, ax = plt.subplots(figsize=(12, 9))
    if g.number_of_nodes():
        platforms = sorted({n.split("_")[0] for n in g.nodes})
        cmap = plt.get_cmap("tab20")
        colors = [cmap(platforms.index(n.split("_")[0]) % 20) for n in g.nodes]
        pos = nx.spring_layout(g, seed=0, k=1.2 / max(1, g.number_of_nodes()) ** 0.5)
        nx.draw_networkx(g, pos, ax=ax, node_color=colors, node_size=220, font_size=6, arrowsize=8,
                         edge_color="#888888", width=0.8)
    ax.set_title(f"EDGE verified link graph: {g.number_of_nodes()} tools, {len(graph.edges)} links")
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def coverage(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "junctions": dict(sorted(Counter(j for r in rows for j in r["junctions"]).items())),
        "platforms": dict(sorted(Counter(p for r in rows for p in r["platforms"]).items())),
        "n_calls": dict(sorted(Counter(r["n_calls"] for r in rows).items())),
        "distinct_edges_used": len({e for r in rows for e in r["edge_ids"]}),
    }


def write_report(out: str | Path, graph: LinkGraph, grounding: dict[str, Any], rows: list[dict[str, Any]],
                 bench: BenchIndex) -> dict[str, Any]:
    rdir = Path(out) / "report"
    rdir.mkdir(parents=True, exist_ok=True)
    write_edges_csv(rdir / "edges.csv", graph, grounding)
    draw_graph(rdir / "graph.png", graph)
    data_links = set()
    for r in rows:
        data_links |= links_of(Plan.model_validate_json(r["plan_json"]))
    extra = {
        "coverage": coverage(rows),
        "link_jaccard_vs_bench": round(jaccard(data_links, bench.links), 4) if bench.links else None,
        "verified_edges": len(graph.edges),
    }
    g = grounding["report"]
    md = [
        "# EDGE run report", "",
        f"- tools: {grounding.get('n_ops')}; candidate links: {g['n_candidate']} (+{g['n_dynamic']} proposed from observed values)",
        f"- verified: {g['n_verified']}; pruned: {g['n_pruned']}; never testable: {g['n_untested']}",
        f"- path success, candidate graph -> verified graph: {g['before']:.3f} -> {g['after']:.3f} "
        f"(first -> last bandit round {g['first_round']:.3f} -> {g['last_round']:.3f})",
        f"- success of pruned links while tested: {g['pruned_link_success']}",
        f"- trajectories: {len(rows)}; coverage: {json.dumps(extra['coverage'], ensure_ascii=False)}",
        f"- link Jaccard vs KOPA-Bench gold plans: {extra['link_jaccard_vs_bench']}",
        "", "Files: edges.csv (verified links with trial counts), graph.png, summary.json.",
    ]
    (rdir / "report.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    return extra
