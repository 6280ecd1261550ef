"""Cross-platform links that mean something, and the look-alikes beside them (issue 10).

The real chain links (the platform's documented contract) cross platforms through coordinates
(WGS84 lon/lat), region codes (법정동 시군구 -> LAWD_CD), place names (-> a lookup such as KMA's grid
table) and, where the query makes it the user's own, a date (a festival's start -> the holiday
calendar of that month). Each admitted link records how its value is derived; each look-alike
(a latitude in a column named X, TM coordinates, a HIRA code, a 10-digit code into TourAPI's
areaCode, a WGS84 point into KMA's grid without a conversion any tool offers) stays rejected.
"""

from __future__ import annotations

from edge_synth.fields import match_fields
from edge_synth.graph import Edge
from edge_synth.semantics import link_meaning
from kopa_inspect.apis import get_operation


def _m(p: str, f: str, c: str, a: str, sl: tuple[int, int] | None = None, reasons: list[str] | None = None):
    return link_meaning(Edge(p, f, c, a, sl, reasons or ["alias"], 0.6))


# --- admitted, with the derivation recorded ------------------------------------------------------


def test_wgs84_coordinates_flow_between_platforms():
    for p, f, c, a in [
        ("tourapi_areaBasedList2", "mapx", "hira_getHospBasisList", "xPos"),  # hospitals near a sight
        ("tourapi_areaBasedList2", "mapy", "hira_getHospBasisList", "yPos"),
        ("hira_getHospBasisList", "XPos", "tourapi_locationBasedList2", "mapX"),  # sights near a hospital
        ("tago_getSttnNoList", "gpslati", "tourapi_locationBasedList2", "mapY"),  # near a bus stop
        ("seoul_GetParkingInfo", "LOT", "tourapi_locationBasedList2", "mapX"),
        ("seoul_CrtfcUpsoInfo", "Y_DNTS", "hira_getHospBasisList", "yPos"),
    ]:
        m = _m(p, f, c, a)
        assert m.agree, (p, f, c, a, m)
        assert "WGS84" in m.why, m


def test_place_names_flow_into_the_grid_lookup_and_region_codes_into_lawd_cd():
    for p, f, c, a in [
        ("hira_getHospBasisList", "sgguCdNm", "kma_getGridPointList", "level2"),
        ("hira_getHospBasisList", "emdongNm", "kma_getGridPointList", "level3"),
        ("airkorea_getTMStdrCrdnt", "sggName", "kma_getGridPointList", "level2"),
        ("seoul_culturalEventInfo", "GUNAME", "kma_getGridPointList", "level2"),
        ("kma_getGridPointList", "level3", "airkorea_getTMStdrCrdnt", "umdName"),
    ]:
        m = _m(p, f, c, a)
        assert m.agree and "place name" in m.why, (p, f, c, a, m)
    for p, f in [
        ("seoul_SeoulPublicLibraryInfo", "GU_CODE"),
        ("seoul_tbLnOpendataRtmsV", "CGG_CD"),
        ("seoul_CrtfcUpsoInfo", "CGG_CODE"),
    ]:
        m = _m(p, f, "molit_getRTMSDataSvcAptTrade", "LAWD_CD")
        assert m.agree, (p, f, m)
    # The grid table's 10-digit 법정동 code, sliced: a region code into LAWD_CD.
    m = _m("kma_getGridPointList", "areaCode", "molit_getRTMSDataSvcAptTrade", "LAWD_CD", (0, 5), ["format"])
    assert m.agree and "bridge" in m.why, m
    # 법정동 시도 code into TourAPI's 법정동 region filter.
    m = _m("stanregincd_getStanReginCdList", "sido_cd", "tourapi_areaBasedList2", "lDongRegnCd")
    assert m.agree, m


