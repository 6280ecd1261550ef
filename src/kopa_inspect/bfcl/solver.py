"""Solvers that talk to the model as BFCL's function-calling handler does.

Single-turn: one generation with the entry's functions as tools; its tool calls are the answer
(nothing is executed). Multi-turn: per turn, the user message, then steps until the model answers
without a tool call; each step's calls run on BFCL's backends and their results go back as tool
messages. As in BFCL, a miss_func turn adds the held-out functions and says so, and a turn of more
than BFCL's step limit ends the conversation (the entry then fails).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from kopa_inspect.bfcl import backends
from kopa_inspect.bfcl.calls import UndecodableCall, execute_form
from kopa_inspect.bfcl.categories import Check, check_of
from kopa_inspect.bfcl.data import entry
from kopa_inspect.bfcl.library import bfcl
from kopa_inspect.bfcl.schema import tool_infos

TURNS_KEY = "bfcl_turns"  # per turn, per step with calls: BFCL's decoded call strings
FORCE_QUIT_KEY = "bfcl_force_quit"


def _messages(turn: list[dict[str, str]]) -> list[ChatMessage]:
    return [
        ChatMessageSystem(content=m["content"])
        if m["role"] == "system"
        else ChatMessageUser(content=m["content"])
        for m in turn
    ]


@solver
def single_turn() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        e = entry(state.metadata["category"], state.metadata["bfcl_id"])
        output = await get_model().generate(state.messages, tools=tool_infos(e["function"]))
        state.output = output
        state.messages.append(output.message)
        return state

    return solve


async def _run_turn(
    state: TaskState, e: dict[str, Any], functions: list[dict[str, Any]], name: str
) -> tuple[list[list[str]], bool]:
    """Steps of one turn; returns the decoded calls of each step that had any, and force-quit."""
    limit = bfcl().prompts.MAXIMUM_STEP_LIMIT
    steps: list[list[str]] = []
    tools = tool_infos(functions)
    count = 0
    while True:
        output = await get_model().generate(state.messages, tools=tools)
        state.output = output
        state.messages.append(output.message)
        calls = output.message.tool_calls or []
        if not calls:
            return steps, False
        try:
            decoded = execute_form(calls)
        except UndecodableCall as exc:
            # BFCL: a response that does not decode ends the turn. The tool messages keep the
            # conversation well formed for the next turn's request.
            state.messages.extend(
                ChatMessageTool(content=f"Error: {exc}", tool_call_id=c.id, function=c.function)
                for c in calls
            )
            return steps, False
        steps.append(decoded)
        results = backends.execute(decoded, e, name)
        state.messages.extend(
            ChatMessageTool(content=result, tool_call_id=c.id, function=c.function)
            for c, result in zip(calls, results, strict=True)
        )
        count += 1
        if count > limit:
            return steps, True


@solver
def multi_turn() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        e = entry(state.metadata["category"], state.metadata["bfcl_id"])
        functions = list(e["function"])
        held_out: dict[str, list[dict[str, Any]]] = e.get("missed_function", {})
        name = backends.run_name("solve")
        turns: list[list[list[str]]] = []
        force_quit = False
        state.messages = []
        try:
            for turn_index, turn in enumerate(e["question"]):
                if str(turn_index) in held_out:
                    functions.extend(held_out[str(turn_index)])
                    turn = [
                        {
                            "role": "user",
                            "content": bfcl().prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC,
                        }
                    ]
                state.messages.extend(_messages(turn))
                steps, force_quit = await _run_turn(state, e, functions, name)
                turns.append(steps)
                if force_quit:
                    break
        finally:
            backends.release(name)
        state.store.set(TURNS_KEY, turns)
        state.store.set(FORCE_QUIT_KEY, force_quit)
        return state

    return solve


@solver
def bfcl_solver() -> Solver:
    """Routes each sample to the single- or multi-turn loop by its BFCL category."""
    single, multi = single_turn(), multi_turn()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if check_of(state.metadata["category"]) is Check.MULTI_TURN:
            return await multi(state, generate)
        return await single(state, generate)

    return solve
