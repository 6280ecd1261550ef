"""The default agent: a plain tool loop that ends at the first answer without tool calls.

Explicit rather than ``react()`` because the tool list can grow during a sample (the
``search_tools`` tool set adds tools), and because the final answer is then simply the last
assistant message, whichever model (API, local hf, the oracle) produced it.
"""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def kopa_agent(max_turns: int = 30) -> Solver:
    """Generate, run the tool calls, repeat; stop at an answer, a limit or ``max_turns`` turns."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for _ in range(max_turns):
            state = await generate(state, tool_calls="single")
            if state.completed or not state.output.message.tool_calls:
                break
        return state

    return solve
