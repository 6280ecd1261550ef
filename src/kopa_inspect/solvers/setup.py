"""Per-sample set-up: a Session on the task's backend at the task's clock, the tools, the prompt.

It runs as ``Task(setup=...)``, so it still runs when ``--solver`` replaces the default agent:
every solver sees the same tools and the same system prompt with today's date.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store

from kopa_inspect.backends import BackendConfig
from kopa_inspect.execution import Session
from kopa_inspect.solvers.prompts import system_prompt
from kopa_inspect.tools import (
    SESSION_KEY,
    LiveSession,
    build_tool_set,
    register_live,
    release_live,
    shared_backend,
)


@solver
def kopa_setup(backend: dict[str, Any] | None = None, tool_set: str = "task", language: str = "ko") -> Solver:
    config = BackendConfig.model_validate(backend or {})

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = state.metadata["task"]
        session = Session(shared_backend(config), clock=task["clock"], seed=config.seed)
        live = LiveSession(session)
        register_live(state.uuid, live)
        store().set(SESSION_KEY, state.uuid)
        state.tools = build_tool_set(tool_set, live, task)
        state.messages.insert(0, ChatMessageSystem(content=system_prompt(task["clock"], language)))
        return state

    return solve


async def kopa_cleanup(state: TaskState) -> None:
    """Drop the sample's live session (the shared backend stays open for other samples)."""
    await release_live(state.uuid)
