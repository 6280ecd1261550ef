"""A run as grading reads it: its API calls (tokens stripped, unknown arguments dropped) with
their outcome, API code, shown records and ``totalCount``, the session tokens obtained, the
records of the tool outputs the model read, and the assistant turn of each call.

Calls come from Inspect messages (``scorers.kopa.calls_from_messages``), a corpus replay or a GRPO
episode's log; the ``tools.call_entry`` records of the sample (``records``) supply what messages
lack (record fingerprints, the API's code, ``totalCount``), matched by tool and arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kopa_inspect import matching
from kopa_inspect.apis import platforms
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.scorers.grounding import MadeCall, own_params, rows_shown, strip_tokens, token_params

AUTH_SUFFIX = "_get_api_key"


def auth_names() -> set[str]:
    return {auth_tool_name(p.id) for p in platforms().values() if p.session_token_param}


def turns_from_messages(messages: list[Any]) -> list[list[dict[str, Any]]]:
    """The tool calls of each assistant turn, in order (duck-typed: ``role``, ``tool_calls`` with
    ``function`` and ``arguments``; no Inspect import). Turns without tool calls are left out."""
    turns: list[list[dict[str, Any]]] = []
    for m in messages:
        if getattr(m, "role", None) != "assistant":
            continue
        tcs = getattr(m, "tool_calls", None) or []
        if tcs:
            turns.append([{"tool": tc.function, "args": dict(tc.arguments or {})} for tc in tcs])
    return turns


def _same_call(a: dict[str, Any], tool: str, args: dict[str, Any]) -> bool:
    return a["tool"] == tool and matching.normalize_args(
        strip_tokens(a.get("args") or {})
    ) == matching.normalize_args(strip_tokens(args))


def _attach(calls: list[dict[str, Any]], entries: list[dict[str, Any]] | None, key: str) -> list[Any]:
    """Per call, ``key`` of the matching entry (same tool and arguments, one-to-one, in order)."""
    out: list[Any] = [c.get(key) for c in calls]
    if not entries:
        return out
    used: set[int] = set()
    for i, c in enumerate(calls):
        if out[i] is not None:
            continue
        for j, e in enumerate(entries):
            # A failed call takes no code from an answered record: a token-less call Inspect refused
            # left no record, and stripped of tokens it looks like the keyed call that followed.
            if j in used or ("ok" in c and "ok" in e and bool(c["ok"]) != bool(e["ok"])):
                continue
            if _same_call(e, c["tool"], c.get("args") or {}):
                used.add(j)
                out[i] = e.get(key)
                break
    return out


def _api_codes(calls: list[dict[str, Any]], entries: list[dict[str, Any]] | None) -> list[str | None]:
    """Per call, the API's result code (``INFO-3``, ``03`` ...) from its ``tools.call_entry`` record
    (the call itself when it is one, else the matching entry of ``entries``); None when unknown
    (calls read from messages carry only ok / the error type)."""
    own = [c.get("code") if "records" in c else None for c in calls]
    bare = [{k: v for k, v in c.items() if k != "code"} for c in calls]
    found = _attach(bare, entries, "code")
    return [o if o is not None else f for o, f in zip(own, found, strict=True)]


def _turn_of_calls(calls: list[dict[str, Any]], turns: list[list[dict[str, Any]]]) -> list[int | None]:
    flat = [(t, c) for t, turn in enumerate(turns) for c in turn]
    used: set[int] = set()
    out: list[int | None] = []
    for c in calls:
        hit = None
        for k, (t, fc) in enumerate(flat):
            if k not in used and _same_call(fc, c["tool"], c.get("args") or {}):
                used.add(k)
                hit = t
                break
        out.append(hit)
    return out


@dataclass
class RunView:
    calls: list[MadeCall]  # API calls in order (auth calls aside)
    keyed: list[bool]  # per API call: did the model pass a session-token argument itself
    tokens: set[str]  # platforms whose auth tool was called (or whose token the sample holds)
    n_calls: int  # every call, auth calls included
    turn_of: list[int | None] | None  # per API call: its assistant turn (None: turns unknown)
    rows: list[dict[str, Any]] = field(default_factory=list)  # records of the outputs the model read

    @property
    def made(self) -> list[tuple[str, dict[str, Any]]]:
        return [(c.tool, dict(c.args)) for c in self.calls]


def run_view(
    calls: list[dict[str, Any]],
    tokens: set[str] | None = None,
    *,
    turns: list[list[dict[str, Any]]] | None = None,
    records: list[dict[str, Any]] | None = None,
    outputs: Sequence[str] | None = None,
) -> RunView:
    """The run of ``calls`` (``tool``, ``args``, ``ok``; more when they are ``tools.call_entry``
    records) with ``records``' fingerprints, codes and counts attached."""
    auth = auth_names()
    held = set(tokens or ()) | {c["tool"][: -len(AUTH_SUFFIX)] for c in calls if c["tool"] in auth}
    api = [c for c in calls if c["tool"] not in auth]
    shown = _attach(api, records, "records")
    totals = _attach(api, records, "total_count")
    codes = _api_codes(api, records)
    # an argument the operation does not have never reaches the API's answer: left out
    made = [
        MadeCall(
            c["tool"],
            own_params(c["tool"], strip_tokens(c.get("args") or {})),
            bool(c.get("ok")),
            frozenset(r or ()),
            tc if isinstance(tc, int) else None,
            code,
        )
        for c, r, tc, code in zip(api, shown, totals, codes, strict=True)
    ]
    return RunView(
        calls=made,
        keyed=[bool(set(c.get("args") or {}) & token_params()) for c in api],
        tokens=held,
        n_calls=len(calls),
        turn_of=_turn_of_calls(api, turns) if turns is not None else None,
        rows=rows_shown(outputs or []),
    )
