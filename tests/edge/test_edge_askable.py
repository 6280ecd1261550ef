"""What a person asks (issue 10): EDGE facts only on fields a person wants to know, about the row
they were read from.

A reviewer read questions such as "날씨 예보 지역의 1단계 시도", "관광지 중 'X'의 수정일시", the number of
forecast areas, "가까운 대기 측정소 중 '중구'의 거리", and "'동대문구'의 오존" answered for the row '동북권'
(the 권역 a station belongs to, not the station). Facts now come only from the curated table
(edge_synth.askable) or, for the many generic Seoul/Assembly catalog datasets, from its rule; a leaf
without an askable field gets no fact, a row left without facts is dropped, and a fact's subject is
the name of its own row.
"""

from __future__ import annotations

import re

import pytest

from kopa_inspect.apis import get_operation, operations

COUNT = "__count__"

# The reviewer's examples and their kin (written before the table; literal, so the test reads the
# same on the old code): (operation, field) a person never asks for.
BAD_FIELDS = {
    ("kma_getGridPointList", "level1"),
    ("kma_getGridPointList", "level2"),
    ("kma_getGridPointList", "level3"),
    ("airkorea_getNearbyMsrstnList", "tm"),
    ("hira_getHospBasisList", "distance"),
    ("tourapi_locationBasedList2", "dist"),
    ("airkorea_getTMStdrCrdnt", "sidoName"),
    ("dart_corpCode", "modify_date"),
    ("hira_getHospBasisList", "sgguCdNm"),
}
# Bookkeeping of the record, never of the thing: 수정/등록/갱신/작성/적재 dates, ids, coordinates.
BOOKKEEPING = re.compile(
    r"수정|등록일|갱신|작성일|적재|작업일자|최종변경|관리번호|일련번호|좌표|위도|경도|영문|한자명|음/양력"
)
# The field that names one row of these operations (the spec's name of the thing).
NAME_OF = {
    "seoul_RealtimeCityAir": "MSRSTE_NM",
    "seoul_TimeAverageAirQuality": "MSRSTE_NM",
    "seoul_ChildCareInfo": "CRNAME",
    "seoul_CrtfcUpsoInfo": "UPSO_NM",
    "hira_getHospBasisList": "yadmNm",
    "hira_getDgsbjtInfo2_7": "dgsbjtCdNm",
    "tourapi_locationBasedList2": "title",
    "tourapi_areaBasedList2": "title",
    "tourapi_searchFestival2": "title",
    "airkorea_getCtprvnRltmMesureDnsty": "stationName",
    "airkorea_getNearbyMsrstnList": "stationName",
}


@pytest.fixture(scope="module")
def rows(edge_seeded_rows) -> list[dict]:
    return edge_seeded_rows


def _tool(c, sid: str) -> str:
    return next(s.tool for s in c.plan.steps if s.id == sid)


def _own_facts(c):
    """(tool, fact) of every fact read from a row of its own step (not a comparison's winner)."""
    return [(_tool(c, f["step"]), f) for f in c.facts if "step" in f]


def test_the_named_bad_examples_never_appear(rows):
    from edge_synth.natural import COUNTABLE

    bad = []
    for r in rows:
        c = r["comp"]
        for tool, f in _own_facts(c):
            desc = get_operation(tool).output_fields.get(f["field"], "")
            if (tool, f["field"]) in BAD_FIELDS or (f["field"] != COUNT and BOOKKEEPING.search(desc)):
                bad.append((tool, f["field"], f["description"]))
            if f.get("measure") and (tool, f["measure"]) in BAD_FIELDS - {
                ("airkorea_getNearbyMsrstnList", "tm"),
                ("hira_getHospBasisList", "distance"),
                ("tourapi_locationBasedList2", "dist"),
            }:
                bad.append((tool, f["measure"], "measure"))  # a distance may pick "the nearest"
            if f["field"] == COUNT and f["row_reason"] == "count" and tool not in COUNTABLE:
                bad.append((tool, COUNT, f["description"]))  # "날씨 예보 지역 건수", "급식 식단 건수"
    assert not bad, f"{len(bad)}: {bad[:6]}"


