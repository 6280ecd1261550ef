"""Backends: live-mode URLs and keys (against the emulator as the transport), allowlist, redaction."""

import httpx
import pytest

from kopa_inspect.apis import operations
from kopa_inspect.apis._spec import Operation
from kopa_inspect.backends import (
    BackendConfig,
    BackendError,
    LiveBackend,
    build_request,
    make_backend,
    redact,
)
from kopa_inspect.emulator import EmulatorConfig, create_app
from kopa_inspect.execution import Session

LIVE_KEY = "LIVE+test/key=="


def first_datagokr_op() -> Operation:
    for op in operations().values():
        if op.method == "GET" and "{" not in op.path and op.path.startswith("/1360000/"):
            return op
    pytest.skip("no KMA operation registered yet")


def test_redact_removes_every_encoding_of_the_key():
    text = f"raw {LIVE_KEY} enc {httpx.QueryParams({'k': LIVE_KEY})} plus LIVE%2Btest%2Fkey%3D%3D"
    out = redact(text, [LIVE_KEY])
    assert "LIVE" not in out and out.count("***") >= 2


def test_build_request_places_key_and_format_switch():
    op = first_datagokr_op()
    req = build_request(op, {"nx": 60}, "K")
    assert req.path == op.path
    assert req.query["serviceKey"] == "K"
    assert (
        any(k in req.query for k in ("dataType", "_type", "returnType", "type"))
        or not (
            op.envelope_override
            or __import__("kopa_inspect.apis", fromlist=["get_platform"]).get_platform(op.platform).envelope
        ).format_param
    )


async def test_live_backend_sends_real_urls_with_the_env_key():
    op = first_datagokr_op()
    seen: list[httpx.Request] = []
    app = create_app(EmulatorConfig(keys=frozenset({LIVE_KEY})))
    inner = httpx.ASGITransport(app=app)

    class Spy(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            seen.append(request)
            return await inner.handle_async_request(request)

    backend = LiveBackend(BackendConfig(kind="live"), env={"KOPA_SERVICE_KEY": LIVE_KEY}, transport=Spy())
    session = Session(backend, clock=None)
    args = {p.name: p.default for p in op.visible_params if p.required}
    await session.call(op.id, args)
    assert seen, "no request left the backend"
    url = seen[0].url
    assert url.host == "apis.data.go.kr" and url.path == op.path
    # The key travels percent-encoded exactly once, as the data.go.kr gateway requires.
    assert "LIVE%2Btest%2Fkey%3D%3D" in str(url)
    await backend.aclose()


async def test_live_backend_refuses_hosts_off_the_allowlist():
    op = first_datagokr_op()
    backend = LiveBackend(BackendConfig(kind="live"), env={"KOPA_SERVICE_KEY": LIVE_KEY})
    backend.allowed_hosts.clear()
    with pytest.raises(BackendError, match="allowlist"):
        await backend.send(op, {})
    await backend.aclose()


async def test_transport_errors_never_carry_the_key():
    op = first_datagokr_op()
    backend = make_backend(BackendConfig(kind="served", base_url="http://127.0.0.1:9"))
    backend._key = LIVE_KEY  # what a user would set through KOPA_EMULATOR_KEY
    session = Session(backend)
    res = await session.call(op.id, {})
    assert not res.ok and res.code == "HTTP"
    assert LIVE_KEY not in res.message and "LIVE%2B" not in res.message
    await backend.aclose()


def test_replay_without_recording_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        make_backend(BackendConfig(kind="replay", recording=str(tmp_path / "none.jsonl")))
    with pytest.raises(ValueError, match="needs a recording"):
        make_backend(BackendConfig(kind="replay"))
