"""``kopa grid`` runs BFCL beside KOPA-Bench over the same models; ``kopa report`` shows BFCL's figures.

A grid of the oracle (KOPA-Bench only) and one scripted mockllm model that answers KOPA-Bench
wrongly and replays BFCL's ground truth: the report's ``bfcl`` table must give that model 1.0 on
every BFCL figure it ran, leave the oracle out, and carry the paper's quoted BFCL rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "bfcl_eval",
    reason="the bfcl extra is not installed: pip install 'kopa-inspect[bfcl]' && pip install --no-deps bfcl-eval",
)

import pandas as pd  # noqa: E402
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from kopa_inspect.bfcl import categories as cats  # noqa: E402
from kopa_inspect.bfcl.library import BFCL_VERSION  # noqa: E402
from kopa_inspect.bfcl.replay import gold_outputs  # noqa: E402
from kopa_inspect.report.grid import Grid, load_grid, run_grid, slug  # noqa: E402

MINI = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")
BFCL_ARGS = {"categories": "multi_turn_base,simple_python,irrelevance", "per_category": 2}
ORACLE = {"label": "oracle (gold plans)", "model": "kopa/oracle", "bfcl": False}
MOCK = {"label": "mock replay", "model": "mockllm/model"}

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _mock() -> Any:
    """KOPA-Bench: calls the forecast, then a wrong answer. BFCL: its ground truth, in order."""
    gold = iter(gold_outputs(cats.resolve(BFCL_ARGS["categories"]), BFCL_ARGS["per_category"]))
    args = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12}

    def script(messages: list[Any], tools: list[Any], *rest: Any) -> ModelOutput:
        if not any(t.name == "kma_getVilageFcst" for t in tools):
            return next(gold)
        if not any(isinstance(m, ChatMessageTool) for m in messages):
            out = ModelOutput.for_tool_call("mockllm/model", "kma_getVilageFcst", args, tool_call_id="c1")
        else:
            out = ModelOutput.from_content("mockllm/model", "15시 기온은 99도입니다.")
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=script)


def test_grid_runs_bfcl_beside_kopa_and_report_fills_it(tmp_path: Path) -> None:
    from kopa_inspect.cli import app

    log_dir = tmp_path / "grid"
    grid = Grid.model_validate(
        {
            "log_dir": str(log_dir),
            "epochs": 1,
            "task_args": {"task_file": MINI, "ids": "kopa-903,kopa-904"},
            "bfcl": {"task_args": BFCL_ARGS},
            "models": [ORACLE, MOCK],
        }
    )
    # one sample at a time: the BFCL replay is a list of outputs in dataset order
    runs = run_grid(grid, models={MOCK["label"]: _mock()}, display="none", max_samples=1)
    assert all(r.success for r in runs), runs
    assert not (log_dir / "bfcl" / slug(ORACLE["label"])).exists()  # bfcl: false
    assert len(list((log_dir / "bfcl" / slug(MOCK["label"])).rglob("*.eval"))) == 1

    out = tmp_path / "report"
    res = CliRunner().invoke(app, ["report", "--log-dir", str(log_dir), "--out", str(out), "--k", "2"])
    assert res.exit_code == 0, res.output
    bfcl = pd.read_csv(out / "bfcl.csv").set_index("model")
    mock = bfcl.loc[MOCK["label"]]
    assert mock["source"] == "measured"
    assert mock["entries"] == 6 and mock["categories"] == 3
    assert mock["irrelevance"] == 1.0
    assert mock["data"] == f"bfcl-eval {BFCL_VERSION} (Apache 2.0)"  # the shipped data's version and licence
    assert pd.isna(mock["BFCL multi-turn"])  # one of its four categories ran: BFCL gives no figure
    assert ORACLE["label"] not in bfcl.index
    assert bfcl.loc["Qwen3.5-9B EDGE+GRPO (paper, quoted)", "BFCL multi-turn"] == pytest.approx(0.5812)
    benchmarks = pd.read_csv(out / "benchmarks.csv").set_index("model")
    assert benchmarks.loc[MOCK["label"], "BFCL"] == 1.0
    assert benchmarks.loc[MOCK["label"], "KOPA-Bench pass@1"] == 0.0
    assert "BFCL figures" in (out / "report.md").read_text(encoding="utf-8")


def test_built_in_grids_run_bfcl_for_every_model_but_the_oracle() -> None:
    for name in ("paper.yaml", "cpu.yaml"):
        grid = load_grid(name)
        assert grid.bfcl is not None and grid.bfcl.task == "kopa_inspect/bfcl"
        cats.resolve(grid.bfcl.task_args["categories"])  # names BFCL categories
        assert [m.bfcl for m in grid.models] == [m.model != "kopa/oracle" for m in grid.models]
    assert load_grid("paper.yaml").bfcl.task_args == {"categories": "multi_turn"}
