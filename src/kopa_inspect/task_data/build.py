"""Author KOPA-Bench: hand-written task families -> kopa_bench.jsonl (deterministic).

Each family below is one kind of real question a citizen or civil servant asks, written by hand
with its own Korean phrasing, instantiated over a few different regions, dates and entities. The
gold plan is written against the real API contracts (reference/korean-apis.md) and the answer
facts point into the plan's outputs, so the answer key is recomputed by execution wherever the
benchmark runs. Run ``python -m kopa_inspect.task_data.build`` and then ``kopa tasks validate``.

Authoring rules (issue 9): a query never dictates a page size, a grid cell or a bad call to make;
the model finds nx/ny with ``kma_getGridPointList`` and errors arise from the world (an issue not
yet published, a month with nothing reported yet, a key that must be fetched). Unanswerable tasks
that look answerable are checked with :func:`assert_empty`. "Which one" facts carry
``competitors``; per-entity figures carry ``subject``.

Conventions (see schema.py): ``$sN.<jmespath>`` references, ``$_.<jmespath>`` over all outputs,
``num()``/``nums()`` for formatted numbers, ``"KEY": "$session.neis"`` + ``token:neis`` for the
NEIS auth-tool trap, ``pages:<step>`` for a page the agent must fetch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from kopa_inspect.task_data.schema import (
    DEFAULT_PATH,
    HELD_OUT_PLATFORMS,
    BenchTask,
    gold_call_count,
    plan_is_parallel,
)

# Distractor tools per platform: the agent sees the gold tools plus up to this many more of the
# same platforms (all of a small platform), so choosing the tool is part of the task.
MAX_EXTRA_TOOLS_PER_PLATFORM = 6

# --- authoring helpers -----------------------------------------------------------------------------


def step(sid: str, tool: str, args: dict[str, Any] | None = None, *, required: bool = True,
         expect_error: bool = False, note: str | None = None,
         accept: dict[str, list[Any]] | None = None,
         may_add: dict[str, list[Any]] | None = None) -> dict[str, Any]:
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


def fact(fid: str, description: str, value: Any, matcher: str = "name", tolerance: float = 0.0,
         required: bool = True, **binding: Any) -> dict[str, Any]:
    """An answer fact; ``binding`` holds the optional AnswerFact fields (subject, competitors,
    accept, rel_tol, unit, labels, keys), left out when unset so records stay small."""
    out = {"id": fid, "description": description, "value": value, "matcher": matcher,
           "tolerance": tolerance, "required": required}
    out.update({k: v for k, v in binding.items() if v not in (None, [], "")})
    return out


def refusal(reason: str) -> list[dict[str, Any]]:
    return [fact("refusal", "제공 도구로 답할 수 없음을 밝힘 (says no available tool can answer)", reason, "refusal")]


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


FAMILIES: list[Callable[[], Iterable[Spec]]] = []


def family(fn: Callable[[], Iterable[Spec]]) -> Callable[[], Iterable[Spec]]:
    FAMILIES.append(fn)
    return fn


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


# --- assembling records ----------------------------------------------------------------------------


def _platform_of(op_id: str) -> str:
    from kopa_inspect.apis import get_operation

    return get_operation(op_id).platform


def _tool_set(plan_tools: list[str], extra: Iterable[str], salt: str) -> list[str]:
    from kopa_inspect.apis import operations

    ops = operations()
    chosen = set(plan_tools) | set(extra)
    for platform in sorted({_platform_of(t) for t in chosen}):
        others = sorted(op_id for op_id, op in ops.items() if op.platform == platform and op_id not in chosen)
        others.sort(key=lambda o: hashlib.blake2b(f"{salt}|{o}".encode(), digest_size=4).hexdigest())
        chosen.update(others[:MAX_EXTRA_TOOLS_PER_PLATFORM])
    return sorted(chosen)


def _difficulty(spec: Spec, n_calls: int) -> str:
    if spec.difficulty:
        return spec.difficulty
    if spec.category in ("unanswerable",):
        return "medium"
    if n_calls >= 6 or spec.category == "error_recovery" and n_calls >= 4:
        return "hard"
    if n_calls <= 2 and spec.category in ("chain2",):
        return "easy"
    return "medium"


def assemble(index: int, spec: Spec) -> dict[str, Any]:
    from kopa_inspect.plans import Plan

    plan = Plan.model_validate({"steps": spec.steps})
    plan_tools = plan.tools()
    tools = _tool_set(plan_tools, spec.extra_tools, spec.query)
    platforms = sorted({_platform_of(t) for t in tools} | set(spec.platforms))
    record = {
        "id": f"kopa-{index:03d}",
        "category": spec.category,
        "domain": spec.domain,
        "platforms": platforms,
        "tools": tools,
        "query": spec.query,
        "query_en": spec.query_en,
        "clock": spec.clock,
        "plan": plan.model_dump(mode="json", exclude_defaults=True),
        "facts": spec.facts,
        "required_state": list(spec.state),
        "difficulty": _difficulty(spec, len(plan.steps)),
        "n_calls": gold_call_count(plan, spec.state),
        "parallel": plan_is_parallel(plan),
        "held_out": bool(set(platforms) & HELD_OUT_PLATFORMS),
    }
    if spec.notes:
        record["notes"] = spec.notes
    BenchTask.model_validate(record)  # fail at authoring time, not at load time
    return record


def build_tasks(only_platforms: set[str] | None = None) -> list[dict[str, Any]]:
    """Every family's instances, in authoring order; ``only_platforms`` drops tasks using others."""
    from kopa_inspect.apis import operations

    known = operations()
    specs: list[Spec] = []
    for fam in FAMILIES:
        specs.extend(fam())
    records: list[dict[str, Any]] = []
    for spec in specs:
        tools = [s["tool"] for s in spec.steps] + list(spec.extra_tools)
        if any(t not in known for t in tools):
            continue
        if only_platforms is not None and not {_platform_of(t) for t in tools} <= only_platforms:
            continue
        records.append(assemble(len(records) + 1, spec))
    return records


def write(records: list[dict[str, Any]], path: Path = DEFAULT_PATH) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n")


def main() -> None:  # pragma: no cover - authoring entry point
    import sys

    # Run as ``python -m``, this file is ``__main__``; the families register with the importable
    # module, so delegate to it.
    from kopa_inspect.task_data import build, families  # noqa: F401  (families register on import)

    records = build.build_tasks()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PATH
    build.write(records, out)
    specs = sum(len(list(f())) for f in build.FAMILIES)
    print(f"wrote {len(records)} tasks to {out} ({specs - len(records)} skipped: tools not available)")


if __name__ == "__main__":  # pragma: no cover
    main()


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


def kma_page(clock_iso: str, base: tuple[str, str], nx: int, ny: int, fcst_date: str, fcst_time: str,
             category: str, size: int = 50) -> int:
    """The page (of ``size`` rows) of a 단기예보 issue that holds the slot fcst_date/fcst_time."""
    out = probe(clock_iso, "kma_getVilageFcst", {"base_date": base[0], "base_time": base[1], "nx": nx, "ny": ny,
                                                "numOfRows": 2000})
    for i, row in enumerate(out["items"]):
        if row["fcstDate"] == fcst_date and row["fcstTime"] == fcst_time and row["category"] == category:
            return i // size + 1
    raise ValueError(f"slot {fcst_date} {fcst_time} not in the {base} issue")
