"""Record a session, replay it byte for byte; a planted key never reaches the recording, the
error messages or the logs."""

from __future__ import annotations

import base64
import json
import logging
import re

import pytest

from kopa_inspect.apis import operations
from kopa_inspect.apis._envelope import HttpResponse
from kopa_inspect.backends import (
    Backend,
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
    (
        "seoul_CardSubwayStatsNew",
        {"START_INDEX": 1, "END_INDEX": 3, "USE_DT": "20261001", "SUB_STA_NM": "강남"},
    ),
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
            return op.id, {
                p.name: p.default if p.default is not None else "1" for p in op.visible_params if p.required
            }
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

    replay = Session(
        make_backend(BackendConfig(kind="replay", recording=str(recording))), clock=CLOCK, seed=3
    )
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


# --- binary bodies (DART corpCode.xml is a ZIP download) -----------------------------------------


async def test_binary_zip_download_replays_byte_for_byte_and_unzips(tmp_path):
    import io
    import zipfile

    recording = tmp_path / "dart.jsonl"
    inner = EmbeddedBackend(BackendConfig(seed=3), emulator=EmulatorConfig(seed=3, keys=frozenset({PLANTED})))
    recorder = RecordingBackend(inner, recording)
    op = operations()["dart_corpCode"]
    live = await recorder.send(op, {"format": "xml"}, CLOCK)
    await recorder.aclose()
    assert live.body[:4] == b"PK\x03\x04"  # the real download: a ZIP

    replayed = await make_backend(BackendConfig(kind="replay", recording=str(recording))).send(
        op, {"format": "xml"}, CLOCK
    )
    assert replayed.body == live.body and replayed.status == live.status
    assert replayed.content_type == live.content_type
    assert replayed.headers.get("content-disposition") == "attachment; filename=CORPCODE.zip"
    with zipfile.ZipFile(io.BytesIO(replayed.body)) as zf:
        assert zf.namelist() == ["CORPCODE.xml"] and b"<corp_code>" in zf.read("CORPCODE.xml")
    rec = json.loads(recording.read_text(encoding="utf-8"))
    assert rec["body_encoding"] == "base64" and "body" not in rec
    # Through the session too: the replayed ZIP parses to the same companies.
    first = await Session(
        RecordingBackend(EmbeddedBackend(BackendConfig(seed=3)), tmp_path / "s.jsonl"), clock=CLOCK, seed=3
    ).call("dart_corpCode", {"format": "xml"})
    again = await Session(
        make_backend(BackendConfig(kind="replay", recording=str(tmp_path / "s.jsonl"))), clock=CLOCK, seed=3
    ).call("dart_corpCode", {"format": "xml"})
    assert first.ok and len(first.output()["items"]) >= 20 and first.output() == again.output()


async def test_text_bodies_stay_readable_and_non_utf8_text_survives(tmp_path):
    recording = tmp_path / "t.jsonl"
    backend = RecordingBackend(EmbeddedBackend(BackendConfig()), recording)
    await Session(backend, clock=CLOCK).call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 1})
    await backend.aclose()
    rec = json.loads(recording.read_text(encoding="utf-8"))
    assert "INFO-000" in rec["body"] and rec.get("body_encoding", "text") == "text"

    # An EUC-KR XML answer (some Korean services send one) is not valid UTF-8: it must come back as sent.
    euc = "<result><msg>정상</msg></result>".encode("euc-kr")
    fake = _Canned(HttpResponse(200, "text/xml;charset=EUC-KR", euc))
    recorder = RecordingBackend(fake, tmp_path / "euc.jsonl")
    op = operations()["seoul_bikeList"]
    await recorder.send(op, {"START_INDEX": 1}, CLOCK)
    replayed = await make_backend(BackendConfig(kind="replay", recording=str(tmp_path / "euc.jsonl"))).send(
        op, {"START_INDEX": 1}, CLOCK
    )
    assert replayed.body == euc


