"""Bursts of concurrent requests at `kopa serve` and at a bare uvicorn app on the same machine.

Each server runs in its own subprocess with the same uvicorn settings (kopa_inspect.serving: the
keep-alive `kopa serve` uses); the bare app answers every request with one fixed, data.go.kr-shaped
JSON of about the size the emulator sends. One httpx client per server, with the project's own
connection pool (kopa_inspect.backends.CLIENT_LIMITS), fires bursts of N requests all at once:
realistic data.go.kr GETs (forecast, apartment trades, holidays, district codes, air quality) with
the key in the query. Between bursts the client idles for --pause seconds, just under httpx's 5 s
pool expiry, which is where a server keep-alive equal to the client's races it: rerun with
`--keep-alive 5` (uvicorn's default) to see "Server disconnected without sending a response".

Both servers run at once and are driven in turn, burst by burst. Reported per server and burst
size: requests, errors, req/s (requests over the bursts' wall time), p50/p99 latency, the server
process's CPU ms per request, kopa's req/s as a share of the bare app's, and the bare app's CPU
per request as a share of kopa's (the servers' own cost; the client's httpx is most of the CPU
and shares the machine's cores with both servers).

    .venv/bin/python benchmarks/load_bench.py                      # 200 and 1,000, 2 rounds each
    .venv/bin/python benchmarks/load_bench.py --distinct           # every request unique: no cache hit
    .venv/bin/python benchmarks/load_bench.py --keep-alive 5       # uvicorn's default: the race
    # options: --bursts 200,1000 --rounds 2 --pause 4.9 --json
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from tabulate import tabulate

from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.apis._envelope import HttpResponse
from kopa_inspect.backends import CLIENT_LIMITS, build_request
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER
from kopa_inspect.serving import KEEP_ALIVE_S

CLOCK = "2026-10-15T14:20:00+09:00"
CALLS: list[tuple[str, dict[str, Any]]] = [
    (
        "kma_getVilageFcst",
        {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127, "numOfRows": 12},
    ),
    ("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11110", "DEAL_YMD": "202609", "numOfRows": 10}),
    ("kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "10"}),
    ("stanregincd_getStanReginCdList", {"locatadd_nm": "서울특별시 종로구", "numOfRows": 5}),
    ("airkorea_getCtprvnRltmMesureDnsty", {"sidoName": "서울", "numOfRows": 10}),
]
# About the emulator's answer size for these calls; the same bytes for every request.
BARE_BODY = json.dumps(
    {
        "response": {
            "header": {"resultCode": "00", "resultMsg": "NORMAL_SERVICE"},
            "body": {
                "dataType": "JSON",
                "pageNo": 1,
                "numOfRows": 10,
                "totalCount": 10,
                "items": {
                    "item": [
                        {
                            "baseDate": "20261015",
                            "baseTime": "1400",
                            "category": "TMP",
                            "fcstDate": "20261015",
                            "fcstTime": f"{15 + i:02d}00",
                            "fcstValue": str(18 - i),
                            "nx": 60,
                            "ny": 127,
                        }
                        for i in range(10)
                    ]
                },
            },
        }
    },
    ensure_ascii=False,
    separators=(",", ":"),
).encode("utf-8")


async def bare_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The least a uvicorn app can do for a GET: a fixed JSON body, no routing, no framework."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json;charset=UTF-8")],
        }
    )
    await send({"type": "http.response.body", "body": BARE_BODY})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(kind: str, port: int, keep_alive: int) -> subprocess.Popen[bytes]:
    if kind == "kopa":
        cmd = [
            sys.executable,
            "-c",
            "from kopa_inspect.cli import app; app()",
            "serve",
            "--port",
            str(port),
            "--keep-alive",
            str(keep_alive),
        ]
    else:
        cmd = [
            sys.executable,
            os.path.abspath(__file__),
            "--serve-bare",
            str(port),
            "--keep-alive",
            str(keep_alive),
        ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_until_up(proc: subprocess.Popen[bytes], port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"server exited with {proc.returncode}: {err[-500:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server on port {port} did not start in {timeout:.0f} s")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def requests() -> list[tuple[str, dict[str, str]]]:
    """The calls as a data.go.kr client sends them: path and query, key and JSON switch included."""
    out = []
    for op_id, args in CALLS:
        req = build_request(get_operation(op_id), args, DEFAULT_EMULATOR_KEY)
        out.append((req.path, {k: str(v) for k, v in req.query.items()}))
    return out


def check_answer(op_id: str, r: httpx.Response) -> None:
    """The emulator's answer to a warm-up call, read as the tool layer reads it: it must be OK."""
    op = get_operation(op_id)
    envelope = op.envelope_override or get_platform(op.platform).envelope
    parsed = envelope.parse(op, HttpResponse(r.status_code, r.headers.get("content-type", ""), r.content))
    if not parsed.ok or not parsed.items:
        raise RuntimeError(f"{op_id} answered {parsed.code} {parsed.message} with {len(parsed.items)} items")


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0

    @property
    def requests(self) -> int:
        return len(self.latencies) + len(self.errors)


_SENT = itertools.count()


async def burst(
    client: httpx.AsyncClient,
    reqs: list[tuple[str, dict[str, str]]],
    n: int,
    tally: Tally,
    distinct: bool = False,
) -> None:
    headers = {SEED_HEADER: "0", CLOCK_HEADER: CLOCK}
    # Requests past the pool's size wait here, not in httpcore's pool queue, whose bookkeeping costs
    # grow with the queue (1,000 queued requests: ~20 s of client CPU per burst that opens connections).
    gate = asyncio.Semaphore(CLIENT_LIMITS.max_connections or n)

    async def one(i: int) -> None:
        path, query = reqs[i % len(reqs)]
        if distinct:
            # A parameter no API knows (the gateways ignore it): the same answer, computed afresh.
            query = {**query, "_req": str(next(_SENT))}
        t0 = time.perf_counter()
        try:
            async with gate:
                r = await client.get(path, params=query, headers=headers)
        except httpx.HTTPError as exc:
            tally.errors.append(f"{type(exc).__name__}: {exc}"[:120])
            return
        if r.status_code != 200:
            tally.errors.append(f"HTTP {r.status_code}")
            return
        tally.latencies.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    tally.wall += time.perf_counter() - start


