"""Where tool calls go: one interface, four backends.

- ``embedded``: the emulator in-process through httpx's ASGI transport (default, zero set-up).
- ``served``: any compatible server, e.g. ``kopa serve`` on loopback (``base_url``).
- ``live``: the real endpoints (each platform's real host, nothing else) with real keys read
  from the environment.
- ``replay``: a recorded session, answered byte for byte.

Any backend can be wrapped in :class:`RecordingBackend`. Keys are injected here, from the
backend's own credentials, and scrubbed from everything that leaves: recordings, errors, logs.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import functools
import json
import logging
import os
import re
import urllib.parse
from abc import ABC, abstractmethod
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import httpx
from pydantic import BaseModel, Field

from kopa_inspect.apis import get_platform
from kopa_inspect.apis._envelope import HttpResponse
from kopa_inspect.apis._spec import Operation
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, EmulatorConfig, create_app

BackendKind = Literal["embedded", "served", "live", "replay"]

# Environment variables that hold real keys in live mode. A platform-specific variable
# (KOPA_KEY_<PLATFORM>, e.g. KOPA_KEY_SEOUL) wins over the shared data.go.kr one.
SHARED_KEY_ENV = "KOPA_SERVICE_KEY"
REDACTED = "***"


class BackendError(RuntimeError):
    """A transport failure (no answer at all); its text never holds a key."""


class ArgumentError(BackendError):
    """Arguments no request can carry (an integer past Python's 4,300-digit text limit, nesting
    too deep to encode): the call is answered with this, never sent."""


class BackendConfig(BaseModel):
    """Backend choice as a user writes it (task parameter, CLI option, YAML)."""

    kind: BackendKind = "embedded"
    base_url: str | None = Field(None, description="served: the emulator's base URL")
    recording: str | None = Field(None, description="replay: file to read; others: file to record to")
    seed: int = 0
    timeout: float = 30.0
    # Hosts a live backend may reach beyond the platforms' own (none by default).
    extra_hosts: tuple[str, ...] = ()


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, Any]
    body: Any = None
    platform: str = ""


def encodable(value: Any) -> Any:
    """``value`` with every text in it made encodable as UTF-8: a lone surrogate (which a model's
    JSON may carry as ``"\\ud800"``) becomes U+FFFD, as a client that encodes the URL would send it.
    Lists and objects are walked, keys included; other values are unchanged."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            # Through UTF-16 a split pair rejoins as its character and a lone half becomes U+FFFD.
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, list | tuple):
        return [encodable(v) for v in value]
    if isinstance(value, dict):
        return {encodable(str(k)): encodable(v) for k, v in value.items()}
    return value


def build_request(op: Operation, args: dict[str, Any], key: str | None, want_json: bool = True) -> Request:
    """Place each argument where the real API expects it; add the key and the format switch."""
    platform = get_platform(op.platform)
    envelope = op.envelope_override or platform.envelope
    values: dict[str, Any] = encodable(dict(args))
    if want_json:
        for k, v in envelope.json_request_params().items():
            values.setdefault(k, v)
    if key is not None and platform.auth_style != "none":
        values[platform.key_param] = key
    path = op.path
    query: dict[str, Any] = {}
    body: dict[str, Any] = {}
    by_name = {p.name: p for p in op.params}
    for name, value in values.items():
        p = by_name.get(name)
        where = p.location if p else "query"
        if "{" + name + "}" in path:
            where = "path"
        if where == "path":
            continue
        if value is None:
            continue
        if where == "body":
            body[name] = value
        else:
            query[name] = query_text(value)
    # A placeholder may fill a whole segment ({KEY}) or part of one (DART's company.{format}).
    for name in re.findall(r"\{(\w+)\}", path):
        raw = values.get(name)
        path = path.replace("{" + name + "}", path_segment(query_text(raw if raw is not None else "")))
    # Trailing empty optional path segments are dropped, as clients of path-style APIs do.
    while path.endswith("/") and len(path) > 1:
        path = path[:-1]
    if body:
        # What JSON cannot carry (NaN, an integer past the text limit) fails here, not in the client.
        json.dumps(body, allow_nan=False)
    return Request(op.method, path, query, body or None, op.platform)


