"""Questions a person could ask (issue 10, validity before style): edge_synth.validity.

The rows are those the reader of results/edge-default/samples.md (a default run) marked, and
the same shapes in a seed-1 300-row run (`kopa synth --out .kopa/edge300 --n 300 --seed 1 --fresh`):

(a) a row picked BY NAME from a list the chain found around another row's place or point ("… 아파트
    매매 거래 중 '장항두산위브3차'와 같은 동네의 병원 중 '365장항재활의학과의원'의 개설일자"): a person who
    knows the hospital asks about it; one who does not cannot name it. Such a row is picked by a
    stated measure, counted, or the row is dropped (``named_pick_after_chain``). Rows of a start call
    and rows that belong to a named row ("'부산대학교병원'의 진료과목 중 '외과'") may still be named.
(b) asks that share no subject in one query are dropped (``unrelated_asks``).
(c) "'B'는요?" only where B is a row whose list was said; "전문의가 가장 적은 병원의 '내과'는요?" is not.
(d) no largest/smallest over one page of a longer list (``partial_pick``: totalCount > rows fetched).
"""

from __future__ import annotations

import pytest

from edge_helpers import compose_draft, emulator, hand_draft, run_steps
from edge_synth.compose import _sentences
from edge_synth.filter import answer_holds
from edge_synth.sample import Junction
from edge_synth.validity import found_by_search, partial, pick_problems, unrelated_asks
from kopa_inspect.plans import PlanStep

# s1: 경기도 고양시 일산동구 apartment sales of last month; row 1 is '장항두산위브3차' (장항동), the row of
# edge-s0-0003995 (samples.md #13); s2: the hospitals of the same 동 (a search around the row's place).
SALES = PlanStep(
    id="s1", tool="molit_getRTMSDataSvcAptTrade", args={"LAWD_CD": "41285", "DEAL_YMD": "202611"}
)
SAME_DONG = PlanStep(id="s2", tool="hira_getHospBasisList", args={"emdongNm": "$s1.items[1].umdNm"})
SEOUL_HOSPITALS = PlanStep(id="s1", tool="hira_getHospBasisList", args={"sidoCd": "110000", "clCd": "01"})


@pytest.fixture(scope="module")
def backend():
    with emulator() as b:
        yield b


@pytest.fixture(scope="module")
def backend1():
    """The seed-1 world: the stored rows of the seed-1 run are its rows."""
    with emulator(seed=1) as b:
        yield b


def _chain(backend, index: int = 0):
    return hand_draft(
        backend, [SALES, SAME_DONG], [Junction("SEM", "s1", ["s2"], "e_test", {"item": 1})], index=index
    )


def test_a_list_found_around_a_rows_place_is_a_search_a_start_list_is_not(backend):
    d = _chain(backend)
    assert found_by_search(d, "s2") and not found_by_search(d, "s1")
    assert len(d.outputs["s2"]["items"]) > 1


def test_a_searched_leaf_row_is_picked_by_a_measure_never_by_its_name(backend):
    # before: the grammar named one of the 동's hospitals ("… 병원 중 '365장항재활의학과의원'의 개설일자")
    for index in range(6):
        comp = compose_draft(backend, _chain(backend, index))
        reasons = {f["row_reason"] for f in comp.facts if f["step"] == "s2"}
        assert reasons and "named" not in reasons, (index, comp.query)
        assert reasons <= {"max", "min", "count"}, reasons
        assert comp.invalid == [], comp.invalid


