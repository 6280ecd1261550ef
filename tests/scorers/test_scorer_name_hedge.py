"""A name offered beside an invented one earns nothing, on every scorer; a call on
a task that needs none is a wasted call.

Before this change two checks existed: ``steps.scoring.name_hedged`` (the GRPO step rewards and the
step metrics) caught any "X 또는 Y", while the KOPA-Bench scorer (``matching._name_hedged``) caught only
an alternative of the value's own kind (a route number beside a route number, a 병원 beside a 병원),
so "정신아 또는 김철수" for kopa-068's CEO, or a 의원 hedged with a 병원, earned the answer point and the
task. One rule now (``matching.name_hedged``), called by both. The attacks run through the real
KOPA-Bench path: the gold calls executed and recorded as the Inspect tools record them
(benchmarks/scoring_validity/_calls.py), then ``grading.grade`` with the oracle's answer where only
the one line is changed. The controls are valid answers that must keep full credit.
"""

from __future__ import annotations

import json

import pytest

from kopa_inspect import matching
from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import GoldTruth, Grade, gold_truth, grade, oracle_answer
from kopa_inspect.steps import scoring
from kopa_inspect.task_data.schema import BenchTask, load_tasks
from kopa_inspect.tools import shared_backend
from scoring_calls import CALLS as _CALLS


async def _setup(task_id: str) -> tuple[BenchTask, GoldTruth]:
    task = next(t for t in load_tasks() if t.id == task_id)
    return task, await gold_truth(task, shared_backend(BackendConfig()), 0)


async def _grade_line(task_id: str, line: str | None, new: str | None) -> Grade:
    """The gold calls executed and recorded, graded with the oracle's answer whose ``line`` reads ``new``."""
    task, gold = await _setup(task_id)
    made = await _CALLS.gold_calls(task, gold, shared_backend(BackendConfig()))
    answer = oracle_answer(task, gold.expected, context=gold.context)
    if line is not None:
        assert line in answer, answer
        answer = answer.replace(line, new)
    return grade(task, gold, answer, made)


# --- attacks: a name hedged with an invented person, place or institution --------------------------

ATTACKS = [
    # kopa-068: 카카오's CEO (a person)
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아 또는 김철수", "ceo"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 김철수 또는 정신아", "ceo"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아이나 김철수일 수 있습니다", "ceo"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아 혹은 김철수", "ceo"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아 아니면 김철수", "ceo"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아 대표 또는 김철수 대표", "ceo"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아입니다. 아니면 김철수일 수도 있습니다", "ceo"),
    # kopa-061: the first pediatric clinic (an institution), hedged with a hospital (another suffix)
    (
        "kopa-061",
        "- 병원명: 서울소아청소년과의원",
        "- 병원명: 서울소아청소년과의원 아니면 세브란스병원",
        "hosp",
    ),
    ("kopa-061", "- 병원명: 서울소아청소년과의원", "- 병원명: 세브란스병원이나 서울소아청소년과의원", "hosp"),
    # kopa-049: a member of the Assembly (a person) and his committee (an institution)
    ("kopa-049", "- 의원: 최상철", "- 의원: 최상철 또는 김철수", "who"),
    ("kopa-049", "- 소속 위원회: 보건복지위원회", "- 소속 위원회: 보건복지위원회 또는 국방위원회", "cmit"),
    # kopa-080: a mayor elected in 2022
    ("kopa-080", "- 2022 당선자: 홍정상", "- 2022 당선자: 김철수나 홍정상", "w2022"),
    # kopa-059: the station the user named is not the real one; hedging between them is a guess,
    # though the question names one side
    ("kopa-059", "- 실제 측정소: 신촌로", "- 실제 측정소: 서교동 또는 신촌로", "station"),
    ("kopa-059", "- 실제 측정소: 신촌로", "- 실제 측정소: 신촌로 또는 서교동 측정소", "station"),
]