def test_a_facts_subject_is_its_rows_own_name(rows):
    bad, seen = [], 0
    for r in rows:
        c = r["comp"]
        for tool, f in _own_facts(c):
            if f.get("row_reason") == "compared" or tool not in NAME_OF or not f.get("subject"):
                continue
            seen += 1
            row = c.run.outputs[f["step"]]["items"][f["row"]]
            if f["subject"] != str(row.get(NAME_OF[tool], "")).strip():
                bad.append((tool, f["subject"], row.get(NAME_OF[tool])))
    assert seen >= 3
    assert not bad, f"{len(bad)}: {bad[:5]}"


def test_the_row_of_a_district_station_is_named_by_the_station_not_its_region():
    from edge_synth.describe import row_label

    row = {"MSRDT": "202612040300", "MSRRGN_NM": "동북권", "MSRSTE_NM": "강북구", "O3": "0.038"}
    assert row_label("seoul_RealtimeCityAir", row, [row]) == ("MSRSTE_NM", "강북구")
    kids = [
        {"CRNAME": "해님어린이집", "CRADDR": "서울특별시 강북구 삼양로 59", "CRCAPAT": "40"},
        {"CRNAME": "달님어린이집", "CRADDR": "서울특별시 강북구 삼양로 61", "CRCAPAT": "20"},
    ]
    assert row_label("seoul_ChildCareInfo", kids[0], kids) == ("CRNAME", "해님어린이집")
    # a name two rows share names neither (two trades in one complex): no row a person can point at
    trades = [
        {"aptNm": "래미안", "dealAmount": "120,000", "floor": "3"},
        {"aptNm": "래미안", "dealAmount": "98,000", "floor": "7"},
    ]
    assert row_label("molit_getRTMSDataSvcAptTrade", trades[0], trades) is None


def test_every_fact_field_is_in_the_table(rows):
    from edge_synth.askable import is_askable, name_field, picks_by
    from edge_synth.natural import COUNTABLE

    bad, seen = [], 0
    for r in rows:
        c, d = r["comp"], r["draft"]
        for tool, f in _own_facts(c):
            seen += 1
            if "pick_for" in f:  # which row is the largest: its name, by the row's own name field
                if name_field(tool) not in (None, f["field"]):
                    bad.append((tool, f["field"], "pick name"))
            elif f["field"] == COUNT:
                if tool not in COUNTABLE:
                    bad.append((tool, COUNT))
            elif not is_askable(tool, f["field"]):
                bad.append((tool, f["field"]))
            if f.get("measure") and not picks_by(tool, f["measure"]):
                bad.append((tool, f["measure"], "measure"))
        for j in d.junctions:
            if j.type == "CMP" and j.detail["compare"] != COUNT:
                tool = d.step(j.consumers[0]).tool
                if not is_askable(tool, j.detail["compare"]):
                    bad.append((tool, j.detail["compare"], "compared"))
    assert seen >= 40
    assert not bad, f"{len(bad)}: {bad[:6]}"


def test_facts_use_the_persons_word(rows):
    from edge_synth.askable import askable_label
    from edge_synth.natural import row_word

    seen = which = 0
    for r in rows:
        if not r["kept"]:
            continue
        c = r["comp"]
        for tool, f in _own_facts(c):
            if f["field"] == COUNT or f.get("row_reason") == "compared" or "pick_for" in f:
                continue
            if f.get("row_reason") in ("max", "min") and f.get("row_label_field") == f["field"]:
                # which row it is: asked and answered by the row's own word ("전문의가 가장 적은
                # 진료과목은 무엇인가요?"), never by the name field's label ("과목명")
                word = row_word(tool)
                label = askable_label(tool, f["field"])
                assert label == word or label not in c.query, (label, c.query)
                which += 1
            else:
                word = f.get("said_as") or askable_label(tool, f["field"])  # a forecast: "12시 기온"
            assert word and word in c.query and word in c.answer, (word, c.query, c.answer)
            seen += 1
    assert seen >= 20 and which >= 1


def _hospital_then_grid(backend):
    """A walk that ends on a lookup: hospitals in Seoul, then the forecast grid cell of one hospital's
    읍면동 (kma_getGridPointList: the place's names are the user's own, the cell is plumbing)."""
    from edge_helpers import hand_draft, run_steps
    from edge_synth.describe import row_label
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    s1 = PlanStep(id="s1", tool="hira_getHospBasisList", args={"sidoCd": "110000", "clCd": "01"})
    items = run_steps(backend, [s1]).outputs["s1"]["items"]
    i = next(k for k, it in enumerate(items[:10]) if it.get("emdongNm") and row_label(s1.tool, it, items))
    s2 = PlanStep(id="s2", tool="kma_getGridPointList", args={"level3": f"$s1.items[{i}].emdongNm"})
    draft = hand_draft(backend, [s1, s2], [Junction("SEQ", "s1", ["s2"], "e_grid", {"item": i})])
    assert draft.outputs["s2"]["items"], "the grid table has the hospital's 읍면동"
    return draft


