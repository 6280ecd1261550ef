"""Every gold move of the KOPA-Bench step split keeps full credit on every GRPO reward, and a hedge
built from each gold answer earns nothing (slow: executes the 145 gold plans on the emulator).

The attack tests (tests/grpo/test_grpo_rewards_attacks.py) close ways to earn credit; this guards the
other side, that no closing rule takes credit from a right move: replays a gold wave makes on
purpose, waves that call one tool twice, session tokens, long menu answers.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from kopa_grpo import rewards
from kopa_inspect.steps import build, scoring
from kopa_inspect.steps.parsing import parse_completion

NAMES = ["outcome", "format", "tool_name", "arguments", "execution", "answer"]


def _move(ex: build.StepExample) -> str:
    if ex.kind == "answer":
        return ex.target_answer
    return "".join(
        "<tool_call>" + json.dumps({"name": n, "arguments": a}, ensure_ascii=False) + "</tool_call>"
        for n, a in ex.target_calls
    )


def gold_move_below_full_credit(ex: build.StepExample, funcs: list) -> list[tuple[str, str, float]]:
    """(step id, reward, value) for each reward (``funcs``, in NAMES order) that scores the
    example's own gold move below 1.0, called as TRL calls it (one-row columns)."""
    cols = {
        "kind": [ex.kind],
        "target_calls_json": [json.dumps(ex.target_calls, ensure_ascii=False)],
        "facts_json": [json.dumps(ex.facts, ensure_ascii=False)],
        "tools_json": [json.dumps(ex.tools, ensure_ascii=False)],
        "tool_results_json": [json.dumps(ex.tool_results, ensure_ascii=False)],
        "session_tokens_json": [json.dumps(ex.session_tokens)],
        "clock": [ex.clock],
        "seed": [ex.seed],
    }
    below = []
    for name, fn in zip(NAMES, funcs, strict=True):
        v = fn(prompts=[ex.messages], completions=[_move(ex)], **cols)
        v = (asyncio.run(v) if asyncio.iscoroutine(v) else v)[0]
        if v is not None and v < 1.0:
            below.append((ex.id, name, v))
    return below


@pytest.mark.slow
def test_bench_gold_moves_keep_full_credit_and_hedges_fail():
    examples = build.bench_examples()
    assert len(examples) > 200
    funcs = rewards.build_reward_funcs(NAMES)
    below: list[tuple[str, str, float]] = []
    hedged = hedges = 0
    for ex in examples:
        below += gold_move_below_full_credit(ex, funcs)
        if ex.kind != "answer":
            continue
        for f in scoring.required_facts(ex.facts):
            e = scoring.fact_expected(f)
            if (
                f.get("matcher") == "number"
                and isinstance(e, str | int | float)
                and str(e) in ex.target_answer
            ):
                other = str(int(float(e)) + 7) if float(e).is_integer() else f"{float(e) + 7:g}"
                attack = ex.target_answer.replace(str(e), f"{e} 또는 {other}", 1)
                hedges += 1
                hedged += scoring.answer_right(parse_completion(attack), ex.facts, ex.tool_results)
                break
    assert below == []
    assert hedges >= 10 and hedged == 0
