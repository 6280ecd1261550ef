"""Closed-book leaks (issue 10, trajectory validity): an EDGE row is kept only if its answer needs its
calls, i.e. no answer built from the query alone earns credit by the step metric (leak.py).

The rows below are real rows of a 2,000-row default run that a pipeline without this check
kept: a menu the restaurant's name says ('소문난삼계탕' -> 삼계탕), a department the clinic's
name says ('맑은치과의원' -> 치과), a count equal to the condition's threshold the query states
("10명 이상이면" and 10 nearby hospitals). Each is paired with a valid alternative that must be kept.
"""

from __future__ import annotations

import pytest

from edge_synth.leak import (
    answer_in_query,
    closed_book_answers,
    credit,
    leaked_facts,
    posed_choice,
    query_figures,
    query_names,
    stated_facts,
)
from edge_synth.pipeline import closed_book_reason
from kopa_inspect.steps.scoring import answer_score

MENU_Q = "법정동 중 '서울특별시 종로구 효자동'의 관광지 중 '소문난삼계탕 경복궁점'의 관광지 이용 안내의 대표 메뉴는 어떻게 되나요?"
MENU_FACTS = [
    {
        "id": "f1",
        "description": "관광지 이용 안내의 대표 메뉴",
        "value": "$s3.items[0].firstmenu",
        "resolved": "삼계탕",
        "matcher": "name",
        "tolerance": 0.0,
        "step": "s3",
        "field": "firstmenu",
        "row": 0,
        "row_reason": "only",
    }
]

CMP_Q = (
    "관광지 중 '마포중앙시장'과 '여주 바람결 호텔 4' 가운데 근처 병원이 더 많은 쪽은 어디이고 관광지 중 '여주 바람결 호텔 4' "
    "근처 반경 2000미터 안의 병원 중 '맑은치과의원'의 진료과목의 과목명은 어떻게 되나요?"
)


def _cmp_facts(dept: str) -> list[dict]:
    return [
        {
            "id": "f1",
            "description": "'마포중앙시장'의 병원 수",
            "value": "$s2.totalCount",
            "resolved": 8,
            "matcher": "number",
            "tolerance": 0.0,
            "row_reason": "compared",
            "subject": "마포중앙시장",
        },
        {
            "id": "f2",
            "description": "'여주 바람결 호텔 4'의 병원 수",
            "value": "$s3.totalCount",
            "resolved": 12,
            "matcher": "number",
            "tolerance": 0.0,
            "row_reason": "compared",
            "subject": "여주 바람결 호텔 4",
        },
        {
            "id": "f3",
            "tolerance": 0.0,
            "winner_step": "s3",
            "row_reason": "compared",
            "winner_label": "'여주 바람결 호텔 4'",
            "description": "병원이 더 많은 쪽의 이름",
            "value": "$s1.items[8].title",
            "resolved": "여주 바람결 호텔 4",
            "matcher": "name",
            "competitors": ["마포중앙시장"],
            "winner_value": 12,
            "winner_value_ref": "$s3.totalCount",
        },
        {
            "id": "f4",
            "description": "진료과목의 과목명",
            "value": "$s4.items[0].dgsbjtCdNm",
            "resolved": dept,
            "matcher": "name",
            "tolerance": 0.0,
            "row_reason": "only",
        },
    ]


COND_Q = (
    "관광지 중 '부평중앙시장' 근처 반경 2000미터 안의 병원 중 '365내과의원'의 의사 수가 10명 이상이면 진료과목을, 아니면 병원 상세 "
    "정보를 보려고 합니다. 관광지 중 '동두천 별빛 펜션'과 '부평중앙시장' 가운데 근처 병원이 더 많은 쪽은 어디이고 그 병원 상세 정보의 "
    "주차 가능 대수는 어떻게 되나요?"
)


def _cond_facts(count: int) -> list[dict]:
    return [
        {
            "id": "f1",
            "description": "'동두천 별빛 펜션'의 병원 수",
            "value": "$s2.totalCount",
            "resolved": 7,
            "matcher": "number",
            "tolerance": 0.0,
            "row_reason": "compared",
            "subject": "동두천 별빛 펜션",
        },
        {
            "id": "f2",
            "description": "'부평중앙시장'의 병원 수",
            "value": "$s3.totalCount",
            "resolved": count,
            "matcher": "number",
            "tolerance": 0.0,
            "row_reason": "compared",
            "subject": "부평중앙시장",
        },
        {
            "id": "f3",
            "tolerance": 0.0,
            "winner_step": "s3",
            "row_reason": "compared",
            "winner_label": "'부평중앙시장'",
            "description": "병원이 더 많은 쪽의 이름",
            "value": "$s1.items[5].title",
            "resolved": "부평중앙시장",
            "matcher": "name",
            "competitors": ["동두천 별빛 펜션"],
            "winner_value": count,
            "winner_value_ref": "$s3.totalCount",
        },
        {
            "id": "f4",
            "description": "병원 상세 정보의 주차 가능 대수",
            "value": "$s4.items[0].parkQty",
            "resolved": 0,
            "matcher": "number",
            "tolerance": 0.0,
            "row_reason": "only",
        },
    ]


