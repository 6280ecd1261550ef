"""Keyword search over the registered operations (the ``search_tools`` tool set, distractor choice).

Ranking is BM25 over Latin words and Korean character bigrams (no tokenizer needed), with the
operation's own summary and name counted twice (what a tool *does* matters more than the names of
its output fields), then a diversity pass: a result whose text is almost the same as a
higher-ranked one (the 25 per-district copies of one Seoul dataset, the ``Dev`` twin of a MOLIT
path) goes behind the distinct ones, so one family cannot fill the whole top-k.

Why BM25 rather than raw overlap: with 1,000+ catalog datasets, grams every Seoul or Assembly
dataset shares (``페이지``, ``요청``, ``위치``) outweighed the rare grams that name the capability
(``급식``, ``법정동``). Measured recall@k of the gold tools from the task query alone is in
tests/tools/test_tools.py and ``kopa tasks stats``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from kopa_inspect.apis import get_operation, get_platform, operations

_WORD = re.compile(r"[0-9A-Za-z가-힣]+")
_LATIN = re.compile(r"[0-9a-z]+")
# BM25 constants (the usual defaults).
K1 = 1.2
B = 0.75
# Results at least this similar (Jaccard of their gram sets) to a better-ranked one are deferred.
NEAR_DUPLICATE = 0.8


def grams(text: str) -> list[str]:
    """Latin words (2+ chars) and Korean character bigrams, with repetition (term frequency)."""
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        if _LATIN.fullmatch(w):
            if len(w) > 1:
                out.append(w)
            continue
        if len(w) == 1:
            out.append(w)
        out.extend(w[i : i + 2] for i in range(len(w) - 1))
    return out


def _split_name(name: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])|_", " ", name)


def op_text(op_id: str) -> tuple[str, str]:
    """(the heavy part: id, name, summary; the light part: platform, parameters).

    Output fields are left out: the catalog datasets list dozens of them, and matching a
    question's words against field descriptions ranked long catalog entries above the tool that
    does the job (gold recall@5 from the question 0.604 -> 0.657 on an early task set when
    they were dropped, @10 0.745 -> 0.739; on a later draft 0.582 -> 0.647 and 0.718 -> 0.734)."""
    op = get_operation(op_id)
    params = " ".join(f"{p.name} {p.description}" for p in op.visible_params)
    heavy = f"{_split_name(op.id)} {_split_name(op.name)} {op.summary}"
    return heavy, f"{get_platform(op.platform).name} {params}"


@dataclass(frozen=True)
class _Index:
    ids: tuple[str, ...]
    tf: tuple[Counter[str], ...]
    length: tuple[int, ...]
    sets: tuple[int, ...]  # each operation's gram set as a bit mask (fast Jaccard)
    df: Counter[str]
    postings: dict[str, tuple[tuple[int, int], ...]]  # term -> (doc index, term frequency)
    avgdl: float

    def idf(self, term: str) -> float:
        n, df = len(self.ids), self.df.get(term, 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))


@cache
def _index(ids: tuple[str, ...]) -> _Index:
    tfs, lengths, sets = [], [], []
    bit: dict[str, int] = {}
    df: Counter[str] = Counter()
    for op_id in ids:
        heavy, light = op_text(op_id)
        tf = Counter(grams(heavy)) + Counter(grams(heavy)) + Counter(grams(light))
        tfs.append(tf)
        lengths.append(sum(tf.values()))
        mask = 0
        for term in tf:
            mask |= 1 << bit.setdefault(term, len(bit))
        sets.append(mask)
        df.update(tf.keys())
    avgdl = sum(lengths) / len(lengths) if lengths else 1.0
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, tf in enumerate(tfs):
        for term, f in tf.items():
            postings.setdefault(term, []).append((i, f))
    frozen = {t: tuple(v) for t, v in postings.items()}
    return _Index(tuple(ids), tuple(tfs), tuple(lengths), tuple(sets), df, frozen, avgdl)


def _global() -> _Index:
    return _index(tuple(operations()))


def scores(query: str, pool: Sequence[str] | None = None) -> list[tuple[float, str]]:
    """(BM25 score, op id) for the operations (of ``pool``, default all) sharing a gram with
    ``query``, best first. Statistics (IDF, mean length) are always over every operation, so a
    tool's score does not depend on which others are in the pool."""
    index = _global()
    allowed = set(pool) if pool is not None else None
    acc: dict[int, float] = {}
    for term in sorted(set(grams(query))):  # sorted: the float sums add up in one order
        idf = index.idf(term)
        for i, f in index.postings.get(term, ()):
            dl = index.length[i]
            acc[i] = acc.get(i, 0.0) + idf * f * (K1 + 1) / (f + K1 * (1 - B + B * dl / index.avgdl))
    out = [
        (s, index.ids[i]) for i, s in acc.items() if s > 0 and (allowed is None or index.ids[i] in allowed)
    ]
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def _jaccard(a: int, b: int) -> float:
    union = (a | b).bit_count()
    return (a & b).bit_count() / union if union else 0.0


def search_operations(query: str, k: int = 5, pool: Sequence[str] | None = None) -> list[str]:
    """The ``k`` best operation ids for ``query`` (deterministic: ties broken by id)."""
    if k <= 0:
        return []
    index = _global()
    where = {op_id: i for i, op_id in enumerate(index.ids)}
    chosen: list[str] = []
    deferred: list[str] = []
    for _, op_id in scores(query, pool):
        g = index.sets[where[op_id]]
        if any(_jaccard(g, index.sets[where[c]]) >= NEAR_DUPLICATE for c in chosen):
            deferred.append(op_id)
            continue
        chosen.append(op_id)
        if len(chosen) >= k:
            break
    return (chosen + deferred)[:k]


def capability_query(op_id: str) -> str:
    """What a model that knows which capability it needs (not the tool's name) would search for:
    the Korean part of the operation's summary, without the English gloss or the operation id."""
    summary = get_operation(op_id).summary
    korean = re.sub(r"\([^()]*[A-Za-z]{3,}[^()]*\)", " ", summary)  # drop "(English gloss)" asides
    return " ".join(korean.split())
