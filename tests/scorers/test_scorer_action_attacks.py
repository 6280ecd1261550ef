"""ACTION / ENVIRONMENT attacks on KOPA-Bench tasks: a wrong trajectory must not earn the axis.

Each test mutates the oracle's (gold) trajectory of a real benchmark task, executes the calls on
the embedded backend and records them as the Inspect tools do (``tools.call_entry``: ok, the API
code, record fingerprints), then grades them with the oracle's answer. The controls next to each
attack are valid trajectories (the gold one, another page size, another order) that must keep full
credit. ``benchmarks/scoring_validity/action_attacks.py`` runs the same attacks over all tasks.
"""

from __future__ import annotations

from typing import Any

import pytest

from kopa_inspect.apis import get_operation
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import GoldTruth, Grade, gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import BenchTask, load_tasks
from kopa_inspect.tools import shared_backend
from scoring_calls import CALLS as _CALLS

FAKE = "sess-madeup0000"


def _task(task_id: str) -> BenchTask:
    return next(t for t in load_tasks() if t.id == task_id)


async def _setup(task_id: str) -> tuple[BenchTask, GoldTruth]:
    task = _task(task_id)
    return task, await gold_truth(task, shared_backend(BackendConfig()), 0)


async def _run(
    task: BenchTask, calls: list[tuple[str, dict[str, Any]]], fake: bool = False
) -> list[dict[str, Any]]:
    """Execute calls as an agent would (benchmarks/scoring_validity/_calls.py, the attack scripts'
    runner); every session-platform call passes a made-up token instead when ``fake``."""
    fakes = {k: FAKE for k in range(len(calls))} if fake else None
    return await _CALLS.run_calls(task, shared_backend(BackendConfig()), calls, fakes)


def _auth(task: BenchTask) -> list[tuple[str, dict[str, Any]]]:
    return [
        (p + "_get_api_key", {}) for p in sorted({p for s in task.plan.steps for p in s.session_platforms()})
    ]


async def _grade(
    task: BenchTask,
    gold: GoldTruth,
    calls: list[tuple[str, dict[str, Any]]],
    answer: str | None = None,
    fake: bool = False,
) -> Grade:
    made = await _run(task, calls, fake=fake)
    text = oracle_answer(task, gold.expected, context=gold.context) if answer is None else answer
    return grade(task, gold, text, made)


def _step(gold: GoldTruth, task: BenchTask, sid: str) -> tuple[str, dict[str, Any]]:
    return gold.calls[[s.id for s in task.plan.steps].index(sid)]


def _without(task: BenchTask, gold: GoldTruth, *sids: str) -> list[tuple[str, dict[str, Any]]]:
    return [c for s, c in zip(task.plan.steps, gold.calls, strict=True) if s.id not in sids]


def _retrieved(g: Grade, sid: str) -> bool:
    return not any(m.startswith(f"records of {sid}:") for m in g.missing)


# --- controls: the gold trajectory and valid alternatives keep full credit -----------------------


@pytest.mark.parametrize("task_id", ["kopa-006", "kopa-023", "kopa-028", "kopa-031", "kopa-079", "kopa-134"])
async def test_gold_trajectory_full_credit(task_id: str) -> None:
    task, gold = await _setup(task_id)
    g = await _grade(task, gold, _auth(task) + list(gold.calls))
    assert g.success == 1.0 and g.call_f1 == 1.0 and g.chain in (1.0, None) and g.env in (1.0, None)


async def test_one_big_page_instead_of_pages_is_valid() -> None:
    # kopa-006: a month of Songpa sales in three pages of 10; one call with numOfRows=100 shows them all
    task, gold = await _setup("kopa-006")
    tool, args = _step(gold, task, "p1")
    g = await _grade(task, gold, [(tool, {**args, "numOfRows": 100})])
    assert g.success == 1.0 and g.env == 1.0


async def test_reordered_parallel_calls_are_valid() -> None:
    # kopa-023: the six trade pages in reverse order after the region lookup
    task, gold = await _setup("kopa-023")
    calls = list(gold.calls)
    g = await _grade(task, gold, [calls[0], *reversed(calls[1:])])
    assert g.success == 1.0 and g.chain == 1.0 and g.call_f1 == 1.0


# --- call spam ------------------------------------------------------------------------------------


