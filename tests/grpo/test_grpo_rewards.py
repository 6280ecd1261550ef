"""GRPO reward functions on hand-made completions."""

import asyncio
import json

import pytest

from kopa_grpo import rewards
from kopa_grpo.parsing import parse_completion

TARGET = [["kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}]]
# EDGE's fact form: the plan reference in value, what it resolved to in resolved.
FACTS = [
    {
        "id": "f1",
        "description": "최고기온",
        "value": "$s1.items[0].TMX",
        "resolved": "21.0",
        "matcher": "number",
        "tolerance": 0.5,
        "required": True,
    },
    {
        "id": "f2",
        "description": "지역",
        "value": "$s0.items[0].name",
        "resolved": "종로구",
        "matcher": "name",
        "required": True,
    },
]


def call(name: str, args: dict) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}, ensure_ascii=False) + "</tool_call>"


RIGHT = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127})
# "60" for the integer nx: Inspect refuses the call before the tool runs (tests/grpo/test_schema_types.py).
MISTYPED = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": "60", "ny": 127})
WRONG_VALUE = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 61, "ny": 127})
WRONG_TOOL = call("kma_getUltraSrtNcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127})
BROKEN = '<tool_call>{"name": "kma_getVilageFcst", "arguments": {"nx": 60,</tool_call>'
TRUNCATED = '<tool_call>{"name": "kma_getVilageFcst"'


KMA_SCHEMA = {
    "type": "function",
    "function": {
        "name": "kma_getVilageFcst",
        "description": "단기예보",
        "parameters": {
            "type": "object",
            "required": ["base_date", "base_time", "nx", "ny"],
            "properties": {
                k: {"type": "string"} for k in ("base_date", "base_time", "nx", "ny", "pageNo", "numOfRows")
            },
        },
    },
}


def run(fn, completions, kind="call"):
    n = len(completions)
    return fn(
        prompts=[""] * n,
        completions=completions,
        kind=[kind] * n,
        target_calls_json=[json.dumps(TARGET)] * n,
        facts_json=[json.dumps(FACTS)] * n,
        tools_json=[json.dumps([KMA_SCHEMA])] * n,
    )


def test_parse_completion_forms():
    assert parse_completion(RIGHT).calls[0][0] == "kma_getVilageFcst"
    assert not parse_completion(BROKEN).well_formed
    assert not parse_completion(TRUNCATED).well_formed
    assert parse_completion("").well_formed is False
    p = parse_completion("종로구의 최고기온은 21도입니다.")
    assert p.answer and not p.calls and p.well_formed
    # TRL conversational completions (assistant message with tool_calls) parse the same way.
    conv = [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": "kma_getVilageFcst", "arguments": json.dumps(TARGET[0][1])},
                }
            ],
        }
    ]
    assert parse_completion(conv).calls == [("kma_getVilageFcst", TARGET[0][1])]


def test_outcome_reward_is_binary_on_exact_call():
    assert run(rewards.outcome_reward, [RIGHT, WRONG_VALUE, WRONG_TOOL, BROKEN, MISTYPED]) == [
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ]


def test_format_reward():
    assert run(rewards.format_reward, [RIGHT, BROKEN, TRUNCATED, "답변"]) == [1.0, 0.0, 0.0, 0.0]
    # Prose is the right kind of move only on an answer step.
    assert run(rewards.format_reward, ["종로구는 맑아요.", RIGHT], kind="answer") == [1.0, 0.0]


def test_tool_name_reward():
    assert run(rewards.tool_name_reward, [RIGHT, WRONG_VALUE, WRONG_TOOL, BROKEN]) == [1.0, 1.0, 0.0, 0.0]
    # For an answer step, calling a tool is the wrong move.
    assert run(rewards.tool_name_reward, [RIGHT, "종로구는 맑아요."], kind="answer") == [0.0, 1.0]
    # ... and answering with junk (one syllable, a paste) is no answer either.
    assert run(rewards.tool_name_reward, ["답"], kind="answer") == [0.0]


def test_argument_reward_partial_credit():
    right, wrong_value, wrong_tool = run(rewards.argument_reward, [RIGHT, WRONG_VALUE, WRONG_TOOL])
    assert right == 1.0
    assert wrong_value == pytest.approx((1.0 + 0.75) / 2)  # all names, 3 of 4 values
    assert wrong_tool == 0.0
    assert run(rewards.argument_reward, ["답"], kind="answer") == [None]


def test_answer_reward_counts_facts():
    scores = run(
        rewards.answer_reward, ["종로구의 최고기온은 21.2도예요.", "종로구는 맑아요.", RIGHT], kind="answer"
    )
    assert scores == [1.0, 0.5, 0.0]
    outcome = run(rewards.outcome_reward, ["종로구의 최고기온은 21.2도예요.", "최고기온 25도"], kind="answer")
    assert outcome == [1.0, 0.0]
    assert run(rewards.answer_reward, [RIGHT]) == [None]


def test_unknown_reward_name_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown reward"):
        rewards.build_reward_funcs(["outcome", "nonsense"])


def test_fact_expected_never_matches_a_reference():
    assert rewards.fact_expected({"value": "$s1.items[0].x", "resolved": 3}) == 3
    assert rewards.fact_expected({"value": "$s1.items[0].x", "expected": "a"}) == "a"
    assert rewards.fact_expected({"value": "$s1.items[0].x"}) is None
    assert rewards.fact_expected({"value": "모름", "matcher": "refusal"}) == "모름"


