"""Argument types: a call Inspect refuses earns nothing; every gold call is one Inspect accepts.

Inspect validates a tool call's arguments against the tool's JSON schema before the tool runs
(inspect_ai.model._call_tools.validate_tool_input, jsonschema Draft 7) and answers ``"60"`` for an
integer with a parsing error: the call never reaches the API. Written before the fix:

- the GRPO rewards and the kopa_steps exact/outcome metrics gave ``"60"`` for the integer ``nx``
  (and tourapi ``contentTypeId`` 12 where the schema lists the strings "12", ...) full credit;
- the episode environment executed it;
- gold calls were stored as the plan resolved them: 30 of 221 KOPA-Bench gold call steps break
  their schema (a TM coordinate "203415.195995" for a number, TAGO citycode 25 for a string
  cityCode, content type 12), and EDGE's messages/gold_calls_json likewise (mapX "127.041900").

The gold side is written through ``apis._schema.coerce_call`` (see the notes there: the request
the API receives stays the same text, or for a decimal the same number); the slow tests prove it
on every KOPA-Bench gold step (Inspect's own validator passes all, and each coerced call
re-executes to the plan's own output).
"""

from __future__ import annotations

import asyncio
import json

import pytest

from kopa_inspect.apis import get_operation, operations
from kopa_inspect.apis._schema import (
    accepted,
    coerce_call,
    coerce_messages,
    coerce_value,
    mistyped,
    schema_errors,
    tool_schema,
)
from test_grpo_rewards_attacks import CALL_STEP, GOLD, JONGNO, TOOLS, call, metrics_of, rewards_of, row, total
from test_grpo_rewards_values_pastes_episodes import CLOCK, KMA_ARGS, KMA_FACTS, KMA_PLAN, episode

NX_TEXT = call("kma_getVilageFcst", {**JONGNO, "nx": "60"})
GRID_TEXT = call("kma_getVilageFcst", {**JONGNO, "nx": "60", "ny": "127"})
DATE_NUMBER = call("kma_getVilageFcst", {**JONGNO, "base_date": 20261015})

TOUR_ARGS = {"keyword": "경복궁", "contentTypeId": "12"}
TOUR_STEP = {
    **row("call", [["tourapi_searchKeyword2", TOUR_ARGS]], []),
    "tools_json": json.dumps(
        [*TOOLS, tool_schema(get_operation("tourapi_searchKeyword2"))], ensure_ascii=False
    ),
}
TOUR_INT = call("tourapi_searchKeyword2", {**TOUR_ARGS, "contentTypeId": 12})

MISTYPED = [(NX_TEXT, CALL_STEP), (GRID_TEXT, CALL_STEP), (DATE_NUMBER, CALL_STEP), (TOUR_INT, TOUR_STEP)]


# --- what Inspect refuses ---------------------------------------------------------------------------


def test_schema_errors_is_inspects_own_verdict():
    """The same ToolParams the harness builds (tools.operation_tool) and Inspect's validator."""
    from inspect_ai.model._call_tools import validate_tool_input

    from kopa_inspect.tools import operation_tool

    params = operation_tool("kma_getVilageFcst", None).parameters  # type: ignore[arg-type]
    for args in (
        {**JONGNO, "nx": "60"},
        JONGNO,
        {**JONGNO, "dataType": "XML"},
        {"nx": 60},
        {**JONGNO, "nx": 60.0},
    ):
        assert schema_errors("kma_getVilageFcst", args) == validate_tool_input(args, params)
        assert accepted("kma_getVilageFcst", args) == (validate_tool_input(args, params) is None)
    assert "'60' is not of type 'integer'" in schema_errors("kma_getVilageFcst", {**JONGNO, "nx": "60"})
    assert schema_errors("kma_getVilageFcst", JONGNO) is None
    assert mistyped("kma_getVilageFcst", {**JONGNO, "nx": "60", "dataType": "XML"}) == {"nx"}
    assert schema_errors("neis_get_api_key", {}) is None
    assert schema_errors("neis_get_api_key", {"x": 1}) is not None
    assert schema_errors("not_a_tool", {"x": 1}) is None  # no schema: the tool-name rules judge it


