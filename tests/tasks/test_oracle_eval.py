"""End-to-end Inspect runs over tests/data/mini_tasks.jsonl through the installed plugin.

The oracle must score success 1.0 everywhere; scripted mockllm models check that each failure
mode lowers the axis it should (and only that).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers import axis_values
from kopa_inspect.scorers.grading import gold_truth
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

TASK_FILE = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")
NEEDED = {
    "stanregincd_getStanReginCdList",
    "molit_getRTMSDataSvcAptTrade",
    "kasi_getRestDeInfo",
    "kma_getVilageFcst",
    "neis_schoolInfo",
}

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def _operations_present() -> None:
    from kopa_inspect.apis import operations

    missing = NEEDED - set(operations())
    if missing:
        pytest.skip(f"operations not registered: {sorted(missing)}")


def _usage() -> ModelUsage:
    return ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)


def _text(text: str) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = _usage()
    return out


def _call(name: str, args: dict[str, Any], call_id: str) -> ModelOutput:
    out = ModelOutput.for_tool_call("mockllm/model", name, args, tool_call_id=call_id)
    out.usage = _usage()
    return out


def _run(model: Any, tmp_path: Path, **task_args: Any) -> Any:
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model=model,
        task_args={"task_file": TASK_FILE, **task_args},
        log_dir=str(tmp_path),
        display="none",
    )
    assert len(logs) == 1
    log = logs[0]
    assert log.status == "success", log.error
    return log


def _scores(log: Any) -> dict[str, dict[str, float]]:
    return {str(s.id): axis_values(s.scores) for s in log.samples}


def _expected(task_id: str) -> dict[str, Any]:
    task = next(t for t in load_tasks(TASK_FILE) if t.id == task_id)

    async def go() -> dict[str, Any]:
        return (await gold_truth(task, shared_backend(BackendConfig()), 0)).expected

    return asyncio.run(go())


def test_oracle_succeeds_on_every_task(tmp_path: Path) -> None:
    log = _run("kopa/oracle", tmp_path)
    scores = _scores(log)
    assert len(scores) == len(load_tasks(TASK_FILE))
    for sid, value in scores.items():
        assert value["success"] == 1.0, (sid, log.samples)
        assert value["answer"] == value["call_f1"] == 1.0
        # chain/env are undefined (None) for the unanswerable task: it needs no calls
        assert value["chain"] in (1.0, None) and value["env"] in (1.0, None)
        assert value["errors"] == 0.0
    metrics = {
        m: v.value for s in log.results.scores for m, v in s.metrics.items() if s.name == "kopa_success"
    }
    assert metrics["pass@1"] == 1.0
    # the oracle emitted the parallel wave as one assistant message with two tool calls
    parallel = next(s for s in log.samples if s.id == "kopa-902")
    assert any(len(m.tool_calls or []) == 2 for m in parallel.messages if m.role == "assistant")
    # the system prompt states today's date from the task clock
    assert "2026년 10월 15일" in log.samples[0].messages[0].text


def test_oracle_pass_k_over_epochs(tmp_path: Path) -> None:
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        task_args={"task_file": TASK_FILE, "ids": "kopa-903"},
        epochs=4,
        log_dir=str(tmp_path),
        display="none",
    )
    metrics = {
        k: v.value for s in logs[0].results.scores for k, v in s.metrics.items() if s.name == "kopa_success"
    }
    assert metrics["pass@4"] == 1.0 and metrics["pass^4"] == 1.0 and metrics["pass@1"] == 1.0


def test_mockllm_default_answer_fails(tmp_path: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=lambda *a: _text("Default output from mockllm/model"))
    scores = _scores(_run(model, tmp_path))
    answerable = {k: v for k, v in scores.items() if k != "kopa-904"}
    assert all(v["success"] == 0.0 for v in answerable.values())
    assert all(v["calls"] == 0.0 and v["call_f1"] == 0.0 for v in answerable.values())


def test_right_calls_wrong_number_fails_answer(tmp_path: Path) -> None:
    args = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12}

    def script(messages: list[Any], *rest: Any) -> ModelOutput:
        if not any(isinstance(m, ChatMessageTool) for m in messages):
            return _call("kma_getVilageFcst", args, "c1")
        return _text("15시 기온은 99도입니다.")

    v = _scores(_run(get_model("mockllm/model", custom_outputs=script), tmp_path, ids="kopa-903"))["kopa-903"]
    assert v["call_f1"] == 1.0 and v["chain"] == 1.0 and v["env"] == 1.0
    assert v["answer"] == 0.0 and v["success"] == 0.0


def test_right_answer_without_tools_fails_success(tmp_path: Path) -> None:
    tmp = _expected("kopa-903")["tmp"]
    model = get_model("mockllm/model", custom_outputs=lambda *a: _text(f"15시 기온은 {tmp}도입니다."))
    v = _scores(_run(model, tmp_path, ids="kopa-903"))["kopa-903"]
    assert v["answer"] == 1.0
    assert v["success"] == 0.0 and v["call_f1"] == 0.0 and v["calls"] == 0.0


def test_wrong_arguments_lower_call_f1_and_chain(tmp_path: Path) -> None:
    expected = _expected("kopa-901")

    def script(messages: list[Any], *rest: Any) -> ModelOutput:
        n_tool = sum(isinstance(m, ChatMessageTool) for m in messages)
        if n_tool == 0:
            return _call(
                "stanregincd_getStanReginCdList", {"locatadd_nm": "서울특별시 종로구", "numOfRows": 1}, "c1"
            )
        if n_tool == 1:  # the wrong district code: the lookup's output is not used
            return _call("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11680", "DEAL_YMD": "202609"}, "c2")
        return _text(f"{expected['count']}건, {expected['apt']}")

    v = _scores(_run(get_model("mockllm/model", custom_outputs=script), tmp_path, ids="kopa-901"))["kopa-901"]
    assert v["call_f1"] == pytest.approx(0.5)
    assert v["chain"] == 0.0
    assert v["success"] == 0.0
    assert v["env"] == 0.5  # the lookup's records were retrieved, the trades of s2 were not


def test_api_error_reaches_the_model_and_counts(tmp_path: Path) -> None:
    seen: list[str] = []

    def script(messages: list[Any], *rest: Any) -> ModelOutput:
        tools = [m for m in messages if isinstance(m, ChatMessageTool)]
        if not tools:
            return _call(
                "kma_getVilageFcst", {"base_date": "20261015", "base_time": "1430", "nx": 60, "ny": 127}, "c1"
            )
        seen.append(tools[-1].error.message if tools[-1].error else "")
        return _text("모르겠습니다")

    v = _scores(_run(get_model("mockllm/model", custom_outputs=script), tmp_path, ids="kopa-903"))["kopa-903"]
    assert v["errors"] == 1.0 and v["success"] == 0.0
    assert seen and "NO_DATA" in seen[0]


def test_filters_and_language(tmp_path: Path) -> None:
    log = _run("kopa/oracle", tmp_path, categories="parallel,unanswerable", language="en")
    assert sorted(str(s.id) for s in log.samples) == ["kopa-902", "kopa-904"]
    assert "Korea Standard Time" in log.samples[0].messages[0].text
    assert all(axis_values(s.scores)["success"] == 1.0 for s in log.samples)


def test_search_tool_set_finds_and_adds_tools(tmp_path: Path) -> None:
    args = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12}

    def script(messages: list[Any], tools: list[Any], *rest: Any) -> ModelOutput:
        n_tool = sum(isinstance(m, ChatMessageTool) for m in messages)
        if n_tool == 0:
            assert [t.name for t in tools] == ["search_tools"]
            return _call("search_tools", {"query": "단기예보 격자 예보"}, "c1")
        if n_tool == 1:
            assert "kma_getVilageFcst" in [t.name for t in tools]
            return _call("kma_getVilageFcst", args, "c2")
        return _text("모름")

    log = _run(get_model("mockllm/model", custom_outputs=script), tmp_path, ids="kopa-903", tool_set="search")
    sample = log.samples[0]
    results = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert len(results) == 2 and all(m.error is None for m in results), [m.error for m in results]
    assert axis_values(sample.scores)["call_f1"] == 1.0


def test_session_token_trap(tmp_path: Path) -> None:
    code = _expected("kopa-905")["code"]

    def script(messages: list[Any], tools: list[Any], *rest: Any) -> ModelOutput:
        assert "neis_get_api_key" in [t.name for t in tools]
        if not any(isinstance(m, ChatMessageTool) for m in messages):  # skips the auth tool
            return _call("neis_schoolInfo", {"KEY": "my-own-key", "SCHUL_NM": "서울역삼초등학교"}, "c1")
        return _text(f"학교코드는 {code}입니다.")

    log = _run(get_model("mockllm/model", custom_outputs=script), tmp_path, ids="kopa-905")
    sample = log.samples[0]
    err = next(m for m in sample.messages if isinstance(m, ChatMessageTool)).error
    assert err is not None and "my-own-key" not in err.message
    v = axis_values(sample.scores)
    assert v["answer"] == 1.0 and v["env"] == 0.0 and v["errors"] == 1.0 and v["success"] == 0.0


def test_oracle_strict_refuses_cut_outputs() -> None:
    from kopa_inspect.plans import PlanError
    from kopa_inspect.providers.oracle import OracleModelAPI

    cut = '{"items": [], "_truncated": "showing the first 50 of 300 items"}'
    assert OracleModelAPI._full_output("kma_getVilageFcst", None, cut, None)["items"] == []
    with pytest.raises(PlanError):
        OracleModelAPI._full_output("kma_getVilageFcst", None, cut, None, strict=True)


# --- distractors and search (helper B2) ---------------------------------------------------------


def _found_by_search(sample: Any) -> list[set[str]]:
    """For each message index, the tool names that the sample's searches returned before it."""
    found: set[str] = set()
    out = []
    for m in sample.messages:
        out.append(set(found))
        if isinstance(m, ChatMessageTool) and m.function == "search_tools" and m.error is None:
            doc = json.loads(m.text)
            found |= {t["name"] for t in doc["tools"]} | set(doc["added"])
    return out


