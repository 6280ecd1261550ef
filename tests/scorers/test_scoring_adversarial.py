"""Adversarial scoring tests: a wrong model must not earn a score, a right one on another path must.

Built from the real task records (src/kopa_inspect/task_data/kopa_bench.jsonl) and the real gold
outputs (the gold plan run through the embedded backend by ``grading.gold_truth``); the agent's
alternative calls run through a real :class:`Session` and are recorded with ``tools.call_entry``, so
the record fingerprints the scorer compares are the ones a live sample produces.

Covered (issue 9): (a) pasted raw tool output fails; (b) a wrong winner fails even when every
candidate is mentioned; (c) an invented "refusal" fails, a real one passes; (d) valid alternative
paths pass (page size, one filtered call for three, another order, optional steps skipped);
(e) accidental facts fail; (f) each typed matcher accepts natural Korean forms, rejects near misses.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import xmltodict

from kopa_inspect import matching
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import BackendConfig
from kopa_inspect.execution import Session
from kopa_inspect.scorers.grading import GoldTruth, gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import BenchTask, load_tasks
from kopa_inspect.tools import call_entry, shared_backend

TASKS: dict[str, BenchTask] = {t.id: t for t in load_tasks()}
_GOLD: dict[str, GoldTruth] = {}


def _gold(task_id: str) -> tuple[BenchTask, GoldTruth]:
    task = TASKS[task_id]
    if task_id not in _GOLD:

        async def go() -> GoldTruth:
            return await gold_truth(task, shared_backend(BackendConfig()), 0)

        _GOLD[task_id] = asyncio.run(go())
    return task, _GOLD[task_id]


def _run_calls(task: BenchTask, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Execute calls as an agent would (auth tools first) and record them like the Inspect tools do."""

    async def go() -> list[dict[str, Any]]:
        session = Session(shared_backend(BackendConfig()), clock=task.clock, seed=0)
        out: list[dict[str, Any]] = []
        for tool, args in calls:
            if tool.endswith("_get_api_key"):
                platform = tool[: -len("_get_api_key")]
                session.issue_token(platform)
                out.append({"tool": tool, "args": {}, "ok": True, "code": "token"})
                continue
            from kopa_inspect.apis import get_operation, get_platform

            param = get_platform(get_operation(tool).platform).session_token_param
            if param:
                args = {**args, param: session.tokens.get(get_operation(tool).platform, "none")}
            out.append(call_entry(await session.call(tool, args)))
        return out

    return asyncio.run(go())


def _auth(task: BenchTask) -> list[tuple[str, dict[str, Any]]]:
    return [
        (auth_tool_name(p), {}) for p in sorted({p for s in task.plan.steps for p in s.session_platforms()})
    ]


def _gold_calls(task: BenchTask, gold: GoldTruth) -> list[dict[str, Any]]:
    return _run_calls(task, _auth(task) + list(gold.calls))


def _dump(task: BenchTask, gold: GoldTruth, fmt: str = "json") -> str:
    """What a model that pastes the tool results verbatim would answer."""
    parts = []
    for s in task.plan.steps:
        out = dict(gold.run.outputs[s.id])
        out["items"] = list(out.get("items", []))[:100]
        if fmt == "json":
            parts.append(json.dumps(out, ensure_ascii=False))
        else:
            body = {k: v for k, v in out.items() if k != "items"}
            body["items"] = {"item": out["items"]}
            parts.append(xmltodict.unparse({"response": {"body": body}}, full_document=False))
    return "\n".join(parts)


# --- task discovery: by content, not by id (the task file is rewritten by others) -------------------

ANSWERABLE = [t for t in TASKS.values() if t.category != "unanswerable"]


def _first_per_platform(limit: int = 12) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for t in ANSWERABLE:
        key = t.platforms[0] if t.platforms else ""
        if key not in seen:
            seen.add(key)
            out.append(t.id)
    return out[:limit]


def _winner_cases() -> list[tuple[str, str, list[str]]]:
    """(task id, fact id, candidates) of "which one" facts whose candidates are quoted literals."""
    out = []
    for t in ANSWERABLE:
        for f in t.facts:
            if f.required and f.matcher == "name":
                cands = matching.infer_competitors(f.value, None)
                if len(cands) >= 2:
                    out.append((t.id, f.id, cands))
    return out


# --- (a) a pasted raw tool output fails ----------------------------------------------------------


@pytest.mark.parametrize("task_id", _first_per_platform())
def test_pasted_raw_output_fails(task_id: str) -> None:
    task, gold = _gold(task_id)
    calls = _gold_calls(task, gold)
    assert grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), calls).success == 1.0
    for fmt in ("json", "xml"):
        g = grade(task, gold, _dump(task, gold, fmt), calls)
        assert g.success == 0.0 and g.answer == 0.0, (fmt, g.explanation())


def test_raw_dump_detector_spares_prose() -> None:
    assert matching.is_raw_dump('{"resultCode": "00", "items": [{"aptNm": "래미안"}]}')
    assert matching.is_raw_dump(
        "<response><body><items><item><aptNm>래미안</aptNm></item></items></body></response>"
    )
    assert matching.is_raw_dump("resultCode: 00\ntotalCount: 12\naptNm: 래미안, dealAmount: 82,500")
    assert not matching.is_raw_dump("[최종 답변]\n- 단지명: 래미안 퍼스티지\n- 거래금액: 8억 2,500만 원")
    assert not matching.is_raw_dump("강남구는 120건(PM2.5 기준 '좋음')으로 가장 많았습니다.")
    assert not matching.is_raw_dump("<p>이 약은 두통에 씁니다.</p> 보관: 실온")


# --- (b) a wrong winner fails even when every candidate is mentioned ------------------------------


@pytest.mark.parametrize(("task_id", "fid", "candidates"), _winner_cases())
def test_wrong_winner_fails(task_id: str, fid: str, candidates: list[str]) -> None:
    task, gold = _gold(task_id)
    right = gold.expected[fid]
    assert right in candidates
    # a tied pick's truth is the tied set (tests/matching/test_matching_ties.py): the wrong winner is from outside it
    tied = [str(t) for t in gold.context.get(fid, {}).get("ties") or []]
    wrong = next(
        (c for c in candidates if c != right and c not in tied and right not in c and c not in right), None
    )
    fact = next(f for f in task.facts if f.id == fid)
    desc = fact.description.split(" (")[0]
    if not matching._MARKER.search(desc):
        desc = "가장 " + desc if "가장" not in desc else desc
    calls = _gold_calls(task, gold)
    listing = ", ".join(candidates)
    lines = oracle_answer(task, gold.expected, context=gold.context).splitlines()
    k = 1 + [f.id for f in task.facts].index(fid)  # the header, then one line per fact
    others = "\n".join(lines[:k] + lines[k + 1 :])
    # 1. the structured line names the wrong winner; every candidate is mentioned elsewhere
    structured = others + f"\n- {desc}: {wrong}\n\n후보: {listing}"
    # 2. free text: every candidate listed, the wrong one claimed
    free = others + f"\n\n{listing} 중 {desc}은(는) {wrong}입니다."
    # 3. every candidate mentioned, no winner claimed at all
    vague = others + f"\n\n{listing} 모두 조회했습니다."
    # every candidate tied (kopa-107: five districts at 24.7): naming them all is the answer, nothing is wrong
    for answer in (structured, free, vague) if wrong is not None else ():
        g = grade(task, gold, answer, calls)
        assert g.fact_scores[fid] == 0.0 and g.success == 0.0, answer
    # the right winner (with its ties, named as such), claimed in free text after the same listing, passes
    good = others + f"\n\n{listing} 중 {desc}은(는) {', '.join([right, *tied])}입니다."
    g = grade(task, gold, good, calls)
    assert g.fact_scores[fid] == 1.0 and g.success == 1.0, g.explanation()


def test_there_are_which_one_tasks() -> None:
    assert len(_winner_cases()) >= 5


# --- (c) refusals ----------------------------------------------------------------------------------

UNANSWERABLE = sorted(t.id for t in TASKS.values() if t.category == "unanswerable")


@pytest.mark.parametrize("task_id", UNANSWERABLE)
def test_invented_refusal_fails_real_refusal_passes(task_id: str) -> None:
    task, gold = _gold(task_id)
    calls = _gold_calls(task, gold)  # the evidence calls, where the task has any (none: a refusal alone)
    invented = [
        "해당 기간 자료는 없습니다. 대신 최근 값은 12.3이고 총 45건입니다.",
        "조회 결과가 없습니다.",  # "없습니다" alone is a claim about the data, not a refusal
        "제공된 도구로는 답할 수 없습니다. 다만 추정하면 약 37.5% 정도입니다.",
        "I cannot answer this exactly, but it was about 18.7 degrees on 2019-03-01.",
        "제공된 도구로는 확인할 수 없지만 '한빛초등학교'가 가장 가깝습니다.",
    ]
    for answer in invented:
        g = grade(task, gold, answer, calls)
        assert g.success == 0.0, answer
    real = [
        oracle_answer(task, gold.expected),
        "제공된 도구로는 이 질문에 답할 수 없습니다. 해당 정보를 조회하는 API가 없습니다.",
        "I can't answer this: none of the available tools provides that information.",
    ]
    for answer in real:
        assert grade(task, gold, answer, calls).success == 1.0, answer
        if task.plan.steps:  # evidence steps: refusing without looking fails
            assert grade(task, gold, answer, []).success == 0.0, answer
    # a refusal may repeat the question's own figures
    nums = re.findall(r"\d+", task.query)
    if nums:
        echo = f"질문하신 {nums[0]} 관련 정보는 제공된 도구로 확인할 수 없습니다."
        assert grade(task, gold, echo, calls).success == 1.0, echo


def test_refusal_needs_the_question_to_judge_figures() -> None:
    facts = [{"id": "r", "matcher": "refusal", "value": "unanswerable"}]
    q = "2019년 3월 1일 서울 최고기온은?"
    assert (
        matching.score_answer(facts, {"r": "unanswerable"}, "2019년 자료는 확인할 수 없습니다.", question=q)[
            "r"
        ]
        == 1.0
    )
    assert (
        matching.score_answer(facts, {"r": "unanswerable"}, "확인할 수 없지만 12도쯤입니다.", question=q)["r"]
        == 0.0
    )
    assert (
        matching.score_answer(facts, {"r": "unanswerable"}, "서울 자료가 없습니다.", question=q)["r"] == 0.0
    )


# --- (d) valid alternative paths pass ----------------------------------------------------------------


def _oracle_ok(task: BenchTask, gold: GoldTruth, calls: list[dict[str, Any]]) -> Any:
    return grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), calls)