def test_a_festival_date_feeds_the_holiday_calendar_of_its_month():
    y = _m("tourapi_searchFestival2", "eventstartdate", "kasi_getRestDeInfo", "solYear", (0, 4), ["format"])
    mo = _m("tourapi_searchFestival2", "eventstartdate", "kasi_getRestDeInfo", "solMonth", (4, 6), ["format"])
    assert y.agree and mo.agree and "user's own" in y.why, (y, mo)


def test_the_new_links_are_proposed_by_field_matching():
    ms = {
        (m.field, m.param)
        for m in match_fields(get_operation("tourapi_areaBasedList2"), get_operation("hira_getHospBasisList"))
    }
    assert {("mapx", "xPos"), ("mapy", "yPos")} <= ms
    ms = {
        (m.field, m.param, m.slice)
        for m in match_fields(get_operation("tourapi_searchFestival2"), get_operation("kasi_getRestDeInfo"))
    }
    assert ("eventstartdate", "solMonth", (4, 6)) in ms and ("eventstartdate", "solYear", (0, 4)) in ms


# --- look-alikes beside them stay rejected -------------------------------------------------------


def test_coordinate_lookalikes_are_rejected():
    for p, f, c, a in [
        (
            "seoul_SeoulPublicLibraryInfo",
            "XCNTS",
            "tourapi_locationBasedList2",
            "mapX",
        ),  # XCNTS holds a latitude
        ("seoul_LOCALDATA_072404_JR", "X", "tourapi_locationBasedList2", "mapX"),  # TM (EPSG:2097) metres
        ("airkorea_getTMStdrCrdnt", "tmX", "hira_getHospBasisList", "xPos"),  # TM, not WGS84
        ("tourapi_areaBasedList2", "mapx", "hira_getHospBasisList", "yPos"),  # a longitude as a latitude
    ]:
        m = _m(p, f, c, a, reasons=["semantic:0.80+retriever:0.60"])
        assert not m.agree, (p, f, c, a, m)


def test_coordinates_into_the_kma_grid_need_a_conversion_no_tool_offers():
    for f, a in (("mapx", "nx"), ("mapy", "ny")):
        m = _m("tourapi_areaBasedList2", f, "kma_getVilageFcst", a, reasons=["semantic:0.80+retriever:0.60"])
        assert not m.agree and "grid conversion" in m.why, m


def test_code_and_date_lookalikes_are_rejected():
    bad = [
        (
            "kma_getGridPointList",
            "areaCode",
            "tourapi_areaBasedList2",
            "areaCode",
            None,
        ),  # 10-digit 법정동 != TourAPI area
        (
            "hira_getHospBasisList",
            "sgguCd",
            "molit_getRTMSDataSvcAptTrade",
            "LAWD_CD",
            None,
        ),  # HIRA code system
        (
            "stanregincd_getStanReginCdList",
            "sgg_cd",
            "molit_getRTMSDataSvcAptTrade",
            "LAWD_CD",
            None,
        ),  # 3 digits
        (
            "tourapi_searchFestival2",
            "eventstartdate",
            "kma_getVilageFcst",
            "base_date",
            None,
        ),  # not an issue date
        (
            "tourapi_areaBasedList2",
            "createdtime",
            "kasi_getRestDeInfo",
            "solYear",
            (0, 4),
        ),  # a record's timestamp
        ("hira_getHospBasisList", "sidoCdNm", "kma_getGridPointList", "level2"),  # a province as a district
    ]
    for p, f, c, a, *rest in bad:
        sl = rest[0] if rest else None
        m = _m(p, f, c, a, sl, ["format"])
        assert not m.agree, (p, f, c, a, m)


# --- phrasing: a person names the place, never a grid cell or a parameter --------------------------

RAW_GRID = __import__("re").compile(r"격자(?:\s*[XY])?(?:\s*좌표)?\s*\d")


