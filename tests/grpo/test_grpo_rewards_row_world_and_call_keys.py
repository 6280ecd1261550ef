"""Attacks on the GRPO step rewards (a row's own world, extra call-block keys), each written first.

- The execution reward ran every row in the seed-0 emulator world. An EDGE row keeps the seed of
  the world it was synthesized in (a ``--seed 1`` run's codes, names and row counts exist only in
  the seed-1 world), and the episode environment already runs there (env.world_backend),
  but ``ExecutionReward`` built one backend at seed 0 and passed the row's seed only to the
  Session (token material). So the gold call of a seed-1 row could score 0 (its restaurant is not
  in the seed-0 world: NODATA) and a wrong call could score 1.0 (one restaurant where the seed-1
  world has four: the first page of one row is the whole answer only in seed 0).
- A ``<tool_call>`` object with a key beside ``name`` and ``arguments`` (``"id"``, ``"type"``, an
  ``"answer"`` smuggled in) earned the gold move's full reward (2.0), but the project's own decoder
  of call blocks (providers.local_chat.decode_call_block, what ``llamacpp/local`` and ``local``
  evaluate with) refuses such a block: the kopa_steps step scores parse 0, exact 0, and the
  KOPA-Bench call never runs.

Closed by steps/build.py and the answer matcher (the tests below carry no xfail marks):

- ``steps.build.bench_examples(seed=N)`` built KOPA-Bench steps in the seed-0 world; it now builds them in the world of seed N.
- Answers that earned the answer reward (1.90 of 1.90) though they are wrong or hedged: the gold figure
  in another role beside a wrong one ("19도입니다(21시 기준)", "19도, 최저기온은 21도"), the gold
  figure denied where the fact has competitors ("21도가 아닙니다"), a correction to a competitor
  ("21도입니다. 아니, 17도입니다."), a name beside an invented one with a slash, "중 한 명" or "내지":
  the answer matcher (``kopa_inspect.matching``) now refuses each.

``.venv/bin/python tests/test_grpo_rewards_row_world_and_call_keys.py [EDGE_DATASET]`` prints the rows
of the README table; with a dataset (saved EDGE run), also the world check on it (:func:`dataset_check`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from kopa_grpo import env, rewards
from kopa_inspect.backends import make_backend
from kopa_inspect.execution import Session
from kopa_inspect.steps.parsing import from_tool_calls
from kopa_inspect.steps.task import step_values, tool_info
from test_grpo_rewards_attacks import CALL_STEP, JONGNO, TOOLS, call, rewards_of, total

CLOCK = "2026-10-15T15:00:00+09:00"
OP = "seoul_CrtfcUpsoInfo"

# 사랑식당 is a certified restaurant of 서대문구 in the seed-1 world only (seed 0 answers NODATA).
SEED1_ONLY = {"START_INDEX": 1, "END_INDEX": 5, "CGG_CODE_NM": "서대문구", "UPSO_NM": "사랑식당"}
# 강동구 has four 으뜸식당 in the seed-1 world and one in the seed-0 world.
FOUR_IN_SEED1 = {"START_INDEX": 1, "END_INDEX": 5, "CGG_CODE_NM": "강동구", "UPSO_NM": "으뜸식당"}
FIRST_ONLY = {**FOUR_IN_SEED1, "END_INDEX": 1}  # wrong: one of the four


def world(seed: int, args: dict[str, Any]):
    return asyncio.run(Session(make_backend(seed=seed), clock=CLOCK, seed=seed).call(OP, args))


def execution(completion: str, gold: dict[str, Any], seed: int, fn: Any = None) -> float:
    fn = fn or rewards.ExecutionReward()
    out = asyncio.run(
        fn(
            prompts=[""],
            completions=[completion],
            kind=["call"],
            clock=[CLOCK],
            seed=[seed],
            target_calls_json=[json.dumps([[OP, gold]], ensure_ascii=False)],
        )
    )
    return out[0]


def test_the_worlds_differ():
    """The premise: what the rows below ask exists as described in each world."""
    assert world(1, SEED1_ONLY).ok and world(1, SEED1_ONLY).parsed.items
    assert not world(0, SEED1_ONLY).ok  # NODATA
    assert world(1, FOUR_IN_SEED1).parsed.total_count == 4 and world(0, FOUR_IN_SEED1).parsed.total_count == 1
    assert world(0, FIRST_ONLY).parsed.items == world(0, FOUR_IN_SEED1).parsed.items
    assert world(1, FIRST_ONLY).parsed.items != world(1, FOUR_IN_SEED1).parsed.items


def test_the_gold_call_of_a_seed1_row_earns_execution_in_its_world():
    assert execution(call(OP, SEED1_ONLY), SEED1_ONLY, seed=1) == 1.0
    assert execution(call(OP, FOUR_IN_SEED1), FOUR_IN_SEED1, seed=1) == 1.0


def test_a_wrong_call_earns_nothing_in_the_seed1_world():
    assert execution(call(OP, FIRST_ONLY), FOUR_IN_SEED1, seed=1) == 0.0
    # another district's 사랑식당 (or none) is not the gold row either
    assert execution(call(OP, {**SEED1_ONLY, "CGG_CODE_NM": "마포구"}), SEED1_ONLY, seed=1) == 0.0


def test_seed0_rows_are_judged_as_before():
    # In the seed-0 world the first page of one row is the whole answer: the same result, the same
    # credit as before; a call whose rows do not exist there earns nothing.
    assert execution(call(OP, FIRST_ONLY), FOUR_IN_SEED1, seed=0) == 1.0
    assert execution(call(OP, FOUR_IN_SEED1), FOUR_IN_SEED1, seed=0) == 1.0
    assert execution(call(OP, SEED1_ONLY), SEED1_ONLY, seed=0) == 0.0


def test_one_backend_per_world_shared_with_the_episodes():
    """One cache of worlds (env.world_backend): the step reward and the episode environments of a
    row execute in the same backend, built once per (configuration, seed)."""
    fn = rewards.ExecutionReward()
    episode = env.KopaToolEnv()
    episode.reset(seed=1, clock=CLOCK)
    assert fn._get_backend(1) is episode.session.backend is env.world_backend(1)
    episode.reset(seed=0, clock=CLOCK)
    assert fn._get_backend(0) is episode.session.backend and fn._get_backend(0) is not fn._get_backend(1)
    # one batch of mixed worlds: each row in its own
    out = asyncio.run(
        fn(
            prompts=["", ""],
            completions=[call(OP, FIRST_ONLY)] * 2,
            kind=["call"] * 2,
            clock=[CLOCK] * 2,
            seed=[0, 1],
            target_calls_json=[json.dumps([[OP, FOUR_IN_SEED1]], ensure_ascii=False)] * 2,
        )
    )
    assert out == [1.0, 0.0]


def test_bench_steps_of_another_seed_show_that_worlds_results():
    from kopa_inspect.steps import build

    s0, s1 = (build.bench_examples(ids=["kopa-006"], seed=s) for s in (0, 1))
    assert [ex.seed for ex in s1] == [1] * len(s1)
    # kopa-006's first call (apartment trades of 송파구) answers other rows in the seed-1 world.
    assert s1[-1].tool_results != s0[-1].tool_results


# --- answers the matcher passes (open: src/kopa_inspect/matching, steps/scoring.py) -------------

WRONG_ANSWERS = [
    "종로구의 오늘 최고기온은 19도입니다(21시 기준).",
    "종로구의 오늘 최고기온은 19도, 최저기온은 21도입니다.",
    "종로구의 오늘 최고기온은 21도가 아닙니다.",
    "종로구의 오늘 최고기온은 21도입니다. 아니, 17도입니다.",
]
NAME_GUESSES = [
    "SK하이닉스의 대표자는 곽노정/김철수입니다.",
    "SK하이닉스의 대표자는 곽노정, 김철수 중 한 명입니다.",
    "SK하이닉스의 대표자는 곽노정 내지 김철수입니다.",
]


@pytest.mark.parametrize(
    "attack",
    WRONG_ANSWERS + NAME_GUESSES,
    ids=[
        "19-then-21-as-hour",
        "19-high-21-low",
        "21-denied",
        "21-corrected-to-17",
        "name-slash",
        "name-one-of",
        "name-naeji",
    ],
)
def test_a_wrong_or_hedged_answer_earns_no_answer_reward(attack):
    from test_grpo_rewards_attacks import ANSWER_STEP
    from test_grpo_rewards_values_pastes_episodes import CEO_STEP

    step = CEO_STEP if attack.startswith("SK") else ANSWER_STEP
    assert rewards_of(attack, step)["answer"] == 0.0


# --- a call block the evaluation's decoder refuses ----------------------------------------------


def _block(extra: dict[str, Any]) -> str:
    return (
        "<tool_call>\n"
        + json.dumps({"name": "kma_getVilageFcst", "arguments": JONGNO, **extra}, ensure_ascii=False)
        + "\n</tool_call>"
    )


EXTRA_KEYS = [{"id": "call_0"}, {"type": "function"}, {"answer": "종로구의 오늘 최고기온은 21도입니다."}]


def _evaluated(completion: str) -> dict[str, float]:
    """The kopa_steps step values of a completion as the llamacpp/local provider parses it."""
    from kopa_inspect.providers.local_chat import parse_tool_calls

    content, calls = parse_tool_calls(completion, [tool_info(t) for t in TOOLS])
    parsed = from_tool_calls(
        [(c.function, dict(c.arguments or {})) for c in calls if not c.parse_error], len(calls), content
    )
    step = {
        "kind": "call",
        "target_calls": json.loads(CALL_STEP["target_calls_json"]),
        "facts": json.loads(CALL_STEP["facts_json"]),
        "tool_results": json.loads(CALL_STEP["tool_results_json"]),
    }
    return step_values(parsed, step)


@pytest.mark.parametrize("extra", EXTRA_KEYS, ids=["id", "type", "answer"])
def test_a_call_block_with_an_extra_key_earns_nothing(extra):
    attack = _block(extra)
    assert _evaluated(attack)["parse"] == 0.0  # the evaluation refuses it ...
    rw = rewards_of(attack, CALL_STEP)
    assert all(v == 0.0 for v in rw.values() if v is not None), rw  # ... and so does every reward
    assert total(attack, CALL_STEP) == 0.0


def test_the_gold_block_keeps_full_credit():
    for gold in (
        _block({}),
        call("kma_getVilageFcst", JONGNO),
        '<tool_call>{"name": "kma_getVilageFcst", "parameters": ' + json.dumps(JONGNO) + "}</tool_call>",
    ):
        assert _evaluated(gold)["exact"] == 1.0
        assert total(gold, CALL_STEP) == pytest.approx(2.0)
    # a conversational completion (TRL message list) with structured tool calls is no block at all
    conv = [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c0",
                    "type": "function",
                    "function": {"name": "kma_getVilageFcst", "arguments": json.dumps(JONGNO)},
                }
            ],
        }
    ]
    assert rewards_of(conv, CALL_STEP)["outcome"] == 1.0


def table_rows() -> list[str]:
    rows = [
        ("E4 gold call of a seed-1 row (사랑식당, 서대문구)", call(OP, SEED1_ONLY), SEED1_ONLY),
        ("E4 first of the four 으뜸식당 (seed-1 row)", call(OP, FIRST_ONLY), FOUR_IN_SEED1),
    ]
    out = [f"| {name} | execution {execution(c, g, seed=1):.2f} |" for name, c, g in rows]
    for extra in EXTRA_KEYS:
        a = _block(extra)
        out.append(
            f"| 12 call block with {json.dumps(extra, ensure_ascii=False)[:40]} | {total(a, CALL_STEP):.2f} | "
            f"llamacpp/local parse {_evaluated(a)['parse']:.2f} |"
        )
    return out


def dataset_check(path: str) -> list[str]:
    """On an EDGE dataset: (1) every gold move on every reward (both splits; the execution reward in
    the row's world); (2) for each tool, pairs of two steps' gold arguments (up to 30 distinct calls
    a tool, same clock), the other's arguments taken as the prediction: how many earn the execution
    check (same result, OK) in the seed-0 world (the code before) and in the row's world."""
    import collections

    from kopa_inspect.steps import build
    from test_grpo_rewards_gold import NAMES, gold_move_below_full_credit

    exs = [ex for r in build.load_edge_rows(path, None) for ex in build.edge_steps(r)]
    funcs = rewards.build_reward_funcs(NAMES)
    below = [b for ex in exs for b in gold_move_below_full_credit(ex, funcs)]
    kinds = collections.Counter(ex.kind for ex in exs)
    out = [
        f"{path}: seeds {sorted({ex.seed for ex in exs})}, {len(exs)} steps ({kinds['call']} calls, "
        f"{kinds['answer']} answers); gold moves below full credit on some reward: {len(below)} {below[:5]}"
    ]
    auth = rewards._auth_tools()
    by_tool: dict[str, dict[str, tuple]] = collections.defaultdict(dict)
    for ex in exs:
        for name, args in ex.target_calls if ex.kind == "call" else []:
            if name not in auth and "KEY" not in args:
                by_tool[name].setdefault(
                    json.dumps(args, sort_keys=True, ensure_ascii=False), (args, ex.clock, ex.seed)
                )
    fn = rewards.ExecutionReward()

    async def pairs() -> str:
        cache: dict[tuple, Any] = {}

        async def res(w: int, name: str, args: dict, clock: str) -> Any:
            k = (w, name, json.dumps(args, sort_keys=True, ensure_ascii=False), clock)
            if k not in cache:
                cache[k] = await fn._result(
                    Session(env.world_backend(w), clock=clock or None, seed=w), name, args, auth
                )
            return cache[k]

        n = old = new = 0
        for name, calls in by_tool.items():
            items = list(calls.values())[:30]
            for i, (g, clock, seed) in enumerate(items):
                for j, (p, c2, _) in enumerate(items):
                    if i != j and c2 == clock:
                        n += 1
                        old += await res(0, name, g, clock) is not None and await res(
                            0, name, g, clock
                        ) == await res(0, name, p, clock)
                        new += await res(seed, name, g, clock) is not None and await res(
                            seed, name, g, clock
                        ) == await res(seed, name, p, clock)
        return f"{n} (gold, another step's gold arguments) pairs of one tool: execution credit seed-0 world {old}, row's world {new}"

    return [*out, asyncio.run(pairs())]


if __name__ == "__main__":
    import sys

    print("\n".join(table_rows()))
    for path in sys.argv[1:]:
        print("\n".join(dataset_check(path)))
