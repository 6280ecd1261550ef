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
    calls = [
        ToolCall(id=f"c{i}", function="kma_getVilageFcst", arguments=dict(ARGS), parse_error=parse_error)
        for i in range(n_calls)
    ]
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
    prompt = (
        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
        '<|im_start|>assistant\n<tool_call>\n{"name": "kma_getVilageFcst", "arguments": {"nx": 1}}\n'
        "</tool_call><|im_end|>"
    )
    assert history_calls(prompt) == [("kma_getVilageFcst", {"nx": 1})]
    assert (
        history_calls([{"role": "user", "content": prompt}]) == []
    )  # only assistant turns of a message list


# --- tool-name accuracy: a replay or a keyed call is no right tool ------------------------------------
# The kopa_steps tool-name metric (the CPU experiment's headline, SFT vs base) compared only the
# multiset of names: a model that loops on the call the history already made, or sends a service key
# the tool layer injects, earned tool-name 1.0 whenever the gold wave uses the same tool (a FAN over
# rows, a second page, a forecast after a forecast). The GRPO tool-name reward already counts both as
# wrong (scoring.tool_name_score); the metric now reads the same rule.

GRID = {"base_date": "20261015", "base_time": "1400", "nx": 61, "ny": 126}


def _step_after(history_args: dict, target_args: dict) -> dict:
    """A call step whose history made one kma_getVilageFcst call and whose gold is another."""
    call = {"type": "function", "function": {"name": "kma_getVilageFcst", "arguments": history_args}}
    messages = [
        {"role": "system", "content": "tools"},
        {"role": "user", "content": "종로구와 중구 예보"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "content": '{"items": []}'},
    ]
    return {
        "kind": "call",
        "target_calls": [["kma_getVilageFcst", target_args]],
        "facts": [],
        "tool_results": [],
        "messages": messages,
    }


def _move(args: dict) -> str:
    return "<tool_call>" + json.dumps({"name": "kma_getVilageFcst", "arguments": args}) + "</tool_call>"


def test_a_replayed_history_call_has_no_right_tool_name():
    step = _step_after(ARGS, GRID)
    replay = step_values(parse_completion(_move(ARGS)), step)
    assert (replay["tool_name"], replay["exact"]) == (0.0, 0.0)
    # valid alternatives: the gold call, and the right tool with a new (even wrong) argument
    assert step_values(parse_completion(_move(GRID)), step)["tool_name"] == 1.0
    wrong_cell = step_values(parse_completion(_move({**GRID, "nx": 62})), step)
    assert (wrong_cell["tool_name"], wrong_cell["exact"]) == (1.0, 0.0)


def test_a_call_the_gold_makes_again_is_no_replay():
    step = _step_after(ARGS, ARGS)  # the gold repeats the history's call (a retry after an error)
    again = step_values(parse_completion(_move(ARGS)), step)
    assert (again["tool_name"], again["exact"]) == (1.0, 1.0)


def test_a_call_carrying_a_service_key_has_no_right_tool_name():
    step = _step_after(ARGS, GRID)
    keyed = step_values(parse_completion(_move({**GRID, "serviceKey": "abc123"})), step)
    assert (keyed["tool_name"], keyed["exact"]) == (0.0, 0.0)
    # the provider path reads the same rule
    msg = ChatMessageAssistant(
        content="",
        tool_calls=[ToolCall(id="c0", function="kma_getVilageFcst", arguments=dict(ARGS))],
        model="m",
    )
    out = ModelOutput(model="m", choices=[ChatCompletionChoice(message=msg, stop_reason="tool_calls")])
    assert step_values(parsed_output(out), step)["tool_name"] == 0.0
