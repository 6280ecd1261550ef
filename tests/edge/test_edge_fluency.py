"""Questions over long chains read as a person writes them, not as stacked noun phrases (issue 10).

The checks (edge_synth.natural.fluency_problems) are counts a reviewer can redo by hand: no phrase
of 3+ words said twice, a date said once, at most two '중'/'가운데' in a sentence, at most two '의' in
a row, no dataset names meant for developers, no 1,000+ metres, at most two sentences with at most two
question clauses each. The first tests pin each check on the rows of a default run of a grammar without
these checks (results/edge-default/samples.md) and on the form a person writes; the others compose
real drafts (the seeded sample of tests/conftest.py and a hand-built air-quality chain) and hold the
grammar to them, with every argument still said and every fact still in the answer.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from edge_synth.natural import (
    FLUENCY_CHECKS,
    asks_per_sentence,
    fluency_figures,
    fluency_problems,
    long_metres,
    longest_ui_chain,
    most_jung,
    repeated_dates,
    repeated_phrase,
    split_sentences,
)

# Queries of a default run of a grammar without these checks, as stored.
OLD_AIR = (
    "오늘(2026년 12월 4일) 시간 평균 대기오염도 중 '도봉구'의 권역별 실시간 대기환경의 통합대기환경지수 그리고 "
    "오늘(2026년 12월 4일) 시간 평균 대기오염도 중 초미세먼지 농도가 가장 작은 측정값의 권역별 실시간 대기환경의 "
    "초미세먼지 농도는 각각 어떻게 되나요?"
)
OLD_LIBRARY = (
    "공공도서관 중 '명일1동 도서관'과 '청운효자동 도서관' 가운데 근처 관광지가 더 많은 쪽은 어디이고 공공도서관 중 "
    "'청운효자동 도서관' 근처 반경 2000미터 안의 관광지 중 '소문난삼계탕 경복궁점' 근처 반경 2000미터 안의 병원 중 "
    "의사 수가 가장 큰 병원의 개설일자는 어떻게 되나요?"
)
OLD_STOPS = (
    "버스 정보 도시 중 '성남시'의 버스 정류장의 건수, 버스 정보 도시 중 '부산광역시'의 버스 정류장 중 '감만중학교'의 "
    "정류장 번호, 버스 정보 도시 중 '인천광역시'의 버스 정류장의 건수 그리고 버스 정보 도시 중 '울산광역시'의 버스 "
    "정류장 중 '동구보건소'의 정류장 번호는 각각 어떻게 되나요?"
)
# The form the issue asks for (a person's rewrite of OLD_LIBRARY).
PERSON = (
    "'명일1동 도서관'과 '청운효자동 도서관' 중 근처에 관광지가 더 많은 곳은 어디인가요? 그리고 '청운효자동 도서관'에서 "
    "2km 안에 있는 '소문난삼계탕 경복궁점' 근처 병원 가운데 의사가 가장 많은 병원은 언제 개설됐나요?"
)


def test_each_check_fails_the_old_rows_and_passes_a_persons_question():
    assert repeated_phrase(OLD_AIR) is not None and repeated_dates(OLD_AIR) == ["2026년 12월 4일"]
    assert any("dataset name" in p for p in fluency_problems(OLD_AIR))
    assert most_jung(OLD_LIBRARY) == 5 and long_metres(OLD_LIBRARY) == ["2000미터", "2000미터"]
    assert asks_per_sentence(OLD_STOPS) == 4 and most_jung(OLD_STOPS) > 2
    assert (
        longest_ui_chain("'윤성민'의 제18대 국회 의원별 법률안 발의의 공동발의 건수의 합계는 얼마인가요?")
        == 3
    )
    for old in (OLD_AIR, OLD_LIBRARY, OLD_STOPS):
        assert fluency_problems(old), old
    assert fluency_problems(PERSON) == []
    assert len(split_sentences(PERSON)) == 2 and all(
        asks_per_sentence(s) == 1 for s in split_sentences(PERSON)
    )


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ("'A'의 주소는 어디인가요? 그리고 'B'의 주소는 어디인가요? 그리고 'C'는요?", "3 sentences"),
        (
            "'A'의 주소는 어디이고 'B'의 전화번호는 몇 번이고 'C'의 개설일자는 언제인가요?",
            "3 questions in one sentence",
        ),
        ("'A' 근처 반경 1500미터 안의 병원은 모두 몇 곳인가요?", "metres '1500미터'"),
        ("'A'의 병원 상세 정보의 주차 가능 대수는 얼마인가요?", "dataset name '병원 상세 정보'"),
        ("'A'의 진료과목의 전문의의 수의 합은 얼마인가요?", "4 '의' in a row"),
        ("'A'의 주차 가능 대수를 알고 싶습니다", "no question mark"),
    ],
)
def test_a_check_names_what_is_wrong(query, problem):
    assert problem in fluency_problems(query), fluency_problems(query)


def test_a_quoted_name_is_one_word_and_no_check_reads_inside_it():
    # a name said twice is a reference back, not a repeated phrase; "." in a name ends no sentence
    q = "'1.3.2.1. 시장금리 (일별)'와 '청운효자동 도서관' 중 어디인가요? 그리고 '청운효자동 도서관'의 주소는 어디인가요?"
    assert repeated_phrase(q) is None and len(split_sentences(q)) == 2
    assert long_metres("반경 500미터 안의 병원") == [] and long_metres("반경 2,000미터") == ["2,000미터"]


def _kept(rows: list[dict]) -> list[dict]:
    kept = [r for r in rows if r["kept"]]
    assert len(kept) >= 25, f"only {len(kept)} of {len(rows)} rows kept"
    return kept


def test_seeded_rows_read_as_a_persons_questions(edge_seeded_rows):
    kept = _kept(edge_seeded_rows)
    figs = fluency_figures([r["comp"].query for r in kept])
    # what the grammar never does any more: the date twice, a developer's dataset name, 2000미터,
    # more than two sentences, a question without its mark
    for check in ("date said twice", "dataset name", "metres", "sentences", "no question mark"):
        assert figs[check] == 0, (
            check,
            [
                (fluency_problems(r["comp"].query), r["comp"].query)
                for r in kept
                if any(check in p for p in fluency_problems(r["comp"].query))
            ][:3],
        )
    # what long catalog chains still do now and then (two Assembly datasets of one member share
    # words, four asks after a condition): at most one row in eight (the old grammar: 16 of 44), by the
    # checks this bound was set for; the later checks below are counted on their own
    first_checks = FLUENCY_CHECKS[: FLUENCY_CHECKS.index("row of a pick's list")]
    old_fail = [
        r for r in kept if any(c in p for p in fluency_problems(r["comp"].query) for c in first_checks)
    ]
    assert len(old_fail) <= len(kept) // 8, figs
    # what the grammar says otherwise never appears (a code beside a name, "기관명 일부가 …인",
    # a row of a pick's list in one clause); the drop-only checks (a query over the character budget, a
    # radius around a city, a month's count compared, the 시군구 said twice, two chained questions) are a cost
    for check in ("code beside a name", "form-like filter"):
        assert figs[check] == 0, (
            check,
            [r["comp"].query for r in kept if any(check in p for p in fluency_problems(r["comp"].query))][:3],
        )
    # a pick and a row of its list are split into two asks, except beside a comparison (compose._pick_asked_first:
    # a third question), where the check drops the row
    in_one = [r for r in kept if any("row of a pick's list" in p for p in fluency_problems(r["comp"].query))]
    assert all(any(j.type == "CMP" for j in r["draft"].junctions) for r in in_one), [
        r["comp"].query for r in in_one
    ]
    # cost: rows only the later checks drop (the first checks keep them): at most one in eight
    only_later_checks = [
        r["comp"].query for r in kept if fluency_problems(r["comp"].query) and r not in old_fail
    ]
    assert len(only_later_checks) <= len(kept) // 8, only_later_checks


def test_referring_back_loses_no_argument(edge_seeded_rows):
    # Said once and then referred back to ("오늘", "근처", "'B'"): every literal argument is still in
    # the query, read back by the filter (filter.argument_sources; "2km" is radius 2000).
    from edge_helpers import EDGE_CLOCK
    from edge_synth.filter import argument_sources

    with_facts = [r for r in edge_seeded_rows if r["comp"].facts]
    missing = [
        (a, r["comp"].query)
        for r in with_facts
        for a in argument_sources(r["comp"].plan, r["comp"].query, EDGE_CLOCK)
        if a["source"] is None
    ]
    assert not missing, missing[:3]
    assert any("2km" in r["comp"].query for r in with_facts)


AIR_CLOCK = "2026-12-03T14:00:00+09:00"


@pytest.fixture(scope="module")
def air() -> tuple:
    """Seoul's hourly air table of today, then one 구's real-time air by name, and the real-time air of
    the 구 with the least 초미세먼지 (SEQ + DRV, both on the same list): the chain of OLD_AIR."""
    from edge_synth.compose import compose, execute
    from edge_synth.sample import Draft, Junction
    from kopa_inspect.backends import make_backend
    from kopa_inspect.plans import Plan, PlanStep

    backend = make_backend(seed=0)
    s1 = PlanStep(
        id="s1",
        tool="seoul_TimeAverageAirQuality",
        args={"START_INDEX": 1, "END_INDEX": 10, "MSRDT_DE": "20261203"},
    )
    run, _ = asyncio.run(execute(Plan(steps=[s1]), backend, seed=0, clock=AIR_CLOCK))
    items = run.outputs["s1"]["items"]
    k = next(i for i, it in enumerate(items) if it["MSRSTE_NM"] == "중구")
    low = "$s1.min_by(items, &to_number(PM25))"
    steps = [
        s1,
        PlanStep(
            id="s2",
            tool="seoul_RealtimeCityAir",
            args={
                "START_INDEX": 1,
                "END_INDEX": 10,
                "MSRRGN_NM": f"$s1.items[{k}].MSRRGN_NM",
                "MSRSTE_NM": f"$s1.items[{k}].MSRSTE_NM",
            },
        ),
        PlanStep(
            id="s3",
            tool="seoul_RealtimeCityAir",
            args={
                "START_INDEX": 1,
                "END_INDEX": 10,
                "MSRRGN_NM": f"{low}.MSRRGN_NM",
                "MSRSTE_NM": f"{low}.MSRSTE_NM",
            },
        ),
    ]
    run, _ = asyncio.run(execute(Plan(steps=steps), backend, seed=0, clock=AIR_CLOCK))
    d = Draft(index=11, steps=steps, outputs=dict(run.outputs), args=dict(run.args))
    d.junctions += [
        Junction("SEQ", "s1", ["s2"], "e1", {"item": k}),
        Junction("DRV", "s1", ["s3"], "e2", {"reduce": "min_by", "by": "PM25"}),
    ]
    comp = asyncio.run(compose(d, backend, seed=0, clock=AIR_CLOCK))
    asyncio.run(backend.aclose())
    return d, comp


def test_a_chain_on_one_list_says_the_list_and_the_date_once(air):
    from edge_synth.filter import argument_sources
    from kopa_inspect.steps.scoring import answer_score

    d, comp = air
    q = comp.query
    assert fluency_problems(q) == [], (fluency_problems(q), q)
    assert q.count("2026년 12월 3일") == 1 and "'중구'" in q, q
    # the real-time lookup of one 구 is left implicit: its field is asked of the 구 itself
    assert "실시간 대기환경의" not in q and "'중구'의 실시간" in q, q
    # the pick reads as a person says it (a concentration is low, not small) from the list just said
    assert "초미세먼지 농도가 가장 낮은 구" in q and q.count("대기오염도") == 1, q
    assert all(a["source"] for a in argument_sources(comp.plan, q, AIR_CLOCK)), q
    assert answer_score(comp.answer, comp.facts) >= 1.0, (comp.answer, comp.facts)


# --- the pipeline drops what the check fails -----------------------------------------------------------
# A check measured but not enforced lets rows through: of a 300-row `kopa synth --n 300 --seed 1` run, 25
# kept rows failed it (mostly 4-8 calls: the same phrase twice, three '중' in a sentence, the month said
# twice). These are three of them, as stored; a model trained on them learns to stack noun phrases.
KEPT_BEFORE = [
    (
        "올해(2026년) 부동산 거래 중 '별빛아파트'의 거래금액이 10억 원 이상이면 같은 시군구의 지난달(2026년 11월) 아파트 "
        "전월세 거래를, 아니면 같은 시군구의 지난달(2026년 11월) 아파트 매매 거래를 보려고 합니다. 그 아파트 전월세 거래 중 "
        "'호반써밋고덕2차'가 있는 동네 반경 2km 안의 관광지 '강동 역사공원'과 '할매밀면 길동점' 중 근처에 병원이 더 많은 쪽은 "
        "어디이고 '다온내과의원'과 같은 시도의 실시간 대기질 중 미세먼지 농도가 가장 낮은 측정소의 오존 농도는 얼마인가요?"
    ),
    (
        "'인천광역시'의 버스 정류장 중 '갈산사거리' 반경 2km 안의 병원 중 '드림한의원'의 의사가 10명 이상이면 진료과목을, 아니면 "
        "진료 시간과 주차 정보를 보려고 하는데, '세종특별시'와 '인천광역시' 중 버스 정류장이 더 많은 쪽은 어디이고 '갈산사거리'와 "
        "'갈산성당' 중 근처에 병원이 더 많은 곳은 어디인가요? 그리고 그 병원의 월요일 진료 종료는 언제인가요?"
    ),
    (
        "병원 중 '고려대학교의과대학부속병원(안암병원)'에서 전문의가 가장 많은 진료과목은 무엇인가요? 그리고 의사가 가장 적은 "
        "병원에서 전문의가 가장 많은 진료과목은 무엇인가요?"
    ),
]


@pytest.mark.parametrize("query", KEPT_BEFORE)
def test_a_stacked_query_is_dropped_by_the_pipeline(query):
    from edge_synth.pipeline import not_fluent_reason

    reason = not_fluent_reason(query)
    assert reason is not None and reason.startswith("not_fluent:"), reason


@pytest.mark.parametrize(
    "query",
    [
        PERSON,
        "'다온내과의원'의 주차 가능 대수는 얼마인가요?",
        "'경북대학교병원'의 의사가 10명 이상이면 진료과목을, 아니면 진료 시간과 주차 정보를 보려고 "
        "합니다. 그 진료과목 중 '정신건강의학과'의 전문의 수는 얼마인가요?",
    ],
)
def test_a_persons_question_is_kept(query):
    from edge_synth.pipeline import not_fluent_reason

    assert not_fluent_reason(query) is None


def test_the_same_pick_of_another_rows_list_is_asked_as_and_b():
    """A FAN of picks ("the dearest sale in the district of A, of B, of C") said each pick's whole
    phrase again: the toy run's max picks were all dropped as not_fluent (repeated phrase). The same
    ask of another row reads "'B'는요?"; every name and the date are still said once."""
    from edge_synth.compose import _sentences

    asks = [
        ("", f"'{n}'와 같은 시군구의 지난달{d} 아파트 매매 거래 중 거래금액이 가장 큰 거래", "무엇")
        for n, d in (("A구", "(2026년 11월)"), ("B구", ""), ("C구", ""))
    ]
    q = _sentences(asks, 2)
    assert fluency_problems(q) == [], q
    assert q.count("거래금액이 가장 큰") == 1 and "'B구'는요?" in q and "'C구'는요?" in q
    assert "2026년 11월" in q
    # asks that differ in more than one name, or in what they ask, are said in full
    other = _sentences(
        [asks[0], ("", "'B구'와 같은 시군구의 지난달 아파트 매매 거래 중 거래금액이 가장 작은 거래", "무엇")],
        2,
    )
    assert "가장 작은" in other and "는요?" not in other


# --- the patterns a reader marked in results/edge-default/samples.md ----------------------------------------
# Stored queries of the default run read as stacked noun phrases: place hops chained (2, 19, 21, 23), two
# picks chained (12), "오늘" twice (18), the Seoul price table's "생필품 가격 '… 시장'" framing (10, 13).
Q_PLACE_HOPS = [
    (
        "이촌동과 같은 시군구의 모범음식점 중 '새봄식당'과 같은 시군구의 부동산 거래 중 건축년도가 가장 큰 거래의 거래금액은 "
        "얼마인가요?"
    ),  # one 시군구 said twice (seed-1 run)
    "사직동이 있는 시도 반경 2km 안의 관광지는 모두 몇 곳인가요?",  # the "시도 반경 2km" of an earlier run
    (
        "서울특별시 송파구(11710) 지난달(2026년 11월) 아파트 전월세 거래 중 '장지더샵리버뷰'와 같은 동네의 병원과 같은 "
        "시군구에서 현원이 가장 작은 어린이집의 정원은 얼마인가요?"
    ),
    (
        "순화동과 같은 시군구의 부동산 거래 중 거래금액이 가장 큰 거래와 같은 시군구의 지난달(2026년 11월) 아파트 매매 "
        "거래는 모두 몇 건인가요?"
    ),
    (
        "'서울특별시 종로구 사직동'과 같은 법정동의 지난달(2026년 11월) 아파트 매매 거래 중 '진흥'이 있는 동네와 같은 "
        "시군구의 모범음식점은 모두 몇 곳인가요?"
    ),
    (
        "서울특별시 종로구 청진동과 같은 법정동의 지난달(2026년 11월) 아파트 매매 거래 중 '진흥'이 있는 동네와 같은 "
        "시군구에서 정원이 가장 작은 어린이집의 현원은 얼마인가요?"
    ),
    (
        "서울특별시 동대문구(11230) 지난달(2026년 11월) 아파트 매매 거래 중 '동아2'가 있는 동네와 같은 시군구의 부동산 "
        "거래 중 거래금액이 가장 큰 거래의 층은 몇 층인가요?"
    ),
]
Q_TWO_PICKS = (
    "기관명 일부가 굿모닝병원인 병원 중 의사가 가장 많은 병원에서 전문의가 가장 적은 진료과목은 무엇인가요?"
)
Q_TODAY_TWICE = "미추홀구의 오늘(2026년 12월 5일) 초단기 날씨 예보의 오늘 11시 습도는 얼마인가요?"
Q_TODAY_ONCE = "미추홀구의 오늘(2026년 12월 5일) 초단기 날씨 예보의 11시 습도는 얼마인가요?"
Q_PRICES = [
    "생필품 가격 '회기동 시장'과 '신정1동 시장' 중 같은 시군구에 어린이집이 더 많은 쪽은 어디인가요?",
    "생필품 가격 중 '도봉1동 시장'과 같은 시군구에서 현원이 가장 큰 어린이집의 어린이집 유형은 어떻게 되나요?",
]
# Fluent rows of the same run (1, 4, 8, 25, 14): one place hop, one pick, the day once.
Q_FLUENT = [
    "통의동과 같은 시군구에서 정원이 가장 작은 어린이집의 현원은 얼마인가요?",
    "오늘(2026년 12월 5일) 축제 중 '원주 벚꽃축제' 반경 2km 안에서 전문의가 가장 많은 병원의 월요일 진료 시작은 언제인가요?",
    (
        "모범음식점 '별빛식당'과 '누리식당' 중 같은 시군구에 지난달(2026년 11월) 아파트 전월세 거래가 더 많은 쪽은 "
        "어디인가요?"
    ),
    (
        "서울특별시 노원구(시군구코드 11350) 지난달(2026년 11월) 아파트 매매 거래 중 '하계하늘채2차'와 같은 동네에서 전문의가 가장 "
        "적은 병원의 월요일 진료 종료는 언제인가요?"
    ),
    (
        "서울특별시 종로구 통인동과 같은 시도의 오늘(2026년 12월 5일) 축제 중 '종로 국화축제'의 주소는 어디인가요?"
    ),
    "'동아2'가 있는 시군구의 부동산 거래 중 거래금액이 가장 큰 거래의 층은 몇 층인가요?",
    "'회기동 시장'과 '신정1동 시장' 중 같은 시군구에 어린이집이 더 많은 쪽은 어디인가요?",
    Q_TODAY_ONCE,
    # a hop from the user's place, then a named row's radius, or a comparison's radius: one place each
    "통의동과 같은 시군구의 모범음식점 '온누리식당'과 '다온식당' 중 반경 2km 안에 병원이 더 많은 쪽은 어디인가요?",
    "서울특별시 종로구 세종로와 같은 시도의 관광지 '국립민속박물관'과 '시골횟집 북촌한옥마을점' 중 반경 2km 안에 병원이 더 많은 쪽은 어디인가요?",
    (
        "이름에 '건국대학교병원'이 들어간 병원의 진료과목 중 '신경과'의 전문의 수는 얼마인가요? 그리고 그 병원과 같은 시도의 "
        "실시간 대기질 중 미세먼지 농도가 가장 낮은 측정소의 아황산가스 농도는 얼마인가요?"
    ),
    "고척동과 같은 시군구의 어린이집 중 '미래어린이집' 반경 2km 안에서 의사가 가장 많은 병원의 개설일자는 언제인가요?",
]


@pytest.mark.parametrize("query", Q_PLACE_HOPS)
def test_place_hops_chained_are_flagged(query):
    from edge_synth.natural import chained_hops

    assert chained_hops(query) >= 1
    assert any("chained place hops" in p for p in fluency_problems(query)), fluency_problems(query)


def test_two_picks_today_twice_and_the_price_table_framing_are_flagged():
    assert any("picks in one sentence" in p for p in fluency_problems(Q_TWO_PICKS))
    assert any("date said twice" in p for p in fluency_problems(Q_TODAY_TWICE))
    for q in Q_PRICES:
        assert any("dataset name" in p for p in fluency_problems(q)), q


@pytest.mark.parametrize("query", Q_FLUENT)
def test_fluent_rows_pass(query):
    assert fluency_problems(query) == [], fluency_problems(query)


def place_hops_of(query: str) -> int:
    from edge_synth.natural import chained_hops

    return chained_hops(query)


def test_a_place_looked_up_for_a_row_is_said_once():
    """'X'가 있는 동네 -> 같은 시군구: the two hops are one place ("'동아2'가 있는 시군구")."""
    from edge_synth.compose import _place_hop

    assert _place_hop("'동아2'가 있는 동네와 같은 시군구의") == "'동아2'가 있는 시군구의"
    assert _place_hop("'진흥'이 있는 동네와 같은 시군구의") == "'진흥'이 있는 시군구의"
    assert _place_hop("'통의동'과 같은 시군구의") == "'통의동'과 같은 시군구의"
    # a seeded row said "'더샵신월2차'가 있는 동네가 있는 시군구의 …" (the place table looked up twice)
    assert _place_hop("'더샵신월2차'가 있는 동네가 있는 시군구") == "'더샵신월2차'가 있는 시군구"
    assert place_hops_of("'더샵신월2차'가 있는 동네가 있는 시군구의 어린이집은 모두 몇 곳인가요?") == 1


def test_a_market_is_named_without_the_price_table():
    from edge_synth.natural import name_says_kind

    assert name_says_kind("seoul_ListNecessariesPricesService", "회기동 시장")
    assert not name_says_kind("seoul_ListNecessariesPricesService", "배추")
    assert not name_says_kind("seoul_ChildCareInfo", "회기동 시장")


# Two stacked rows a reader marked in a seed-1 run.
Q_LEFT = [
    (
        "서울특별시 종로구 중 '서울특별시 종로구'와 같은 법정동의 지난달(2026년 11월) 아파트 전월세 거래 중 '대림아파트'의 "
        "월세는 얼마인가요?",
        "name said twice",
    ),
    (
        "'서울특별시 종로구'와 같은 법정동의 지난달(2026년 11월) 아파트 매매 거래 '센트레빌통의2차'와 '효자꿈에그린더퍼스트' 중 "
        "같은 동네에 병원이 더 많은 쪽은 어디인가요? 그리고 그 병원에서 전문의가 가장 적은 진료과목은 무엇인가요?",
        "unclear back-reference",
    ),
]


@pytest.mark.parametrize(("query", "problem"), Q_LEFT)
def test_a_name_said_twice_and_an_unclear_back_reference_are_flagged(query, problem):
    assert any(problem in p for p in fluency_problems(query)), fluency_problems(query)


@pytest.mark.parametrize(
    "query",
    [
        "이름에 '서내과의원'이 들어간 병원 '강서내과의원'과 '서내과의원' 중 진료과목이 더 많은 쪽은 어디인가요?",
        "이름에 '드림안과의원'이 들어간 병원의 진료과목 중 '안과'의 전문의 수는 얼마인가요?",
    ],
)
def test_a_name_inside_another_word_is_not_said_twice(query):
    assert fluency_problems(query) == [], fluency_problems(query)


def test_a_district_code_cut_from_a_dong_code_is_said_as_the_district() -> None:
    """The trade list of a 법정동 lookup's first five digits is the 시군구's (LAWD_CD): the query
    said "통의동과 같은 법정동의 … 아파트 전월세 거래" (4 of 30 rows read in samples-577528e.md), which names
    the wrong place; it says the 시군구."""
    from edge_helpers import compose_draft, emulator, hand_draft
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    steps = [
        PlanStep(
            id="s1", tool="stanregincd_getStanReginCdList", args={"locatadd_nm": "서울특별시 종로구 통의동"}
        ),
        PlanStep(
            id="s2",
            tool="molit_getRTMSDataSvcAptRent",
            args={"DEAL_YMD": "202611", "LAWD_CD": "$s1.items[0].region_cd[0:5]"},
        ),
    ]
    with emulator() as backend:
        draft = hand_draft(backend, steps, [Junction("SEQ", "s1", ["s2"], "e_test", {"item": 0})])
        comp = compose_draft(backend, draft)
    assert "같은 법정동" not in comp.query, comp.query
    assert "같은 시군구" in comp.query or "종로구의" in comp.query or "있는 시군구" in comp.query, comp.query


# --- the patterns a reader marked in results/edge-default/samples-577528e.md --------------------------------
# Stored queries of a default run (`kopa synth --out .kopa/edge2000 --n 2000 --seed 0 --fresh`).
Q_CHAIN_OF_PICKS = (
    "관광지 중 '여주 바람결 호텔 4' 반경 2km 안에서 전문의가 가장 많은 병원의 진료과목 중 '정형외과'의 "
    "전문의 수는 얼마인가요?"
)  # samples-577528e #30 (edge-s0-0006925): festival -> hospital -> department
Q_CHAIN_SPLIT = (
    "관광지 중 '여주 바람결 호텔 4' 반경 2km 안에서 전문의가 가장 많은 병원은 어디인가요? 그리고 그 병원의 "
    "진료과목 중 '정형외과'의 전문의 수는 얼마인가요?"
)
Q_TWO_LONG = (
    "서울특별시 종로구(11110) 지난달(2026년 11월) 아파트 매매 거래 '종로롯데캐슬3차'와 '통인SK뷰퍼스트' 중 병원의 "
    "전문의 수가 더 많은 쪽은 어디인가요? 그리고 '통인SK뷰퍼스트'와 같은 동네의 병원의 진료과목 중 '재활의학과'의 "
    "전문의 수는 얼마인가요?"
)  # #20 (edge-s0-0007951): two long questions over five calls
Q_TWO_SHORT = (
    "병원 '건국대학교병원'과 '삼성서울병원' 중 토요일 진료가 더 늦게 끝나는 쪽은 어디인가요? 그리고 '삼성서울병원'과 "
    "같은 시군구에서 현원이 가장 작은 어린이집의 주소는 어디인가요?"
)  # #4, read as fluent
Q_CODE = (
    "서울특별시 종로구(11110) 지난달(2026년 11월) 아파트 매매 거래 중 '통인SK뷰퍼스트'와 같은 동네에서 의사가 가장 "
    "많은 병원의 주소는 어디인가요?"
)
Q_AREA_RADIUS = (
    "군산시 반경 2km 안의 관광지 중 '군산 향토역사관 3'의 전화번호는 몇 번인가요?"  # #27 (edge-s0-0006362)
)
Q_HOLIDAYS = (
    "오늘(2026년 12월 5일) 축제 '구미 국화축제'와 '기장 먹거리축제' 중 그 달의 국경일이 더 많은 쪽은 "
    "어디인가요?"
)  # #8 (edge-s0-0008973): the count is the month's, not the festival's
Q_FORM = "기관명 일부가 연세대학교의과대학세브란스병원인 병원의 토요일 진료 시작은 언제인가요?"  # #10


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        (Q_CHAIN_OF_PICKS, "row of a pick's list"),
        (Q_TWO_LONG, "long query"),
        (Q_CODE, "code beside a name"),
        (Q_AREA_RADIUS, "radius around an area"),
        (Q_HOLIDAYS, "comparison of a month"),
        (Q_FORM, "form-like filter"),
    ],
)
def test_a_stacked_or_meaningless_query_is_named_for_what_is_wrong(query, problem):
    from edge_synth.pipeline import not_fluent_reason

    assert any(problem in p for p in fluency_problems(query)), fluency_problems(query)
    assert not_fluent_reason(query) is not None


@pytest.mark.parametrize(
    "query",
    [
        Q_CHAIN_SPLIT,
        Q_TWO_SHORT,
        Q_CODE.replace("(11110)", "(시군구코드 11110)"),
        "'군산 향토역사관 3' 반경 2km 안의 관광지 중 '군산 근대미술관'의 전화번호는 몇 번인가요?",
        "휘경동 반경 2km 안의 관광지는 모두 몇 곳인가요?",  # a 동 is a neighbourhood: a radius around it is said
        "오늘(2026년 12월 5일) 축제 '구미 국화축제'와 '기장 먹거리축제' 중 반경 2km 안에 병원이 더 많은 쪽은 어디인가요?",
        "이름에 '연세대학교의과대학세브란스병원'이 들어간 병원의 토요일 진료 시작은 언제인가요?",
        "남산동의 병원 중 '해맑은요양병원'의 주소는 어디인가요?",
    ],
)
def test_the_fluent_form_of_codes_radii_and_filters_passes(query):
    assert fluency_problems(query) == [], fluency_problems(query)


def test_every_real_operation_has_a_persons_noun():
    """The ~1,000 catalog datasets (서울 열린데이터광장, 열린국회정보) are named from their titles; every other
    operation has a person's noun (without the nouns, 12 fall back to the spec's summary)."""
    from edge_synth.natural import USER_NOUNS
    from kopa_inspect.apis import operations

    missing = [
        k
        for k, op in operations().items()
        if op.platform not in ("seoul", "assembly") and k not in USER_NOUNS
    ]
    assert missing == [], missing


def _compose_hand_draft(steps, junctions, *, index: int = 0, want=None, tries: int = 12):
    from edge_helpers import compose_draft, emulator, hand_draft

    with emulator() as backend:
        for k in range(tries):
            comp = compose_draft(backend, hand_draft(backend, steps, junctions, index=index + k))
            if want is None or want(comp):
                return comp
    raise AssertionError(f"no composition in {tries} indices satisfied the test's condition: {comp.query}")


def test_a_district_code_is_said_with_what_it_is_not_in_brackets():
    """ "서울특별시 종로구(11110)" (389 of the 2,000 rows of samples-577528e.md's run): the start call's LAWD_CD is only
    knowable from the query, so the code stays, said as what it is ("시군구코드 11110", as KOPA-Bench's own
    "송파구(법정동 앞자리 11710)"), and every argument is still read back from the query."""
    import re

    from edge_helpers import HAND_CLOCK
    from edge_synth.filter import argument_sources
    from kopa_inspect.plans import PlanStep

    steps = [
        PlanStep(
            id="s1", tool="molit_getRTMSDataSvcAptTrade", args={"LAWD_CD": "11110", "DEAL_YMD": "202611"}
        )
    ]
    comp = _compose_hand_draft(steps, [])
    assert not re.search(r"[가-힣]\(\d{5}\)", comp.query), comp.query
    assert "시군구코드 11110" in comp.query and "종로구" in comp.query, comp.query
    assert all(a["source"] for a in argument_sources(comp.plan, comp.query, HAND_CLOCK)), comp.query
    assert fluency_problems(comp.query) == [], (fluency_problems(comp.query), comp.query)


def test_a_named_row_of_a_picks_list_is_asked_after_the_pick():
    """edge-s0-0006925 (samples-577528e #30): "관광지 중 '여주 바람결 호텔 4' 반경 2km 안에서 전문의가 가장 많은
    병원의 진료과목 중 '정형외과'의 전문의 수는 얼마인가요?" / "'정형외과'의 전문의 수는 3입니다." (the answer
    never said which hospital). Its plan, rebuilt: the pick is asked first and the department of "그
    병원" after, and the answer names the hospital and why."""
    from edge_synth.filter import answer_holds
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    steps = [
        PlanStep(id="s1", tool="tourapi_areaBasedList2", args={}),
        PlanStep(
            id="s2",
            tool="hira_getHospBasisList",
            args={"radius": 2000, "xPos": "$s1.items[8].mapx", "yPos": "$s1.items[8].mapy", "numOfRows": 100},
        ),
        PlanStep(
            id="s3",
            tool="hira_getDgsbjtInfo2_7",
            args={"ykiho": "$s2.max_by(items, &to_number(mdeptSdrCnt)).ykiho"},
        ),
    ]
    js = [
        Junction("SEQ", "s1", ["s2"], "e1", {"item": 8}),
        Junction("DRV", "s2", ["s3"], "e2", {"reduce": "max_by", "by": "mdeptSdrCnt"}),
    ]
    comp = _compose_hand_draft(
        steps, js, want=lambda c: any(f["step"] == "s3" and f["row_reason"] == "named" for f in c.facts)
    )
    q = comp.query
    assert fluency_problems(q) == [], (fluency_problems(q), q)
    assert "그 병원" in q and "병원은 어디" in q, q
    pick = next(f for f in comp.facts if f["step"] == "s2")
    assert pick["row_reason"] == "max" and pick["competitors"] and f"'{pick['resolved']}'" in comp.answer, (
        comp.answer
    )
    assert [f["id"] for f in comp.facts] == [f"f{k + 1}" for k in range(len(comp.facts))]
    assert answer_holds(comp.answer, comp.facts), (comp.answer, comp.facts)
    assert comp.invalid == [], comp.invalid


# The 시군구 said twice in one clause: a trade list of a district named by the user, then "the 시군구 of one of its
# apartments" (samples-577528e #16; 155 of that run's 2,000 rows once the code is relabelled), or
# "<동>과 같은 시군구의 … 거래 중 'X'가 있는 시군구" (#25 as a grammar with the code relabelled says it). The hop goes back to the place the
# query already named: the chain is the plan's, not the user's.
Q_DISTRICT_TWICE = [
    (
        "서울특별시 관악구(시군구코드 11620) 지난달(2026년 11월) 아파트 전월세 거래 중 '신림더샵센트럴'이 있는 시군구에서 정원이 "
        "가장 큰 어린이집의 현원은 얼마인가요?"
    ),
    (
        "서울특별시 종로구 통의동과 같은 시군구의 지난달(2026년 11월) 아파트 매매 거래 중 '진흥'이 있는 시군구의 부동산 거래 "
        "중 건물면적이 가장 큰 거래의 건축년도는 얼마인가요?"
    ),
]


@pytest.mark.parametrize("query", Q_DISTRICT_TWICE)
def test_the_same_district_said_twice_in_a_clause_is_flagged(query):
    assert any("district said twice" in p for p in fluency_problems(query)), fluency_problems(query)


@pytest.mark.parametrize(
    "query",
    [
        (
            "서울특별시 관악구(시군구코드 11620) 지난달(2026년 11월) 아파트 전월세 거래 중 '신림더샵센트럴'과 같은 동네에서 의사가 "
            "가장 많은 병원의 주소는 어디인가요?"
        ),
        (
            "병원 '가톨릭대학교서울성모병원'과 '부산대학교병원' 중 같은 시군구에 어린이집이 더 많은 쪽은 어디이고 "
            "'부산대학교병원'과 같은 시군구의 모범음식점은 모두 몇 곳인가요?"
        ),
    ],
)
def test_one_district_per_clause_passes(query):
    assert not any("district said twice" in p for p in fluency_problems(query)), fluency_problems(query)


def test_a_hospital_is_named_without_the_hospital_list():
    """ "병원 중 '경상국립대학교병원'의 토요일 진료 시작" (samples-577528e #13; 82 of 2,000 rows began "병원 중 '"): a
    hospital's name says what it is, so a row of the nationwide list is said by its name ("'경북대학교병원'의 …"),
    as the Seoul markets are; a name that does not end in 병원/의원 keeps its list."""
    from edge_synth.natural import name_says_kind
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    assert name_says_kind("hira_getHospBasisList", "경북대학교병원") and name_says_kind(
        "hira_getHospBasisList", "밝은의원"
    )
    assert not name_says_kind("hira_getHospBasisList", "고려대학교의과대학부속병원(안암병원)")
    steps = [
        PlanStep(id="s1", tool="hira_getHospBasisList", args={}),
        PlanStep(id="s2", tool="hira_getDgsbjtInfo2_7", args={"ykiho": "$s1.items[0].ykiho"}),
    ]
    comp = _compose_hand_draft(steps, [Junction("SEQ", "s1", ["s2"], "e1", {"item": 0})])
    assert not comp.query.startswith("병원 중"), comp.query
    assert comp.query.startswith("'") and fluency_problems(comp.query) == [], comp.query


@pytest.mark.parametrize(
    ("op", "param", "value", "said"),
    [
        (
            "hira_getHospBasisList",
            "yadmNm",
            "열린병원",
            "이름에 '열린병원'이 들어간",
        ),  # not "기관명 일부가 열린병원인"
        ("hira_getHospBasisList", "emdongNm", "남산동", "남산동의"),  # not "읍면동명이 남산동인"
        ("dart_corpCode", "corp_name", "LG화학", "'LG화학'이라는"),  # not "회사명이 LG화학인"
        ("neis_schoolInfo", "SCHUL_NM", "서울대치초등학교", "'서울대치초등학교'라는"),  # not "학교명이 …인"
        ("neis_schoolInfo", "FOND_SC_NM", "공립", "공립"),  # "공립 학교", not "설립명이 공립인"
    ],
)
def test_a_filter_is_said_as_a_person_says_it(op, param, value, said):
    from edge_synth.compose import _filter_said

    assert _filter_said(op, param, value) == said


# Two questions each with its own chain, in two sentences (a smoke run of 400 rows kept this one at 122
# characters, under the budget): each sentence two or more hops, picks or '중'.
Q_TWO_CHAINS = (
    "범어동의 병원 중 '새봄정형외과의원'의 진료과목 중 '재활의학과'의 전문의 수는 얼마인가요? 그리고 "
    "'새봄정형외과의원'과 같은 시도의 실시간 대기질 중 통합대기환경지수가 가장 낮은 측정소의 이산화질소 농도는 "
    "얼마인가요?"
)


def test_two_questions_each_with_a_chain_are_flagged():
    assert any("two chained questions" in p for p in fluency_problems(Q_TWO_CHAINS)), fluency_problems(
        Q_TWO_CHAINS
    )
    assert fluency_problems(Q_TWO_SHORT) == []  # one chain beside a comparison (#4, read as fluent)


def test_the_same_ask_of_another_row_is_b_neun_yo_not_mueot():
    """A smoke run of 400 rows: "… 축제 중 '종로 국화축제'의 공연시간은 어떻게 되나요? 그리고 '종로 먹거리축제'의
    공연시간은 무엇인가요?": the second "어떻게 되" became "무엇" before the same-ask rule could say "'B'는요?"."""
    from edge_synth.compose import _sentences

    q = _sentences(
        [
            ("오늘 축제 중 '종로 국화축제'의", "공연시간", "어떻게 되"),
            ("'종로 먹거리축제'의", "공연시간", "어떻게 되"),
        ],
        2,
    )
    assert q.endswith("'종로 먹거리축제'는요?") and "무엇" not in q, q
    other = _sentences([("'A'의", "주소", "어떻게 되"), ("'B'의", "대표자", "어떻게 되")], 2)
    assert "무엇" in other, other  # two different asks: the second still asks "무엇"


def test_a_school_is_named_without_the_school_list():
    from edge_synth.natural import name_says_kind

    assert name_says_kind("neis_schoolInfo", "혜화중학교") and not name_says_kind(
        "neis_schoolInfo", "서울과학고"
    )


def test_a_pick_of_stations_in_a_rows_province_is_said_in_that_province():
    """edge-s0-0002461 (samples-577528e #18): "병원 중 '삼성서울병원'과 같은 시도의 실시간 대기질 중 통합대기환경지수가
    가장 높은 측정소의 일산화탄소 농도는 얼마인가요?". The station says what the list is ("측정소"), so the pick is
    said in the place: "'삼성서울병원'과 같은 시도에서 통합대기환경지수가 가장 높은 측정소의 …" (no "실시간 대기질 중")."""
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    steps = [
        PlanStep(id="s1", tool="hira_getHospBasisList", args={}),
        PlanStep(
            id="s2",
            tool="airkorea_getCtprvnRltmMesureDnsty",
            args={"sidoName": "$s1.items[8].sidoCdNm", "numOfRows": 100},
        ),
    ]
    comp = _compose_hand_draft(
        steps,
        [Junction("SEM", "s1", ["s2"], "e1", {"item": 8})],
        want=lambda c: any(f["row_reason"] in ("max", "min") for f in c.facts),
    )
    q = comp.query
    assert "같은 시도에서" in q and "대기질 중" not in q and "병원 중" not in q, q
    assert fluency_problems(q) == [] and comp.invalid == [], q


# A place table looked up by a broader place, then one of its rows named ("서울특별시 중 '서울특별시 종로구 통인동'"; 36
# of the 2,000 rows of a default run): the place said twice, once as a list. And a row that is itself the
# 시군구 "with the same 시군구" ("'서울특별시 종로구'와 같은 시군구의 …", 8 rows): the place is the row.
Q_PLACE_PICKED = [
    (
        "서울특별시 중 '서울특별시 종로구 통인동'과 같은 시도의 관광지 '종로 국화축제'와 '국립민속박물관 노을 게스트하우스' "
        "중 반경 2km 안에 병원이 더 많은 쪽은 어디인가요?"
    ),
    "서울특별시 종로구 중 '서울특별시 종로구 통인동'의 오늘(2026년 12월 5일) 축제 중 '종로 국화축제'의 행사 장소는 어떻게 되나요?",
    "부암동 중 '종로구'와 같은 시군구의 모범음식점 중 '솔빛식당'의 주소는 어디인가요?",
]


@pytest.mark.parametrize("query", Q_PLACE_PICKED)
def test_a_place_picked_from_its_own_lookup_is_flagged(query):
    assert any("place picked from its lookup" in p for p in fluency_problems(query)), fluency_problems(query)


@pytest.mark.parametrize(
    "query",
    [
        "오늘(2026년 12월 5일) 서울 구별 대기오염도 중 '광진구'의 실시간 초미세먼지 농도는 얼마인가요?",
        "공공도서관 중 '이태원1동 도서관' 반경 2km 안의 관광지는 모두 몇 곳인가요?",
        "'서울특별시 종로구 통인동'과 같은 시도의 관광지 중 '종로 호수공원'의 주소는 어디인가요?",
    ],
)
def test_a_row_of_a_list_is_not_a_place_picked_from_its_lookup(query):
    assert fluency_problems(query) == [], fluency_problems(query)


def test_a_row_that_is_the_place_is_not_in_the_same_place():
    from edge_synth.compose import _names_the_place

    assert _names_the_place("'서울특별시 종로구'", "시군구") and _names_the_place("'부산광역시'", "시도")
    assert _names_the_place("'수원시'", "시군구")
    assert not _names_the_place("'서울특별시 종로구 통인동'", "시군구") and not _names_the_place(
        "'중구문화원'", "시군구"
    )
    assert not _names_the_place("'서울특별시 종로구'", "동네")


def test_the_only_row_of_a_searched_list_is_asked_by_name_first():
    """edge-s0-0002675 (samples-577528e #2): "… 아파트 매매 거래 중 '통인SK뷰퍼스트'와 같은 동네의 병원의 병원 종류는
    어떻게 되나요?" names no hospital (the user cannot know there is one). Its plan, rebuilt: the hospital is asked
    first ("… 같은 동네의 병원은 어디인가요?"), then "그 병원"; the answer names it (a name fact)."""
    from edge_synth.filter import answer_holds
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    steps = [
        PlanStep(
            id="s1",
            tool="molit_getRTMSDataSvcAptTradeDev",
            args={"LAWD_CD": "11110", "DEAL_YMD": "202611", "numOfRows": 100},
        ),
        PlanStep(id="s2", tool="hira_getHospBasisList", args={"emdongNm": "$s1.items[8].umdNm"}),
        PlanStep(id="s3", tool="hira_getDtlInfo2_7", args={"ykiho": "$s2.items[0].ykiho"}),
    ]
    js = [Junction("SEM", "s1", ["s2"], "e1", {"item": 8}), Junction("SEQ", "s2", ["s3"], "e2", {"item": 0})]
    comp = _compose_hand_draft(steps, js, want=lambda c: any(f["step"] == "s3" for f in c.facts))
    q = comp.query
    assert "병원은 어디" in q and "그 병원의" in q and "같은 동네의 병원의" not in q, q
    name = next(f for f in comp.facts if f["step"] == "s2")
    assert name["row_reason"] == "only" and f"'{name['resolved']}'" in comp.answer, comp.answer
    assert fluency_problems(q) == [] and comp.invalid == [] and answer_holds(comp.answer, comp.facts), q


def test_a_call_the_question_never_asks_is_not_in_the_trajectory():
    """edge-s0-0005452 of a default run: "'서울역삼초등학교'의 학사일정 중 '입학식'의 날짜는 언제인가요?"
    with five calls: the schedule, and three schools' meal menus nobody asked about (leaves without a fact; 368
    of the 2,000 rows carried such calls: grid lookups, meals, nearby stations). A model trained on it learns to
    make calls the question does not need. Its plan, rebuilt: the unasked leaves are pruned (and a FAN left
    with one call is a SEQ); the facts, the answer and the knowable arguments are unchanged."""
    from edge_helpers import HAND_CLOCK
    from edge_synth.filter import answer_holds, argument_sources
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    meal = {
        "SD_SCHUL_CODE": "$s1.items[{k}].SD_SCHUL_CODE",
        "ATPT_OFCDC_SC_CODE": "$s1.items[{k}].ATPT_OFCDC_SC_CODE",
        "KEY": "$session.neis",
    }
    steps = [
        PlanStep(id="s1", tool="neis_schoolInfo", args={"KEY": "$session.neis"}),
        PlanStep(
            id="s2",
            tool="neis_SchoolSchedule",
            args={
                "SCHUL_CRSE_SC_NM": "$s1.items[9].SCHUL_KND_SC_NM",
                "ATPT_OFCDC_SC_CODE": "$s1.items[9].ATPT_OFCDC_SC_CODE",
                "SD_SCHUL_CODE": "$s1.items[9].SD_SCHUL_CODE",
                "KEY": "$session.neis",
            },
        ),
    ]
    steps += [
        PlanStep(
            id=f"s{i}", tool="neis_mealServiceDietInfo", args={k: v.format(k=row) for k, v in meal.items()}
        )
        for i, row in ((3, 6), (4, 8), (5, 9))
    ]
    js = [
        Junction("SEM", "s1", ["s2"], "e1", {"item": 9}),
        Junction("FAN", "s1", ["s3", "s4", "s5"], "e2", {"items": [6, 8, 9]}),
    ]
    comp = _compose_hand_draft(steps, js, want=lambda c: any(f["step"] == "s2" for f in c.facts))
    fact_steps = {f["step"] for f in comp.facts}
    assert [s.id for s in comp.plan.steps] == ["s1", "s2"], ([s.tool for s in comp.plan.steps], comp.query)
    assert fact_steps <= {"s1", "s2"} and set(comp.run.outputs) == {"s1", "s2"}
    assert not any(m.get("name") == "neis_mealServiceDietInfo" for m in comp.messages), comp.messages
    assert answer_holds(comp.answer, comp.facts) and all(
        a["source"] for a in argument_sources(comp.plan, comp.query, HAND_CLOCK)
    )


def test_a_dong_name_before_the_particle_is_not_the_noun_dongui():
    """edge-s0-0009527 (samples-85108d4 #13): "길음동의 병원의 진료과목의 전문의 수는 얼마인가요?"
    passed the three-'의' check: '길음동의' ended in '동의' (consent), a noun the check skips. A place name ending
    in 동 takes the particle like any noun (4 of the 2,000 rows); the bare noun '동의' still is not one."""
    q = "길음동의 병원의 진료과목의 전문의 수는 얼마인가요?"
    assert longest_ui_chain(q) == 3 and any("'의' in a row" in p for p in fluency_problems(q))
    assert longest_ui_chain("학생의 동의 절차는 어떻게 되나요?") == 1


# --- what a reader marked in results/edge-default/samples-85108d4.md ----------------------------------------
Q_FESTIVAL_DATE = (
    "오늘(2026년 12월 5일) 축제 중 '순천 빛축제'의 날짜에 맞춘 축제 '순천 빛축제'와 '남구 야시장축제' 중 "
    "반경 2km 안에 병원이 더 많은 쪽은 어디인가요?"
)  # #4 (edge-s0-0011549)
Q_FESTIVAL_MONTH = (
    "서울특별시 종로구 청진동의 오늘(2026년 12월 5일) 축제 중 '종로 국화축제'가 열리는 달의 국경일의 날짜는 "
    "언제인가요?"
)  # #14 (edge-s0-0010480)
Q_ONE_ROW_UNNAMED = (
    "운중동의 병원의 진료과목 중 '침구과'의 전문의 수는 얼마인가요? 그리고 그 병원과 같은 시도에서 미세먼지 "
    "농도가 가장 높은 측정소의 이산화질소 농도는 얼마인가요?"
)  # #29 (edge-s0-0006689)
Q_TWO_JUNG = "어린이집 중 '푸른어린이집'과 같은 시군구의 부동산 거래 중 건물면적이 가장 작은 거래의 층은 몇 층인가요?"  # #17
Q_SCHOOL_KIND = "학교종류명이 초등학교인 학교 중 '서울대치초등학교'의 주소는 어디인가요?"


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        (Q_FESTIVAL_DATE, "date of a row as a hop"),
        (Q_FESTIVAL_MONTH, "date of a row as a hop"),
        (Q_ONE_ROW_UNNAMED, "list of the user's filter names no row"),
        (Q_TWO_JUNG, "two '중' with a hop and a pick"),
        (Q_SCHOOL_KIND, "form-like filter"),
    ],
)
def test_a_stacked_or_contrived_query_is_named_for_what_is_wrong(query, problem):
    from edge_synth.pipeline import not_fluent_reason

    assert any(problem in p for p in fluency_problems(query)), fluency_problems(query)
    assert not_fluent_reason(query) is not None


