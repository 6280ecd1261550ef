"""Emulator commands: ``kopa serve``, ``kopa call``, ``kopa mcp``, ``kopa apis``.

Keys never reach the terminal: ``kopa call`` injects them in the backend and every text it
prints goes through :func:`kopa_inspect.backends.redact`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.json import JSON
from rich.table import Table

from kopa_inspect.backends import BackendConfig, BackendKind, make_backend, redact
from kopa_inspect.serving import KEEP_ALIVE_S

console = Console()
err_console = Console(stderr=True)

LOOPBACK_NAMES = {"localhost"}


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _parse_pairs(pairs: list[str]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise typer.BadParameter(f"expected name=value, got {pair!r}", param_hint="ARGS")
        args[name] = value
    return args


def serve(
    host: Annotated[
        str, typer.Option(help="Interface to bind. Loopback by default; anything else exposes the emulator.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8090,
    seed: Annotated[
        int, typer.Option(help="World seed used when a request sends no X-Kopa-Seed header.")
    ] = 0,
    clock: Annotated[
        str | None,
        typer.Option(
            help="World clock (ISO-8601, KST if naive) used when a request sends no X-Kopa-Clock header; default: today (fixed at start); 'now': the wall clock at each request."
        ),
    ] = None,
    quota: Annotated[
        int | None,
        typer.Option(
            help="Calls per key, per operation, per day (code 22 / the portal's quota error beyond it)."
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
    keep_alive: Annotated[
        int,
        typer.Option(
            help="Seconds an idle keep-alive connection stays open; keep it above every client pool's expiry (httpx: 5 s), or a reused connection can be closed under a request."
        ),
    ] = KEEP_ALIVE_S,
    cache: Annotated[
        bool,
        typer.Option(
            help="Answer a GET seen before from memory (off by itself with --quota or --clock now, where answers change between calls)."
        ),
    ] = True,
) -> None:
    """Serve every emulated API over HTTP, at its real path (e.g. /1360000/VilageFcstInfoService_2.0/getVilageFcst).

    A client written for the real API works unchanged with its base URL set to http://HOST:PORT.
    The accepted key is $KOPA_EMULATOR_KEY (default: the built-in emulator key).
    """
    from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, EmulatorConfig, create_app
    from kopa_inspect.serving import AnswerCache, cacheable
    from kopa_inspect.serving import serve as serve_app

    if not _is_loopback(host):
        err_console.print(f"[yellow]warning:[/] binding {host} exposes the emulator beyond this machine")
    key = os.environ.get("KOPA_EMULATOR_KEY", DEFAULT_EMULATOR_KEY)
    app: Any = create_app(EmulatorConfig(seed=seed, clock=clock, keys=frozenset({key}), daily_quota=quota))
    if cache and cacheable(clock, quota):
        app = AnswerCache(app)
    err_console.print(f"kopa emulator on http://{host}:{port} (seed {seed}, clock {clock or 'default'})")
    serve_app(app, host, port, log_level, keep_alive=keep_alive)


def call(
    operation: Annotated[
        str,
        typer.Argument(
            help="Operation id, e.g. seoul_bikeList or kma_getVilageFcst (see `kopa apis --ops`)."
        ),
    ],
    args: Annotated[
        list[str] | None, typer.Argument(help="Arguments as name=value, e.g. START_INDEX=1 END_INDEX=5.")
    ] = None,
    backend: Annotated[str, typer.Option(help="embedded | served | live | replay.")] = "embedded",
    base_url: Annotated[
        str | None, typer.Option(help="served: the emulator's base URL, e.g. http://127.0.0.1:8090.")
    ] = None,
    clock: Annotated[str | None, typer.Option(help="World clock (ISO-8601) for the call.")] = None,
    seed: Annotated[int, typer.Option(help="World seed.")] = 0,
    recording: Annotated[
        str | None,
        typer.Option(
            help="replay: recording to read; other backends: JSONL file to record to (keys removed)."
        ),
    ] = None,
    raw: Annotated[
        bool, typer.Option("--raw", help="Print the raw response body instead of the normalized result.")
    ] = False,
) -> None:
    """Make one API call and pretty-print the answer (the service key is injected, never printed).

    Exit status: 0 when the API answered OK, 1 when it answered with an error code.
    """
    from kopa_inspect.apis import get_operation, get_platform
    from kopa_inspect.execution import Session

    try:
        op = get_operation(operation)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0]), param_hint="OPERATION") from None
    if backend not in ("embedded", "served", "live", "replay"):
        raise typer.BadParameter("must be embedded, served, live or replay", param_hint="--backend")
    kind: BackendKind = backend  # type: ignore[assignment]
    call_args = _parse_pairs(args or [])
    config = BackendConfig(kind=kind, base_url=base_url, seed=seed, recording=recording)
    try:
        be = make_backend(config)
    except (ValueError, FileNotFoundError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--backend") from None
    secrets = be.secrets()

    async def run() -> tuple[bool, str, str]:
        session = Session(be, clock=clock, seed=seed)
        platform = get_platform(op.platform)
        try:
            if platform.session_token_param and platform.session_token_param not in call_args:
                call_args[platform.session_token_param] = session.issue_token(platform.id)
            if raw:
                send_args = {k: v for k, v in call_args.items() if k != platform.session_token_param}
                resp = await be.send(op, send_args, clock)
                parsed = (op.envelope_override or platform.envelope).parse(op, resp)
                return parsed.ok, f"HTTP {resp.status} {resp.content_type}", resp.text
            result = await session.call(op.id, call_args)
            head = f"{op.id}: {result.code} {result.message}"
            if result.parsed.total_count is not None:
                head += f" (total {result.parsed.total_count})"
            return result.ok, head, json.dumps(result.output(), ensure_ascii=False)
        finally:
            await be.aclose()

    ok, head, body = asyncio.run(run())
    head, body = redact(head, secrets), redact(body, secrets)
    console.print(f"[{'green' if ok else 'red'}]{head}[/]", highlight=False)
    if raw:
        console.print(body, highlight=False, markup=False, soft_wrap=True)
    else:
        console.print(JSON(body, ensure_ascii=False))
    raise typer.Exit(0 if ok else 1)


def mcp(
    platform: Annotated[
        str, typer.Argument(help="Platform id, e.g. seoul, assembly, kma (see `kopa apis`).")
    ],
    transport: Annotated[
        str,
        typer.Option(
            help="stdio (for an MCP client that launches this command) or http (streamable HTTP at /mcp)."
        ),
    ] = "stdio",
    host: Annotated[str, typer.Option(help="http: interface to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="http: TCP port.")] = 8091,
    backend: Annotated[str, typer.Option(help="embedded | served | live | replay.")] = "embedded",
    base_url: Annotated[str | None, typer.Option(help="served: the emulator's base URL.")] = None,
    clock: Annotated[str | None, typer.Option(help="World clock (ISO-8601) for every call.")] = None,
    seed: Annotated[int, typer.Option(help="World seed.")] = 0,
    recording: Annotated[
        str | None, typer.Option(help="replay: recording to read; others: file to record to.")
    ] = None,
) -> None:
    """Run one platform's tools as an MCP server (official MCP SDK) over the chosen backend."""
    from kopa_inspect._extras import require_cli
    from kopa_inspect.apis import get_platform

    require_cli("mcp", "mcp", feature="kopa mcp")
    from kopa_inspect.mcp import build_server, serve_http, serve_stdio

    try:
        get_platform(platform)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0]), param_hint="PLATFORM") from None
    if transport not in ("stdio", "http"):
        raise typer.BadParameter("must be stdio or http", param_hint="--transport")
    config = BackendConfig(kind=backend, base_url=base_url, seed=seed, recording=recording)
    server = build_server(platform, backend=config, clock=clock)
    if transport == "stdio":
        asyncio.run(serve_stdio(server))
        return
    if not _is_loopback(host):
        err_console.print(f"[yellow]warning:[/] binding {host} exposes the MCP server beyond this machine")
    err_console.print(f"kopa MCP server for {platform} on http://{host}:{port}/mcp")
    serve_http(server, host, port)


def apis(
    platform: Annotated[str | None, typer.Option(help="Only this platform.")] = None,
    ops: Annotated[bool, typer.Option("--ops", help="List every operation id, not just counts.")] = False,
) -> None:
    """List the emulated platforms and how many operations (tools) each has."""
    from kopa_inspect.apis import operations, platforms

    all_ops = operations()
    table = Table(title="KOPA emulated APIs")
    table.add_column("platform")
    table.add_column("name")
    table.add_column("domain")
    table.add_column("operations", justify="right")
    shown = 0
    for pid, plat in platforms().items():
        if platform and pid != platform:
            continue
        count = sum(1 for o in all_ops.values() if o.platform == pid)
        shown += count
        table.add_row(pid, plat.name, plat.domain, str(count))
    console.print(table)
    console.print(f"{shown} operations on {len(table.rows)} platforms", highlight=False)
    if ops:
        for op in all_ops.values():
            if not platform or op.platform == platform:
                console.print(
                    f"{op.id}\t{op.summary.splitlines()[0][:100]}",
                    highlight=False,
                    markup=False,
                    soft_wrap=True,
                )


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("call")(call)
    app.command("mcp")(mcp)
    app.command("apis")(apis)
