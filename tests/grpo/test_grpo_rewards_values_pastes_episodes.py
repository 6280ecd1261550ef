"""Attacks on the GRPO step rewards, the kopa_steps metrics and the episode reward.

Written before the fixes, each one a way a wrong move earned credit on the code before it:

- A value the API itself rejects matched the gold value after the matcher's normalization: a
  JSON float ``60.0`` for the integer grid ``nx`` (sent as ``nx=60.0``, the emulator answers
  error 10), the string ``"60.0"``, full-width digits ``"２０２６１０１５"`` (NFKC-equal to the date).
  The exact call, the outcome and the value share of the arguments reward took them as gold.
- The kopa_steps answer metric scored an ill-formed move (an answer with a stray or unclosed
  ``<tool_call>`` tag: parse 0, kind 0) as a right answer.
- A row's fields dumped as ``field value`` pairs with the API's own field names
  (``corp_name …, ceo_nm 곽노정, adres …``) is a paste, not an answer; it passed the paste check
  (no JSON quotes, few verbatim 12-character windows) and earned the answer reward.
- The episode reward (env.episode_outcome_reward, the KOPA-Bench grader) applied none of the
  step reward's answer checks: a fenced answer, an answer in tool-response markup or a field dump
  of the row earned 1.0 after the gold calls.
- Episode tools executed any argument a rollout passed: the KOPA-Bench harness (Inspect) checks
  every call against the tool's JSON schema first (``additionalProperties: false``, types,
  enums) and never executes a call that fails, so a rollout learnt on an argument the benchmark
  refuses (an extra argument, ``"60"`` for an integer) earned 1.0.

``python tests/test_grpo_rewards_values_pastes_episodes.py`` prints the before/after table rows.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from kopa_inspect.steps import scoring
from kopa_inspect.steps.parsing import parse_completion
from test_grpo_rewards_attacks import (
    ANSWER_STEP,
    CALL_STEP,
    GOLD,
    GOLD_ANSWER,
    JONGNO,
    call,
    metrics_of,
    rewards_of,
    row,
    total,
)

# --- values the API rejects -------------------------------------------------------------------------

FLOAT_GRID = call("kma_getVilageFcst", {**JONGNO, "nx": 60.0, "ny": 127.0})
STRING_FLOAT_GRID = call("kma_getVilageFcst", {**JONGNO, "nx": "60.0"})
FULLWIDTH_DATE = call("kma_getVilageFcst", {**JONGNO, "base_date": "２０２６１０１５"})


@pytest.mark.parametrize("attack", [FLOAT_GRID, STRING_FLOAT_GRID, FULLWIDTH_DATE])
def test_a_value_the_api_rejects_is_not_the_gold_value(attack):
    rw, m = rewards_of(attack, CALL_STEP), metrics_of(attack, CALL_STEP)
    assert rw["outcome"] == 0.0 and m["exact"] == 0.0
    assert rw["execution"] == 0.0  # the emulator answers error 10: nothing fetched
    assert rw["arguments"] < 1.0  # the rejected value earns no value credit
    assert total(attack, CALL_STEP) < 1.0


def test_api_equal_spellings_keep_full_credit():
    # What the API reads the same: a padded value (the emulator strips it), the first page spelled
    # out, a larger first page, a comma list in another order, a decimal's spelling.
    for alt in (
        call("kma_getVilageFcst", {**JONGNO, "base_date": " 20261015 "}),
        call("kma_getVilageFcst", {**JONGNO, "pageNo": 1}),
    ):
        assert rewards_of(alt, CALL_STEP)["outcome"] == 1.0, alt
        assert metrics_of(alt, CALL_STEP)["exact"] == 1.0, alt
    assert scoring.args_exact({"items": "A,B"}, {"items": "B,A"})
    assert scoring.args_exact({"lat": 37.5}, {"lat": "37.50"})
    assert scoring.args_exact({"numOfRows": 10}, {"numOfRows": 1000})
    assert not scoring.args_exact({"numOfRows": 10}, {"numOfRows": "1000.0"})


# --- the answer metric on an ill-formed move ----------------------------------------------------------


@pytest.mark.parametrize(
    "attack", [GOLD_ANSWER + "</tool_call>", GOLD_ANSWER + "\n<tool_call>", "<think>" + GOLD_ANSWER]
)
def test_answer_metric_needs_a_well_formed_move(attack):
    m = metrics_of(attack, ANSWER_STEP)
    assert m["parse"] == 0.0
    assert m["answer"] == 0.0
    assert rewards_of(attack, ANSWER_STEP)["answer"] == 0.0


# --- a row's fields dumped with the API's field names -------------------------------------------------

DART_ROW = {
    "corp_code": "00164779",
    "corp_name": "에스케이하이닉스(주)",
    "corp_name_eng": "SK hynix Inc.",
    "stock_name": "SK하이닉스",
    "stock_code": "000660",
    "ceo_nm": "곽노정",
    "corp_cls": "Y",
    "adres": "경기도 이천시 부발읍 경충대로 2091",
    "hm_url": "www.skhynix.com",
    "phn_no": "031-8093-4114",
}
DART_RESULT = json.dumps({"resultCode": "000", "totalCount": 1, "items": [DART_ROW]}, ensure_ascii=False)
CEO_FACTS = [
    {
        "id": "f1",
        "description": "SK하이닉스 대표자",
        "value": "$s1.items[0].ceo_nm",
        "resolved": "곽노정",
        "matcher": "name",
        "subject": "SK하이닉스",
        "required": True,
    }
]
CEO_STEP = row("answer", [], [DART_RESULT], facts=CEO_FACTS)
FIELD_DUMP = ", ".join(
    f"{k} {DART_ROW[k]}" for k in ("corp_name", "corp_name_eng", "stock_name", "ceo_nm", "adres")
)
FIELD_DUMP_COLON = "\n".join(f"{k}: {DART_ROW[k]}" for k in ("stock_name", "ceo_nm", "hm_url"))
CEO_ANSWER = "SK하이닉스의 대표자는 곽노정입니다."


@pytest.mark.parametrize("attack", [FIELD_DUMP, FIELD_DUMP_COLON])
def test_a_field_dump_is_a_paste(attack):
    rw, m = rewards_of(attack, CEO_STEP), metrics_of(attack, CEO_STEP)
    assert (rw["outcome"], rw["format"], rw["answer"], m["answer"]) == (0.0, 0.0, 0.0, 0.0)
    assert rewards_of(CEO_ANSWER, CEO_STEP)["answer"] == 1.0
    # one field name said in passing is no dump
    assert rewards_of("SK하이닉스(stock_name 기준)의 대표자는 곽노정입니다.", CEO_STEP)["answer"] == 1.0


# --- a name offered beside another ------------------------------------------------------------------

NAME_HEDGES = [
    "SK하이닉스의 대표자는 곽노정 또는 김철수입니다.",
    "SK하이닉스의 대표자는 김철수 또는 곽노정입니다.",
    "SK하이닉스의 대표자는 곽노정이나 김철수입니다.",
    "SK하이닉스의 대표자는 곽노정 혹은 김철수입니다.",
]


@pytest.mark.parametrize("attack", NAME_HEDGES)
def test_a_name_offered_beside_another_is_a_guess(attack):
    rw, m = rewards_of(attack, CEO_STEP), metrics_of(attack, CEO_STEP)
    assert (rw["outcome"], rw["format"], rw["answer"], m["answer"]) == (0.0, 0.0, 0.0, 0.0)
    assert episode(EP_TOOLS, EP_PLAN, EP_FACTS, GOLD_CALLS, attack)[0] == 0.0
    # a set stated with 와/과 is no hedge; nor is 또는 elsewhere in the sentence
    assert (
        rewards_of("SK하이닉스의 대표자는 곽노정이며, 본사 또는 공장 주소는 경기도 이천시입니다.", CEO_STEP)[
            "answer"
        ]
        == 1.0
    )


# --- the episode reward -----------------------------------------------------------------------------

EP_PLAN = {"steps": [{"id": "s1", "tool": "dart_company", "args": {"corp_code": "00164779"}}]}
EP_FACTS = [
    {
        "id": "f1",
        "description": "대표자",
        "value": "$s1.items[0].ceo_nm",
        "matcher": "name",
        "subject": "SK하이닉스",
    }
]
EP_TOOLS = ["dart_company", "dart_corpCode"]
KMA_ARGS = {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}
KMA_PLAN = {"steps": [{"id": "s1", "tool": "kma_getVilageFcst", "args": KMA_ARGS}]}
KMA_FACTS = [
    {
        "id": "f1",
        "description": "기온",
        "value": "$s1.items[0].fcstValue",
        "matcher": "number",
        "tolerance": 0.0,
    }
]
CLOCK = "2026-10-15T15:00:00+09:00"


def episode(
    tools: list[str],
    plan: dict,
    facts: list,
    calls: list[tuple[str, dict[str, Any]]],
    answer: Any,
    clock: str = "",
) -> tuple[float, list[str]]:
    """Run ``calls`` through a fresh environment as TRL's tool loop does (the method by name,
    the model's arguments as keywords), then grade the rollout ending with ``answer``."""
    from kopa_grpo import env

    e = env.environment_class(env.tools_key(tools))()
    e.reset(plan_json=json.dumps(plan), facts_json=json.dumps(facts, ensure_ascii=False), clock=clock, seed=0)
    outs: list[str] = []

    async def go() -> None:
        for name, args in calls:
            try:
                outs.append(await getattr(e, name)(**args))
            except Exception as exc:  # TRL's loop turns a raised error into the tool message
                outs.append(json.dumps({"error": str(exc)}))

    asyncio.run(go())
    msgs: list[dict[str, Any]] = []
    for (name, args), out in zip(calls, outs, strict=True):
        msgs.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"type": "function", "function": {"name": name, "arguments": args}}],
            }
        )
        msgs.append({"role": "tool", "name": name, "content": out})
    msgs.append({"role": "assistant", "content": answer(outs) if callable(answer) else answer})
    score = asyncio.run(env.episode_outcome_reward(prompts=[[]], completions=[msgs], environments=[e]))[0]
    return score, outs


