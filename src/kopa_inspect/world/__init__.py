"""The deterministic offline world the emulator serves.

A :class:`World` is fixed by ``(seed, clock)``. Its parts (regions, stations, trades,
hospitals ...) are built lazily, once, by builder functions that world modules register with
:func:`world_part`; each part draws from its own random stream so adding a part never changes
another part's bytes. Static facts (where a hospital is) depend on the seed only; time-varying
facts (a forecast, a bus arrival) are drawn from streams keyed by the seed *and* the request's
own keys (base_date, station id ...), so one world answers consistently however it is asked.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

KST = timezone(timedelta(hours=9), "KST")

DEFAULT_SEED = 0
# The default clock of the embedded world (KST). Each benchmark task fixes its own clock.
DEFAULT_CLOCK = datetime(2026, 10, 15, 14, 20, tzinfo=KST)

_PARTS: dict[str, Callable[[World], Any]] = {}


def world_part(name: str) -> Callable[[Callable[[World], Any]], Callable[[World], Any]]:
    """Register a lazily built part of every world (``world.part(name)``)."""

    def register(fn: Callable[[World], Any]) -> Callable[[World], Any]:
        if name in _PARTS and _PARTS[name] is not fn:
            raise ValueError(f"world part {name!r} registered twice")
        _PARTS[name] = fn
        return fn

    return register


def parse_clock(value: str | datetime | None) -> datetime:
    """ISO-8601 text or datetime -> aware KST datetime (naive values are taken as KST)."""
    if value is None:
        return DEFAULT_CLOCK
    dt = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=KST)
    return dt.astimezone(KST)


class World:
    def __init__(self, seed: int = DEFAULT_SEED, clock: str | datetime | None = None) -> None:
        self.seed = int(seed)
        self.clock = parse_clock(clock)
        self._parts: dict[str, Any] = {}
        # Re-entrant: a part may build another part it depends on.
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"World(seed={self.seed}, clock={self.clock.isoformat()!r})"

    # randomness ------------------------------------------------------------------------
    def rng(self, namespace: str, *keys: object) -> random.Random:
        """A stream fixed by the seed, a namespace and any keys (never by call order)."""
        material = "\x1f".join([str(self.seed), namespace, *map(str, keys)])
        digest = hashlib.blake2b(material.encode("utf-8"), digest_size=8).digest()
        return random.Random(int.from_bytes(digest, "big"))

    # parts -----------------------------------------------------------------------------
    def part(self, name: str) -> Any:
        try:
            return self._parts[name]
        except KeyError:
            pass
        if name not in _PARTS:
            _import_parts()
            if name not in _PARTS:
                raise KeyError(f"unknown world part {name!r}; known: {sorted(_PARTS)}")
        with self._lock:
            if name not in self._parts:
                self._parts[name] = _PARTS[name](self)
        return self._parts[name]

    @property
    def today(self) -> str:
        return self.clock.strftime("%Y%m%d")


def _import_parts() -> None:
    # Parts register on import; loading the provider registry imports every part a spec uses.
    from kopa_inspect.apis import operations

    operations()


@lru_cache(maxsize=64)
def get_world(seed: int = DEFAULT_SEED, clock: str | None = None) -> World:
    """Worlds are cached: a run over 145 tasks builds each (seed, clock) once."""
    return World(seed, clock)