SERVERS = ("kopa", "bare")


async def run_servers(
    bursts: list[int], rounds: int, pause: float, keep_alive: int, timeout: float, distinct: bool
) -> dict[tuple[str, int], Tally]:
    """Both servers up at once and driven in turn, burst by burst, so that both see the same load
    from whatever else runs on the machine."""
    ports = {kind: free_port() for kind in SERVERS}
    procs = {kind: start_server(kind, ports[kind], keep_alive) for kind in SERVERS}
    reqs = requests()
    tallies = {(kind, n): Tally() for kind in SERVERS for n in bursts}
    try:
        clients = {}
        for kind in SERVERS:
            wait_until_up(procs[kind], ports[kind])
            clients[kind] = httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{ports[kind]}", limits=CLIENT_LIMITS, timeout=timeout
            )
        for (op_id, _), (path, query) in zip(CALLS, reqs, strict=True):  # warm-up: world parts built once
            for kind in SERVERS:
                r = await clients[kind].get(
                    path, params=query, headers={SEED_HEADER: "0", CLOCK_HEADER: CLOCK}
                )
                if kind == "kopa":
                    check_answer(op_id, r)
        for _ in range(rounds):
            for n in bursts:
                for kind in SERVERS:
                    # Idle just under the pool's expiry: the pooled connections are reused, which
                    # is where a server closing idle connections at the same time races the client.
                    await asyncio.sleep(pause)
                    cpu0 = cpu_seconds(procs[kind].pid)
                    await burst(clients[kind], reqs, n, tallies[kind, n], distinct)
                    tallies[kind, n].cpu += cpu_seconds(procs[kind].pid) - cpu0
        for client in clients.values():
            await client.aclose()
    finally:
        for proc in procs.values():
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    return tallies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def summarize(kind: str, n: int, tally: Tally) -> dict[str, Any]:
    ok = len(tally.latencies)
    return {
        "server": kind,
        "burst": n,
        "requests": tally.requests,
        "errors": len(tally.errors),
        "req_per_s": round(ok / tally.wall, 1) if tally.wall else 0.0,
        "p50_ms": round(statistics.median(tally.latencies) * 1000, 1) if ok else None,
        "p99_ms": round(percentile(tally.latencies, 0.99) * 1000, 1) if ok else None,
        "server_cpu_ms_per_req": round(tally.cpu * 1000 / tally.requests, 2) if tally.requests else None,
        "first_errors": sorted(set(tally.errors))[:3],
    }


async def main_async(ns: argparse.Namespace) -> list[dict[str, Any]]:
    bursts = [int(b) for b in ns.bursts.split(",") if b.strip()]
    tallies = await run_servers(bursts, ns.rounds, ns.pause, ns.keep_alive, ns.timeout, ns.distinct)
    rows = [summarize(kind, n, tallies[kind, n]) for kind in SERVERS for n in bursts]
    bare = {r["burst"]: r for r in rows if r["server"] == "bare"}
    for r in rows:
        other = bare.get(r["burst"])
        if r["server"] == "kopa" and other and other["req_per_s"]:
            r["kopa_over_bare"] = round(r["req_per_s"] / other["req_per_s"], 2)
            if r["server_cpu_ms_per_req"]:
                # the servers' own cost, free of the client's: bare CPU per request over kopa's
                r["cpu_bare_over_kopa"] = round(
                    other["server_cpu_ms_per_req"] / r["server_cpu_ms_per_req"], 2
                )
    return rows


def serve_bare(port: int, keep_alive: int) -> None:
    from kopa_inspect.serving import serve

    serve(bare_app, "127.0.0.1", port, keep_alive=keep_alive)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bursts", default="200,1000", help="burst sizes (concurrent requests), comma-separated"
    )
    parser.add_argument("--rounds", type=int, default=2, help="bursts of each size per server")
    parser.add_argument(
        "--pause", type=float, default=4.9, help="idle seconds before each burst (httpx pools expire at 5)"
    )
    parser.add_argument(
        "--keep-alive", type=int, default=KEEP_ALIVE_S, help="the servers' keep-alive seconds"
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="client timeout per request (pool wait included)"
    )
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="make every request unique (an ignored parameter), so kopa serve's answer cache never hits",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--serve-bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.serve_bare:
        serve_bare(ns.serve_bare, ns.keep_alive)
        return
    started = time.perf_counter()
    rows = asyncio.run(main_async(ns))
    if ns.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        cols = [
            "server",
            "burst",
            "requests",
            "errors",
            "req_per_s",
            "p50_ms",
            "p99_ms",
            "server_cpu_ms_per_req",
            "kopa_over_bare",
            "cpu_bare_over_kopa",
        ]
        print(tabulate([[r.get(c, "") for c in cols] for r in rows], headers=cols))
        for r in rows:
            if r["first_errors"]:
                print(f"{r['server']} {r['burst']}: {r['first_errors']}")
    print(
        f"keep-alive {ns.keep_alive} s, pause {ns.pause} s, {ns.rounds} rounds, distinct={ns.distinct}, "
        f"{os.cpu_count()} CPUs, "
        f"{time.perf_counter() - started:.0f} s in all",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
