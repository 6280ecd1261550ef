"""One call through the shared execution layer, plus EDGE's reading of its outcome.

Every EDGE call goes through :class:`kopa_inspect.execution.Session` on a backend from
``make_backend``: the emulator by default, or a live/served/replay backend, the same path the
benchmark uses. Platforms that hand out session tokens (the education-key trap) get their token
from the session first, as the auth tool would.
"""

from __future__ import annotations

import copy
import json
import os
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.execution import CallResult, Session

Outcome = Literal["ok", "structural", "environmental"]

# Environmental failures say nothing about a link (the paper penalises them lightly).
_ENV_CODES = {"20", "22", "23", "30", "31", "32", "HTTP", "429", "500", "502", "503", "504"}
_ENV_WORDS = (
    "LIMITED_NUMBER",
    "SERVICE_KEY",
    "ACCESS_DENIED",
    "timeout",
    "Timeout",
    "인증",
    "TEMPORARILY",
    "HTTP",
    "트래픽",
    "quota",
)
_NODATA_WORDS = ("NODATA", "NO_DATA", "데이터가 없", "해당하는 데이터", "no data", "INFO-200")


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    reason: str  # ok | nodata | empty | invalid | schema | other | rate_limit | auth | transport


def classify(res: CallResult) -> Verdict:
    """Typed failure: structural (the link or value is wrong) vs environmental (the world is)."""
    code, msg = str(res.code), res.message or ""
    if res.ok:
        if not res.parsed.items:
            return Verdict("structural", "empty")
        return Verdict("ok", "ok")
    if code == "HTTP" or res.status == 0:
        return Verdict("environmental", "transport")
    if res.parsed.gateway_error or code in _ENV_CODES or any(w in msg for w in _ENV_WORDS):
        kind = "rate_limit" if ("LIMITED" in msg or code in {"22", "23", "429"}) else "auth"
        return Verdict("environmental", kind)
    if any(w in msg or w in code for w in _NODATA_WORDS) or code == "03":
        return Verdict("structural", "nodata")
    if "INVALID" in msg or "MANDATORY" in msg or code in {"10", "11"}:
        return Verdict("structural", "invalid")
    if "unparseable" in msg:
        return Verdict("structural", "schema")
    return Verdict("structural", "other")


def with_token(session: Session, op_id: str, args: dict[str, Any]) -> dict[str, Any]:
    """Add the platform's session token (issued once per session) where the platform needs one."""
    platform = get_platform(get_operation(op_id).platform)
    if platform.session_token_param and platform.session_token_param not in args:
        token = session.tokens.get(platform.id) or session.issue_token(platform.id)
        return {**args, platform.session_token_param: token}
    return args


# Calls already answered, per backend: the embedded emulator is a function of (seed, clock, operation,
# arguments) and keeps no state between calls (without a daily quota), so the same call gives the same
# bytes. About 80% of the sampler's calls repeat one made before (a district's trades, the nationwide
# hospital list); each costs ~5 ms in the emulator. Only the sampler and the grounding read this cache;
# composition re-executes every plan on a fresh backend (pipeline.same_outputs), so a stale answer could
# not reach the data. KOPA_EDGE_NO_CALL_CACHE=1 turns it off (tests/edge/test_edge_call_cache.py compares).
CALL_CACHE_SIZE = 4096
_CACHES: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[Any, ...], CallResult]] = (
    weakref.WeakKeyDictionary()
)


def _cacheable(session: Session, op_id: str) -> bool:
    backend = session.backend
    emu = getattr(backend, "emulator_config", None)
    return (
        getattr(backend, "kind", None) == "embedded"
        and emu is not None
        and emu.daily_quota is None
        and not get_platform(get_operation(op_id).platform).session_token_param
        and os.environ.get("KOPA_EDGE_NO_CALL_CACHE") != "1"
    )


async def call(session: Session, op_id: str, args: dict[str, Any]) -> tuple[CallResult, Verdict]:
    args = with_token(session, op_id, args)
    if not _cacheable(session, op_id):
        res = await session.call(op_id, args)
        return res, classify(res)
    cache = _CACHES.setdefault(session.backend, OrderedDict())
    key = (session.seed, session.clock, op_id, json.dumps(args, sort_keys=True, default=str))
    hit = cache.get(key)
    if hit is None:
        res = await session.call(op_id, args)
        cache[key] = copy.deepcopy(res)
        if len(cache) > CALL_CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
        res = copy.deepcopy(hit)
        session.record(res)
    return res, classify(res)
