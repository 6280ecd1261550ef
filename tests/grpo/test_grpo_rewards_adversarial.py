"""Adversarial reward tests: completions a wrong model could write must earn nothing.

Each test names a way to game the step rewards (issue 11) and checks it earns no credit, then
checks a valid alternative still does. Rows carry the columns data.step_rows writes: kind,
target_calls_json (token arguments kept), facts_json, tools_json (the tools in play),
tool_results_json (the earlier results the prompt showed), session_tokens_json, clock, seed.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from kopa_grpo import rewards

TOKEN = "sess-00aa11bb22cc33dd"
CLOCK = "2026-10-15T15:00:00+09:00"
KMA_ARGS = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}
NEIS_ARGS = {"SCHUL_NM": "서울고등학교", "KEY": TOKEN}


def _schema(name: str, params: dict[str, str], required: list[str]) -> dict:
    props = {k: {"type": t, "description": k} for k, t in params.items()}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": name,
            "parameters": {"type": "object", "properties": props, "required": required},
        },
    }


KMA_PARAMS = {
    "pageNo": "integer",
    "numOfRows": "integer",
    "base_date": "string",
    "base_time": "string",
    "nx": "integer",
    "ny": "integer",
}
TOOLS = [
    _schema("kma_getVilageFcst", KMA_PARAMS, ["base_date", "base_time", "nx", "ny"]),
    _schema("kma_getUltraSrtNcst", KMA_PARAMS, ["base_date", "base_time", "nx", "ny"]),
    _schema("dart_company", {"corp_code": "string"}, ["corp_code"]),
    _schema("neis_get_api_key", {}, []),
    _schema("neis_schoolInfo", {"KEY": "string", "SCHUL_NM": "string", "SD_SCHUL_CODE": "string"}, ["KEY"]),
]
RESULT = json.dumps(
    {
        "resultCode": "00",
        "items": [
            {"category": "TMX", "fcstDate": "20261015", "fcstValue": "21.0", "nx": 60, "ny": 127},
            {"category": "SKY", "fcstDate": "20261015", "fcstValue": "1", "nx": 60, "ny": 127},
        ],
    },
    ensure_ascii=False,
)
REGION_RESULT = json.dumps({"items": [{"name": "종로구", "nx": 60, "ny": 127}]}, ensure_ascii=False)
FACTS = [
    {
        "id": "f1",
        "description": "최고기온",
        "value": "$s1.items[0].fcstValue",
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


def row(kind: str, targets: list, results: list[str] | None = None, tokens: dict | None = None) -> dict:
    return {
        "kind": kind,
        "target_calls_json": json.dumps(targets, ensure_ascii=False),
        "facts_json": json.dumps(FACTS, ensure_ascii=False),
        "tools_json": json.dumps(TOOLS, ensure_ascii=False),
        "tool_results_json": json.dumps(results or [REGION_RESULT, RESULT], ensure_ascii=False),
        "session_tokens_json": json.dumps(tokens or {}),
        "clock": CLOCK,
        "seed": 0,
    }


KMA_STEP = row("call", [["kma_getVilageFcst", KMA_ARGS]], results=[REGION_RESULT])
NEIS_STEP = row(
    "call", [["neis_schoolInfo", NEIS_ARGS]], results=[json.dumps({"token": TOKEN})], tokens={"neis": TOKEN}
)
AUTH_STEP = row("call", [["neis_get_api_key", {}]], results=[])
ANSWER_STEP = row("answer", [])


def score(fn, completions: list[str], r: dict) -> list:
    n = len(completions)
    cols = {k: [v] * n for k, v in r.items()}
    out = fn(prompts=[""] * n, completions=completions, **cols)
    return asyncio.run(out) if asyncio.iscoroutine(out) else out


def weighted_total(completion: str, r: dict) -> float:
    """The reward GRPO sums with the CPU config's weights (None = not applicable = 0)."""
    names = ["outcome", "format", "tool_name", "arguments", "execution", "answer"]
    weights = [1.0, 0.2, 0.2, 0.3, 0.3, 0.5]
    total = 0.0
    for fn, w in zip(rewards.build_reward_funcs(names), weights, strict=True):
        v = score(fn, [completion], r)[0]
        total += w * (v or 0.0)
    return total


RIGHT_KMA = call("kma_getVilageFcst", KMA_ARGS)


# --- unrelated valid calls and the auth tool ----------------------------------------------------


def test_unrelated_valid_call_earns_nothing():
    unrelated = call("dart_company", {"corp_code": "00164779"})  # valid: the emulator answers it OK
    assert weighted_total(unrelated, KMA_STEP) == 0.0
    assert weighted_total(RIGHT_KMA, KMA_STEP) == pytest.approx(2.0)  # answer reward: not applicable


def test_auth_tool_earns_nothing_unless_it_is_the_gold_step():
    auth = call("neis_get_api_key", {})
    assert weighted_total(auth, KMA_STEP) == 0.0
    assert weighted_total(auth, AUTH_STEP) == pytest.approx(2.0)


# --- format: only a well-formed call or answer ---------------------------------------------------