async def test_old_text_recordings_still_replay(tmp_path):
    old = tmp_path / "old.jsonl"
    op = operations()["seoul_bikeList"]
    args = {"START_INDEX": 1, "END_INDEX": 1}
    fp = json.dumps([op.id, args, CLOCK], ensure_ascii=False, sort_keys=True)
    old.write_text(
        json.dumps(
            {
                "fingerprint": fp,
                "op": op.id,
                "args": args,
                "clock": CLOCK,
                "status": 200,
                "content_type": "application/json",
                "body": '{"a": "정상"}',
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    resp = await make_backend(BackendConfig(kind="replay", recording=str(old))).send(op, args, CLOCK)
    assert resp.body == '{"a": "정상"}'.encode() and resp.headers == {}


class _Canned(Backend):
    """A backend that answers one fixed response (what a hostile or odd server could send)."""

    kind = "live"

    def __init__(self, resp, key: str = PLANTED) -> None:
        super().__init__(BackendConfig())
        self.resp, self.key = resp, key

    def credential(self, platform_id: str) -> str | None:
        return self.key

    async def _send(self, req, clock):
        return self.resp


@pytest.mark.parametrize("binary", [False, True])
async def test_a_key_echoed_in_body_or_headers_never_reaches_the_recording(tmp_path, binary):
    import urllib.parse

    url = f"https://opendart.fss.or.kr/api/corpCode.xml?crtfc_key={urllib.parse.quote(PLANTED, safe='')}"
    body = (b"PK\x03\x04\x00\xff" if binary else b"<err>") + f"bad request {url} key={PLANTED}".encode()
    headers = {
        "Content-Disposition": f"attachment; filename={PLANTED}.zip",
        "Location": url,
        "X-Echo-Key": urllib.parse.quote_plus(PLANTED),
    }
    recording = tmp_path / "k.jsonl"
    recorder = RecordingBackend(
        _Canned(
            HttpResponse(200, "application/x-msdownload" if binary else "text/xml", body, headers=headers)
        ),
        recording,
    )
    op = operations()["dart_corpCode"]
    await recorder.send(op, {"format": "xml", "crtfc_key": PLANTED}, CLOCK)
    raw = recording.read_text(encoding="utf-8")
    rec = json.loads(raw)
    decoded = base64.b64decode(rec["body_b64"]).decode("latin-1") if binary else rec["body"]
    for form in forms(PLANTED):
        assert form not in raw and form not in decoded and form not in json.dumps(rec["headers"])
    assert "crtfc_key" not in rec["args"] or rec["args"]["crtfc_key"] == "***"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            {
                "fingerprint": "x",
                "status": 200,
                "content_type": "application/zip",
                "body_encoding": "base64",
                "body_b64": "not base64!",
            },
            "without a valid body_b64",
        ),
        (
            {
                "fingerprint": "x",
                "status": 200,
                "content_type": "text/xml",
                "body_encoding": "gzip",
                "body": "",
            },
            "unknown body_encoding 'gzip'",
        ),
        (
            {"op": "seoul_bikeList", "body": "x"},
            "not a recorded exchange (no fingerprint, status, content_type)",
        ),
    ],
)
def test_a_broken_recording_line_is_named_at_load_time(tmp_path, line, reason):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"bad\.jsonl:2: .*{re.escape(reason)}"):
        make_backend(BackendConfig(kind="replay", recording=str(bad)))


async def test_a_replay_miss_says_what_the_recording_has(tmp_path):
    recording = tmp_path / "r.jsonl"
    backend = RecordingBackend(EmbeddedBackend(BackendConfig()), recording)
    await Session(backend, clock=CLOCK).call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2})
    await backend.aclose()
    replay = make_backend(BackendConfig(kind="replay", recording=str(recording)))
    other_clock = await Session(replay, clock="2026-10-16T09:00:00+09:00").call(
        "seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2}
    )
    assert f"has this call at clock {CLOCK}" in other_clock.message
    other_args = await Session(replay, clock=CLOCK).call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 9})
    assert "1 other call(s) to seoul_bikeList" in other_args.message
    never = await Session(replay, clock=CLOCK).call("assembly_nwvrqwxyaytdsfvhu", {"pSize": 1})
    assert "never calls assembly_nwvrqwxyaytdsfvhu" in never.message