def _assert_only_found_tools(sample: Any) -> set[str]:
    """Every call goes to a tool an earlier search returned; every tool list a generate saw holds
    only search_tools and found tools. Returns the tools called."""
    found_before = _found_by_search(sample)
    called: set[str] = set()
    for i, m in enumerate(sample.messages):
        for tc in getattr(m, "tool_calls", None) or []:
            if tc.function != "search_tools":
                assert tc.function in found_before[i], (sample.id, tc.function, found_before[i])
                called.add(tc.function)
    everything_found = _found_by_search(sample)[-1] | {
        m.function for m in sample.messages if isinstance(m, ChatMessageTool) and m.function == "search_tools"
    }
    for ev in sample.events:
        if getattr(ev, "event", None) == "model":
            offered = {t.name for t in ev.tools}
            assert "search_tools" in offered and offered <= everything_found | {"search_tools"}, offered
    return called


def test_oracle_succeeds_under_tool_set_search(tmp_path: Path) -> None:
    log = _run("kopa/oracle", tmp_path, tool_set="search")
    scores = _scores(log)
    assert len(scores) == len(load_tasks(TASK_FILE))
    for sid, value in scores.items():
        assert value["success"] == 1.0, (sid, value)
    tasks = {t.id: t for t in load_tasks(TASK_FILE)}
    for sample in log.samples:
        called = _assert_only_found_tools(sample)
        gold = set(tasks[str(sample.id)].plan.tools())
        assert gold <= called
        if gold:  # the first thing it did was search, for the question as asked
            first = next(m for m in sample.messages if m.role == "assistant")
            assert first.tool_calls[0].function == "search_tools"
            assert first.tool_calls[0].arguments["query"] == tasks[str(sample.id)].query