def test_the_attack_reads_only_the_query():
    assert query_names(CMP_Q) == ["마포중앙시장", "여주 바람결 호텔 4", "맑은치과의원"]
    assert "2000미터" in query_figures(CMP_Q)
    assert "10명" in query_figures(COND_Q)
    answers = closed_book_answers(MENU_Q)
    assert answers[0] == MENU_Q and all("삼계탕입니다" not in a for a in answers)  # never the value itself
    assert closed_book_answers(MENU_Q) == answers  # deterministic


def test_a_value_the_query_names_earns_closed_book_credit_and_is_dropped():
    # attack: the query echoed scores the whole answer (the matcher finds 삼계탕 in '소문난삼계탕')
    assert answer_score(MENU_Q, MENU_FACTS) == 1.0
    assert answer_in_query(MENU_Q, MENU_FACTS) is not None
    assert closed_book_reason(MENU_Q, MENU_FACTS) == "answer_in_query"
    assert stated_facts(MENU_Q, MENU_FACTS) == ["f1"]
    # valid: a menu the name does not give away is kept
    other = [{**MENU_FACTS[0], "resolved": "닭볶음탕"}]
    assert answer_in_query(MENU_Q, other) is None and closed_book_reason(MENU_Q, other) is None
    assert answer_score("'소문난삼계탕 경복궁점'의 대표 메뉴는 닭볶음탕입니다.", other) == 1.0


def test_a_department_in_the_clinic_name_leaks_one_fact():
    leaked, which, best = leaked_facts(CMP_Q, _cmp_facts("치과"))
    assert leaked == {"f4"} and which is not None and 0 < best < 1.0
    assert closed_book_reason(CMP_Q, _cmp_facts("치과")) == "answer_in_query"
    assert closed_book_reason(CMP_Q, _cmp_facts("구강악안면외과")) is None


def test_a_figure_copied_from_the_query_that_happens_to_be_right_is_dropped():
    # "10명 이상이면" and 10 nearby hospitals: "'부평중앙시장'은(는) 10명입니다." earns the count fact
    leaked, which, _ = leaked_facts(COND_Q, _cond_facts(10))
    assert leaked == {"f2"} and which is not None and "10" in which
    assert credit(which, _cond_facts(10)).get("f2") == 1.0
    assert closed_book_reason(COND_Q, _cond_facts(10)) == "answer_in_query"
    assert closed_book_reason(COND_Q, _cond_facts(11)) is None


def test_guessing_one_of_the_candidates_the_query_poses_is_not_a_leak():
    facts = _cmp_facts("구강악안면외과")
    assert posed_choice(CMP_Q, facts[2]) and not posed_choice(CMP_Q, facts[3])
    # naming the winner earns its fact (a 1-in-2 guess), nothing else: the figures need the calls
    assert answer_score("'여주 바람결 호텔 4' 쪽입니다.", facts) == 0.25
    assert answer_in_query(CMP_Q, facts) is None
    # a pick whose candidates the query never names is no posed choice: naming it from the query leaks
    unposed = {**facts[2], "resolved": "맑은치과의원", "competitors": ["튼튼치과의원"]}
    assert not posed_choice(CMP_Q, unposed)
    assert leaked_facts(CMP_Q, [*facts[:2], unposed])[0] == {"f3"}


@pytest.fixture(scope="module")
def seeded_leaks(edge_seeded_rows):
    """The seeded rows the pipeline's earlier filters keep, each with its closed-book verdict and an
    exhaustive check (every closed-book answer scored, no shortcut)."""
    out = []
    for r in edge_seeded_rows:
        if not r["holds"]:
            continue
        q, facts = r["comp"].query, r["comp"].facts
        choices = {f["id"] for f in facts if posed_choice(q, f)}
        any_credit = any(
            {k for k, v in credit(a, facts).items() if v > 0} - choices for a in closed_book_answers(q)
        )
        full = any(answer_score(a, facts) >= 1.0 for a in closed_book_answers(q))
        out.append({"query": q, "reason": closed_book_reason(q, facts), "leaks": any_credit or full})
    return out


def test_the_filter_catches_every_closed_book_credit_of_the_seeded_rows(seeded_leaks):
    assert seeded_leaks
    missed = [r["query"] for r in seeded_leaks if r["leaks"] and r["reason"] is None]
    assert not missed
    # and it drops nothing the attack cannot earn credit on
    assert not [r["query"] for r in seeded_leaks if r["reason"] is not None and not r["leaks"]]