def test_a_leaf_with_nothing_askable_gets_no_fact_and_its_row_would_be_dropped():
    from edge_helpers import compose_draft, emulator
    from edge_synth.pipeline import no_fact_reason
    from edge_synth.sample import has_fact

    with emulator() as backend:
        draft = _hospital_then_grid(backend)
        comp = compose_draft(backend, draft)
    assert not comp.facts and comp.silent == ["s2"]
    assert no_fact_reason(comp) == "no_askable_fact"
    assert not has_fact(draft)  # the sampler's probe agrees with composition


def test_the_sampler_mends_a_walk_that_ends_where_nothing_is_asked():
    """A walk ending on a lookup would be composed, executed and dropped (``no_askable_fact``: 1,394
    of 5,650 candidates of a default run without this). The sampler goes one step further from
    the silent leaf to an operation with something to ask (here the grid cell's forecast)."""
    import asyncio
    import random

    from edge_helpers import EDGE_CLOCK, compose_draft, edge_graph, emulator
    from edge_synth.askable import asks_anything
    from edge_synth.pool import ValuePool
    from edge_synth.sample import Sampler, has_fact
    from kopa_inspect.execution import Session

    with emulator() as backend:
        draft = _hospital_then_grid(backend)
        sampler = Sampler(edge_graph(), ValuePool(EDGE_CLOCK), backend, seed=0, clock=EDGE_CLOCK)
        session = Session(backend, clock=EDGE_CLOCK, seed=0)
        assert asyncio.run(sampler._mend(draft, session, random.Random(0)))
        comp = compose_draft(backend, draft, clock=EDGE_CLOCK)
    assert has_fact(draft) and comp.facts
    assert draft.n_calls == 3 and asks_anything(draft.steps[-1].tool)
    assert draft.junctions[-1].producer == "s2" and draft.junctions[-1].consumers == ["s3"]


def test_a_silent_last_step_is_taken_back_when_nothing_can_follow_it():
    """Hospitals in Seoul -> hospitals of one hospital's 읍면동 -> that 읍면동's grid cell, on a graph with
    no link out of the grid table: the lookup step is taken back and the walk ends on the hospitals
    of the 읍면동, which a person asks about (its phone, its doctors)."""
    import asyncio
    import random

    from edge_helpers import emulator, hand_draft, run_steps
    from edge_synth.describe import row_label
    from edge_synth.graph import LinkGraph
    from edge_synth.pool import ValuePool
    from edge_synth.sample import Junction, Sampler, has_fact
    from kopa_inspect.execution import Session
    from kopa_inspect.plans import PlanStep

    clock = "2026-12-03T13:45:00+09:00"
    with emulator() as backend:
        s1 = PlanStep(id="s1", tool="hira_getHospBasisList", args={"sidoCd": "110000", "clCd": "01"})
        items = run_steps(backend, [s1]).outputs["s1"]["items"]
        i = next(k for k, it in enumerate(items[:10]) if it.get("emdongNm") and row_label(s1.tool, it, items))
        s2 = PlanStep(id="s2", tool="hira_getHospBasisList", args={"emdongNm": f"$s1.items[{i}].emdongNm"})
        s3 = PlanStep(id="s3", tool="kma_getGridPointList", args={"level3": "$s2.items[0].emdongNm"})
        draft = hand_draft(
            backend,
            [s1, s2, s3],
            [
                Junction("SEM", "s1", ["s2"], "e_a", {"item": i}),
                Junction("SEM", "s2", ["s3"], "e_b", {"item": 0}),
            ],
        )
        assert draft.outputs["s2"]["items"] and draft.outputs["s3"]["items"]
        assert not has_fact(draft)  # the walk's only leaf is the grid lookup
        sampler = Sampler(LinkGraph(), ValuePool(clock), backend, seed=0, clock=clock)
        assert asyncio.run(sampler._mend(draft, Session(backend, clock=clock, seed=0), random.Random(0)))
    assert [s.id for s in draft.steps] == ["s1", "s2"] and set(draft.outputs) == {"s1", "s2"}
    assert [j.edge_id for j in draft.junctions] == ["e_a"] and has_fact(draft)


