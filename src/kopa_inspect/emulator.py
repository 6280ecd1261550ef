"""The emulator: every registered operation behind its real path, as one ASGI app.

Served in-process (httpx ASGI transport, the ``embedded`` backend) or over TCP (``kopa serve``).
A client written for the real API works unchanged with only the base URL changed: real paths,
real parameter names, the gateway's key check (decode once; a double-encoded key or a raw ``+``
read as a space is "not registered"), real envelopes and codes.

Two request headers that no real API knows select the world: ``X-Kopa-Seed`` and
``X-Kopa-Clock`` (ISO-8601). Without them the app's own seed and clock are used. They let one
served emulator answer every benchmark task at that task's own clock.
"""

from __future__ import annotations

import logging
import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from kopa_inspect.apis import get_platform, operations
from kopa_inspect.apis._envelope import Format, HttpResponse, Page
from kopa_inspect.apis._spec import ApiError, Operation, Param, Result
from kopa_inspect.world import DEFAULT_SEED, World, get_world, parse_clock

log = logging.getLogger(__name__)

# The key the embedded emulator registers by default. It has the shape of a real data.go.kr
# "Decoding" key (with + / =) so that clients which encode it twice fail as they would live.
DEFAULT_EMULATOR_KEY = "kopa+EMULATOR/dev+key0123456789=="

SEED_HEADER = "x-kopa-seed"
CLOCK_HEADER = "x-kopa-clock"
# World clocks the emulator accepts: the worlds' calendars, holidays and series are built for
# years near the present; a clock far outside them is a malformed header, not a world.
CLOCK_YEARS = range(1990, 2100)


@dataclass
class EmulatorConfig:
    seed: int = DEFAULT_SEED
    # The world clock for requests without X-Kopa-Clock: None = today (fixed when the process
    # first needs it), "now" = the wall clock at each request (a long-running ``kopa serve`` for
    # real clients), or an ISO-8601 time. Benchmark tasks always send their own clock.
    clock: str | None = None
    keys: frozenset[str] = frozenset({DEFAULT_EMULATOR_KEY})
    # Calls allowed per key, per operation, per day (None: unlimited), as data.go.kr's
    # development accounts (code 22 beyond it).
    daily_quota: int | None = None
    # Keys registered but not subscribed to these platforms (code 20 SERVICE_ACCESS_DENIED).
    denied: dict[str, frozenset[str]] = field(default_factory=dict)