@pytest.mark.parametrize(("task_id", "line", "attack", "fact"), ATTACKS)
async def test_a_name_hedged_with_an_invented_one_fails_the_task(
    task_id: str, line: str, attack: str, fact: str
) -> None:
    g = await _grade_line(task_id, line, attack)
    assert g.fact_scores[fact] == 0.0 and g.success == 0.0, attack


# The brief's own strings, through matching.score_answer as grading.grade calls it (a CEO fact with the
# task's query as the question).
CEO_FACTS = [{"id": "ceo", "matcher": "name", "value": "$s1.items[0].ceo_nm", "description": "대표자"}]
CEO_QUESTION = "SK하이닉스 대표자가 누구예요?"


@pytest.mark.parametrize(
    "answer",
    [
        "SK하이닉스의 대표자는 곽노정 또는 김철수입니다.",
        "SK하이닉스의 대표자는 김철수 또는 곽노정입니다.",
        "곽노정이나 김철수일 수 있습니다.",
        "곽노정 혹은 김철수입니다.",
        "대표자는 곽노정, 또는 김철수입니다.",
        "The CEO is 곽노정 or 김철수.",
        "대표자는 곽노정입니다. 아니면 김철수일 수도 있습니다.",
        # tests/test_reward_attacks_row_world_call_keys.py's open name guesses (REWARD): a slash, "중 한 명", "내지"
        "SK하이닉스의 대표자는 곽노정/김철수입니다.",
        "SK하이닉스의 대표자는 곽노정, 김철수 중 한 명입니다.",
        "SK하이닉스의 대표자는 김철수와 곽노정 가운데 한 분입니다.",
        "SK하이닉스의 대표자는 곽노정 내지 김철수입니다.",
        "The CEO is one of 곽노정 and 김철수.",
        "SK하이닉스의 대표자는 곽노정 또는 다른 사람입니다.",
    ],
)
def test_the_person_hedges_fail_in_the_bench_matcher(answer: str) -> None:
    got = matching.score_answer(CEO_FACTS, {"ceo": "곽노정"}, answer, question=CEO_QUESTION)
    assert got["ceo"] == 0.0, answer
    # one rule: the step rewards' check says the same
    assert scoring.name_hedged(answer, "곽노정") and matching.name_hedged(
        "곽노정", answer, question=CEO_QUESTION
    )


@pytest.mark.parametrize(
    ("value", "answer"),
    [
        ("서울대학교병원", "가장 가까운 병원은 서울대학교병원 아니면 세브란스병원입니다."),
        ("서울대학교병원", "가장 가까운 병원은 세브란스의원이나 서울대학교병원입니다."),
        ("국민의힘", "당선자의 정당은 국민의힘 또는 개혁신당입니다."),
        ("서울특별시", "본사는 서울특별시 또는 부산광역시에 있습니다."),
    ],
)
def test_a_place_or_institution_hedged_fails(value: str, answer: str) -> None:
    facts = [{"id": "x", "matcher": "name", "value": "$x", "description": "답"}]
    assert matching.score_answer(facts, {"x": value}, answer, question="어디인가요?")["x"] == 0.0, answer


# --- controls: valid answers keep full credit ------------------------------------------------------


@pytest.mark.parametrize(
    "task_id",
    ["kopa-068", "kopa-061", "kopa-049", "kopa-080", "kopa-059", "kopa-066", "kopa-092", "kopa-113"],
)
async def test_the_oracle_keeps_full_credit(task_id: str) -> None:
    g = await _grade_line(task_id, None, None)
    assert g.success == 1.0 and g.answer == 1.0


CONTROLS = [
    # no hedge next to the name; "또는" elsewhere in the sentence
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아 (본사 또는 공장 주소는 따로 확인하세요)"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아이며, 연락은 본사 또는 IR팀으로 하시면 됩니다"),
    ("kopa-068", "- 대표자: 정신아", "- 대표자: 정신아입니다. 다만 공시 내용은 바뀔 수도 있습니다"),
    # two of the task's own names joined by 와/과
    ("kopa-080", "- 2022 당선자: 홍정상", "- 2022 당선자: 홍정상 (2018년 박태미와 2022년 홍정상)"),
    # the kopa-049 member with his constituency beside him
    ("kopa-049", "- 의원: 최상철", "- 의원: 최상철(서울 송파구갑)"),
]


