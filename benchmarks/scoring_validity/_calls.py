"""Shared by the scoring-validity scripts: execute calls as an agent would and record them the way
the Inspect tools do (``tools.call_entry``: ok, the API's code, record fingerprints), so grading
sees what a live sample gives it (a NODATA evidence step fails with its real code)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kopa_inspect.scorers.corpus import replay_calls
from kopa_inspect.scorers.grading import GoldTruth
from kopa_inspect.task_data.schema import BenchTask


def auth_calls(task: BenchTask) -> list[tuple[str, dict[str, Any]]]:
    return [
        (p + "_get_api_key", {}) for p in sorted({p for s in task.plan.steps for p in s.session_platforms()})
    ]


async def run_calls(
    task: BenchTask,
    backend: Any,
    calls: list[tuple[str, dict[str, Any]]],
    fake_token: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """Execute ``calls`` in order as the answer corpus replays them (:func:`scorers.corpus.replay_calls`:
    an auth tool issues the platform's session token, which later calls of the platform pass; call
    ``k`` passes ``fake_token[k]`` instead, a made-up one)."""
    return await replay_calls(task, backend, calls, fake_token=fake_token)


async def gold_calls(task: BenchTask, gold: GoldTruth, backend: Any) -> list[dict[str, Any]]:
    """The gold plan's calls (auth tools first), executed and recorded."""
    return await run_calls(task, backend, auth_calls(task) + list(gold.calls))
