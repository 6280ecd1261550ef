"""Field values said as a person writes them, with the matcher that scores that form (issue 10)."""

from __future__ import annotations

import pytest

from edge_synth.values import later_phrase, say, typed, value_kind
from kopa_inspect.steps.scoring import answer_score


@pytest.mark.parametrize(
    ("op", "field", "raw", "said", "kind"),
    [
        ("neis_SchoolSchedule", "AA_YMD", "20260505", "2026년 5월 5일", "date"),
        (
            "tourapi_locationBasedList2",
            "createdtime",
            "20120528064023",
            "2012년 5월 28일 6시 40분",
            "timestamp",
        ),
        ("hira_getDtlInfo2_7", "trmtMonEnd", "1730", "17시 30분", "time"),
        ("hira_getDtlInfo2_7", "trmtSatStart", "0900", "9시", "time"),
        ("airkorea_getNearbyMsrstnList", "tm", "2.3", "2.3킬로미터", "km"),
        ("ecos_StatisticItemList", "END_TIME", "202611", "2026년 11월", "month"),
        ("tourapi_locationBasedList2", "dist", "850.5", "850.5미터", "m"),
    ],
)
def test_raw_encodings_are_said_for_a_person(op, field, raw, said, kind):
    assert value_kind(op, field, raw) == kind
    assert say(op, field, raw) == said


def test_a_four_digit_number_is_a_time_only_where_the_field_is_a_time():
    assert value_kind("hira_getHospBasisList", "drTotCnt", "1200") is None  # a doctor count, not 12시
    assert say("hira_getHospBasisList", "drTotCnt", "1200") == "1200"
    assert value_kind("molit_getRTMSDataSvcAptTrade", "dealAmount", "202611") == "manwon"  # an amount


@pytest.mark.parametrize(
    ("op", "field", "raw"),
    [
        ("neis_SchoolSchedule", "AA_YMD", "20260505"),
        ("tourapi_locationBasedList2", "createdtime", "20120528064023"),
        ("hira_getDtlInfo2_7", "trmtMonEnd", "1730"),
        ("airkorea_getNearbyMsrstnList", "tm", "2.3"),
        ("ecos_StatisticItemList", "END_TIME", "202611"),
    ],
)
def test_the_typed_fact_scores_the_said_form_and_not_a_wrong_one(op, field, raw):
    matcher, resolved, _ = typed(op, field, raw)
    fact = {
        "id": "f1",
        "description": "값",
        "value": "$s1.items[0].x",
        "resolved": resolved,
        "matcher": matcher or "number",
        "tolerance": 0.0,
        "subject": "가",
    }
    assert answer_score(f"'가'의 값은 {say(op, field, raw)}입니다.", [fact]) == 1.0
    wrong = {
        "20260505": "2026년 5월 6일",
        "20120528064023": "2012년 6월 28일 6시 40분",
        "1730": "17시 40분",
        "2.3": "3.2킬로미터",
        "202611": "2026년 10월",
    }[raw]
    assert answer_score(f"'가'의 값은 {wrong}입니다.", [fact]) == 0.0


def test_a_later_time_is_said_later_not_larger():
    assert later_phrase("월요일 진료 종료") == "월요일 진료가 더 늦게 끝나는"
    assert later_phrase("토요일 진료 시작", "min") == "토요일 진료가 더 일찍 시작하는"
    assert later_phrase("학사일자") == "학사일자가 더 늦은"


# --- amounts in 만원 (MOLIT dealAmount "123,000", Seoul THING_AMT): said in won, as a person does ----


@pytest.mark.parametrize(
    ("op", "field", "raw", "said"),
    [
        ("molit_getRTMSDataSvcAptTrade", "dealAmount", "123,000", "12억 3,000만 원"),
        ("molit_getRTMSDataSvcAptTrade", "dealAmount", "100,000", "10억 원"),
        ("molit_getRTMSDataSvcAptTradeDev", "dealAmount", " 8,500", "8,500만 원"),
        ("molit_getRTMSDataSvcAptRent", "deposit", "35,000", "3억 5,000만 원"),
        ("molit_getRTMSDataSvcAptRent", "monthlyRent", "120", "120만 원"),
        ("seoul_tbLnOpendataRtmsV", "THING_AMT", "98000", "9억 8,000만 원"),
    ],
)
def test_a_manwon_amount_is_said_in_won(op, field, raw, said):
    assert value_kind(op, field, raw) == "manwon"
    assert say(op, field, raw) == said


def test_a_manwon_fact_scores_the_said_amount_and_not_a_wrong_one():
    from edge_synth.values import unit_of

    op, field, raw = "molit_getRTMSDataSvcAptTrade", "dealAmount", "123,000"
    matcher, resolved, _ = typed(op, field, raw)
    fact = {
        "id": "f1",
        "description": "거래금액",
        "value": "$s1.items[0].dealAmount",
        "resolved": resolved,
        "matcher": matcher or "number",
        "unit": unit_of(op, field, raw),
        "tolerance": 0.0,
        "subject": "래미안",
    }
    assert answer_score("'래미안'의 거래금액은 12억 3,000만 원입니다.", [fact]) == 1.0
    assert answer_score("'래미안'의 거래금액은 12억 2,000만 원입니다.", [fact]) == 0.0
    assert answer_score("'래미안'의 거래금액은 123,000원입니다.", [fact]) == 0.0  # 만원 read as 원


def test_the_condition_sentence_says_the_amount_in_won():
    """ "'X'의 거래금액은 123,000으로 10억 원 이상이어서" said the API's 만원 figure raw beside the
    threshold said in won: a COND over a trade (conditions.py) says both in won."""
    import re

    from edge_helpers import compose_draft, emulator, hand_draft, run_steps
    from edge_synth.describe import row_label
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    with emulator() as backend:
        s1 = PlanStep(
            id="s1", tool="molit_getRTMSDataSvcAptTrade", args={"LAWD_CD": "11110", "DEAL_YMD": "202611"}
        )
        items = run_steps(backend, [s1]).outputs["s1"]["items"]
        j = next(i for i, it in enumerate(items[:10]) if row_label(s1.tool, it, items) is not None)
        raw = items[j]["dealAmount"]
        holds = float(raw.replace(",", "")) >= 100000
        taken = "molit_getRTMSDataSvcAptRent" if holds else "molit_getRTMSDataSvcAptTradeDev"
        other = "molit_getRTMSDataSvcAptTradeDev" if holds else "molit_getRTMSDataSvcAptRent"
        s2 = PlanStep(id="s2", tool=taken, args={"LAWD_CD": f"$s1.items[{j}].sggCd", "DEAL_YMD": "202611"})
        d = hand_draft(
            backend,
            [s1, s2],
            [
                Junction(
                    "COND",
                    "s1",
                    ["s2"],
                    "e_test",
                    {
                        "field": "dealAmount",
                        "threshold": 100000.0,
                        "holds": holds,
                        "then": taken if holds else other,
                        "else": other if holds else taken,
                        "item": j,
                    },
                )
            ],
        )
        comp = compose_draft(backend, d)
    first = comp.answer.split("살펴봤습니다.")[0]
    assert say(s1.tool, "dealAmount", raw) in first and "10억 원" in first, first
    assert not re.search(rf"(?<![\d,]){re.escape(raw.strip())}(?![\d,]|만)", first), first