def test_seeded_walks_never_end_where_nothing_is_asked(rows):
    """Every seeded draft (the sampler's output) is composed with a fact: none lost to ``no_askable_fact``
    (before: the seeded sample had such rows)."""
    from edge_synth.pipeline import no_fact_reason

    assert rows
    for r in rows:
        c = r["comp"]
        assert c.facts or no_fact_reason(c) != "no_askable_fact", [s.tool for s in c.plan.steps]
        asked = {f["step"] for f in c.facts if "step" in f}
        for s in c.plan.steps:
            if s.id in asked and not askable_fields_of(s.tool):
                f = next(f for f in c.facts if f.get("step") == s.id)
                assert f["field"] == COUNT, (s.tool, f)  # only a count of a countable thing


def askable_fields_of(op: str) -> dict:
    from edge_synth.askable import WEATHER, askable_fields

    return askable_fields(op) or ({"_": "weather"} if op in WEATHER else {})


# --- the table itself -------------------------------------------------------------------------------


def test_the_table_covers_every_operation_edge_names_and_only_declared_fields():
    from edge_synth.askable import ASKABLE, askable_fields
    from edge_synth.natural import USER_NOUNS

    ops = operations()
    missing = [op for op in USER_NOUNS if op in ops and op not in ASKABLE]
    assert not missing, missing
    for op, entry in ASKABLE.items():
        assert op in ops, op
        declared = ops[op].output_fields
        for f, word in {**entry.ask, **entry.pick}.items():
            assert f in declared, (op, f)
            assert re.search(r"[가-힣]", word) and not re.search(r"[A-Za-z_]{3,}", word), (op, f, word)
        if entry.name:
            assert entry.name in declared, (op, entry.name)
        assert entry.why.strip(), op
        assert askable_fields(op) == entry.ask


@pytest.mark.parametrize(
    ("op", "field", "askable"),
    [
        ("hira_getHospBasisList", "telno", True),
        ("hira_getHospBasisList", "drTotCnt", True),
        ("hira_getHospBasisList", "distance", False),
        ("hira_getHospBasisList", "sgguCd", False),
        ("molit_getRTMSDataSvcAptTrade", "dealAmount", True),
        ("molit_getRTMSDataSvcAptTrade", "roadNmCd", False),
        ("tago_getSttnNoList", "nodeno", True),
        ("tago_getSttnNoList", "gpslati", False),
        ("kma_getGridPointList", "level1", False),
        ("tourapi_locationBasedList2", "modifiedtime", False),
        ("airkorea_getNearbyMsrstnList", "tm", False),
        ("seoul_RealtimeCityAir", "O3", True),
        # a catalog dataset (인허가 LOCALDATA): by the rule
        ("seoul_LOCALDATA_072404_JR", "BPLCNM", True),
        ("seoul_LOCALDATA_072404_JR", "RDNWHLADDR", True),
        ("seoul_LOCALDATA_072404_JR", "SITETEL", True),
        ("seoul_LOCALDATA_072404_JR", "LASTMODTS", False),
        ("seoul_LOCALDATA_072404_JR", "UPDATEDT", False),
        ("seoul_LOCALDATA_072404_JR", "MGTNO", False),
        ("seoul_LOCALDATA_072404_JR", "X", False),
        ("seoul_LOCALDATA_072404_JR", "OPNSFTEAMCODE", False),
        ("assembly_oxgicfalrjhveonno", "POLY_NM", True),
        ("assembly_oxgicfalrjhveonno", "ENG_NM", False),
        ("assembly_oxgicfalrjhveonno", "BTH_GBN_NM", False),
        ("assembly_oxgicfalrjhveonno", "STAFF", False),
    ],
)
def test_what_is_askable(op, field, askable):
    from edge_synth.askable import is_askable

    assert is_askable(op, field) is askable


def test_a_distance_picks_the_nearest_but_is_not_asked():
    from edge_synth.askable import is_askable, picks_by

    assert picks_by("airkorea_getNearbyMsrstnList", "tm") and not is_askable(
        "airkorea_getNearbyMsrstnList", "tm"
    )
    assert picks_by("hira_getHospBasisList", "drTotCnt") and not picks_by("hira_getHospBasisList", "XPos")