# --- execution reward: the predicted call runs through the embedded emulator ------------------

CLOCK = "2026-10-15T15:00:00+09:00"


def run_exec(completions, kind="call"):
    fn = rewards.ExecutionReward()
    n = len(completions)
    from trl.trainer.utils import is_async_callable

    assert is_async_callable(fn)  # TRL awaits it on its event loop (a sync-looking one is never awaited)
    return asyncio.run(
        fn(prompts=[""] * n, completions=completions, kind=[kind] * n, clock=[CLOCK] * n, seed=[0] * n)
    )


def test_execution_reward_runs_the_call():
    valid = call("dart_company", {"corp_code": "00164779"})
    rejected_missing = call("dart_company", {})  # required corp_code missing: DART status 100
    rejected_value = call("dart_company", {"corp_code": "abc"})  # not an 8-digit code: status 100
    unknown = call("no_such_tool", {"x": 1})
    scores = run_exec([valid, rejected_missing, rejected_value, unknown, BROKEN])
    assert scores == [1.0, 0.0, 0.0, 0.0, 0.0]
    # Two calls, one OK: the share of calls the API accepted.
    assert run_exec([valid + rejected_missing]) == [0.5]
    # Not applicable to answer steps.
    assert run_exec(["종로구입니다."], kind="answer") == [None]


def test_execution_reward_accepts_edge_empty_clock():
    # EDGE datasets synthesized without a fixed clock store "" (the backends' default world).
    fn = rewards.ExecutionReward()
    out = asyncio.run(
        fn(
            prompts=[""],
            completions=[call("dart_company", {"corp_code": "00164779"})],
            kind=["call"],
            clock=[""],
            seed=[0],
        )
    )
    assert out == [1.0]


# --- the episode outcome-and-state reward -----------------------------------------------------

PLAN = {
    "steps": [
        {"id": "s1", "tool": "dart_company", "args": {"corp_code": "00164779"}},
        {"id": "s2", "tool": "dart_corpCode", "args": {"stock_code": "$s1.items[0].stock_code"}},
    ]
}
EP_FACTS = [
    {
        "id": "f1",
        "description": "고유번호 8자리",
        "value": "$s2.items[0].corp_code",
        "resolved": "00164779",
        "matcher": "number",
        "tolerance": 0.0,
    }
]


def _episode_env(make_calls):
    from kopa_grpo import env

    cls = env.environment_class(env.tools_key(["dart_company", "dart_corpCode"]))
    e = cls()
    e.reset(plan_json=json.dumps(PLAN), facts_json=json.dumps(EP_FACTS), clock="", seed=0)

    async def go():
        return await make_calls(e)

    asyncio.run(go())
    return e


def test_environment_methods_are_the_trajectory_tools():
    from transformers.utils import get_json_schema

    from kopa_grpo import env

    cls = env.environment_class(env.tools_key(["dart_company", "dart_corpCode"]))
    # Exactly the named tools: not the rest of the DART platform.
    assert {n for n in vars(cls) if not n.startswith("_") and n != "platforms"} == {
        "dart_company",
        "dart_corpCode",
    }
    assert cls.platforms == ("dart",)
    with pytest.raises(ValueError, match="unknown tool"):
        env.environment_class("dart_company,no_such_tool")
    schema = get_json_schema(cls.dart_company)
    assert schema["function"]["name"] == "dart_company"
    assert schema["function"]["parameters"]["required"] == ["corp_code"]


def test_episode_outcome_reward():
    from kopa_grpo import env

    async def gold_calls(e):
        out = json.loads(await e.dart_company(corp_code="00164779"))
        await e.dart_corpCode(stock_code=out["items"][0]["stock_code"])

    async def first_call_only(e):
        await e.dart_company(corp_code="00164779")

    right = [{"role": "assistant", "content": "고유번호는 00164779입니다."}]
    wrong = [{"role": "assistant", "content": "고유번호는 00164780입니다."}]
    good = _episode_env(gold_calls)
    assert [c["ok"] for c in good.call_log] == [True, True]
    scores = asyncio.run(
        env.episode_outcome_reward(
            prompts=[[], [], []],
            completions=[right, wrong, right],
            environments=[good, _episode_env(gold_calls), _episode_env(first_call_only)],
        )
    )
    # Right answer and the gold calls: 1; a wrong number: 0; right answer but a gold call missing: 0.
    assert scores == [1.0, 0.0, 0.0]
    # Without environments (e.g. the step form) the reward does not apply.
    assert asyncio.run(env.episode_outcome_reward(prompts=[[]], completions=[right])) == [None]


def test_execution_reward_session_tokens():
    """NEIS needs a session token from its auth tool: a token issued earlier in the trajectory
    (the step row's session_tokens_json) is valid; a made-up one is rejected."""
    fn = rewards.ExecutionReward()
    school = {"SCHUL_NM": "고등학교"}
    issued = "sess-0123456789abcdef"
    completions = [
        call("neis_schoolInfo", {**school, "KEY": issued}),
        call("neis_schoolInfo", {**school, "KEY": "sess-madeup"}),
        call("neis_schoolInfo", school),
        call("neis_get_api_key", {}),
    ]
    n = len(completions)
    out = asyncio.run(
        fn(
            prompts=[""] * n,
            completions=completions,
            kind=["call"] * n,
            clock=[CLOCK] * n,
            seed=[0] * n,
            session_tokens_json=[json.dumps({"neis": issued})] * n,
        )
    )
    assert out == [1.0, 0.0, 0.0, 1.0]