def _auth_and(task: BenchTask, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return _run_calls(task, _auth(task) + calls)


def _paged_step() -> tuple[str, str]:
    """A needed step on page 2+ of a paged query whose records are what the facts read."""
    for t in ANSWERABLE:
        for s in t.plan.steps:
            n, p = s.args.get("numOfRows"), s.args.get("pageNo")
            if isinstance(n, int) and isinstance(p, int) and p >= 2 and n % 5 == 0 and n * p <= 300:
                _, gold = _gold(t.id)
                need = gold.needs.get(s.id)
                if need is not None and need.records and not need.query:
                    return t.id, s.id
    pytest.skip("no paged step whose records the facts read")


def test_other_page_size_passes() -> None:
    task_id, sid = _paged_step()
    task, gold = _gold(task_id)
    ids = [s.id for s in task.plan.steps]
    tool, args = gold.calls[ids.index(sid)]
    n, p = int(args["numOfRows"]), int(args.get("pageNo", 1))
    rest = [c for i, c in zip(ids, gold.calls, strict=True) if i != sid]
    small = n // 5
    pages = range((p - 1) * n // small + 1, p * n // small + 1)
    alt = rest + [(tool, {**args, "numOfRows": small, "pageNo": q}) for q in pages]
    g = _oracle_ok(task, gold, _auth_and(task, alt))
    assert g.success == 1.0, g.explanation()
    # a page that misses the rows the facts depend on fails
    miss = rest + [(tool, {**args, "numOfRows": small, "pageNo": 1})]
    g = _oracle_ok(task, gold, _auth_and(task, miss))
    assert g.success == 0.0 and g.env is not None and g.env < 1.0


def _page_group() -> tuple[str, list[str]]:
    """A task whose needed steps include 2+ pages of one query (same args apart from pageNo)."""
    for t in ANSWERABLE:
        by_query: dict[str, list[str]] = {}
        for s in t.plan.steps:
            if s.expect_error or any(isinstance(v, str) and v.startswith("$") for v in s.args.values()):
                continue
            rest = {k: v for k, v in s.args.items() if k != "pageNo"}
            by_query.setdefault(s.tool + json.dumps(rest, sort_keys=True, ensure_ascii=False), []).append(
                s.id
            )
        for group in by_query.values():
            if len(group) >= 2:
                _, gold = _gold(t.id)
                if all(g in gold.needs for g in group):
                    return t.id, group
    pytest.skip("no paged query")


def test_one_call_instead_of_several_pages() -> None:
    task_id, group = _page_group()
    task, gold = _gold(task_id)
    ids = [s.id for s in task.plan.steps]
    tool, args = gold.calls[ids.index(group[0])]
    size = int(args.get("numOfRows", 10))
    last = max(int(gold.calls[ids.index(g)][1].get("pageNo", 1)) for g in group)
    rest = [c for i, c in zip(ids, gold.calls, strict=True) if i not in group]
    one = {k: v for k, v in args.items() if k != "pageNo"}
    one["numOfRows"] = size * last
    if size * last > 100:
        pytest.skip("the pages do not fit one tool view")
    g = _oracle_ok(task, gold, _auth_and(task, rest + [(tool, one)]))
    assert g.success == 1.0, g.explanation()


def test_any_order_and_optional_steps() -> None:
    task = next(t for t in ANSWERABLE if t.parallel)
    task, gold = _gold(task.id)
    assert _oracle_ok(task, gold, _auth_and(task, list(reversed(gold.calls)))).success == 1.0
    # a step that feeds no required fact is optional
    for t in ANSWERABLE:
        _, gold = _gold(t.id)
        optional = [s.id for s in t.plan.steps if s.id not in gold.needs and not s.expect_error]
        if optional:
            keep = [c for s, c in zip(t.plan.steps, gold.calls, strict=True) if s.id not in optional]
            g = _oracle_ok(t, gold, _auth_and(t, keep))
            assert g.success == 1.0, (t.id, g.explanation())
            break
    else:
        pytest.skip("no optional step")


def test_scripted_error_step_is_optional() -> None:
    task = next((t for t in ANSWERABLE if any(s.expect_error for s in t.plan.steps)), None)
    if task is None:
        pytest.skip("no error step left in the tasks")
    task, gold = _gold(task.id)
    keep = [c for s, c in zip(task.plan.steps, gold.calls, strict=True) if not s.expect_error]
    assert _oracle_ok(task, gold, _auth_and(task, keep)).success == 1.0


def test_zero_calls_never_reach_the_environment() -> None:
    for task_id in _first_per_platform(20):  # one task per platform
        task, gold = _gold(task_id)
        g = grade(task, gold, oracle_answer(task, gold.expected, context=gold.context), [])
        assert g.env is not None and g.env < 1.0, task.id
        assert g.success == 0.0
    no_steps = [t for t in UNANSWERABLE if not TASKS[t].plan.steps]
    if no_steps:  # private data no API holds: nothing to reach, ENVIRONMENT undefined
        task, gold = _gold(no_steps[0])
        assert grade(task, gold, oracle_answer(task, gold.expected), []).values()["env"] is None


def test_parallel_axis_from_turns() -> None:
    task = next(t for t in ANSWERABLE if t.parallel)
    task, gold = _gold(task.id)
    calls = _gold_calls(task, gold)
    by_id = dict(zip([s.id for s in task.plan.steps], gold.calls, strict=True))
    auth = [{"tool": tool, "args": {}} for tool, _ in _auth(task)]
    waves = [[{"tool": by_id[s.id][0], "args": by_id[s.id][1]} for s in w] for w in task.plan.levels()]
    together = ([auth] if auth else []) + waves
    one_by_one = [[c] for turn in together for c in turn]
    assert grade(task, gold, "", calls, turns=together).values()["parallel"] == 1.0
    assert grade(task, gold, "", calls, turns=one_by_one).values()["parallel"] == 0.0
    # a pure chain (no wave with two needed steps): parallel undefined
    for t in ANSWERABLE:
        _, g2 = _gold(t.id)
        if len(g2.needs) >= 2 and all(sum(1 for s in w if s.id in g2.needs) < 2 for w in t.plan.levels()):
            assert grade(t, g2, "", _gold_calls(t, g2), turns=[]).values()["parallel"] is None
            break
    else:
        pytest.skip("no pure chain")


def test_a_maximum_needs_every_candidate_record() -> None:
    found = None
    for t in ANSWERABLE:
        for f in t.facts:
            m = re.fullmatch(r"\$(\w+)\.max\(nums\(items\[\]\.(\w+)\)\)", str(f.value))
            if f.required and m:
                found = (t, m.group(1), m.group(2))
                break
        if found:
            break
    if found is None:
        pytest.skip("no max over one step's items")
    task, sid, field_name = found
    task, gold = _gold(task.id)
    ids = [s.id for s in task.plan.steps]
    tool, args = gold.calls[ids.index(sid)]
    items = matching_items = gold.run.outputs[sid]["items"]
    top = max(range(len(items)), key=lambda i: matching.to_number(matching_items[i][field_name]) or 0)
    others = [c for i, c in zip(ids, gold.calls, strict=True) if i != sid]
    lucky = _auth_and(task, others + [(tool, {**args, "numOfRows": top + 1, "pageNo": 1})])
    g = _oracle_ok(task, gold, lucky)
    if top + 1 < len(items):  # the page with the top row, and not the rest: the right answer by luck
        assert g.success == 0.0 and any(m.startswith(f"records of {sid}") for m in g.missing)
    pages = [(tool, {**args, "numOfRows": 10, "pageNo": p}) for p in range(1, len(items) // 10 + 2)]
    assert _oracle_ok(task, gold, _auth_and(task, others + pages)).success == 1.0


# --- (e) accidental facts fail -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matcher", "expected", "answer"),
    [
        ("name", "2", "PM2.5 농도는 보통입니다."),
        ("set", ["2", "5"], "PM2.5 기준"),
        ("exact", "0", "총 10건, 2026-10-05 기준"),
        ("number", 0, "PM10 수치 10, 2026-10-05 기준"),
        ("number", 2, "PM2.5는 보통"),
        ("number", 15, "2026년 10월 15일 기준으로는 자료가 있습니다"),
    ],
)
def test_accidental_facts_fail(matcher: str, expected: Any, answer: str) -> None:
    facts = [{"id": "f", "matcher": matcher, "value": "$s1.x"}]
    assert matching.score_answer(facts, {"f": expected}, answer)["f"] == 0.0


def test_tolerance_as_large_as_the_value_cannot_match_anything() -> None:
    facts = [{"id": "f", "matcher": "number", "value": "$s1.x", "tolerance": 60}]
    for answer in ("0초", "약 1분 후", "90초", "도착 정보 없음"):
        assert matching.score_answer(facts, {"f": 38}, answer)["f"] == 0.0, answer
    assert matching.score_answer(facts, {"f": 38}, "38초 후 도착")["f"] == 1.0
    with pytest.raises(ValueError):
        matching.check_tolerance({"id": "f", "matcher": "number", "tolerance": 60}, 38)


def test_relative_tolerance() -> None:
    facts = [{"id": "f", "matcher": "number", "value": "$s1.x", "rel_tol": 0.01}]
    assert matching.score_answer(facts, {"f": 1000}, "1,009")["f"] == 1.0
    assert matching.score_answer(facts, {"f": 1000}, "1,011")["f"] == 0.0


# --- (f) typed matchers: natural Korean forms pass, near misses fail --------------------------------


def _one(matcher: str, expected: Any, answer: str, **extra: Any) -> float:
    fact = {"id": "f", "matcher": matcher, "value": "$s1.x", **extra}
    return matching.score_answer([fact], {"f": expected}, answer)["f"]


def test_time_matcher() -> None:
    for ok in ("오후 3시", "15시", "15:00", "15시 00분", "오후 3시 정각", "3 PM", "1500"):
        assert _one("time", "1500", f"가장 높은 시각은 {ok}입니다") == 1.0, ok
    for bad in ("14시", "오전 3시", "3시", "16:00", "15:30", "1500원"):
        assert _one("time", "1500", f"가장 높은 시각은 {bad}입니다") == 0.0, bad
    assert _one("time", "0500", "새벽 5시 발표분") == 1.0
    assert _one("time", "0000", "자정") == 1.0


def test_month_matcher() -> None:
    for ok in ("2026년 9월", "2026-09", "2026.9", "9월", "202609"):
        assert _one("month", "202609", f"가장 높았던 달은 {ok}입니다") == 1.0, ok
    for bad in ("2025년 9월", "2026년 8월", "2026년 10월", "2026-08", "2026년 9월 19일"):
        assert _one("month", "202609", f"가장 높았던 달은 {bad}입니다") == 0.0, bad


def test_date_set_matcher() -> None:
    days = ["20261016", "20261019", "20261020"]
    assert _one("date_set", days, "시험은 10월 16일, 19일, 20일입니다") == 1.0
    assert _one("date_set", days, "2026-10-16, 2026-10-19, 2026-10-20") == 1.0
    assert _one("date_set", days, "10월 16일과 10월 19~20일") == 1.0
    assert _one("date_set", days, "10월 16일, 19일") == pytest.approx(2 / 3)
    all_days = ", ".join(f"10월 {d}일" for d in range(1, 32))  # every day of the month is no answer
    assert _one("date_set", days, all_days) == 0.0
    holidays = [20260924, 20260925, 20260926, 20261003, 20261005, 20261009]
    assert _one("date_set", holidays, "9월 24일, 25일, 26일, 10월 3일, 5일, 9일") == 1.0


def test_code_label_matcher() -> None:
    assert _one("code_label", "1", "하늘은 맑음입니다", labels="kma_sky") == 1.0
    assert _one("code_label", "1", "하늘이 맑겠습니다", labels="kma_sky") == 1.0
    for bad in ("구름많음", "흐림", "SKY 코드 1", "맑다가 흐림"):
        assert _one("code_label", "1", f"하늘은 {bad}", labels="kma_sky") == 0.0, bad
    assert _one("code_label", "0", "강수 없음", labels="kma_pty") == 1.0
    assert _one("code_label", "1", "비가 옵니다", labels="kma_pty") == 1.0
    assert _one("code_label", "1", "비/눈이 옵니다", labels="kma_pty") == 0.0
    assert _one("code_label", "1", "비교해 보니 눈이 옵니다", labels="kma_pty") == 0.0
    assert _one("code_label", "3", "눈", labels="kma_pty") == 1.0
    assert _one("code_label", "맑음", "맑겠습니다", labels="kma_mid_wf") == 1.0
    assert _one("code_label", "구름많고 비", "구름 많고 비", labels="kma_mid_wf") == 1.0
    assert _one("code_label", "구름많고 비", "흐리고 비", labels="kma_mid_wf") == 0.0
    assert _one("code_label", "2", "등급은 보통입니다", labels="airkorea_grade") == 1.0
    assert _one("code_label", "2", "등급은 나쁨입니다", labels="airkorea_grade") == 0.0


def test_duration_matcher() -> None:
    assert _one("duration", 200, "3분 20초 후 도착", unit="s") == 1.0
    assert _one("duration", 200, "200초", unit="s") == 1.0
    assert _one("duration", 200, "약 3분", unit="s") == 1.0
    for bad in ("4분", "3분 40초", "20초", "2분"):
        assert _one("duration", 200, bad, unit="s") == 0.0, bad
    assert _one("duration", 38, "38초 후", unit="s") == 1.0
    assert _one("duration", 38, "1분 후", unit="s") == 0.0
    assert _one("duration", 90, "1시간 30분", unit="min") == 1.0
    assert _one("duration", 90, "1시간", unit="min") == 0.0


def test_money_matcher() -> None:
    assert _one("money", "82,500", "8억 2,500만 원", unit="만원") == 1.0
    assert _one("money", "82,500", "82,500만원", unit="만원") == 1.0
    assert _one("money", "82,500", "825,000,000원", unit="만원") == 1.0
    for bad in ("8억 2,000만 원", "82,500원", "8,250만 원"):
        assert _one("money", "82,500", bad, unit="만원") == 0.0, bad
    sales = "324,011,470,531,696"
    assert _one("money", sales, "약 324.0조 원", unit="원") == 1.0
    assert _one("money", sales, "약 327.0조 원", unit="원") == 0.0


def test_dish_set_matcher() -> None:
    menu = "잡곡밥<br/>순두부찌개 (5.6.9.13)<br/>오징어볶음 (5.6.13.17)<br/>숙주나물 (5)<br/>열무김치 (9.13)<br/>바나나"
    dishes = ["잡곡밥", "순두부찌개", "오징어볶음", "숙주나물", "열무김치", "바나나"]
    assert _one("dish_set", menu, "메뉴: " + ", ".join(dishes)) == 1.0
    assert (
        _one("dish_set", menu, "잡곡밥, 순두부 찌개(5.6.9.13), 오징어 볶음, 숙주나물, 열무김치와 바나나")
        == 1.0
    )
    assert _one("dish_set", menu, ", ".join(dishes[:4])) == pytest.approx(4 / 6)
    assert _one("dish_set", "김치찌개(5.9.13.)<br/>쌀밥", "김치찌개, 쌀밥") == 1.0
    assert _one("dish_set", "김치찌개(5.9.13.)<br/>쌀밥", "된장찌개, 쌀밥") == 0.5
    assert _one("dish_set", menu, json.dumps({"DDISH_NM": menu}, ensure_ascii=False)) == 0.0  # pasted raw
    assert _one("name", menu, "메뉴: " + ", ".join(dishes)) == 1.0  # an old name fact on a menu, too


def test_key_facts_matcher() -> None:
    text = (
        "제7조(차임 등의 증감청구권) ① 증액청구는 약정한 차임이나 보증금의 20분의 1의 금액을 초과하지 못한다."
    )
    keys = ["차임", "보증금", "20분의 1"]
    answer = (
        "제7조(차임 등의 증감청구권)에 따르면 증액 청구는 약정한 차임이나 보증금의 20분의 1을 넘지 못합니다."
    )
    assert _one("key_facts", text, answer, keys=keys) == 1.0
    assert _one("key_facts", text, "증액은 보증금의 10분의 1까지 가능합니다.", keys=keys) == pytest.approx(
        1 / 3
    )
    eff = "<p>이 약은 감기로 인한 발열 및 동통(통증), 두통, 신경통, 근육통, 치통에 사용합니다.</p>"
    assert (
        _one("key_facts", eff, "감기로 인한 발열, 두통, 치통 등에 씁니다.", keys=["발열", "두통", "치통"])
        == 1.0
    )
    assert _one(
        "key_facts", eff, "감기로 인한 발열에 씁니다.", keys=["발열", "두통", "치통"]
    ) == pytest.approx(1 / 3)


def _natural(fact: Any, value: Any) -> tuple[str, str] | None:
    """A natural Korean statement of a real gold value and a near miss, per matcher."""
    m = fact.matcher
    if m == "time":
        h, mi = int(str(value)[:2]), int(str(value)[2:4])
        ap = "오후" if h >= 12 else "오전"
        return f"{ap} {h - 12 if h > 12 else h}시" + (f" {mi}분" if mi else ""), f"{(h + 1) % 24}시 {mi}분"
    if m == "month":
        y, mo = int(str(value)[:4]), int(str(value)[4:6])
        return f"{y}년 {mo}월", f"{y}년 {mo % 12 + 1}월"
    if m == "duration" and (fact.unit or "s") == "s" and matching.to_number(value):
        v = int(matching.to_number(value) or 0)
        return (f"{v // 60}분 {v % 60}초" if v >= 60 else f"{v}초"), f"{v + 120}초"
    if m == "money" and matching.to_number(value):
        won = (matching.to_number(value) or 0) * {"만원": 1e4, "천원": 1e3, "억원": 1e8}.get(
            fact.unit or "원", 1
        )
        return f"{int(round(won)):,}원", f"{int(round(won * 1.1)):,}원"
    if m == "code_label" and fact.labels:
        table = matching.CODE_TABLES[fact.labels]
        key = str(value) if str(value) in table else str(int(matching.to_number(value) or 0))
        label = table[key][0]
        other = next(lab for code, (lab, _) in table.items() if lab != label)
        return label, other
    if m == "dish_set":
        names = matching.dishes(value)
        return ", ".join(names), ", ".join(names[1:]) or "없음"
    if m == "key_facts" and fact.keys:
        return None
    return None


def test_typed_facts_of_the_real_tasks() -> None:
    """Every typed fact of the task file (as the task authors wrote it), on its real gold value."""
    checked = 0
    for t in ANSWERABLE:
        typed = [
            f
            for f in t.facts
            if f.matcher in ("time", "month", "duration", "money", "code_label", "dish_set")
        ]
        if not typed:
            continue
        _, gold = _gold(t.id)
        for f in typed:
            value = gold.expected[f.id]
            forms = _natural(f, value)
            if forms is None or value is None:
                continue
            good, bad = forms
            fact = f.model_dump()
            fact.update({"subject": None, "competitors": None})
            assert matching.score_answer([fact], {f.id: value}, good)[f.id] == 1.0, (t.id, f.id, value, good)
            assert matching.score_answer([fact], {f.id: value}, bad)[f.id] < 1.0, (t.id, f.id, value, bad)
            checked += 1
    assert checked >= 5


# --- facts bound to their subject -----------------------------------------------------------------


def test_subject_binding_and_competitors() -> None:
    facts = [
        {"id": "a", "matcher": "number", "value": "$b1.totalCount", "subject": "강남구"},
        {"id": "b", "matcher": "number", "value": "$b2.totalCount", "subject": "서초구"},
    ]
    expected = {"a": 120, "b": 80}
    good = matching.score_answer(facts, expected, "강남구는 120건, 서초구는 80건입니다.")
    assert good == {"a": 1.0, "b": 1.0}
    swapped = matching.score_answer(facts, expected, "강남구는 80건, 서초구는 120건입니다.")
    assert swapped == {"a": 0.0, "b": 0.0}
    structured = "[최종 답변]\n- 강남구 거래 건수: 120건\n- 서초구 거래 건수: 80건"
    assert matching.score_answer(facts, expected, structured) == {"a": 1.0, "b": 1.0}
    # the number said without its subject does not count
    assert matching.score_answer(facts, expected, "120건과 80건입니다.") == {"a": 0.0, "b": 0.0}
    # a stated competitor value fails the fact
    comp = [{"id": "a", "matcher": "number", "value": "$x", "subject": "강남구", "competitors": "$y"}]
    ctx = {"a": {"competitors": [80, 95]}}
    assert matching.score_answer(comp, {"a": 120}, "강남구 120건", context=ctx)["a"] == 1.0
    assert matching.score_answer(comp, {"a": 120}, "강남구 120건 또는 95건", context=ctx)["a"] == 0.0


def test_accept_list() -> None:
    facts = [{"id": "f", "matcher": "name", "value": "$s.x", "accept": ["서울역", "Seoul Station"]}]
    assert matching.score_answer(facts, {"f": "서울"}, "Seoul Station입니다")["f"] == 1.0


def test_which_one_figure_checks_the_claimed_value_only() -> None:
    facts = [
        {
            "id": "top",
            "matcher": "money",
            "value": "$x",
            "unit": "만원",
            "competitors": "$y",
            "description": "최고 거래금액",
        }
    ]
    ctx = {"top": {"competitors": ["250,000", "198,000"]}}
    exp = {"top": "337,000"}
    listing = "거래 금액은 33억 7,000만 원, 25억 원, 19억 8,000만 원이었습니다."
    assert (
        matching.score_answer(facts, exp, listing + " 가장 비싼 거래는 33억 7,000만 원입니다.", context=ctx)[
            "top"
        ]
        == 1.0
    )
    assert (
        matching.score_answer(facts, exp, listing + " 가장 비싼 거래는 25억 원입니다.", context=ctx)["top"]
        == 0.0
    )
    assert matching.score_answer(facts, exp, listing, context=ctx)["top"] == 0.0  # no claim
    structured = "[최종 답변]\n- 최고 거래금액: 33억 7,000만 원\n- 최저 거래금액: 19억 8,000만 원"
    assert matching.score_answer(facts, exp, structured, context=ctx)["top"] == 1.0


def test_competitor_list_may_hold_the_winner() -> None:
    facts = [
        {"id": "apt", "matcher": "name", "value": "$x", "competitors": "$y", "description": "최고가 단지"}
    ]
    ctx = {"apt": {"competitors": ["래미안", "자이", "래미안", "힐스테이트"]}}
    assert (
        matching.score_answer(facts, {"apt": "래미안"}, "가장 비싼 단지는 래미안입니다.", context=ctx)["apt"]
        == 1.0
    )
    assert (
        matching.score_answer(
            facts, {"apt": "래미안"}, "가장 비싼 단지는 자이입니다. 래미안도 있습니다.", context=ctx
        )["apt"]
        == 0.0
    )


def test_a_long_structured_value_stays_bound_to_its_subject() -> None:
    facts = [
        {"id": "t", "matcher": "key_facts", "value": "$x", "subject": "도로교통법", "keys": ["0.03"]},
        {"id": "u", "matcher": "key_facts", "value": "$y", "subject": "근로기준법", "keys": ["15일"]},
    ]
    exp = {"t": "…", "u": "…"}
    good = (
        "[최종 답변]\n- 도로교통법 제44조: 누구든지 술에 취한 상태에서 운전하여서는 아니 된다. "
        "기준은 혈중알코올농도 0.03퍼센트 이상이다.\n- 근로기준법 제60조: 15일의 유급휴가를 주어야 한다."
    )
    assert matching.score_answer(facts, exp, good) == {"t": 1.0, "u": 1.0}
    swapped = "[최종 답변]\n- 도로교통법 제44조: 15일의 유급휴가.\n- 근로기준법 제60조: 0.03퍼센트 이상."
    assert matching.score_answer(facts, exp, swapped) == {"t": 0.0, "u": 0.0}


def test_chain_with_one_tool_for_producer_and_consumer() -> None:
    """A count then the full list from the same tool: the chain is realized by the oracle's order."""
    for t in ANSWERABLE:
        tools = {s.id: s.tool for s in t.plan.steps}
        links = [(p, c) for p, c, _ in t.plan.links() if p in tools and tools[p] == tools[c]]
        if links:
            task, gold = _gold(t.id)
            g = _oracle_ok(task, gold, _gold_calls(task, gold))
            assert g.chain == 1.0 and g.success == 1.0, (t.id, g.explanation())
            rev = _oracle_ok(task, gold, _auth_and(task, list(reversed(gold.calls))))
            assert rev.chain is not None and rev.chain < 1.0, t.id
            return
    pytest.skip("no such task")


# --- (g) per-step accept lists and unanswerable tasks with evidence steps --------------------------
# Tasks are built inline (BenchTask objects over real tools and the embedded backend), so these tests
# do not depend on the task file's data.

_INLINE_CLOCK = "2026-10-05T10:05:00+09:00"


def _inline_task(
    steps: list[dict[str, Any]],
    facts: list[dict[str, Any]],
    required_state: list[str] | None = None,
    *,
    category: str = "chain2",
    query: str = "마포구 법정동 코드가 몇 개예요?",
) -> BenchTask:
    from kopa_inspect.plans import Plan
    from kopa_inspect.task_data.schema import gold_call_count, plan_is_parallel

    plan = Plan.model_validate({"steps": steps})
    state = list(required_state or [])
    tools = sorted({s["tool"] for s in steps}) or ["stanregincd_getStanReginCdList"]
    return BenchTask.model_validate(
        {
            "id": "kopa-999",
            "category": category,
            "domain": "district",
            "platforms": sorted({t.split("_")[0] for t in tools}),
            "tools": tools,
            "query": query,
            "query_en": "inline test task",
            "clock": _INLINE_CLOCK,
            "plan": plan.model_dump(),
            "facts": facts,
            "required_state": state,
            "n_calls": gold_call_count(plan, state),
            "parallel": plan_is_parallel(plan),
        }
    )


def _inline_gold(task: BenchTask) -> GoldTruth:
    return asyncio.run(gold_truth(task, shared_backend(BackendConfig()), 0))


_REGION = "stanregincd_getStanReginCdList"


def test_step_accept_list_lets_an_equivalent_query_retrieve_the_step() -> None:
    count = [{"id": "n", "description": "법정동 코드 수", "value": "$s1.totalCount", "matcher": "number"}]
    plain = _inline_task(
        [{"id": "s1", "tool": _REGION, "args": {"locatadd_nm": "서울특별시 마포구", "numOfRows": 10}}], count
    )
    # the accepted value comes from the gold output (a "$" reference resolved like an argument)
    accepting = _inline_task(
        [
            {
                "id": "s1",
                "tool": _REGION,
                "args": {"locatadd_nm": "서울특별시 마포구", "numOfRows": 10},
                "accept": {"locatadd_nm": ["$s1.items[0].locallow_nm"]},
            }
        ],
        count,
    )
    short = [(_REGION, {"locatadd_nm": "마포구", "numOfRows": 5})]
    for task, want in ((plain, 0.0), (accepting, 1.0)):
        gold = _inline_gold(task)
        g = grade(task, gold, oracle_answer(task, gold.expected), _run_calls(task, short))
        assert g.env == want, g.explanation()
    gold = _inline_gold(accepting)
    assert gold.accepts == [{"locatadd_nm": ["마포구"]}]
    # call_f1 (argument equality, a smaller page is another call) reads the accept lists too
    same_page = _run_calls(accepting, [(_REGION, {"locatadd_nm": "마포구", "numOfRows": 10})])
    assert grade(accepting, gold, oracle_answer(accepting, gold.expected), same_page).call_f1 == 1.0
    # another region is still another query
    other = _run_calls(accepting, [(_REGION, {"locatadd_nm": "강남구", "numOfRows": 10})])
    assert grade(accepting, gold, oracle_answer(accepting, gold.expected), other).env == 0.0


_REFUSAL_FACT = [
    {"id": "r", "description": "답할 수 없음 (unanswerable)", "value": "unanswerable", "matcher": "refusal"}
]
_REFUSAL = "제공된 도구로 조회해 보았지만 해당 자료가 없어 이 질문에는 답할 수 없습니다."
_MOLIT = "molit_getRTMSDataSvcAptTrade"


def _evidence_tasks() -> dict[str, BenchTask]:
    """Unanswerable tasks whose evidence step returns nothing, in the two forms the APIs use: an
    error code (the region lookup answers INFO-3 데이터없음 for a region that does not exist; the
    step is ``expect_error``) and an OK answer with no rows (MOLIT for a month nobody has reported)."""
    region = _inline_task(
        [
            {
                "id": "s1",
                "tool": _REGION,
                "args": {"locatadd_nm": "서울특별시 해운대구", "numOfRows": 10},
                "expect_error": True,
            }
        ],
        _REFUSAL_FACT,
        ["call:s1"],
        category="unanswerable",
        query="서울특별시 해운대구 이번 달 아파트 매매 건수가 몇 건이에요?",
    )
    month = _inline_task(
        [{"id": "s1", "tool": _MOLIT, "args": {"LAWD_CD": "11440", "DEAL_YMD": "202611", "numOfRows": 50}}],
        _REFUSAL_FACT,
        ["call:s1"],
        category="unanswerable",
        query="마포구 다음 달 아파트 매매 중 최고가가 얼마일지 실거래가 자료로 알려줘.",
    )
    meal = _inline_task(
        [
            {
                "id": "s1",
                "tool": "neis_schoolInfo",
                "args": {"KEY": "$session.neis", "SCHUL_NM": "대치중학교"},
            },
            {
                "id": "s2",
                "tool": "neis_mealServiceDietInfo",
                "expect_error": True,
                "args": {
                    "KEY": "$session.neis",
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                    "MLSV_YMD": "20270310",
                },
            },
        ],
        _REFUSAL_FACT,
        ["token:neis", "call:s2"],
        category="unanswerable",
        query="대치중학교 내년 3월 10일 급식 메뉴 알려줘요.",
    )
    return {"region": region, "month": month, "meal": meal}


_EVIDENCE = _evidence_tasks()
Calls = list[tuple[str, dict[str, Any]]]
_NEIS_AUTH: Calls = [("neis_get_api_key", {}), ("neis_schoolInfo", {"SCHUL_NM": "대치중학교"})]
_DAECHI = {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010056"}
_JUNK: dict[str, list[Calls]] = {
    "region": [
        [(_REGION, {"locatadd_nm": "서울특별시 마포구", "numOfRows": 10})],  # a region that exists
        [(_REGION, {"locatadd_nm": "서울특별시 해운데구", "numOfRows": 10})],  # another empty lookup
        [
            (_REGION, {"locatadd_nm": "서울특별시 해운대구", "numOfRows": 10, "pageNo": 0})
        ],  # fails for another reason
    ],
    "month": [
        [
            (_MOLIT, {"LAWD_CD": "11680", "DEAL_YMD": "202611", "numOfRows": 50})
        ],  # another district, also empty
        [(_MOLIT, {"LAWD_CD": "11440", "DEAL_YMD": "202610", "numOfRows": 50})],  # this month: has rows
        [
            (_MOLIT, {"LAWD_CD": "11440", "DEAL_YMD": "202611", "numOfRows": 50, "pageNo": "x"})
        ],  # a failed call
    ],
    "meal": [
        # dinner only on that day: empty too, but a narrower question than the gold's is no evidence
        _NEIS_AUTH
        + [("neis_mealServiceDietInfo", {**_DAECHI, "MLSV_YMD": "20270310", "MMEAL_SC_CODE": "3"})],
        _NEIS_AUTH + [("neis_mealServiceDietInfo", {**_DAECHI, "MLSV_YMD": "20270311"})],  # another day
        _NEIS_AUTH + [("neis_mealServiceDietInfo", {**_DAECHI, "MLSV_YMD": "20261023"})],  # a day with meals
    ],
}
_RIGHT: dict[str, list[Calls]] = {
    "region": [
        [(_REGION, a)]
        for a in (
            {"locatadd_nm": "서울특별시 해운대구", "numOfRows": 10},
            {"locatadd_nm": "서울특별시 해운대구", "numOfRows": 3},
            {"locatadd_nm": "서울특별시 해운대구"},
            {"locatadd_nm": "서울특별시 해운대구", "numOfRows": 100, "pageNo": 1},
        )
    ],
    "month": [
        [(_MOLIT, a)]
        for a in (
            {"LAWD_CD": "11440", "DEAL_YMD": "202611", "numOfRows": 50},
            {"LAWD_CD": "11440", "DEAL_YMD": "202611"},
            {"LAWD_CD": "11440", "DEAL_YMD": "202611", "numOfRows": 1000},
        )
    ],
    "meal": [
        _NEIS_AUTH + [("neis_mealServiceDietInfo", {**_DAECHI, "MLSV_YMD": "20270310", **extra})]
        for extra in ({}, {"pSize": 5}, {"pIndex": 1, "pSize": 100})
    ],
}


@pytest.mark.parametrize("kind", sorted(_EVIDENCE))
def test_evidence_step_refusal_without_calling_fails(kind: str) -> None:
    task = _EVIDENCE[kind]
    gold = _inline_gold(task)
    evidence = task.required_state[-1].split(":")[1]
    assert gold.run.outputs[evidence]["items"] == []  # the step's gold result holds no record
    g = grade(task, gold, _REFUSAL, [])
    assert g.answer == 1.0 and g.success == 0.0, g.explanation()
    assert g.env == 0.0  # ENVIRONMENT is defined for a task with an evidence step
    if len(task.plan.steps) > 1:  # the lookup before it without the evidence call is not enough
        g = grade(task, gold, _REFUSAL, _run_calls(task, _NEIS_AUTH))
        assert g.success == 0.0 and g.env is not None and 0.0 < g.env < 1.0, g.explanation()


@pytest.mark.parametrize("kind", sorted(_EVIDENCE))
def test_evidence_step_is_not_retrieved_by_a_junk_call(kind: str) -> None:
    task = _EVIDENCE[kind]
    gold = _inline_gold(task)
    for calls in _JUNK[kind]:
        g = grade(task, gold, _REFUSAL, _run_calls(task, calls))
        assert g.success == 0.0 and g.env is not None and g.env < 1.0, (calls, g.explanation())
        assert any(m.startswith(f"records of {task.required_state[-1][5:]}") for m in g.missing), g.missing


@pytest.mark.parametrize("kind", sorted(_EVIDENCE))
def test_evidence_step_right_call_any_page_size_then_refusal_passes(kind: str) -> None:
    task = _EVIDENCE[kind]
    gold = _inline_gold(task)
    for calls in _RIGHT[kind]:
        made = _run_calls(task, calls)
        g = grade(task, gold, _REFUSAL, made)
        assert g.success == 1.0 and g.env == 1.0 and g.chain == 1.0, (calls, g.explanation())
        # the oracle's own refusal passes too
        assert grade(task, gold, oracle_answer(task, gold.expected), made).success == 1.0
    # a junk call beside the right ones costs efficiency, not success
    both = _run_calls(task, _JUNK[kind][0] + _RIGHT[kind][0][-1:])
    g = grade(task, gold, _REFUSAL, both)
    assert g.success == 1.0 and g.efficiency < 1.0, g.explanation()


@pytest.mark.parametrize("kind", sorted(_EVIDENCE))
def test_evidence_step_then_an_invented_figure_fails(kind: str) -> None:
    task = _EVIDENCE[kind]
    gold = _inline_gold(task)
    calls = _run_calls(task, _RIGHT[kind][0])
    for answer in (
        "조회 결과 자료가 없어 정확히 답할 수 없지만, 약 3억 2,000만 원 정도로 예상됩니다.",
        "해당 자료는 제공되지 않습니다. 대신 지난달에는 17건이었습니다.",
    ):
        g = grade(task, gold, answer, calls)
        assert g.env == 1.0 and g.success == 0.0, answer


def test_unanswerable_task_without_evidence_steps_passes_on_a_refusal_alone() -> None:
    private = _inline_task(
        [],
        _REFUSAL_FACT,
        [],
        category="unanswerable",
        query="국민의힘 소속 국회의원 한 명의 자택 주소 좀 알려줘.",
    )
    gold = _inline_gold(private)
    g = grade(private, gold, "개인정보라서 제공된 도구로는 알려드릴 수 없습니다.", [])
    assert g.success == 1.0 and g.values()["env"] is None
    assert grade(private, gold, "서울 마포구 어딘가에 삽니다.", []).success == 0.0
    for t in TASKS.values():  # the task file's own (private data, no API holds it)
        if t.category == "unanswerable" and not t.plan.steps:
            task, gold = _gold(t.id)
            g = grade(task, gold, oracle_answer(task, gold.expected), [])
            assert g.success == 1.0 and g.values()["env"] is None, t.id


# --- (h) the refusal and superlative heuristics under attack ---------------------------------------
# Both read Korean and English phrasing with word lists (UNCERTAIN: heuristics, not a classifier);
# these are the attacks they must withstand and the plain answers they must keep accepting.

_Q_FUTURE = "마포구 다음 달 아파트 매매 중 최고가가 얼마일지 실거래가 자료로 알려줘."


@pytest.mark.parametrize(
    "answer",
    [
        "정확하진 않지만 약 3억 원 정도입니다.",  # hedges, never declines
        "정확히는 알 수 없지만 약 3억 원 정도입니다.",  # declines, then states a figure
        "정확히 알 수는 없지만 아마 삼억 원 정도일 겁니다.",  # the figure in Korean numerals
        "다음 달 자료는 아직 제공되지 않아 확인할 수 없지만, 아마 지금보다 오를 것으로 보입니다.",  # a guess, no figure
        "제공된 도구로는 확인할 수 없습니다. 다만 추정컨대 상승세가 이어질 가능성이 높습니다.",
        "I cannot know this for sure, but it will probably be around three hundred million won.",
        "I can't confirm it with the tools, but prices will likely rise next month.",
        "이번 달 결석자는 없습니다.",  # a claim about the data, not a refusal
    ],
)
def test_hedged_refusals_fail(answer: str) -> None:
    assert matching.refusal_score(answer, _Q_FUTURE) == 0.0, answer


@pytest.mark.parametrize(
    "answer",
    [
        "I can't answer that: next month's transactions have not been reported yet, so no tool provides them.",
        "죄송하지만 다음 달 거래는 아직 신고되지 않아 답변드리기 어려울 것 같습니다.",
        "다음 달 최고가 예상치는 제공된 도구로 알 수 없습니다. 실거래가는 신고된 거래만 조회됩니다.",
        "Sorry, I am unable to predict next month's top price: the transaction API only has reported deals.",
    ],
)
def test_plain_refusals_pass(answer: str) -> None:
    assert matching.refusal_score(answer, _Q_FUTURE) == 1.0, answer


def test_none_stated_in_words_answers_a_zero_count() -> None:
    """ "없습니다" inside a genuine answer: a count of 0 said as "없습니다" is the right answer."""
    fact = [
        {
            "id": "n",
            "matcher": "number",
            "value": "$s5.totalCount",
            "description": "주변 숙소 수 (lodgings nearby)",
        }
    ]
    q = "해운대 관광지 주변 1km 안 숙소도 몇 개인지 알려주세요."
    ok = [
        "주변 1km 안에는 숙소가 없습니다.",
        "[최종 답변]\n- 주변 숙소 수: 없음",
        "숙소는 0곳입니다.",
        "There are no lodgings within 1 km.",
    ]
    for answer in ok:
        assert matching.score_answer(fact, {"n": 0}, answer, question=q)["n"] == 1.0, answer
    bad = [
        "주변 숙소는 3곳입니다. 다른 정보는 없습니다.",  # the count is stated, and it is 3
        "관광지 정보는 없습니다.",  # "없습니다" about something else
        "숙소가 없습니다만 5곳이 예약 가능합니다.",
    ]
    for answer in bad:
        assert matching.score_answer(fact, {"n": 0}, answer, question=q)["n"] == 0.0, answer
    # "없습니다" is no answer when the count is not 0
    assert matching.score_answer(fact, {"n": 4}, "주변 숙소는 없습니다.", question=q)["n"] == 0.0
    # a subject-bound zero: only the subject's own stretch is read
    bound = [
        {"id": "a", "matcher": "number", "value": "$x", "subject": "강남구", "description": "거래 건수"},
        {"id": "b", "matcher": "number", "value": "$y", "subject": "서초구", "description": "거래 건수"},
    ]
    got = matching.score_answer(bound, {"a": 0, "b": 12}, "강남구는 거래가 없고, 서초구는 12건입니다.")
    assert got == {"a": 1.0, "b": 1.0}
    got = matching.score_answer(bound, {"a": 0, "b": 12}, "강남구는 12건이고, 서초구는 거래가 없습니다.")
    assert got == {"a": 0.0, "b": 0.0}


_WIN = [{"id": "apt", "matcher": "name", "value": "$x", "competitors": "$y", "description": "가장 비싼 단지"}]
_WIN_CTX = {"apt": {"competitors": ["자이", "힐스테이트"]}}


@pytest.mark.parametrize(
    "answer",
    [
        "가장 비싼 곳은 래미안, 자이, 힐스테이트입니다.",  # the winner hidden in a list of all candidates
        "가장 비싼 곳은 래미안 또는 자이입니다.",
        "가장 비싼 단지는 래미안과 자이 중 하나입니다.",
        "[최종 답변]\n- 가장 비싼 단지: 래미안, 자이, 힐스테이트",
        "The most expensive complex is 래미안 or 자이.",
        "래미안은 가장 비싼 곳이 아닙니다.",  # a negated claim about the winner
        "래미안은 가장 비싸지 않습니다.",
        "가장 비싸지 않은 곳은 래미안입니다.",  # "the least expensive", not the top
        "래미안 is not the most expensive one.",
    ],
)
def test_hidden_or_negated_winner_fails(answer: str) -> None:
    assert matching.score_answer(_WIN, {"apt": "래미안"}, answer, context=_WIN_CTX)["apt"] == 0.0, answer


@pytest.mark.parametrize(
    "answer",
    [
        "가장 비싼 곳은 래미안입니다.",
        "가장 비싼 곳은 래미안(33억)이고, 자이(25억)가 뒤를 이었습니다.",
        "래미안, 자이, 힐스테이트 중 가장 비싼 곳은 래미안입니다.",
        "가장 비싼 곳은 자이가 아니라 래미안입니다.",
        "자이는 가장 비싼 곳이 아닙니다. 가장 비싼 곳은 래미안입니다.",
        "[최종 답변]\n- 가장 비싼 단지: 래미안 (33억 7,000만 원), 2위 자이",
    ],
)
def test_plain_winner_claims_pass(answer: str) -> None:
    assert matching.score_answer(_WIN, {"apt": "래미안"}, answer, context=_WIN_CTX)["apt"] == 1.0, answer


def test_winning_figure_hidden_in_a_list_fails() -> None:
    facts = [
        {
            "id": "top",
            "matcher": "money",
            "value": "$x",
            "unit": "만원",
            "competitors": "$y",
            "description": "최고 거래금액",
        }
    ]
    ctx = {"top": {"competitors": ["250,000", "198,000"]}}
    exp = {"top": "337,000"}
    hidden = [
        "가장 비싼 거래는 33억 7,000만 원, 25억 원, 19억 8,000만 원입니다.",
        "가장 비싼 거래는 33억 7,000만 원 또는 25억 원입니다.",
        "[최종 답변]\n- 최고 거래금액: 33억 7,000만 원, 25억 원, 19억 8,000만 원",
    ]
    for answer in hidden:
        assert matching.score_answer(facts, exp, answer, context=ctx)["top"] == 0.0, answer
    fine = [
        "가장 비싼 거래는 33억 7,000만 원이고, 가장 싼 거래는 19억 8,000만 원입니다.",
        "가장 비싼 거래는 33억 7,000만 원이었습니다.",
    ]
    for answer in fine:
        assert matching.score_answer(facts, exp, answer, context=ctx)["top"] == 1.0, answer


def test_evidence_steps_must_be_scored() -> None:
    """An unanswerable task's step that no ``call:`` entry reaches, or a ``call:`` entry naming an
    optional step, would be skipped by the scorer without a word: the task data is refused."""
    step = {"id": "s1", "tool": _REGION, "args": {"locatadd_nm": "서울특별시 해운대구"}, "expect_error": True}
    with pytest.raises(ValueError, match=r"step s1 .*call:s1"):
        _inline_task([step], _REFUSAL_FACT, [], category="unanswerable")
    with pytest.raises(ValueError, match=r"call:s1.*optional"):
        _inline_task([{**step, "required": False}], _REFUSAL_FACT, ["call:s1"], category="unanswerable")
    # a lookup that feeds the evidence step is reached through it
    _EVIDENCE["meal"].model_validate(_EVIDENCE["meal"].model_dump())


def test_evidence_step_accept_list_may_show_the_absence_another_way() -> None:
    """Looking up "해운대구" alone (it answers with 부산's 해운대구 only) shows as well that 서울 has
    none: with that value in the step's accept list it is evidence, whatever the API's outcome."""
    step = {
        "id": "s1",
        "tool": _REGION,
        "args": {"locatadd_nm": "서울특별시 해운대구", "numOfRows": 10},
        "expect_error": True,
    }
    other_way = [(_REGION, {"locatadd_nm": "해운대구", "numOfRows": 10})]
    for accept, want in (({}, 0.0), ({"locatadd_nm": ["해운대구"]}, 1.0)):
        task = _inline_task(
            [{**step, "accept": accept}],
            _REFUSAL_FACT,
            ["call:s1"],
            category="unanswerable",
            query="서울특별시 해운대구 이번 달 아파트 매매 건수가 몇 건이에요?",
        )
        gold = _inline_gold(task)
        made = _run_calls(task, other_way)
        assert made[0]["ok"]  # the other way answers OK (부산광역시 해운대구)
        assert grade(task, gold, _REFUSAL, made).success == want, accept
        # an accepted value asked in a way that fails for another reason is still no evidence
        bad = _run_calls(task, [(_REGION, {"locatadd_nm": "해운대구", "numOfRows": 10, "pageNo": 0})])
        assert grade(task, gold, _REFUSAL, bad).success == 0.0


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("대치중학교가 개포중학교보다 칼로리가 더 높습니다.", 1.0),
        ("대치중학교(812kcal)가 개포중학교(700kcal)보다 높습니다.", 1.0),
        ("개포중학교보다 대치중학교가 더 높습니다.", 1.0),
        ("개포중학교는 대치중학교보다 칼로리가 더 낮습니다.", 1.0),
        ("대치중학교 is higher than 개포중학교.", 1.0),
        ("개포중학교가 대치중학교보다 더 높습니다.", 0.0),  # the comparison the wrong way round
        ("대치중학교는 개포중학교보다 낮습니다.", 0.0),
        ("대치중학교보다 개포중학교가 칼로리가 높습니다.", 0.0),
        ("개포중학교 is higher than 대치중학교.", 0.0),
    ],
)
def test_comparatives_claim_the_subject_not_the_other(answer: str, want: float) -> None:
    """ "A가 B보다 더 높다": the claim is A; B is what it is compared with (not the nearest name)."""
    facts = [
        {
            "id": "w",
            "matcher": "name",
            "value": "$x",
            "competitors": "$y",
            "description": "칼로리가 더 높은 학교",
        }
    ]
    got = matching.score_answer(
        facts, {"w": "대치중학교"}, answer, context={"w": {"competitors": ["개포중학교"]}}
    )
    assert got["w"] == want, answer


def test_english_refusal_may_repeat_the_gloss_but_invents_no_name() -> None:
    q = "서울 강남역 앞 버스정류장에 146번 버스 언제 와?\nWhen does bus 146 arrive at the stop in front of Gangnam Station?"
    fine = "I can't tell when bus 146 arrives at Gangnam Station: no tool gives live arrivals for that stop."
    assert matching.refusal_score(fine, q) == 1.0
    for invented in (
        "I can't see live arrivals, but Yeoksam Station usually has bus 146 every 8 minutes.",
        "I cannot answer exactly, but try Seoul National University Hospital stop instead.",
        "I can't check that; Hanbit Elementary School is the closest school.",
    ):
        assert matching.refusal_score(invented, q) == 0.0, invented


def test_grading_reads_the_english_gloss_as_part_of_the_question() -> None:
    task = _inline_task(
        [],
        _REFUSAL_FACT,
        [],
        category="unanswerable",
        query="서울역삼초등학교 3학년 2반 김민준 학생의 1학기 성적 좀 알려주세요.",
    )
    task = task.model_copy(
        update={
            "query_en": "Tell me the first-semester grades of Kim Min-jun, Seoul Yeoksam Elementary School."
        }
    )
    gold = _inline_gold(task)
    answer = "I can't share the grades of a student at Seoul Yeoksam Elementary School: no tool holds private records."
    assert grade(task, gold, answer, []).success == 1.0
    assert grade(task, gold, answer.replace("Seoul Yeoksam", "Hanbit"), []).success == 0.0


def test_no_information_is_not_a_zero() -> None:
    """ "강수확률 정보가 없습니다" says the model found nothing, not that the chance of rain is 0%."""
    fact = [
        {"id": "pop", "matcher": "number", "value": "$s2.x", "description": "1800 강수확률 (1100 발표분)"}
    ]
    q = "수원 영통구 오늘 오후 6시 강수확률 알려주세요."
    for answer in (
        "오후 6시 강수확률 정보가 없습니다.",
        "강수확률은 조회 결과가 없습니다.",
        "There is no data on the chance of rain (강수확률) at 6 PM.",
    ):
        assert matching.score_answer(fact, {"pop": 0}, answer, question=q)["pop"] == 0.0, answer
    for answer in (
        "오후 6시 강수확률은 0%입니다.",
        "오후 6시 강수확률은 없습니다(0%).",
        "오후 6시 강수확률: 0",
    ):
        assert matching.score_answer(fact, {"pop": 0}, answer, question=q)["pop"] == 1.0, answer
    bound = [{"id": "a", "matcher": "number", "value": "$x", "subject": "강남구", "description": "거래 건수"}]
    assert matching.score_answer(bound, {"a": 0}, "강남구는 거래 자료가 없습니다.")["a"] == 0.0


def test_number_words_are_read_as_figures_but_words_are_not() -> None:
    q = "다음 달 20일 서울 날씨 어때?"
    assert matching.refusal_score("확인할 수 없지만 이십 도쯤입니다.", q) == 0.0
    assert matching.refusal_score("알 수 없지만 삼억원입니다.", q) == 0.0
    assert matching.refusal_score("날씨 API만 도구로 제공되어 다음 달 날씨는 확인할 수 없습니다.", q) == 1.0


def test_evidence_step_on_a_token_platform_that_only_fails() -> None:
    """A school that does not exist: the only NEIS call fails (INFO-200), so no OK call shows the
    token at work; the evidence call itself (with the token, the gold's code) does."""
    task = _inline_task(
        [
            {
                "id": "s1",
                "tool": "neis_schoolInfo",
                "args": {"KEY": "$session.neis", "SCHUL_NM": "한빛누리초등학교"},
                "expect_error": True,
            }
        ],
        _REFUSAL_FACT,
        ["call:s1", "token:neis"],
        category="unanswerable",
        query="서울 한빛누리초등학교 오늘 점심 메뉴가 뭐예요?",
    )
    gold = _inline_gold(task)
    right = _run_calls(
        task, [("neis_get_api_key", {}), ("neis_schoolInfo", {"SCHUL_NM": "한빛누리초등학교"})]
    )
    g = grade(task, gold, _REFUSAL, right)
    assert g.success == 1.0 and g.env == 1.0, g.explanation()
    # without the token the same call fails for another reason (no key): neither state is reached
    keyless = _run_calls(task, [("neis_schoolInfo", {"SCHUL_NM": "한빛누리초등학교"})])
    assert not keyless[0]["ok"] and keyless[0]["code"] != gold.run.codes["s1"]
    assert grade(task, gold, _REFUSAL, keyless).env == 0.0


def test_row_range_paging_is_paging_too() -> None:
    """ECOS pages by start/end (Seoul by START_INDEX/END_INDEX, law.go.kr by display/page): another
    row range of the gold question is the same question."""
    args = {
        "lang": "kr",
        "start": 1,
        "end": 10,
        "STAT_CODE": "722Y001",
        "CYCLE": "M",
        "START_TIME": "202701",
        "END_TIME": "202701",
        "ITEM_CODE1": "0101000",
    }
    task = _inline_task(
        [{"id": "s1", "tool": "ecos_StatisticSearch", "args": args, "expect_error": True}],
        _REFUSAL_FACT,
        ["call:s1"],
        category="unanswerable",
        query="2027년 1월 한국은행 기준금리가 몇 퍼센트인지 ECOS에서 찾아줘.",
    )
    gold = _inline_gold(task)
    for other in ({"start": 1, "end": 100}, {"start": 1, "end": 5}):
        made = _run_calls(task, [("ecos_StatisticSearch", {**args, **other})])
        assert grade(task, gold, _REFUSAL, made).success == 1.0, other
    month = _run_calls(
        task, [("ecos_StatisticSearch", {**args, "START_TIME": "202702", "END_TIME": "202702"})]
    )
    assert grade(task, gold, _REFUSAL, month).success == 0.0
    assert matching.same_query(
        {"START_INDEX": 1, "END_INDEX": 5, "x": 1}, {"START_INDEX": 1, "END_INDEX": 1000, "x": 1}
    )
    assert matching.same_query({"display": 20, "page": 1, "query": "민법"}, {"display": 100, "query": "민법"})


# --- (c2) an invented zero beside a decline ------------------------------------------------------------
# The empty result of a future or non-existent query is not a count of zero: "다음 달 거래는 없습니다" says
# no trade happened, which nobody can know. Each answer below makes the task's gold (evidence) calls and
# declines, but also states the asked-for thing is none; it must fail. The honest reasons beside them
# (the source does not hold it yet, the place does not exist) must pass.

_INVENTED_ZERO = {
    "kopa-132": [
        "마포구 다음 달 아파트 매매 거래는 없습니다. 그래서 최고가는 알려드릴 수 없습니다.",
        "다음 달에는 마포구 실거래가 한 건도 없어 최고가를 답할 수 없습니다.",
    ],
    "kopa-133": ["2027년 1월 기준금리는 없습니다. ECOS에서 확인할 수 없습니다."],
    "kopa-134": [
        "내년 3월 10일에는 급식이 없습니다. 메뉴를 알려드릴 수 없습니다.",
        "서울대치초등학교 내년 3월 10일 점심 메뉴는 없어서 알려드릴 수 없습니다.",
    ],
    "kopa-135": [
        "내일 아침 8시에 충남대학교 정류장에 도착하는 버스는 없습니다. 정확한 시간은 확인할 수 없습니다."
    ],
    "kopa-142": [
        "서울특별시 해운대구의 이번 달 아파트 매매는 없습니다. 더 자세한 내용은 확인할 수 없습니다."
    ],
    "kopa-144": ["한빛누리초등학교 오늘 점심 급식은 없습니다. 메뉴를 알려드릴 수 없습니다."],
}
_HONEST_REASON = {
    "kopa-132": [
        "다음 달 거래 자료는 아직 없어 최고가를 알려드릴 수 없습니다.",
        "다음 달 거래는 아직 신고되지 않아 알 수 없습니다. 실거래가 API에는 신고된 거래만 있습니다.",
    ],
    "kopa-133": ["2027년 1월 기준금리는 아직 공표되지 않아 ECOS에서 확인할 수 없습니다."],
    "kopa-134": [
        "내년 3월 식단은 아직 등록되지 않아 급식 메뉴를 알려드릴 수 없습니다.",
        "내년 3월 10일 급식 정보가 없어 알려드릴 수 없습니다.",
    ],
    "kopa-135": ["버스 도착 정보는 실시간으로만 제공되어 내일 아침 8시 도착 예정은 확인할 수 없습니다."],
    "kopa-142": [
        "서울특별시에는 해운대구가 없어 조회할 수 없습니다. 해운대구는 부산광역시의 구입니다.",
        "그런 구는 서울특별시에 없습니다. 매매 건수를 확인할 수 없습니다.",
    ],
    "kopa-144": ["나이스에 한빛누리초등학교라는 학교가 없어 급식을 조회할 수 없습니다."],
}


@pytest.mark.parametrize("task_id", sorted(_INVENTED_ZERO))
def test_invented_zero_beside_a_decline_fails(task_id: str) -> None:
    task, gold = _gold(task_id)
    calls = _gold_calls(task, gold)
    for answer in _INVENTED_ZERO[task_id]:
        assert grade(task, gold, answer, calls).success == 0.0, answer
    for answer in _HONEST_REASON[task_id]:
        assert grade(task, gold, answer, calls).success == 1.0, answer


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("다음 달 마포구 매매거래는 없습니다. 최고가는 알려드릴 수 없습니다.", False),
        ("There are no trades in Mapo next month, so I can't tell the top price.", False),
        ("There will be no lunch on that day; I cannot show a menu.", False),
        ("There are no reported trades for next month yet, so I can't tell the top price.", True),
        ("TAGO에서 서울 시내버스는 없습니다. 도착 시간을 확인할 수 없습니다.", True),
        ("다음 달 거래는 아직 없어 확인할 수 없습니다.", True),  # not yet: the data's state, not a count
        ("관광지 정보는 제공할 수 없습니다.", True),
    ],
)
def test_none_claims_in_refusals(answer: str, ok: bool) -> None:
    assert matching.refusal_score(answer, _Q_FUTURE) == (1.0 if ok else 0.0), answer


