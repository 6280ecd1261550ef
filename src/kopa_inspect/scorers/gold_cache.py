"""One gold truth per (task, seed, clock, backend), computed once per process and shared.

Every sample and epoch of a task grades against the same gold: the gold plan run at the task's
clock, the records each fact needs, row aliases, the full answer sets. On a backend whose answer
is a function of the request, the seed and the clock (the emulator, embedded or served) that gold
is the same each time, so it is computed once and read by every grade after it; samples of the
same key that ask at once wait for that one computation.

Not cached:

- ``live``: the gold is what the services answer now, next to the agent's own calls; a gold from
  an earlier epoch could disagree with what the agent was just shown.
- ``replay``: identical calls answer in recorded order, so each sample's gold run reads its own
  answers from the recording, as it did when it was recorded.
- A failure (a gold plan that no longer runs, a backend that did not answer): the samples waiting
  on it get the same error, and the next sample tries again (``inspect eval-retry`` must rerun).

Graders read a cached :class:`GoldTruth` and never change it (``tests/scorers/test_gold_cache.py``
checks that grading leaves it equal to a deep copy); its ``step_view`` memo only ever adds the
same value for the same step.

On disk too, where ``KOPA_GOLD_CACHE_DIR`` is set (:mod:`.gold_disk`: the embedded emulator only,
under a fingerprint of the package's code and data, since the task version alone does not cover
a change to the emulator).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers import gold_disk
from kopa_inspect.scorers.grading import GoldTruth

# Backends whose answers are a function of the request, the seed and the clock.
CACHED_KINDS = frozenset({"embedded", "served"})

# Enough for every task of several benchmarks at a few seeds; the oldest entry goes first.
MAX_ENTRIES = 2048


@dataclass(frozen=True)
class GoldKey:
    """What a gold truth depends on: the task (its id and content), the benchmark's version, the
    seed, the clock and the backend configuration (kind, URL, recording file...)."""

    task_id: str
    task_hash: str
    task_version: int
    seed: int
    clock: str | None
    backend: str
    # also kept on disk where KOPA_GOLD_CACHE_DIR is set (gold_disk: the embedded emulator only)
    durable: bool = False


def task_hash(task_json: dict[str, Any]) -> str:
    """A content hash of a task's JSON: two task files with the same id and other plans differ."""
    text = json.dumps(task_json, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def gold_key(task_json: dict[str, Any], config: BackendConfig, task_version: int) -> GoldKey | None:
    """The cache key of a task's gold on a backend; None where the gold must be computed afresh."""
    if config.kind not in CACHED_KINDS:
        return None
    return GoldKey(
        task_id=str(task_json.get("id")),
        task_hash=task_hash(task_json),
        task_version=task_version,
        seed=config.seed,
        clock=task_json.get("clock"),
        backend=config.model_dump_json(),
        durable=config.kind == "embedded" and not config.recording,
    )


def _retrieve(task: asyncio.Task[GoldTruth]) -> None:
    # A computation nobody awaits any more (every waiter cancelled) must not log "exception was
    # never retrieved".
    if not task.cancelled():
        task.exception()


class GoldCache:
    """Finished golds by key (least recently used first out) and the computations in flight."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._done: OrderedDict[GoldKey, GoldTruth] = OrderedDict()
        self._pending: dict[GoldKey, asyncio.Task[GoldTruth]] = {}

    def __len__(self) -> int:
        return len(self._done)

    def clear(self) -> None:
        self._done.clear()
        self._pending.clear()

    async def get(self, key: GoldKey, compute: Callable[[], Awaitable[GoldTruth]]) -> GoldTruth:
        """The gold for ``key``: cached, awaited from a computation in flight, or computed now."""
        gold = self._done.get(key)
        if gold is not None:
            self._done.move_to_end(key)
            return gold
        loop = asyncio.get_running_loop()
        pending = self._pending.get(key)
        # A computation belongs to its event loop: one left by an earlier eval's loop is not awaited.
        if pending is None or pending.get_loop() is not loop:
            pending = loop.create_task(self._compute(key, compute))
            pending.add_done_callback(_retrieve)
            self._pending[key] = pending
        # Shielded: one sample cancelled (a time limit) does not cancel the others' gold.
        return await asyncio.shield(pending)

    async def _compute(self, key: GoldKey, compute: Callable[[], Awaitable[GoldTruth]]) -> GoldTruth:
        try:
            gold = gold_disk.load(key) if key.durable else None
            if not isinstance(gold, GoldTruth):
                gold = await compute()
                if key.durable:
                    gold_disk.save(key, gold)
        finally:
            if self._pending.get(key) is asyncio.current_task():
                del self._pending[key]
        self._done[key] = gold
        while len(self._done) > self.max_entries:
            self._done.popitem(last=False)
        return gold


# The process-wide cache the scorers read.
GOLD_CACHE = GoldCache()
