"""The helpers task families are written with: gold plan steps, answer facts, the task record
(:class:`Spec`), the KST clock arithmetic of the APIs, and probes of the embedded world.

Authoring rules: a query never dictates a page size, a grid cell or a bad call to make; the model
finds nx/ny with ``kma_getGridPointList`` and errors arise from the world (an issue not yet
published, a month with nothing reported yet, a key that must be fetched). Unanswerable tasks
that look answerable are checked with :func:`assert_empty`. "Which one" facts carry
``competitors``; per-entity figures carry ``subject``.

Conventions (see schema.py): ``$sN.<jmespath>`` references, ``$_.<jmespath>`` over all outputs,
``num()``/``nums()`` for formatted numbers, ``"KEY": "$session.neis"`` + ``token:neis`` for the
NEIS auth-tool trap, ``pages:<step>`` for a page the agent must fetch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

# --- plan steps, facts and the task record --------------------------------------------------------


def step(
    sid: str,
    tool: str,
    args: dict[str, Any] | None = None,
    *,
    required: bool = True,
    expect_error: bool = False,
    note: str | None = None,
    accept: dict[str, list[Any]] | None = None,
    may_add: dict[str, list[Any]] | None = None,
) -> dict[str, Any]:
    """A gold plan step; ``accept`` lists extra acceptable values per argument (PlanStep.accept),
    ``may_add`` filters the question itself states (PlanStep.may_add)."""
    out: dict[str, Any] = {"id": sid, "tool": tool, "args": args or {}}
    if accept:
        out["accept"] = accept
    if may_add:
        out["may_add"] = may_add
    if not required:
        out["required"] = False
    if expect_error:
        out["expect_error"] = True
    if note:
        out["note"] = note
    return out


def fact(
    fid: str,
    description: str,
    value: Any,
    matcher: str = "name",
    tolerance: float = 0.0,
    required: bool = True,
    **binding: Any,
) -> dict[str, Any]:
    """An answer fact; ``binding`` holds the optional AnswerFact fields (subject, competitors,
    accept, rel_tol, unit, labels, keys), left out when unset so records stay small."""
    out = {
        "id": fid,
        "description": description,
        "value": value,
        "matcher": matcher,
        "tolerance": tolerance,
        "required": required,
    }
    out.update({k: v for k, v in binding.items() if v not in (None, [], "")})
    return out


def refusal(reason: str) -> list[dict[str, Any]]:
    return [
        fact(
            "refusal",
            "제공 도구로 답할 수 없음을 밝힘 (says no available tool can answer)",
            reason,
            "refusal",
        )
    ]


@dataclass
class Spec:
    category: str
    domain: str
    query: str
    query_en: str
    clock: str
    steps: list[dict[str, Any]]
    facts: list[dict[str, Any]]
    state: tuple[str, ...] = ()
    difficulty: str | None = None
    extra_tools: tuple[str, ...] = ()
    notes: str | None = None
    platforms: tuple[str, ...] = ()  # for tasks without a plan (unanswerable)


# A family: one kind of question, returning its instances (the tasks) in authoring order.
Family = Callable[[], Iterable[Spec]]


# --- clock helpers (KST) --------------------------------------------------------------------------

VILAGE_TIMES = ("0200", "0500", "0800", "1100", "1400", "1700", "2000", "2300")


def clock(day: str, hm: str) -> str:
    """clock("2026-10-15", "14:20") -> "2026-10-15T14:20:00+09:00"."""
    return f"{day}T{hm}:00+09:00"


def _dt(c: str) -> datetime:
    return datetime.fromisoformat(c)


def ymd(c: str, days: int = 0) -> str:
    return (_dt(c) + timedelta(days=days)).strftime("%Y%m%d")


def ym(c: str, months: int = 0) -> str:
    d = _dt(c)
    y, m = d.year, d.month + months
    while m < 1:
        y, m = y - 1, m + 12
    while m > 12:
        y, m = y + 1, m - 12
    return f"{y}{m:02d}"


def month_word(yyyymm: str) -> str:
    """How a question and an answer name a month: "202610" -> "10월"."""
    return f"{int(yyyymm[4:6])}월"


def vilage_base(c: str) -> tuple[str, str]:
    """The latest 단기예보 issue available at the clock (issued HH:00, published ~HH:10)."""
    t = _dt(c) - timedelta(minutes=10)
    for hhmm in reversed(VILAGE_TIMES):
        if t.strftime("%H%M") >= hhmm:
            return t.strftime("%Y%m%d"), hhmm
    prev = t - timedelta(days=1)
    return prev.strftime("%Y%m%d"), "2300"


def ncst_base(c: str) -> tuple[str, str]:
    """The latest 초단기실황 hour available at the clock (published ~HH:40)."""
    t = _dt(c) - timedelta(minutes=40)
    return t.strftime("%Y%m%d"), t.strftime("%H00")


def mid_tmfc(c: str) -> str:
    """The latest 중기예보 issue (0600 / 1800, published ~+10 min)."""
    t = _dt(c) - timedelta(minutes=10)
    if t.strftime("%H%M") >= "1800":
        return t.strftime("%Y%m%d") + "1800"
    if t.strftime("%H%M") >= "0600":
        return t.strftime("%Y%m%d") + "0600"
    return (t - timedelta(days=1)).strftime("%Y%m%d") + "1800"


# --- build-time probes -------------------------------------------------------------------------------


def probe(clock_iso: str, op_id: str, args: dict[str, Any]) -> dict[str, Any]:
    """One call on the embedded emulator (seed 0) at authoring time, e.g. to find which page of a
    KMA forecast holds a given slot. Only for structure that does not depend on the seed."""
    import asyncio

    from kopa_inspect.backends import make_backend
    from kopa_inspect.execution import Session

    async def go() -> dict[str, Any]:
        backend = make_backend()
        session = Session(backend, clock=clock_iso)
        concrete = dict(args)
        for k, v in args.items():
            if isinstance(v, str) and v.startswith("$session."):
                platform = v.split(".", 1)[1]
                concrete[k] = session.tokens.get(platform) or session.issue_token(platform)
        try:
            return (await session.call(op_id, concrete)).output()
        finally:
            await backend.aclose()

    return asyncio.run(go())


def assert_empty(clock_iso: str, op_id: str, args: dict[str, Any]) -> None:
    """Authoring check for an unanswerable task that looks answerable: the call a model would
    make really finds nothing (no rows, or an error) in the world at the task's clock."""
    try:
        out = probe(clock_iso, op_id, args)
    except Exception:  # an API error is "nothing" too
        return
    if out.get("items"):
        raise ValueError(f"{op_id} {args} at {clock_iso} returns rows: the task is answerable")


def kma_page(
    clock_iso: str,
    base: tuple[str, str],
    nx: int,
    ny: int,
    fcst_date: str,
    fcst_time: str,
    category: str,
    size: int = 50,
) -> int:
    """The page (of ``size`` rows) of a 단기예보 issue that holds the slot fcst_date/fcst_time."""
    out = probe(
        clock_iso,
        "kma_getVilageFcst",
        {"base_date": base[0], "base_time": base[1], "nx": nx, "ny": ny, "numOfRows": 2000},
    )
    for i, row in enumerate(out["items"]):
        if row["fcstDate"] == fcst_date and row["fcstTime"] == fcst_time and row["category"] == category:
            return i // size + 1
    raise ValueError(f"slot {fcst_date} {fcst_time} not in the {base} issue")
