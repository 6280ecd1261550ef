"""kopa_steps metrics on moves a provider already parsed (Inspect ToolCalls): the same rules as the
text path of steps.parsing, so the metric and the GRPO rewards cannot disagree (issue 11)."""

from __future__ import annotations

import json

from inspect_ai.model import ChatCompletionChoice, ChatMessageAssistant, ModelOutput
from inspect_ai.tool import ToolCall

from kopa_inspect.steps.parsing import history_calls, parse_completion
from kopa_inspect.steps.task import parsed_output, step_values

ARGS = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}
STEP = {"kind": "call", "target_calls": [["kma_getVilageFcst", ARGS]], "facts": [], "tool_results": []}


def output(text: str, n_calls: int = 1, parse_error: str | None = None) -> ModelOutput:
    calls = [ToolCall(id=f"c{i}", function="kma_getVilageFcst", arguments=dict(ARGS), parse_error=parse_error)
             for i in range(n_calls)]
    msg = ChatMessageAssistant(content=text, tool_calls=calls or None, model="m")
    return ModelOutput(model="m", choices=[ChatCompletionChoice(message=msg, stop_reason="tool_calls")])


def test_provider_parsed_call_with_an_answer_beside_it_is_no_move():
    assert step_values(parsed_output(output("")), STEP)["exact"] == 1.0
    mixed = step_values(parsed_output(output("종로구의 오늘 최고기온은 21도입니다.")), STEP)
    assert (mixed["parse"], mixed["kind"], mixed["tool_name"], mixed["exact"]) == (0.0, 0.0, 0.0, 0.0)
    # A think block is reasoning, not the move; an unclosed one is a truncated move.
    assert step_values(parsed_output(output("<think>\n격자 60, 127\n</think>\n")), STEP)["exact"] == 1.0
    assert step_values(parsed_output(output("<think>\n격자 60")), STEP)["parse"] == 0.0
    # A call Inspect could not parse breaks the wave.
    assert step_values(parsed_output(output("", parse_error="bad json")), STEP)["parse"] == 0.0
    assert step_values(parsed_output(output("", n_calls=2)), STEP)["exact"] == 0.0


def test_text_path_and_provider_path_agree():
    call = "<tool_call>" + json.dumps({"name": "kma_getVilageFcst", "arguments": ARGS}) + "</tool_call>"
    for text in ("", "먼저 예보를 조회하겠습니다. ", "<think></think>"):
        a = step_values(parse_completion(text + call), STEP)
        b = step_values(parsed_output(output(text)), STEP)
        keys = ("parse", "kind", "tool_name", "exact")  # answer: NaN on a call step
        assert [a[k] for k in keys] == [b[k] for k in keys], text


def test_history_skips_the_templates_placeholder():
    prompt = ('<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
              '<|im_start|>assistant\n<tool_call>\n{"name": "kma_getVilageFcst", "arguments": {"nx": 1}}\n'
              "</tool_call><|im_end|>")
    assert history_calls(prompt) == [("kma_getVilageFcst", {"nx": 1})]
    assert history_calls([{"role": "user", "content": prompt}]) == []  # only assistant turns of a message list
