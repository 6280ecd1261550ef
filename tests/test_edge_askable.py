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
    ("kma_getGridPointList", "level1"), ("kma_getGridPointList", "level2"), ("kma_getGridPointList", "level3"),
    ("airkorea_getNearbyMsrstnList", "tm"), ("hira_getHospBasisList", "distance"),
    ("tourapi_locationBasedList2", "dist"), ("airkorea_getTMStdrCrdnt", "sidoName"),
    ("dart_corpCode", "modify_date"), ("hira_getHospBasisList", "sgguCdNm"),
}
# Bookkeeping of the record, never of the thing: 수정/등록/갱신/작성/적재 dates, ids, coordinates.
BOOKKEEPING = re.compile(r"수정|등록일|갱신|작성일|적재|작업일자|최종변경|관리번호|일련번호|좌표|위도|경도|영문|한자명|음/양력")
# The field that names one row of these operations (the spec's name of the thing).
NAME_OF = {
    "seoul_RealtimeCityAir": "MSRSTE_NM", "seoul_TimeAverageAirQuality": "MSRSTE_NM",
    "seoul_ChildCareInfo": "CRNAME", "seoul_CrtfcUpsoInfo": "UPSO_NM", "hira_getHospBasisList": "yadmNm",
    "hira_getDgsbjtInfo2_7": "dgsbjtCdNm", "tourapi_locationBasedList2": "title",
    "tourapi_areaBasedList2": "title", "tourapi_searchFestival2": "title",
    "airkorea_getCtprvnRltmMesureDnsty": "stationName", "airkorea_getNearbyMsrstnList": "stationName",
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
                    ("airkorea_getNearbyMsrstnList", "tm"), ("hira_getHospBasisList", "distance"),
                    ("tourapi_locationBasedList2", "dist")}:
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
    kids = [{"CRNAME": "해님어린이집", "CRADDR": "서울특별시 강북구 삼양로 59", "CRCAPAT": "40"},
            {"CRNAME": "달님어린이집", "CRADDR": "서울특별시 강북구 삼양로 61", "CRCAPAT": "20"}]
    assert row_label("seoul_ChildCareInfo", kids[0], kids) == ("CRNAME", "해님어린이집")
    # a name two rows share names neither (two trades in one complex): no row a person can point at
    trades = [{"aptNm": "래미안", "dealAmount": "120,000", "floor": "3"},
              {"aptNm": "래미안", "dealAmount": "98,000", "floor": "7"}]
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

    seen = 0
    for r in rows:
        if not r["kept"]:
            continue
        c = r["comp"]
        for tool, f in _own_facts(c):
            if f["field"] == COUNT or f.get("row_reason") == "compared" or "pick_for" in f:
                continue
            word = f.get("said_as") or askable_label(tool, f["field"])  # a forecast: "12시 기온"
            assert word and word in c.query and word in c.answer, (word, c.query, c.answer)
            seen += 1
    assert seen >= 20


def test_a_leaf_with_nothing_askable_gets_no_fact_and_its_row_is_dropped(rows):
    from edge_synth.askable import WEATHER, askable_fields
    from edge_synth.pipeline import no_fact_reason

    silent = 0
    for r in rows:
        c = r["comp"]
        asked = {f["step"] for f in c.facts if "step" in f}
        for s in c.plan.steps:
            if not askable_fields(s.tool) and s.tool not in WEATHER and s.id in asked:
                f = next(f for f in c.facts if f.get("step") == s.id)
                assert f["field"] == COUNT, (s.tool, f)  # only a count of a countable thing
        if not c.facts:
            silent += 1
            assert no_fact_reason(c) in ("no_askable_fact", "no_fact")
    assert silent >= 1, "no seeded row lost its facts: the check is not exercised"
    assert any(not r["comp"].facts and no_fact_reason(r["comp"]) == "no_askable_fact" for r in rows)


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


@pytest.mark.parametrize(("op", "field", "askable"), [
    ("hira_getHospBasisList", "telno", True), ("hira_getHospBasisList", "drTotCnt", True),
    ("hira_getHospBasisList", "distance", False), ("hira_getHospBasisList", "sgguCd", False),
    ("molit_getRTMSDataSvcAptTrade", "dealAmount", True), ("molit_getRTMSDataSvcAptTrade", "roadNmCd", False),
    ("tago_getSttnNoList", "nodeno", True), ("tago_getSttnNoList", "gpslati", False),
    ("kma_getGridPointList", "level1", False), ("tourapi_locationBasedList2", "modifiedtime", False),
    ("airkorea_getNearbyMsrstnList", "tm", False), ("seoul_RealtimeCityAir", "O3", True),
    # a catalog dataset (인허가 LOCALDATA): by the rule
    ("seoul_LOCALDATA_072404_JR", "BPLCNM", True), ("seoul_LOCALDATA_072404_JR", "RDNWHLADDR", True),
    ("seoul_LOCALDATA_072404_JR", "SITETEL", True), ("seoul_LOCALDATA_072404_JR", "LASTMODTS", False),
    ("seoul_LOCALDATA_072404_JR", "UPDATEDT", False), ("seoul_LOCALDATA_072404_JR", "MGTNO", False),
    ("seoul_LOCALDATA_072404_JR", "X", False), ("seoul_LOCALDATA_072404_JR", "OPNSFTEAMCODE", False),
    ("assembly_oxgicfalrjhveonno", "POLY_NM", True), ("assembly_oxgicfalrjhveonno", "ENG_NM", False),
    ("assembly_oxgicfalrjhveonno", "BTH_GBN_NM", False), ("assembly_oxgicfalrjhveonno", "STAFF", False),
])
def test_what_is_askable(op, field, askable):
    from edge_synth.askable import is_askable

    assert is_askable(op, field) is askable


def test_a_distance_picks_the_nearest_but_is_not_asked():
    from edge_synth.askable import is_askable, picks_by

    assert picks_by("airkorea_getNearbyMsrstnList", "tm") and not is_askable("airkorea_getNearbyMsrstnList", "tm")
    assert picks_by("hira_getHospBasisList", "drTotCnt") and not picks_by("hira_getHospBasisList", "XPos")
