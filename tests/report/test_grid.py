"""``kopa grid``: a two-model grid (oracle + a scripted mockllm model) that resumes.

The grid is first run with only the oracle listed (an interrupted grid), then in full: the
oracle's log must be reused untouched (same files, same mtimes) and only the new model runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model
from typer.testing import CliRunner

from kopa_inspect.report.grid import Grid, load_grid, run_grid, slug

MINI = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")
NEEDED = {"kma_getVilageFcst"}
TASK_ARGS = {"task_file": MINI, "ids": "kopa-903,kopa-904"}

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def _operations_present() -> None:
    from kopa_inspect.apis import operations

    missing = NEEDED - set(operations())
    if missing:
        pytest.skip(f"operations not registered: {sorted(missing)}")


def _usage() -> ModelUsage:
    return ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)


def scripted() -> Any:
    """Calls the forecast once, then answers with a wrong temperature."""
    args = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12}

    def script(messages: list[Any], *rest: Any) -> ModelOutput:
        if not any(isinstance(m, ChatMessageTool) for m in messages):
            out = ModelOutput.for_tool_call("mockllm/model", "kma_getVilageFcst", args, tool_call_id="c1")
        else:
            out = ModelOutput.from_content("mockllm/model", "15시 기온은 99도입니다.")
        out.usage = _usage()
        return out

    return get_model("mockllm/model", custom_outputs=script)


def _write(path: Path, log_dir: Path, models: list[dict[str, Any]]) -> Path:
    path.write_text(
        yaml.safe_dump(
            {
                "log_dir": str(log_dir),
                "epochs": 2,
                "task_args": TASK_ARGS,
                "eval_args": {"max_samples": 2},
                "models": models,
            },
            allow_unicode=True,
        ),
        encoding="utf-8",
    )
    return path


def _files(d: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime_ns for p in sorted(d.rglob("*.eval"))}


ORACLE = {"label": "oracle (gold plans)", "model": "kopa/oracle"}
MOCK = {"label": "mock scripted", "model": "mockllm/model"}


def test_grid_resumes_without_rerunning_finished_models(tmp_path: Path) -> None:
    from kopa_inspect.cli import app

    log_dir = tmp_path / "grid"
    # 1. the interrupted grid: only the first model got to run (through the CLI)
    first = _write(tmp_path / "first.yaml", log_dir, [ORACLE])
    res = CliRunner().invoke(app, ["grid", str(first), "--display", "none"])
    assert res.exit_code == 0, res.output
    oracle_dir = log_dir / slug(ORACLE["label"])
    done = _files(oracle_dir)
    assert len(done) == 1

    # 2. the full grid: the oracle is not rerun, the scripted model runs
    full = load_grid(_write(tmp_path / "full.yaml", log_dir, [ORACLE, MOCK]))
    runs = run_grid(full, models={MOCK["label"]: scripted()}, display="none")
    assert [r.label for r in runs] == [ORACLE["label"], MOCK["label"]]
    assert all(r.success for r in runs)
    assert runs[0].reused and not runs[1].reused
    assert _files(oracle_dir) == done  # same file, same mtime
    mock_logs = _files(log_dir / slug(MOCK["label"]))
    assert len(mock_logs) == 1

    # 3. once more: nothing runs, nothing is written
    again = run_grid(full, models={MOCK["label"]: scripted()}, display="none")
    assert all(r.reused for r in again)
    assert _files(log_dir) == {**done, **mock_logs}

    # 4. the report over the grid folder shows both labels, with the scripted model failing
    res = CliRunner().invoke(
        app, ["report", "--log-dir", str(log_dir), "--out", str(tmp_path / "report"), "--k", "2"]
    )
    assert res.exit_code == 0, res.output
    import pandas as pd

    head = pd.read_csv(tmp_path / "report" / "headline.csv").set_index("model")
    assert head.loc[ORACLE["label"], "pass@1"] == 1.0
    assert head.loc[ORACLE["label"], "epochs"] == 2
    # the scripted model fails the forecast task and refuses nothing: 0 of 2 tasks
    assert head.loc[MOCK["label"], "pass@1"] == 0.0
    errors = pd.read_csv(tmp_path / "report" / "errors.csv").set_index("model")
    assert errors.loc[MOCK["label"], "wrong final answer"] == 2  # kopa-903, both epochs
    assert errors.loc[MOCK["label"], "answered an unanswerable question"] == 2  # kopa-904


def test_grid_files_and_validation(tmp_path: Path) -> None:
    for name in ("paper.yaml", "cpu.yaml"):
        g = load_grid(name)  # the built-ins, found by name
        assert g.models and len({m.label for m in g.models}) == len(g.models)
        assert g.task == "kopa_inspect/kopa_bench"
    paper = load_grid("paper.yaml")
    assert paper.epochs == 8 and any(m.model == "kopa/oracle" and m.epochs == 1 for m in paper.models)
    with pytest.raises(ValueError, match="distinct"):
        Grid.model_validate(
            {"log_dir": "x", "models": [{"label": "a b", "model": "m"}, {"label": "a-b", "model": "m"}]}
        )
    with pytest.raises(FileNotFoundError, match="built-in grids"):
        load_grid(tmp_path / "missing.yaml")
    grid = Grid.model_validate({"log_dir": str(tmp_path), "models": [ORACLE]})
    with pytest.raises(ValueError, match="no model labelled"):
        run_grid(grid, only=["nobody"])
    # a checkpoint not trained yet is skipped with its reason, nothing is run or written
    untrained = Grid.model_validate(
        {
            "log_dir": str(tmp_path / "g"),
            "models": [
                {
                    "label": "sft",
                    "model": "hf/local",
                    "args": {"model_path": str(tmp_path / "no" / "merged")},
                },
                {"label": "vllm", "model": f"vllm/{tmp_path}/nope"},
            ],
        }
    )
    runs = run_grid(untrained)
    assert [r.skipped is not None and "does not exist" in r.skipped for r in runs] == [True, True]
    assert not (tmp_path / "g").exists()