class Router:
    """Maps a request path to its operation: static paths by dict, templated ones by regex."""

    def __init__(self, ops: Iterable[Operation]) -> None:
        ops = list(ops)
        self._all = ops
        self.static: dict[tuple[str, str], Operation] = {}
        self.templated: dict[tuple[str, int, str], list[tuple[re.Pattern[str], Operation]]] = {}
        self.positions: set[int] = set()
        for op in ops:
            path = op.path.rstrip("/")
            if "{" not in path:
                key = (op.method, path)
                if key in self.static:
                    raise ValueError(f"two operations on {op.method} {path}")
                self.static[key] = op
                continue
            segments = path.strip("/").split("/")
            literal = next(((i, s) for i, s in enumerate(segments) if "{" not in s), None)
            if literal is None:
                raise ValueError(f"{op.id}: a templated path needs one literal segment")
            self.positions.add(literal[0])
            self.templated.setdefault((op.method, *literal), []).append((op.path_regex(), op))

    def resolve(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        path = path.rstrip("/") or "/"
        op = self.static.get((method, path))
        if op is not None:
            return op, {}
        # Keep an empty first segment ("//json/..." = a path-style URL with an empty key).
        segments = path[1:].split("/") if path.startswith("/") else path.split("/")
        for pos in sorted(self.positions):
            if pos >= len(segments):
                continue
            for regex, cand in self.templated.get((method, pos, segments[pos]), ()):
                m = regex.match(path)
                if m:
                    groups = {k: v for k, v in m.groupdict().items() if v is not None}
                    return cand, groups
        return None

    def nearest(self, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation whose path shares the longest leading part with ``path``, for answering a
        path no operation serves in the platform's own form; None when nothing is shared.

        Literal segments must match exactly; a placeholder with an enum (Seoul's ``{type}``) counts
        when the segment is one of its values, any other placeholder matches without counting.
        Ties go to the operation with the nearest number of segments (DART's ``/api/x.json`` vs
        ECOS's ``/api/{service}/{KEY}/...``). The placeholders' values are read by position."""
        segments = path.rstrip("/")[1:].split("/") if path.startswith("/") else path.split("/")
        best: tuple[tuple[int, int], Operation, dict[str, str]] | None = None
        for op in self._all:
            template = op.path.rstrip("/")[1:].split("/")
            score, values = 0, {}
            for seg, tmpl in zip(segments, template, strict=False):
                m = re.fullmatch(r"\{(\w+)\}", tmpl)
                if m is None:
                    if seg != tmpl:
                        break
                    score += 1
                    continue
                param = op.param(m.group(1))
                if param is not None and param.enum:
                    if seg not in param.enum:
                        break
                    score += 1
                values[m.group(1)] = seg
            rank = (score, -abs(len(template) - len(segments)))
            if score and (best is None or rank > best[0]):
                best = (rank, op, values)
        return None if best is None else (best[1], best[2])

    def other_method(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """An operation served at ``path`` under another method."""
        for other in ("GET", "POST"):
            if other != method and (found := self.resolve(other, path)) is not None:
                return found
        return None


def envelope_of(op: Operation):
    return op.envelope_override or get_platform(op.platform).envelope


def coerce(param: Param, raw: Any) -> Any:
    """Validate one value against its contract; raise the provider's invalid-parameter error."""
    if param.type == "array":
        values = raw if isinstance(raw, list) else [v for v in str(raw).split(",") if v]
        # Objects stay objects (NTS validate: a list of {b_no, start_dt, p_nm ...}).
        return [v if isinstance(v, dict) else str(v) for v in values]
    text = str(raw).strip() if not isinstance(raw, dict | list) else raw
    if param.pattern and not re.fullmatch(param.pattern, str(text)):
        raise ApiError("invalid_param", param=param.name)
    if param.enum and str(text) not in param.enum:
        raise ApiError("invalid_param", param=param.name)
    if param.type == "integer":
        try:
            return int(str(text))
        except ValueError:
            raise ApiError("invalid_param", param=param.name) from None
    if param.type == "number":
        try:
            return float(str(text))
        except ValueError:
            raise ApiError("invalid_param", param=param.name) from None
    return text


def validate(op: Operation, raw: dict[str, Any]) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    for p in op.params:
        value = raw.get(p.name)
        if value is None or value == "":
            if p.required and not p.hidden:
                raise ApiError("missing_param", param=p.name)
            if p.default is not None:
                clean[p.name] = p.default
            continue
        clean[p.name] = coerce(p, value)
    # Unknown parameters are ignored, as the real gateways do.
    return clean


def page_rows(result: Result, page_no: int, num_rows: int) -> Page:
    total = result.total if result.total is not None else len(result.rows)
    rows = result.rows
    if result.paged:
        start = (page_no - 1) * num_rows
        rows = rows[start : start + num_rows]
    return Page(rows=rows, total=total, page_no=page_no, num_rows=num_rows, extra=result.extra)


class Emulator:
    """Executes one request against a world; transport-free so tests and benchmarks can call it."""

    def __init__(self, config: EmulatorConfig | None = None) -> None:
        self.config = config or EmulatorConfig()
        self.router = Router(operations().values())
        self._usage: Counter[tuple[str, str, str]] = Counter()
        self._usage_lock = threading.Lock()

    def world(self, seed: str | None, clock: str | None) -> World:
        try:
            s = int(seed) if seed not in (None, "") else self.config.seed
        except ValueError:
            s = self.config.seed
        when = clock or self.config.clock
        if clock:
            try:
                year = parse_clock(clock).year
            except (ValueError, OverflowError):
                year = None
            if year not in CLOCK_YEARS:
                # A header no real API knows: reported as the platform's invalid-parameter error.
                raise ApiError("invalid_param", param=CLOCK_HEADER)
        return get_world(s, when)

    def _check_key(self, op: Operation, params: dict[str, Any], world: World) -> None:
        platform = get_platform(op.platform)
        if platform.auth_style == "none":
            return
        key = next((params[k] for k in platform.key_params if params.get(k) not in (None, "")), None)
        if key is None:
            raise ApiError("key_missing")
        if key not in self.config.keys:
            raise ApiError("key_not_registered")
        if op.platform in self.config.denied.get(key, frozenset()):
            raise ApiError("access_denied")
        if self.config.daily_quota is not None:
            slot = (key, op.id, world.today)
            with self._usage_lock:
                self._usage[slot] += 1
                if self._usage[slot] > self.config.daily_quota:
                    raise ApiError("rate_limited")

    def handle(
        self,
        method: str,
        path: str,
        query: dict[str, Any],
        body: Any = None,
        seed: str | None = None,
        clock: str | None = None,
    ) -> HttpResponse:
        resolved = self.router.resolve(method, path)
        unserved = resolved is None
        if unserved:
            # A wrong method on a real path, or a path under a platform's prefix that names no
            # operation: the platform answers in its own form. Nothing shared: the gateway's text.
            resolved = self.router.other_method(method, path) or self.router.nearest(path)
        if resolved is None:
            return HttpResponse(404, "text/plain;charset=UTF-8", b"API not found")
        op, path_params = resolved
        # A path segment that held an encoded "/" (a key in a path-style URL) arrives as "%2F".
        path_params = {k: segment_value(v) for k, v in path_params.items()}
        envelope = envelope_of(op)
        params: dict[str, Any] = {**query, **path_params}
        if isinstance(body, dict):
            params.update(body)
        params = envelope.normalize(params)
        fmt: Format = "xml"
        try:
            fmt = envelope.response_format(params)
            if unserved:
                raise ApiError("no_service")
            world = self.world(seed, clock)
            self._check_key(op, params, world)
            clean = validate(op, params)
            page_no, num_rows = envelope.paging(params)
            out = op.handler(world, clean)
            result = out if isinstance(out, Result) else Result(rows=out)
            return envelope.render_ok(op, page_rows(result, page_no, num_rows), fmt)
        except ApiError as err:
            return envelope.render_error(op, err, fmt)
        except Exception:  # a bug in a handler must not take the server down
            log.exception("handler %s failed", op.id)
            return envelope.render_error(op, ApiError("server_error"), fmt)


def routing_path(scope: Mapping[str, Any], decoded: str) -> str:
    """The decoded path, except that an encoded "/" inside a segment stays "%2F" (and a "%" it
    held becomes "%25", so that a value "%2F" is not read as a "/"); see :func:`segment_value`.

    Path-style APIs (Seoul, ECOS) put the key in a path segment, and a data.go.kr-shaped key
    holds "/": decoding it would split the segment and shift every position after it.
    """
    raw = scope.get("raw_path")
    if not raw or (b"%2f" not in raw.lower() and b"%25" not in raw):
        return decoded
    return "/".join(
        urllib.parse.unquote(seg).replace("%", "%25").replace("/", "%2F")
        for seg in raw.decode("latin-1").split("/")
    )


_SEGMENT_ESCAPE = re.compile(r"%(25|2F)")


def segment_value(segment: str) -> str:
    """A path parameter's value from its routed segment ("%2F" is "/", "%25" is "%")."""
    return _SEGMENT_ESCAPE.sub(lambda m: "%" if m.group(1) == "25" else "/", segment)


def create_app(config: EmulatorConfig | None = None) -> Starlette:
    emulator = Emulator(config)

    async def dispatch(request: Request) -> Response:
        body: Any = None
        if request.method == "POST":
            raw = await request.body()
            if raw:
                try:
                    body = await request.json()
                except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past parsing
                    body = None
        # Starlette decodes the query exactly once, '+' as a space: the gateway's behaviour.
        query = dict(request.query_params)
        resp = emulator.handle(
            "GET" if request.method == "HEAD" else request.method,  # the server drops HEAD's body
            routing_path(request.scope, request.url.path),
            query,
            body,
            seed=request.headers.get(SEED_HEADER),
            clock=request.headers.get(CLOCK_HEADER),
        )
        return Response(
            resp.body, status_code=resp.status, media_type=resp.content_type, headers=resp.headers or None
        )

    async def health(_: Request) -> Response:
        return PlainTextResponse("ok")

    async def dispatch_asgi(scope: Scope, receive: Receive, send: Send) -> None:
        response = await dispatch(Request(scope, receive))
        await response(scope, receive, send)

    app = Starlette(routes=[Route("/_kopa/health", health)])
    # Every other request, whatever its method and whatever its path holds (a newline, which a
    # route pattern does not match), is the dispatcher's: the platform answers, not the framework.
    app.router.default = dispatch_asgi
    app.state.emulator = emulator
    return app