def raw_parameter_names(query: str, tools: list[str]) -> list[str]:
    """Parameter names of the plan's tools that appear verbatim in the query (nx, LAWD_CD ...)."""
    import re

    names = {p.name for t in tools for p in get_operation(t).visible_params if len(p.name) >= 2}
    return sorted(n for n in names if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", query))


def test_the_phrasing_checks_catch_a_grid_cell_and_a_parameter_name():
    tools = ["kma_getVilageFcst"]
    bad = "발표일자 오늘, 예보지점 격자 좌표 60, 예보지점 격자 좌표 127 기준으로 단기예보를 찾아 주세요."
    assert RAW_GRID.search(bad)
    assert raw_parameter_names("nx 60, ny 127 기준으로 단기예보를 찾아 주세요.", tools) == ["nx", "ny"]
    good = "서울특별시 종로구의 예보지점 격자를 찾아 주세요. 그중 첫 번째 항목의 격자로 단기예보를 조회해 주세요."
    assert not RAW_GRID.search(good) and raw_parameter_names(good, tools + ["kma_getGridPointList"]) == []


def test_no_start_call_asks_the_user_for_a_grid_cell():
    """A forecast call needs nx/ny: as a start, its query would have to state a grid cell."""
    import asyncio

    from edge_synth.graph import LinkGraph
    from edge_synth.pool import ValuePool
    from edge_synth.sample import Sampler
    from kopa_inspect.apis import operations
    from kopa_inspect.backends import make_backend

    g = LinkGraph()
    for op in operations().values():
        g.add_op(op)
    g.add(Edge("kma_getGridPointList", "nx", "kma_getVilageFcst", "nx", None, ["name"], 0.7))
    g.add(Edge("kma_getVilageFcst", "nx", "kma_getUltraSrtNcst", "nx", None, ["name"], 0.7))
    backend = make_backend(seed=0)
    try:
        s = Sampler(
            g, ValuePool("2026-12-03T12:00:00+09:00"), backend, seed=0, clock="2026-12-03T12:00:00+09:00"
        )
        assert "kma_getGridPointList" in s.starts
        assert "kma_getVilageFcst" not in s.starts
    finally:
        asyncio.run(backend.aclose())


def test_a_masked_name_never_labels_a_row():
    from edge_synth.describe import row_label

    rows = [{"UPSO_NM": "별빛식당", "OWNER_NM": "강*은"}, {"UPSO_NM": "한빛식당", "OWNER_NM": "김*수"}]
    lab = row_label("seoul_CrtfcUpsoInfo", rows[0], rows)
    assert lab == ("UPSO_NM", "별빛식당"), lab
    assert row_label("seoul_CrtfcUpsoInfo", {"OWNER_NM": "강*은"}, [{"OWNER_NM": "강*은"}]) is None


def test_a_coordinate_without_its_partner_is_rejected():
    # A catalog dataset's LAT with no longitude concept beside it: the other half would come from
    # elsewhere (another place). TourAPI's mapy has its mapx: admitted.
    m = _m("seoul_JGParkInfo", "LAT", "hira_getHospBasisList", "yPos")
    assert not m.agree and "without its lon" in m.why, m
    assert _m("tourapi_areaBasedList2", "mapy", "hira_getHospBasisList", "yPos").agree


def test_times_and_radii_are_said_as_a_person_says_them():
    from edge_synth.compose import render_value
    from edge_synth.filter import argument_sources
    from edge_synth.pool import RADIUS_M, ValuePool, clock_values
    from kopa_inspect.plans import Plan, PlanStep

    clock = "2026-12-03T13:45:00+09:00"
    cv = clock_values(clock)
    assert render_value("kma_getUltraSrtNcst", "base_time", "1330", cv) == "13시 30분"
    assert render_value("kma_getVilageFcst", "base_time", cv["time4"], cv) == "가장 최근 발표 시각(11시)"
    assert render_value("tourapi_locationBasedList2", "radius", RADIUS_M, cv) == "2000미터"
    # "13시 30분" in the query makes 1330 knowable; a time the query does not say is not.
    plan = Plan(
        steps=[
            PlanStep(
                id="s1",
                tool="kma_getUltraSrtNcst",
                args={"base_date": cv["date8"], "base_time": "1330", "nx": 60, "ny": 127},
            )
        ]
    )
    src = {a["arg"]: a["source"] for a in argument_sources(plan, "13시 30분 관측값", clock)}
    assert src["base_time"] == "query"
    src = {a["arg"]: a["source"] for a in argument_sources(plan, "관측값", clock)}
    assert src["base_time"] is None
    # A point given to TourAPI/HIRA comes with the radius the query states.
    import random

    from kopa_inspect.apis import get_operation

    args = ValuePool(clock, []).fill(
        get_operation("hira_getHospBasisList"), random.Random(0), {"xPos": "127.0", "yPos": "37.5"}
    )
    assert args is not None and args["radius"] == RADIUS_M


def test_labels_drop_the_datum_and_facts_never_ask_for_a_grid_cell():
    import random

    from edge_synth.compose import _pick_fact_field
    from edge_synth.describe import field_label

    assert field_label("tago_getSttnNoList", "gpslati") == "정류소 위도"
    row = {
        "areaCode": "1114000000",
        "level1": "서울특별시",
        "level2": "중구",
        "level3": "",
        "nx": 60,
        "ny": 127,
        "lon": "126.997900",
        "lat": "37.564100",
    }
    picked = {_pick_fact_field("kma_getGridPointList", row, random.Random(i), set()) for i in range(60)}
    assert picked and not picked & {"nx", "ny"}, picked


def test_a_fact_never_asks_back_a_value_the_call_was_given():
    """ "What is the issue date of the forecast I asked for today?" asks nothing."""
    import asyncio
    import random

    from edge_synth.compose import execute, make_facts
    from edge_synth.pool import clock_values
    from edge_synth.sample import Draft
    from kopa_inspect.backends import make_backend
    from kopa_inspect.plans import Plan, PlanStep

    clock = "2026-12-03T13:45:00+09:00"
    cv = clock_values(clock)
    steps = [
        PlanStep(
            id="s1",
            tool="kma_getVilageFcst",
            args={"base_date": cv["date8"], "base_time": cv["time4"], "nx": 60, "ny": 127},
        )
    ]
    backend = make_backend(seed=0)
    try:
        run, _ = asyncio.run(execute(Plan(steps=steps), backend, seed=0, clock=clock))
    finally:
        asyncio.run(backend.aclose())
    d = Draft(index=0, steps=steps, outputs=dict(run.outputs), args=dict(run.args))
    asked = {f["field"] for i in range(40) for f in make_facts(d, run, random.Random(i))}
    # Forecast rows have no name and no unique measure, so no row a person could point at gives a
    # fact (the grammar never reads "the first row"); what is asked is never an echoed argument.
    assert not asked & {"baseDate", "baseTime", "nx", "ny"}, asked


def test_facts_skip_opaque_tokens_and_projected_metres():
    import random

    from edge_synth.compose import _pick_fact_field

    row = {
        "ykiho": "JDg1NDg0OCM3MyMkMSMkMCMkODkkOTM2OTU4IzI2IyQxIyQzIyQ5OSQ",
        "yadmNm": "새봄연산한의원",
        "drTotCnt": 3,
    }
    picked = {_pick_fact_field("hira_getHospBasisList", row, random.Random(i), set()) for i in range(40)}
    assert "ykiho" not in picked and picked <= {"yadmNm", "drTotCnt"}, picked
    tm = {
        "sidoName": "서울특별시",
        "sggName": "강남구",
        "umdName": "역삼동",
        "tmX": "203415.19",
        "tmY": "444253.17",
    }
    picked = {_pick_fact_field("airkorea_getTMStdrCrdnt", tm, random.Random(i), set()) for i in range(40)}
    assert not picked & {"tmX", "tmY"}, picked