def test_invented_weather_beside_a_decline_fails() -> None:
    """kopa-128 (a month ahead): saying it will (not) rain is a forecast nobody can give."""
    task, gold = _gold("kopa-128")
    calls = _gold_calls(task, gold)
    for answer in (
        "다음 달 20일 서울에는 비가 오지 않습니다. 자세한 예보는 확인할 수 없습니다.",
        "정확한 예보는 확인할 수 없지만 그날은 맑겠습니다.",
        "한 달 뒤 예보는 조회할 수 없습니다. 비는 안 와요.",
        "I can't get a forecast that far ahead, but it will not rain.",
    ):
        assert grade(task, gold, answer, calls).success == 0.0, answer
    for answer in (
        "중기예보는 10일 뒤까지만 있어 다음 달 20일 날씨와 비 소식은 확인할 수 없습니다.",
        "한 달 뒤에 비가 올지는 제공된 도구로 알 수 없습니다.",
        "I can't tell whether it will rain: forecasts only reach 10 days ahead.",
    ):
        assert grade(task, gold, answer, calls).success == 1.0, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("대치중학교 쪽의 칼로리가 더 큽니다.", 1.0),  # 크다 contracted: 큽니다
        ("대치중학교 쪽이 더 비쌉니다.", 1.0),
        ("개포중학교 쪽의 칼로리가 더 큽니다.", 0.0),
        ("개포중학교 쪽이 더 비쌉니다.", 0.0),
        ("대치중학교는 812kcal, 개포중학교는 700kcal입니다.", 0.0),  # no claim at all
    ],
)
def test_contracted_comparatives_are_claims(answer: str, want: float) -> None:
    facts = [
        {
            "id": "w",
            "matcher": "name",
            "value": "$x",
            "competitors": "$y",
            "description": "칼로리가 더 큰 학교",
        }
    ]
    got = matching.score_answer(
        facts, {"w": "대치중학교"}, answer, context={"w": {"competitors": ["개포중학교"]}}
    )
    assert got["w"] == want, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        (
            "'대치중학교'의 칼로리는 812, '개포중학교'의 칼로리는 700입니다. '대치중학교' 쪽의 칼로리가 더 큽니다.",
            1.0,
        ),
        ("'대치중학교'의 가격은 812, '개포중학교'의 가격은 700입니다. '대치중학교' 쪽이 더 비쌉니다.", 1.0),
        (
            "'대치중학교'의 칼로리는 812, '개포중학교'의 칼로리는 700입니다. '개포중학교' 쪽의 칼로리가 더 큽니다.",
            0.0,
        ),
    ],
)
def test_contracted_comparative_after_both_figures(answer: str, want: float) -> None:
    """Both candidates named with their figures, then the claim: 큽니다 / 비쌉니다 mark it."""
    facts = [
        {
            "id": "w",
            "matcher": "name",
            "value": "$x",
            "competitors": "$y",
            "description": "칼로리가 더 큰 학교",
        }
    ]
    got = matching.score_answer(
        facts, {"w": "대치중학교"}, answer, context={"w": {"competitors": ["개포중학교"]}}
    )
    assert got["w"] == want, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("'동아1'은 2, '신동아2'은 1입니다.", 0.0),  # swapped: the "1" of 동아1's own name is no figure
        ("'동아1'의 병원은 2건, '신동아2'의 병원은 1건입니다.", 0.0),
        ("'동아1'의 병원은 1건, '신동아2'의 병원은 2건입니다.", 1.0),
        ("동아1은 1, 신동아2는 2입니다.", 1.0),
    ],
)
def test_a_figure_inside_the_subjects_own_name_is_not_its_value(answer: str, want: float) -> None:
    facts = [
        {"id": "f1", "matcher": "number", "value": "$x", "subject": "동아1", "description": "병원 수"},
        {"id": "f2", "matcher": "number", "value": "$y", "subject": "신동아2", "description": "병원 수"},
    ]
    got = matching.score_answer(facts, {"f1": 1, "f2": 2}, answer)
    assert min(got.values()) == want, (answer, got)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("'분당서울대학교병원'은 1300, '서울대학교병원'은 1230입니다.", 0.0),  # swapped
        ("'상계동'은 76, '계동'은 71입니다.", 0.0),
        ("'분당서울대학교병원'은 1230, '서울대학교병원'은 1300입니다.", 1.0),
        ("'상계동'은 71, '계동'은 76입니다.", 1.0),
    ],
)
def test_a_name_inside_another_name_binds_only_itself(answer: str, want: float) -> None:
    """ "서울대학교병원" inside "분당서울대학교병원" is not a mention of 서울대학교병원."""
    pairs = (
        {"분당서울대학교병원": 1230, "서울대학교병원": 1300}
        if "병원" in answer
        else {"상계동": 71, "계동": 76}
    )
    facts = [
        {"id": f"f{i}", "matcher": "number", "value": "$x", "subject": name, "description": "값"}
        for i, name in enumerate(pairs)
    ]
    got = matching.score_answer(facts, {f"f{i}": v for i, v in enumerate(pairs.values())}, answer)
    assert min(got.values()) == want, (answer, got)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # swapped: a row of the final 2,000-row EDGE run passed this (1 of 893 comparisons)
        ("'북촌한옥마을 더스테이 펜션'은 15, '북촌한옥마을'은 16입니다.", 0.0),
        ("'북촌한옥마을 더스테이 펜션'의 근처 병원은 16건, '북촌한옥마을'의 근처 병원은 15건입니다.", 1.0),
        ("북촌한옥마을은 15건, 북촌한옥마을 더스테이 펜션은 16건입니다.", 1.0),
    ],
)
def test_a_name_that_begins_another_name_binds_only_itself(answer: str, want: float) -> None:
    """ "북촌한옥마을" (a sight) begins "북촌한옥마을 더스테이 펜션" (a guesthouse named after it): two
    subjects of one task, so two entities; only a longer name ending in the shorter one is a form of it
    ("서울특별시 강남구" / "강남구")."""
    facts = [
        {
            "id": "f1",
            "matcher": "number",
            "value": "$x",
            "subject": "북촌한옥마을 더스테이 펜션",
            "description": "병원 수",
        },
        {"id": "f2", "matcher": "number", "value": "$y", "subject": "북촌한옥마을", "description": "병원 수"},
    ]
    got = matching.score_answer(facts, {"f1": 16, "f2": 15}, answer)
    assert min(got.values()) == want, (answer, got)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("'분당서울대학교병원'은 13시, '서울대학교병원'은 12시 30분입니다.", 0.0),  # swapped
        ("'분당서울대학교병원'은 1300, '서울대학교병원'은 1230입니다.", 0.0),
        ("'분당서울대학교병원'은 12시 30분, '서울대학교병원'은 13시입니다.", 1.0),
        ("분당서울대학교병원은 12:30, 서울대학교병원은 13:00에 끝납니다.", 1.0),
    ],
)
def test_times_bind_to_their_subject(answer: str, want: float) -> None:
    facts = [
        {
            "id": "f1",
            "matcher": "time",
            "value": "$x",
            "subject": "분당서울대학교병원",
            "description": "진료 종료",
        },
        {
            "id": "f2",
            "matcher": "time",
            "value": "$y",
            "subject": "서울대학교병원",
            "description": "진료 종료",
        },
    ]
    got = matching.score_answer(facts, {"f1": "1230", "f2": "1300"}, answer)
    assert min(got.values()) == want, (answer, got)


