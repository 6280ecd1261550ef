"""Execute one tool call through a backend and normalize the answer.

The one execution path shared by the Inspect tools, the scorers' gold-plan runs, the oracle,
EDGE's verification and GRPO's rewards. A :class:`Session` holds what one run (an Inspect
sample, an EDGE path, a GRPO rollout) accumulates: session tokens handed out by auth tools and
every call made, which the ENVIRONMENT axis of the scorer reads.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.apis._envelope import Parsed
from kopa_inspect.backends import ArgumentError, Backend, BackendError, redact, redact_bytes, redact_value

# Tool output budget for the model: items beyond it are cut, and the cut is said.
DEFAULT_MAX_ITEMS = 100
DEFAULT_MAX_CHARS = 30_000


def redact_parsed(parsed: Parsed, secrets: list[str]) -> Parsed:
    """``parsed`` with the backend's keys removed from every text in it: items and their nested
    fields, the code, the message and the extra fields. This is the one place an answer leaves the
    tool layer (for the model, the Inspect log, the scorers, EDGE's rows and GRPO's rewards), and a
    service may echo the caller's key anywhere in its answer (a link in an item, the message)."""
    parsed.code = redact(parsed.code, secrets)
    parsed.message = redact(parsed.message, secrets)
    parsed.items = redact_value(parsed.items, secrets)
    parsed.extra = redact_value(parsed.extra, secrets)
    return parsed


@dataclass
class CallResult:
    op_id: str
    args: dict[str, Any]
    parsed: Parsed
    status: int

    @property
    def ok(self) -> bool:
        return self.parsed.ok

    @property
    def code(self) -> str:
        return self.parsed.code

    @property
    def message(self) -> str:
        return self.parsed.message

    def output(self) -> dict[str, Any]:
        return self.parsed.as_output()

    def error_text(self) -> str:
        """The API's own error, as the model sees it (code and message, nothing else)."""
        return f"{self.parsed.code} {self.parsed.message}".strip()

    def for_model(self, max_items: int = DEFAULT_MAX_ITEMS, max_chars: int = DEFAULT_MAX_CHARS) -> str:
        out = self.output()
        items = out["items"]
        note = None
        if len(items) > max_items:
            out["items"] = items[:max_items]
            note = f"{len(items)}건 중 처음 {max_items}건만 표시 (showing the first {max_items} of {len(items)} items)"
        text = json.dumps(out, ensure_ascii=False)
        while len(text) > max_chars and len(out["items"]) > 1:
            keep = max(1, len(out["items"]) // 2)
            out["items"] = out["items"][:keep]
            note = f"{len(items)}건 중 처음 {keep}건만 표시 (showing the first {keep} of {len(items)} items; output cut to {max_chars} characters)"
            text = json.dumps(out, ensure_ascii=False)
        if note:
            out["_truncated"] = note
            text = json.dumps(out, ensure_ascii=False)
        return text


@dataclass
class CallRecord:
    op_id: str
    args: dict[str, Any]
    ok: bool
    code: str
    total_count: int | None = None
    page_no: int | None = None


@dataclass
class Session:
    """Per-run state: issued session tokens and the calls made (keys never stored)."""

    backend: Backend
    clock: str | None = None
    seed: int = 0
    tokens: dict[str, str] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)

    def issue_token(self, platform_id: str) -> str:
        """A short-lived session token for a platform with an auth tool. It is not the key."""
        platform = get_platform(platform_id)
        if platform.session_token_param is None:
            raise ValueError(f"platform {platform_id} has no session-token auth")
        material = f"{self.seed}|{self.clock}|{platform_id}|{len(self.tokens)}"
        token = "sess-" + hashlib.blake2b(material.encode(), digest_size=8).hexdigest()
        self.tokens[platform_id] = token
        return token

    async def call(self, op_id: str, args: dict[str, Any]) -> CallResult:
        op = get_operation(op_id)
        platform = get_platform(op.platform)
        args = {k: v for k, v in args.items() if v is not None}
        send_args = dict(args)
        key_override = None
        if platform.session_token_param:
            token = send_args.pop(platform.session_token_param, None)
            if token is None or token != self.tokens.get(platform.id):
                # Without a valid session token the request goes out with no usable key, and
                # the platform answers with its own authentication error.
                key_override = "" if token is None else f"invalid-{token}"
        secrets = self.backend.secrets()
        try:
            resp = await self.backend.send(op, send_args, self.clock, key_override=key_override)
        except BackendError as exc:
            parsed = Parsed(
                ok=False, code="ARGS" if isinstance(exc, ArgumentError) else "HTTP", message=str(exc)
            )
            status = 0
        else:
            envelope = op.envelope_override or platform.envelope
            # The body loses the key before it is parsed: a parser may keep a cut of a body it
            # cannot read (an error page quoting the URL), and a cut key no longer matches it.
            resp = replace(resp, body=redact_bytes(resp.body, secrets))
            try:
                parsed = envelope.parse(op, resp)
            except Exception as exc:  # an unparseable body is reported, not raised
                parsed = Parsed(ok=False, code=str(resp.status), message=f"unparseable response: {exc}"[:300])
            status = resp.status
        result = CallResult(op_id, args, redact_parsed(parsed, secrets), status)
        self.record(result)
        return result

    def record(self, result: CallResult) -> None:
        """Log a call's outcome (never its key): every answered call, and a cached answer replayed
        for this session (edge_synth.runner)."""
        self.calls.append(
            CallRecord(
                result.op_id,
                result.args,
                result.ok,
                result.code,
                result.parsed.total_count,
                result.parsed.page_no,
            )
        )
