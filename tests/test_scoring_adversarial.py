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
    return [(auth_tool_name(p), {}) for p in sorted({p for s in task.plan.steps for p in s.session_platforms()})]


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


# --- (a) a pasted raw tool output fails ----------------------------------------------------------

DUMP_TASKS = ["kopa-001", "kopa-004", "kopa-014", "kopa-021", "kopa-029", "kopa-046", "kopa-060", "kopa-081",
              "kopa-098", "kopa-102", "kopa-107", "kopa-110"]


@pytest.mark.parametrize("task_id", DUMP_TASKS)
def test_pasted_raw_output_fails(task_id: str) -> None:
    task, gold = _gold(task_id)
    calls = _gold_calls(task, gold)
    assert grade(task, gold, oracle_answer(task, gold.expected), calls).success == 1.0
    for fmt in ("json", "xml"):
        g = grade(task, gold, _dump(task, gold, fmt), calls)
        assert g.success == 0.0 and g.answer == 0.0, (fmt, g.explanation())


def test_raw_dump_detector_spares_prose() -> None:
    assert matching.is_raw_dump('{"resultCode": "00", "items": [{"aptNm": "래미안"}]}')
    assert matching.is_raw_dump("<response><body><items><item><aptNm>래미안</aptNm></item></items></body></response>")
    assert matching.is_raw_dump("resultCode: 00\ntotalCount: 12\naptNm: 래미안, dealAmount: 82,500")
    assert not matching.is_raw_dump("[최종 답변]\n- 단지명: 래미안 퍼스티지\n- 거래금액: 8억 2,500만 원")
    assert not matching.is_raw_dump("강남구는 120건(PM2.5 기준 '좋음')으로 가장 많았습니다.")


# --- (b) a wrong winner fails even when every candidate is mentioned ------------------------------

WINNERS: dict[str, tuple[str, list[str]]] = {
    "kopa-004": ("most", ["강남구", "서초구", "송파구"]),
    "kopa-005": ("most", ["종로구", "마포구", "서초구"]),
    "kopa-006": ("most", ["분당구", "영통구", "해운대구"]),
    "kopa-025": ("driest", ["서울", "부산", "제주"]),
    "kopa-069": ("latest", ["개인정보 보호법", "소득세법", "상법"]),
    "kopa-072": ("most", ["더불어민주당", "국민의힘", "조국혁신당", "진보당"]),
    "kopa-073": ("most", ["조국혁신당", "진보당", "사회민주당", "기본소득당"]),
    "kopa-083": ("worst", ["역삼동", "서교동", "정자동"]),
    "kopa-084": ("worst", ["청운동", "우동", "연동"]),
    "kopa-102": ("top", ["삼성전자", "현대자동차", "카카오"]),
    "kopa-103": ("top", ["NAVER", "카카오"]),
    "kopa-110": ("top", ["강남", "잠실", "홍대입구", "삼성"]),
    "kopa-111": ("top", ["서울역", "시청", "광화문"]),
}


def _other_lines(task: BenchTask, gold: GoldTruth, skip: str) -> str:
    lines = oracle_answer(task, gold.expected).splitlines()
    keep = [ln for ln in lines if not ln.startswith("- ") or skip not in _fact_of_line(task, ln)]
    return "\n".join(keep)


def _fact_of_line(task: BenchTask, line: str) -> str:
    label = line[2:].split(":", 1)[0]
    return " ".join(f.id for f in task.facts if f.description.split(" (")[0] in label)


@pytest.mark.parametrize("task_id", sorted(WINNERS))
def test_wrong_winner_fails(task_id: str) -> None:
    task, gold = _gold(task_id)
    fid, candidates = WINNERS[task_id]
    right = gold.expected[fid]
    assert right in candidates
    wrong = next(c for c in candidates if c != right and right not in c and c not in right)
    fact = next(f for f in task.facts if f.id == fid)
    desc = fact.description.split(" (")[0]
    calls = _gold_calls(task, gold)
    listing = ", ".join(candidates)
    others = _other_lines(task, gold, fid)
    # 1. the structured line names the wrong winner; every candidate is mentioned elsewhere
    structured = others + f"\n- {desc}: {wrong}\n\n후보: {listing}"
    # 2. free text: every candidate listed, the wrong one claimed
    free = others + f"\n\n{listing} 중 {desc}은(는) {wrong}입니다."
    # 3. every candidate mentioned, no winner claimed at all
    vague = others + f"\n\n{listing} 모두 조회했습니다."
    for answer in (structured, free, vague):
        g = grade(task, gold, answer, calls)
        assert g.fact_scores[fid] == 0.0 and g.success == 0.0, answer
    # the right winner, claimed in free text after the same listing, passes
    good = others + f"\n\n{listing} 중 {desc}은(는) {right}입니다."
    g = grade(task, gold, good, calls)
    assert g.fact_scores[fid] == 1.0 and g.success == 1.0, g.explanation()


