"""The served emulator (uvicorn on loopback, as `kopa serve` runs it) answers byte for byte like
the embedded one, for every platform, and holds 200 concurrent requests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from _emulator_server import ServerThread
from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._spec import Operation
from kopa_inspect.backends import BackendConfig, EmbeddedBackend, ServedBackend
from kopa_inspect.emulator import EmulatorConfig, create_app
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with ServerThread(create_app(EmulatorConfig())) as url:
        yield url


def example_args(op: Operation) -> dict:
    """Valid arguments for our catalog platforms; defaults/"1" for the rest (errors compare too)."""
    if op.platform == "seoul":
        args: dict = {"START_INDEX": 1, "END_INDEX": 20}
        for p in op.visible_params:
            if p.required and p.name not in args:
                args[p.name] = {"USE_DT": "20261001", "USE_MON": "202609"}.get(p.name, "20261001")
        return args
    if op.platform == "assembly":
        return {
            "pSize": 20,
            **({"AGE": "21"} if op.param("AGE") is not None and op.param("AGE").required else {}),
        }
    return {p.name: p.default if p.default is not None else "1" for p in op.visible_params if p.required}


def sample_ops() -> list[Operation]:
    by_platform: dict[str, list[Operation]] = {}
    for op in operations().values():
        by_platform.setdefault(op.platform, []).append(op)
    sample: list[Operation] = []
    for pid in platforms():
        ops = by_platform.get(pid, [])
        sample += ops[:3] if pid not in ("seoul", "assembly") else ops[:6] + ops[-3:]
    return sample


async def test_served_is_byte_identical_to_embedded(base_url: str):
    embedded = EmbeddedBackend(BackendConfig(seed=5))
    served = ServedBackend(BackendConfig(kind="served", base_url=base_url, seed=5))
    ops = sample_ops()
    assert {op.platform for op in ops} >= {"seoul", "assembly"}
    try:
        for op in ops:
            args = example_args(op)
            a = await embedded.send(op, args, CLOCK)
            b = await served.send(op, args, CLOCK)
            assert (a.status, a.content_type, a.body) == (b.status, b.content_type, b.body), op.id
            needs_lookup = any(
                p.required and p.name == "BILL_ID" for p in op.params
            )  # votes need a real BILL_ID
            if op.platform in ("seoul", "assembly") and not needs_lookup:
                assert b"INFO-000" in b.body, (op.id, b.body[:200])
    finally:
        await embedded.aclose()
        await served.aclose()


async def test_key_with_slash_survives_a_real_http_path(base_url: str):
    """The default emulator key holds '/', '+' and '='; in a path-style URL it must stay one segment."""
    served = ServedBackend(BackendConfig(kind="served", base_url=base_url))
    assert "/" in served.credential("seoul")
    session = Session(served, clock=CLOCK)
    try:
        res = await session.call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 3})
        assert res.ok, res.error_text()
    finally:
        await served.aclose()


async def test_200_concurrent_requests_without_error(base_url: str):
    served = ServedBackend(BackendConfig(kind="served", base_url=base_url))
    session = Session(served, clock=CLOCK)
    calls = [
        ("seoul_bikeList", {"START_INDEX": 1 + i, "END_INDEX": 10 + i})
        if i % 2 == 0
        else ("assembly_nwvrqwxyaytdsfvhu", {"pIndex": 1 + i % 5, "pSize": 10})
        for i in range(200)
    ]
    try:
        results = await asyncio.gather(*(session.call(op_id, args) for op_id, args in calls))
    finally:
        await served.aclose()
    assert len(results) == 200
    bad = [(r.op_id, r.status, r.error_text()) for r in results if not r.ok or r.status != 200]
    assert not bad, bad[:5]
    assert all(len(r.parsed.items) == 10 for r in results)
