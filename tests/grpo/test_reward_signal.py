"""The reward-spread probe (kopa_grpo.signal) and the rows file it hands to GRPO.

A group teaches GRPO something only if its rewards differ. Both ways: a group of wrong moves that
merely look different (another tool, a wrong value, a broken block) must show no outcome spread,
and a group where one sampled move is the gold call must show spread and be chosen.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kopa_grpo import rewards
from kopa_grpo.data import rows_from_file
from kopa_grpo.signal import (
    RowSignal,
    call_rewards,
    curriculum_key,
    has_spread,
    signal_rows,
    spread_summary,
    weighted_totals,
)

TARGET = [["kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}]]
SCHEMA = {
    "type": "function",
    "function": {
        "name": "kma_getVilageFcst",
        "description": "단기예보",
        "parameters": {
            "type": "object",
            "required": ["base_date", "base_time", "nx", "ny"],
            "properties": {
                "base_date": {"type": "string"},
                "base_time": {"type": "string"},
                "nx": {"type": "integer"},
                "ny": {"type": "integer"},
            },
        },
    },
}
NAMES = ["outcome", "format", "tool_name", "arguments"]
WEIGHTS = {"outcome": 1.0, "format": 0.2, "tool_name": 0.2, "arguments": 0.3}


def call(name: str, args: dict) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}, ensure_ascii=False) + "</tool_call>"


GOLD = call(*TARGET[0])  # type: ignore[arg-type]
WRONG_VALUE = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 61, "ny": 127})
WRONG_TOOL = call("kma_getUltraSrtNcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127})
BROKEN = '<tool_call>{"name": "kma_getVilageFcst", "arguments": {"nx": 60,'
# The gold call as a model writes it with its own key order and spacing: the same move.
GOLD_REORDERED = '<tool_call>{"arguments": {"ny": 127, "nx": 60, "base_time": "1400", "base_date": "20261015"}, "name": "kma_getVilageFcst"}</tool_call>'


def group(completions: list[str]) -> dict[str, list[float | None]]:
    funcs = [rewards.REWARDS[n] for n in NAMES]
    k = len(completions)
    columns = {
        "kind": ["call"] * k,
        "target_calls_json": [json.dumps(TARGET)] * k,
        "facts_json": ["[]"] * k,
        "tools_json": [json.dumps([SCHEMA])] * k,
    }
    return call_rewards(funcs, NAMES, [""] * k, completions, columns)


def row(
    step_id: str,
    rewards_: dict[str, list[float | None]],
    depth: int = 0,
    gold_calls: int = 1,
    kind: str = "call",
):
    return RowSignal(step_id, kind, gold_calls, depth, rewards_, weighted_totals(rewards_, WEIGHTS))


def test_wrong_moves_that_differ_give_no_outcome_spread() -> None:
    got = group([WRONG_VALUE, WRONG_TOOL, BROKEN, WRONG_VALUE])
    assert not has_spread(got["outcome"])
    assert got["outcome"] == [0.0] * 4


def test_a_gold_move_in_the_group_gives_spread_and_is_chosen() -> None:
    with_gold = row("a", group([WRONG_TOOL, GOLD_REORDERED, BROKEN, WRONG_VALUE]))
    all_gold = row("b", group([GOLD, GOLD_REORDERED, GOLD, GOLD]))
    assert with_gold.rewards["outcome"] == [0.0, 1.0, 0.0, 0.0]
    assert has_spread(with_gold.total)
    assert all_gold.rewards["outcome"] == [1.0] * 4 and not has_spread(all_gold.total)
    assert signal_rows([all_gold, with_gold]) == ["a"]
    summary = spread_summary([all_gold, with_gold])
    assert summary["rewards"]["outcome"]["share_with_spread"] == 0.5
    assert summary["outcome_rate"] == {"never": 0, "sometimes": 1, "always": 1}
    assert summary["total_share_with_spread"] == 0.5
    # pass@1 of the outcome: 1 for the all-gold group, 1/4 for the other; pass@4: 1 for both
    assert summary["outcome_pass_at"] == {"1": 0.625, "4": 1.0}


def test_shaped_rewards_alone_can_give_spread() -> None:
    # Right tool with a wrong value vs a wrong tool: no outcome spread, but tool_name and arguments
    # differ, so the weighted total still gives a gradient toward the gold tool.
    r = row("c", group([WRONG_VALUE, WRONG_TOOL, WRONG_VALUE, WRONG_TOOL]))
    assert not has_spread(r.rewards["outcome"])
    assert has_spread(r.rewards["tool_name"]) and has_spread(r.total)


def test_weighted_total_counts_a_reward_that_does_not_apply_as_zero() -> None:
    assert weighted_totals(
        {"outcome": [1.0, 0.0], "answer": [None, None]}, {"outcome": 1.0, "answer": 0.5}
    ) == [
        1.0,
        0.0,
    ]
    assert has_spread([None, None]) is None


def test_curriculum_puts_first_single_calls_before_chains_and_answers() -> None:
    flat = {"outcome": [0.0, 1.0]}
    rows = [
        row("answer", flat, depth=3, gold_calls=0, kind="answer"),
        row("later", flat, depth=2),
        row("wave", flat, depth=0, gold_calls=3),
        row("first", flat, depth=0, gold_calls=1),
    ]
    assert signal_rows(rows) == ["first", "wave", "later", "answer"]
    assert sorted(rows, key=curriculum_key)[0].step_id == "first"


def test_rows_file_orders_and_refuses_unknown_ids(tmp_path: Path) -> None:
    rows = [{"step_id": s, "kind": "call"} for s in ("x", "y", "z")]
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"step_ids": ["z", "x"]}))
    assert [r["step_id"] for r in rows_from_file(rows, good)] == ["z", "x"]
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps({"step_ids": ["x", "w"]}))
    with pytest.raises(ValueError, match="1 of 2 step ids.*'w'"):
        rows_from_file(rows, stale)
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"step_ids": []}))
    with pytest.raises(ValueError, match="no step_ids"):
        rows_from_file(rows, empty)


def test_signal_config_validates_and_keeps_the_curriculum_order() -> None:
    from kopa_grpo.config import load_settings

    s = load_settings("grpo-cpu-signal")
    assert s.trainer["shuffle_dataset"] is False
    assert s.trainer["num_generations"] == s.trainer["per_device_train_batch_size"] == 6
    assert s.prompt.max_completion_tokens == s.trainer["max_completion_length"]


# A GRPO run with the tool-name share paying for the right name alone learned to call the right tool
# with no arguments (completions 44 -> 33 tokens in 16 steps): the cheapest move that still paid.
EMPTY = call("kma_getVilageFcst", {})
MISSING_ONE = call("kma_getVilageFcst", {"base_date": "20261015", "base_time": "1400", "nx": 60})
EXTRA_ARG = call("kma_getVilageFcst", {**TARGET[0][1], "city": "서울"})  # type: ignore[dict-item]


@pytest.mark.parametrize(
    "move", [EMPTY, MISSING_ONE, EXTRA_ARG], ids=["no arguments", "one missing", "unknown argument"]
)
def test_a_call_inspect_refuses_earns_no_reward_at_all(move: str) -> None:
    got = group([move])
    assert got["tool_name"] == [0.0] and got["outcome"] == [0.0] and got["format"] == [0.0]
    assert weighted_totals(got, WEIGHTS) == [got["arguments"][0] * WEIGHTS["arguments"]]
    assert got["arguments"][0] < 1.0


@pytest.mark.parametrize(
    "move",
    [
        WRONG_VALUE,
        GOLD_REORDERED,
        call("kma_getVilageFcst", {"nx": 60, "ny": 127, "base_date": "20261015", "base_time": "1400"}),
    ],
    ids=["right tool, wrong value", "gold, keys reordered", "gold, another key order"],
)
def test_a_sendable_call_to_the_right_tool_keeps_its_name_credit(move: str) -> None:
    got = group([move])
    assert got["tool_name"] == [1.0]
    # and beats an empty call of the same tool in the weighted total GRPO compares
    assert weighted_totals(got, WEIGHTS)[0] > weighted_totals(group([EMPTY]), WEIGHTS)[0]