# --- (c) refusals ----------------------------------------------------------------------------------

UNANSWERABLE = sorted(t.id for t in TASKS.values() if t.category == "unanswerable")


@pytest.mark.parametrize("task_id", UNANSWERABLE)
def test_invented_refusal_fails_real_refusal_passes(task_id: str) -> None:
    task, gold = _gold(task_id)
    invented = [
        "해당 기간 자료는 없습니다. 대신 최근 값은 12.3이고 총 45건입니다.",
        "조회 결과가 없습니다.",  # "없습니다" alone is a claim about the data, not a refusal
        "제공된 도구로는 답할 수 없습니다. 다만 추정하면 약 37% 정도입니다.",
        "I cannot answer this exactly, but it was about 18 degrees on 2019-03-01.",
    ]
    for answer in invented:
        g = grade(task, gold, answer, [])
        assert g.success == 0.0, answer
    real = [
        oracle_answer(task, gold.expected),
        "제공된 도구로는 이 질문에 답할 수 없습니다. 해당 정보를 조회하는 API가 없습니다.",
        "I can't answer this: none of the available tools provides that information.",
    ]
    for answer in real:
        assert grade(task, gold, answer, []).success == 1.0, answer
    # a refusal may repeat the question's own figures
    nums = re.findall(r"\d+", task.query)
    if nums:
        echo = f"질문하신 {nums[0]} 관련 정보는 제공된 도구로 확인할 수 없습니다."
        assert grade(task, gold, echo, []).success == 1.0, echo


def test_refusal_needs_the_question_to_judge_figures() -> None:
    facts = [{"id": "r", "matcher": "refusal", "value": "unanswerable"}]
    q = "2019년 3월 1일 서울 최고기온은?"
    assert matching.score_answer(facts, {"r": "unanswerable"}, "2019년 자료는 확인할 수 없습니다.", question=q)["r"] == 1.0
    assert matching.score_answer(facts, {"r": "unanswerable"}, "확인할 수 없지만 12도쯤입니다.", question=q)["r"] == 0.0
    assert matching.score_answer(facts, {"r": "unanswerable"}, "서울 자료가 없습니다.", question=q)["r"] == 0.0


# --- (d) valid alternative paths pass ----------------------------------------------------------------


def _oracle_ok(task: BenchTask, gold: GoldTruth, calls: list[dict[str, Any]]) -> Any:
    return grade(task, gold, oracle_answer(task, gold.expected), calls)


