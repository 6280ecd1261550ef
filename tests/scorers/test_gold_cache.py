"""The gold-truth cache: one computation per (task, version, seed, clock, backend), shared by every
sample and epoch, and grades equal to those computed without it."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval

from kopa_inspect.backends import BackendConfig
from kopa_inspect.plans import PlanError
from kopa_inspect.scorers import axis_values, gold_disk
from kopa_inspect.scorers import kopa as kopa_scorer
from kopa_inspect.scorers.gold_cache import GOLD_CACHE, GoldCache, GoldKey, gold_key
from kopa_inspect.scorers.grading import GoldTruth, gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import BenchTask, load_tasks
from kopa_inspect.tools import shared_backend

TASK_FILE = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _key(name: str = "kopa-901", seed: int = 0) -> GoldKey:
    return GoldKey(name, "hash", 1, seed, "2026-10-15T14:20:00+09:00", "{}")


class _Counter:
    """A stand-in gold computation that counts its runs and takes a while (so requests overlap)."""

    def __init__(self, fail: bool = False) -> None:
        self.runs = 0
        self.fail = fail

    async def __call__(self) -> Any:
        self.runs += 1
        await asyncio.sleep(0.02)
        if self.fail:
            raise PlanError("gold step s1 failed")
        return object()


async def test_concurrent_requests_of_one_key_compute_once() -> None:
    cache, compute = GoldCache(), _Counter()
    golds = await asyncio.gather(*(cache.get(_key(), compute) for _ in range(5)))
    assert compute.runs == 1
    assert all(g is golds[0] for g in golds)
    assert await cache.get(_key(), compute) is golds[0] and compute.runs == 1


async def test_other_keys_compute_separately() -> None:
    cache, compute = GoldCache(), _Counter()
    keys = [_key(), _key(seed=1), _key("kopa-902")]
    golds = await asyncio.gather(*(cache.get(k, compute) for k in keys for _ in range(3)))
    assert compute.runs == 3
    assert len({id(g) for g in golds}) == 3


def test_key_names_task_content_seed_clock_and_backend() -> None:
    task = load_tasks(TASK_FILE)[0].model_dump(mode="json")
    base = gold_key(task, BackendConfig(), 11)
    assert base == gold_key(copy.deepcopy(task), BackendConfig(), 11)
    other_clock = {**task, "clock": "2026-10-16T09:00:00+09:00"}
    other_plan = {**task, "query": task["query"] + "?"}
    others = [
        gold_key(task, BackendConfig(seed=1), 11),
        gold_key(other_clock, BackendConfig(), 11),
        gold_key(other_plan, BackendConfig(), 11),
        gold_key(task, BackendConfig(), 12),
        gold_key(task, BackendConfig(kind="served", base_url="http://127.0.0.1:8090"), 11),
    ]
    assert all(k is not None and k != base for k in others)
    assert len(set(others)) == len(others)


def test_live_and_replay_golds_are_not_cached() -> None:
    task = load_tasks(TASK_FILE)[0].model_dump(mode="json")
    assert gold_key(task, BackendConfig(kind="live"), 11) is None
    assert gold_key(task, BackendConfig(kind="replay", recording="run.jsonl"), 11) is None


async def test_a_failure_reaches_every_waiter_and_is_not_kept() -> None:
    cache, failing = GoldCache(), _Counter(fail=True)
    results = await asyncio.gather(*(cache.get(_key(), failing) for _ in range(3)), return_exceptions=True)
    assert failing.runs == 1 and all(isinstance(r, PlanError) for r in results)
    working = _Counter()
    await cache.get(_key(), working)
    assert working.runs == 1 and len(cache) == 1


async def test_a_cancelled_waiter_leaves_the_computation_to_the_others() -> None:
    cache, compute = GoldCache(), _Counter()
    first = asyncio.create_task(cache.get(_key(), compute))
    second = asyncio.create_task(cache.get(_key(), compute))
    await asyncio.sleep(0)
    first.cancel()
    assert await second is not None and compute.runs == 1
    assert first.cancelled()


async def test_oldest_entry_goes_past_the_limit() -> None:
    cache, compute = GoldCache(max_entries=2), _Counter()
    for name in ("a", "b", "c"):
        await cache.get(_key(name), compute)
    assert len(cache) == 2
    await cache.get(_key("a"), compute)
    assert compute.runs == 4


# --- through the scorer --------------------------------------------------------------------------


@pytest.fixture
def gold_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every gold computation the scorer starts, by task id (cache emptied before and after)."""
    runs: list[str] = []

    async def counted(task: Any, backend: Any, seed: int = 0) -> GoldTruth:
        runs.append(task.id)
        return await gold_truth(task, backend, seed)

    monkeypatch.setattr(kopa_scorer, "gold_truth", counted)
    GOLD_CACHE.clear()
    yield runs
    GOLD_CACHE.clear()