# --- (i) a "which one" claim is bound to its measure -------------------------------------------------
# Two comparisons over different measures (A has more doctors, B more beds): before, the matcher bound a
# winner claim to names only and dropped a competitor that is another fact's own winner, so an answer with
# both winners swapped still claimed every name somewhere and passed (EDGE dropped such rows:
# filter.claims_overlap). A claim now counts for a fact only in the clause or sentence that names its
# measure (the words of its description; a figure/pick over another measure is another claim).


def _edge_two_measures() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """EDGE-style facts: per-row figures bound to their row, two winner facts (compose._winner_fact)."""

    def fig(fid: str, name: str, label: str) -> dict[str, Any]:
        return {
            "id": fid,
            "matcher": "number",
            "value": f"$s{fid}.items[0].x",
            "subject": name,
            "description": f"'{name}'의 {label}",
            "row_reason": "compared",
            "tolerance": 0.0,
        }

    def win(fid: str, label: str, winner: str, other: str, ref: str) -> dict[str, Any]:
        return {
            "id": fid,
            "matcher": "name",
            "value": "$s1.items[0].yadmNm",
            "competitors": [other],
            "description": f"{label}가 더 큰 쪽의 이름",
            "winner_step": "s3",
            "row_reason": "compared",
            "winner_label": f"'{winner}'",
            "winner_value_ref": ref,
            "tolerance": 0.0,
        }

    facts = [
        fig("f1", "가람병원", "의사 수"),
        fig("f2", "나래병원", "의사 수"),
        win("f3", "의사 수", "가람병원", "나래병원", "$s2.items[0].drTotCnt"),
        fig("f4", "가람병원", "병상 수"),
        fig("f5", "나래병원", "병상 수"),
        win("f6", "병상 수", "나래병원", "가람병원", "$s4.items[0].hospBdCnt"),
    ]
    return facts, {"f1": 12, "f2": 7, "f3": "가람병원", "f4": 150, "f5": 320, "f6": "나래병원"}