@pytest.mark.parametrize(
    ("attack", "step"), MISTYPED, ids=["nx '60'", "nx/ny '60'/'127'", "base_date int", "contentTypeId 12"]
)
def test_a_call_inspect_refuses_earns_no_call_credit(attack, step):
    rw, m = rewards_of(attack, step), metrics_of(attack, step)
    assert (rw["outcome"], m["exact"]) == (0.0, 0.0)
    assert rw["format"] == 0.0  # a call the harness refuses is no well-formed call
    assert rw["execution"] == 0.0  # never sent: Inspect does not run it
    assert rw["arguments"] < 1.0  # the refused value earns no value credit
    assert total(attack, step) < 1.0


def test_the_gold_moves_keep_full_credit():
    assert total(GOLD, CALL_STEP) == pytest.approx(2.0)
    gold_tour = call("tourapi_searchKeyword2", TOUR_ARGS)
    rw = rewards_of(gold_tour, TOUR_STEP)
    assert (rw["outcome"], rw["format"], rw["arguments"], metrics_of(gold_tour, TOUR_STEP)["exact"]) == (
        1,
        1,
        1,
        1,
    )
    # A decimal's other spelling is the same number to the API and to Inspect.
    assert not mistyped("airkorea_getNearbyMsrstnList", {"tmX": 203415.195995, "tmY": 452000})


def test_episode_refuses_a_mistyped_call_with_inspects_message():
    def fcst(outs: list[str]) -> str:
        return f"기온은 {json.loads(outs[-1])['items'][0]['fcstValue']}도입니다."

    assert (
        episode(["kma_getVilageFcst"], KMA_PLAN, KMA_FACTS, [("kma_getVilageFcst", KMA_ARGS)], fcst, CLOCK)[0]
        == 1.0
    )
    text = {**KMA_ARGS, "nx": "60", "ny": "127"}
    score, outs = episode(
        ["kma_getVilageFcst"], KMA_PLAN, KMA_FACTS, [("kma_getVilageFcst", text)], "기온은 16도입니다.", CLOCK
    )
    assert score == 0.0
    assert outs[0].startswith("Found 2 validation errors parsing tool input arguments:")
    assert "'60' is not of type 'integer'" in outs[0]
    # the correction counts
    score, _ = episode(
        ["kma_getVilageFcst"],
        KMA_PLAN,
        KMA_FACTS,
        [("kma_getVilageFcst", text), ("kma_getVilageFcst", KMA_ARGS)],
        fcst,
        CLOCK,
    )
    assert score == 1.0


# --- coercion: the schema's type, the same request ----------------------------------------------------


@pytest.mark.parametrize(
    ("value", "prop", "want"),
    [
        ("60", {"type": "integer"}, 60),
        ("-3", {"type": "integer"}, -3),
        ("007", {"type": "integer"}, "007"),  # int() would drop the zeros: another request text
        ("60.0", {"type": "integer"}, "60.0"),  # the API's own error 10 either way
        ("２０", {"type": "integer"}, "２０"),  # full-width digits: int() reads them, the API does not
        ("127", {"type": "number"}, 127),
        ("127.041900", {"type": "number"}, 127.0419),  # the same double (float() on both sides)
        ("1e5", {"type": "number"}, "1e5"),
        ("nan", {"type": "number"}, "nan"),
        (25, {"type": "string"}, "25"),
        (60.0, {"type": "string"}, "60.0"),  # what the request carried (httpx writes str(60.0))
        (True, {"type": "string"}, "true"),
        (12, {"type": "string", "enum": ["12", "14"]}, "12"),
        ("A,B", {"type": "array", "items": {"type": "string"}}, ["A", "B"]),
        ([1, 2], {"type": "array", "items": {"type": "string"}}, ["1", "2"]),
        (60, {"type": "integer"}, 60),
        ("x", None, "x"),
    ],
)
def test_coerce_value(value, prop, want):
    got = coerce_value(value, prop)
    assert got == want and type(got) is type(want)