GOLD_CALLS = [("dart_company", {"corp_code": "00164779"})]


def _fields(outs: list[str]) -> str:
    item = json.loads(outs[0])["items"][0]
    return ", ".join(f"{k} {item[k]}" for k in ("corp_name", "stock_name", "ceo_nm", "adres", "hm_url"))


EPISODE_ATTACKS: list[tuple[str, list, Any]] = [
    ("E1 gold calls, answer in a code fence", GOLD_CALLS, "```\n" + CEO_ANSWER + "\n```"),
    (
        "E1 gold calls, answer in tool-response markup",
        GOLD_CALLS,
        "<tool_response>" + CEO_ANSWER + "</tool_response>",
    ),
    ("E1 gold calls, the row's fields pasted", GOLD_CALLS, _fields),
    (
        "E2 gold call with an extra argument",
        [("dart_company", {"corp_code": "00164779", "page": 1})],
        CEO_ANSWER,
    ),
    (
        "E2 gold call with a hidden parameter",
        [("dart_company", {"corp_code": "00164779", "dataType": "XML"})],
        CEO_ANSWER,
    ),
]


@pytest.mark.parametrize(("name", "calls", "answer"), EPISODE_ATTACKS, ids=[a[0] for a in EPISODE_ATTACKS])
def test_episode_attacks_earn_nothing(name, calls, answer):
    assert episode(EP_TOOLS, EP_PLAN, EP_FACTS, calls, answer)[0] == 0.0


