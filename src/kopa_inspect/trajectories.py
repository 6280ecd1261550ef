"""A plan run as a chat trajectory: execute a plan on a fresh session, then write the turns a model
would have taken (system, user, one assistant turn of tool calls per wave, the tool results, the
answer) and the tool schemas it was offered.

KOPA-Bench's step task (``kopa_inspect.steps.build``) turns gold plans into trajectories with it,
and EDGE (``edge_synth.compose``) its sampled plans, so both show a model the same turns, the same
tool results (``CallResult.for_model``) and the same schemas (``kopa_inspect.apis._schema``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from kopa_inspect.apis import get_operation
from kopa_inspect.apis._envelope import Parsed
from kopa_inspect.apis._schema import auth_tool_name, auth_tool_schema, tool_schema
from kopa_inspect.backends import Backend
from kopa_inspect.execution import CallResult, Session
from kopa_inspect.plans import Plan, PlanRun, execute_plan
from kopa_inspect.world import parse_clock

SYSTEM_PROMPT = (
    "당신은 한국 공공데이터 API 도구를 사용해 질문에 답하는 도우미입니다. 필요한 도구를 순서대로 호출하고, "
    "앞선 결과의 값을 다음 호출의 인자로 사용하세요. 답은 도구 결과에 근거해 한국어로 하세요. "
    "(You answer with Korean public-data API tools; chain calls, and answer only from tool results.)"
)
_WEEKDAYS = "월화수목금토일"


def system_prompt(clock: str | None) -> str:
    """The system turn with the current date and time: what "오늘", "지난달" and KMA issue times are read from."""
    now = parse_clock(clock)
    return (
        f"{SYSTEM_PROMPT}\n오늘은 {now.year}년 {now.month}월 {now.day}일 ({_WEEKDAYS[now.weekday()]}요일), "
        f"현재 시각은 {now:%H:%M} (KST)입니다."
    )


async def execute(
    plan: Plan, backend: Backend, *, seed: int, clock: str | None
) -> tuple[PlanRun, dict[str, str]]:
    """Run a plan from scratch on a fresh session; execute_plan obtains session tokens first."""
    session = Session(backend, clock=clock, seed=seed)
    run = await execute_plan(plan, session)
    return run, dict(session.tokens)


def build_messages(
    plan: Plan, run: PlanRun, tokens: dict[str, str], query: str, answer: str, system: str = SYSTEM_PROMPT
) -> list[dict[str, Any]]:
    """OpenAI/HF chat format: system, user, assistant tool calls per wave, tool results, answer."""
    msgs: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": query}]
    auth_done: set[str] = set()
    for wave in plan.levels():
        need = []
        for s in wave:
            pid = get_operation(s.tool).platform
            if pid in tokens and pid not in auth_done:
                need.append(pid)
                auth_done.add(pid)
        if need:
            msgs.append(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [_tool_call(f"call_auth_{p}", auth_tool_name(p), {}) for p in need],
                }
            )
            for p in need:
                msgs.append(
                    {
                        "role": "tool",
                        "tool_call_id": f"call_auth_{p}",
                        "name": auth_tool_name(p),
                        "content": json.dumps({"token": tokens[p]}, ensure_ascii=False),
                    }
                )
        msgs.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [_tool_call(f"call_{s.id}", s.tool, run.args[s.id]) for s in wave],
            }
        )
        for s in wave:
            msgs.append(
                {
                    "role": "tool",
                    "tool_call_id": f"call_{s.id}",
                    "name": s.tool,
                    "content": render_output(s.tool, run.args[s.id], run.outputs[s.id]),
                }
            )
    msgs.append({"role": "assistant", "content": answer})
    return msgs


def _tool_call(cid: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": cid,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False, sort_keys=True)},
    }


def render_output(op_id: str, args: dict[str, Any], output: dict[str, Any]) -> str:
    """The tool result as the model sees it (CallResult.for_model over the normalized output)."""
    known = {"resultCode", "resultMsg", "totalCount", "pageNo", "numOfRows", "items"}
    parsed = Parsed(
        ok=True,
        code=str(output.get("resultCode", "")),
        message=str(output.get("resultMsg", "")),
        items=list(output.get("items", [])),
        total_count=output.get("totalCount"),
        page_no=output.get("pageNo"),
        num_rows=output.get("numOfRows"),
        extra={k: v for k, v in output.items() if k not in known},
    )
    return CallResult(op_id, args, parsed, 200).for_model()


def tools_for(plan: Plan, tokens: dict[str, str], extra_tools: Iterable[str] = ()) -> list[dict[str, Any]]:
    names = sorted(set(plan.tools()) | set(extra_tools))
    tools = [auth_tool_schema(p) for p in sorted(tokens)]
    return tools + [tool_schema(get_operation(n)) for n in names]
