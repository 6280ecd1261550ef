"""Shared by the scoring-validity scripts: execute calls as an agent would and record them the way
the Inspect tools do (``tools.call_entry``: ok, the API's code, record fingerprints), so grading
sees what a live sample gives it (a NODATA evidence step fails with its real code)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.execution import Session
from kopa_inspect.scorers.grading import GoldTruth
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.tools import call_entry


def auth_calls(task: BenchTask) -> list[tuple[str, dict[str, Any]]]:
    return [(p + "_get_api_key", {}) for p in sorted({p for s in task.plan.steps for p in s.session_platforms()})]


async def run_calls(task: BenchTask, backend: Any, calls: list[tuple[str, dict[str, Any]]],
                    fake_token: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    """Execute ``calls`` in order; an auth tool issues the platform's session token, which later
    calls of the platform pass (call ``k`` passes ``fake_token[k]`` instead, a made-up one)."""
    session = Session(backend, clock=task.clock, seed=0)
    out: list[dict[str, Any]] = []
    for k, (tool, args) in enumerate(calls):
        if tool.endswith("_get_api_key"):
            session.issue_token(tool[: -len("_get_api_key")])
            out.append({"tool": tool, "args": {}, "ok": True, "code": "token"})
            continue
        platform = get_operation(tool).platform
        param = get_platform(platform).session_token_param
        if param:
            args = {**args, param: (fake_token or {}).get(k) or session.tokens.get(platform, "none")}
        out.append(call_entry(await session.call(tool, args)))
    return out


async def gold_calls(task: BenchTask, gold: GoldTruth, backend: Any) -> list[dict[str, Any]]:
    """The gold plan's calls (auth tools first), executed and recorded."""
    return await run_calls(task, backend, auth_calls(task) + list(gold.calls))