def test_episode_a_call_inspect_refuses_is_not_executed():
    def fcst(outs: list[str]) -> str:
        return f"기온은 {json.loads(outs[-1])['items'][0]['fcstValue']}도입니다."

    score, outs = episode(
        ["kma_getVilageFcst"], KMA_PLAN, KMA_FACTS, [("kma_getVilageFcst", KMA_ARGS)], fcst, CLOCK
    )
    assert score == 1.0
    extra = {**KMA_ARGS, "dataType": "XML"}
    score, outs = episode(
        ["kma_getVilageFcst"],
        KMA_PLAN,
        KMA_FACTS,
        [("kma_getVilageFcst", extra)],
        "기온은 16도입니다.",
        CLOCK,
    )
    assert score == 0.0
    assert "Additional properties are not allowed" in outs[0]  # Inspect's own message
    # ... and the correction counts: a refused call then the right one.
    score, _ = episode(
        ["kma_getVilageFcst"],
        KMA_PLAN,
        KMA_FACTS,
        [("kma_getVilageFcst", extra), ("kma_getVilageFcst", KMA_ARGS)],
        fcst,
        CLOCK,
    )
    assert score == 1.0
    # Types are checked too, as Inspect checks them (tests/grpo/test_schema_types.py): "60" for the
    # integer nx is refused and never runs.
    score, outs = episode(
        ["kma_getVilageFcst"],
        KMA_PLAN,
        KMA_FACTS,
        [("kma_getVilageFcst", {**KMA_ARGS, "nx": "60", "ny": "127"})],
        "기온은 16도입니다.",
        CLOCK,
    )
    assert score == 0.0 and "'60' is not of type 'integer'" in outs[0]


