"""The world's default clock is today (fixed per process); "now" follows the wall clock; every
KOPA-Bench task keeps its own clock, so the oracle's expected answers never read the default."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

import kopa_inspect.world as world_mod
from kopa_inspect.backends import make_backend
from kopa_inspect.execution import Session
from kopa_inspect.scorers.grading import gold_truth
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.world import KST, World, get_world, parse_clock

ELSEWHEN = datetime(2031, 3, 3, 9, 7, tzinfo=KST)  # a default no task uses


@pytest.fixture
def default_at(monkeypatch: pytest.MonkeyPatch):
    """Pretend the process started at ELSEWHEN (fresh world cache before and after)."""
    world_mod._cached_world.cache_clear()
    monkeypatch.setattr(world_mod, "_default_clock", None)
    monkeypatch.setattr(world_mod, "wall_clock", lambda: ELSEWHEN)
    yield ELSEWHEN
    world_mod._cached_world.cache_clear()


def test_default_clock_is_today_to_the_minute_and_fixed_for_the_process() -> None:
    first = parse_clock(None)
    now = datetime.now(KST)
    # Today: the wall clock when this process first asked (a test session is shorter than 6 h).
    assert now - timedelta(hours=6) <= first <= now
    assert first.second == first.microsecond == 0 and first.tzinfo is not None
    assert parse_clock(None) == first == World().clock == world_mod.DEFAULT_CLOCK  # fixed, deterministic


def test_now_follows_the_wall_clock_and_is_never_cached(default_at, monkeypatch: pytest.MonkeyPatch) -> None:
    assert get_world(0, "now").clock == ELSEWHEN == get_world(0).clock
    later = ELSEWHEN + timedelta(hours=5)
    monkeypatch.setattr(world_mod, "wall_clock", lambda: later)
    assert get_world(0, "now").clock == later  # not the cached 09:07 world
    assert get_world(0).clock == ELSEWHEN  # the process default stays where it was first read


def test_an_unclocked_emulator_call_is_at_today(default_at) -> None:
    async def load_dtm(session: Session) -> str:
        token = session.issue_token("neis")
        res = await session.call("neis_schoolInfo", {"KEY": token, "SCHUL_NM": "대치중학교"})
        assert res.ok, res.parsed
        return res.parsed.items[0]["LOAD_DTM"]

    async def go() -> tuple[str, str]:
        backend = make_backend()
        return await load_dtm(Session(backend)), await load_dtm(
            Session(backend, clock="2026-10-15T14:20:00+09:00")
        )

    free, fixed = asyncio.run(go())
    assert (free, fixed) == ("20310303", "20261015")


TIME_SENSITIVE = ("kma", "neis", "dart", "tago", "airkorea", "kasi", "seoul")


def test_bench_tasks_keep_their_own_clocks_and_the_oracle_is_unaffected(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tasks = load_tasks()
    assert tasks and all(parse_clock(t.clock).utcoffset() == timedelta(hours=9) for t in tasks)
    sample = [next(t for t in tasks if p in t.platforms) for p in TIME_SENSITIVE]

    async def expected() -> list[dict]:
        backend = make_backend()
        return [(await gold_truth(t, backend, 0)).expected for t in sample]

    world_mod._cached_world.cache_clear()
    before = asyncio.run(expected())
    world_mod._cached_world.cache_clear()
    monkeypatch.setattr(world_mod, "_default_clock", ELSEWHEN)
    try:
        after = asyncio.run(expected())
    finally:
        world_mod._cached_world.cache_clear()
    assert after == before and all(before)
