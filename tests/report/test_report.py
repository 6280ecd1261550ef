"""``kopa report`` against real Inspect logs made here: the numbers, the files, errors, BFCL.

One module-scoped log folder holds:

- ``oracle``: kopa/oracle on the tests' own 4-task file (kopa-902 marked held out), 2 epochs;
- ``mock-mixed``: a scripted mockllm model, 4 epochs, whose behaviour per (task, epoch) follows
  SCHEDULE below, so success, pass@k, pass^k and the failure kinds are known in advance;
- ``mock-looper``: a mockllm model that calls a tool forever and hits the message limit;
- ``mock-crash``: a model that raises: an errored sample, counted as a failure;
- a BFCL-like run (an inline task named ``bfcl`` with C/I scores) of ``mockllm/model`` without a
  label, which the report must put beside the ``mock-mixed`` KOPA-Bench row;
- a rerun of the oracle on two tasks in a sub-folder, whose samples must not be counted twice.

The report's tables are compared with values recomputed here from the raw samples.
"""

from __future__ import annotations

import asyncio
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from inspect_ai import Task, task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from typer.testing import CliRunner

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers import axis_values, scorer_name
from kopa_inspect.scorers.grading import gold_truth, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

MINI = Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl"
NEEDED = {
    "stanregincd_getStanReginCdList",
    "molit_getRTMSDataSvcAptTrade",
    "kasi_getRestDeInfo",
    "kma_getVilageFcst",
}
K = 4
EPOCHS = 4

# behaviour of the scripted model per task and epoch (1-based), and the failure kind each
# failing behaviour must be classified as
SCHEDULE = {
    "kopa-901": ["correct", "correct", "wrong_arg", "no_call"],
    "kopa-902": ["correct", "no_call", "correct", "correct"],
    "kopa-903": ["correct", "no_call", "api_error", "wrong_answer"],
    "kopa-904": ["correct", "correct", "correct", "invent"],
}
KIND = {
    "no_call": "hallucinated answer without a call",
    "wrong_arg": "broken chain",
    "api_error": "API error not recovered",
    "wrong_answer": "wrong final answer",
    "invent": "answered an unanswerable question",
}

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


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


def _gold(task_file: Path) -> dict[str, Any]:
    """Per task: (task, gold calls with concrete args, expected fact values)."""

    async def go() -> dict[str, Any]:
        out = {}
        for t in load_tasks(task_file):
            g = await gold_truth(t, shared_backend(BackendConfig()), 0)
            out[t.id] = (t, g.calls, g.expected)
        return out

    return asyncio.run(go())


def mixed_model(gold: dict[str, Any]) -> Any:
    """A scripted model that behaves per SCHEDULE[sample id][epoch - 1]."""
    from inspect_ai.solver._task_state import sample_state  # the oracle reads its sample the same way

    def script(messages: list[Any], *rest: Any) -> ModelOutput:
        state = sample_state()
        assert state is not None
        t, calls, expected = gold[str(state.sample_id)]
        behaviour = SCHEDULE[t.id][state.epoch - 1]
        done = sum(isinstance(m, ChatMessageTool) for m in messages)
        right = oracle_answer(t, expected)
        if behaviour in ("no_call", "invent"):
            return _text(right if behaviour == "no_call" else "어제 서울의 기온은 21도였습니다.")
        if behaviour == "api_error":  # 14:30 is no KMA base time: the API answers with an error
            if done == 0:
                args = {**calls[0][1], "base_time": "1430"}
                return _call(calls[0][0], args, "c0")
            return _text(right)
        if done < len(calls):
            name, args = calls[done]
            if behaviour == "wrong_arg" and done == 1:
                args = {**args, "LAWD_CD": "11680"}  # not the code the first call returned
            return _call(name, args, f"c{done}")
        return _text("답변: 알 수 없음" if behaviour == "wrong_answer" else right)

    return get_model("mockllm/model", custom_outputs=script)


def looper_model() -> Any:
    args = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12}
    # another model name, so that the BFCL run of mockllm/model has exactly one KOPA run to join
    return get_model("mockllm/looper", custom_outputs=lambda *a: _call("kma_getVilageFcst", args, "loop"))


@task
def bfcl() -> Task:
    """A stand-in for inspect_evals/bfcl: C/I scores per sample (3 of 4 right for 'A')."""
    return Task(dataset=[Sample(input=f"q{i}", target=t) for i, t in enumerate("AAAB")], scorer=match())