async def test_gold_call_repeated_twenty_times_drops_precision_and_efficiency() -> None:
    # Guard: a one-to-one call matching (not "some made call equals each gold call") and efficiency
    # over all calls made; a set-based matcher would leave call_f1 at 1.0 here.
    task, gold = await _setup("kopa-028")
    g = await _grade(task, gold, list(gold.calls) + [gold.calls[-1]] * 19)
    assert g.call_f1 < 0.5 and g.efficiency < 0.3
    assert g.success == 1.0  # read-only calls: the answer and the state are still right


async def test_spraying_every_offered_tool_earns_no_refusal_and_no_full_action() -> None:
    from kopa_inspect.task_data.distractors import offered_operations

    task, gold = await _setup("kopa-028")
    pool = {k: v for _, a in gold.calls for k, v in a.items()}
    spray = [
        (op, {k: v for k, v in pool.items() if k in {p.name for p in get_operation(op).params}})
        for op in offered_operations(task)
    ]
    calls = list(gold.calls) + spray
    g = await _grade(task, gold, calls)
    assert g.call_f1 < 0.75 and g.efficiency < 0.5
    refused = await _grade(task, gold, calls, answer="제공된 도구로는 이 질문에 답할 수 없습니다.")
    assert refused.success == 0.0


# --- a call the API refused is no gold call --------------------------------------------------------


async def test_failed_gold_calls_earn_no_call_f1() -> None:
    # kopa-028: every gold call with its paging value refused by the API (the same arguments
    # otherwise). Before: call_f1 counted them as gold calls (name + arguments only).
    task, gold = await _setup("kopa-028")
    calls = [(t, {**a, "pageNo": "x"}) for t, a in gold.calls]
    made = await _run(task, calls)
    assert not any(c["ok"] for c in made)
    g = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), made)
    assert g.call_f1 == 0.0 and g.env == 0.0 and g.chain == 0.0 and g.success == 0.0


async def test_made_up_session_token_calls_earn_no_call_f1_and_no_token() -> None:
    # kopa-031 (NEIS): the auth tool called, but every NEIS call made with a made-up token: each
    # fails with the platform's auth error. The token state needs an OK call with the issued token.
    task, gold = await _setup("kopa-031")
    g = await _grade(task, gold, _auth(task) + list(gold.calls), fake=True)
    assert g.errors == len(gold.calls)
    assert g.call_f1 == 0.0 and g.env == 0.0 and g.success == 0.0
    assert "state token:neis" in g.missing


async def test_session_token_obtained_but_never_used() -> None:
    # kopa-090: NEIS token issued, the NEIS calls left out (the KASI holiday call made): no token state.
    task, gold = await _setup("kopa-090")
    rest = [(t, a) for t, a in gold.calls if get_operation(t).platform != "neis"]
    g = await _grade(task, gold, _auth(task) + rest)
    assert "state token:neis" in g.missing and g.success == 0.0


async def test_session_token_without_auth_call() -> None:
    task, gold = await _setup("kopa-134")
    g = await _grade(task, gold, list(gold.calls), fake=True)
    assert "state token:neis" in g.missing and g.success == 0.0


# --- extra arguments --------------------------------------------------------------------------------


async def test_extra_filter_that_drops_the_needed_records_is_not_the_gold_call() -> None:
    # kopa-028 s1 lists the provinces (areaCode2 with no areaCode); s2 lists Busan's districts
    # (areaCode2 with areaCode=6, taken from s1). A model that skips s1 and types areaCode 6 from
    # memory never saw the province list; before, s2's call matched s1's arguments "with extras
    # allowed", so s1 counted as retrieved. It is not retrieved (ENVIRONMENT < 1, chain short);
    # success is by outcome: no fact reads the province list and s2's records were shown, so a
    # code typed from memory that returned the right records passes.
    task, gold = await _setup("kopa-028")
    g = await _grade(task, gold, _without(task, gold, "s1"))
    assert not _retrieved(g, "s1")
    assert g.env < 1.0 and g.chain < 1.0 and g.success == 1.0


async def test_a_later_page_is_not_the_first_page() -> None:
    # kopa-006: p1 (page 1) dropped, pages 2 and 3 made: pageNo=2 is an extra argument beside p1's
    # gold arguments; before, it matched p1 and the minimum over all three pages passed unseen.
    task, gold = await _setup("kopa-006")
    g = await _grade(task, gold, _without(task, gold, "p1"))
    assert not _retrieved(g, "p1") and g.success == 0.0