@pytest.mark.parametrize(("task_id", "line", "valid"), CONTROLS)
async def test_a_name_said_without_an_alternative_keeps_credit(task_id: str, line: str, valid: str) -> None:
    g = await _grade_line(task_id, line, valid)
    assert g.success == 1.0 and g.answer == 1.0, valid


def test_a_set_said_with_wa_gwa_is_no_hedge() -> None:
    # the task asks for several names (two CEOs of one company, each its own fact): a set said with
    # 와/과, and the step rewards agree
    facts = [
        {"id": "a", "matcher": "name", "value": "$a", "description": "대표이사 1"},
        {"id": "b", "matcher": "name", "value": "$b", "description": "대표이사 2"},
    ]
    exp = {"a": "전영현", "b": "노태문"}
    for answer in (
        "삼성전자 대표이사는 전영현과 노태문입니다.",
        "대표이사는 노태문, 전영현 두 분입니다.",
        "대표이사: 전영현 및 노태문",
    ):
        assert matching.score_answer(facts, exp, answer, question="삼성전자 대표이사가 누구예요?") == {
            "a": 1.0,
            "b": 1.0,
        }
        assert not any(scoring.name_hedged(answer, v) for v in exp.values())
    # the two joined by 또는 are the task's own names too (each fact's value): no invented alternative
    assert matching.score_answer(facts, exp, "대표이사는 전영현 또는 노태문입니다.") == {"a": 1.0, "b": 1.0}


def test_the_questions_two_names_restated_before_the_pick_are_no_hedge() -> None:
    # the question named both; the answer restates the choice, then picks one
    facts = [{"id": "x", "matcher": "name", "value": "$x", "description": "본사 소재지"}]
    q = "서울특별시 또는 경기도 중 어디에 본사가 있나요?"
    for answer in (
        "서울특별시 또는 경기도 중 서울특별시에 본사가 있습니다.",
        "경기도 또는 서울특별시 가운데 서울특별시에 있습니다.",
        "서울특별시 또는 경기도 중 어디인지 공시를 보니 서울특별시입니다.",
        "서울특별시, 경기도 중 어디에 있는지 보면 서울특별시입니다.",
    ):
        assert matching.score_answer(facts, {"x": "서울특별시"}, answer, question=q)["x"] == 1.0, answer
    # ... but the two said as the answer, or "one of the two", is still a guess
    for answer in (
        "서울특별시 또는 경기도입니다.",
        "서울특별시 또는 경기도 중 하나입니다.",
        "서울특별시 또는 경기도 중 어느 한 곳입니다.",
        "서울특별시 또는 경기도 중 어디인지 알 수 없습니다.",
    ):
        assert matching.score_answer(facts, {"x": "서울특별시"}, answer, question=q)["x"] == 0.0, answer


def test_or_inside_a_proper_name_is_no_hedge() -> None:
    # a value that contains "또는", and a neighbouring fact's value that does
    facts = [
        {"id": "w", "matcher": "name", "value": "$w", "description": "내일 날씨"},
        {"id": "r", "matcher": "name", "value": "$r", "description": "노선"},
    ]
    exp = {"w": "흐리고 비 또는 눈", "r": "정신아"}
    got = matching.score_answer(facts, exp, "내일은 흐리고 비 또는 눈이 오겠습니다. 담당은 정신아입니다.")
    assert got == {"w": 1.0, "r": 1.0}
    got = matching.score_answer(facts, exp, "담당: 정신아, 날씨: 흐리고 비 또는 눈")
    assert got == {"w": 1.0, "r": 1.0}
    assert not matching.name_hedged("정신아", "담당: 정신아 흐리고 비 또는 눈", known=["흐리고 비 또는 눈"])


