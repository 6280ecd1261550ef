"""`kopa call` / `kopa apis` / help texts, against the embedded and the served emulator."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _emulator_server import ServerThread
from kopa_inspect.cli import app
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, EmulatorConfig, create_app

runner = CliRunner()
PLANTED = "CLI+planted/KEY=="


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def json_part(output: str) -> dict:
    text = plain(output)
    return json.loads(text[text.index("{") :])


@pytest.mark.parametrize("command", ["serve", "call", "mcp", "apis"])
def test_help_texts(command):
    res = runner.invoke(app, [command, "--help"])
    assert res.exit_code == 0
    out = plain(res.output)
    assert "Usage" in out and len(out) > 200


def test_call_embedded_prints_the_normalized_result():
    res = runner.invoke(app, ["call", "seoul_bikeList", "START_INDEX=1", "END_INDEX=3"])
    assert res.exit_code == 0, res.output
    assert "INFO-000" in res.output
    doc = json_part(res.output)
    assert doc["resultCode"] == "INFO-000" and len(doc["items"]) == 3
    for form in (DEFAULT_EMULATOR_KEY, "kopa%2BEMULATOR"):
        assert form not in res.output


def test_call_raw_shows_the_real_envelope_without_the_key():
    res = runner.invoke(app, ["call", "assembly_nwvrqwxyaytdsfvhu", "pSize=2", "--raw"])
    assert res.exit_code == 0, res.output
    out = plain(res.output)
    assert out.startswith("HTTP 200")
    doc = json.loads(out[out.index("{") :])
    assert doc["nwvrqwxyaytdsfvhu"][0]["head"][1]["RESULT"]["CODE"] == "INFO-000"
    assert DEFAULT_EMULATOR_KEY not in out


def test_call_error_exit_status_and_bad_usage():
    res = runner.invoke(app, ["call", "seoul_bikeList", "START_INDEX=9", "END_INDEX=1"])
    assert res.exit_code == 1 and "ERROR-334" in res.output
    assert runner.invoke(app, ["call", "no_such_operation"]).exit_code == 2
    assert runner.invoke(app, ["call", "seoul_bikeList", "START_INDEX"]).exit_code == 2
    assert runner.invoke(app, ["call", "seoul_bikeList", "--backend", "nope"]).exit_code == 2


def test_call_served_matches_embedded(monkeypatch):
    monkeypatch.setenv("KOPA_EMULATOR_KEY", PLANTED)
    args = [
        "call",
        "seoul_CardSubwayStatsNew",
        "START_INDEX=1",
        "END_INDEX=4",
        "USE_DT=20261001",
        "--clock",
        "2026-10-15T14:20:00+09:00",
    ]
    with ServerThread(create_app(EmulatorConfig(keys=frozenset({PLANTED})))) as url:
        served = runner.invoke(app, [*args, "--backend", "served", "--base-url", url])
    assert served.exit_code == 0, served.output
    embedded = runner.invoke(app, args)
    assert json_part(served.output) == json_part(embedded.output)
    assert "CLI+planted" not in served.output and "CLI%2Bplanted" not in served.output


def test_apis_lists_platforms_and_counts():
    res = runner.invoke(app, ["apis"])
    assert res.exit_code == 0
    out = plain(res.output)
    assert "seoul" in out and "assembly" in out
    m = re.search(r"(\d+) operations on (\d+) platforms", out)
    assert m and int(m.group(1)) >= 900
    only = runner.invoke(app, ["apis", "--platform", "assembly", "--ops"])
    assert "assembly_nwvrqwxyaytdsfvhu" in plain(only.output) and "seoul_bikeList" not in plain(only.output)


# --- kopa tasks stats (helper B2) ---------------------------------------------------------------

MINI_TASKS = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")


def test_tasks_stats_shape_table_next_to_the_paper():
    from kopa_inspect.task_data.distractors import offered_operations
    from kopa_inspect.task_data.schema import load_tasks

    tasks = load_tasks(MINI_TASKS)
    res = runner.invoke(app, ["tasks", "stats", "--file", MINI_TASKS, "--json"])
    assert res.exit_code == 0, res.output
    rows = {r["key"]: r for r in json.loads(res.output)["shape"]}
    assert rows["mean_calls"]["number"] == pytest.approx(sum(t.n_calls for t in tasks) / len(tasks))
    assert rows["mean_calls"]["paper"] == "4.92" and rows["max_calls"]["paper"] == "14"
    assert rows["max_calls"]["number"] == max(t.n_calls for t in tasks)
    assert rows["parallel_share"]["number"] == pytest.approx(sum(t.parallel for t in tasks) / len(tasks))
    assert rows["multi_record_share"]["paper"] == "81.2%" and rows["median_link_records"]["paper"] == "27"
    # kopa-901's one link (region code lookup -> trades) reads a one-record output
    assert rows["multi_record_share"]["number"] == 0.0 and rows["median_link_records"]["number"] == 1
    offered = [len(offered_operations(t)) for t in tasks]
    assert (
        rows["tools_offered"]["number"] == pytest.approx(sum(offered) / len(offered)) and min(offered) >= 10
    )
    assert 0.5 <= rows["distractor_share"]["number"] <= 1.0
    assert rows["distractor_kinds"]["value"].count("%") == 3
    assert rows["category:unanswerable"]["number"] == 1 and rows["category:parallel"]["number"] == 1
    assert rows["validation_issues"]["number"] == 0

    text = plain(runner.invoke(app, ["tasks", "stats", "--file", MINI_TASKS, "--no-execute"]).output)
    assert "4.92" in text and "not reported" in text and "81.2%" not in text  # no executed rows


def test_tasks_stats_rejects_an_empty_file(tmp_path):
    empty = tmp_path / "none.jsonl"
    empty.write_text("", encoding="utf-8")
    res = runner.invoke(app, ["tasks", "stats", "--file", str(empty)])
    assert res.exit_code == 2 and "no tasks" in plain(res.output)