def _oracle_run(tmp_path: Path, epochs: int, ids: str) -> Any:
    log = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        task_args={"task_file": TASK_FILE, "ids": ids},
        epochs=epochs,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    return log


def _grades(log: Any) -> dict[tuple[str, int], tuple[dict[str, Any], dict[str, Any]]]:
    return {
        (str(s.id), s.epoch): (axis_values(s.scores), s.scores["kopa_success"].metadata) for s in log.samples
    }


def test_epochs_of_a_sample_share_one_gold(tmp_path: Path, gold_runs: list[str]) -> None:
    log = _oracle_run(tmp_path, epochs=3, ids="kopa-901,kopa-903")
    assert len(log.samples) == 6
    assert sorted(gold_runs) == ["kopa-901", "kopa-903"]
    assert all(axis_values(s.scores)["success"] == 1.0 for s in log.samples)


def test_grades_equal_with_and_without_the_cache(
    tmp_path: Path, gold_runs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = "kopa-901,kopa-902,kopa-904,kopa-905"
    cached = _grades(_oracle_run(tmp_path / "cached", epochs=2, ids=ids))
    assert len(gold_runs) == 4
    monkeypatch.setattr(kopa_scorer, "gold_key", lambda *a: None)
    fresh = _grades(_oracle_run(tmp_path / "fresh", epochs=2, ids=ids))
    assert len(gold_runs) == 4 + 8
    assert cached.keys() == fresh.keys() and len(cached) == 8
    assert cached == fresh


# --- graders treat the gold as read-only ----------------------------------------------------------


def _wrong_runs(task: BenchTask, gold: GoldTruth) -> list[tuple[str, list[dict[str, Any]]]]:
    """The oracle's run, then runs a grader must pick apart: a wrong answer over the right calls,
    the right answer without calls, half the calls with one failing."""
    calls = [{"tool": t, "args": dict(a), "ok": True, "code": "00"} for t, a in gold.calls]
    right = oracle_answer(task, gold.expected)
    failed = [{**c, "ok": False, "code": "03"} for c in calls[:1]]
    return [(right, calls), ("모르겠습니다 0건", calls), (right, []), (right, failed + calls[1:])]


@pytest.mark.parametrize("source", ["mini", "benchmark"])
async def test_grading_leaves_the_gold_unchanged(source: str) -> None:
    tasks = load_tasks(TASK_FILE) if source == "mini" else load_tasks()[::12]
    backend = shared_backend(BackendConfig())
    views = 0
    for task in tasks:
        gold = await gold_truth(task, backend, 0)
        before = copy.deepcopy(gold)
        for answer, calls in _wrong_runs(task, gold):
            grade(task, gold, answer, calls)
        assert gold == before, task.id
        # the step-view memo is the one thing grading fills in: each entry what a fresh gold builds
        for k, view in gold._step_views.items():
            assert view == before.step_view(k, task.plan.steps[k]), (task.id, k)
            views += 1
    assert views > 0  # the memo was exercised


# --- on disk (KOPA_GOLD_CACHE_DIR) -----------------------------------------------------------------


async def test_a_new_process_reads_the_gold_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(gold_disk.ENV, str(tmp_path))
    task = load_tasks(TASK_FILE)[0]
    key = gold_key(task.model_dump(mode="json"), BackendConfig(), 11)
    assert key is not None and key.durable
    runs: list[int] = []

    async def compute() -> GoldTruth:
        runs.append(1)
        return await gold_truth(task, shared_backend(BackendConfig()), 0)

    first = await GoldCache().get(key, compute)
    again = await GoldCache().get(key, compute)  # a fresh cache: what a new process starts with
    assert len(runs) == 1 and again is not first and again == first
    # another generation of the code reads nothing kept by this one
    monkeypatch.setattr(gold_disk, "code_fingerprint", lambda: "other-code")
    await GoldCache().get(key, compute)
    assert len(runs) == 2


async def test_unreadable_entries_are_misses_and_other_backends_stay_off_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(gold_disk.ENV, str(tmp_path))
    task = load_tasks(TASK_FILE)[2].model_dump(mode="json")
    key = gold_key(task, BackendConfig(), 11)
    gold_disk.save(key, GoldTruth(run=None, expected={"n": 1}, calls=[]))  # type: ignore[arg-type]
    assert gold_disk.load(key) == GoldTruth(run=None, expected={"n": 1}, calls=[])  # type: ignore[arg-type]
    next(tmp_path.rglob("*.pickle")).write_bytes(b"torn")
    assert gold_disk.load(key) is None
    served = BackendConfig(kind="served", base_url="http://127.0.0.1:8090")
    recorded = BackendConfig(recording=str(tmp_path / "run.jsonl"))
    assert not gold_key(task, served, 11).durable  # type: ignore[union-attr]
    assert not gold_key(task, recorded, 11).durable  # type: ignore[union-attr]
    monkeypatch.delenv(gold_disk.ENV)
    assert gold_disk.load(key) is None and gold_disk.cache_dir() is None