async def test_extra_real_filter_returning_other_rows() -> None:
    # kopa-063: the hospital list with an extra 읍면동 filter that matches nothing useful: OK, but
    # without the needed rows.
    task, gold = await _setup("kopa-063")
    tool, args = _step(gold, task, "s1")
    calls = [
        (tool, {**args, "emdongNm": "zzzz없는값"}) if (t, a) == (tool, args) else (t, a)
        for t, a in gold.calls
    ]
    made = await _run(task, calls)
    assert made[0]["ok"]
    g = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), made)
    assert not _retrieved(g, "s1") and g.success == 0.0


async def test_unknown_extra_argument_is_harmless() -> None:
    # an argument the operation does not have is ignored by the API: still the gold call
    task, gold = await _setup("kopa-028")
    calls = [(t, {**a, "fooBar": "1"}) for t, a in gold.calls]
    g = await _grade(task, gold, calls)
    assert g.success == 1.0 and g.call_f1 == 1.0 and g.chain == 1.0


# --- chain: the value must come from an earlier output ------------------------------------------


async def test_consumer_with_a_remembered_code_and_no_producer() -> None:
    # Guard: kopa-023 s1 looks up 강남구's 법정동 code; the trade calls use 11680. Typed from memory
    # without s1, the link is not realized and the step is missing (chain 0, ENVIRONMENT < 1). A
    # chain that counted "consumer retrieved" alone would give 1.0. Success is by outcome: the
    # trades it answers from were shown.
    task, gold = await _setup("kopa-023")
    g = await _grade(task, gold, _without(task, gold, "s1"))
    assert g.chain == 0.0 and g.env < 1.0 and not _retrieved(g, "s1")
    assert g.success == 1.0


async def test_consumer_answer_repeating_the_producer_record_is_no_lookup() -> None:
    # kopa-065: s1 searches 타이레놀 and picks 타이레놀정500's item code; s2 asks that itemSeq. The
    # item's record in s2's answer is the very record s1 needed, so before, a model that typed the
    # itemSeq from memory (no s1 call) had s1 "retrieved" by s2's records and passed.
    task, gold = await _setup("kopa-065")
    g = await _grade(task, gold, _without(task, gold, "s1"))
    assert not _retrieved(g, "s1") and g.chain == 0.0 and g.env < 1.0
    # success by outcome: the item's record was shown (by s2), so the facts are grounded
    assert g.success == 1.0
    # the lookup made after the remembered call retrieves s1, but the link stays unrealized
    late = await _grade(task, gold, [_step(gold, task, "s2"), _step(gold, task, "s1")])
    assert late.success == 1.0 and late.chain == 0.0


async def test_one_call_serving_a_count_and_its_list_is_valid() -> None:
    # kopa-008: s1 counts 종로구's 법정동, s2 lists them with numOfRows = the count. One call with a
    # large page does both: the page-size link carries no value that must come from an output.
    task, gold = await _setup("kopa-008")
    tool, args = _step(gold, task, "s1")
    g = await _grade(task, gold, [(tool, {**args, "numOfRows": 1000})])
    assert g.success == 1.0 and g.env == 1.0


async def test_producer_called_only_after_the_consumer() -> None:
    # kopa-079: the winners' pages (p1, p2) use the election id found by s1. p1 made with the
    # remembered id before s1, then s1, then p2. Before: p2's call (pageNo=2 as an "extra") covered
    # p1 and the link s1 -> p1 counted as realized.
    task, gold = await _setup("kopa-079")
    s1, p1, p2 = (_step(gold, task, x) for x in ("s1", "p1", "p2"))
    g = await _grade(task, gold, [p1, s1, p2])
    assert g.chain is not None and g.chain < 1.0


async def test_producer_page_without_the_linked_record_does_not_realize_the_link() -> None:
    # kopa-028: s1 (the province list) first asked with a page holding no 부산 row (numOfRows=1:
    # 서울 only), then s2 with 부산's code, then s1 in full. The code did not come from an earlier
    # output: link s1 -> s2 not realized (the step itself is retrieved by the later full call).
    task, gold = await _setup("kopa-028")
    s1 = _step(gold, task, "s1")
    rest = _without(task, gold, "s1")
    g = await _grade(task, gold, [(s1[0], {**s1[1], "numOfRows": 1}), rest[0], s1, *rest[1:]])
    assert g.chain is not None and g.chain < 1.0