def path_segment(text: str) -> str:
    """A value as one path segment: every reserved character encoded, and a value of only dots
    too (a client would read "." or ".." as a step up the path, not as a value)."""
    quoted = urllib.parse.quote(text, safe="")
    return quoted.replace(".", "%2E") if quoted.strip(".") == "" and quoted else quoted


def query_text(value: Any) -> str:
    """One query value as a client writes it: a list comma-joined, an object as JSON, booleans as
    true/false (httpx's spelling), anything else as its text."""
    if isinstance(value, list | tuple):
        return ",".join(query_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _char_forms(char: str) -> str:
    """A pattern for one character of a key as any client or echoing server may spell it: itself,
    percent-encoded (either case of hex digits), percent-encoded twice, and '+' read back as a space."""
    escapes = "".join(f"%{b:02X}" for b in char.encode("utf-8"))
    forms = [re.escape(char), f"(?i:{re.escape(escapes)})", f"(?i:{re.escape(escapes.replace('%', '%25'))})"]
    if char == "+":
        forms.append(" ")
    if char == " ":
        forms.append(r"\+")
    return "(?:" + "|".join(forms) + ")"


@dataclass(frozen=True)
class _KeyMatcher:
    """One compiled pattern for every spelling of some keys, and a cheap test that a text may hold
    one: a spelling either encodes some character (the text has a "%") or keeps every character,
    so it holds each key's longest run of letters and digits as is."""

    pattern: re.Pattern[str]
    anchors: tuple[str, ...]

    def may_hold(self, text: str) -> bool:
        return "%" in text or any(a in text for a in self.anchors)


_UNRESERVED_RUN = re.compile(r"[A-Za-z0-9_.~-]+")


@functools.lru_cache(maxsize=64)
def _key_matcher(secrets: tuple[str, ...]) -> _KeyMatcher | None:
    # Longest first: a key that contains another is removed whole.
    keys = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not keys:
        return None
    pattern = re.compile("|".join("".join(_char_forms(c) for c in key) for key in keys))
    # A key without letters or digits has no run to look for; the empty anchor sends every text on.
    anchors = tuple(max(_UNRESERVED_RUN.findall(key), key=len, default="") for key in keys)
    return _KeyMatcher(pattern, anchors)


def redact(text: str, secrets: list[str]) -> str:
    """``text`` with every key in ``secrets`` replaced by ``***``, in any of its spellings: raw,
    URL- or percent-encoded (mixed case hex included), or encoded twice."""
    matcher = _key_matcher(tuple(secrets))
    return text if matcher is None else _redact_text(text, matcher)


def _redact_text(text: str, matcher: _KeyMatcher) -> str:
    return matcher.pattern.sub(REDACTED, text) if matcher.may_hold(text) else text


def redact_value(value: Any, secrets: list[str]) -> Any:
    """``value`` with :func:`redact` applied to every text in it, object keys included (lists,
    tuples and dicts are walked; other values are returned unchanged)."""
    matcher = _key_matcher(tuple(secrets))
    if matcher is None:
        return value
    try:
        # One pass in C over the whole value first: most answers hold neither a "%" nor a key's
        # run of letters (JSON escapes neither), and then nothing needs walking.
        if not matcher.may_hold(json.dumps(value, ensure_ascii=False, default=str)):
            return value
    except (TypeError, ValueError, RecursionError):
        pass
    return _redact_walk(value, matcher)


def _redact_walk(value: Any, matcher: _KeyMatcher) -> Any:
    if isinstance(value, str):
        return _redact_text(value, matcher)
    if isinstance(value, list | tuple):
        return type(value)(_redact_walk(v, matcher) for v in value)
    if isinstance(value, dict):
        return {_redact_walk(k, matcher): _redact_walk(v, matcher) for k, v in value.items()}
    return value


# Keys a backend has injected in this process. httpx logs every request URL at INFO, and a URL
# holds the key (query or path), so the transport loggers redact these before any handler sees them.
_LOG_SECRETS: set[str] = set()


class _RedactKeys(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if _LOG_SECRETS:
            message = record.getMessage()
            clean = redact(message, sorted(_LOG_SECRETS))
            if clean != message:
                record.msg, record.args = clean, None
        return True


for _logger in (
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
):
    logging.getLogger(_logger).addFilter(_RedactKeys())


class Backend(ABC):
    kind: BackendKind

    def __init__(self, config: BackendConfig) -> None:
        self.config = config

    @abstractmethod
    def credential(self, platform_id: str) -> str | None:
        """The real key this backend injects for a platform (never shown to a model)."""

    @abstractmethod
    async def _send(self, req: Request, clock: str | None) -> HttpResponse: ...

    def secrets(self) -> list[str]:
        from kopa_inspect.apis import platforms

        return sorted({k for p in platforms() if (k := self.credential(p))})

    async def send(
        self, op: Operation, args: dict[str, Any], clock: str | None = None, key_override: str | None = None
    ) -> HttpResponse:
        key = key_override if key_override is not None else self.credential(op.platform)
        if key:
            _LOG_SECRETS.add(key)
        try:
            req = build_request(op, args, key)
        except (ValueError, TypeError, RecursionError) as exc:
            raise ArgumentError(
                redact(f"the arguments cannot be sent as a request: {exc}", self.secrets())
            ) from None
        try:
            return await self._send(req, clock)
        except httpx.InvalidURL as exc:  # not an HTTPError: the request could not even be written
            raise ArgumentError(
                redact(f"the arguments cannot be sent as a request: {exc}", self.secrets())
            ) from None
        except httpx.HTTPError as exc:
            raise BackendError(redact(f"{type(exc).__name__}: {exc}", self.secrets())) from None

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        pass


# The connection pool of the HTTP backends. Idle connections expire after 5 s, well before `kopa
# serve` closes them (kopa_inspect.serving.KEEP_ALIVE_S), so the client is the side that closes and
# never sends on a connection the server is closing; every pooled connection is kept for the next
# burst rather than 20 (httpx's default), so a burst does not reopen 80 connections.
CLIENT_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=100, keepalive_expiry=5.0)


class _HttpBackend(Backend):
    # Whether calls past the pool's size wait in a semaphore rather than in httpcore's pool queue,
    # whose bookkeeping grows with the queue: 1,000 calls at once cost ~20 s of client CPU there
    # (benchmarks/load_bench.py), a few in a semaphore. Off for the in-process emulator (no pool).
    gate_calls = False

    def __init__(self, config: BackendConfig, client: httpx.AsyncClient) -> None:
        super().__init__(config)
        self.client = client
        self._gate: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def _call_gate(self) -> asyncio.Semaphore | None:
        if not self.gate_calls:
            return None
        loop = asyncio.get_running_loop()
        if self._gate is None or self._gate[0] is not loop:  # a semaphore belongs to one loop
            self._gate = (loop, asyncio.Semaphore(CLIENT_LIMITS.max_connections or 100))
        return self._gate[1]

    def base_url_for(self, req: Request) -> str:
        return ""

    def headers(self, clock: str | None) -> dict[str, str]:
        return {}

    async def _send(self, req: Request, clock: str | None) -> HttpResponse:
        url = self.base_url_for(req) + req.path
        gate = self._call_gate()
        if gate is None:
            r = await self._request(req, url, clock)
        else:
            async with gate:
                r = await self._request(req, url, clock)
        # Headers a real client reads (the download's file name) travel with the body.
        headers = {h: r.headers[h] for h in KEPT_HEADERS if h in r.headers}
        return HttpResponse(r.status_code, r.headers.get("content-type", ""), r.content, headers=headers)

    async def _request(self, req: Request, url: str, clock: str | None) -> httpx.Response:
        try:
            return await self.client.request(
                req.method, url, params=req.query, json=req.body, headers=self.headers(clock)
            )
        except httpx.RemoteProtocolError:
            # A server that closes an idle keep-alive connection as the request goes out on it
            # answers nothing ("Server disconnected without sending a response"); the request was
            # not handled, and a GET is safe to send once more on a fresh connection.
            if req.method != "GET":
                raise
            return await self.client.request(
                req.method, url, params=req.query, json=req.body, headers=self.headers(clock)
            )

    async def aclose(self) -> None:
        await self.client.aclose()


class EmbeddedBackend(_HttpBackend):
    kind: BackendKind = "embedded"

    def __init__(self, config: BackendConfig | None = None, emulator: EmulatorConfig | None = None) -> None:
        config = config or BackendConfig()
        self.emulator_config = emulator or EmulatorConfig(seed=config.seed)
        app = create_app(self.emulator_config)
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://emulator", timeout=config.timeout
        )
        super().__init__(config, client)

    def credential(self, platform_id: str) -> str | None:
        return next(iter(sorted(self.emulator_config.keys)), DEFAULT_EMULATOR_KEY)

    def headers(self, clock: str | None) -> dict[str, str]:
        h = {SEED_HEADER: str(self.config.seed)}
        if clock:
            h[CLOCK_HEADER] = clock
        return h


