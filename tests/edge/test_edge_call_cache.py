"""The sampler's call cache (edge_synth.runner): the same drafts with and without it, and calls repeated.

The embedded emulator is a function of (seed, clock, operation, arguments); the sampler repeats ~80% of its
calls (a 300-row run: 6,668 calls, 1,387 distinct), each ~5 ms in the emulator. The cache must
change nothing but time: the drafts of the seeded sampler (tests/conftest.py's links) are compared with the
cache on and off (KOPA_EDGE_NO_CALL_CACHE=1)."""

from __future__ import annotations

import asyncio
import json

from edge_helpers import EDGE_CLOCK, EDGE_SEED, edge_graph


def _drafts(monkeypatch, cached: bool, n: int = 24) -> list[str]:
    from edge_synth.pool import ValuePool
    from edge_synth.sample import Sampler
    from kopa_inspect.backends import make_backend

    monkeypatch.setenv("KOPA_EDGE_NO_CALL_CACHE", "0" if cached else "1")

    async def run() -> list[str]:
        backend = make_backend(seed=EDGE_SEED)
        sampler = Sampler(edge_graph(), ValuePool(EDGE_CLOCK), backend, seed=EDGE_SEED, clock=EDGE_CLOCK)
        out = []
        try:
            for idx in range(n):
                draft, why = await sampler.sample(idx)
                out.append(
                    why
                    if draft is None
                    else json.dumps(
                        [
                            [s.model_dump() for s in draft.steps],
                            draft.outputs,
                            draft.args,
                            [(j.type, j.producer, j.consumers, j.detail) for j in draft.junctions],
                        ],
                        sort_keys=True,
                        default=str,
                        ensure_ascii=False,
                    )
                )
            from edge_synth.runner import _CACHES

            out.append(f"cached entries: {len(_CACHES.get(backend, {}))}")
        finally:
            await backend.aclose()
        return out

    return asyncio.run(run())


def test_the_cache_changes_no_draft_and_is_used(monkeypatch):
    on, off = _drafts(monkeypatch, True), _drafts(monkeypatch, False)
    assert on[:-1] == off[:-1]
    assert off[-1] == "cached entries: 0" and int(on[-1].split()[-1]) > 0, (on[-1], off[-1])
    assert sum(d.startswith("[") for d in on) >= 10  # drafts were made, not only failures