def test_the_grpo_step_check_is_the_bench_rule() -> None:
    # one rule: steps.scoring.name_hedged delegates to matching.name_hedged
    for text in (
        "곽노정 또는 김철수",
        "김철수 또는 곽노정",
        "곽노정이나 김철수일 수 있습니다",
        "곽노정이며, 본사 또는 공장 주소는 경기도 이천시입니다.",
        "곽노정과 김철수",
    ):
        assert scoring.name_hedged(text, "곽노정") == matching.name_hedged("곽노정", text)


# --- efficiency on a task whose gold makes no call --------------------------------------------------


async def test_a_call_on_a_no_call_task_is_a_wasted_call() -> None:
    # kopa-131: sales figures the NTS status API does not hold; the gold makes no call (a refusal from
    # the tool descriptions). One wandering call earned efficiency 1.0 (max(n_gold, 1) / calls).
    task, gold = await _setup("kopa-131")
    assert not gold.needs
    answer = oracle_answer(task, gold.expected, context=gold.context)
    made = await _CALLS.run_calls(
        task, shared_backend(BackendConfig()), [("nts_status", {"b_no": "1058852441"})]
    )
    g = grade(task, gold, answer, made)
    assert g.efficiency == 0.0 and g.calls == 1.0
    assert grade(task, gold, answer, []).efficiency == 1.0
    two = await _CALLS.run_calls(
        task, shared_backend(BackendConfig()), [("nts_status", {"b_no": "1058852441"})] * 2
    )
    assert grade(task, gold, answer, two).efficiency == 0.0


# --- an alias is no hedge ----------------------------------------------------------------------------
# A value's alias is another field of the SAME result row (corp_name / corp_eng_name, a station's name
# and its code): "삼성전자 또는 SAMSUNG ELECTRONICS" names one company twice, it guesses nothing. Since
# the one rule above, such an answer lost the point. The scorer knows the row from the gold outputs
# (matching.with_row_aliases: the fields shared by every row holding the value, none of the value's
# own kind, no competitor); another row's name, its alias and an invented name stay alternatives.


async def _alias_context(task_id: str) -> tuple[BenchTask, GoldTruth, str, dict]:
    task, gold = await _setup(task_id)
    answer = oracle_answer(task, gold.expected, context=gold.context)
    return task, gold, answer, matching.with_row_aliases(gold.context, gold.expected, gold.run.outputs)


def _score069(task: BenchTask, gold: GoldTruth, answer: str, context: dict) -> float:
    return matching.score_answer(
        task.facts, gold.expected, answer, question=f"{task.query}\n{task.query_en}", context=context
    )["top"]


@pytest.mark.parametrize(
    "alias",
    [
        "삼성전자 또는 SAMSUNG ELECTRONICS CO,.LTD",
        "SAMSUNG ELECTRONICS 또는 삼성전자",
        "삼성전자 혹은 SAMSUNG",
        "삼성전자(종목코드 005930) 또는 SAMSUNG ELECTRONICS",
    ],
)
async def test_an_alias_from_the_gold_row_keeps_credit(alias: str) -> None:
    # kopa-069: the company with the largest revenue is 삼성전자; its corpCode row holds corp_eng_name
    task, gold, answer, context = await _alias_context("kopa-069")
    line = "- 가장 큰 회사: 삼성전자"
    assert line in answer
    assert "SAMSUNG ELECTRONICS CO,.LTD" in context["top"]["aliases"]
    assert _score069(task, gold, answer.replace(line, f"- 가장 큰 회사: {alias}"), context) == 1.0, alias