def test_a_named_pick_after_a_search_is_named_as_the_reason_to_drop(backend):
    d = _chain(backend)
    items = d.outputs["s2"]["items"]
    named = {"id": "f1", "step": "s2", "row": 0, "row_reason": "named", "field": "addr", "resolved": "x"}
    assert pick_problems(d, [named]) == ["named_pick_after_chain"]
    # the same pick of a start call's row is a person's (they live in that apartment)
    assert pick_problems(d, [{**named, "step": "s1", "row": 1}]) == []
    # a junction that takes a searched row by name ("… 병원 중 '새봄소아청소년과의원'의 진료과목")
    s3 = PlanStep(id="s3", tool="hira_getDgsbjtInfo2_7", args={"ykiho": "$s2.items[0].ykiho"})
    d3 = hand_draft(
        backend,
        [SALES, SAME_DONG, s3],
        [Junction("SEM", "s1", ["s2"], "e1", {"item": 1}), Junction("SEQ", "s2", ["s3"], "e2", {"item": 0})],
    )
    assert len(items) > 1 and "named_pick_after_chain" in pick_problems(d3, [])


def test_a_row_of_a_named_rows_own_list_may_be_named(backend):
    # "'…병원'의 진료과목 중 '내과'의 전문의 수": the department belongs to the hospital the user named
    s2 = PlanStep(id="s2", tool="hira_getDgsbjtInfo2_7", args={"ykiho": "$s1.items[0].ykiho"})
    d = hand_draft(backend, [SEOUL_HOSPITALS, s2], [Junction("SEQ", "s1", ["s2"], "e_test", {"item": 0})])
    assert not found_by_search(d, "s2")
    named = {"id": "f1", "step": "s2", "row": 0, "row_reason": "named", "field": "x", "resolved": "x"}
    assert pick_problems(d, [named]) == []


def test_no_largest_over_one_page_of_a_longer_list(backend):
    # samples.md #14: "의사가 가장 적은 병원" over 10 of the nation's hospitals
    out = run_steps(backend, [SEOUL_HOSPITALS]).outputs["s1"]
    assert partial(out), (len(out["items"]), out.get("totalCount"))
    s2 = PlanStep(
        id="s2", tool="hira_getDgsbjtInfo2_7", args={"ykiho": "$s1.max_by(items, &to_number(drTotCnt)).ykiho"}
    )
    d = hand_draft(
        backend,
        [SEOUL_HOSPITALS, s2],
        [Junction("DRV", "s1", ["s2"], "e_test", {"reduce": "max_by", "by": "drTotCnt"})],
    )
    assert "partial_pick" in pick_problems(d, [])
    maxed = {"id": "f1", "step": "s1", "row": 0, "row_reason": "max", "measure": "drTotCnt", "field": "addr"}
    assert pick_problems(d, [maxed]) == ["partial_pick"]
    # the grammar itself never ranks that page: a leaf over it is named (a start row) or counted
    for index in range(4):
        comp = compose_draft(
            backend,
            hand_draft(
                backend,
                [
                    SEOUL_HOSPITALS,
                    s2.model_copy(update={"id": "s2", "args": {"ykiho": "$s1.items[0].ykiho"}}),
                ],
                [Junction("SEQ", "s1", ["s2"], "e", {"item": 0})],
                index=index,
            ),
        )
        assert not any(f["row_reason"] in ("max", "min") and f["step"] == "s1" for f in comp.facts)


# samples.md #21 and #11 (asks as the grammar builds them: whose, what, question word)
THREE_UNRELATED = [
    ("", "도시 '세종특별시'와 '울산광역시' 중 버스 정류장이 더 많은 쪽", "어디"),
    (
        "",
        "'동구교회' 반경 2km 안의 관광지 '중구 해담 호텔'과 '옛날칼국수 북구점' 중 근처에 병원이 더 많은 곳",
        "어디",
    ),
    ("'수원시'의 버스 정류장 중 '광교중앙역'의", "정류장 번호", "얼마"),
]
TWO_UNRELATED = [
    ("", "관광지 '명가돼지국밥 달서점'과 '여주 바람결 호텔 4' 중 반경 2km 안에 병원이 더 많은 쪽", "어디"),
    ("'열린한의원'의", "토요일 진료 종료", "언제"),
]


