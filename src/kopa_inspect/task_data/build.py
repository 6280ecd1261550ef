"""Build KOPA-Bench: the task families of :mod:`kopa_inspect.task_data.domains` -> kopa_bench.jsonl
(deterministic).

Each family is one kind of real question a citizen or civil servant asks, written by hand with its
own Korean phrasing, instantiated over a few different regions, dates and entities. The gold plan
is written against the real API contracts (the provider's published API guide) and the answer facts point
into the plan's outputs, so the answer key is recomputed by execution wherever the benchmark runs.
Run ``python -m kopa_inspect.task_data.build`` and then ``kopa tasks validate``. The helpers the
families are written with, and the authoring rules, are in :mod:`kopa_inspect.task_data.authoring`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kopa_inspect.task_data import domains
from kopa_inspect.task_data.authoring import Spec
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

# --- assembling records ----------------------------------------------------------------------------


def _platform_of(op_id: str) -> str:
    from kopa_inspect.apis import get_operation

    return get_operation(op_id).platform


def _tool_set(plan_tools: list[str], extra: Iterable[str], salt: str) -> list[str]:
    from kopa_inspect.apis import operations

    ops = operations()
    from kopa_inspect.task_data.distractors import distractor_pool

    pool = distractor_pool()
    chosen = set(plan_tools) | set(extra)
    for platform in sorted({_platform_of(t) for t in chosen}):
        others = sorted(
            op_id
            for op_id, op in ops.items()
            if op.platform == platform and op_id not in chosen and op_id in pool
        )
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
    for fam in domains.families():
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


def main() -> None:  # the authoring entry point
    import argparse
    import sys

    ap = argparse.ArgumentParser(description="Build the KOPA-Bench task file from the per-domain task data.")
    ap.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=DEFAULT_PATH,
        help=f"where to write (default {DEFAULT_PATH.name})",
    )
    ap.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if OUT differs from what the task data builds",
    )
    a = ap.parse_args()
    records = build_tasks()
    if a.check:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "tasks.jsonl"
            write(records, fresh)
            same = a.out.exists() and fresh.read_bytes() == a.out.read_bytes()
        print(
            f"{a.out}: {'up to date' if same else 'differs from the task data: rebuild it and bump TASK_VERSION'}"
        )
        sys.exit(0 if same else 1)
    write(records, a.out)
    specs = sum(len(list(f())) for f in domains.families())
    print(f"wrote {len(records)} tasks to {a.out} ({specs - len(records)} skipped: tools not available)")


if __name__ == "__main__":  # pragma: no cover
    main()
