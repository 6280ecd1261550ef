"""EDGE's per-machine cache, built once: the MiniLM embeddings of every tool signature, field and
parameter text the candidate graph reads (``$KOPA_EDGE_CACHE``, default ``~/.cache/kopa-edge``).

`scripts/setup-env.sh` runs ``python -m edge_synth.warm`` after installing, so a first ``kopa synth``
on a fresh machine reads the cache a warm one reads instead of embedding every text first. Running it
again embeds only texts it has not seen (a new operation), and says how many.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from edge_synth.graph import build_candidate_graph
from edge_synth.retrieve import Embedder
from kopa_inspect.apis._spec import Operation


def cache_dir() -> Path:
    """Where EDGE keeps its per-machine cache."""
    return Path(os.environ.get("KOPA_EDGE_CACHE", Path.home() / ".cache" / "kopa-edge"))


def warm(ops: Sequence[Operation] | None = None, cache: Path | None = None) -> dict[str, float]:
    """Build the candidate graph once with the on-disk embedder (every text it embeds is saved).
    Returns the texts cached before and after and the seconds it took."""
    from kopa_inspect.apis import operations

    embedder = Embedder(cache or cache_dir())
    before = embedder.cached
    t0 = time.perf_counter()
    build_candidate_graph(list(ops if ops is not None else operations().values()), embedder)
    return {
        "cached_before": before,
        "cached_after": embedder.cached,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> None:  # pragma: no cover - setup entry point
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    done = warm()
    print(
        f"edge cache {cache_dir()}: {done['cached_after']:.0f} texts "
        f"({done['cached_after'] - done['cached_before']:.0f} new) in {done['seconds']} s"
    )


if __name__ == "__main__":  # pragma: no cover
    main()
