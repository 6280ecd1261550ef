"""How ``kopa serve`` runs uvicorn: one place for the server settings, shared by the CLI and the
load benchmark (benchmarks/load_bench.py).

Keep-alive: uvicorn closes an idle connection after ``timeout_keep_alive`` seconds (5 by default)
and httpx's pool drops one after ``keepalive_expiry`` (5 by default). With equal timers they race: a
client may send a request on a connection the server is closing at that moment, and gets
"Server disconnected without sending a response". The server therefore keeps idle connections
far longer than any client pool does (httpx 5 s, the project's backends included: see
:data:`kopa_inspect.backends.CLIENT_LIMITS`), so the client is always the side that closes.

Answer cache: the emulator's answer is a function of the request alone (method, path, query,
seed and clock headers) when no daily quota counts calls and the clock is not the wall clock. A
served emulator is asked the same things many times (every sample of a task, every epoch, the
scorers' re-runs of the gold plan), and some answers cost milliseconds to compute (a village
forecast builds every hour of three days), so :class:`AnswerCache` keeps recent answers.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

# Seconds an idle keep-alive connection stays open: well above every client pool's expiry.
KEEP_ALIVE_S = 75
# Connections waiting to be accepted: a burst of 1,000 clients connecting at once fits.
BACKLOG = 4096
# Answers kept, and the largest one kept (a 1,000-row page of a big table is not).
CACHE_ENTRIES = 2048
CACHE_MAX_BODY = 256 * 1024


class AnswerCache:
    """ASGI middleware: GET answers replayed from memory for a request seen before.

    Only GETs are kept (a POST's body would have to be read into the key). The key is the request
    as it arrived: method, raw path, raw query string, and the X-Kopa-Seed / X-Kopa-Clock headers.
    """

    def __init__(self, app: Any, entries: int = CACHE_ENTRIES, max_body: int = CACHE_MAX_BODY) -> None:
        self.app = app
        self.entries = entries
        self.max_body = max_body
        self._answers: OrderedDict[tuple[Any, ...], tuple[dict[str, Any], bytes]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __getattr__(self, name: str) -> Any:  # app.state and the like stay reachable
        return getattr(self.app, name)

    @staticmethod
    def _key(scope: dict[str, Any]) -> tuple[Any, ...]:
        from kopa_inspect.emulator import CLOCK_HEADER, SEED_HEADER

        wanted = {SEED_HEADER.encode(), CLOCK_HEADER.encode()}
        headers = tuple(sorted((k.lower(), v) for k, v in scope.get("headers", []) if k.lower() in wanted))
        return (scope.get("raw_path") or scope["path"].encode(), scope.get("query_string", b""), headers)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        key = self._key(scope)
        cached = self._answers.get(key)
        if cached is not None:
            self.hits += 1
            self._answers.move_to_end(key)
            start, body = cached
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        self.misses += 1
        start_message: dict[str, Any] = {}
        chunks: list[bytes] = []
        complete = False

        async def keep(message: dict[str, Any]) -> None:
            nonlocal complete
            if message["type"] == "http.response.start":
                start_message.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                complete = not message.get("more_body", False)
            await send(message)

        await self.app(scope, receive, keep)
        body = b"".join(chunks)
        if complete and start_message and len(body) <= self.max_body:
            self._answers[key] = (start_message, body)
            if len(self._answers) > self.entries:
                self._answers.popitem(last=False)


def cacheable(clock: str | None, daily_quota: int | None) -> bool:
    """Whether answers depend on the request alone (no quota counting calls, no wall clock)."""
    return daily_quota is None and clock != "now"


def server_config(
    app: Any, host: str, port: int, log_level: str = "warning", keep_alive: int = KEEP_ALIVE_S
) -> Any:
    """The uvicorn configuration ``kopa serve`` runs. uvicorn picks httptools and uvloop when they
    are installed (``loop``/``http`` "auto") and the pure-Python h11 stack otherwise."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        timeout_keep_alive=keep_alive,
        backlog=BACKLOG,
    )


def serve(app: Any, host: str, port: int, log_level: str = "warning", keep_alive: int = KEEP_ALIVE_S) -> None:
    import uvicorn

    uvicorn.Server(server_config(app, host, port, log_level, keep_alive)).run()
