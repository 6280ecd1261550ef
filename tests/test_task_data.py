"""KOPA-Bench task data: the shipped tasks parse, execute and have the paper's shape."""

from __future__ import annotations

import json

import pytest

from kopa_inspect.plans import Plan, PlanError
from kopa_inspect.task_data.schema import (
    HELD_OUT_PLATFORMS,
    AnswerFact,
    BenchTask,
    load_tasks,
    resolve_value,
    to_num,
)
from kopa_inspect.task_data.validate import duplicate_issues, task_stats, validate_tasks


@pytest.fixture(scope="module")
def tasks() -> list[BenchTask]:
    return load_tasks()


@pytest.fixture(scope="module")
def report(tasks):
    return validate_tasks(tasks, execute=True)


def test_all_tasks_validate(report):
    problems = [f"{i.task_id} {i.check}: {i.message}" for i in report.issues]
    assert report.ok, "\n".join(problems[:40])


def test_shape_matches_paper(tasks):
    stats = task_stats(tasks)
    assert stats["n_tasks"] == 145
    assert stats["n_platforms"] >= 10
    assert 3.5 <= stats["mean_calls"] <= 6.0  # paper: 4.92 (see report: ours is lower)
    assert stats["max_calls"] >= 14  # paper: up to 14
    assert 0.5 <= stats["parallel_share"] <= 0.75  # paper: 59%; fan-out families are parallel by nature
    assert 25 <= stats["held_out"] <= 35
    assert 20 <= stats["categories"]["unanswerable"] <= 30  # issue 9: at least 20, of varied kinds
    assert set(stats["categories"]) == {
        "chain2", "chain3", "chain4plus", "parallel", "pagination", "error_recovery", "unanswerable"
    }
    for domain in ("transport", "finance", "education", "law", "politics", "district"):
        assert stats["domains"].get(domain, 0) >= 5, domain
    assert stats["token_tasks"] >= 5  # the NEIS auth-key trap


def test_queries_dictate_no_page_size_or_grid(tasks):
    """Issue 9: the model finds grid cells and page sizes itself; errors come from the world."""
    import re

    for t in tasks:
        assert not re.search(r"격자|\d+\s*(건|개|명)씩|페이지당|grid", t.query + t.query_en), t.id
        assert not re.search(r"넣어(서|봐)|먼저 (조회|시도)|try .* (first|directly|as is)", t.query + t.query_en), t.id


def test_ids_unique_and_sequential(tasks):
    ids = [t.id for t in tasks]
    assert ids == [f"kopa-{i:03d}" for i in range(1, len(tasks) + 1)]


def test_held_out_split_is_by_platform(tasks):
    for t in tasks:
        assert t.held_out == bool(set(t.platforms) & HELD_OUT_PLATFORMS)
    in_dist_platforms = {p for t in tasks if not t.held_out for p in t.platforms}
    assert not in_dist_platforms & HELD_OUT_PLATFORMS


def test_queries_are_korean_and_distinct(tasks):
    for t in tasks:
        assert any("\uac00" <= ch <= "\ud7a3" for ch in t.query), t.id
    assert len({t.query for t in tasks}) == len(tasks)


def test_gold_tools_within_allowed_tools(tasks):
    for t in tasks:
        assert set(t.plan.tools()) <= set(t.tools)


# --- the machinery on small inputs (these fail if the checks stop checking) ------------------------


def _task(**over) -> dict:
    base = {
        "id": "kopa-900",
        "category": "chain2",
        "domain": "weather",
        "platforms": ["kasi"],
        "tools": ["kasi_getRestDeInfo"],
        "query": "올해 10월 공휴일이 며칠이야?",
        "query_en": "How many public holidays in October?",
        "clock": "2026-10-01T09:00:00+09:00",
        "plan": {"steps": [{"id": "s1", "tool": "kasi_getRestDeInfo", "args": {"solYear": "2026"}}]},
        "facts": [{"id": "n", "description": "count", "value": "$s1.totalCount", "matcher": "number"}],
        "n_calls": 1,
        "parallel": False,
    }
    base.update(over)
    return base


def test_schema_rejects_inconsistent_records():
    BenchTask.model_validate(_task())
    with pytest.raises(ValueError):
        BenchTask.model_validate(_task(n_calls=2))
    with pytest.raises(ValueError):
        BenchTask.model_validate(_task(parallel=True))
    with pytest.raises(ValueError):
        BenchTask.model_validate(_task(clock="2026-10-01T09:00:00Z"))
    with pytest.raises(ValueError):
        BenchTask.model_validate(_task(tools=["other_tool"]))
    with pytest.raises(ValueError):  # a literal answer outside an unanswerable task
        BenchTask.model_validate(_task(facts=[{"id": "x", "description": "d", "value": "3", "matcher": "number"}]))


def test_fact_resolution_functions():
    outputs = {
        "s1": {"items": [{"dealAmount": " 195,000"}, {"dealAmount": "72,500"}, {"dealAmount": " "}]},
        "s2": {"totalCount": 7, "items": []},
    }
    assert to_num(" 195,000") == 195000.0
    assert to_num("-") is None
    assert resolve_value("$s1.max(nums(items[].dealAmount))", outputs) == 195000.0
    assert resolve_value("$_.s2.totalCount", outputs) == 7
    assert resolve_value("$s1.items[1].dealAmount[:2]", outputs) == "72"
    assert resolve_value("literal", outputs) == "literal"
    fact = AnswerFact(id="f", description="d", value="$s3.items[0]", matcher="name")
    with pytest.raises(PlanError):
        fact.resolve(outputs)


def test_session_reference_is_not_a_step():
    plan = Plan.model_validate(
        {"steps": [{"id": "s1", "tool": "neis_schoolInfo", "args": {"KEY": "$session.neis", "SCHUL_NM": "x"}}]}
    )
    assert plan.steps[0].depends_on() == set()
    assert plan.steps[0].session_platforms() == {"neis"}


def test_duplicates_are_found():
    a = BenchTask.model_validate(_task())
    b = BenchTask.model_validate(_task(id="kopa-901", query="올해 10월 공휴일이 며칠이야 ?"))
    assert {i.check for i in duplicate_issues([a, b])} == {"duplicate"}


def test_load_tasks_reads_a_file(tmp_path):
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps(_task(), ensure_ascii=False) + "\n", encoding="utf-8")
    (t,) = load_tasks(p)
    assert t.id == "kopa-900"
