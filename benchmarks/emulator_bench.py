"""Throughput and latency of the emulator: in-process handler, embedded (ASGI), served (uvicorn).

    .venv/bin/python benchmarks/emulator_bench.py [--op seoul_bikeList] [--requests 3000] [--concurrency 16]

Modes (one typical operation, same request each time after a warm-up):
- handle:   Emulator.handle() called directly (no transport): the ceiling.
- embedded: httpx.AsyncClient over httpx.ASGITransport (what the embedded backend does).
- session:  Session.call() over the embedded backend (request building + envelope parsing too).
- served:   `kopa serve` in a subprocess (uvicorn, one worker, loopback) driven by keep-alive
            http.client connections in threads.
Client and server share the machine's cores in every mode.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Awaitable, Callable

import httpx

from kopa_inspect.apis import get_operation
from kopa_inspect.backends import BackendConfig, EmbeddedBackend, build_request
from kopa_inspect.emulator import (
    CLOCK_HEADER,
    DEFAULT_EMULATOR_KEY,
    SEED_HEADER,
    Emulator,
    EmulatorConfig,
    create_app,
    routing_path,
)
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"
DEFAULT_ARGS = {
    "seoul_bikeList": {"START_INDEX": 1, "END_INDEX": 5},
    "assembly_nwvrqwxyaytdsfvhu": {"pSize": 5},
}


def summarize(name: str, latencies: list[float], wall: float) -> dict:
    lat = sorted(latencies)
    return {
        "mode": name,
        "requests": len(lat),
        "req_per_s": round(len(lat) / wall, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 3),
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 3),
    }


async def drive(n: int, concurrency: int, one: Callable[[], Awaitable[None]]) -> tuple[list[float], float]:
    latencies: list[float] = []
    remaining = n

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            t0 = time.perf_counter()
            await one()
            latencies.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, time.perf_counter() - start


def bench_handle(op_id: str, args: dict, n: int) -> dict:
    emulator = Emulator(EmulatorConfig())
    req = build_request(get_operation(op_id), args, DEFAULT_EMULATOR_KEY)
    path = routing_path({"raw_path": req.path.encode()}, urllib.parse.unquote(req.path))
    query = {k: str(v) for k, v in req.query.items()}
    first = emulator.handle(req.method, path, query, clock=CLOCK)
    assert first.status == 200, first.text[:200]
    latencies = []
    start = time.perf_counter()
    for _ in range(n):
        t0 = time.perf_counter()
        emulator.handle(req.method, path, query, clock=CLOCK)
        latencies.append(time.perf_counter() - t0)
    return summarize("handle", latencies, time.perf_counter() - start)


async def bench_http(
    name: str, client: httpx.AsyncClient, op_id: str, args: dict, n: int, concurrency: int
) -> dict:
    req = build_request(get_operation(op_id), args, DEFAULT_EMULATOR_KEY)
    headers = {SEED_HEADER: "0", CLOCK_HEADER: CLOCK}

    async def one() -> None:
        r = await client.request(req.method, req.path, params=req.query, headers=headers)
        if r.status_code != 200:
            raise RuntimeError(f"HTTP {r.status_code}")

    await one()  # warm-up: builds the world part
    latencies, wall = await drive(n, concurrency, one)
    return summarize(name, latencies, wall)


async def bench_session(op_id: str, args: dict, n: int, concurrency: int) -> dict:
    backend = EmbeddedBackend(BackendConfig())
    session = Session(backend, clock=CLOCK)

    async def one() -> None:
        res = await session.call(op_id, args)
        if not res.ok:
            raise RuntimeError(res.error_text())
        session.calls.clear()

    await one()
    latencies, wall = await drive(n, concurrency, one)
    await backend.aclose()
    return summarize("session", latencies, wall)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_served(op_id: str, args: dict, n: int, concurrency: int) -> dict:
    """`kopa serve` in a subprocess, driven by keep-alive http.client connections in threads.

    (httpx over TCP costs ~3 ms a request on its own here and would measure the client.)
    """
    port = free_port()
    cmd = [sys.executable, "-c", "from kopa_inspect.cli import app; app()", "serve", "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    req = build_request(get_operation(op_id), args, DEFAULT_EMULATOR_KEY)
    target = req.path + ("?" + urllib.parse.urlencode(req.query) if req.query else "")
    headers = {SEED_HEADER: "0", CLOCK_HEADER: CLOCK}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", target, headers=headers)  # also the warm-up
                if conn.getresponse().read() and True:
                    conn.close()
                    break
            except OSError:
                time.sleep(0.1)
            if time.monotonic() > deadline:
                raise RuntimeError("kopa serve did not start")
        latencies: list[float] = []
        lock = threading.Lock()
        remaining = [n]

        def worker() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            while True:
                with lock:
                    if remaining[0] <= 0:
                        break
                    remaining[0] -= 1
                t0 = time.perf_counter()
                conn.request("GET", target, headers=headers)
                resp = conn.getresponse()
                resp.read()
                if resp.status != 200:
                    raise RuntimeError(f"HTTP {resp.status}")
                dt = time.perf_counter() - t0
                with lock:
                    latencies.append(dt)
            conn.close()

        threads = [threading.Thread(target=worker) for _ in range(concurrency)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return summarize("served", latencies, time.perf_counter() - start)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def main_async(ns: argparse.Namespace) -> list[dict]:
    args = json.loads(ns.args) if ns.args else DEFAULT_ARGS.get(ns.op, {})
    results = [bench_handle(ns.op, args, ns.requests)]
    transport = httpx.ASGITransport(app=create_app(EmulatorConfig()))
    async with httpx.AsyncClient(transport=transport, base_url="http://emulator") as client:
        results.append(await bench_http("embedded", client, ns.op, args, ns.requests, ns.concurrency))
    results.append(await bench_session(ns.op, args, ns.requests, ns.concurrency))
    if not ns.no_served:
        results.append(bench_served(ns.op, args, ns.requests, ns.served_concurrency))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op", default="seoul_bikeList", help="operation id (default: seoul_bikeList)")
    parser.add_argument(
        "--args", default=None, help='JSON arguments, e.g. \'{"START_INDEX": 1, "END_INDEX": 5}\''
    )
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument(
        "--served-concurrency", type=int, default=4, help="client threads for the served mode"
    )
    parser.add_argument("--no-served", action="store_true", help="skip the uvicorn subprocess")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    ns = parser.parse_args()
    results = asyncio.run(main_async(ns))
    if ns.json:
        for r in results:
            print(json.dumps({"op": ns.op, **r}))
        return
    print(
        f"operation {ns.op}, {ns.requests} requests, concurrency {ns.concurrency} "
        f"(served: {ns.served_concurrency} threads), {os.cpu_count()} CPUs"
    )
    print(f"{'mode':<10}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}")
    for r in results:
        print(f"{r['mode']:<10}{r['req_per_s']:>10}{r['p50_ms']:>10}{r['p99_ms']:>10}")


if __name__ == "__main__":
    main()
