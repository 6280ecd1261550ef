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
# The clock of a world asked for without one: *today*, so that a real client pointed at
# ``kopa serve`` and asking for "today" (a forecast, today's meals) finds data. It is the wall
# time (KST, to the minute) when the process first needs it, then fixed for the process: one
# process stays deterministic. Every KOPA-Bench task fixes its own clock (BenchTask.clock), which
# travels with each call (X-Kopa-Clock), so the benchmark and its oracle never read this default.
# ``NOW`` ("now") asks for the wall clock at each request instead (a long-running served emulator).
NOW = "now"
_default_clock: datetime | None = None
_default_lock = threading.Lock()


def wall_clock() -> datetime:
    """The current KST time to the minute (patched in tests)."""
    return datetime.now(KST).replace(second=0, microsecond=0)


def default_clock() -> datetime:
    """Today: the wall clock at first use in this process, fixed from then on."""
    global _default_clock
    with _default_lock:
        if _default_clock is None:
            _default_clock = wall_clock()
        return _default_clock


def __getattr__(name: str) -> Any:
    # ``DEFAULT_CLOCK`` is today, resolved on first use rather than fixed at import.
    if name == "DEFAULT_CLOCK":
        return default_clock()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """ISO-8601 text or datetime -> aware KST datetime (naive values are taken as KST).

    ``None`` is the process's default clock (today, see :func:`default_clock`); ``"now"`` is the
    wall clock to the minute.
    """
    if value is None or value == "":
        return default_clock()
    if isinstance(value, str) and value.strip().lower() == NOW:
        return wall_clock()
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
    # Parts register on import: load every module of this package (the world knows nothing of the
    # providers that read it).
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


def get_world(seed: int = DEFAULT_SEED, clock: str | None = None) -> World:
    """Worlds are cached: a run over 145 tasks builds each (seed, clock) once.

    ``"now"`` is resolved to the current minute first, so it is never cached as a frozen time.
    """
    if isinstance(clock, str) and clock.strip().lower() == NOW:
        clock = wall_clock().isoformat()
    return _cached_world(seed, clock)


@lru_cache(maxsize=64)
def _cached_world(seed: int, clock: str | None) -> World:
    return World(seed, clock)