@pytest.mark.parametrize(
    "query",
    [
        # the date the user's own: a holiday a person names, festivals from that day
        "'어린이날'부터 열리는 축제 중 '서울장미축제'의 주소는 어디인가요?",
        "오늘(2026년 12월 5일) 축제 '구미 국화축제'와 '기장 먹거리축제' 중 반경 2km 안에 병원이 더 많은 쪽은 어디인가요?",
        # the row of the user's own list named
        "운중동의 병원 중 '운중한의원'의 진료과목 중 '침구과'의 전문의 수는 얼마인가요?",
        "남산동의 병원 중 '해맑은요양병원'의 주소는 어디인가요?",
        # one '중' with a hop and a pick
        "'푸른어린이집'과 같은 시군구의 부동산 거래 중 건물면적이 가장 작은 거래의 층은 몇 층인가요?",
        "'군산 향토역사관 3' 반경 2km 안의 관광지 중 '군산 근대미술관'의 전화번호는 몇 번인가요?",
        # a kind said before the noun, a name as a name
        "초등학교 중 '서울대치초등학교'의 주소는 어디인가요?",
    ],
)
def test_the_fluent_form_of_hops_and_kinds_passes(query):
    assert fluency_problems(query) == [], fluency_problems(query)


@pytest.mark.parametrize(
    ("op", "param", "value", "said"),
    [
        ("neis_schoolInfo", "SCHUL_KND_SC_NM", "초등학교", "초등학교"),  # not "학교종류명이 초등학교인"
        ("neis_SchoolSchedule", "SCHUL_CRSE_SC_NM", "중학교", "중학교"),  # not "학교과정명이 중학교인"
        ("mfds_getDrbEasyDrugList", "itemName", "타이레놀", "'타이레놀'이라는"),  # not "제품명이 타이레놀인"
        ("mfds_getDrbEasyDrugList", "entpName", "종근당", "업체가 '종근당'인"),  # not "업체명이 종근당인"
        ("seoul_JRLibraryInfo", "LBRRY_NM", "종로도서관", "'종로도서관'이라는"),
    ],
)
def test_no_filter_is_said_as_a_form_field(op, param, value, said):
    from edge_synth.compose import _filter_said

    assert _filter_said(op, param, value) == said