@pytest.mark.parametrize(
    "attack",
    [
        "삼성전자 또는 LG전자",  # an invented company
        "삼성전자 또는 현대자동차",  # another row's name: a competitor
        "현대자동차 또는 삼성전자",
        "삼성전자 또는 HYUNDAI MOTOR CO",  # the same-kind alternative from another row: a competitor's alias
        "삼성전자 혹은 NAVER",
        "삼성전자 또는 Kakao",
    ],
)
async def test_the_attacks_still_fail_where_the_row_is_known(attack: str) -> None:
    task, gold, answer, context = await _alias_context("kopa-069")
    line = "- 가장 큰 회사: 삼성전자"
    assert _score069(task, gold, answer.replace(line, f"- 가장 큰 회사: {attack}"), context) == 0.0, attack
    assert _score069(task, gold, answer, context) == 1.0  # the control


def test_row_aliases_are_the_rows_own_other_names() -> None:
    rows = {
        "s1": {
            "items": [
                {"routeno": "720", "startnodenm": "구파발역", "endnodenm": "서울역", "routeid": "100100111"},
                {"routeno": "721", "startnodenm": "불광역", "endnodenm": "서울역", "routeid": "100100112"},
            ]
        }
    }
    # the start stop's alias: the route's number and id, not the other stop of the row (same kind: a
    # stop the question may mean, so "구파발역 또는 서울역" stays a guess between two stops)
    got = matching.row_aliases("구파발역", rows)
    assert "720" in got and "100100111" in got and "서울역" not in got
    # a value in two rows of different routes: only what both rows hold with it
    assert matching.row_aliases("서울역", rows) == []
    # the other end of the route is a candidate whatever its shape (no 역 to tell its kind)
    plain = [
        {"routeno": "511", "startnodenm": "충남대학교", "endnodenm": "북대전농협", "routetp": "일반버스"}
    ]
    assert matching.row_aliases("충남대학교", plain) == ["511", "일반버스"]
    facts = [{"id": "s", "matcher": "name", "value": "$s", "description": "기점"}]
    ctx = matching.with_row_aliases({}, {"s": "충남대학교"}, plain)
    assert (
        matching.score_answer(
            facts, {"s": "충남대학교"}, "511번의 기점은 충남대학교 또는 북대전농협입니다.", context=ctx
        )["s"]
        == 0.0
    )
    # two persons of one row are two candidates, not aliases; competitors never are
    people = [{"ceo_nm": "최수연", "cfo_nm": "김남선", "corp_name_eng": "NAVER Corporation"}]
    assert matching.row_aliases("최수연", people) == ["NAVER Corporation"]
    assert matching.row_aliases("최수연", people, exclude=["NAVER Corporation"]) == []


NAVER_RESULT = json.dumps(
    {
        "status": "000",
        "list": [
            {
                "corp_code": "00266961",
                "corp_name": "네이버",
                "corp_name_eng": "NAVER Corporation",
                "stock_code": "035420",
            },
            {
                "corp_code": "00258801",
                "corp_name": "카카오",
                "corp_name_eng": "Kakao Corp.",
                "stock_code": "035720",
            },
        ],
    },
    ensure_ascii=False,
)
NAVER_FACTS = [
    {
        "id": "corp",
        "matcher": "name",
        "value": "$s1.list[0].corp_name",
        "resolved": "네이버",
        "description": "회사명",
        "question": "종목코드 035420인 회사는 어디인가요?",
    }
]


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("종목코드 035420인 회사는 네이버 또는 NAVER Corporation입니다.", 1.0),
        ("종목코드 035420인 회사는 NAVER 또는 네이버입니다.", 1.0),
        ("종목코드 035420인 회사는 네이버입니다.", 1.0),
        ("종목코드 035420인 회사는 네이버 또는 카카오입니다.", 0.0),  # another row's name
        ("종목코드 035420인 회사는 네이버 또는 Kakao입니다.", 0.0),  # another row's alias
        ("종목코드 035420인 회사는 네이버 또는 라인입니다.", 0.0),  # an invented name
    ],
)
def test_the_step_rewards_read_the_shown_row_alike(answer: str, want: float) -> None:
    # the GRPO step rewards / kopa_steps answer metric: the row is in the shown tool results
    assert scoring.answer_score(answer, NAVER_FACTS, [NAVER_RESULT]) == want, answer
