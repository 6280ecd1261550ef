"""Broad name searches (issue 9, records per link): the world holds the neighbours a real search hits,
the gold plans search the way a person types, and a model that answers from the WRONG match fails.

TAGO getSttnNoList matches nodeNm partially (the providers' published API guides), so "충남대" finds every
stop named after the university (정문, 후문, 사거리 ..., each side of the road). The gold plan picks
the stop the query names by its full name; here a model that runs the same broad search and reads
the arrivals of another stop must not pass, while the right stop (by the broad or a narrow search)
must.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from kopa_inspect.backends import BackendConfig
from kopa_inspect.execution import Session
from kopa_inspect.scorers.grading import GoldTruth, gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import BenchTask, load_tasks
from kopa_inspect.tools import call_entry, shared_backend
from kopa_inspect.world import World
from kopa_inspect.world.transit import _CITY_LANDMARKS, cities, landmark_word

STTN = "tago_getSttnNoList"
ARVL = "tago_getSttnAcctoArvlPrearngeInfoList"
TASKS = {t.id: t for t in load_tasks()}


def test_every_landmark_word_finds_its_neighbours() -> None:
    """Each landmark's word finds 20+ stops (both sides of the road), the landmark among them, and
    other stops that share the word (the wrong matches a careless model could take)."""
    import statistics

    transit = World(seed=0).part("transit")
    counts = []
    for c in cities():
        for landmark in _CITY_LANDMARKS.get(str(c.code), ()):
            word = landmark_word(landmark)
            hits = [s for s in transit.stops(c) if word in s.name]
            counts.append(len(hits))
            assert len(hits) >= 15, (c.name, landmark, len(hits))
            assert any(s.name == landmark for s in hits), landmark
            assert len({s.name for s in hits}) >= 8, landmark
    assert statistics.median(counts) >= 20


def test_stop_world_is_deterministic() -> None:
    a, b = World(seed=0).part("transit"), World(seed=0).part("transit")
    for c in cities():
        assert a.stops(c) == b.stops(c)


def _stop_tasks() -> list[BenchTask]:
    """Answerable tasks whose stop search is broad (the searched word is not the stop's full name)."""
    out = []
    for t in TASKS.values():
        for s in t.plan.steps:
            if s.tool == STTN and any("nodenm==" in str(s2.args.get("nodeId", "")) for s2 in t.plan.steps):
                out.append(t)
                break
    return out


def test_tago_tasks_search_broadly() -> None:
    tasks = _stop_tasks()
    assert len(tasks) >= 10
    for t in tasks:
        for s in t.plan.steps:
            if s.tool == STTN:
                assert s.args["nodeNm"] != "" and "numOfRows" in s.args, t.id


def _gold(task: BenchTask) -> GoldTruth:
    return asyncio.run(gold_truth(task, shared_backend(BackendConfig()), 0))


def _run(task: BenchTask, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[dict]]:
    async def go() -> tuple[list[dict[str, Any]], list[dict]]:
        session = Session(shared_backend(BackendConfig()), clock=task.clock, seed=0)
        entries, outputs = [], []
        for tool, args in calls:
            result = await session.call(tool, args)
            entries.append(call_entry(result))
            outputs.append(result.output())
        return entries, outputs

    return asyncio.run(go())


def _swap_stop(
    task: BenchTask, gold: GoldTruth, wrong: bool
) -> tuple[list[tuple[str, dict[str, Any]]], dict]:
    """The gold calls with every arrival call pointed at another stop of the same broad search
    (``wrong``) or left as they are; returns the calls and the step outputs they produce."""
    ids = [s.id for s in task.plan.steps]
    calls = [(tool, dict(args)) for tool, args in gold.calls]
    used = {args["nodeId"] for tool, args in calls if tool == ARVL}
    if wrong:
        for i, (tool, args) in enumerate(calls):
            if tool != ARVL:
                continue
            step = task.plan.steps[i]
            producer = str(step.args["nodeId"]).split(".")[0].lstrip("$")
            rows = gold.run.outputs[producer]["items"]
            right = next(r for r in rows if r["nodeid"] == args["nodeId"])
            others = [r for r in rows if r["nodenm"] != right["nodenm"] and r["nodeid"] not in used]
            assert others, (task.id, producer)
            args["nodeId"] = others[0]["nodeid"]
            used.add(others[0]["nodeid"])
    _, outs = _run(task, calls)
    return calls, dict(zip(ids, outs, strict=True))


@pytest.mark.parametrize("task_id", [t.id for t in _stop_tasks() if t.category != "unanswerable"][:4])
def test_answer_from_another_stop_of_the_broad_search_fails(task_id: str) -> None:
    task = TASKS[task_id]
    gold = _gold(task)
    # the right stop, found by the same broad search: passes
    calls, _ = _swap_stop(task, gold, wrong=False)
    entries, _ = _run(task, calls)
    ok = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), entries)
    assert ok.success == 1.0, ok.explanation()
    # another stop sharing the word (e.g. 충남대정문 for 충남대학교), answered from its arrivals: fails
    calls, outputs = _swap_stop(task, gold, wrong=True)
    wrong_expected = {f.id: f.resolve(outputs) for f in task.facts}
    entries, _ = _run(task, calls)
    bad = grade(task, gold, oracle_answer(task, wrong_expected, context=gold.context), entries)
    assert bad.success == 0.0, (task.id, wrong_expected, gold.expected)


def test_narrow_search_for_the_named_stop_also_passes() -> None:
    """A model that types the stop's full name (2 rows) retrieves the same stops: a valid path."""
    task = next(t for t in _stop_tasks() if t.category != "unanswerable")
    gold = _gold(task)
    calls = []
    for s, (tool, args) in zip(task.plan.steps, gold.calls, strict=True):
        if tool == STTN:
            name = str(
                next(
                    s2.args["nodeId"]
                    for s2 in task.plan.steps
                    if str(s2.args.get("nodeId", "")).startswith(f"${s.id}.")
                )
            ).split("'")[1]
            args = {"cityCode": args["cityCode"], "nodeNm": name}
        calls.append((tool, args))
    entries, _ = _run(task, calls)
    g = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), entries)
    assert g.success == 1.0, g.explanation()