_DOCTORS = (
    "'가람병원'의 의사 수는 12명, '나래병원'의 의사 수는 7명입니다. 의사 수가 더 큰 쪽은 '{d}' 쪽입니다."
)
_BEDS = (
    "'가람병원'의 병상 수는 150개, '나래병원'의 병상 수는 320개입니다. 병상 수가 더 큰 쪽은 '{b}' 쪽입니다."
)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # the template (compose.answer_text), both orders of the two comparisons
        (_DOCTORS.format(d="가람병원") + " " + _BEDS.format(b="나래병원"), 1.0),
        (_BEDS.format(b="나래병원") + " " + _DOCTORS.format(d="가람병원"), 1.0),
        # a person's words: the measure said as the description has it, the claim in its clause
        (
            "가람병원은 의사가 12명, 병상이 150개이고 나래병원은 의사가 7명, 병상이 320개입니다. "
            "의사는 가람병원이 더 많고, 병상은 나래병원이 더 많습니다.",
            1.0,
        ),
        (
            "가람병원은 의사가 12명, 병상이 150개이고 나래병원은 의사가 7명, 병상이 320개입니다. "
            "병상은 나래병원 쪽이 더 많고 의사는 가람병원 쪽이 더 많습니다.",
            1.0,
        ),
        # both winners swapped, same figures: every name is still claimed somewhere
        (_DOCTORS.format(d="나래병원") + " " + _BEDS.format(b="가람병원"), 0.0),
        (_BEDS.format(b="가람병원") + " " + _DOCTORS.format(d="나래병원"), 0.0),
        (
            "가람병원은 의사가 12명, 병상이 150개이고 나래병원은 의사가 7명, 병상이 320개입니다. "
            "의사는 나래병원이 더 많고, 병상은 가람병원이 더 많습니다.",
            0.0,
        ),
        (
            "가람병원은 의사가 12명, 병상이 150개이고 나래병원은 의사가 7명, 병상이 320개입니다. "
            "병상은 가람병원 쪽이 더 많고 의사는 나래병원 쪽이 더 많습니다.",
            0.0,
        ),
        # one winner swapped
        (_DOCTORS.format(d="나래병원") + " " + _BEDS.format(b="나래병원"), 0.0),
    ],
)
def test_edge_winner_claims_are_bound_to_their_measure(answer: str, want: float) -> None:
    facts, expected = _edge_two_measures()
    got = matching.score_answer(facts, expected, answer)
    assert min(got.values()) == want, (answer, got)


