"""Task parameters fail at task build, with one line naming the valid values; a backend that stops
answering turns samples into errors (retryable with ``inspect eval-retry``), never into scored zeros.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry

from _emulator_server import free_port
from kopa_inspect.emulator import create_app
from kopa_inspect.task_data.schema import CATEGORIES, load_tasks
from kopa_inspect.tasks import kopa_bench
from kopa_inspect.tools import TOOL_SETS

TASK_FILE = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")
DEAD_URL = "http://127.0.0.1:1"  # port 1: nothing listens there

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _build_error(**params: Any) -> str:
    with pytest.raises(ValueError) as info:
        kopa_bench(task_file=TASK_FILE, **params)
    message = str(info.value)
    assert "\n" not in message.strip(), f"not one line: {message!r}"
    return message


def test_bad_backend_names_the_valid_ones():
    msg = _build_error(backend="emulated")
    assert "emulated" in msg
    for kind in ("embedded", "served", "live", "replay"):
        assert kind in msg


def test_served_needs_a_base_url():
    msg = _build_error(backend="served")
    assert "base_url" in msg


def test_unreachable_base_url_fails_at_build_not_at_samples():
    msg = _build_error(backend="served", base_url=DEAD_URL)
    assert DEAD_URL in msg and "reach" in msg


def test_live_without_internet_fails_at_build(monkeypatch: pytest.MonkeyPatch):
    # every request through a proxy that is not there: unreachable whether or not this machine is online
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(var, DEAD_URL)
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(var, raising=False)
    msg = _build_error(backend="live", ids="kopa-901")
    assert "backend=live" in msg and "cannot be reached" in msg and "://" in msg


def test_malformed_base_url():
    msg = _build_error(backend="served", base_url="127.0.0.1:8090")
    assert "http" in msg


def test_base_url_without_served_backend_is_not_silently_ignored():
    msg = _build_error(backend="embedded", base_url="http://127.0.0.1:8090")
    assert "served" in msg


def test_replay_needs_an_existing_recording(tmp_path: Path):
    assert "recording" in _build_error(backend="replay")
    msg = _build_error(backend="replay", recording=str(tmp_path / "nope.jsonl"))
    assert "nope.jsonl" in msg


@pytest.mark.parametrize("value", ["maybe", "2", "heldout", ""])
def test_held_out_is_parsed_strictly(value: str):
    msg = _build_error(held_out=value)
    assert repr(value) in msg and "true" in msg and "false" in msg


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("False", False),
        ("false", False),
        ("no", False),
        ("0", False),
        ("True", True),
        ("yes", True),
        (False, False),
        (True, True),
    ],
)
def test_held_out_strings_mean_what_they_say(value: Any, expected: bool):
    tasks = load_tasks()  # the packaged benchmark: held-out platforms' tasks and the others
    want = sorted(t.id for t in tasks if t.held_out == expected)
    assert want, "the benchmark needs tasks on both sides"
    task = kopa_bench(held_out=value)
    assert sorted(str(s.id) for s in task.dataset) == want


def test_bad_language_names_the_valid_ones():
    msg = _build_error(language="fr")
    assert "'fr'" in msg and "ko" in msg and "en" in msg


def test_unknown_category_names_the_valid_ones():
    msg = _build_error(categories="chain2,bogus")
    assert "bogus" in msg
    for c in CATEGORIES:
        assert c in msg


def test_known_category_absent_from_the_file_says_so():
    present = {t.category for t in load_tasks(TASK_FILE)}
    absent = next(c for c in CATEGORIES if c not in present)
    msg = _build_error(categories=absent)
    assert absent in msg and "no task" in msg


def test_unknown_id_names_the_valid_ones():
    msg = _build_error(ids="kopa-901,kopa-999")
    assert "kopa-999" in msg and "kopa-901" in msg  # the valid ids of this file are listed


def test_bad_tool_set_names_tools_tool_sets():
    msg = _build_error(tool_set="everything")
    for name in TOOL_SETS:
        assert name in msg


@pytest.mark.parametrize("params", [{"max_messages": 0}, {"max_turns": -1}, {"max_messages": "many"}])
def test_limits_must_be_positive_integers(params: dict[str, Any]):
    name = next(iter(params))
    assert name in _build_error(**params)


def test_missing_task_file():
    with pytest.raises(ValueError, match="no_such_file.jsonl"):
        kopa_bench(task_file="no_such_file.jsonl")


def test_valid_parameters_still_build():
    task = kopa_bench(
        task_file=TASK_FILE,
        categories=["chain2", "chain3"],
        held_out="false",
        language="en",
        tool_set=TOOL_SETS[0],
        max_messages="40",
    )
    assert len(task.dataset) >= 1


def test_inspect_eval_cli_exits_nonzero_on_an_unreachable_backend(tmp_path: Path):
    env = {**os.environ, "INSPECT_LOG_DIR": str(tmp_path)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            "kopa_inspect/kopa_bench",
            "--model",
            "kopa/oracle",
            "-T",
            "backend=served",
            "-T",
            f"base_url={DEAD_URL}",
            "-T",
            f"task_file={TASK_FILE}",
            "--display",
            "plain",
            "--limit",
            "1",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert proc.returncode != 0, proc.stdout[-2000:]
    assert DEAD_URL in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr, "one clear line, not a traceback"


class _Server:
    """An emulator on a fixed port that can be stopped and started again."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.server = uvicorn.Server(
            uvicorn.Config(
                create_app(), host="127.0.0.1", port=self.port, log_level="warning", access_log=False
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.thread.join(timeout=10)


def test_backend_lost_after_build_makes_sample_errors_that_eval_retry_completes(tmp_path: Path):
    server = _Server(free_port())
    server.start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        task = kopa_bench(task_file=TASK_FILE, backend="served", base_url=url, ids="kopa-901")
    finally:
        server.stop()  # reachable at build, gone when the samples run
    log = inspect_eval(task, model="kopa/oracle", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "error", "a lost backend must not look like a finished eval"
    assert log.samples is None or all(not s.scores for s in log.samples), "no scored zeros"
    assert "reach" in str(log.error) or any("reach" in str(s.error) for s in log.samples or [])

    server.start()  # the backend is back: the retry finishes the same samples
    try:
        retried = eval_retry(log, log_dir=str(tmp_path), display="none")[0]
    finally:
        server.stop()
    assert retried.status == "success", retried.error
    assert retried.samples and all(s.scores["kopa_success"].value == 1.0 for s in retried.samples)