def test_coerce_messages_keeps_the_argument_form():
    msgs = [
        {"role": "user", "content": "q"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {
                        "name": "tago_getSttnNoList",
                        "arguments": json.dumps({"cityCode": 25, "nodeNm": "대전역"}),
                    },
                },
                {
                    "id": "c2",
                    "type": "function",
                    "function": {
                        "name": "airkorea_getNearbyMsrstnList",
                        "arguments": {"tmX": "203415.195995", "tmY": "452000"},
                    },
                },
            ],
        },
    ]
    out = coerce_messages(msgs)
    assert json.loads(out[1]["tool_calls"][0]["function"]["arguments"]) == {
        "cityCode": "25",
        "nodeNm": "대전역",
    }
    assert out[1]["tool_calls"][1]["function"]["arguments"] == {"tmX": 203415.195995, "tmY": 452000}
    assert msgs[1]["tool_calls"][0]["function"]["arguments"] == json.dumps(
        {"cityCode": 25, "nodeNm": "대전역"}
    )


# --- every KOPA-Bench gold call (slow: executes the 145 gold plans) ------------------------------------


def _bench_counts() -> tuple[int, int, int]:
    """(call steps, steps with a call Inspect refuses as the plan resolved it, ... as the steps carry it)."""
    from kopa_inspect.steps import build

    raw_refused = 0
    orig = build.coerce_call
    build.coerce_call = lambda name, args: args  # the steps as built before coercion
    try:
        raw = [e for e in build.bench_examples() if e.kind == "call"]
    finally:
        build.coerce_call = orig
    raw_refused = sum(any(schema_errors(n, a) for n, a in e.target_calls) for e in raw)
    steps = [e for e in build.bench_examples() if e.kind == "call"]
    refused = sum(any(schema_errors(n, a) for n, a in e.target_calls) for e in steps)
    return len(steps), raw_refused, refused


@pytest.mark.slow
def test_every_bench_gold_call_is_one_inspect_accepts():
    n, before, after = _bench_counts()
    assert n == 221 and before == 30
    assert after == 0


@pytest.mark.slow
def test_coerced_bench_gold_calls_read_the_same_rows():
    """Each gold call of the 145 plans, written in the schema's types, re-executes on the emulator
    to the output the plan's own call (values as the outputs gave them) read."""
    from kopa_inspect.backends import make_backend
    from kopa_inspect.execution import Session
    from kopa_inspect.plans import PlanError, execute_plan
    from kopa_inspect.task_data.schema import load_tasks

    async def go() -> tuple[int, int, list[str]]:
        backend = make_backend()
        changed = same = 0
        differ: list[str] = []
        for task in load_tasks():
            session = Session(backend, clock=task.clock, seed=0)
            try:
                run = await execute_plan(task.plan, session, stop_on_error=False)
            except PlanError:
                continue
            again = Session(backend, clock=task.clock, seed=0)
            again.tokens.update(session.tokens)
            for step in task.plan.steps:
                args = run.args.get(step.id)
                if args is None or coerce_call(step.tool, args) == args:
                    continue
                changed += 1
                res = await again.call(step.tool, coerce_call(step.tool, args))
                if res.output() == run.outputs[step.id] and res.ok == (run.codes[step.id] == res.code):
                    same += 1
                else:
                    differ.append(f"{task.id}/{step.id}")
        await backend.aclose()
        return changed, same, differ

    changed, same, differ = asyncio.run(go())
    assert changed >= 30 and differ == [] and same == changed


def test_catalog_has_no_typed_parameter_with_a_pattern_or_enum():
    """coerce_value's wire argument: the emulator reads an integer with int(), a number with
    float(), and checks a pattern or an enum only on the text; no integer/number parameter has
    one (were one added, a coerced decimal's spelling could matter)."""
    odd = [
        (o.id, p.name)
        for o in operations().values()
        for p in o.params
        if p.type in ("integer", "number") and (p.pattern or p.enum)
    ]
    assert odd == []