def _edge_two_picks() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """EDGE-style max picks (compose.make_facts: a field of the picked row bound to its name, and the
    pick itself as a name fact with ``measure`` and ``pick_for``) over two measures of the same rows."""
    rows = ["가람병원", "나래병원", "다솜병원"]

    def pick(fid: str, label: str, measure: str, winner: str, step: str, field_fact: str) -> dict[str, Any]:
        return {
            "id": fid,
            "matcher": "name",
            "value": f"${step}.max_by(items, &to_number({measure})).yadmNm",
            "description": f"병원 목록 중 {label}가 가장 큰 병원",
            "row_reason": "max",
            "measure": measure,
            "row_label": winner,
            "row_label_field": "yadmNm",
            "competitors": [r for r in rows if r != winner],
            "pick_for": field_fact,
            "tolerance": 0.0,
        }

    facts = [
        {
            "id": "f1",
            "matcher": "name",
            "value": "$s2.max_by(items, &to_number(drTotCnt)).addr",
            "subject": "가람병원",
            "description": "병원 목록 중 의사 수가 가장 큰 병원의 주소",
            "row_reason": "max",
            "measure": "drTotCnt",
            "tolerance": 0.0,
        },
        pick("f2", "의사 수", "drTotCnt", "가람병원", "s2", "f1"),
        {
            "id": "f3",
            "matcher": "name",
            "value": "$s3.max_by(items, &to_number(hospBdCnt)).telno",
            "subject": "나래병원",
            "description": "병원 목록 중 병상 수가 가장 큰 병원의 전화번호",
            "row_reason": "max",
            "measure": "hospBdCnt",
            "tolerance": 0.0,
        },
        pick("f4", "병상 수", "hospBdCnt", "나래병원", "s3", "f3"),
    ]
    return facts, {"f1": "서울 중구 다동길 5", "f2": "가람병원", "f3": "02-123-4567", "f4": "나래병원"}


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        (
            "병원 목록 중 의사 수가 가장 큰 병원은 '가람병원'(의사 수 12명)이고, 주소는 서울 중구 다동길 5입니다. "
            "병원 목록 중 병상 수가 가장 큰 병원은 '나래병원'(병상 수 320개)이고, 전화번호는 02-123-4567입니다.",
            1.0,
        ),
        (
            "병상이 가장 많은 곳은 나래병원(전화 02-123-4567)이고, 의사가 가장 많은 곳은 가람병원(서울 중구 다동길 5)입니다.",
            1.0,
        ),
        # the two picks swapped (each row's own field kept next to it)
        (
            "병원 목록 중 의사 수가 가장 큰 병원은 '나래병원'(의사 수 320명)이고, 전화번호는 02-123-4567입니다. "
            "병원 목록 중 병상 수가 가장 큰 병원은 '가람병원'(병상 수 12개)이고, 주소는 서울 중구 다동길 5입니다.",
            0.0,
        ),
        (
            "병상이 가장 많은 곳은 가람병원(서울 중구 다동길 5)이고, 의사가 가장 많은 곳은 나래병원(전화 02-123-4567)입니다.",
            0.0,
        ),
    ],
)
def test_edge_picks_are_bound_to_their_measure(answer: str, want: float) -> None:
    facts, expected = _edge_two_picks()
    got = matching.score_answer(facts, expected, answer)
    assert min(got.values()) == want, (answer, got)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        (
            "제일 비싸게 팔린 곳은 호반써밋상암퍼스트로 거래금액은 33억 7,000만 원입니다. 지난달 매매 신고는 197건이고, "
            "전세 최고 보증금은 15억 9,000만 원입니다.",
            1.0,
        ),
        (
            "전세 최고 보증금은 15억 9,000만 원이고, 매매 최고 거래금액은 호반써밋상암퍼스트의 33억 7,000만 원입니다. "
            "지난달 매매는 197건입니다.",
            1.0,
        ),
        # the two maxima swapped: each figure stated, each under the other's measure
        (
            "제일 비싸게 팔린 곳은 호반써밋상암퍼스트로 거래금액은 15억 9,000만 원입니다. 지난달 매매 신고는 197건이고, "
            "전세 최고 보증금은 33억 7,000만 원입니다.",
            0.0,
        ),
        (
            "[최종 답변]\n- 최고가 단지명: 호반써밋상암퍼스트\n- 최고 거래금액: 159000만원\n- 지난달 매매 건수: 197\n"
            "- 최고 전세 보증금: 337000만원",
            0.0,
        ),
    ],
)
def test_kopa_maxima_over_two_measures_are_not_interchangeable(answer: str, want: float) -> None:
    """kopa-001: the top sale price and the top jeonse deposit are both "가장 높은 금액" claims."""
    task, gold = _gold("kopa-001")
    scores = matching.score_answer(
        task.facts, gold.expected, answer, question=task.query, context=gold.context
    )
    assert min(scores.values()) == want, (answer, scores)