def test_no_operation_filter_is_said_as_a_form_field():
    """Every parameter of every operation: no "<field>명이 …인" (the form-like filter check drops it)."""
    from edge_synth.compose import _filter_said
    from kopa_inspect.apis import operations

    left = [
        (op_id, p.name, _filter_said(op_id, p.name, "값"))
        for op_id, op in operations().items()
        for p in op.params
    ]
    assert [x for x in left if re.search(r"명이 값인$", x[2])] == []


def test_a_school_kind_and_its_noun_are_said_once():
    from edge_synth.compose import _kind_and_noun

    assert _kind_and_noun("초등학교", "학교") == "초등학교"
    assert _kind_and_noun("공립", "학교") == "공립 학교"


def test_the_only_row_of_the_users_own_list_is_asked_by_name_first():
    """edge-s0-0009527 (samples-85108d4 #13): "길음동의 병원의 진료과목의 전문의 수는 얼마인가요?" names no hospital nor
    department (the 길음동 list has one hospital; the user cannot know it). Its plan, rebuilt: the hospital is
    asked first ("길음동의 병원은 어디인가요?"), then "그 병원의"; the answer names it (a name fact)."""
    from edge_synth.filter import answer_holds
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    steps = [
        PlanStep(id="s1", tool="hira_getHospBasisList", args={"emdongNm": "길음동"}),
        PlanStep(id="s2", tool="hira_getDgsbjtInfo2_7", args={"ykiho": "$s1.items[0].ykiho"}),
    ]
    js = [Junction("SEQ", "s1", ["s2"], "e1", {"item": 0})]
    comp = _compose_hand_draft(steps, js, want=lambda c: any(f["step"] == "s2" for f in c.facts))
    q = comp.query
    assert "병원은 어디" in q and "그 병원의" in q and "길음동의 병원의" not in q, q
    name = next(f for f in comp.facts if f["step"] == "s1")
    assert name["row_reason"] == "only" and f"'{name['resolved']}'" in comp.answer, comp.answer
    assert fluency_problems(q) == [] and comp.invalid == [] and answer_holds(comp.answer, comp.facts), q
