"""Phase A.1: the candidate link graph over operations (a networkx MultiDiGraph).

A link (an *edge*) says: the value at ``field`` in an item of ``producer``'s output, after
``slice``, can fill ``param`` of ``consumer``. Candidates come from three sources, and each edge
records why it was proposed:

- the dense retriever: each tool's ~15 same-domain and ~10 cross-domain neighbours by
  signature (the pairs field matching and semantic matching look at);
- field matching (fields.py): equal names, known aliases, value formats with a slice bridge;
- semantic matching: field and param texts whose embeddings are close (retrieved pairs only);
- optionally an LLM score (``llm.py``) that drops links below 0.3, as the paper does.

Proposal is cheap and generous; execution (verify.py) decides what survives.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import networkx as nx
import numpy as np

from edge_synth.fields import concept, data_params, match_fields, norm
from edge_synth.retrieve import Embedder, field_text, neighbours
from kopa_inspect.apis import get_platform
from kopa_inspect.apis._spec import Operation

SEMANTIC_MIN_SIM = 0.62
MAX_CONSUMERS_PER_KEY = 12


@dataclass
class Edge:
    producer: str
    field: str
    consumer: str
    param: str
    slice: tuple[int, int] | None = None
    # dataclasses.field: the bare name is this class's own ``field`` attribute here
    reasons: list[str] = dataclasses.field(default_factory=list)
    prior: float = 0.5  # proposal confidence: the weak Beta prior's mean
    kind: str = "code"  # code | name | value (decides SEQ vs SEM junctions)
    retriever_sim: float | None = None
    llm_score: float | None = None

    @property
    def id(self) -> str:
        sl = f"[{self.slice[0]}:{self.slice[1]}]" if self.slice else ""
        text = f"{self.producer}.{self.field}{sl}->{self.consumer}.{self.param}"
        return "e" + hashlib.blake2b(text.encode(), digest_size=5).hexdigest()

    @property
    def label(self) -> str:
        sl = f"[{self.slice[0]}:{self.slice[1]}]" if self.slice else ""
        return f"{self.producer}.{self.field}{sl} -> {self.consumer}.{self.param}"

    def ref(self, step: str, item: int | str = 0) -> str:
        """The plan reference that realizes this link from step ``step``'s ``item``-th row."""
        # A field named in Hangul ("법령일련번호") is a quoted identifier in JMESPath.
        name = self.field if self.field.isascii() and self.field.isidentifier() else f'"{self.field}"'
        base = f"${step}.items[{item}].{name}" if isinstance(item, int) else f"${step}.{item}.{name}"
        if self.slice:
            base += f"[{self.slice[0]}:{self.slice[1]}]"
        return base

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["id"] = self.id
        d["slice"] = list(self.slice) if self.slice else None
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Edge:
        d = {k: v for k, v in d.items() if k != "id"}
        d["slice"] = tuple(d["slice"]) if d.get("slice") else None
        return cls(**d)