def test_other_page_size_passes() -> None:
    task, gold = _gold("kopa-014")
    s2 = next(i for i, s in enumerate(task.plan.steps) if s.id == "s2")
    tool, args = gold.calls[s2]
    n, p = int(args["numOfRows"]), int(args.get("pageNo", 1))
    small = n // 5
    pages = range((p - 1) * n // small + 1, p * n // small + 1)
    alt = [gold.calls[0]] + [(tool, {**args, "numOfRows": small, "pageNo": q}) for q in pages]
    g = _oracle_ok(task, gold, _run_calls(task, alt))
    assert g.success == 1.0, g.explanation()
    # one big page that covers the gold rows passes too
    big = [gold.calls[0], (tool, {**args, "numOfRows": 100, "pageNo": (p * n - 1) // 100 + 1})]
    assert _oracle_ok(task, gold, _run_calls(task, big)).success == 1.0
    # a page that misses the rows the fact depends on fails
    miss = [gold.calls[0], (tool, {**args, "numOfRows": small, "pageNo": 1})]
    g = _oracle_ok(task, gold, _run_calls(task, miss))
    assert g.success == 0.0 and g.env is not None and g.env < 1.0


def test_one_filtered_call_instead_of_three_pages() -> None:
    task, gold = _gold("kopa-043")
    tool, args = gold.calls[0]
    alt = [(tool, {**args, "eventStartDate": "20261111", "numOfRows": 100})]
    g = _oracle_ok(task, gold, _run_calls(task, alt))
    assert g.success == 1.0, g.explanation()


def test_any_order_and_optional_steps() -> None:
    task, gold = _gold("kopa-004")
    calls = _run_calls(task, list(reversed(gold.calls[:3])) + list(reversed(gold.calls[3:])))
    assert _oracle_ok(task, gold, calls).success == 1.0
    # kopa-081: s4/s5 feed only the optional 3-station average
    task, gold = _gold("kopa-081")
    ids = [s.id for s in task.plan.steps]
    calls = _run_calls(task, [c for sid, c in zip(ids, gold.calls, strict=True) if sid not in ("s4", "s5")])
    assert _oracle_ok(task, gold, calls).success == 1.0


def test_scripted_error_step_is_optional() -> None:
    task, gold = _gold("kopa-020")
    keep = [c for s, c in zip(task.plan.steps, gold.calls, strict=True) if not s.expect_error]
    assert _oracle_ok(task, gold, _run_calls(task, _auth(task) + keep)).success == 1.0


def test_zero_calls_never_reach_the_environment() -> None:
    answerable = [t for t in TASKS.values() if t.category != "unanswerable"][:40]
    for task in answerable:
        _, gold = _gold(task.id)
        g = grade(task, gold, oracle_answer(task, gold.expected), [])
        assert g.env is not None and g.env < 1.0, task.id
        assert g.success == 0.0
    task, gold = _gold(UNANSWERABLE[0])
    assert grade(task, gold, oracle_answer(task, gold.expected), []).values()["env"] is None


def test_parallel_axis_from_turns() -> None:
    task, gold = _gold("kopa-004")
    calls = _gold_calls(task, gold)
    together = [[{"tool": c["tool"], "args": c["args"]} for c in calls[:3]],
                [{"tool": c["tool"], "args": c["args"]} for c in calls[3:]]]
    one_by_one = [[{"tool": c["tool"], "args": c["args"]}] for c in calls]
    assert grade(task, gold, "", calls, turns=together).values()["parallel"] == 1.0
    assert grade(task, gold, "", calls, turns=one_by_one).values()["parallel"] == 0.0
    # a pure chain (no wave with two needed steps): no independent calls, parallel undefined
    chain_id = next(
        tid for tid in ("kopa-060", "kopa-029", "kopa-046", "kopa-099")
        if all(sum(1 for s in w if s.id in _gold(tid)[1].needs) < 2 for w in TASKS[tid].plan.levels())
    )
    task, gold = _gold(chain_id)
    assert grade(task, gold, "", _gold_calls(task, gold), turns=[]).values()["parallel"] is None


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


# --- (f) typed matchers on real gold values ----------------------------------------------------------


def _one(matcher: str, expected: Any, answer: str, **extra: Any) -> float:
    fact = {"id": "f", "matcher": matcher, "value": "$s1.x", **extra}
    return matching.score_answer([fact], {"f": expected}, answer)["f"]


def test_time_matcher() -> None:
    _, gold = _gold("kopa-017")
    t = gold.expected["time"]
    h = int(t[:2])
    assert t == "1500" and h == 15
    for ok in ("오후 3시", "15시", "15:00", "15시 00분", "오후 3시 정각", "3 PM"):
        assert _one("time", t, f"가장 높은 시각은 {ok}입니다") == 1.0, ok
    for bad in ("14시", "오전 3시", "3시", "16:00", "15:30", "1500원"):
        assert _one("time", t, f"가장 높은 시각은 {bad}입니다") == 0.0, bad
    assert _one("time", "0500", "새벽 5시 발표분") == 1.0
    assert _one("time", "0000", "자정") == 1.0


def test_month_matcher() -> None:
    _, gold = _gold("kopa-107")
    m = gold.expected["month"]
    assert m == "202609"
    for ok in ("2026년 9월", "2026-09", "2026.9", "9월"):
        assert _one("month", m, f"가장 높았던 달은 {ok}입니다") == 1.0, ok
    for bad in ("2025년 9월", "2026년 8월", "2026년 10월", "2026-08"):
        assert _one("month", m, f"가장 높았던 달은 {bad}입니다") == 0.0, bad


def test_date_set_matcher() -> None:
    _, gold = _gold("kopa-053")
    days = gold.expected["days"]
    assert days == ["20261016", "20261019", "20261020"]
    assert _one("date_set", days, "시험은 10월 16일, 19일, 20일입니다") == 1.0
    assert _one("date_set", days, "2026-10-16, 2026-10-19, 2026-10-20") == 1.0
    assert _one("date_set", days, "10월 16일과 10월 19~20일") == 1.0
    assert _one("date_set", days, "10월 16일, 19일") == pytest.approx(2 / 3)
    # every day of the month listed is no answer
    all_days = ", ".join(f"10월 {d}일" for d in range(1, 32))
    assert _one("date_set", days, all_days) == 0.0
    _, gold = _gold("kopa-028")
    assert _one("date_set", gold.expected["days"], "9월 24일, 25일, 26일, 10월 3일, 5일, 9일") == 1.0


def test_code_label_matcher() -> None:
    _, gold = _gold("kopa-021")
    sky = gold.expected["sky"]
    assert sky == "1"
    assert _one("code_label", sky, "하늘은 맑음입니다", labels="kma_sky") == 1.0
    assert _one("code_label", sky, "하늘이 맑겠습니다", labels="kma_sky") == 1.0
    for bad in ("구름많음", "흐림", "SKY 코드 1", "맑다가 흐림"):
        assert _one("code_label", sky, f"하늘은 {bad}", labels="kma_sky") == 0.0, bad
    assert _one("code_label", "0", "강수 없음", labels="kma_pty") == 1.0
    assert _one("code_label", "1", "비가 옵니다", labels="kma_pty") == 1.0
    assert _one("code_label", "1", "비/눈이 옵니다", labels="kma_pty") == 0.0
    assert _one("code_label", "1", "비교해 보니 눈이 옵니다", labels="kma_pty") == 0.0
    assert _one("code_label", "3", "눈", labels="kma_pty") == 1.0
    _, gold = _gold("kopa-024")
    assert _one("code_label", gold.expected["wf"], "맑겠습니다", labels="kma_mid_wf") == 1.0
    assert _one("code_label", "구름많고 비", "구름 많고 비", labels="kma_mid_wf") == 1.0
    assert _one("code_label", "구름많고 비", "흐리고 비", labels="kma_mid_wf") == 0.0


def test_duration_matcher() -> None:
    _, gold = _gold("kopa-029")
    sec = gold.expected["min"]
    assert sec == 38
    assert _one("duration", 200, "3분 20초 후 도착", unit="s") == 1.0
    assert _one("duration", 200, "200초", unit="s") == 1.0
    assert _one("duration", 200, "약 3분", unit="s") == 1.0
    for bad in ("4분", "3분 40초", "20초", "2분"):
        assert _one("duration", 200, bad, unit="s") == 0.0, bad
    assert _one("duration", sec, f"{sec}초 후", unit="s") == 1.0
    assert _one("duration", sec, "1분 후", unit="s") == 0.0
    assert _one("duration", 90, "1시간 30분", unit="min") == 1.0
    assert _one("duration", 90, "1시간", unit="min") == 0.0


def test_money_matcher() -> None:
    assert _one("money", "82,500", "8억 2,500만 원", unit="만원") == 1.0
    assert _one("money", "82,500", "82,500만원", unit="만원") == 1.0
    assert _one("money", "82,500", "825,000,000원", unit="만원") == 1.0
    for bad in ("8억 2,000만 원", "82,500원", "8,250만 원"):
        assert _one("money", "82,500", bad, unit="만원") == 0.0, bad
    _, gold = _gold("kopa-001")
    price = gold.expected["price"]
    won = int(price) * 10_000
    eok, man = divmod(int(price), 10_000)
    assert _one("money", price, f"{eok}억 {man:,}만 원", unit="만원") == 1.0
    assert _one("money", price, f"{won:,}원", unit="만원") == 1.0
    _, gold = _gold("kopa-099")
    sales = gold.expected["sales"]
    v = matching.to_number(sales)
    assert v is not None
    assert _one("money", sales, f"약 {v / 1e12:.1f}조 원", unit="원") == 1.0
    assert _one("money", sales, f"약 {v / 1e12 + 3:.1f}조 원", unit="원") == 0.0


def test_dish_set_matcher() -> None:
    _, gold = _gold("kopa-046")
    menu = gold.expected["menu"]
    dishes = ["잡곡밥", "순두부찌개", "오징어볶음", "숙주나물", "열무김치", "바나나"]
    assert _one("dish_set", menu, "메뉴: " + ", ".join(dishes)) == 1.0
    assert _one("dish_set", menu, "잡곡밥, 순두부 찌개(5.6.9.13), 오징어 볶음, 숙주나물, 열무김치와 바나나") == 1.0
    assert _one("dish_set", menu, ", ".join(dishes[:4])) == pytest.approx(4 / 6)
    assert _one("dish_set", "김치찌개(5.9.13.)<br/>쌀밥", "김치찌개, 쌀밥") == 1.0
    assert _one("dish_set", "김치찌개(5.9.13.)<br/>쌀밥", "된장찌개, 쌀밥") == 0.5
    # a pasted raw menu string is no answer
    assert _one("dish_set", menu, json.dumps({"DDISH_NM": menu}, ensure_ascii=False)) == 0.0


def test_key_facts_matcher() -> None:
    _, gold = _gold("kopa-060")
    text = gold.expected["text"]
    keys = ["차임", "보증금", "20분의 1"]
    assert all(k in text for k in keys)
    answer = "제7조(차임 등의 증감청구권)에 따르면 증액 청구는 약정한 차임이나 보증금의 20분의 1을 넘지 못합니다."
    assert _one("key_facts", text, answer, keys=keys) == 1.0
    assert _one("key_facts", text, "증액은 보증금의 10분의 1까지 가능합니다.", keys=keys) == pytest.approx(1 / 3)
    _, gold = _gold("kopa-098")
    eff = gold.expected["eff_a"]
    keys = ["발열", "두통", "치통"]
    assert _one("key_facts", eff, "감기로 인한 발열, 두통, 치통 등에 씁니다.", keys=keys) == 1.0
    assert _one("key_facts", eff, "감기로 인한 발열에 씁니다.", keys=keys) == pytest.approx(1 / 3)


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
    facts = [{"id": "top", "matcher": "money", "value": "$x", "unit": "만원", "competitors": "$y",
              "description": "최고 거래금액"}]
    ctx = {"top": {"competitors": ["250,000", "198,000"]}}
    exp = {"top": "337,000"}
    listing = "거래 금액은 33억 7,000만 원, 25억 원, 19억 8,000만 원이었습니다."
    assert matching.score_answer(facts, exp, listing + " 가장 비싼 거래는 33억 7,000만 원입니다.", context=ctx)["top"] == 1.0
    assert matching.score_answer(facts, exp, listing + " 가장 비싼 거래는 25억 원입니다.", context=ctx)["top"] == 0.0
    assert matching.score_answer(facts, exp, listing, context=ctx)["top"] == 0.0  # no claim
    structured = "[최종 답변]\n- 최고 거래금액: 33억 7,000만 원\n- 최저 거래금액: 19억 8,000만 원"
    assert matching.score_answer(facts, exp, structured, context=ctx)["top"] == 1.0


def test_competitor_list_may_hold_the_winner() -> None:
    facts = [{"id": "apt", "matcher": "name", "value": "$x", "competitors": "$y", "description": "최고가 단지"}]
    ctx = {"apt": {"competitors": ["래미안", "자이", "래미안", "힐스테이트"]}}
    assert matching.score_answer(facts, {"apt": "래미안"}, "가장 비싼 단지는 래미안입니다.", context=ctx)["apt"] == 1.0
    assert matching.score_answer(facts, {"apt": "래미안"}, "가장 비싼 단지는 자이입니다. 래미안도 있습니다.",
                                 context=ctx)["apt"] == 0.0


def test_a_maximum_needs_every_candidate_record() -> None:
    task, gold = _gold("kopa-001")
    ids = [s.id for s in task.plan.steps]
    tool, args = gold.calls[ids.index("s2")]
    items = gold.run.outputs["s2"]["items"]
    top = max(range(len(items)), key=lambda i: matching.to_number(items[i]["dealAmount"]) or 0)
    others = [c for sid, c in zip(ids, gold.calls, strict=True) if sid != "s2"]
    # the page holding the top deal, and nothing else of the month: the right answer by luck
    size = top + 1
    lucky = _run_calls(task, others + [(tool, {**args, "numOfRows": size, "pageNo": 1})])
    g = _oracle_ok(task, gold, lucky)
    assert g.success == 0.0 and any(m.startswith("records of s2") for m in g.missing)
    # every page of the month in small pages: passes
    pages = [(tool, {**args, "numOfRows": 10, "pageNo": p}) for p in range(1, len(items) // 10 + 2)]
    assert _oracle_ok(task, gold, _run_calls(task, others + pages)).success == 1.0
