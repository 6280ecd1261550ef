"""A backend that echoes the caller's key (in item fields, messages and headers, as some portals echo
request parameters in links) must not get the key past the tool layer: not into a tool result, an
error, a recording, an Inspect ``.eval`` log or an EDGE dataset row, in any encoding.

The echoing backend is the emulator behind a small proxy app served by uvicorn on loopback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import urllib.parse
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from _emulator_server import ServerThread
from kopa_inspect.apis._envelope import HttpResponse
from kopa_inspect.backends import REDACTED, BackendConfig, RecordingBackend, ServedBackend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, EmulatorConfig, create_app
from kopa_inspect.execution import Session

KEY = DEFAULT_EMULATOR_KEY  # holds '+', '/' and '=': its encoded forms differ from the raw one
CLOCK = "2026-10-15T14:20:00+09:00"
TASK_FILE = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")
MESSAGE_FIELD = re.compile(r"msg|message", re.IGNORECASE)
XML_MESSAGE = re.compile(r"(</(?:resultMsg|returnAuthMsg|errMsg|MESSAGE|msg)>)")

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def key_forms(key: str = KEY) -> dict[str, str]:
    """Every spelling of the key a leak could take: raw, URL-encoded, percent-encoded (either case
    of hex digits) and percent-encoded twice."""
    once = urllib.parse.quote(key, safe="")
    return {
        "raw": key,
        "url-encoded": urllib.parse.quote_plus(key),
        "percent-encoded": once,
        "percent-encoded, '/' kept": urllib.parse.quote(key),
        "percent-encoded, lower-case hex": re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), once),
        "percent-encoded twice": urllib.parse.quote(once, safe=""),
    }


def leaks(text: str) -> list[str]:
    return [name for name, form in key_forms().items() if form in text]


def _echo(value: Any, link: str) -> Any:
    """The document with the key put where portals echo it: a link and a field in every row, and
    the message fields."""
    if isinstance(value, list):
        return [_echo(v, link) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for k, v in value.items():
        if isinstance(v, str) and MESSAGE_FIELD.search(k):
            out[k] = f"{v} (serviceKey={KEY})"
        elif isinstance(v, list):
            out[k] = [
                {
                    **_echo(row, link),
                    "detailLink": link,
                    "requestKey": KEY,
                    "nested": {
                        "echo": [
                            key_forms()["percent-encoded, lower-case hex"],
                            key_forms()["percent-encoded twice"],
                        ]
                    },
                }
                if isinstance(row, dict)
                else _echo(row, link)
                for row in v
            ]
        else:
            out[k] = _echo(v, link)
    return out


def echo_proxy(inner: Any) -> Starlette:
    """The emulator, with the caller's key echoed into every answer (body and headers)."""
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=inner), base_url="http://emulator")

    async def forward(request: Request) -> Response:
        raw_path = request.scope["raw_path"].decode("ascii")
        query = request.scope["query_string"].decode("ascii")
        kept = {
            k: v
            for k, v in request.headers.items()
            if k.lower().startswith("x-kopa") or k.lower() == "content-type"
        }
        r = await client.request(
            request.method,
            raw_path + (f"?{query}" if query else ""),
            content=await request.body(),
            headers=kept,
        )
        # The request as sent, echoed back: the key in the path (Seoul) or the query, percent-encoded.
        link = f"https://portal.example{raw_path}?{query}"
        body, ctype = r.content, r.headers.get("content-type", "")
        text = body.decode("utf-8", errors="replace").strip()
        if text.startswith(("{", "[")):  # JSON, whatever the content type says (some send text/html)
            body = json.dumps(_echo(json.loads(text), link), ensure_ascii=False).encode("utf-8")
        elif text.startswith("<"):
            body = XML_MESSAGE.sub(f" (serviceKey={KEY})\\1", text).encode("utf-8")
        headers = {
            "X-Echo-Key": KEY,
            "Link": f"<{link}>",
            "Content-Disposition": f'inline; filename="{urllib.parse.quote(KEY, safe="")}.json"',
        }
        return Response(body, status_code=r.status_code, media_type=ctype or None, headers=headers)

    return Starlette(routes=[Route("/{path:path}", forward, methods=["GET", "POST"])])


@pytest.fixture(scope="module")
def echo_url() -> Iterator[str]:
    with ServerThread(echo_proxy(create_app(EmulatorConfig()))) as url:
        yield url


@pytest.fixture(autouse=True)
def _default_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOPA_EMULATOR_KEY", raising=False)


async def test_the_proxy_echoes_the_key(echo_url: str) -> None:
    """Guards the test itself: the backend really does echo the key, raw and encoded."""
    async with httpx.AsyncClient(base_url=echo_url) as c:
        r = await c.get(
            "/DRF/lawSearch.do", params={"OC": KEY, "target": "law", "type": "JSON", "query": "도로교통법"}
        )
    assert r.headers["x-echo-key"] == KEY
    assert {"raw", "percent-encoded", "percent-encoded twice"} <= set(leaks(r.text))


