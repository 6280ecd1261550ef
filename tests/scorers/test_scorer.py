"""Grading axes on hand-made call records, pass@k / pass^k math and the model judge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kopa_inspect.backends import BackendConfig
from kopa_inspect.plans import PlanError
from kopa_inspect.scorers import axis_values
from kopa_inspect.scorers.grading import GoldTruth, gold_truth, grade, oracle_answer
from kopa_inspect.scorers.metrics import pass_at_k, pass_hat_k
from kopa_inspect.task_data.schema import BenchTask, load_tasks
from kopa_inspect.tools import shared_backend

TASK_FILE = Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl"


def _task(task_id: str) -> BenchTask:
    return next(t for t in load_tasks(TASK_FILE) if t.id == task_id)


async def _gold(task: BenchTask) -> GoldTruth:
    try:
        return await gold_truth(task, shared_backend(BackendConfig()), 0)
    except KeyError as exc:  # an operation not registered yet
        pytest.skip(str(exc))


def _entry(tool: str, args: dict[str, Any], ok: bool = True) -> dict[str, Any]:
    return {"tool": tool, "args": args, "ok": ok, "code": "00" if ok else "03"}


async def test_gold_truth_resolves_facts() -> None:
    task = _task("kopa-901")
    gold = await _gold(task)
    assert isinstance(gold.expected["count"], int) and gold.expected["count"] > 0
    assert gold.expected["apt"]
    assert gold.calls[1] == ("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11110", "DEAL_YMD": "202609"})


async def test_perfect_run() -> None:
    task = _task("kopa-901")
    gold = await _gold(task)
    calls = [_entry(t, a) for t, a in gold.calls]
    g = grade(task, gold, oracle_answer(task, gold.expected), calls)
    assert g.values() == {
        "success": 1.0,
        "answer": 1.0,
        "call_f1": 1.0,
        "chain": 1.0,
        "env": 1.0,
        "parallel": None,
        "efficiency": 1.0,
        "calls": 2.0,
        "errors": 0.0,
    }
    assert "all facts" in g.explanation() and "parallel=undefined" in g.explanation()


async def test_half_answer_extra_calls_and_errors() -> None:
    task = _task("kopa-901")
    gold = await _gold(task)
    calls = [
        _entry(gold.calls[0][0], gold.calls[0][1]),
        _entry("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11110", "DEAL_YMD": "202613"}, ok=False),
        _entry(gold.calls[1][0], gold.calls[1][1]),
    ]
    g = grade(task, gold, f"{gold.expected['count']}건", calls)
    assert g.answer == 0.5 and g.success == 0.0
    assert g.call_f1 == pytest.approx(0.8)  # p = 2/3, r = 1
    assert g.chain == 1.0 and g.env == 1.0
    assert g.errors == 1.0 and g.efficiency == pytest.approx(2 / 3)
    assert any("fact apt" in m for m in g.missing)


async def test_failed_call_does_not_count_as_made() -> None:
    task = _task("kopa-903")
    gold = await _gold(task)
    name, args = gold.calls[0]
    g = grade(task, gold, oracle_answer(task, gold.expected), [_entry(name, args, ok=False)])
    assert g.success == 0.0 and g.env == 0.0 and any(m.startswith("records of s1") for m in g.missing)


async def test_chain_needs_producer_before_consumer() -> None:
    task = _task("kopa-901")
    gold = await _gold(task)
    reversed_calls = [_entry(t, a) for t, a in reversed(gold.calls)]
    g = grade(task, gold, oracle_answer(task, gold.expected), reversed_calls)
    assert g.chain == 0.0 and g.call_f1 == 1.0


async def test_unanswerable_task() -> None:
    task = _task("kopa-904")
    gold = await _gold(task)
    assert grade(task, gold, oracle_answer(task, gold.expected), []).success == 1.0
    invented = grade(task, gold, "최고기온은 12.3도였습니다.", [])
    assert invented.success == 0.0 and invented.answer == 0.0
    wandering = grade(task, gold, "답할 수 없습니다", [_entry("kma_getVilageFcst", {"nx": 1})])
    # a call where none is needed is a wasted one (task version 5; was efficiency 1.0)
    assert wandering.success == 1.0 and wandering.efficiency == 0.0 and wandering.call_f1 == 0.0


async def test_gold_plan_failure_raises() -> None:
    task = _task("kopa-903").model_copy(deep=True)
    task.plan.steps[0].args["base_time"] = "1430"  # NO_DATA: the gold run must not pass silently
    with pytest.raises(PlanError):
        await _gold(task)


def test_pass_k_math() -> None:
    assert pass_at_k(4, 0, 1) == 0.0 and pass_at_k(4, 4, 4) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 1, 4) == 1.0
    assert pass_at_k(4, 2, 2) == pytest.approx(1 - 1 / 6)
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_hat_k(4, 3, 4) == 0.0 and pass_hat_k(4, 4, 4) == 1.0


def test_pass_k_metric_groups_by_sample() -> None:
    from inspect_ai.scorer import SampleScore, Score

    from kopa_inspect.scorers.metrics import pass_k

    scores = [
        SampleScore(score=Score(value=v), sample_id=sid)
        for sid, v in [("a", 1.0), ("a", 0.0), ("b", 1.0), ("b", 1.0), ("c", 0.0)]
    ]
    out = pass_k(ks=(1, 2))(scores)
    # c has a single epoch: k=2 is left out rather than failing
    assert set(out) == {"pass@1", "pass^1"}
    assert out["pass@1"] == pytest.approx((0.5 + 1 + 0) / 3)
    two = pass_k(ks=(1, 2))(scores[:4])
    assert two["pass@2"] == pytest.approx(1.0) and two["pass^2"] == pytest.approx(0.5)


def test_judge_scorer_with_a_scripted_grader(tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def grader(*_: Any) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", "states every fact.\nGRADE: C")
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    try:
        task_ok = _task("kopa-903")
        from kopa_inspect.apis import get_operation

        get_operation(task_ok.plan.steps[0].tool)
    except KeyError as exc:
        pytest.skip(str(exc))
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        model_roles={"grader": get_model("mockllm/model", custom_outputs=grader)},
        task_args={"task_file": str(TASK_FILE), "ids": "kopa-903", "judge": "grader"},
        log_dir=str(tmp_path),
        display="none",
    )
    sample = logs[0].samples[0]
    assert sample.scores["kopa_judge"].value == "C"
    assert axis_values(sample.scores)["success"] == 1.0