# --- (j) both ways: the right pick and a contradicting one ---------------------------------------------
# benchmarks/scoring_validity/both_ways.py: before, "A입니다. 아니면 B일 수도 있습니다" held the which-one
# fact on 53/78 structured lines and 69/78 in prose (the alternative sentence has no superlative marker,
# so it was no claim). An alternative naming a competitor now takes the pick back.


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("칼로리가 가장 높은 학교는 대치중학교입니다. 아니면 개포중학교일 수도 있습니다.", 0.0),
        ("칼로리가 가장 높은 학교는 대치중학교인데, 개포중학교일 가능성도 있습니다.", 0.0),
        ("칼로리가 가장 높은 학교는 대치중학교입니다. 혹시 개포중학교일지도 모릅니다.", 0.0),
        ("[최종 답변]\n- 칼로리가 가장 높은 학교: 대치중학교입니다. 아니면 개포중학교일 수도 있습니다.", 0.0),
        ("[최종 답변]\n- 칼로리가 가장 높은 학교: 대치중학교 (개포중학교일 수도 있음)", 0.0),
        ("The school with the most calories is 대치중학교, or possibly 개포중학교.", 0.0),
        # plain answers, a contrast and a caveat that names no other candidate still hold
        ("칼로리가 가장 높은 학교는 대치중학교입니다.", 1.0),
        ("개포중학교가 아니라 대치중학교가 칼로리가 가장 높습니다.", 1.0),
        ("칼로리가 가장 높은 학교는 대치중학교입니다. 식단은 바뀔 수도 있습니다.", 1.0),
    ],
)
def test_a_pick_with_a_competitor_as_an_alternative_fails(answer: str, want: float) -> None:
    facts = [
        {
            "id": "w",
            "matcher": "name",
            "value": "$x",
            "competitors": "$y",
            "description": "칼로리가 가장 높은 학교",
        }
    ]
    got = matching.score_answer(
        facts, {"w": "대치중학교"}, answer, context={"w": {"competitors": ["개포중학교"]}}
    )
    assert got["w"] == want, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("가장 비싼 거래는 33억 7,000만 원입니다. 아니면 31억 2,500만 원일 수도 있습니다.", 0.0),
        ("[최종 답변]\n- 최고 거래금액: 337000만원 (312500만원일 수도 있음)", 0.0),
        ("가장 비싼 거래는 33억 7,000만 원입니다.", 1.0),
    ],
)
def test_a_figure_with_a_competitor_figure_as_an_alternative_fails(answer: str, want: float) -> None:
    facts = [
        {
            "id": "p",
            "matcher": "money",
            "unit": "만원",
            "value": "$s2.max(nums(items[].dealAmount))",
            "competitors": "$y",
            "description": "최고 거래금액",
        }
    ]
    got = matching.score_answer(
        facts, {"p": 337000}, answer, context={"p": {"competitors": [88500, 312500, 337000]}}
    )
    assert got["p"] == want, answer


# --- (k) picks over the same measure of different owners ---------------------------------------------
# EDGE asks the same pick of two lists ("'A병원'의 진료과목 중 전문의 수가 가장 작은 진료과목", the same of
# 'B병원'): one measure, the same candidate names, different owners. Swapping the two picks passed 5 of 6
# such pairs of a 300-row synth with claims_overlap off: each pick's competitor is the other pick's value,
# so it was dropped. A which-one fact may name its ``scope`` (the list's owner): its claims then count only
# in the units that name that owner (or no other owner).


def _scoped_picks() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    depts = ["내과", "신경과", "외과", "정신건강의학과"]

    def pick(fid: str, step: str, owner: str, winner: str) -> dict[str, Any]:
        return {
            "id": fid,
            "matcher": "name",
            "value": f"${step}.min_by(items, &to_number(dgsbjtCdDrCnt)).dgsbjtCdNm",
            "description": "진료과목 중 전문의 수가 가장 작은 진료과목",
            "row_reason": "min",
            "measure": "dgsbjtCdDrCnt",
            "scope": owner,
            "competitors": [d for d in depts if d != winner],
        }

    facts = [
        pick("f1", "s2", "가톨릭대학교서울성모병원", "신경과"),
        pick("f2", "s4", "건국대학교병원", "외과"),
    ]
    return facts, {"f1": "신경과", "f2": "외과"}


_PICKS = (
    "'가톨릭대학교서울성모병원'의 진료과목 중 전문의 수가 가장 작은 진료과목은 '{a}'(전문의 수 13)입니다. "
    "'건국대학교병원'의 진료과목 중 전문의 수가 가장 작은 진료과목은 '{b}'(전문의 수 8)입니다."
)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        (_PICKS.format(a="신경과", b="외과"), 1.0),
        (
            "건국대학교병원은 외과(8명), 가톨릭대학교서울성모병원은 신경과(13명)가 전문의가 가장 적습니다.",
            1.0,
        ),
        (_PICKS.format(a="외과", b="신경과"), 0.0),  # the two picks swapped
        (
            "건국대학교병원은 신경과(8명), 가톨릭대학교서울성모병원은 외과(13명)가 전문의가 가장 적습니다.",
            0.0,
        ),
        (_PICKS.format(a="신경과", b="신경과"), 0.0),
    ],
)
def test_picks_of_two_owners_are_bound_to_their_owner(answer: str, want: float) -> None:
    facts, expected = _scoped_picks()
    got = matching.score_answer(facts, expected, answer)
    assert min(got.values()) == want, (answer, got)


# --- (l) lengths said in another unit ----------------------------------------------------------------
# A distance fact (EDGE: "거리는 3.6킬로미터") with a ``unit`` of m or km: "3.6미터" for 3.6 km is the right
# digits in the wrong unit and fails; "3,600미터" states it.


@pytest.mark.parametrize(
    ("answer", "unit", "want"),
    [
        ("'동작구'의 거리는 3.6킬로미터입니다.", "km", 1.0),
        ("'동작구'의 거리는 3,600미터입니다.", "km", 1.0),
        ("'동작구'까지 3.6 km입니다.", "km", 1.0),
        ("'동작구'의 거리는 3.6입니다.", "km", 1.0),  # a bare figure is in the fact's unit
        ("'동작구'의 거리는 3.6미터입니다.", "km", 0.0),
        ("'동작구'의 거리는 3.6 m입니다.", "km", 0.0),
        ("'동작구'의 거리는 3.6센티미터입니다.", "km", 0.0),
        ("거리는 721미터입니다.", "m", 1.0),
        ("거리는 0.721킬로미터입니다.", "m", 1.0),
        ("거리는 721킬로미터입니다.", "m", 0.0),
        ("거리는 721km입니다.", "m", 0.0),
    ],
)
def test_a_length_in_another_unit_fails(answer: str, unit: str, want: float) -> None:
    value = 3.6 if unit == "km" else 721
    facts = [{"id": "d", "matcher": "number", "value": "$x", "unit": unit, "description": "거리"}]
    assert matching.score_answer(facts, {"d": value}, answer)["d"] == want, answer