def test_asks_that_share_no_subject_are_unrelated():
    assert unrelated_asks([], THREE_UNRELATED)
    assert unrelated_asks([], TWO_UNRELATED)
    # samples.md #1: a condition about one hospital, then an ask about a hospital never introduced
    lead = [
        "… 병원 중 '새봄소아청소년과의원'의 의사가 10명 이상이면 진료과목을, 아니면 진료 시간과 주차 정보를 보려고 합니다."
    ]
    assert unrelated_asks(lead, [("'하나내과의원'의 진료과목 중 '내과'의", "전문의 수", "얼마")])


def test_asks_about_one_subject_are_related():
    assert not unrelated_asks(
        [], [TWO_UNRELATED[0], ("'여주 바람결 호텔 4' 근처에서 의사가 가장 많은 병원의", "주소", "어디")]
    )
    assert not unrelated_asks(
        [], [("'A병원'의", "주소", "어디"), ("'B병원'의", "주소", "어디")]
    )  # same ask, two rows
    lead = [
        "병원 중 '부산대학교병원'의 의사가 10명 이상이면 진료과목을, 아니면 진료 시간과 주차 정보를 보려고 합니다."
    ]
    assert not unrelated_asks(lead, [("그 진료과목 중 '외과'의", "전문의 수", "얼마")])
    assert not unrelated_asks([], [("'A'의", "주소", "어디")])
    # seed-1 index 36: the same question of two schools of one list
    assert not unrelated_asks(
        [],
        [
            ("설립명이 사립인 학교 중 '대치고등학교'의 학사일정 중 '현충일'의", "날짜", "언제"),
            ("'온천고등학교'의 '체육대회'의", "날짜", "언제"),
        ],
    )


def test_b_neun_yo_only_for_a_row_whose_list_was_said():
    # samples.md #27: "… 그 진료과목 중 '내과'의 전문의 수는 얼마이고 전문의가 가장 적은 병원의 '내과'는요?"
    q = _sentences(
        [
            ("그 진료과목 중 '내과'의", "전문의 수", "얼마"),
            ("전문의가 가장 적은 병원의 '내과'의", "전문의 수", "얼마"),
        ],
        1,
    )
    assert "'내과'는요?" not in q and q.count("전문의 수") == 2, q
    q2 = _sentences([("그 진료과목 중 '내과'의", "전문의 수", "얼마"), ("'외과'의", "전문의 수", "얼마")], 1)
    assert q2.endswith("'외과'는요?"), q2


def test_a_fluent_valid_row_still_passes(backend):
    # samples.md #4's shape: "… '한신3'과 같은 동네에서 의사가 가장 적은 병원의 전문의 수는 얼마인가요?"
    comp = compose_draft(backend, _chain(backend))
    assert comp.invalid == [] and answer_holds(comp.answer, comp.facts)
    # "… 중 '장항두산위브3차'와 같은 동네의 병원은 모두 몇 곳인가요?" (or "…에서 의사가 가장 적은 병원의 …")
    after = comp.query.split("'장항두산위브3차'와 같은 동네", 1)[1]
    assert "'" not in after and comp.query.endswith("?") and comp.query.count("?") == 1, comp.query


