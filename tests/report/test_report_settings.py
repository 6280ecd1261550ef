"""Runs are pooled only within one setting (model, task version, task arguments, epochs).

Real Inspect logs of the oracle on the tests' own tasks (kopa-902, kopa-903: one platform each,
one epoch): one label run under two message limits is shown as two rows, named by what differs; a
rerun that only selects other tasks stays in its row.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval

from kopa_inspect.report.settings import difference, mixed_across_rows, setting

MINI = Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl"
NEEDED = {"kasi_getRestDeInfo", "kma_getVilageFcst"}

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _oracle(log_dir: Path, label: str, epochs: int = 1, **task_args: object) -> None:
    log = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        epochs=epochs,
        log_dir=str(log_dir),
        task_args={"task_file": str(MINI), **task_args},
        metadata={"kopa_label": label},
        display="none",
    )[0]
    assert log.status == "success", log.error


@pytest.fixture(scope="module")
def mixed_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kopa_inspect.apis import operations

    missing = NEEDED - set(operations())
    if missing:
        pytest.skip(f"operations not registered: {sorted(missing)}")
    log_dir = tmp_path_factory.mktemp("mixed")
    _oracle(log_dir, "oracle", ids="kopa-902")
    _oracle(log_dir, "oracle", ids="kopa-903")  # other tasks, same setting: the same row
    _oracle(log_dir, "oracle", ids="kopa-902", max_messages=6)  # another setting: its own row
    _oracle(log_dir, "twice", ids="kopa-902", epochs=2)
    return log_dir


def test_one_label_with_two_settings_becomes_two_rows(mixed_logs: Path, tmp_path: Path) -> None:
    from kopa_inspect.report.write import make_report

    rep = make_report(mixed_logs, tmp_path / "r", 2)
    head = rep.tables["headline"].set_index("model")
    assert sorted(head.index) == ["oracle [max_messages=60]", "oracle [max_messages=6]", "twice"]
    assert head.loc["oracle [max_messages=60]", "tasks"] == 2  # kopa-902 and kopa-903 pooled
    assert head.loc["oracle [max_messages=6]", "tasks"] == 1
    assert head.loc["twice", "epochs"] == 2
    split = [n for n in rep.notes if n.startswith("runs labelled 'oracle' differ in setting")]
    assert len(split) == 1 and "'oracle [max_messages=6]'" in split[0], rep.notes
    across = [n for n in rep.notes if "different task args" in n]
    assert len(across) == 1 and "not directly comparable" in across[0], rep.notes
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "differ in setting and are not pooled" in md


def test_selection_args_are_not_a_setting() -> None:
    row = pd.Series(
        {
            "model_key": "m|{}",
            "task_version": 8,
            "run_epochs": None,
            "task_args_json": json.dumps({"ids": "a", "categories": None, "held_out": True, "seed": 0}),
        }
    )
    other = row.copy()
    other["task_args_json"] = json.dumps({"ids": "b", "seed": 0})
    assert setting(row) == setting(other)
    assert setting(row)["epochs"] == 1  # Inspect records no epochs where the run used the default
    other["task_args_json"] = json.dumps({"ids": "b", "seed": 1})
    assert setting(row) != setting(other)


def test_difference_names_only_what_differs() -> None:
    base = {
        "model": "hf/q|{}",
        "task version": 8,
        "task args": json.dumps({"seed": 0, "task_file": "/x/a.jsonl"}),
        "epochs": 4,
    }
    assert difference([base, base | {"task version": 7}]) == ["task v8", "task v7"]
    assert difference([base, base | {"epochs": 1}]) == ["4 epochs", "1 epochs"]
    assert difference([base, base | {"task args": json.dumps({"seed": 0, "task_file": "/x/b.jsonl"})}]) == [
        "task_file=a.jsonl",
        "task_file=b.jsonl",
    ]
    assert difference([base, base | {"model": "hf/r|{}"}]) == ["hf/q", "hf/r"]


def test_rows_of_different_task_versions_get_a_note() -> None:
    rows = [
        {
            "label": lab,
            "task": "kopa_bench",
            "model_key": f"{lab}|{{}}",
            "task_version": v,
            "run_epochs": 1,
            "task_args_json": "{}",
        }
        for lab, v in (("a", 7), ("b", 8))
    ]
    notes = mixed_across_rows(pd.DataFrame(rows))
    assert notes == [
        "kopa_bench rows were run with different task version (a: task v7; b: task v8): "
        "their numbers are not directly comparable"
    ]
    assert mixed_across_rows(pd.DataFrame([rows[0], rows[0] | {"label": "c"}])) == []
