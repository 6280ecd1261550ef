"""The llamacpp provider without the engine: prompt rendering, tool-call parsing, the generate path.

The engine (llama_cpp.Llama) is replaced by a stand-in that returns llama.cpp's own completion shape,
so these run in the fast suite; tests/providers/test_llamacpp_engine.py runs the real engine (slow).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
)
from inspect_ai.tool import ToolCall, ToolCallError, ToolInfo, ToolParam, ToolParams

from kopa_inspect.providers import llamacpp as lc
from kopa_inspect.providers.local_chat import (
    parse_completion,
    parse_tool_calls,
    render_prompt,
    template_for_architecture,
)

TOOLS = [
    ToolInfo(
        name="kma_getVilageFcst",
        description="단기예보 조회",
        parameters=ToolParams(
            properties={
                "nx": ToolParam(type="integer", description="예보지점 X 좌표"),
                "ny": ToolParam(type="integer", description="예보지점 Y 좌표"),
                "base_date": ToolParam(type="string", description="발표일자 YYYYMMDD"),
            },
            required=["nx", "ny", "base_date"],
        ),
    ),
    ToolInfo(
        name="stanreg_search",
        description="법정동코드 검색",
        parameters=ToolParams(properties={"locatadd_nm": ToolParam(type="string", description="지역 이름")}),
    ),
]

GOOD = '<tool_call>\n{"name": "kma_getVilageFcst", "arguments": {"nx": 60, "ny": 127, "base_date": "20261015"}}\n</tool_call>'


def test_well_formed_call_becomes_an_inspect_tool_call() -> None:
    message = parse_completion("서울 날씨를 조회합니다.\n" + GOOD, TOOLS, "smollm2", id_prefix="call_3")
    assert isinstance(message, ChatMessageAssistant)
    assert message.text == "서울 날씨를 조회합니다."
    [call] = message.tool_calls or []
    assert isinstance(call, ToolCall)
    assert call.function == "kma_getVilageFcst"
    assert call.arguments == {"nx": 60, "ny": 127, "base_date": "20261015"}
    assert call.parse_error is None
    assert call.id.startswith("call_3_")


def test_several_calls_an_open_last_block_and_deterministic_ids() -> None:
    text = GOOD + '\n<tool_call>\n{"name": "stanreg_search", "arguments": {"locatadd_nm": "종로구"}}'
    content, calls = parse_tool_calls(text, TOOLS, "call_5")
    assert content == ""
    assert [c.function for c in calls] == ["kma_getVilageFcst", "stanreg_search"]
    assert calls[1].arguments == {"locatadd_nm": "종로구"} and calls[1].parse_error is None
    assert len({c.id for c in calls}) == 2
    assert [c.id for c in parse_tool_calls(text, TOOLS, "call_5")[1]] == [c.id for c in calls]


def test_double_encoded_arguments_and_parameters_alias() -> None:
    _, [a] = parse_tool_calls(
        '<tool_call>{"name": "stanreg_search", "arguments": "{\\"locatadd_nm\\": \\"중구\\"}"}</tool_call>',
        TOOLS,
    )
    _, [b] = parse_tool_calls(
        '<tool_call>{"name": "stanreg_search", "parameters": {"locatadd_nm": "중구"}}</tool_call>', TOOLS
    )
    assert a.arguments == b.arguments == {"locatadd_nm": "중구"}
    assert a.parse_error is None and b.parse_error is None


@pytest.mark.parametrize(
    ("block", "reason"),
    [
        ('{"name": "kma_getVilageFcst", "arguments": {nx: 60}}', "not valid JSON"),
        ('["kma_getVilageFcst", {"nx": 60}]', "must be a JSON object, not list"),
        ('{"arguments": {"nx": 60}}', '"name" string'),
        (
            '{"name": "kma_getVilageFcst", "arguments": [60, 127]}',
            "\"arguments\" of 'kma_getVilageFcst' must be a JSON object",
        ),
        ('{"name": "stanreg_search", "arguments": "중구"}', "is a string that is not a JSON object"),
        ('{"name": "stanreg_search", "arguments": {}, "result": "서울"}', "unexpected keys ['result']"),
        ("   ", "is empty"),
    ],
)
def test_bad_call_becomes_a_clear_parse_error(block: str, reason: str) -> None:
    message = parse_completion(f"<tool_call>{block}</tool_call>", TOOLS, "smollm2")
    [call] = message.tool_calls or []
    assert call.parse_error is not None
    assert reason in call.parse_error
    assert call.parse_error.startswith("Malformed tool call: ")
    assert (
        '{"name": <function-name>, "arguments": <args-json-object>}' in call.parse_error
    )  # says how to fix it
    assert call.function == "unknown" and call.arguments == {}


def test_text_that_only_mentions_a_tool_is_not_a_call() -> None:
    # A wrong model must not be credited with a call it never made.
    text = 'I would call kma_getVilageFcst with {"nx": 60, "ny": 127}, or use <tool_response>.'
    message = parse_completion(text, TOOLS, "smollm2")
    assert message.tool_calls is None
    assert message.text == text


def test_unknown_tool_name_is_kept_not_mapped_to_a_real_tool() -> None:
    _, [call] = parse_tool_calls(
        '<tool_call>{"name": "kma_weather", "arguments": {"city": "서울"}}</tool_call>', TOOLS
    )
    assert call.function == "kma_weather"  # Inspect answers "tool not found"; nothing is guessed


async def test_parse_error_reaches_the_model_as_a_parsing_error() -> None:
    from inspect_ai.model import execute_tools
    from inspect_ai.tool import tool

    ran: list[Any] = []

    @tool
    def stanreg_search():
        async def execute(locatadd_nm: str) -> str:
            """법정동코드 검색

            Args:
                locatadd_nm: 지역 이름
            """
            ran.append(locatadd_nm)
            return "1111000000"

        return execute

    message = parse_completion(
        '<tool_call>{"name": "stanreg_search", "arguments": {locatadd_nm}}</tool_call>', TOOLS, "m"
    )
    result = await execute_tools([ChatMessageUser(content="q"), message], [stanreg_search()])
    [tool_message] = [m for m in result.messages if isinstance(m, ChatMessageTool)]
    assert ran == []
    assert tool_message.error is not None and tool_message.error.type == "parsing"
    assert "not valid JSON" in tool_message.error.message


def _conversation() -> list[Any]:
    return [
        ChatMessageSystem(content="SYS"),
        ChatMessageUser(content="서울 종로구 내일 날씨?"),
        ChatMessageAssistant(
            content="",
            tool_calls=[ToolCall(id="a", function="stanreg_search", arguments={"locatadd_nm": "종로구"})],
        ),
        ChatMessageTool(content="1111000000", tool_call_id="a", function="stanreg_search"),
        ChatMessageAssistant(
            content="",
            tool_calls=[
                ToolCall(
                    id="b", function="kma_getVilageFcst", arguments={"nx": 60, "ny": 127, "base_date": "x"}
                )
            ],
        ),
        ChatMessageTool(
            content="",
            tool_call_id="b",
            function="kma_getVilageFcst",
            error=ToolCallError("parsing", "bad date"),
        ),
    ]


def test_chatml_prompt_is_the_text_the_hf_path_renders() -> None:
    chat_template_utils = pytest.importorskip("transformers.utils.chat_template_utils")
    from kopa_inspect.providers.local import TOOL_CHAT_TEMPLATE

    messages = _conversation()[:4]  # errors are rendered differently (hf shows an empty result)
    ours = render_prompt(messages, TOOLS, "chatml")
    hf_messages = [m.model_dump(exclude_none=True) for m in messages]
    [theirs], _ = chat_template_utils.render_jinja_template(
        conversations=[hf_messages],
        tools=[t.model_dump(exclude_none=True) for t in TOOLS],
        chat_template=TOOL_CHAT_TEMPLATE,
        add_generation_prompt=True,
    )
    assert ours == theirs
    assert "단기예보 조회" in ours  # non-ASCII kept, not \\uXXXX


def test_tool_errors_are_shown_to_the_model() -> None:
    for template in ("chatml", "gemma"):
        assert "<tool_response>\nError: bad date\n</tool_response>" in render_prompt(
            _conversation(), TOOLS, template
        )


def test_gemma_prompt_layout() -> None:
    text = render_prompt(_conversation(), TOOLS, "gemma")
    assert text.startswith("<start_of_turn>user\nSYS\n\n# Tools")
    assert (
        "</tools>\n\n서울 종로구 내일 날씨?<end_of_turn>\n" in text
    )  # system + tools open the first user turn
    assert (
        '<start_of_turn>model\n<tool_call>\n{"name": "stanreg_search", "arguments": {"locatadd_nm": "종로구"}}\n</tool_call><end_of_turn>'
        in text
    )
    assert "<start_of_turn>user\n<tool_response>\n1111000000\n</tool_response><end_of_turn>\n" in text
    assert text.endswith("<start_of_turn>model\n")
    assert "<bos>" not in text and "system" not in text.replace("SYS", "")
    assert template_for_architecture("gemma3") == "gemma" and template_for_architecture("llama") == "chatml"


def test_unknown_model_names_and_missing_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a known model"):
        lc.resolve_gguf("gpt-5")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        lc.resolve_gguf("local", str(tmp_path / "nope.gguf"))


class _FakeLlama:
    """llama_cpp.Llama's surface that the engine uses, returning llama.cpp's completion shape."""

    def __init__(self, text: str, finish_reason: str = "stop", n_ctx: int = 4096) -> None:
        self.text, self.finish_reason, self._n_ctx = text, finish_reason, n_ctx
        self.metadata = {"general.architecture": "llama"}
        self.calls: list[dict[str, Any]] = []

    def tokenize(self, data: bytes, add_bos: bool = True, special: bool = False) -> list[int]:
        assert special, "turn markers must be tokenized as control tokens"
        return list(range(len(data.split())))

    def n_ctx(self) -> int:
        return self._n_ctx

    def reset(self) -> None:
        self.resets = getattr(self, "resets", 0) + 1

    def close(self) -> None:
        self.closes = getattr(self, "closes", 0) + 1

    def create_completion(self, prompt: list[int], **kwargs: Any) -> dict[str, Any]:
        self.calls.append({"prompt": prompt, **kwargs})
        return {
            "id": "cmpl-1",
            "object": "text_completion",
            "choices": [
                {"text": self.text, "index": 0, "logprobs": None, "finish_reason": self.finish_reason}
            ],
            "usage": {
                "prompt_tokens": len(prompt),
                "completion_tokens": 17,
                "total_tokens": len(prompt) + 17,
            },
        }


def _api(monkeypatch: pytest.MonkeyPatch, fake: _FakeLlama) -> lc.LlamaCppAPI:
    import threading

    engine = object.__new__(lc.Engine)
    engine.path, engine.lock, engine.llm, engine.architecture = (
        Path("fake.gguf"),
        threading.Lock(),
        fake,
        "llama",
    )
    engine._last_prompt = []
    engine.users = 0
    monkeypatch.setattr(lc, "resolve_gguf", lambda name, path=None: Path("fake.gguf"))

    def get_engine(*args: Any, **kwargs: Any) -> lc.Engine:
        engine.users += 1
        return engine

    monkeypatch.setattr(lc, "get_engine", get_engine)
    return lc.LlamaCppAPI("smollm2")


async def test_generate_returns_tool_calls_usage_and_the_raw_call(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeLlama("먼저 코드를 찾습니다.\n" + GOOD)
    api = _api(monkeypatch, fake)
    output, call = await api.generate(_conversation()[:2], TOOLS, "auto", GenerateConfig(max_tokens=64))
    assert output.stop_reason == "tool_calls"
    [tc] = output.message.tool_calls or []
    assert (tc.function, tc.arguments, tc.parse_error) == (
        "kma_getVilageFcst",
        {"nx": 60, "ny": 127, "base_date": "20261015"},
        None,
    )
    assert output.usage is not None and output.usage.output_tokens == 17
    assert output.usage.input_tokens == len(fake.calls[0]["prompt"])
    # greedy and seeded by default; stop at the end of the turn or an invented tool result
    assert fake.calls[0]["temperature"] == 0.0 and fake.calls[0]["seed"] == 0
    assert "<|im_end|>" in fake.calls[0]["stop"] and "<tool_response>" in fake.calls[0]["stop"]
    assert call.response["text"] == fake.text
    json.dumps(call.request)  # the log entry is plain JSON


async def test_generate_without_a_call_and_when_the_prompt_fills_the_context(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api = _api(monkeypatch, _FakeLlama("내일 종로구는 맑습니다.", finish_reason="length"))
    output, _ = await api.generate(_conversation()[:2], TOOLS, "auto", GenerateConfig(max_tokens=8))
    assert output.message.tool_calls is None and output.stop_reason == "max_tokens"
    assert output.message.text == "내일 종로구는 맑습니다."

    tiny = _FakeLlama("never used", n_ctx=10)
    api = _api(monkeypatch, tiny)
    output, _ = await api.generate(_conversation(), TOOLS, "auto", GenerateConfig(max_tokens=8))
    assert output.stop_reason == "model_length" and tiny.calls == []


def test_both_providers_use_one_template_source_and_calls_round_trip() -> None:
    from kopa_inspect.providers import chat_templates, local

    # hf/local writes into its folder the very template llamacpp/smollm2 renders.
    assert local.TOOL_CHAT_TEMPLATE is chat_templates.TEMPLATES["chatml"]
    sections = []
    for template in ("chatml", "gemma"):
        text = render_prompt(_conversation()[:3], TOOLS, template)
        sections.append(text[text.index("# Tools") : text.index("</tools>")])
        # A call written back into the prompt is exactly what the parser reads from a completion.
        written = text[text.rindex("<tool_call>") : text.rindex("</tool_call>") + len("</tool_call>")]
        _, [call] = parse_tool_calls(written, TOOLS)
        assert (call.function, call.arguments, call.parse_error) == (
            "stanreg_search",
            {"locatadd_nm": "종로구"},
            None,
        )
    assert sections[0] == sections[1]  # every family is told the same thing about the tools


async def test_close_frees_the_model_once_and_a_closed_provider_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = _FakeLlama("x")
    api = _api(monkeypatch, fake)
    engine = api.engine
    await api.aclose()  # what Inspect calls when a model is used as a context manager
    assert getattr(fake, "closes", 0) == 1 and engine.llm is None
    api.close()  # a second close (sync or async) is harmless
    await api.aclose()
    assert fake.closes == 1
    with pytest.raises(RuntimeError, match=r"llamacpp/smollm2 .*closed"):
        await api.generate(_conversation()[:2], TOOLS, "auto", GenerateConfig(max_tokens=8))


def test_an_engine_shared_by_two_providers_lives_until_the_last_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[_FakeLlama] = []
    engine_class = lc.Engine

    def fake_engine(path: Path, n_ctx: int, n_threads: int, n_batch: int) -> lc.Engine:
        import threading

        engine = object.__new__(engine_class)
        engine.llm = _FakeLlama("x")
        made.append(engine.llm)
        engine.path, engine.lock, engine.architecture, engine._last_prompt, engine.users = (
            path,
            threading.Lock(),
            "llama",
            [],
            0,
        )
        return engine

    monkeypatch.setattr(lc, "Engine", fake_engine)
    monkeypatch.setattr(lc, "resolve_gguf", lambda name, path=None: Path("shared.gguf"))
    monkeypatch.setattr(lc, "_ENGINES", {})
    a, b = lc.LlamaCppAPI("smollm2", n_ctx=512), lc.LlamaCppAPI("smollm2", n_ctx=512)
    assert a.engine is b.engine and len(made) == 1
    a.close()
    assert getattr(made[0], "closes", 0) == 0 and b.engine.llm is made[0]  # b still uses it
    b.close()
    assert made[0].closes == 1 and lc._ENGINES == {}
    lc.LlamaCppAPI("smollm2", n_ctx=512).close()  # a fresh provider loads a fresh engine
    assert len(made) == 2 and made[1].closes == 1


def test_model_selection_errors_say_what_to_do(tmp_path: Path) -> None:
    # llamacpp/local without a path: say which model arg is missing, not "not a known model".
    with pytest.raises(ValueError, match=r"llamacpp/local needs -M model_path=/path/to/model\.gguf"):
        lc.resolve_gguf("local")
    # A near miss names the model meant.
    with pytest.raises(ValueError, match=r"did you mean llamacpp/smollm2\?"):
        lc.resolve_gguf("smollm")
    # A folder (e.g. the hf/local folder) is not a GGUF file.
    with pytest.raises(FileNotFoundError, match=r"is a directory, not a \.gguf file"):
        lc.resolve_gguf("local", str(tmp_path))
    # A file that is not GGUF fails before llama.cpp is asked to load it.
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b'{"not": "gguf"}')
    with pytest.raises(ValueError, match=r"model\.gguf is not a GGUF file"):
        lc.resolve_gguf("local", str(fake))


def test_a_chat_template_name_typo_is_an_error_not_a_one_word_template(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match=r"chat_template 'Gemma' is not a template name \(chatml, gemma\)"):
        _api_with(monkeypatch, chat_template="Gemma")
    api = _api_with(monkeypatch, chat_template="{{ messages[0]['content'] }}<|im_end|>")
    assert api.template.startswith("{{") and api.stop == lc_stop("chatml")


def test_unknown_model_args_list_the_accepted_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"unknown model args \['ctx'\].*n_ctx"):
        _api_with(monkeypatch, ctx=4096)


async def test_a_prompt_past_the_context_is_reported_with_its_size(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tiny = _FakeLlama("never used", n_ctx=10)
    api = _api(monkeypatch, tiny)
    output, call = await api.generate(_conversation(), TOOLS, "auto", GenerateConfig(max_tokens=8))
    assert output.stop_reason == "model_length"
    tokens = call.request["prompt_tokens"]
    assert tokens > 10
    expected = f"prompt of {tokens} tokens does not fit the context of 10 tokens"
    assert expected in call.response["error"] and "-M n_ctx=" in call.response["error"]
    assert expected in caplog.text


def lc_stop(name: str) -> list[str]:
    from kopa_inspect.providers.chat_templates import STOP_STRINGS

    return STOP_STRINGS[name]


def _api_with(monkeypatch: pytest.MonkeyPatch, **model_args: Any) -> lc.LlamaCppAPI:
    _api(monkeypatch, _FakeLlama("x"))  # patches resolve_gguf and get_engine
    return lc.LlamaCppAPI("smollm2", **model_args)


async def test_an_answer_cut_by_the_context_is_model_length_not_max_tokens(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The fake counts words as tokens; a context just past the prompt leaves 3 tokens of room.
    probe = _api(monkeypatch, _FakeLlama("x"))
    _, first = await probe.generate(_conversation()[:2], TOOLS, "auto", GenerateConfig(max_tokens=8))
    prompt_tokens = first.request["prompt_tokens"]
    fake = _FakeLlama("내일 종로구는", finish_reason="length", n_ctx=prompt_tokens + 3)
    api = _api(monkeypatch, fake)
    output, call = await api.generate(_conversation()[:2], TOOLS, "auto", GenerateConfig(max_tokens=64))
    assert fake.calls[0]["max_tokens"] == 3
    assert output.stop_reason == "model_length" and call.response["finish_reason"] == "context_full"
    assert "cut after 17 tokens at the end of the context" in call.response["error"]
    # max_tokens reached inside the context stays max_tokens
    roomy = _FakeLlama("내일", finish_reason="length", n_ctx=prompt_tokens + 100)
    output, call = await _api(monkeypatch, roomy).generate(
        _conversation()[:2], TOOLS, "auto", GenerateConfig(max_tokens=8)
    )
    assert output.stop_reason == "max_tokens" and "error" not in call.response


def test_render_prompt_rejects_a_template_name_typo() -> None:
    with pytest.raises(ValueError, match=r"'chatm' is not a template name"):
        render_prompt(_conversation()[:2], TOOLS, "chatm")