# Rows of a seed-1 300-row run without the validity rules, plans and facts as stored.
S1_CLOCK = "2026-12-05T12:24:00+09:00"
ROW_29 = {  # "하월곡동과 같은 시군구의 어린이집 중 '사랑어린이집' 반경 2km 안의 병원 중 '튼튼가정의학과의원'의 주소는 …?"
    "steps": [
        ("s1", "kma_getGridPointList", {"level3": "하월곡동"}),
        (
            "s2",
            "seoul_ChildCareInfo",
            {"START_INDEX": 1, "END_INDEX": 10, "SIGUNNAME": "$s1.items[0].level2"},
        ),
        (
            "s3",
            "hira_getHospBasisList",
            {"radius": 2000, "xPos": "$s2.items[3].LO", "yPos": "$s2.items[3].LA"},
        ),
        (
            "s4",
            "hira_getHospBasisList",
            {"radius": 2000, "xPos": "$s2.items[5].LO", "yPos": "$s2.items[5].LA"},
        ),
    ],
    "junctions": [("SEQ", "s1", ["s2"], {"item": 0}), ("FAN", "s2", ["s3", "s4"], {"items": [3, 5]})],
    "facts": [("s3", "named", 0)],
}
ROW_21 = {  # "의사가 가장 적은 병원에서 전문의가 가장 많은 진료과목은 무엇이고 …" (nationwide hospitals, one page)
    "steps": [
        ("s1", "hira_getHospBasisList", {}),
        ("s2", "hira_getDgsbjtInfo2_7", {"ykiho": "$s1.min_by(items, &to_number(drTotCnt)).ykiho"}),
    ],
    "junctions": [("DRV", "s1", ["s2"], {"reduce": "min_by", "by": "drTotCnt"})],
    "facts": [("s2", "max", 0)],
}
ROW_0 = {  # "창천동과 같은 시군구의 모범음식점 중 '초록식당'의 전화번호는 몇 번인가요?"
    "steps": [
        ("s1", "airkorea_getTMStdrCrdnt", {"umdName": "창천동"}),
        (
            "s2",
            "seoul_CrtfcUpsoInfo",
            {"START_INDEX": 1, "END_INDEX": 10, "CGG_CODE_NM": "$s1.items[0].sggName"},
        ),
    ],
    "junctions": [("SEQ", "s1", ["s2"], {"item": 0})],
    "facts": [("s2", "named", 0)],
}


def _stored(backend, row, index: int = 0):
    steps = [PlanStep(id=i, tool=t, args=dict(a)) for i, t, a in row["steps"]]
    js = [Junction(t, p, c, "e_stored", dict(d)) for t, p, c, d in row["junctions"]]
    return hand_draft(backend, steps, js, index=index, seed=1, clock=S1_CLOCK)


@pytest.mark.parametrize(("row", "why"), [(ROW_29, "named_pick_after_chain"), (ROW_21, "partial_pick")])
def test_stored_rows_of_the_seed1_run_are_named_for_what_is_wrong(backend1, row, why):
    d = _stored(backend1, row)
    facts = [
        {"id": f"f{k}", "step": s, "row": r, "row_reason": how, "field": "x", "measure": "x"}
        for k, (s, how, r) in enumerate(row["facts"])
    ]
    assert why in pick_problems(d, facts)


def test_a_list_around_the_users_own_place_is_the_users_search(backend1):
    # ROW_0: 창천동 is the user's place (a place table looked up by their words); its 구's restaurants are a
    # list they asked for, like a start call's, so a restaurant in it may be named ("… 모범음식점 중 '초록식당'")
    d = _stored(backend1, ROW_0)
    assert not found_by_search(d, "s2")
    assert pick_problems(d, [{"id": "f1", "step": "s2", "row": 0, "row_reason": "named", "field": "x"}]) == []


@pytest.mark.parametrize("order", [("lDongRegnCd", "lDongSignguCd"), ("lDongSignguCd", "lDongRegnCd")])
def test_a_search_is_read_from_every_link_field_whatever_the_argument_order(order):
    # seed-0 edge-s0-0000051's link (a 법정동 row's 시도 and 시군구 codes into TourAPI), from a 법정동 row
    # that is itself a result (not the user's words): before, only the first argument's field was read
    from edge_synth.sample import Draft

    refs = {"lDongRegnCd": "$s2.items[0].sido_cd", "lDongSignguCd": "$s2.items[0].sgg_cd"}
    steps = [
        PlanStep(
            id="s1", tool="molit_getRTMSDataSvcAptTrade", args={"LAWD_CD": "11110", "DEAL_YMD": "202611"}
        ),
        PlanStep(id="s2", tool="stanregincd_getStanReginCdList", args={"locatadd_nm": "$s1.items[0].umdNm"}),
        PlanStep(
            id="s3",
            tool="tourapi_searchFestival2",
            args={"eventStartDate": "20261205", **{k: refs[k] for k in order}},
        ),
    ]
    d = Draft(
        index=0,
        steps=steps,
        junctions=[
            Junction("SEM", "s1", ["s2"], "e1", {"item": 0}),
            Junction("SEQ", "s2", ["s3"], "e2", {"item": 0}),
        ],
    )
    assert found_by_search(d, "s3")


