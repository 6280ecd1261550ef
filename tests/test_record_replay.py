"""Record a session, replay it byte for byte; a planted key never reaches the recording, the
error messages or the logs."""

from __future__ import annotations

import json
import logging

import pytest

from kopa_inspect.apis import operations
from kopa_inspect.backends import (
    BackendConfig,
    EmbeddedBackend,
    RecordingBackend,
    ServedBackend,
    make_backend,
)
from kopa_inspect.emulator import EmulatorConfig
from kopa_inspect.execution import Session

PLANTED = "PLANTED+s3cret/KEY0042=="
CLOCK = "2026-10-15T14:20:00+09:00"
CALLS: list[tuple[str, dict]] = [
    ("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 5}),
    ("seoul_bikeList", {"START_INDEX": 9, "END_INDEX": 2}),  # ERROR-334
    ("seoul_CardSubwayStatsNew", {"START_INDEX": 1, "END_INDEX": 3, "USE_DT": "20261001", "SUB_STA_NM": "강남"}),
    ("assembly_nwvrqwxyaytdsfvhu", {"pSize": 3}),
    ("assembly_nzmimeepazxkubdpn", {}),  # ERROR-300
    ("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 5}),  # a repeat replays in order
]


def forms(secret: str) -> list[str]:
    import urllib.parse

    return [secret, urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret), "s3cret"]


def datagokr_call() -> tuple[str, dict] | None:
    """Any registered non-catalog operation (other providers land independently)."""
    for op in operations().values():
        if op.platform not in ("seoul", "assembly") and op.method == "GET":
            return op.id, {p.name: p.default if p.default is not None else "1" for p in op.visible_params if p.required}
    return None


async def test_record_then_replay_is_identical_and_key_free(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    recording = tmp_path / "session.jsonl"
    calls = list(CALLS)
    extra = datagokr_call()
    if extra:
        calls.append(extra)
    inner = EmbeddedBackend(BackendConfig(seed=3), emulator=EmulatorConfig(seed=3, keys=frozenset({PLANTED})))
    recorder = RecordingBackend(inner, recording)
    assert recorder.credential("seoul") == PLANTED
    live = Session(recorder, clock=CLOCK, seed=3)
    first = [await live.call(op_id, args) for op_id, args in calls]
    await recorder.aclose()
    assert first[0].ok and first[3].ok and first[1].code == "ERROR-334" and first[4].code == "ERROR-300"

    replay = Session(make_backend(BackendConfig(kind="replay", recording=str(recording))), clock=CLOCK, seed=3)
    second = [await replay.call(op_id, args) for op_id, args in calls]
    for a, b in zip(first, second, strict=True):
        assert (a.status, a.code, a.message, a.output()) == (b.status, b.code, b.message, b.output())
        assert a.for_model() == b.for_model()

    text = recording.read_text(encoding="utf-8")
    assert len(text.splitlines()) == len(calls)
    messages = [r.message for r in first + second]
    logs = caplog.text
    for form in forms(PLANTED):
        assert form not in text, "key in the recording"
        assert all(form not in m for m in messages), "key in an error message"
        assert form not in logs, "key in the logs"
    assert json.loads(text.splitlines()[0])["op"] == "seoul_bikeList"


async def test_replay_of_an_unrecorded_call_is_an_error_not_a_guess(tmp_path):
    recording = tmp_path / "r.jsonl"
    backend = RecordingBackend(EmbeddedBackend(BackendConfig()), recording)
    await Session(backend, clock=CLOCK).call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2})
    await backend.aclose()
    replay = Session(make_backend(BackendConfig(kind="replay", recording=str(recording))), clock=CLOCK)
    res = await replay.call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 3})
    assert not res.ok and res.code == "HTTP" and "no recorded answer" in res.message


async def test_transport_errors_do_not_leak_the_key(monkeypatch, caplog):
    """A served backend pointed at a closed port: the failure names no key (path-style URL holds it)."""
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("KOPA_EMULATOR_KEY", PLANTED)
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    backend = ServedBackend(BackendConfig(kind="served", base_url=f"http://127.0.0.1:{port}", timeout=2))
    res = await Session(backend, clock=CLOCK).call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2})
    await backend.aclose()
    assert not res.ok and res.code == "HTTP"
    for form in forms(PLANTED):
        assert form not in res.message and form not in caplog.text


@pytest.mark.parametrize("op_id", ["seoul_bikeList", "assembly_nwvrqwxyaytdsfvhu"])
async def test_recording_holds_args_not_urls(tmp_path, op_id):
    recording = tmp_path / "x.jsonl"
    backend = RecordingBackend(
        EmbeddedBackend(BackendConfig(), emulator=EmulatorConfig(keys=frozenset({PLANTED}))), recording
    )
    args = {"START_INDEX": 1, "END_INDEX": 1} if op_id.startswith("seoul") else {"pSize": 1}
    await Session(backend, clock=CLOCK).call(op_id, args)
    await backend.aclose()
    rec = json.loads(recording.read_text(encoding="utf-8"))
    assert rec["args"] == args and "KEY" not in rec["args"] and "INFO-000" in rec["body"]
