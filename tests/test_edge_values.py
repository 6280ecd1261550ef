"""Field values said as a person writes them, with the matcher that scores that form (issue 10)."""

from __future__ import annotations

import pytest

from edge_synth.values import later_phrase, say, typed, value_kind
from kopa_inspect.steps.scoring import answer_score


@pytest.mark.parametrize(("op", "field", "raw", "said", "kind"), [
    ("neis_SchoolSchedule", "AA_YMD", "20260505", "2026년 5월 5일", "date"),
    ("tourapi_locationBasedList2", "createdtime", "20120528064023", "2012년 5월 28일 6시 40분", "timestamp"),
    ("hira_getDtlInfo2_7", "trmtMonEnd", "1730", "17시 30분", "time"),
    ("hira_getDtlInfo2_7", "trmtSatStart", "0900", "9시", "time"),
    ("airkorea_getNearbyMsrstnList", "tm", "2.3", "2.3킬로미터", "km"),
    ("ecos_StatisticItemList", "END_TIME", "202611", "2026년 11월", "month"),
    ("tourapi_locationBasedList2", "dist", "850.5", "850.5미터", "m"),
])
def test_raw_encodings_are_said_for_a_person(op, field, raw, said, kind):
    assert value_kind(op, field, raw) == kind
    assert say(op, field, raw) == said


def test_a_four_digit_number_is_a_time_only_where_the_field_is_a_time():
    assert value_kind("hira_getHospBasisList", "drTotCnt", "1200") is None  # a doctor count, not 12시
    assert say("hira_getHospBasisList", "drTotCnt", "1200") == "1200"
    assert value_kind("molit_getRTMSDataSvcAptTrade", "dealAmount", "202611") is None  # an amount


@pytest.mark.parametrize(("op", "field", "raw"), [
    ("neis_SchoolSchedule", "AA_YMD", "20260505"),
    ("tourapi_locationBasedList2", "createdtime", "20120528064023"),
    ("hira_getDtlInfo2_7", "trmtMonEnd", "1730"),
    ("airkorea_getNearbyMsrstnList", "tm", "2.3"),
    ("ecos_StatisticItemList", "END_TIME", "202611"),
])
def test_the_typed_fact_scores_the_said_form_and_not_a_wrong_one(op, field, raw):
    matcher, resolved, _ = typed(op, field, raw)
    fact = {"id": "f1", "description": "값", "value": "$s1.items[0].x", "resolved": resolved,
            "matcher": matcher or "number", "tolerance": 0.0, "subject": "가"}
    assert answer_score(f"'가'의 값은 {say(op, field, raw)}입니다.", [fact]) == 1.0
    wrong = {"20260505": "2026년 5월 6일", "20120528064023": "2012년 6월 28일 6시 40분", "1730": "17시 40분",
             "2.3": "3.2킬로미터", "202611": "2026년 10월"}[raw]
    assert answer_score(f"'가'의 값은 {wrong}입니다.", [fact]) == 0.0


def test_a_later_time_is_said_later_not_larger():
    assert later_phrase("월요일 진료 종료") == "월요일 진료가 더 늦게 끝나는"
    assert later_phrase("토요일 진료 시작", "min") == "토요일 진료가 더 일찍 시작하는"
    assert later_phrase("학사일자") == "학사일자가 더 늦은"