@pytest.mark.parametrize("row", [ROW_29])
def test_stored_searched_lists_are_no_longer_asked_by_name(backend1, row):
    for index in range(3):
        d = _stored(backend1, row, index)
        comp = compose_draft(backend1, d, seed=1, clock=S1_CLOCK)
        named = [
            f
            for f in comp.facts
            if f["row_reason"] == "named"
            and found_by_search(d, f["step"])
            and len(comp.run.outputs[f["step"]]["items"]) > 1
        ]
        assert not named, comp.query


# edge-s1-0000363 (seed 1; in the 200- and the 300-row run): "서울특별시 종로구(11110) 지난달(2026년 11월) 아파트
# 전월세 거래 중 '동아2'가 있는 동네와 같은 시군구에서 현원이 가장 작은 어린이집의 정원은 얼마인가요?" / "… 현원이
# 가장 작은 어린이집(현원 26)의 정원은 104입니다." The row has no unique name ('새봄어린이집' twice), so the
# grader (scorers.grading.fact_context) takes every other row's 정원 as a competitor: '바른어린이집' has 정원 26,
# and "(현원 26)" read as claiming it. The pipeline's check had no competitors and kept the row.
ROW_363 = {
    "steps": [
        ("s1", "molit_getRTMSDataSvcAptRent", {"LAWD_CD": "11110", "DEAL_YMD": "202611"}),
        ("s2", "airkorea_getTMStdrCrdnt", {"umdName": "$s1.items[1].umdNm"}),
        (
            "s3",
            "seoul_ChildCareInfo",
            {"START_INDEX": 1, "END_INDEX": 10, "SIGUNNAME": "$s2.items[0].sggName"},
        ),
    ],
    "junctions": [("SEM", "s1", ["s2"], {"item": 1}), ("SEQ", "s2", ["s3"], {"item": 0})],
}


def test_an_unnamed_pick_is_graded_by_the_episode_grader_as_the_pipeline_checks_it(backend1):
    import asyncio
    import random

    from edge_synth.compose import make_facts, template_answer
    from kopa_inspect.plans import Plan, PlanRun
    from kopa_inspect.scorers.grading import gold_truth, grade
    from kopa_inspect.task_data.schema import AnswerFact, BenchTask

    d = _stored(backend1, ROW_363, 363)
    # The 어린이집 list is one page (10 of the 구's rows): now no "가장 작은" is asked of it at all (partial_pick).
    assert partial(d.outputs["s3"])
    comp = compose_draft(backend1, d, seed=1, clock=S1_CLOCK)
    assert not any(f["row_reason"] in ("max", "min") for f in comp.facts if f["step"] == "s3"), comp.query
    # Were those 10 rows the whole list, the pick is asked, and its answer is what the grader reads.
    d.outputs["s3"] = {**d.outputs["s3"], "totalCount": len(d.outputs["s3"]["items"])}
    run = PlanRun(args=d.args, outputs=d.outputs)
    want = "$s3.min_by(items, &to_number(CRCHCNT)).CRCAPAT"  # the stored fact: 현원이 가장 작은 → 정원
    tries = (make_facts(d, run, random.Random(k), [], S1_CLOCK) for k in range(500))
    facts = next(fs for fs in tries if any(f["value"] == want for f in fs))
    answer = template_answer(d, facts, run)
    pick = next(f for f in facts if f["value"] == want)
    assert pick["row_label"] is None and pick["resolved"] == "104" and "26" in pick["competitors"], pick
    assert "(현원 26)" not in answer and answer_holds(answer, facts), answer
    plan = Plan(steps=d.steps)
    task = BenchTask.model_construct(
        id="kopa-000",
        category="chain2",
        domain="district",
        platforms=[],
        tools=plan.tools(),
        query="",
        query_en="",
        clock=S1_CLOCK,
        plan=plan,
        required_state=[],
        n_calls=len(plan.steps),
        parallel=False,
        facts=[
            AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields})
            for f in facts
        ],
    )
    gold = asyncio.run(gold_truth(task, backend1, seed=1))
    calls = [{"tool": s.tool, "args": gold.run.args[s.id], "ok": True} for s in plan.steps]
    assert grade(task, gold, answer, calls, set()).answer == 1.0
    # the stored answer fails the grader, and the pipeline's check now reads it the same way
    stored = "'종로2가'와 같은 시군구의 어린이집 중 현원이 가장 작은 어린이집(현원 26)의 정원은 104입니다."
    assert grade(task, gold, stored, calls, set()).answer == 0.0 and not answer_holds(stored, facts)


