"""`kopa call` / `kopa apis` / help texts, against the embedded and the served emulator."""

from __future__ import annotations

import json
import re

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
    return json.loads(text[text.index("{"):])


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
    doc = json.loads(out[out.index("{"):])
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
    args = ["call", "seoul_CardSubwayStatsNew", "START_INDEX=1", "END_INDEX=4", "USE_DT=20261001", "--clock",
            "2026-10-15T14:20:00+09:00"]
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