CALLS = [
    ("lawgo_lawSearch", {"target": "law", "query": "도로교통법"}),
    ("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 3}),  # the key is a path segment
    (
        "kma_getVilageFcst",
        {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 5},
    ),
    (
        "kma_getVilageFcst",
        {"base_date": "20261015", "base_time": "1430", "nx": 60, "ny": 127},
    ),  # an API error
    ("stanregincd_getStanReginCdList", {"locatadd_nm": "서울특별시 종로구", "numOfRows": 1}),
]


async def test_tool_results_errors_recordings_and_logs_hold_no_key(
    echo_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    recording = tmp_path / "rec.jsonl"
    backend = RecordingBackend(ServedBackend(BackendConfig(kind="served", base_url=echo_url)), recording)
    session = Session(backend, clock=CLOCK)
    try:
        results = [await session.call(op_id, args) for op_id, args in CALLS]
    finally:
        await backend.aclose()
    assert [r.ok for r in results] == [True, True, True, False, True], [r.error_text() for r in results]
    for result in results:
        shown = [
            result.for_model(),
            result.error_text(),
            json.dumps(result.output(), ensure_ascii=False),
            repr(result.parsed),
        ]
        assert not leaks("\n".join(shown)), (result.op_id, leaks("\n".join(shown)))
        # the echo did reach the tool layer, and was redacted there (not dropped, not left in)
        assert REDACTED in result.message if not result.ok else REDACTED in result.for_model()
    assert results[0].parsed.items[0]["requestKey"] == REDACTED
    assert not leaks(recording.read_text(encoding="utf-8"))
    assert not leaks("\n".join(r.getMessage() for r in caplog.records))


def _eval_log_text(log_dir: Path) -> str:
    """Every member of every ``.eval`` log (a zip) under ``log_dir``, as text."""
    texts = []
    logs = sorted(log_dir.rglob("*.eval"))
    assert logs, f"no .eval log in {log_dir}"
    for path in logs:
        with zipfile.ZipFile(path) as z:
            texts += [z.read(name).decode("utf-8", errors="replace") for name in z.namelist()]
    return "\n".join(texts)


def test_inspect_eval_log_holds_no_key(echo_url: str, tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval

    from kopa_inspect.scorers import axis_values

    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        task_args={
            "task_file": TASK_FILE,
            "ids": "kopa-901,kopa-903",
            "backend": "served",
            "base_url": echo_url,
        },
        log_dir=str(tmp_path),
        display="none",
    )
    assert logs[0].status == "success", logs[0].error
    # the oracle solved both through the echoing backend: the tool results were read
    assert all(axis_values(s.scores)["success"] == 1.0 for s in logs[0].samples)
    text = _eval_log_text(tmp_path)
    assert REDACTED in text  # the echoed fields reached the log, redacted
    assert not leaks(text), leaks(text)


def test_edge_dataset_row_holds_no_key(echo_url: str) -> None:
    from edge_synth.compose import compose, execute
    from edge_synth.export import make_row
    from edge_synth.sample import Draft
    from kopa_inspect.plans import Plan, PlanStep

    steps = [PlanStep(id="s1", tool="lawgo_lawSearch", args={"target": "law", "query": "도로교통법"})]

    async def go() -> tuple[Any, Any]:
        backend = ServedBackend(BackendConfig(kind="served", base_url=echo_url))
        try:
            run, _ = await execute(Plan(steps=steps), backend, seed=0, clock=CLOCK)
            draft = Draft(index=0, steps=list(steps), outputs=dict(run.outputs), args=dict(run.args))
            return draft, await compose(draft, backend, seed=0, clock=CLOCK)
        finally:
            await backend.aclose()

    draft, comp = asyncio.run(go())
    assert REDACTED in json.dumps(draft.outputs, ensure_ascii=False)
    assert comp is not None
    row = make_row(draft, comp, seed=0, clock=CLOCK)
    text = json.dumps(row, ensure_ascii=False, default=str)
    assert not leaks(text), leaks(text)


class _GatewayPage(ServedBackend):
    """A proxy's error page that quotes the request URL, key and all, where the tool layer keeps only
    the first 200 characters of an unparseable body."""

    async def _send(self, req: Any, clock: str | None) -> HttpResponse:
        url = f"https://apis.data.go.kr{req.path}?serviceKey={urllib.parse.quote(KEY, safe='')}"
        text = f"Bad Gateway: the upstream did not answer {url}"
        # Padded so that character 200 falls inside the key, 12 characters before its end.
        return HttpResponse(502, "text/plain", ("-" * (212 - len(text)) + text).encode())


async def test_a_cut_error_page_keeps_no_part_of_the_key() -> None:
    backend = _GatewayPage(BackendConfig(kind="served", base_url="http://unused"))
    try:
        result = await Session(backend, clock=CLOCK).call("kasi_getRestDeInfo", {"solYear": "2026"})
    finally:
        await backend.aclose()
    assert not result.ok and len(result.message) <= 200, result.message
    encoded = urllib.parse.quote(KEY, safe="")
    assert "Bad Gateway" in result.message
    assert not any(encoded[:n] in result.message for n in range(8, len(encoded) + 1)), result.message