def test_an_answer_the_episode_graders_form_check_refuses_is_caught():
    # edge-s0-0007678 (a default run), shortened: the comparison's times "17시 30분", "18시" equal
    # two other 어린이집 rows' 현원 (18, 30). steps.scoring.answer_well_formed (which kopa_grpo.env runs
    # before grading) must not read them as two other rows' figures listed (the row's own answer would
    # score 0 and the pipeline drop it): a clock hour is no figure of a count, so the grader
    # takes that answer and the pipeline keeps it; two other rows' 현원 said as figures are still refused.
    import json

    from edge_synth.filter import answer_well_formed
    from kopa_inspect.steps.scoring import answer_well_formed as graders_check

    rows = [
        {"CRNAME": "A어린이집", "CRCAPAT": "17", "CRCHCNT": "11"},
        {"CRNAME": "B어린이집", "CRCAPAT": "40", "CRCHCNT": "18"},
        {"CRNAME": "C어린이집", "CRCAPAT": "50", "CRCHCNT": "30"},
    ]
    results = [json.dumps({"items": rows}, ensure_ascii=False)]
    facts = [
        {
            "id": "f1",
            "value": "$s2.items[0].monEnd",
            "resolved": "1730",
            "matcher": "time",
            "subject": "경희대학교병원",
        },
        {
            "id": "f2",
            "value": "$s3.items[0].monEnd",
            "resolved": "1800",
            "matcher": "time",
            "subject": "서울대학교병원",
        },
        {
            "id": "f4",
            "value": "$s5.min_by(items, &to_number(CRCAPAT)).CRCHCNT",
            "resolved": "11",
            "matcher": "number",
            "competitors": ["18", "30"],
        },
    ]
    said = (
        "'경희대학교병원'의 월요일 진료 종료는 17시 30분, '서울대학교병원'의 월요일 진료 종료는 18시입니다. "
        "어린이집 중 정원이 가장 작은 어린이집(정원 17)의 현원은 11입니다."
    )
    expected = [f["resolved"] for f in facts]
    assert answer_well_formed(said, facts, results) == graders_check(said, results, expected, facts)
    assert answer_well_formed(said, facts, results)  # the hours are no 현원
    listed = "어린이집 중 정원이 가장 작은 어린이집의 현원은 11입니다. 다른 어린이집의 현원은 18, 30입니다."
    assert not graders_check(listed, results, expected[2:], facts[2:])
    assert not answer_well_formed(listed, facts[2:], results)
    plain = "어린이집 중 정원이 가장 작은 어린이집의 현원은 11입니다."
    assert answer_well_formed(plain, facts[2:], results)
