"""The kopa_steps text path reads ``<tool_call>`` blocks with the evaluation's decoder.

``steps.parsing.parse_completion`` (the kopa_steps step metrics on the text path, and through
steps.scoring the EDGE and GRPO judgements) decoded call blocks with rules of its own, while
``providers.local_chat.decode_call_block`` (what ``llamacpp/local`` and ``local`` evaluate with)
refuses a block with a key beside ``name`` and ``arguments``: ``"id"``, ``"type"``, an
``"answer"`` smuggled in. Such a move earned full step credit (parse, kind, tool_name, exact,
format) on the text path while the evaluation never runs the call. One decoder now: the block is
ill-formed everywhere; gold blocks keep their credit.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from kopa_inspect.steps import build, scoring
from kopa_inspect.steps.parsing import parse_completion
from kopa_inspect.steps.task import step_values
from test_steps import TOKEN, row

GOLD_ARGS = {"SCHUL_NM": "서울2고등학교", "KEY": TOKEN}
EXTRA_KEYS = [{"id": "call_0"}, {"type": "function"}, {"answer": "서울2고등학교의 학교코드는 7010002입니다."}]


def call_step() -> dict[str, Any]:
    return build.edge_steps(row())[1].model_dump(mode="json")


def block(name: str = "neis_schoolInfo", args: dict[str, Any] | None = None, **extra: Any) -> str:
    obj = {"name": name, "arguments": GOLD_ARGS if args is None else args, **extra}
    return "<tool_call>\n" + json.dumps(obj, ensure_ascii=False) + "\n</tool_call>"


def credit(completion: Any, step: dict[str, Any]) -> dict[str, float]:
    """Every step metric and every steps.scoring judgement of a call step, as numbers."""
    p = parse_completion(completion)
    targets = [(n, a) for n, a in step["target_calls"]]
    v = {k: x for k, x in step_values(p, step).items() if not math.isnan(x)}
    v["outcome"] = float(scoring.outcome(p, "call", targets, []))
    v["format"] = float(scoring.format_ok(p, "call", step["tools"], targets))
    v["tool_name_score"] = scoring.tool_name_score(p, "call", targets)
    v["argument_score"] = scoring.argument_score(p, targets)
    return v


FULL = {
    "parse": 1.0,
    "kind": 1.0,
    "tool_name": 1.0,
    "exact": 1.0,
    "outcome": 1.0,
    "format": 1.0,
    "tool_name_score": 1.0,
    "argument_score": 1.0,
}


@pytest.mark.parametrize("extra", EXTRA_KEYS, ids=["id", "type", "answer"])
def test_a_block_with_an_extra_key_earns_nothing(extra: dict[str, Any]) -> None:
    step = call_step()
    attack = block(**extra)
    p = parse_completion(attack)
    assert not p.well_formed
    assert all(x == 0.0 for x in credit(attack, step).values()), credit(attack, step)
    # the same block in the content of a chat-message completion
    conv = [{"role": "assistant", "content": attack}]
    assert all(x == 0.0 for x in credit(conv, step).values())
    # one bad block in a wave spoils the wave
    assert credit(block() + "\n" + block(**extra), step)["parse"] == 0.0


def test_the_evaluation_refuses_what_the_metrics_refuse() -> None:
    """The same verdict as the provider's decoder, block by block (one decoder, not two)."""
    from kopa_inspect.providers.local_chat import parse_tool_calls

    for completion in [block(**e) for e in EXTRA_KEYS] + [block(), block(args={})]:
        refused = any(c.parse_error for c in parse_tool_calls(completion, [])[1])
        assert parse_completion(completion).well_formed is not refused, completion


def test_gold_blocks_keep_full_credit() -> None:
    step = call_step()
    compact = (
        '<tool_call>{"name": "neis_schoolInfo", "arguments": '
        + json.dumps(GOLD_ARGS, ensure_ascii=False)
        + "}</tool_call>"
    )
    spread = (
        '<tool_call>\n{\n  "name": "neis_schoolInfo",\n  "arguments": {\n    "SCHUL_NM": "서울2고등학교",\n'
        f'    "KEY": "{TOKEN}"\n  }}\n}}\n</tool_call>'
    )
    alias = (
        '<tool_call>{"name": "neis_schoolInfo", "parameters": '
        + json.dumps(GOLD_ARGS, ensure_ascii=False)
        + "}</tool_call>"
    )
    encoded = json.dumps(
        {"name": "neis_schoolInfo", "arguments": json.dumps(GOLD_ARGS, ensure_ascii=False)},
        ensure_ascii=False,
    )
    double = f"<tool_call>{encoded}</tool_call>"
    conv = [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c0",
                    "type": "function",
                    "function": {
                        "name": "neis_schoolInfo",
                        "arguments": json.dumps(GOLD_ARGS, ensure_ascii=False),
                    },
                }
            ],
        }
    ]
    # a block inside <think> is no move: the call after it is, an extra key in there changes nothing
    thought = "<think>\n" + block(id="x") + "\n</think>\n" + block()
    for gold in (block(), compact, spread, alias, double, conv, thought):
        assert credit(gold, step) == FULL, gold


def test_a_parallel_wave_parses_block_by_block() -> None:
    a = {"nx": 60, "ny": 127, "base_date": "20260301", "base_time": "0500"}
    b = {"nx": 61, "ny": 125, "base_date": "20260301", "base_time": "0500"}
    step = {
        "kind": "call",
        "target_calls": [["kma_getVilageFcst", a], ["kma_getVilageFcst", b]],
        "facts": [],
        "tool_results": [],
        "messages": [],
    }
    wave = block("kma_getVilageFcst", a) + "\n" + block("kma_getVilageFcst", b)
    p = parse_completion(wave)
    assert p.well_formed and p.calls == [("kma_getVilageFcst", a), ("kma_getVilageFcst", b)]
    assert step_values(p, step)["exact"] == 1.0
    bad = block("kma_getVilageFcst", a) + "\n" + block("kma_getVilageFcst", b, type="function")
    assert step_values(parse_completion(bad), step)["exact"] == 0.0


def test_a_think_block_alone_is_still_no_move() -> None:
    p = parse_completion("<think>\n" + block() + "\n</think>\n서울2고등학교의 학교코드는 7010002입니다.")
    assert p.well_formed and not p.calls and p.answer == "서울2고등학교의 학교코드는 7010002입니다."
    assert not parse_completion("<think>\n" + block()).well_formed  # an unclosed think is a broken move