def crashing_model() -> Any:
    def boom(*a: Any) -> ModelOutput:
        raise RuntimeError("model server went away")

    return get_model("mockllm/crash", custom_outputs=boom)


def _eval(
    model: Any, log_dir: Path, label: str | None, task_args: dict[str, Any], epochs: int, **kwargs: Any
) -> EvalLog:
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model=model,
        task_args=task_args,
        epochs=epochs,
        log_dir=str(log_dir),
        metadata={"kopa_label": label} if label else None,
        display="none",
        **kwargs,
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kopa_inspect.apis import operations

    missing = NEEDED - set(operations())
    if missing:
        pytest.skip(f"operations not registered: {sorted(missing)}")
    root = tmp_path_factory.mktemp("report")
    task_file = root / "tasks.jsonl"
    lines = []
    for line in MINI.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line) if line.strip() else None
        if rec is not None and rec["id"] in SCHEDULE:
            rec["held_out"] = rec["id"] == "kopa-902"
            lines.append(json.dumps(rec, ensure_ascii=False))
    task_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log_dir = root / "logs"
    gold = _gold(task_file)
    _eval("kopa/oracle", log_dir, "oracle", {"task_file": str(task_file)}, 2)
    _eval(mixed_model(gold), log_dir, "mock-mixed", {"task_file": str(task_file)}, EPOCHS)
    _eval(
        looper_model(),
        log_dir,
        "mock-looper",
        {"task_file": str(task_file), "ids": "kopa-903", "max_messages": 6},
        1,
    )
    _eval(
        crashing_model(),
        log_dir,
        "mock-crash",
        {"task_file": str(task_file), "ids": "kopa-903"},
        1,
        fail_on_error=False,
    )
    b = inspect_eval(
        bfcl(),
        model=get_model("mockllm/model", custom_outputs=lambda *a: _text("A")),
        log_dir=str(log_dir / "bfcl"),
        display="none",
    )
    assert b[0].status == "success" and b[0].eval.task == "bfcl"
    # a second run of the same label over two of the tasks (a rerun): the newest copy counts, once
    _eval(
        "kopa/oracle",
        log_dir / "rerun",
        "oracle",
        {"task_file": str(task_file), "ids": "kopa-901,kopa-902"},
        2,
    )
    return log_dir