# --- (m) one row's figures over two measures ------------------------------------------------------------
# A row with two figures (가람병원: 12 doctors, 150 beds) bound to its name only: "가람병원은 의사 150명, 병상
# 12개" (the two figures swapped between measures) held both facts, since each figure is in the row's
# stretch. A figure said under another measure of the same row (a clause naming that measure and not its
# own) is no statement of it.


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        (
            "가람병원은 의사가 12명, 병상이 150개이고 나래병원은 의사가 7명, 병상이 320개입니다. "
            "의사는 가람병원이 더 많고, 병상은 나래병원이 더 많습니다.",
            1.0,
        ),
        (_DOCTORS.format(d="가람병원") + " " + _BEDS.format(b="나래병원"), 1.0),
        (
            "가람병원은 의사가 150명, 병상이 12개이고 나래병원은 의사가 320명, 병상이 7개입니다. "
            "의사는 가람병원이 더 많고, 병상은 나래병원이 더 많습니다.",
            0.0,
        ),
        (
            "'가람병원'의 의사 수는 150명, '나래병원'의 의사 수는 320명입니다. 의사 수가 더 큰 쪽은 '가람병원' 쪽입니다. "
            "'가람병원'의 병상 수는 12개, '나래병원'의 병상 수는 7개입니다. 병상 수가 더 큰 쪽은 '나래병원' 쪽입니다.",
            0.0,
        ),
    ],
)
def test_a_rows_figures_are_bound_to_their_measure(answer: str, want: float) -> None:
    facts, expected = _edge_two_measures()
    got = matching.score_answer(facts, expected, answer)
    assert min(got.values()) == want, (answer, got)


# --- (n) a plain value denied, or given as a range --------------------------------------------------------
# benchmarks/scoring_validity/denied_or_range.py: before, "지난달 매매 건수는 197건이 아닙니다" held the
# count (375/377 plain facts as a line or prose, 369/377 in English) and a range with the value at one
# end ("197~394", "98.5에서 197 사이") held every figure (243/243). A value denied is not stated, and a
# range or a bound (이상, 미만, at least …) states no figure.


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("지난달 매매 건수는 197건이 아닙니다.", 0.0),
        ("[최종 답변]\n- 지난달 매매 건수: 197(이)가 아닙니다", 0.0),
        ("The number of sales last month is not 197.", 0.0),
        ("지난달 매매 건수는 197~394건입니다.", 0.0),
        ("지난달 매매 건수는 98.5에서 197 사이입니다.", 0.0),
        ("지난달 매매는 197건 이상입니다.", 0.0),
        ("지난달 매매는 at least 197 sales.", 0.0),
        # plain statements, a contrast and a figure beside a threshold still hold
        ("지난달 매매 건수는 197건입니다.", 1.0),
        ("지난달 매매 건수는 150건이 아니라 197건입니다.", 1.0),
        ("지난달 매매는 197건으로, 100건 이상이었습니다.", 1.0),
        ("지난달 매매 건수는 197건입니다. 많은 편은 아닙니다.", 1.0),
        ("Last month there were 197 sales, not 150.", 1.0),
    ],
)
def test_a_denied_value_or_a_range_states_no_figure(answer: str, want: float) -> None:
    facts = [{"id": "n", "matcher": "number", "value": "$s4.totalCount", "description": "지난달 매매 건수"}]
    assert matching.score_answer(facts, {"n": 197}, answer)["n"] == want, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("가장 가까운 곳의 주소는 서울 중구 다동길 5가 아닙니다.", 0.0),
        ("'가람병원'의 주소는 서울 중구 다동길 5입니다.", 1.0),
        ("강남구의 거래는 14건이 아닙니다.", 0.0),
        ("서초구가 아니라 강남구가 14건입니다.", 1.0),
        ("강남구가 아니라 서초구가 14건입니다.", 0.0),
        ("최고 거래금액은 33억 7,000만 원이 아닙니다.", 0.0),
        ("최고 거래금액은 33억 7,000만 원입니다.", 1.0),
    ],
)
def test_denied_names_subjects_and_amounts(answer: str, want: float) -> None:
    if "주소" in answer:
        facts = [{"id": "a", "matcher": "name", "value": "$x", "description": "주소"}]
        exp: dict[str, Any] = {"a": "서울 중구 다동길 5"}
    elif "거래금액" in answer:
        facts = [
            {"id": "a", "matcher": "money", "unit": "만원", "value": "$x", "description": "최고 거래금액"}
        ]
        exp = {"a": 337000}
    else:
        facts = [
            {"id": "a", "matcher": "number", "value": "$x", "subject": "강남구", "description": "거래 건수"},
            {"id": "b", "matcher": "number", "value": "$y", "subject": "서초구", "description": "거래 건수"},
        ]
        exp = {"a": 14, "b": 9}
    assert matching.score_answer(facts, exp, answer)["a"] == want, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("종로구의 오늘 최고기온은 21도 또는 17도입니다.", 0.0),
        ("종로구의 오늘 최고기온은 17도 혹은 21도입니다.", 0.0),
        ("- 종로구 오늘 최고기온: 21 또는 49", 0.0),
        ("The high in Jongno today is 21 or 17 degrees.", 0.0),
        ("종로구의 오늘 최고기온은 21도입니다.", 1.0),
        ("종로구의 오늘 최고기온은 21도, 최저기온은 17도입니다.", 1.0),
    ],
)
def test_a_figure_hedged_with_another_is_not_stated(answer: str, want: float) -> None:
    """ "21도 또는 17도" names two candidate values and commits to neither: with a subject, in a structured
    line or without either (KOPA-Bench lines: '197 또는 401' passed 339 of 362 oracle lines)."""
    for subject in ("종로구", None):
        fact = {
            "id": "f1",
            "matcher": "number",
            "value": "$x",
            "description": "종로구 오늘 최고기온",
            "tolerance": 0.5,
        }
        if subject:
            fact["subject"] = subject
        got = matching.score_answer([fact], {"f1": "21.0"}, answer)
        assert got["f1"] == want, (answer, subject, got)


# --- (o) several figures listed for one value --------------------------------------------------------------
# A single-valued figure with a subject and no competitors ("종로구의 최고기온") was read in the stretch after
# its subject: "21도, 17도, 14도" states 21 among others and held it (the KOPA-Bench scorer had no row
# competitors to see the others; benchmarks/scoring_validity/listing.py measures it on every oracle figure).
# A run of like figures joined only by list separators, with one that is no fact's value, states none.


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("종로구의 최고기온은 21도, 17도, 14도입니다.", 0.0),
        ("종로구의 최고기온은 14도, 21도입니다.", 0.0),
        ("종로구의 최고기온은 21도와 17도입니다.", 0.0),
        ("종로구의 최고기온은 21, 17, 14도입니다.", 0.0),
        ("- 종로구 오늘 최고기온: 21, 17, 14, 23", 0.0),
        ("종로구의 최고기온은 21도이거나 17도입니다.", 0.0),
        ("The high in Jongno is 21, 17 and 14 degrees.", 0.0),
        # one figure, the same figure restated, several measures, a second fact: still stated
        ("종로구의 오늘 최고기온은 21도입니다.", 1.0),
        ("종로구의 최고기온은 21도, 최저기온은 14도입니다.", 1.0),
        ("종로구의 최고기온은 21도(21.0℃)입니다.", 1.0),
        ("종로구의 최고기온은 21도, 즉 21.0도입니다.", 1.0),
        ("종로구의 최고기온은 21도이고, 강수확률은 30%입니다.", 1.0),
        ("종로구의 최고기온은 21도이며 2026년 10월 15일 15:00 기준입니다.", 1.0),
        ("2026년 10월 15일, 종로구의 최고기온은 21도입니다.", 1.0),
    ],
)
def test_several_figures_listed_for_one_value_fail(answer: str, want: float) -> None:
    for subject in ("종로구", None):
        fact = {
            "id": "f1",
            "matcher": "number",
            "value": "$x",
            "description": "종로구 오늘 최고기온",
            "tolerance": 0.5,
        }
        if subject:
            fact["subject"] = subject
        got = matching.score_answer([fact], {"f1": "21.0"}, answer)
        assert got["f1"] == want, (answer, subject, got)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        # a respective list of the task's own facts' values is no guess
        ("종로구의 최고기온과 최저기온은 각각 21도, 14도입니다.", 1.0),
        ("종로구의 최고기온과 최저기온은 21도, 17도, 14도입니다.", 0.0),
        ("종로구의 최고기온은 21도, 14도입니다.", 0.0),  # the other fact's value, not said to be respective
        ("종로구의 최고기온과 최저기온은 차례로 21도와 14도입니다.", 1.0),
        # money and durations: a list of amounts or times
        ("래미안의 거래금액은 8억 2,500만 원, 7억 9,000만 원입니다.", 0.0),
        ("래미안의 거래금액은 8억 2,500만 원(82,500만원)입니다.", 1.0),
        ("래미안의 거래금액은 8억 2,500만 원이고, 지난달 거래는 12건입니다.", 1.0),
        ("720번 버스는 3분 20초, 5분 10초 뒤에 도착합니다.", 0.0),
        ("720번 버스는 3분 20초 뒤에 도착합니다.", 1.0),
    ],
)
def test_listing_money_durations_and_respective_lists(answer: str, want: float) -> None:
    if "기온" in answer:
        facts = [
            {"id": "a", "matcher": "number", "value": "$x", "subject": "종로구", "description": "최고기온"},
            {"id": "b", "matcher": "number", "value": "$y", "subject": "종로구", "description": "최저기온"},
        ]
        exp: dict[str, Any] = {"a": "21.0", "b": "14.0"}
    elif "래미안" in answer:
        facts = [
            {
                "id": "a",
                "matcher": "money",
                "unit": "만원",
                "value": "$x",
                "subject": "래미안",
                "description": "거래금액",
            }
        ]
        exp = {"a": 82500}
    else:
        facts = [
            {"id": "a", "matcher": "duration", "value": "$x", "subject": "720번", "description": "도착 예정"}
        ]
        exp = {"a": 200}
    assert matching.score_answer(facts, exp, answer)["a"] == want, answer


# --- (p) a name or route number offered beside an invented alternative ------------------------------------
# benchmarks/scoring_validity/figure_hedge.py: a figure hedged with another fails; so must a name or code
# fact whose value sits beside an alternative that is no candidate of the task ("노선 번호: 511 또는 1029",
# "최저가 단지: 삼성3 또는 13"; a rule for figures alone lets 53 of 351 hedged oracle lines pass). A value joined
# by "또는/혹은/아니면/이나/or" to another of its kind, or an alternative sentence naming another of its kind
# ("아니면 B병원일 수도"), is a guess; two names said for other reasons (a route between two stops, a name
# that contains "또는", another fact's value) are not.


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("720번 또는 721번 버스를 타시면 됩니다.", 0.0),
        ("721번 혹은 720번 버스를 타세요.", 0.0),
        ("720번이나 7212번 버스가 갑니다.", 0.0),
        ("- 노선 번호: 720 또는 1029", 0.0),
        ("The bus is route 720 or 721.", 0.0),
        ("720번 버스입니다. 아니면 721번일 수도 있습니다.", 0.0),
        ("720번 버스를 타시면 됩니다.", 1.0),
        ("- 노선 번호: 720", 1.0),
        ("720번 버스로 안국역에서 광화문역까지 갑니다.", 1.0),
        ("720번 버스를 타세요. 배차 간격은 12분 또는 15분입니다.", 1.0),
    ],
)
def test_a_route_number_beside_an_invented_one_fails(answer: str, want: float) -> None:
    facts = [{"id": "r", "matcher": "name", "value": "$x", "description": "노선 번호"}]
    assert matching.score_answer(facts, {"r": "720"}, answer)["r"] == want, answer


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("가장 가까운 병원은 서울연세병원 또는 한빛병원입니다.", 0.0),
        ("서울연세병원 아니면 한빛병원일 수도 있습니다.", 0.0),
        ("가장 가까운 병원은 서울연세병원입니다. 아니면 한빛병원일 수도 있습니다.", 0.0),
        ("가장 가까운 병원은 한빛병원이나 서울연세병원입니다.", 0.0),
        ("- 최저가 단지: 삼성3 또는 13", 0.0),
        ("가장 가까운 병원은 서울연세병원입니다.", 1.0),
        ("서울연세병원은 안국역에서 종로3가역까지 가는 길에 있습니다.", 1.0),
        ("가장 가까운 병원은 서울연세병원이며, 응급실 또는 외래로 가시면 됩니다.", 1.0),
    ],
)
def test_a_name_beside_an_invented_alternative_fails(answer: str, want: float) -> None:
    value = "삼성3" if "삼성3" in answer else "서울연세병원"
    facts = [{"id": "h", "matcher": "name", "value": "$x", "description": "가장 가까운 병원"}]
    assert matching.score_answer(facts, {"h": value}, answer)["h"] == want, answer


def test_a_name_containing_or_and_another_facts_value_are_no_hedge() -> None:
    facts = [
        {"id": "w", "matcher": "name", "value": "$x", "description": "내일 날씨"},
        {"id": "a", "matcher": "name", "value": "$y", "description": "첫 번째 노선"},
        {"id": "b", "matcher": "name", "value": "$z", "description": "두 번째 노선"},
    ]
    exp = {"w": "흐리고 비 또는 눈", "a": "720", "b": "721"}
    got = matching.score_answer(
        facts, exp, "내일은 흐리고 비 또는 눈이 오겠습니다. 720번 또는 721번 버스가 갑니다."
    )
    assert got == {"w": 1.0, "a": 1.0, "b": 1.0}