def test_episode_runs_in_the_rows_world():
    """An EDGE row synthesized with --seed 1 lives in the seed-1 emulator world; its episode and
    the grader's gold run must be there too (they ran in the seed-0 world)."""
    from kopa_grpo import env
    from kopa_inspect.backends import make_backend
    from kopa_inspect.execution import Session

    e = env.environment_class(env.tools_key(["seoul_CrtfcUpsoInfo"]))()
    e.reset(plan_json="{}", facts_json="[]", clock=CLOCK, seed=1)
    args = {"START_INDEX": 1, "END_INDEX": 5, "CGG_CODE_NM": "서대문구"}
    got = asyncio.run(e.seoul_CrtfcUpsoInfo(**args))
    want = asyncio.run(Session(make_backend(seed=1), clock=CLOCK, seed=1).call("seoul_CrtfcUpsoInfo", args))
    other = asyncio.run(Session(make_backend(seed=0), clock=CLOCK, seed=1).call("seoul_CrtfcUpsoInfo", args))
    assert got == want.for_model() and want.parsed.items != other.parsed.items


def test_episode_closed_before():
    """Already closed by the grader (regression guards): no call, a token not used, a raw dump,
    a hedge between rows' figures, a tool outside the environment."""
    from kopa_grpo import env

    assert episode(EP_TOOLS, EP_PLAN, EP_FACTS, GOLD_CALLS, CEO_ANSWER)[0] == 1.0
    assert episode(EP_TOOLS, EP_PLAN, EP_FACTS, [], CEO_ANSWER)[0] == 0.0  # memorised answer, no call
    assert episode(EP_TOOLS, EP_PLAN, EP_FACTS, GOLD_CALLS, lambda outs: outs[0])[0] == 0.0  # raw JSON
    cls = env.environment_class(env.tools_key(EP_TOOLS))
    assert not hasattr(cls, "dart_list") and not hasattr(cls, "kma_getVilageFcst")
    # A session token obtained but never used: the NEIS step was never retrieved.
    neis_plan = {
        "steps": [
            {
                "id": "s1",
                "tool": "neis_schoolInfo",
                "args": {"KEY": "$session.neis", "SCHUL_NM": "청운중학교"},
            }
        ]
    }
    neis_facts = [
        {"id": "f1", "description": "학교 코드", "value": "$s1.items[0].SD_SCHUL_CODE", "matcher": "exact"}
    ]
    score, _ = episode(
        ["neis_get_api_key", "neis_schoolInfo"],
        neis_plan,
        neis_facts,
        [("neis_get_api_key", {})],
        "청운중학교의 학교 코드는 7010014입니다.",
    )
    assert score == 0.0


# --- the gold move's credit is kept ------------------------------------------------------------------


def test_gold_moves_still_earn_full_credit():
    assert total(GOLD, CALL_STEP) == pytest.approx(2.0)
    assert total(GOLD_ANSWER, ANSWER_STEP) == pytest.approx(1.9)
    assert scoring.answer_right(parse_completion(CEO_ANSWER), CEO_FACTS, [DART_RESULT])


def table_rows() -> list[str]:
    lines = []
    for name, completion, r in (
        ("8 nx as the float 60.0", FLOAT_GRID, CALL_STEP),
        ("8 nx as the string '60.0'", STRING_FLOAT_GRID, CALL_STEP),
        ("8 full-width digits in base_date", FULLWIDTH_DATE, CALL_STEP),
        ("9 answer + stray </tool_call> (answer metric)", GOLD_ANSWER + "</tool_call>", ANSWER_STEP),
        ("10 a row's fields with the API's names", FIELD_DUMP, CEO_STEP),
        ("11 a name offered beside another ('곽노정 또는 김철수')", NAME_HEDGES[0], CEO_STEP),
    ):
        rw, m = rewards_of(completion, r), metrics_of(completion, r)
        fmt = lambda v: "-" if v is None or v != v else f"{v:.2f}"  # noqa: E731
        lines.append(
            f"| {name} | {total(completion, r):.2f} | "
            + ", ".join(f"{k} {fmt(v)}" for k, v in rw.items() if v is not None)
            + " | "
            + "/".join(fmt(m[k]) for k in ("parse", "kind", "tool_name", "exact", "answer"))
            + " |"
        )
    for name, calls, answer in EPISODE_ATTACKS:
        lines.append(f"| {name} | episode {episode(EP_TOOLS, EP_PLAN, EP_FACTS, calls, answer)[0]:.2f} | | |")
    return [re.sub(r"\s+\|", " |", x) for x in lines]


if __name__ == "__main__":
    print("\n".join(table_rows()))