class LinkGraph:
    """Operations as nodes, links as keyed multi-edges (key = edge id)."""

    def __init__(self) -> None:
        self.g: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        self.edges: dict[str, Edge] = {}

    def add_op(self, op: Operation) -> None:
        self.g.add_node(op.id, platform=op.platform, domain=get_platform(op.platform).domain)

    def add(self, edge: Edge) -> Edge:
        existing = self.edges.get(edge.id)
        if existing is not None:
            for r in edge.reasons:
                if r not in existing.reasons:
                    existing.reasons.append(r)
            existing.prior = max(existing.prior, edge.prior)
            if edge.retriever_sim is not None:
                existing.retriever_sim = max(existing.retriever_sim or 0.0, edge.retriever_sim)
            return existing
        self.edges[edge.id] = edge
        self.g.add_edge(edge.producer, edge.consumer, key=edge.id)
        return edge

    def remove(self, edge_id: str) -> None:
        e = self.edges.pop(edge_id)
        self.g.remove_edge(e.producer, e.consumer, key=edge_id)

    def out_edges(self, op_id: str) -> list[Edge]:
        if op_id not in self.g:
            return []
        return [self.edges[k] for _, _, k in self.g.out_edges(op_id, keys=True)]

    def in_edges(self, op_id: str) -> list[Edge]:
        if op_id not in self.g:
            return []
        return [self.edges[k] for _, _, k in self.g.in_edges(op_id, keys=True)]

    def subgraph(self, edge_ids: Iterable[str]) -> LinkGraph:
        sub = LinkGraph()
        sub.g.graph.update(self.g.graph)
        for n, data in self.g.nodes(data=True):
            sub.g.add_node(n, **data)
        for eid in edge_ids:
            sub.add(self.edges[eid])
        return sub

    def to_json(self) -> dict[str, Any]:
        return {
            "pairs": self.g.graph.get("pairs", {}),
            "nodes": [{"id": n, **d} for n, d in sorted(self.g.nodes.items())],
            "edges": [self.edges[k].to_json() for k in sorted(self.edges)],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LinkGraph:
        lg = cls()
        lg.g.graph["pairs"] = data.get("pairs", {})
        for n in data["nodes"]:
            lg.g.add_node(n["id"], **{k: v for k, v in n.items() if k != "id"})
        for e in data["edges"]:
            lg.add(Edge.from_json(e))
        return lg


def _common_keys(ops: Sequence[Operation]) -> set[str]:
    """Parameter keys shared by many tools (a catalog's generic filter columns) with no known concept."""
    count: Counter[str] = Counter()
    for op in ops:
        for p in data_params(op):
            if concept(p.name, op.id) is None:
                count[norm(p.name)] += 1
    return {k for k, n in count.items() if n > MAX_CONSUMERS_PER_KEY}


class _FilteredGraph(LinkGraph):
    """Drops proposals into generic catalog columns (BPLCNM, AGE ...): thousands of links, no chains."""

    def __init__(self, common: set[str]) -> None:
        super().__init__()
        self.common = common

    def add(self, edge: Edge) -> Edge:
        if norm(edge.param) in self.common:
            return edge
        return super().add(edge)


def build_candidate_graph(
    ops: Sequence[Operation],
    embedder: Embedder | None,
    *,
    same_domain: int = 15,
    cross_domain: int = 10,
) -> LinkGraph:
    """Propose links among ``ops``; ``embedder=None`` skips retrieval (field matching only)."""
    ops = sorted(ops, key=lambda o: o.id)
    by_id = {op.id: op for op in ops}
    lg = _FilteredGraph(_common_keys(ops))
    for op in ops:
        lg.add_op(op)

    # 1. Retrieved pairs, both directions (a neighbour may produce for or consume from a tool).
    pairs: dict[tuple[str, str], float] = {}
    if embedder is not None and len(ops) > 1:
        for a, near in neighbours(ops, embedder, same_domain, cross_domain).items():
            for b, sim in near:
                for pair in ((a, b), (b, a)):
                    pairs[pair] = max(pairs.get(pair, -1.0), sim)
        embedder.save()
    nb: dict[str, set[str]] = defaultdict(set)
    for a, b in pairs:
        nb[a].add(b)
    lg.g.graph["pairs"] = {k: sorted(v) for k, v in sorted(nb.items())}
    for (a, b), sim in sorted(pairs.items()):
        for m in match_fields(by_id[a], by_id[b]):
            lg.add(
                Edge(
                    a, m.field, b, m.param, m.slice, [f"{m.reason}+retriever:{sim:.2f}"], m.score, m.kind, sim
                )
            )

    # 2. Name/alias index over all ops: equal keys link even when the retriever did not pair them.
    consumers: dict[str, list[tuple[Operation, str]]] = defaultdict(list)
    for op in ops:
        for p in data_params(op):
            consumers[concept(p.name, op.id) or norm(p.name)].append((op, p.name))
    for op in ops:
        for fname in op.output_fields:
            key = concept(fname, op.id) or norm(fname)
            if concept(fname, op.id) is None and len(consumers.get(key, [])) > MAX_CONSUMERS_PER_KEY:
                # A column every catalog dataset filters on (a name, a status) is not a link by
                # itself; retrieved pairs (above) still get it.
                continue
            for cons, _pname in consumers.get(key, [])[:MAX_CONSUMERS_PER_KEY]:
                if cons.id == op.id:
                    continue
                for m in match_fields(op, cons):
                    if m.field == fname and m.reason in ("name", "alias"):
                        lg.add(Edge(op.id, fname, cons.id, m.param, m.slice, [m.reason], m.score, m.kind))

    # 3. Semantic field->param matches on retrieved pairs (embedding similarity of the texts).
    if embedder is not None and pairs:
        _semantic_edges(lg, by_id, pairs, embedder)
        embedder.save()
    out = LinkGraph()
    out.g, out.edges = lg.g, lg.edges
    return out


def _semantic_edges(
    lg: LinkGraph, by_id: dict[str, Operation], pairs: dict[tuple[str, str], float], embedder: Embedder
) -> None:
    field_texts: dict[tuple[str, str], str] = {}
    param_texts: dict[tuple[str, str], str] = {}
    for op in by_id.values():
        for f, d in op.output_fields.items():
            field_texts[(op.id, f)] = field_text(f, d)
        for p in data_params(op):
            param_texts[(op.id, p.name)] = field_text(p.name, p.description)
    fkeys, pkeys = sorted(field_texts), sorted(param_texts)
    fvec = dict(zip(fkeys, embedder.encode([field_texts[k] for k in fkeys]), strict=True))
    pvec = dict(zip(pkeys, embedder.encode([param_texts[k] for k in pkeys]), strict=True))
    fields_of: dict[str, list[str]] = defaultdict(list)
    params_of: dict[str, list[str]] = defaultdict(list)
    for op_id, f in fkeys:
        fields_of[op_id].append(f)
    for op_id, pname in pkeys:
        params_of[op_id].append(pname)
    for (a, b), sim in sorted(pairs.items()):
        if not fields_of[a] or not params_of[b]:
            continue
        F = np.stack([fvec[(a, f)] for f in fields_of[a]])
        P = np.stack([pvec[(b, p)] for p in params_of[b]])
        S = F @ P.T
        for j, pname in enumerate(params_of[b]):
            i = int(np.argmax(S[:, j]))
            if S[i, j] >= SEMANTIC_MIN_SIM:
                fname = fields_of[a][i]
                ptype = next((p.type for p in by_id[b].params if p.name == pname), "string")
                if ptype in ("integer", "number") and norm(fname) != norm(pname):
                    continue  # a number param is fed by names/aliases only; text similarity is noise
                lg.add(
                    Edge(
                        a,
                        fname,
                        b,
                        pname,
                        None,
                        [f"semantic:{S[i, j]:.2f}+retriever:{sim:.2f}"],
                        0.4,
                        "name",
                        sim,
                    )
                )
