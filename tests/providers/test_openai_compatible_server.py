"""KOPA-Bench end to end through an OpenAI-compatible server on loopback, by Inspect's ``openai-api/``
provider: the path a model served by vLLM takes (README, "Evaluate a model served by vLLM").

The server is scripted: on each ``/v1/chat/completions`` request it reads the conversation as the
OpenAI API carries it (the task's question, its own earlier tool calls, the tool results Inspect sent
back) and answers with the gold plan's next wave of tool calls, arguments resolved from those results,
then the final answer, using the oracle's replay (``kopa/oracle``) on what came over the wire. So a
sample scores success only when tool calls went out in the OpenAI format, Inspect executed them, and
their results came back to the server intact.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai", reason="the openai extra: Inspect's openai-api/ provider imports it")

import uvicorn
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.tool import ToolCall, ToolInfo, ToolParams
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from kopa_inspect.providers.oracle import OracleModelAPI
from kopa_inspect.task_data.schema import BenchTask

TASK_FILE = Path(__file__).resolve().parents[2] / "src/kopa_inspect/task_data/kopa_bench.jsonl"
# Three waves (city code, then the stop, then both stops' arrivals): each call's arguments come from
# the previous wave's results, so they must have crossed the wire back to the server.
TASK_ID = "kopa-017"
SERVED_MODEL = "scripted/oracle"


class ScriptedServer:
    """The OpenAI chat-completions endpoint, answering as the oracle would from the wire messages."""

    def __init__(self) -> None:
        self.tasks = [BenchTask.model_validate_json(line) for line in TASK_FILE.read_text().splitlines()]
        self.oracle = OracleModelAPI("oracle")
        self.requests: list[dict[str, Any]] = []
        self.app = Starlette(routes=[Route("/v1/chat/completions", self.complete, methods=["POST"])])

    async def complete(self, request: Request) -> JSONResponse:
        body = await request.json()
        self.requests.append(body)
        messages = [wire_message(m) for m in body["messages"]]
        question = next(m.text for m in messages if isinstance(m, ChatMessageUser))
        task = next(t for t in self.tasks if t.query in question)
        tools = {
            t["function"]["name"]: ToolInfo(
                name=t["function"]["name"],
                description=t["function"].get("description", ""),
                parameters=ToolParams.model_validate(t["function"].get("parameters") or {}),
            )
            for t in body.get("tools", [])
        }
        try:
            output = self.oracle._next(task, messages, None, tools)
        except Exception as exc:  # a 400, which the client does not retry: the test fails at once
            return JSONResponse({"error": {"message": repr(exc), "type": "scripted"}}, status_code=400)
        return JSONResponse(completion(body["model"], output.message))


def wire_message(message: dict[str, Any]) -> ChatMessage:
    """An OpenAI chat message as the oracle reads it (tool calls with parsed arguments)."""
    content = message.get("content") or ""
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    if message["role"] == "assistant":
        calls = [
            ToolCall(
                id=c["id"], function=c["function"]["name"], arguments=json.loads(c["function"]["arguments"])
            )
            for c in message.get("tool_calls") or []
        ]
        return ChatMessageAssistant(content=content, tool_calls=calls or None)
    if message["role"] == "tool":
        return ChatMessageTool(content=content, tool_call_id=message["tool_call_id"])
    if message["role"] == "system":
        return ChatMessageSystem(content=content)
    return ChatMessageUser(content=content)


def completion(model: str, message: ChatMessageAssistant) -> dict[str, Any]:
    calls = [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.function, "arguments": json.dumps(c.arguments, ensure_ascii=False)},
        }
        for c in message.tool_calls or []
    ]
    reply: dict[str, Any] = {"role": "assistant", "content": message.text or None}
    if calls:
        reply["tool_calls"] = calls
    return {
        "id": f"chatcmpl-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": reply, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


@pytest.fixture(scope="module")
def loopback() -> Iterator[tuple[ScriptedServer, str]]:
    # One server for the module: Inspect keeps a provider's client between evals of the same model.
    scripted = ScriptedServer()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(scripted.app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the scripted server did not start"
        time.sleep(0.05)
    try:
        yield scripted, f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def scripted_server(loopback: tuple[ScriptedServer, str]) -> tuple[ScriptedServer, str]:
    loopback[0].requests.clear()
    return loopback


def test_kopa_bench_through_an_openai_compatible_server(
    scripted_server: tuple[ScriptedServer, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted, base_url = scripted_server
    # The README's openai-api/ command: <SERVICE>_BASE_URL and <SERVICE>_API_KEY name the server.
    monkeypatch.setenv("LOOPBACK_BASE_URL", base_url)
    monkeypatch.setenv("LOOPBACK_API_KEY", "none")
    (log,) = inspect_eval(
        "kopa_inspect/kopa_bench",
        model=f"openai-api/loopback/{SERVED_MODEL}",
        task_args={"ids": TASK_ID},
        log_dir=str(tmp_path),
        display="none",
        max_retries=1,
        timeout=60,
    )
    assert log.status == "success", log.error
    assert log.samples and len(log.samples) == 1
    sample = log.samples[0]

    # Out: the server's tool calls reached Inspect's tools in the OpenAI wire format.
    called = [
        c.function for m in sample.messages if isinstance(m, ChatMessageAssistant) for c in m.tool_calls or []
    ]
    task = next(t for t in scripted.tasks if t.id == TASK_ID)
    assert sorted(called) == sorted(s.tool for s in task.plan.steps)
    # Back: every request after the first carried the previous answers' tool results.
    assert len(scripted.requests) == len(task.plan.levels()) + 1
    for request, earlier in zip(scripted.requests[1:], scripted.requests, strict=False):
        results = [m for m in request["messages"] if m["role"] == "tool"]
        assert len(results) > sum(1 for m in earlier["messages"] if m["role"] == "tool")
        assert all(m["content"] and "error" not in m["content"][:20].lower() for m in results)
    assert all(r["model"] == SERVED_MODEL and r.get("tools") for r in scripted.requests)

    # Scored: the grounded answer passes, as the oracle's does.
    assert sample.scores is not None
    assert sample.scores["kopa_success"].value == 1
    assert sample.scores["kopa_answer"].value == 1


def test_a_server_that_answers_without_calls_fails_the_task(
    scripted_server: tuple[ScriptedServer, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same wire with the tool results dropped before the oracle reads them: no grounded answer."""
    scripted, base_url = scripted_server
    replay = scripted.oracle._next
    monkeypatch.setattr(
        scripted.oracle,
        "_next",
        lambda task, messages, live, tools: (
            replay(task, [m for m in messages if not isinstance(m, ChatMessageTool)], live, tools)
            if len(scripted.requests) < 3
            else scripted.oracle._text("모르겠습니다.")
        ),
    )
    monkeypatch.setenv("LOOPBACK_BASE_URL", base_url)
    monkeypatch.setenv("LOOPBACK_API_KEY", "none")
    (log,) = inspect_eval(
        "kopa_inspect/kopa_bench",
        model=f"openai-api/loopback/{SERVED_MODEL}",
        task_args={"ids": TASK_ID},
        log_dir=str(tmp_path),
        display="none",
        max_retries=1,
        timeout=60,
    )
    assert log.status == "success" and log.samples
    assert log.samples[0].scores is not None
    assert log.samples[0].scores["kopa_success"].value == 0
