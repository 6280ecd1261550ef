"""Reports: the verified graph (edge list + figure) and what the dataset covers."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

from edge_synth.filter import BenchIndex, jaccard, links_of
from edge_synth.graph import LinkGraph
from edge_synth.truth import scan_details
from kopa_inspect.plans import Plan


def write_edges_csv(path: Path, graph: LinkGraph, grounding: dict[str, Any]) -> None:
    stats = grounding.get("stats", {})
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "edge_id",
                "producer",
                "field",
                "slice",
                "consumer",
                "param",
                "kind",
                "reasons",
                "trials",
                "successes",
                "structural",
                "environmental",
                "posterior_mean",
            ]
        )
        for eid in sorted(graph.edges):
            e, st = graph.edges[eid], stats.get(eid, {})
            w.writerow(
                [
                    eid,
                    e.producer,
                    e.field,
                    f"{e.slice[0]}:{e.slice[1]}" if e.slice else "",
                    e.consumer,
                    e.param,
                    e.kind,
                    "; ".join(e.reasons),
                    st.get("trials", 0),
                    st.get("successes", 0),
                    st.get("structural", 0),
                    st.get("environmental", 0),
                    st.get("mean", ""),
                ]
            )


def draw_graph(path: Path, graph: LinkGraph) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import networkx as nx

    g: nx.DiGraph[str] = nx.DiGraph()
    for e in graph.edges.values():
        g.add_edge(e.producer, e.consumer)
    fig, ax = plt.subplots(figsize=(12, 9))
    if g.number_of_nodes():
        platforms = sorted({n.split("_")[0] for n in g.nodes})
        cmap = plt.get_cmap("tab20")
        colors = [cmap(platforms.index(n.split("_")[0]) % 20) for n in g.nodes]
        pos = nx.spring_layout(g, seed=0, k=1.2 / max(1, g.number_of_nodes()) ** 0.5)
        nx.draw_networkx(
            g,
            pos,
            ax=ax,
            node_color=colors,
            node_size=220,
            font_size=6,
            arrowsize=8,
            edge_color="#888888",
            width=0.8,
        )
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


PAPER: dict[str, Any] = {  # the paper, arXiv 2609.05395, and its public summaries
    "path_success_first_last": (0.502, 0.627),
    "pruned_share": 0.148,
    "budget": "100 rounds x 500 paths",
    "trajectories": 1781,
    "link_jaccard": 0.0,
}


def junction_shares(rows: list[dict[str, Any]]) -> dict[str, float]:
    c = Counter(j for r in rows for j in r["junctions"])
    total = sum(c.values())
    return {k: round(v / total, 4) for k, v in sorted(c.items())} if total else {}


def write_report(
    out: str | Path,
    graph: LinkGraph,
    grounding: dict[str, Any],
    rows: list[dict[str, Any]],
    bench: BenchIndex,
    links_before: set | None = None,
    summary: dict[str, Any] | None = None,
) -> dict[str, Any]:
    rdir = Path(out) / "report"
    rdir.mkdir(parents=True, exist_ok=True)
    write_edges_csv(rdir / "edges.csv", graph, grounding)
    draw_graph(rdir / "graph.png", graph)
    data_links: set = set()
    for r in rows:
        data_links |= links_of(Plan.model_validate_json(r["plan_json"]))
    before = set(links_before or set()) | data_links
    jac_after = round(jaccard(data_links, bench.links), 4) if bench.links else None
    jac_before = round(jaccard(before, bench.links), 4) if bench.links else None
    truth = scan_details(rows)
    extra = {
        "coverage": coverage(rows),
        "junction_shares": junction_shares(rows),
        "link_jaccard_vs_bench": jac_after,
        "link_jaccard_vs_bench_before_filter": jac_before,
        "bench_links_in_data": len(data_links & bench.links),
        "answer_rows": answer_rows(rows),
        "verified_edges": len(graph.edges),
        "truth_scan": truth,
    }
    g = grounding["report"]
    secs = grounding.get("seconds", {})
    summary = summary or {}
    ks = summary.get("argument_sources", {})
    kk = summary.get("argument_sources_kept", {})
    held = " -> ".join(f"r{h['round']}:{h['success']:.3f}" for h in g.get("heldout", []))
    md = [
        "# EDGE run report",
        "",
        "## The paper's quantities, measured the paper's way",
        "",
        "| quantity | this run | paper |",
        "|---|---|---|",
        f"| path success of held-out random walks, first -> last bandit round | {g['first_round']:.3f} -> "
        f"{g['last_round']:.3f} | {PAPER['path_success_first_last'][0]} -> {PAPER['path_success_first_last'][1]} |",
        f"| share of candidate links pruned | {g['pruned_share']:.3f} (of tried links: {g['pruned_share_of_tried']:.3f}) "
        f"| {PAPER['pruned_share']} |",
        f"| grounding budget | {g['budget']['rounds']} rounds x {g['budget']['paths_per_round']} paths, "
        f"{secs.get('grounding', '?')} s, {g['calls']} calls | {PAPER['budget']} |",
        f"| trajectories kept | {len(rows)} | {PAPER['trajectories']} |",
        f"| link Jaccard vs KOPA-Bench, before -> after the contamination filter | {jac_before} -> {jac_after} "
        f"| {PAPER['link_jaccard']} (by exclusion) |",
        "",
        f"Held-out walks per evaluation round (fresh RNG stream, nothing fed back): {held}. "
        f"Walks over verified links only: {g.get('verified_walks')}.",
        "",
        "## Links",
        "",
        f"- tools: {grounding.get('n_ops')}; proposed links: {g['n_proposed']} (+{g['n_dynamic']} from observed values); "
        f"rejected by field meaning before execution: {g['n_rejected_meaning']} {json.dumps(g.get('meaning_rejections', {}), ensure_ascii=False)}",
        f"- entered the bandit: {g['n_candidate']}; tried: {g['n_tried']}; never tried: {g['n_untested']}; "
        f"pruned: {g['n_pruned']} (counterfactual showed no dependence: {g['n_insensitive']}); verified: {g['n_verified']}",
        f"- success rate of pruned links while tried: {g['pruned_link_success']}",
        "",
        "## Trajectories",
        "",
        f"- junction shares: {json.dumps(extra['junction_shares'])}",
        f"- coverage: {json.dumps(extra['coverage'], ensure_ascii=False)}",
        f"- argument sources of composed rows (before the filter): {json.dumps(ks.get('counts', {}))}, "
        f"knowable share {ks.get('knowable_share')}; kept rows: {json.dumps(kk.get('counts', {}))}, "
        f"knowable share {kk.get('knowable_share')}",
        f"- rows the answers read facts from: {json.dumps(extra['answer_rows'])}",
        f"- drops: {json.dumps(summary.get('drops', {}), ensure_ascii=False)}",
        "",
        *truth_scan_md(truth),
        "",
        "Files: edges.csv (verified links with trial counts), graph.png, summary.json.",
    ]
    (rdir / "report.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    return extra


def answer_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Which rows the facts come from and why (not always row 0)."""
    reasons: Counter[str] = Counter()
    nonzero = total = 0
    for r in rows:
        for f in json.loads(r["facts_json"]):
            reasons[str(f.get("row_reason"))] += 1
            total += 1
            nonzero += int(f.get("row", 0) != 0)
    return {
        "reasons": dict(sorted(reasons.items())),
        "share_not_row0": round(nonzero / total, 4) if total else None,
    }


def truth_scan_md(found: dict[str, dict[str, Any]]) -> list[str]:
    """The truth scan's section: rows per fault class (truth.py; every class 0 on a sound run)."""
    md = ["## Truth scan", "", "| fault class | rows | first faults |", "|---|---|---|"]
    for name, got in found.items():
        md.append(f"| {name} | {got['rows']} | {'; '.join(got['examples'][:3])} |")
    return md