def test_oracle_cannot_call_what_search_does_not_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search index without the gold tool: the oracle fails the task instead of calling it blind."""
    import kopa_inspect.tools as tools_mod

    real = tools_mod.search_operations

    def blind(query: str, k: int = 5, pool: Any = None) -> list[str]:
        return [t for t in real(query, k + 5, pool) if t != "kma_getVilageFcst"][:k]

    monkeypatch.setattr(tools_mod, "search_operations", blind)
    log = _run("kopa/oracle", tmp_path, tool_set="search", ids="kopa-903")
    sample = log.samples[0]
    assert _scores(log)["kopa-903"]["success"] == 0.0
    assert "kma_getVilageFcst" not in _assert_only_found_tools(sample)
    assert "oracle failed" in sample.output.completion


def test_default_tool_set_offers_distractors_and_oracle_passes(tmp_path: Path) -> None:
    from kopa_inspect.task_data.distractors import MIN_OFFERED

    log = _run("kopa/oracle", tmp_path, ids="kopa-901,kopa-903")
    for sample in log.samples:
        assert _scores(log)[str(sample.id)]["success"] == 1.0
        offered = {t.name for ev in sample.events if getattr(ev, "event", None) == "model" for t in ev.tools}
        assert len(offered) >= MIN_OFFERED


def test_calling_a_distractor_instead_of_the_gold_tool_fails(tmp_path: Path) -> None:
    """Right lookup, then the rent listing (a distractor taking the same arguments) instead of the
    trade listing, then the correct facts copied from the gold: no success."""
    from kopa_inspect.scorers.grading import oracle_answer

    task = next(t for t in load_tasks(TASK_FILE) if t.id == "kopa-901")
    expected = _expected("kopa-901")
    lookup = {"locatadd_nm": "서울특별시 종로구", "numOfRows": 1}
    offered_seen: list[set[str]] = []

    def script(messages: list[Any], tools: list[Any], *rest: Any) -> ModelOutput:
        offered_seen.append({t.name for t in tools})
        results = [m for m in messages if isinstance(m, ChatMessageTool)]
        if not results:
            return _call("stanregincd_getStanReginCdList", lookup, "c1")
        if len(results) == 1:
            code = json.loads(results[0].text)["items"][0]["region_cd"][:5]
            return _call("molit_getRTMSDataSvcAptRent", {"LAWD_CD": code, "DEAL_YMD": "202609"}, "c2")
        return _text(oracle_answer(task, expected, "ko"))

    log = _run(get_model("mockllm/model", custom_outputs=script), tmp_path, ids="kopa-901")
    assert "molit_getRTMSDataSvcAptRent" in offered_seen[0]  # offered by default, as a distractor
    results = [m for m in log.samples[0].messages if isinstance(m, ChatMessageTool)]
    assert len(results) == 2 and all(m.error is None for m in results)
    v = _scores(log)["kopa-901"]
    assert v["answer"] == 1.0 and v["success"] == 0.0


def _oracle_all(tmp_path: Path, tool_set: str) -> dict[str, dict[str, float]]:
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        task_args={"tool_set": tool_set},
        log_dir=str(tmp_path),
        display="none",
        max_samples=32,
    )
    assert logs[0].status == "success", logs[0].error
    if tool_set == "search":
        for sample in logs[0].samples:
            _assert_only_found_tools(sample)
    return {str(s.id): axis_values(s.scores) for s in logs[0].samples}


@pytest.mark.slow
@pytest.mark.parametrize("tool_set", ["task", "search"])
def test_oracle_succeeds_on_the_whole_benchmark(tmp_path: Path, tool_set: str) -> None:
    scores = _oracle_all(tmp_path, tool_set)
    assert len(scores) == len(load_tasks())
    failed = {sid: v for sid, v in scores.items() if v["success"] != 1.0}
    assert not failed, failed
