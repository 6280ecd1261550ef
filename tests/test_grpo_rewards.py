"""GRPO reward functions on hand-made completions."""

import json

import pytest

from grpo import rewards
from grpo.parsing import parse_completion

TARGET = [["kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}]]
FACTS = [{"id": "f1", "description": "최고기온", "value": "21.0", "expected": "21.0", "matcher": "number",
          "tolerance": 0.5, "required": True},
         {"id": "f2", "description": "지역", "value": "종로구", "expected": "종로구", "matcher": "name", "required": True}]


def call(name: str, args: dict) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}, ensure_ascii=False) + "</tool_call>"


RIGHT = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": "60", "ny": 127})
WRONG_VALUE = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 61, "ny": 127})
WRONG_TOOL = call("kma_getUltraSrtNcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127})
BROKEN = '<tool_call>{"name": "kma_getVilageFcst", "arguments": {"nx": 60,</tool_call>'
TRUNCATED = '<tool_call>{"name": "kma_getVilageFcst"'


def run(fn, completions, kind="call"):
    n = len(completions)
    return fn(prompts=[""] * n, completions=completions, kind=[kind] * n,
              target_calls_json=[json.dumps(TARGET)] * n, facts_json=[json.dumps(FACTS)] * n)


def test_parse_completion_forms():
    assert parse_completion(RIGHT).calls[0][0] == "kma_getVilageFcst"
    assert not parse_completion(BROKEN).well_formed
    assert not parse_completion(TRUNCATED).well_formed
    assert parse_completion("").well_formed is False
    p = parse_completion("종로구의 최고기온은 21도입니다.")
    assert p.answer and not p.calls and p.well_formed
    # TRL conversational completions (assistant message with tool_calls) parse the same way.
    conv = [{"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "kma_getVilageFcst", "arguments": json.dumps(TARGET[0][1])}}]}]
    assert parse_completion(conv).calls == [("kma_getVilageFcst", TARGET[0][1])]


def test_outcome_reward_is_binary_on_exact_call():
    assert run(rewards.outcome_reward, [RIGHT, WRONG_VALUE, WRONG_TOOL, BROKEN]) == [1.0, 0.0, 0.0, 0.0]


def test_format_reward():
    assert run(rewards.format_reward, [RIGHT, BROKEN, TRUNCATED, "답변"]) == [1.0, 0.0, 0.0, 1.0]


def test_tool_name_reward():
    assert run(rewards.tool_name_reward, [RIGHT, WRONG_VALUE, WRONG_TOOL, BROKEN]) == [1.0, 1.0, 0.0, 0.0]
    # For an answer step, calling a tool is the wrong move.
    assert run(rewards.tool_name_reward, [RIGHT, "답"], kind="answer") == [0.0, 1.0]


def test_argument_reward_partial_credit():
    right, wrong_value, wrong_tool = run(rewards.argument_reward, [RIGHT, WRONG_VALUE, WRONG_TOOL])
    assert right == 1.0
    assert wrong_value == pytest.approx((1.0 + 0.75) / 2)  # all names, 3 of 4 values
    assert wrong_tool == 0.0
    assert run(rewards.argument_reward, ["답"], kind="answer") == [None]


def test_answer_reward_counts_facts():
    scores = run(rewards.answer_reward, ["종로구의 최고기온은 21.2도예요.", "종로구는 맑아요.", RIGHT], kind="answer")
    assert scores == [1.0, 0.5, 0.0]
    outcome = run(rewards.outcome_reward, ["종로구의 최고기온은 21.2도예요.", "최고기온 25도"], kind="answer")
    assert outcome == [1.0, 0.0]
    assert run(rewards.answer_reward, [RIGHT]) == [None]


def test_unknown_reward_name_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown reward"):
        rewards.build_reward_funcs(["outcome", "nonsense"])