# --- unanswerable tasks: no calls is right only where the gold has no evidence call ---------------


async def test_unanswerable_without_evidence_steps_no_calls_is_full_action() -> None:
    task, gold = await _setup("kopa-124")
    g = grade(task, gold, oracle_answer(task, gold.expected), [])
    assert g.success == 1.0 and g.call_f1 == 1.0 and g.efficiency == 1.0 and g.chain is None and g.env is None


async def test_unanswerable_with_evidence_steps_no_calls_earns_nothing() -> None:
    task, gold = await _setup("kopa-128")
    g = grade(task, gold, oracle_answer(task, gold.expected), [])
    assert g.success == 0.0 and g.call_f1 == 0.0 and g.chain == 0.0 and g.env == 0.0 and g.efficiency == 0.0


# --- calls after the final answer -------------------------------------------------------------------


def test_calls_in_the_final_answer_message_are_not_counted() -> None:
    # The answer is the last assistant message; tool calls it carries (a turn limit reached with the
    # answer and calls in one message) were made after the answer was written: their results were
    # never read. Before: they counted as evidence.
    from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ChatMessageUser
    from inspect_ai.tool import ToolCall

    from kopa_inspect.scorers.kopa import calls_from_messages

    early = ToolCall(id="a", function="kma_getVilageFcst", arguments={"nx": 60, "ny": 127})
    late = ToolCall(id="b", function="kma_getUltraSrtNcst", arguments={"nx": 60, "ny": 127})
    messages = [
        ChatMessageUser(content="q"),
        ChatMessageAssistant(content="", tool_calls=[early]),
        ChatMessageTool(content="{}", tool_call_id="a", function="kma_getVilageFcst"),
        ChatMessageAssistant(content="답: 21도", tool_calls=[late]),
        ChatMessageTool(content="{}", tool_call_id="b", function="kma_getUltraSrtNcst"),
    ]
    calls = calls_from_messages(messages)
    assert [c["tool"] for c in calls] == ["kma_getVilageFcst"]


def test_the_scripted_tokenless_call_refused_by_inspect_is_the_gold_failure(tmp_path: Any) -> None:
    """kopa-035's e1 asks NEIS without KEY on purpose. Through Inspect that call never reaches the
    API: KEY is required in the tool's schema, so Inspect refuses it (code 'parsing') where the gold
    run, called directly, got ERROR-290. The refusal is the same failure; the oracle is the ceiling
    (call_f1 was 0.5 after the one-to-one matching began to compare error codes)."""
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        task_args={"ids": "kopa-035"},
        log_dir=str(tmp_path),
        display="none",
    )
    sample = logs[0].samples[0]
    assert [c["code"] for c in _entries_of(sample)][:2] == ["ok", "parsing"]
    assert sample.scores["kopa_call_f1"].value == 1.0 and sample.scores["kopa_success"].value == 1.0


async def test_a_refusal_for_another_reason_is_not_the_tokenless_failure() -> None:
    """Only a refusal of a call that, like the gold step, leaves the token out stands in for the
    API's error: the same question with a token, refused for a bad argument, is no scripted failure."""
    task = _task("kopa-035")
    gold = await gold_truth(task, shared_backend(BackendConfig()), 0)
    (tool, args) = gold.calls[0]
    refused = {
        "tool": tool,
        "args": {**args, "KEY": "sess-0", "pSize": "many"},
        "ok": False,
        "code": "parsing",
    }
    tokenless = {"tool": tool, "args": dict(args), "ok": False, "code": "parsing"}
    answer = oracle_answer(task, gold.expected, context=gold.context)
    rest = await _run(task, _auth(task) + [gold.calls[1]])
    assert (
        grade(task, gold, answer, [refused, *rest]).call_f1
        < grade(task, gold, answer, [tokenless, *rest]).call_f1
        == 1.0
    )


def _entries_of(sample: Any) -> list[dict[str, Any]]:
    from kopa_inspect.scorers.kopa import calls_from_messages

    return calls_from_messages(sample.messages)