class ServedBackend(_HttpBackend):
    kind: BackendKind = "served"
    gate_calls = True

    def __init__(self, config: BackendConfig) -> None:
        if not config.base_url:
            raise ValueError("the served backend needs base_url (e.g. http://127.0.0.1:8090)")
        client = httpx.AsyncClient(
            base_url=config.base_url.rstrip("/"), timeout=config.timeout, limits=CLIENT_LIMITS
        )
        super().__init__(config, client)
        self._key = os.environ.get("KOPA_EMULATOR_KEY", DEFAULT_EMULATOR_KEY)

    def credential(self, platform_id: str) -> str | None:
        return self._key

    def headers(self, clock: str | None) -> dict[str, str]:
        h = {SEED_HEADER: str(self.config.seed)}
        if clock:
            h[CLOCK_HEADER] = clock
        return h


class LiveBackend(_HttpBackend):
    """The real APIs. Only the configured platforms' hosts are reachable."""

    kind: BackendKind = "live"
    gate_calls = True

    def __init__(
        self,
        config: BackendConfig,
        env: dict[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        # ``transport`` routes the real URLs elsewhere (a proxy, or the emulator in tests); the
        # URLs, keys and allowlist stay exactly those of live mode.
        client = httpx.AsyncClient(
            timeout=config.timeout, follow_redirects=False, transport=transport, limits=CLIENT_LIMITS
        )
        super().__init__(config, client)
        self.env = dict(os.environ if env is None else env)
        from kopa_inspect.apis import platforms

        self.allowed_hosts = {httpx.URL(p.live_base_url).host for p in platforms().values()}
        self.allowed_hosts.update(config.extra_hosts)

    def credential(self, platform_id: str) -> str | None:
        return self.env.get(f"KOPA_KEY_{platform_id.upper()}") or self.env.get(SHARED_KEY_ENV)

    def base_url_for(self, req: Request) -> str:
        base = get_platform(req.platform).live_base_url.rstrip("/")
        host = httpx.URL(base).host
        if host not in self.allowed_hosts:
            raise BackendError(f"host {host!r} is not on the live allowlist")
        return base


def _fingerprint(op_id: str, args: dict[str, Any], clock: str | None) -> str:
    # Over the arguments as sent (encodable): a recording is UTF-8, and replay must find it again.
    return json.dumps([op_id, encodable(args), clock], ensure_ascii=False, sort_keys=True, default=str)


# Response headers kept from an HTTP answer and in a recording (lower-case names): DART's
# corpCode.xml ZIP names its file there (dart-fss reads it). The rest is transport detail.
KEPT_HEADERS = ("content-disposition",)
_TEXT_TYPE = re.compile(r"^\s*(text/|application/([\w.-]+\+)?(json|xml|javascript)\b)", re.IGNORECASE)


def redact_bytes(body: bytes, secrets: list[str]) -> bytes:
    """``redact`` on raw bytes (a binary body cannot be decoded as text first)."""
    matcher = _key_matcher(tuple(secrets))
    if matcher is None:
        return body
    if b"%" not in body and not any(a.encode("utf-8") in body for a in matcher.anchors):
        return body
    return _bytes_pattern(matcher.pattern.pattern).sub(REDACTED.encode("ascii"), body)


@functools.lru_cache(maxsize=64)
def _bytes_pattern(text_pattern: str) -> re.Pattern[bytes]:
    return re.compile(text_pattern.encode("utf-8"))


def encode_body(resp: HttpResponse, secrets: list[str]) -> dict[str, Any]:
    """A response body as recording fields, keys removed.

    A text body (a textual or missing content type, valid UTF-8) stays readable: ``body`` holds
    the text. Anything else - DART's corpCode.xml ZIP, an EUC-KR XML page - is kept exactly:
    ``body_encoding: "base64"`` and ``body_b64``. The key is removed from the raw bytes before
    encoding (a base64 text could otherwise hide it).
    """
    clean = redact_bytes(resp.body, secrets)
    if not resp.content_type or _TEXT_TYPE.match(resp.content_type):
        try:
            return {"body_encoding": "text", "body": clean.decode("utf-8")}
        except UnicodeDecodeError:
            pass
    return {"body_encoding": "base64", "body_b64": base64.b64encode(clean).decode("ascii")}


def decode_body(rec: dict[str, Any], where: str) -> bytes:
    """The body bytes of a recorded exchange; recordings from before base64 hold ``body`` text only."""
    encoding = rec.get("body_encoding", "text")
    if encoding == "text":
        return str(rec.get("body", "")).encode("utf-8")
    if encoding == "base64":
        try:
            return base64.b64decode(rec["body_b64"], validate=True)
        except (KeyError, binascii.Error) as exc:
            raise ValueError(f"{where}: body_encoding base64 without a valid body_b64 ({exc})") from None
    raise ValueError(f"{where}: unknown body_encoding {encoding!r} (expected 'text' or 'base64')")


class RecordingBackend(Backend):
    """Wraps a backend and appends each exchange to a JSONL file, keys removed.

    One JSON object a line: fingerprint, op, args, clock, status, content_type, headers (only
    ``KEPT_HEADERS``) and the body (see :func:`encode_body`: text, or base64 when binary).
    """

    def __init__(self, inner: Backend, path: str | Path) -> None:
        super().__init__(inner.config)
        self.inner = inner
        self.kind = inner.kind
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = asyncio.Lock()

    def credential(self, platform_id: str) -> str | None:
        return self.inner.credential(platform_id)

    async def _send(self, req: Request, clock: str | None) -> HttpResponse:  # pragma: no cover
        raise NotImplementedError

    async def send(
        self, op: Operation, args: dict[str, Any], clock: str | None = None, key_override: str | None = None
    ) -> HttpResponse:
        resp = await self.inner.send(op, args, clock, key_override)
        secrets = self.secrets() + ([key_override] if key_override else [])
        record = {
            "fingerprint": redact(_fingerprint(op.id, args, clock), secrets),
            "op": op.id,
            "args": json.loads(redact(json.dumps(encodable(args), ensure_ascii=False, default=str), secrets)),
            "clock": clock,
            "status": resp.status,
            "content_type": resp.content_type,
            "headers": {
                k.lower(): redact(str(v), secrets)
                for k, v in resp.headers.items()
                if k.lower() in KEPT_HEADERS
            },
            **encode_body(resp, secrets),
        }
        async with self._lock:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        return resp

    async def aclose(self) -> None:
        await self.inner.aclose()


class ReplayBackend(Backend):
    """Answers from a recording; repeated identical calls replay in recorded order."""

    kind: BackendKind = "replay"

    def __init__(self, config: BackendConfig) -> None:
        super().__init__(config)
        if not config.recording:
            raise ValueError("the replay backend needs a recording file")
        self._answers: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
        self._last: dict[str, dict[str, Any]] = {}
        path = Path(config.recording)
        if not path.exists():
            raise FileNotFoundError(f"recording {path} does not exist")
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{line_no}: not JSON ({exc.msg})") from None
            missing = [k for k in ("fingerprint", "status", "content_type") if k not in rec]
            if missing:
                raise ValueError(f"{path}:{line_no}: not a recorded exchange (no {', '.join(missing)})")
            # Decoded once here: a broken line fails at load time with its line number, not mid-run.
            rec["_body"] = decode_body(rec, f"{path}:{line_no}")
            self._answers[rec["fingerprint"]].append(rec)

    def credential(self, platform_id: str) -> str | None:
        return None

    async def _send(self, req: Request, clock: str | None) -> HttpResponse:  # pragma: no cover
        raise NotImplementedError

    def _miss(self, op_id: str, args: dict[str, Any], clock: str | None) -> str:
        """Why a call has no answer: the nearest thing the recording holds (another clock, other args)."""
        text = f"replay: no recorded answer for {op_id} with {json.dumps(args, ensure_ascii=False)} at clock {clock}"
        same_op = [recs[0] for recs in self._answers.values() if recs and recs[0].get("op") == op_id]
        same_op += [rec for rec in self._last.values() if rec.get("op") == op_id and rec not in same_op]
        clocks = sorted({str(r.get("clock")) for r in same_op if r.get("args") == args})
        if clocks:
            return (
                text
                + f"; the recording has this call at clock {', '.join(clocks)} (run with the task's recorded clock)"
            )
        if same_op:
            return text + f"; the recording has {len(same_op)} other call(s) to {op_id} (other arguments)"
        return text + f"; the recording never calls {op_id}"

    async def send(
        self, op: Operation, args: dict[str, Any], clock: str | None = None, key_override: str | None = None
    ) -> HttpResponse:
        try:
            fp = _fingerprint(op.id, args, clock)
        except (ValueError, RecursionError) as exc:  # an integer past the text limit, nesting too deep
            raise ArgumentError(f"the arguments cannot be looked up in the recording: {exc}") from None
        queue = self._answers.get(fp)
        if queue:
            rec = queue.popleft()
            self._last[fp] = rec
        elif fp in self._last:
            rec = self._last[fp]
        else:
            raise BackendError(self._miss(op.id, args, clock))
        return HttpResponse(
            rec["status"], rec["content_type"], rec["_body"], headers=dict(rec.get("headers") or {})
        )


def make_backend(config: BackendConfig | None = None, **overrides: Any) -> Backend:
    config = (config or BackendConfig()).model_copy(update=overrides)
    backend: Backend
    if config.kind == "embedded":
        backend = EmbeddedBackend(config)
    elif config.kind == "served":
        backend = ServedBackend(config)
    elif config.kind == "live":
        backend = LiveBackend(config)
    elif config.kind == "replay":
        return ReplayBackend(config)
    else:  # pragma: no cover - pydantic guards the literal
        raise ValueError(f"unknown backend kind {config.kind!r}")
    if config.recording:
        backend = RecordingBackend(backend, config.recording)
    return backend
