"""Attacks on the GRPO step rewards and the kopa_steps metrics (issue 11).

Each test is one way a wrong model could earn a reward or a metric, written before the fix: the
attack must earn nothing (or strictly less than the gold move, where a shaped reward is meant to
give partial credit), and a valid alternative of the gold move must still earn full credit.
``attack_table()`` prints every attack's rewards and metrics (the before/after table in
src/kopa_grpo/README.md was made with it: ``python tests/grpo/test_grpo_rewards_attacks.py``).

The tools are the real catalog schemas (key parameters are never in them; NEIS's session token
KEY is). Rows carry the columns data.step_rows writes; ``prompts`` is the rendered prompt text with
the earlier calls in the template's <tool_call> form, as TRL passes it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any

import pytest

from kopa_grpo import rewards
from kopa_inspect.apis import get_operation
from kopa_inspect.apis._schema import auth_tool_schema, tool_schema
from kopa_inspect.steps.parsing import parse_completion
from kopa_inspect.steps.task import step_values

CLOCK = "2026-10-15T15:00:00+09:00"
TOKEN = "sess-00aa11bb22cc33dd"
JONGNO = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}
GANGNAM = {"base_date": "20261015", "base_time": "1400", "nx": 61, "ny": 125}
TOOLS = [
    tool_schema(get_operation(o))
    for o in (
        "kma_getVilageFcst",
        "kma_getUltraSrtNcst",
        "neis_schoolInfo",
        "ecos_StatisticSearch",
        "dart_company",
    )
]
TOOLS.append(auth_tool_schema("neis"))
REGIONS = json.dumps(
    {"items": [{"name": "강남구", "nx": 61, "ny": 125}, {"name": "종로구", "nx": 60, "ny": 127}]},
    ensure_ascii=False,
)
GANGNAM_RESULT = json.dumps(
    {"items": [{"category": "TMX", "fcstDate": "20261015", "fcstValue": "23.0", "nx": 61, "ny": 125}]},
    ensure_ascii=False,
)
# Three days of the forecast: the question asks for today's (the 15th) high.
JONGNO_RESULT = json.dumps(
    {
        "items": [
            {"category": "TMX", "fcstDate": d, "fcstValue": v, "nx": 60, "ny": 127}
            for d, v in (("20261015", "21.0"), ("20261016", "17.0"), ("20261017", "14.0"))
        ]
    },
    ensure_ascii=False,
)
FACTS = [
    {
        "id": "f1",
        "description": "종로구 오늘 최고기온",
        "value": "$s2.items[0].fcstValue",
        "resolved": "21.0",
        "matcher": "number",
        "tolerance": 0.5,
        "subject": "종로구",
        "required": True,
    }
]


def call(name: str, args: dict[str, Any], template: str = "<tool_call>{}</tool_call>") -> str:
    return template.format(json.dumps({"name": name, "arguments": args}, ensure_ascii=False))


def prompt(*history: str) -> str:
    """A ChatML prompt whose assistant turns made the ``history`` calls (as hf_render writes it)."""
    turns = "".join(
        f"<|im_start|>assistant\n{h}<|im_end|>\n<|im_start|>user\n<tool_response>\n{{}}\n"
        "</tool_response><|im_end|>\n"
        for h in history
    )
    return (
        "<|im_start|>system\n도구를 사용하세요.<|im_end|>\n<|im_start|>user\n"
        f"종로구와 강남구의 오늘 최고기온을 알려 주세요.<|im_end|>\n{turns}<|im_start|>assistant\n"
    )


def row(
    kind: str,
    targets: list,
    results: list[str],
    facts: list | None = None,
    tokens: dict | None = None,
    history: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "prompt": prompt(*history),
        "kind": kind,
        "target_calls_json": json.dumps(targets, ensure_ascii=False),
        "facts_json": json.dumps(facts if facts is not None else FACTS, ensure_ascii=False),
        "tools_json": json.dumps(TOOLS, ensure_ascii=False),
        "tool_results_json": json.dumps(results, ensure_ascii=False),
        "session_tokens_json": json.dumps(tokens or {}),
        "clock": CLOCK,
        "seed": 0,
    }


# The second district's forecast, after the first one's was fetched.
CALL_STEP = row(
    "call",
    [["kma_getVilageFcst", JONGNO]],
    [REGIONS, GANGNAM_RESULT],
    history=(call("kma_getVilageFcst", GANGNAM),),
)
NEIS_STEP = row(
    "call",
    [["neis_schoolInfo", {"SCHUL_NM": "서울고등학교", "KEY": TOKEN}]],
    [json.dumps({"token": TOKEN})],
    tokens={"neis": TOKEN},
    history=(call("neis_get_api_key", {}),),
)
ECOS_ARGS = {
    "STAT_CODE": "722Y001",
    "CYCLE": "D",
    "START_DATE": "20261001",
    "END_DATE": "20261015",
    "ITEM_CODE1": "0101000",
}
ECOS_STEP = row("call", [["ecos_StatisticSearch", ECOS_ARGS]], [])
DART_STEP = row("call", [["dart_company", {"corp_code": "00164779"}]], [])
ANSWER_STEP = row(
    "answer",
    [],
    [REGIONS, GANGNAM_RESULT, JONGNO_RESULT],
    history=(call("kma_getVilageFcst", GANGNAM), call("kma_getVilageFcst", JONGNO)),
)
GOLD = call("kma_getVilageFcst", JONGNO)
GOLD_ANSWER = "종로구의 오늘 최고기온은 21도입니다."

NAMES = ["outcome", "format", "tool_name", "arguments", "execution", "answer"]
WEIGHTS = [1.0, 0.2, 0.2, 0.3, 0.3, 0.5]  # the grpo-cpu config's reward_weights


_FUNCS: list[Any] = []


def rewards_of(completion: str, r: dict[str, Any]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    cols = {k: [v] for k, v in r.items() if k != "prompt"}
    if not _FUNCS:  # one emulator backend for the module
        _FUNCS.extend(rewards.build_reward_funcs(NAMES))
    for name, fn in zip(NAMES, _FUNCS, strict=True):
        v = fn(prompts=[r["prompt"]], completions=[completion], **cols)
        out[name] = (asyncio.run(v) if asyncio.iscoroutine(v) else v)[0]
    return out


def total(completion: str, r: dict[str, Any]) -> float:
    return sum(w * (v or 0.0) for w, v in zip(WEIGHTS, rewards_of(completion, r).values(), strict=True))


def metrics_of(completion: str, r: dict[str, Any]) -> dict[str, float]:
    step = {
        "kind": r["kind"],
        "target_calls": json.loads(r["target_calls_json"]),
        "facts": json.loads(r["facts_json"]),
        "tool_results": json.loads(r["tool_results_json"]),
    }
    return step_values(parse_completion(completion), step)


# --- the attacks: (name, completion, row, gold move of that row) -----------------------------------

SHOTGUN = GOLD + call("kma_getUltraSrtNcst", JONGNO) + call("dart_company", {"corp_code": "00164779"})
TWICE = GOLD + GOLD
CALL_AND_ANSWER = GOLD + "\n종로구의 오늘 최고기온은 21도입니다."
WRAPPED = "종로구의 오늘 최고기온은 " + GOLD + " 21도입니다."
OTHER_ROW = call("kma_getVilageFcst", GANGNAM)  # the other district's grid: a replay too
SWAPPED_NAMES = call("kma_getVilageFcst", {**JONGNO, "nx": 127, "ny": 60})
OTHER_ROW_NO_REPLAY = call("kma_getVilageFcst", {**JONGNO, "nx": 61})
AUTH_AGAIN = call("neis_get_api_key", {})
LISTING = "종로구의 최고기온은 21도, 17도, 14도입니다."
LISTING_BARE = "최고기온: 21, 17, 14, 23"
HEDGE = "종로구의 오늘 최고기온은 21도 또는 17도입니다."
FENCED = "```\n종로구의 오늘 최고기온은 21도입니다.\n```"
REFUSAL = "죄송하지만 종로구의 오늘 최고기온은 알 수 없습니다."
BARE_JSON = json.dumps({"name": "kma_getVilageFcst", "arguments": JONGNO})
FAKE_TOOL = call("kma_getWeatherToday", JONGNO)
IN_PROSE = "먼저 예보를 조회하겠습니다. " + GOLD + " 결과를 보고 답하겠습니다."
UNCLOSED = GOLD.replace("</tool_call>", "")
STRAY_CLOSE = GOLD.replace("<tool_call>", "")
SERVICE_KEY = call("kma_getVilageFcst", {**JONGNO, "serviceKey": "invented-0123456789"})
ECOS_KEY = call("ecos_StatisticSearch", {**ECOS_ARGS, "KEY": "sample"})
NEIS_FAKE_TOKEN = call("neis_schoolInfo", {"SCHUL_NM": "서울고등학교", "KEY": "sess-ffffffffffffffff"})

ATTACKS: list[tuple[str, str, dict[str, Any], str]] = [
    ("1 shotgun: gold + 2 unrelated calls", SHOTGUN, CALL_STEP, GOLD),
    ("1 gold call twice", TWICE, CALL_STEP, GOLD),
    ("2 call + final answer (call step)", CALL_AND_ANSWER, CALL_STEP, GOLD),
    ("2 answer wrapped around a call (answer step)", WRAPPED, ANSWER_STEP, GOLD_ANSWER),
    ("3 value from the other row (nx of 강남구)", OTHER_ROW_NO_REPLAY, CALL_STEP, GOLD),
    ("3 right values under swapped names (nx<->ny)", SWAPPED_NAMES, CALL_STEP, GOLD),
    ("4 replay of the history's call (other district)", OTHER_ROW, CALL_STEP, GOLD),
    (
        "4 auth tool again (gold: schoolInfo)",
        AUTH_AGAIN,
        NEIS_STEP,
        call("neis_schoolInfo", {"SCHUL_NM": "서울고등학교", "KEY": TOKEN}),
    ),
    ("5 raw dump of the results", JONGNO_RESULT, ANSWER_STEP, GOLD_ANSWER),
    ("5 every row's figure, none picked", LISTING, ANSWER_STEP, GOLD_ANSWER),
    ("5 bare list of the figures", LISTING_BARE, ANSWER_STEP, GOLD_ANSWER),
    ("5 'A 또는 B' hedge", HEDGE, ANSWER_STEP, GOLD_ANSWER),
    ("5 empty / whitespace answer", "   \n ", ANSWER_STEP, GOLD_ANSWER),
    ("5 answer in a code fence", FENCED, ANSWER_STEP, GOLD_ANSWER),
    ("5 refusal where the facts are known", REFUSAL, ANSWER_STEP, GOLD_ANSWER),
    ("6 bare JSON call, no tags", BARE_JSON, CALL_STEP, GOLD),
    ("6 call to a tool not in the tools", FAKE_TOOL, CALL_STEP, GOLD),
    ("6 call inside prose", IN_PROSE, CALL_STEP, GOLD),
    ("6 unclosed tag", UNCLOSED, CALL_STEP, GOLD),
    ("6 stray closing tag", STRAY_CLOSE, CALL_STEP, GOLD),
    ("7 invented serviceKey", SERVICE_KEY, CALL_STEP, GOLD),
    ("7 ECOS KEY 'sample' passed by the model", ECOS_KEY, ECOS_STEP, call("ecos_StatisticSearch", ECOS_ARGS)),
    (
        "7 invented NEIS session token",
        NEIS_FAKE_TOKEN,
        NEIS_STEP,
        call("neis_schoolInfo", {"SCHUL_NM": "서울고등학교", "KEY": TOKEN}),
    ),
]


def attack_table() -> list[str]:
    lines = [
        "| attack | weighted reward (gold 2.0 call / 1.9 answer) | outcome | format | tool_name | arguments | execution "
        "| answer | metrics parse/kind/tool/exact/answer |",
        "|" + "---|" * 9,
    ]

    def fmt(v: float | None) -> str:
        return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.2f}"

    for name, attack, r, _gold in ATTACKS:
        rw, m = rewards_of(attack, r), metrics_of(attack, r)
        lines.append(
            f"| {name} | {total(attack, r):.2f} | "
            + " | ".join(fmt(v) for v in rw.values())
            + " | "
            + "/".join(fmt(m[k]) for k in ("parse", "kind", "tool_name", "exact", "answer"))
            + " |"
        )
    return lines


# --- the tests --------------------------------------------------------------------------------------


def test_gold_moves_earn_full_credit():
    assert total(GOLD, CALL_STEP) == pytest.approx(2.0)
    assert total(GOLD_ANSWER, ANSWER_STEP) == pytest.approx(1.9)  # arguments, execution: not applicable
    assert metrics_of(GOLD, CALL_STEP) == {
        "parse": 1.0,
        "kind": 1.0,
        "tool_name": 1.0,
        "exact": 1.0,
        "answer": pytest.approx(float("nan"), nan_ok=True),
    }
    assert metrics_of(GOLD_ANSWER, ANSWER_STEP)["answer"] == 1.0


def test_shotgun_and_repeated_calls():
    for attack in (SHOTGUN, TWICE):
        rw, m = rewards_of(attack, CALL_STEP), metrics_of(attack, CALL_STEP)
        assert rw["outcome"] == 0.0 and rw["format"] == 0.0
        assert m["exact"] == 0.0 and m["tool_name"] == 0.0
        # Diluted shaped credit: each shaped reward at most half of the gold move's.
        assert all(rw[k] <= 0.5 for k in ("tool_name", "arguments", "execution"))
        assert total(attack, CALL_STEP) <= 0.5


def test_a_move_is_calls_or_an_answer_never_both():
    rw, m = rewards_of(CALL_AND_ANSWER, CALL_STEP), metrics_of(CALL_AND_ANSWER, CALL_STEP)
    assert total(CALL_AND_ANSWER, CALL_STEP) == 0.0 and m["exact"] == 0.0 and m["parse"] == 0.0
    assert total(WRAPPED, ANSWER_STEP) == 0.0 and metrics_of(WRAPPED, ANSWER_STEP)["answer"] == 0.0
    assert rw["outcome"] == 0.0
    # Reasoning before the call is not prose of the move (Qwen3's empty or filled think block).
    for thought in ("<think>\n\n</think>\n\n", "<think>종로구 격자는 60, 127이다.</think>\n"):
        assert total(thought + GOLD, CALL_STEP) == pytest.approx(2.0)
        assert metrics_of(thought + GOLD, CALL_STEP)["exact"] == 1.0


def test_a_value_from_elsewhere_is_not_the_call():
    for attack in (OTHER_ROW_NO_REPLAY, SWAPPED_NAMES):
        rw, m = rewards_of(attack, CALL_STEP), metrics_of(attack, CALL_STEP)
        assert rw["outcome"] == 0.0 and m["exact"] == 0.0
        assert m["tool_name"] == 1.0  # the tool is right: that is what the metric measures
        # The emulator answers the wrong grid OK, but not with the gold call's rows.
        assert rw["execution"] == 0.0
        assert rw["arguments"] < 1.0
        assert total(attack, CALL_STEP) < 1.0


def test_a_replay_of_the_history_earns_nothing():
    assert total(OTHER_ROW, CALL_STEP) == 0.0
    assert metrics_of(OTHER_ROW, CALL_STEP)["exact"] == 0.0
    assert total(AUTH_AGAIN, NEIS_STEP) == 0.0
    # The same call is right where the gold repeats it (a retry of a failed call, say).
    retry = row("call", [["kma_getVilageFcst", JONGNO]], [REGIONS], history=(GOLD,))
    assert total(GOLD, retry) == pytest.approx(2.0)
    # The history is read from conversational prompts too (TRL's message lists).
    conv = [
        {"role": "user", "content": "q"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": "kma_getVilageFcst", "arguments": json.dumps(GANGNAM)},
                }
            ],
        },
        {"role": "tool", "content": "{}"},
    ]
    fn = rewards.format_reward
    cols = {k: [v] for k, v in CALL_STEP.items() if k != "prompt"}
    assert fn(prompts=[conv], completions=[OTHER_ROW], **cols) == [0.0]
    assert fn(prompts=[conv], completions=[GOLD], **cols) == [1.0]


@pytest.mark.parametrize(
    "attack", [JONGNO_RESULT, LISTING, LISTING_BARE, HEDGE, "", "   \n ", FENCED, REFUSAL]
)
def test_answer_attacks_earn_nothing(attack):
    rw, m = rewards_of(attack, ANSWER_STEP), metrics_of(attack, ANSWER_STEP)
    assert (rw["outcome"], rw["format"], rw["answer"], m["answer"]) == (0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("attack", [BARE_JSON, FAKE_TOOL, IN_PROSE, UNCLOSED, STRAY_CLOSE])
def test_format_reward_only_for_a_real_call(attack):
    assert total(attack, CALL_STEP) == 0.0
    assert metrics_of(attack, CALL_STEP)["exact"] == 0.0
    if attack is not FAKE_TOOL:  # a call to an unknown tool parses; the others are not a move
        assert metrics_of(attack, CALL_STEP)["kind"] == 0.0


def test_well_formed_calls_in_the_models_templates():
    for template in (
        "<tool_call>\n{}\n</tool_call>",
        "<tool_call>{}</tool_call>\n",
        "\n<tool_call> {} </tool_call>",
    ):
        completion = call("kma_getVilageFcst", JONGNO, template)
        assert rewards_of(completion, CALL_STEP)["format"] == 1.0
        assert total(completion, CALL_STEP) == pytest.approx(2.0)
    conv = [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": "kma_getVilageFcst", "arguments": json.dumps(JONGNO)},
                }
            ],
        }
    ]
    cols = {k: [v] for k, v in CALL_STEP.items() if k != "prompt"}
    assert rewards.format_reward(prompts=[CALL_STEP["prompt"]], completions=[conv], **cols) == [1.0]


def test_model_provided_secrets_earn_nothing_and_are_never_logged(caplog, capsys):
    caplog.set_level(logging.DEBUG)
    for attack, r in ((SERVICE_KEY, CALL_STEP), (ECOS_KEY, ECOS_STEP), (NEIS_FAKE_TOKEN, NEIS_STEP)):
        rw = rewards_of(attack, r)
        assert rw["outcome"] == 0.0 and rw["format"] == 0.0 and rw["execution"] == 0.0
        assert total(attack, r) < 0.5
        assert metrics_of(attack, r)["exact"] == 0.0
    out = capsys.readouterr()
    for secret in ("invented-0123456789", "sess-ffffffffffffffff"):
        assert secret not in caplog.text + out.out + out.err
    # The session token the auth tool issued is the gold argument: copying it is the move.
    right = call("neis_schoolInfo", {"KEY": TOKEN, "SCHUL_NM": "서울고등학교"})
    assert rewards_of(right, NEIS_STEP)["outcome"] == 1.0


def test_execution_reward_never_sends_a_model_provided_key(monkeypatch):
    sent: list[dict[str, Any]] = []
    from kopa_inspect import execution

    real = execution.Session.call

    async def spy(self, op_id, args):
        sent.append(dict(args))
        return await real(self, op_id, args)

    monkeypatch.setattr(execution.Session, "call", spy)
    rewards_of(SERVICE_KEY, CALL_STEP)
    rewards_of(ECOS_KEY, ECOS_STEP)
    assert all("serviceKey" not in a and a.get("KEY") != "sample" for a in sent)


def test_valid_alternatives_earn_full_credit():
    reordered = (
        "<tool_call>"
        + json.dumps({"arguments": dict(reversed(list(JONGNO.items()))), "name": "kma_getVilageFcst"})
        + "</tool_call>"
    )
    first_page = call("kma_getVilageFcst", {**JONGNO, "pageNo": 1})
    for alt in (reordered, first_page):
        assert total(alt, CALL_STEP) == pytest.approx(2.0), alt
        assert metrics_of(alt, CALL_STEP)["exact"] == 1.0
    # "60" for the integer grid nx is no alternative: Inspect refuses it (tests/grpo/test_schema_types.py).
    as_strings = call("kma_getVilageFcst", {**JONGNO, "nx": "60", "ny": "127"})
    assert metrics_of(as_strings, CALL_STEP)["exact"] == 0.0 and total(as_strings, CALL_STEP) < 1.0
    # A code's leading zeros are part of it: 164779 is not corp_code 00164779.
    assert rewards_of(call("dart_company", {"corp_code": 164779}), DART_STEP)["outcome"] == 0.0
    assert rewards_of(call("dart_company", {"corp_code": "00164779"}), DART_STEP)["outcome"] == 1.0
    for answer in (
        "오늘 종로구는 낮 최고 21도까지 오르겠습니다.",
        "종로구 최고기온: 21℃",
        "종로구는 오늘 최고 21.0도예요.",
    ):
        assert rewards_of(answer, ANSWER_STEP)["answer"] == 1.0, answer
        assert metrics_of(answer, ANSWER_STEP)["answer"] == 1.0, answer


def test_a_gold_wave_that_repeats_a_call_keeps_its_credit():
    # Two districts on one forecast grid (KOPA-Bench kopa-098): the gold wave itself calls twice.
    r = {**CALL_STEP, "target_calls_json": json.dumps([["kma_getVilageFcst", JONGNO]] * 2)}
    assert total(TWICE, r) == pytest.approx(2.0)
    assert rewards_of(GOLD + GOLD + GOLD, r)["format"] == 0.0


def test_a_date_in_another_accepted_form():
    facts = [
        {
            "id": "f1",
            "description": "종로구 예보 날짜",
            "value": "$s2.items[0].fcstDate",
            "resolved": "20261015",
            "matcher": "date",
            "subject": "종로구",
            "required": True,
        }
    ]
    r = {**ANSWER_STEP, "facts_json": json.dumps(facts, ensure_ascii=False)}
    for answer in ("종로구 예보는 2026년 10월 15일 것입니다.", "종로구 예보 날짜는 2026-10-15입니다."):
        assert rewards_of(answer, r)["answer"] == 1.0, answer
    assert rewards_of("종로구 예보는 2026년 10월 16일 것입니다.", r)["answer"] == 0.0


# --- the matcher itself (kopa_inspect.matching): what the step scorer closes with the shown rows, the
# KOPA-Bench scorer, which has no competitors for a single-valued fact, still passes -----------------


@pytest.mark.parametrize("attack", [HEDGE, LISTING])
def test_matcher_rejects_several_figures_for_one_value(attack):
    from kopa_inspect import matching

    fact = {**FACTS[0], "value": "21.0"}
    assert matching.score_answer([fact], {"f1": "21.0"}, attack)["f1"] == 0.0


if __name__ == "__main__":
    print("\n".join(attack_table()))