@pytest.fixture(scope="module")
def report(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    from kopa_inspect.report.write import make_report

    out = tmp_path_factory.mktemp("report-out")
    return out, make_report(logs, out, K)


def _raw(logs: Path) -> pd.DataFrame:
    """Every KOPA-Bench sample straight from the logs (no report code); the rerun folder left out."""
    rows = []
    for path in sorted(logs.glob("*.eval")):
        log = read_eval_log(str(path))
        if log.eval.task.split("/")[-1] != "kopa_bench":
            continue
        for s in log.samples or []:
            # an errored sample has no score: a failure for success, absent from the other means
            v = axis_values(s.scores) if s.scores else {"success": 0.0}
            rows.append(
                {
                    "label": log.eval.metadata["kopa_label"],
                    "id": str(s.id),
                    "epoch": s.epoch,
                    "category": s.metadata["category"],
                    "n_calls": s.metadata["n_calls"],
                    "held_out": s.metadata["held_out"],
                    **v,
                }
            )
    return pd.DataFrame(rows)


def _pass_at(n: int, c: int, k: int) -> float:
    return 1.0 if n - c < k else 1.0 - math.comb(n - c, k) / math.comb(n, k)


def test_logs_follow_the_script(logs: Path) -> None:
    raw = _raw(logs)
    mixed = raw[raw["label"] == "mock-mixed"]
    assert len(mixed) == 4 * EPOCHS
    for _, r in mixed.iterrows():
        assert r["success"] == (1.0 if SCHEDULE[r["id"]][r["epoch"] - 1] == "correct" else 0.0), r.to_dict()
    assert set(raw[raw["label"] == "oracle"]["success"]) == {1.0}


def test_headline_equals_the_logs(logs: Path, report: tuple[Path, Any]) -> None:
    raw = _raw(logs)
    head = report[1].tables["headline"].set_index("model")
    assert set(head.index) == {"oracle", "mock-mixed", "mock-looper", "mock-crash"}
    assert head.loc["mock-crash", "errored"] == 1 and head.loc["mock-crash", "pass@1"] == 0.0
    for label, sub in raw.groupby("label"):
        per_task = sub.groupby("id")["success"].agg(["size", "sum"])
        p1 = (per_task["sum"] / per_task["size"]).mean()
        assert head.loc[label, "pass@1"] == pytest.approx(p1)
        assert head.loc[label, "tasks"] == len(per_task)
        assert head.loc[label, "epochs"] == per_task["size"].min()
        if per_task["size"].min() >= K:
            pairs = zip(per_task["size"], per_task["sum"], strict=True)
            pk = sum(_pass_at(int(n), int(c), K) for n, c in pairs) / len(per_task)
            assert head.loc[label, f"pass@{K}"] == pytest.approx(pk)
        else:
            assert pd.isna(head.loc[label, f"pass@{K}"])
    # by hand: successes 2, 3, 1, 3 of 4
    assert head.loc["mock-mixed", "pass@1"] == pytest.approx(9 / 16)
    assert head.loc["mock-mixed", "pass@4"] == pytest.approx(1.0)
    assert (
        head.loc["oracle", "pass@1"] == 1.0 and head.loc["oracle", "epochs"] == 2
    )  # the rerun copy not counted
    lo, hi = (float(x) for x in head.loc["mock-mixed", "pass@1 95% CI (seeds)"].split("–"))
    assert lo < 9 / 16 < hi


def test_pass_hat_axes_and_breakdowns(logs: Path, report: tuple[Path, Any]) -> None:
    raw = _raw(logs)
    tables = report[1].tables
    ph = tables["pass_hat_k"].set_index("model")
    assert ph.loc["mock-mixed", "pass^2"] == pytest.approx((1 + 3 + 0 + 3) / 6 / 4)
    assert ph.loc["mock-mixed", "pass^4"] == pytest.approx(0.0)
    assert "pass^3" not in ph.columns or pd.isna(ph.loc["oracle", "pass^3"])

    axes = tables["axes"].set_index("model")
    metrics = tables["metrics"].set_index("model")
    for label, sub in raw.groupby("label"):
        if label == "mock-crash":
            assert axes.loc[label].drop("model", errors="ignore").isna().all()
            continue
        assert axes.loc[label, "RESPONSE (answer)"] == pytest.approx(sub["answer"].mean())
        assert axes.loc[label, "ENVIRONMENT (env)"] == pytest.approx(sub["env"].mean())
        assert axes.loc[label, "ACTION (call_f1)"] == pytest.approx(sub["call_f1"].mean())
        assert axes.loc[label, "ACTION (chain)"] == pytest.approx(sub["chain"].mean())
        for m in ("success", "efficiency", "calls", "errors"):
            assert metrics.loc[label, m] == pytest.approx(sub[m].mean(), nan_ok=True), (label, m)

    cat = tables["by_category"].set_index("category")
    mixed = raw[raw["label"] == "mock-mixed"]
    for c, sub in mixed.groupby("category"):
        assert cat.loc[c, "mock-mixed"] == pytest.approx(sub["success"].mean())
    assert cat.loc["chain2", "mock-mixed"] == pytest.approx(3 / 8)
    calls = tables["by_calls"].set_index("required calls")
    assert calls.loc[2, "mock-mixed"] == pytest.approx(5 / 8)
    assert calls.loc[0, "mock-mixed"] == pytest.approx(3 / 4)

    held = tables["held_out"].set_index(["model", "split"])
    assert held.loc[("mock-mixed", "held-out platforms"), "pass@1"] == pytest.approx(3 / 4)
    assert held.loc[("mock-mixed", "held-out platforms"), "tasks"] == 1
    assert held.loc[("mock-mixed", "seen platforms"), "pass@1"] == pytest.approx((2 + 1 + 3) / 12)


def test_error_analysis_counts_failure_kinds(report: tuple[Path, Any]) -> None:
    out, rep = report
    errors = rep.tables["errors"].set_index("model")
    expected: dict[str, int] = {}
    for behaviours in SCHEDULE.values():
        for b in behaviours:
            if b != "correct":
                expected[KIND[b]] = expected.get(KIND[b], 0) + 1
    row = errors.loc["mock-mixed"]
    assert row["failed"] == sum(expected.values()) == 7
    for kind in errors.columns[2:]:
        assert row[kind] == expected.get(kind, 0), kind
    assert errors.loc["mock-looper", "limit reached"] == 1
    assert errors.loc["mock-crash", "sample error"] == errors.loc["mock-crash", "failed"] == 1
    assert errors.loc["oracle", "failed"] == 0
    failures = pd.read_csv(out / "failures.csv")
    one = failures[
        (failures["model"] == "mock-mixed") & (failures["id"] == "kopa-903") & (failures["epoch"] == 3)
    ]
    assert one["kind"].tolist() == ["API error not recovered"]


def test_bfcl_beside_kopa(report: tuple[Path, Any]) -> None:
    bench = report[1].tables["benchmarks"].set_index("model")
    # the unlabelled mockllm/model BFCL run is matched to the one KOPA run of that model
    assert bench.loc["mock-mixed", "BFCL"] == pytest.approx(0.75)
    assert bench.loc["mock-mixed", "BFCL samples"] == 4
    assert bench.loc["mock-mixed", "KOPA-Bench pass@1"] == pytest.approx(9 / 16)
    assert pd.isna(bench.loc["oracle", "BFCL"])
    assert "mockllm/model" not in bench.index


def test_files_written(report: tuple[Path, Any]) -> None:
    out, rep = report
    for name in ("headline", "by_category", "by_calls"):
        png = out / f"{name}.png"
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, name
    md = (out / "report.md").read_text(encoding="utf-8")
    tex = (out / "report.tex").read_text(encoding="utf-8")
    for name, table in rep.tables.items():
        assert (out / f"{name}.csv").exists()
        assert not table.empty, name
    for needle in (
        "KOPA-Bench beside BFCL",
        "Failure kinds",
        "Held-out platforms",
        "pass^k",
        "mock-mixed",
        "hallucinated answer without a call",
        "![headline](headline.png)",
    ):
        assert needle in md, needle
    assert md.count("| mock-mixed ") >= 6
    # the paper's numbers are present and marked as quoted, in both formats
    assert "QUOTED" in md and "NOT measured here" in md
    for row in ("Qwen3.5-27B (paper, quoted)", "0.4482", "0.5655", "0.5812"):
        assert row in md and row in tex, row
    # one unit for every rate, measured or quoted: fractions, not percent beside fractions
    quoted = rep.tables["paper_reference"].drop(columns=["model", "note", "source"]).stack().dropna()
    assert len(quoted) >= 8 and quoted.between(0, 1).all(), quoted
    assert tex.count("\\begin{table}") == len(rep.tables)
    assert "mock-mixed" in tex and "QUOTED" in tex
    assert any("different numbers of tasks" in n for n in rep.notes)
    assert any("4 repeated sample(s)" in n for n in rep.notes)
    assert any(
        "1 sample(s) ended in an error" in n for n in rep.notes
    )  # the oracle rerun: 2 tasks x 2 epochs


def test_cli_report(logs: Path, tmp_path: Path) -> None:
    from kopa_inspect.cli import app

    res = CliRunner().invoke(
        app, ["report", "--log-dir", str(logs), "--out", str(tmp_path / "r"), "--k", "2", "--print"]
    )
    assert res.exit_code == 0, res.output
    assert "pass@2" in res.output and (tmp_path / "r" / "report.md").exists()
    head = pd.read_csv(tmp_path / "r" / "headline.csv").set_index("model")
    assert head.loc["oracle", "pass@2"] == 1.0
    missing = CliRunner().invoke(
        app, ["report", "--log-dir", str(tmp_path / "nope"), "--out", str(tmp_path / "x")]
    )
    assert missing.exit_code == 2 and "does not exist" in missing.output
    zero = CliRunner().invoke(
        app, ["report", "--log-dir", str(logs), "--out", str(tmp_path / "z"), "--k", "0"]
    )
    assert zero.exit_code == 2 and not (tmp_path / "z").exists()


def test_report_without_jinja2(logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean install has no jinja2 (pandas' Styler, behind DataFrame.to_latex, needs it)."""
    import sys

    from kopa_inspect.report.write import make_report

    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 -> ImportError
    out = tmp_path / "r"
    rep = make_report(logs, out, K)
    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert tex.count("\\begin{table}") == len(rep.tables) and "\\toprule" in tex and "\\bottomrule" in tex
    assert "mock-looper" in tex and "pass@4" in tex


def test_failed_report_leaves_no_half_written_folder(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kopa_inspect.report import write

    out = tmp_path / "r"
    real = write.grouped_bars
    calls = {"n": 0}

    def fail_on_second(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(write, "grouped_bars", fail_on_second)
    with pytest.raises(RuntimeError, match="disk full"):
        write.make_report(logs, out, K)
    assert not out.exists(), sorted(p.name for p in out.iterdir())
    assert list(tmp_path.iterdir()) == [], "temporary folders left behind"

    # an earlier complete report survives a failed rerun untouched
    monkeypatch.setattr(write, "grouped_bars", real)
    write.make_report(logs, out, K)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls["n"] = 0
    monkeypatch.setattr(write, "grouped_bars", fail_on_second)
    with pytest.raises(RuntimeError):
        write.make_report(logs, out, K)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_task_version_1_logs_still_read(tmp_path: Path) -> None:
    """Logs written before the per-axis scorers hold one dict-valued ``kopa_scorer`` score."""
    from inspect_ai.scorer import Score, mean, scorer

    from kopa_inspect.report.load import kopa_samples, load_samples

    values = {
        "s1": {"success": 1.0, "answer": 1.0, "env": 1.0},
        "s2": {"success": 0.0, "answer": 0.5, "env": 0.0},
    }

    @scorer(metrics={"success": [mean()], "answer": [mean()], "env": [mean()]})
    def kopa_scorer() -> Any:
        async def score(state: Any, target: Any) -> Score:
            return Score(value=values[str(state.sample_id)])

        return score

    @task(name="kopa_bench")
    def old_kopa_bench() -> Task:
        return Task(
            dataset=[Sample(id=i, input="q", target="t", metadata={"category": "chain2"}) for i in values],
            scorer=kopa_scorer(),
        )

    log = inspect_eval(
        old_kopa_bench(),
        model=get_model("mockllm/model", custom_outputs=lambda *a: _text("x")),
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success" and "kopa_scorer" in log.samples[0].scores
    kopa = kopa_samples(load_samples(tmp_path)).set_index("id")
    assert kopa.loc["s1", "success"] == 1.0 and kopa.loc["s2", "success"] == 0.0
    assert kopa.loc["s2", "answer"] == 0.5 and kopa.loc["s2", "env"] == 0.0


def _sample(
    value: dict[str, float],
    calls: list[tuple[str, bool]],
    steps: list[dict[str, Any]],
    category: str = "chain2",
    gold_error: bool = False,
    version_1: bool = False,
) -> Any:
    from inspect_ai.log import EvalSample
    from inspect_ai.model import ChatMessageAssistant, ChatMessageUser
    from inspect_ai.scorer import Score
    from inspect_ai.tool import ToolCall, ToolCallError

    messages: list[Any] = [ChatMessageUser(content="q")]
    for i, (name, ok) in enumerate(calls):
        messages.append(
            ChatMessageAssistant(content="", tool_calls=[ToolCall(id=f"c{i}", function=name, arguments={})])
        )
        messages.append(
            ChatMessageTool(
                content="{}",
                tool_call_id=f"c{i}",
                function=name,
                error=None if ok else ToolCallError("unknown", "NODATA"),
            )
        )
    messages.append(ChatMessageAssistant(content="답변"))
    full = {"success": 0.0, "answer": 1.0, "call_f1": 1.0, "chain": 1.0, "env": 1.0, **value}
    meta = {"gold_error": "x"} if gold_error else {}
    if version_1:  # logs of task version 1: one dict-valued kopa_scorer score
        scores = {"kopa_scorer": Score(value=full, metadata=meta)}
    else:
        scores = {
            scorer_name(k): Score(value=v, metadata=meta if k == "success" else {}) for k, v in full.items()
        }
    return EvalSample(
        id="kopa-001",
        epoch=1,
        input="q",
        target="t",
        messages=messages,
        metadata={"category": category, "task": {"plan": {"steps": steps}}},
        scores=scores,
    )


@pytest.mark.parametrize(
    ("value", "calls", "steps", "kind"),
    [
        ({"success": 1.0}, [("a", True)], [{"tool": "a"}], None),
        ({}, [("a", True)], [{"tool": "a"}, {"tool": "b"}], "wrong tool"),
        (
            {},
            [("a", True), ("b", True)],
            [{"tool": "a"}, {"tool": "b", "required": False}, {"tool": "c", "required": False}],
            "wrong final answer",
        ),
        ({"call_f1": 0.5}, [("a", True)], [{"tool": "a"}], "wrong argument value"),
        (
            {"chain": 0.0, "call_f1": 0.5},
            [("a", True), ("b", True)],
            [{"tool": "a"}, {"tool": "b"}],
            "broken chain",
        ),
        ({"env": 0.5}, [("a", True)], [{"tool": "a"}], "required state not reached"),
        ({}, [("a", True), ("b", False)], [{"tool": "a"}, {"tool": "b"}], "API error not recovered"),
        ({}, [("a", False), ("a", True)], [{"tool": "a"}], "wrong final answer"),  # recovered
        # an error the gold plan expects is the task's design, not an unrecovered error
        (
            {"answer": 0.0},
            [("b", False), ("a", True)],
            [{"tool": "b", "expect_error": True}, {"tool": "a"}],
            "wrong final answer",
        ),
    ],
)
def test_classify_kinds(
    value: dict[str, float], calls: list[tuple[str, bool]], steps: list[dict[str, Any]], kind: str | None
) -> None:
    from kopa_inspect.report.errors import classify

    assert classify(_sample(value, calls, steps)) == kind


def test_classify_gold_failure_and_unanswerable() -> None:
    from kopa_inspect.report.errors import classify

    assert classify(_sample({}, [("a", True)], [{"tool": "a"}], gold_error=True)) == "gold plan failed"
    for v1 in (False, True):  # per-axis scores and the version-1 dict score alike
        assert classify(_sample({"success": 1.0}, [("a", True)], [{"tool": "a"}], version_1=v1)) is None
        assert (
            classify(_sample({"env": 0.5}, [("a", True)], [{"tool": "a"}], version_1=v1))
            == "required state not reached"
        )
        assert (
            classify(_sample({}, [("a", True)], [{"tool": "a"}], gold_error=True, version_1=v1))
            == "gold plan failed"
        )
    assert classify(_sample({}, [], [], category="unanswerable")) == "answered an unanswerable question"
    assert classify(_sample({}, [], [{"tool": "a"}])) == "hallucinated answer without a call"


def _tabular_spec_width(tex_table: str) -> int:
    import re

    m = re.search(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", tex_table)
    assert m, tex_table
    return len(re.findall(r"p\{[^{}]*\}|[lcr]", m.group(1)))


@pytest.mark.parametrize("k", [1, 2])
def test_report_at_small_k_writes_every_table(logs: Path, tmp_path: Path, k: int) -> None:
    """pass@1 is pass@k at k = 1: one column, not two; at k = 2 every model with 2 epochs has it."""
    from kopa_inspect.report.write import make_report

    out = tmp_path / "r"
    rep = make_report(logs, out, k)
    tex = (out / "report.tex").read_text(encoding="utf-8")
    tex_tables = tex.split("\\begin{table}")[1:]
    assert len(tex_tables) == len(rep.tables)
    for (name, table), tex_table in zip(rep.tables.items(), tex_tables, strict=True):
        assert not table.empty, name
        assert table.columns.is_unique, (name, list(table.columns))
        assert (out / f"{name}.csv").exists(), name
        assert _tabular_spec_width(tex_table) == len(table.columns), name
    head = rep.tables["headline"]
    assert [c for c in head.columns if c.startswith("pass@")].count(f"pass@{k}") == 1
    if k == 1:
        assert "pass@1 / pass@1" not in (out / "report.md").read_text(encoding="utf-8")
    assert f"KOPA-Bench pass@{k}" in rep.tables["benchmarks"].columns
    assert f"pass@{k}" in rep.tables["held_out"].columns


def test_titles_name_only_the_columns_present(logs: Path, tmp_path: Path) -> None:
    """No model ran 9 epochs: no pass@9 column, and no title or figure promises one."""
    from kopa_inspect.report import figures, write

    rep = write.make_report(logs, tmp_path / "r", 9)
    assert all("pass@9" not in c for t in rep.tables.values() for c in map(str, t.columns))
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "pass@9" not in md.split("## ", 1)[1], "a title names a column no table has"
    assert (
        write.title("headline", 9, columns=rep.tables["headline"].columns)
        == "KOPA-Bench: pass@1 (95% CIs over seeds and over tasks)"
    )
    assert "pass@4" in write.title("headline", 4, columns=["pass@1", "pass@4"])
    assert figures.headline_title(rep.tables["headline"], 9) == "KOPA-Bench pass@1"
    assert (
        figures.headline_title(pd.DataFrame(columns=["pass@1", "pass@4"]), 4)
        == "KOPA-Bench pass@1 and pass@4"
    )


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex on this machine")
def test_report_tex_compiles_without_overfull_lines(report: tuple[Path, Any], tmp_path: Path) -> None:
    """The report's tables in a plain article: no error, no table wider than the line."""
    import subprocess

    out, _ = report
    doc = tmp_path / "doc.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage{booktabs,graphicx}\n\\begin{document}\n"
        f"\\input{{{(out / 'report.tex').as_posix()}}}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    log = (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
    assert "Overfull \\hbox" not in log, [ln for ln in log.splitlines() if "Overfull" in ln]