def test_format_reward_is_not_given_for_any_text():
    # On a call step, prose is not a well-formed move; neither is a call to a tool not in play,
    # one with argument names the tool does not have, or one missing a required argument.
    junk = [
        "답변",
        "ok",
        call("no_such_tool", {"x": 1}),
        call("kma_getVilageFcst", {"bogus": 1, **KMA_ARGS}),
        call("kma_getVilageFcst", {"base_date": "20261015"}),
    ]
    assert score(rewards.format_reward, junk, KMA_STEP) == [0.0] * len(junk)
    assert score(rewards.format_reward, [RIGHT_KMA], KMA_STEP) == [1.0]


def test_format_reward_on_answer_steps_needs_a_real_answer():
    junk = ["ㅇ", RESULT, REGION_RESULT + "\n" + RESULT, RIGHT_KMA, "<tool_response>\n" + RESULT]
    assert score(rewards.format_reward, junk, ANSWER_STEP) == [0.0] * len(junk)
    assert score(rewards.format_reward, ["종로구의 오늘 최고기온은 21도입니다."], ANSWER_STEP) == [1.0]


# --- KEY / token arguments ----------------------------------------------------------------------


def test_token_argument_is_checked():
    missing = call("neis_schoolInfo", {"SCHUL_NM": "서울고등학교"})
    wrong = call("neis_schoolInfo", {"SCHUL_NM": "서울고등학교", "KEY": "sess-ffffffffffffffff"})
    assert score(rewards.outcome_reward, [missing, wrong], NEIS_STEP) == [0.0, 0.0]
    assert score(rewards.outcome_reward, [call("neis_schoolInfo", NEIS_ARGS)], NEIS_STEP) == [1.0]
    # Partial credit drops too: a right-looking call without its token is not the gold call.
    right_args = score(rewards.argument_reward, [call("neis_schoolInfo", NEIS_ARGS)], NEIS_STEP)[0]
    assert score(rewards.argument_reward, [missing], NEIS_STEP)[0] < right_args


def test_credential_arguments_the_model_must_never_send():
    # The service key is injected by the harness: a call that passes one is not the gold call.
    with_key = call("kma_getVilageFcst", {**KMA_ARGS, "serviceKey": "stolen-or-invented"})
    extra_token = call("kma_getVilageFcst", {**KMA_ARGS, "KEY": TOKEN})
    assert score(rewards.outcome_reward, [with_key, extra_token], KMA_STEP) == [0.0, 0.0]


# --- extra arguments ----------------------------------------------------------------------------


def test_extra_arguments_are_penalised():
    extra = call("kma_getVilageFcst", {**KMA_ARGS, "pageNo": 3})
    assert score(rewards.outcome_reward, [extra], KMA_STEP) == [0.0]
    assert score(rewards.argument_reward, [extra], KMA_STEP)[0] < 1.0
    # Harmless spellings stay exact: the default first page. A number as a string is not harmless:
    # Inspect refuses "60" for the integer nx (tests/grpo/test_schema_types.py).
    same = call("kma_getVilageFcst", {**KMA_ARGS, "pageNo": 1})
    assert score(rewards.outcome_reward, [same], KMA_STEP) == [1.0]
    assert score(rewards.outcome_reward, [call("kma_getVilageFcst", {**KMA_ARGS, "nx": "60"})], KMA_STEP) == [
        0.0
    ]


def test_extra_calls_are_penalised():
    both = RIGHT_KMA + call("dart_company", {"corp_code": "00164779"})
    assert score(rewards.outcome_reward, [both], KMA_STEP) == [0.0]
    assert weighted_total(both, KMA_STEP) < weighted_total(RIGHT_KMA, KMA_STEP) / 2


# --- the answer ---------------------------------------------------------------------------------


def test_pasted_tool_results_earn_no_answer_reward():
    pastes = [
        RESULT,
        REGION_RESULT + "\n" + RESULT,
        "결과입니다:\n" + REGION_RESULT + RESULT,
        "지역: 종로구\n" + RESULT,
    ]
    assert score(rewards.answer_reward, pastes, ANSWER_STEP) == [0.0] * len(pastes)
    assert score(rewards.outcome_reward, pastes, ANSWER_STEP) == [0.0] * len(pastes)
    good = "종로구의 오늘 최고기온은 21도입니다."
    assert score(rewards.answer_reward, [good], ANSWER_STEP) == [1.0]
    assert score(rewards.outcome_reward, [good], ANSWER_STEP) == [1.0]


def test_listing_many_numbers_does_not_earn_the_answer():
    # A shotgun answer: every number in sight. It states 21 but not as the answer.
    shotgun = "종로구 " + " ".join(str(n) for n in range(0, 40))
    assert score(rewards.outcome_reward, [shotgun], ANSWER_STEP) == [0.0]


def test_answer_reward_is_subject_bound():
    facts = [
        {
            "id": "f1",
            "description": "종로구 최고기온",
            "value": "$s1.x",
            "resolved": "21",
            "matcher": "number",
            "subject": "종로구",
            "required": True,
        }
    ]
    r = {**ANSWER_STEP, "facts_json": json.dumps(facts, ensure_ascii=False)}
    wrong_subject = "중구의 최고기온은 21도, 종로구의 최고기온은 25도입니다."
    right = "종로구의 최고기온은 21도, 중구의 최고기온은 25도입니다."
    assert score(rewards.answer_reward, [wrong_subject, right], r) == [0.0, 1.0]
