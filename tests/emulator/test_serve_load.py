"""`kopa serve` under load: a keep-alive longer than any client pool's (no race on reused
connections), an answer cache that gives the same bytes as the emulator, and the HTTP backends'
single retry of a GET whose pooled connection was closed under it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from typer.testing import CliRunner

from _emulator_server import free_port
from kopa_inspect.apis import get_operation, operations
from kopa_inspect.backends import CLIENT_LIMITS, BackendConfig, ServedBackend, build_request
from kopa_inspect.cli import app as cli_app
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, EmulatorConfig, create_app
from kopa_inspect.execution import Session
from kopa_inspect.serving import KEEP_ALIVE_S, AnswerCache, cacheable, server_config

CLOCK = "2026-10-15T14:20:00+09:00"
FORECAST = (
    "kma_getVilageFcst",
    {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12},
)


def _serve_config(monkeypatch: pytest.MonkeyPatch, *args: str) -> uvicorn.Config:
    """The uvicorn configuration `kopa serve ARGS` would run (the server is not started)."""
    seen: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: seen.append(self.config))
    result = CliRunner().invoke(cli_app, ["serve", *args])
    assert result.exit_code == 0, result.output
    assert len(seen) == 1
    return seen[0]


def test_kopa_serve_keeps_idle_connections_longer_than_client_pools(monkeypatch: pytest.MonkeyPatch) -> None:
    config = _serve_config(monkeypatch)
    # httpx's default pool and the project's own drop idle connections after 5 s; the server must
    # outlast both by a margin, or both close at once and a reused connection dies under a request.
    pools = (httpx.Limits().keepalive_expiry or 5.0, CLIENT_LIMITS.keepalive_expiry or 5.0)
    assert config.timeout_keep_alive == KEEP_ALIVE_S >= 3 * max(pools)
    assert config.backlog >= 1000
    assert isinstance(config.app, AnswerCache)
    assert _serve_config(monkeypatch, "--keep-alive", "30").timeout_keep_alive == 30


def test_answer_cache_is_off_where_answers_change(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not isinstance(_serve_config(monkeypatch, "--quota", "5").app, AnswerCache)
    assert not isinstance(_serve_config(monkeypatch, "--clock", "now").app, AnswerCache)
    assert not isinstance(_serve_config(monkeypatch, "--no-cache").app, AnswerCache)
    assert cacheable(None, None) and cacheable(CLOCK, None)


async def test_cached_answers_are_the_emulators_bytes() -> None:
    plain, cached = create_app(EmulatorConfig()), AnswerCache(create_app(EmulatorConfig()))
    op_id, args = FORECAST
    req = build_request(get_operation(op_id), args, DEFAULT_EMULATOR_KEY)
    async with (
        httpx.AsyncClient(transport=httpx.ASGITransport(app=plain), base_url="http://e") as a,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=cached), base_url="http://e") as b,
    ):
        answers = {}
        for seed in ("0", "0", "7", "7", "0"):
            headers = {CLOCK_HEADER: CLOCK, SEED_HEADER: seed}
            want = await a.get(req.path, params=req.query, headers=headers)
            got = await b.get(req.path, params=req.query, headers=headers)
            assert (got.status_code, got.headers["content-type"], got.content) == (
                want.status_code,
                want.headers["content-type"],
                want.content,
            )
            answers[seed] = got.content
    # another seed is another world: a miss, not the first world's answer
    assert answers["0"] != answers["7"]
    assert (cached.hits, cached.misses) == (3, 2)


async def test_a_get_on_a_connection_closed_under_it_is_sent_once_more() -> None:
    sent: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request.method)
        if len(sent) == 1:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        return httpx.Response(
            200,
            json={
                "response": {
                    "header": {"resultCode": "00", "resultMsg": "NORMAL_SERVICE"},
                    "body": {"items": {"item": [{"a": 1}]}, "totalCount": 1},
                }
            },
        )

    backend = ServedBackend(BackendConfig(kind="served", base_url="http://emulator"))
    await backend.client.aclose()
    backend.client = httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url="http://emulator")
    try:
        result = await Session(backend, clock=CLOCK).call("kasi_getRestDeInfo", {"solYear": "2026"})
    finally:
        await backend.aclose()
    assert sent == ["GET", "GET"]
    assert result.status == 200 and result.code == "00"


async def test_a_post_is_not_sent_twice() -> None:
    sent: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request.method)
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.")

    post_op = next(op for op in operations().values() if op.method == "POST")
    backend = ServedBackend(BackendConfig(kind="served", base_url="http://emulator"))
    await backend.client.aclose()
    backend.client = httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url="http://emulator")
    try:
        result = await Session(backend, clock=CLOCK).call(post_op.id, {})
    finally:
        await backend.aclose()
    assert sent == ["POST"]
    assert not result.ok and result.code == "HTTP"


@pytest.fixture()
def kopa_served() -> Iterator[str]:
    """`kopa serve`'s own configuration (keep-alive, backlog, answer cache) on a free loopback port."""
    port = free_port()
    server = uvicorn.Server(server_config(AnswerCache(create_app(EmulatorConfig())), "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.slow
async def test_bursts_of_200_after_an_idle_pool_have_no_errors(kopa_served: str) -> None:
    """Three bursts of 200, each after idling just under the client pool's 5 s expiry: the
    pooled connections are reused where uvicorn's default keep-alive (5 s) would close them."""
    reqs = [
        build_request(get_operation(op_id), args, DEFAULT_EMULATOR_KEY)
        for op_id, args in (
            FORECAST,
            ("kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "10"}),
            ("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11110", "DEAL_YMD": "202609"}),
        )
    ]
    errors: list[str] = []
    answered = 0

    async def one(i: int, client: httpx.AsyncClient) -> None:
        nonlocal answered
        req = reqs[i % len(reqs)]
        try:
            r = await client.get(req.path, params=req.query, headers={CLOCK_HEADER: CLOCK})
        except httpx.HTTPError as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            return
        if r.status_code != 200:
            errors.append(f"HTTP {r.status_code}")
        answered += 1

    async with httpx.AsyncClient(base_url=kopa_served, limits=CLIENT_LIMITS, timeout=120) as client:
        for _ in range(3):
            await asyncio.gather(*(one(i, client) for i in range(200)))
            await asyncio.sleep(4.9)
    assert not errors, errors[:5]
    assert answered == 600
