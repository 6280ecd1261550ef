"""Operations that real clients call, served by ``kopa serve``'s app on loopback and requested as
the clients request them (path, parameter names, parameter values), checking the fields each
client reads and the platform's own error forms.

- PublicDataReader ``TransactionPrice.get_data("오피스텔", "매매"|"전월세", …)``: RTMSDataSvcOffi*,
  ``serviceKey`` (decoded), ``numOfRows=99999``, ``LAWD_CD``, ``DEAL_YMD``; reads ``resultCode == '000'``
  and ``items.item``. Its Seoul ``read_data("버스승하차", …)``: ``/{KEY}/xml/CardBusStatisticsServiceNew/
  {start}/{end}/{USE_DT}``, 1,000 rows a page until the code is not INFO-000.
- neispy ``classInfo``: ``/hub/classInfo`` with ``KEY``, ``type=json``, ``pIndex``, ``pSize``; builds
  ClassInfoRow(**row), so a row must hold exactly its twelve fields.
- OpenDartReader ``report(corp, '배당', year)`` and ``major_shareholders(corp)``: ``/api/alotMatter.json``
  and ``/api/majorstock.json``; reads ``status == '000'`` and ``list``.
- ecos-reader 0.7.0: every curated getter's StatisticSearch URL (its stat code, cycle and item codes)
  and the client-side filter it applies to the rows.

The real clients themselves run in tests/apis/test_client_libraries.py when installed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date

import httpx
import pytest
import xmltodict

from _emulator_server import ServerThread
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, SEED_HEADER, Emulator, EmulatorConfig, create_app

CLOCK = "2026-10-15T10:00:00+09:00"
# ECOS and the Seoul portal take the key as a path segment: real keys are letters and digits.
PATH_KEY = "KOPAPATHKEY0123456789"
SAMSUNG = "00126380"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    config = EmulatorConfig(clock=CLOCK, keys=frozenset({DEFAULT_EMULATOR_KEY, PATH_KEY}))
    with ServerThread(create_app(config)) as url:
        yield url


def get(url: str, params: dict[str, str] | None = None, seed: int | None = None) -> httpx.Response:
    headers = {SEED_HEADER: str(seed)} if seed is not None else {}
    r = httpx.get(url, params=params, headers=headers, timeout=30)
    assert r.status_code == 200, r.text[:300]
    return r


# --- MOLIT 오피스텔 매매 / 전월세 (PublicDataReader) ------------------------------------------------

# The columns PublicDataReader's meta_dict declares for the officetel services.
OFFI_TRADE_COLUMNS = {
    "sggCd",
    "sggNm",
    "umdNm",
    "jibun",
    "offiNm",
    "excluUseAr",
    "dealYear",
    "dealMonth",
    "dealDay",
    "dealAmount",
    "floor",
    "buildYear",
    "cdealType",
    "cdealDay",
    "dealingGbn",
    "estateAgentSggNm",
    "slerGbn",
    "buyerGbn",
}
OFFI_RENT_COLUMNS = {
    "sggCd",
    "sggNm",
    "umdNm",
    "jibun",
    "offiNm",
    "excluUseAr",
    "dealYear",
    "dealMonth",
    "dealDay",
    "deposit",
    "monthlyRent",
    "floor",
    "buildYear",
    "contractType",
    "contractTerm",
    "useRRRight",
    "preDeposit",
    "preMonthlyRent",
}
OFFI_TRADE = "/1613000/RTMSDataSvcOffiTrade/getRTMSDataSvcOffiTrade"
OFFI_RENT = "/1613000/RTMSDataSvcOffiRent/getRTMSDataSvcOffiRent"
MANWON = re.compile(r" *\d{1,3}(,\d{3})*")


def rtms(base: str, path: str, lawd_cd: str = "11680", deal_ymd: str = "202609", **extra: str) -> dict:
    params = {
        "serviceKey": DEFAULT_EMULATOR_KEY,
        "numOfRows": "99999",
        "LAWD_CD": lawd_cd,
        "DEAL_YMD": deal_ymd,
        **extra,
    }
    return xmltodict.parse(get(base + path, params).text)


@pytest.mark.parametrize(
    ("path", "columns", "amount"),
    [(OFFI_TRADE, OFFI_TRADE_COLUMNS, "dealAmount"), (OFFI_RENT, OFFI_RENT_COLUMNS, "deposit")],
)
def test_officetel_rows_hold_what_publicdatareader_reads(
    base: str, path: str, columns: set[str], amount: str
) -> None:
    doc = rtms(base, path)["response"]
    assert doc["header"] == {"resultCode": "000", "resultMsg": "OK"}
    items = doc["body"]["items"]["item"]
    assert isinstance(items, list) and len(items) == int(doc["body"]["totalCount"]) > 10
    for item in items:
        assert set(item) == columns
        assert (item["sggCd"], item["sggNm"], item["dealYear"], item["dealMonth"]) == (
            "11680",
            "강남구",
            "2026",
            "9",
        )
        assert MANWON.fullmatch(item[amount]) and 1 <= int(item["dealDay"]) <= 30
        assert item["offiNm"].strip() and float(item["excluUseAr"]) > 10
    assert list(items[0]) == sorted(items[0])  # RTMS writes its tags in alphabetical order
    if path == OFFI_RENT:
        assert {i["monthlyRent"] == "0" for i in items} == {True, False}  # 전세 and 월세 both occur


def test_officetel_months_stop_at_the_clock(base: str) -> None:
    this_month = rtms(base, OFFI_TRADE, deal_ymd="202610")["response"]["body"]
    assert all(int(i["dealDay"]) < 15 for i in this_month["items"]["item"])
    later = rtms(base, OFFI_TRADE, deal_ymd="202611")["response"]
    assert (
        later["header"]["resultCode"] == "000"
        and later["body"]["totalCount"] == "0"
        and not later["body"]["items"]
    )


def test_officetel_rows_are_fixed_by_the_seed(base: str) -> None:
    params = {"serviceKey": DEFAULT_EMULATOR_KEY, "LAWD_CD": "11440", "DEAL_YMD": "202608", "numOfRows": "50"}
    first, again = get(base + OFFI_TRADE, params).text, get(base + OFFI_TRADE, params).text
    assert first == again != get(base + OFFI_TRADE, params, seed=7).text


def test_officetels_leave_the_apartment_rows_as_they_were() -> None:
    """The officetel part draws from its own streams: asking for officetels first changes no apartment byte."""
    query = {"serviceKey": DEFAULT_EMULATOR_KEY, "LAWD_CD": "11680", "DEAL_YMD": "202609", "numOfRows": "999"}
    apt = "/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade"
    alone = Emulator().handle("GET", apt, query, seed="11", clock=CLOCK).body
    emulator = Emulator()
    emulator.handle("GET", OFFI_TRADE, query, seed="11", clock=CLOCK)
    assert emulator.handle("GET", apt, query, seed="11", clock=CLOCK).body == alone


def test_officetel_errors_in_the_gateway_and_rtms_forms(base: str) -> None:
    no_key = xmltodict.parse(get(base + OFFI_TRADE, {"LAWD_CD": "11680", "DEAL_YMD": "202609"}).text)
    assert no_key["OpenAPI_ServiceResponse"]["cmmMsgHeader"]["returnReasonCode"] == "30"
    bad = rtms(base, OFFI_RENT, lawd_cd="1168")["response"]["header"]
    assert bad == {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"}
    missing = xmltodict.parse(
        get(base + OFFI_TRADE, {"serviceKey": DEFAULT_EMULATOR_KEY, "LAWD_CD": "11680"}).text
    )
    assert missing["response"]["header"]["resultCode"] == "11"


# --- Seoul CardBusStatisticsServiceNew (PublicDataReader "버스승하차") ---------------------------------

BUS_COLUMNS = [
    "USE_DT",
    "BUS_ROUTE_ID",
    "BUS_ROUTE_NO",
    "BUS_ROUTE_NM",
    "STND_BSST_ID",
    "BSST_ARS_NO",
    "BUS_STA_NM",
    "RIDE_PASGR_NUM",
    "ALIGHT_PASGR_NUM",
    "WORK_DT",
]


def bus(base: str, start: int, end: int, *filters: str, fmt: str = "xml", key: str = PATH_KEY) -> dict:
    path = "/".join([base, key, fmt, "CardBusStatisticsServiceNew", str(start), str(end), *filters])
    text = get(path).text
    return json.loads(text) if fmt == "json" else xmltodict.parse(text)


def test_bus_boardings_page_as_publicdatareader_pages_them(base: str) -> None:
    first = bus(base, 1, 1000, "20261010")["CardBusStatisticsServiceNew"]
    assert first["RESULT"]["CODE"] == "INFO-000"
    rows = first["row"]
    assert len(rows) == int(first["list_total_count"]) > 50
    for row in rows:
        assert list(row) == BUS_COLUMNS
        assert (row["USE_DT"], row["WORK_DT"]) == ("20261010", "20261013")
        assert row["BUS_ROUTE_NM"].startswith(row["BUS_ROUTE_NO"] + "번(")
        assert re.fullmatch(r"\d{9}", row["STND_BSST_ID"]) and re.fullmatch(r"\d{5}", row["BSST_ARS_NO"])
        assert row["RIDE_PASGR_NUM"].isdigit() and row["ALIGHT_PASGR_NUM"].isdigit()
    # The client asks for the next thousand until the code is not INFO-000.
    assert bus(base, 1001, 2000, "20261010")["RESULT"]["CODE"] == "INFO-200"


def test_bus_filters_and_stop_ids(base: str) -> None:
    route = bus(base, 1, 100, "20261010", "143", fmt="json")["CardBusStatisticsServiceNew"]["row"]
    assert route and {r["BUS_ROUTE_NO"] for r in route} == {"143"}
    stop = bus(base, 1, 100, "20261010", "", "서울역", fmt="json")["CardBusStatisticsServiceNew"]["row"]
    assert len({r["BUS_ROUTE_NO"] for r in stop}) >= 3
    assert (
        len({(r["STND_BSST_ID"], r["BSST_ARS_NO"]) for r in stop}) == 1
    )  # one stop, whichever route serves it
    other_day = bus(base, 1, 100, "20261011", "143", fmt="json")["CardBusStatisticsServiceNew"]["row"]
    assert [r["RIDE_PASGR_NUM"] for r in other_day] != [r["RIDE_PASGR_NUM"] for r in route]


def test_bus_errors_by_the_portals_codes(base: str) -> None:
    assert bus(base, 1, 5, "20261010", key="NOTAKEY")["RESULT"]["CODE"] == "INFO-100"
    assert bus(base, 1, 5, "20261014")["RESULT"]["CODE"] == "INFO-200"  # published three days after
    assert bus(base, 1, 5, "2026-10-10")["RESULT"]["CODE"] == "ERROR-300"
    assert bus(base, 1, 1001, "20261010")["RESULT"]["CODE"] == "ERROR-336"


# --- NEIS classInfo (neispy) -------------------------------------------------------------------

CLASS_FIELDS = [
    "ATPT_OFCDC_SC_CODE",
    "ATPT_OFCDC_SC_NM",
    "SD_SCHUL_CODE",
    "SCHUL_NM",
    "AY",
    "GRADE",
    "DGHT_CRSE_SC_NM",
    "SCHUL_CRSE_SC_NM",
    "ORD_SC_NM",
    "DDDEP_NM",
    "CLASS_NM",
    "LOAD_DTM",
]


def school_code(name: str) -> tuple[str, str]:
    from kopa_inspect.world.schools import SCHOOLS

    school = next(s for s in SCHOOLS if s.name == name)
    return school.atpt_code, school.code


def class_info(base: str, key: str = DEFAULT_EMULATOR_KEY, **params: str) -> dict:
    query = {"pIndex": "1", "pSize": "100", "type": "json", "KEY": key, **params}
    return json.loads(get(base + "/hub/classInfo", query).text)


def test_class_info_rows_are_what_neispy_builds(base: str) -> None:
    atpt, code = school_code("대치중학교")
    doc = class_info(base, ATPT_OFCDC_SC_CODE=atpt, SD_SCHUL_CODE=code, AY="2026")["classInfo"]
    head, rows = doc[0]["head"], doc[1]["row"]
    assert head[1]["RESULT"]["CODE"] == "INFO-000" and head[0]["list_total_count"] == len(rows)
    assert all(list(r) == CLASS_FIELDS for r in rows)
    assert {(r["SD_SCHUL_CODE"], r["AY"], r["SCHUL_CRSE_SC_NM"]) for r in rows} == {(code, "2026", "중학교")}
    for grade in ("1", "2", "3"):
        names = [r["CLASS_NM"] for r in rows if r["GRADE"] == grade]
        assert names == [str(n) for n in range(1, len(names) + 1)] and len(names) >= 3
    second = class_info(base, ATPT_OFCDC_SC_CODE=atpt, SD_SCHUL_CODE=code, AY="2026", GRADE="2")["classInfo"][
        1
    ]["row"]
    assert second == [r for r in rows if r["GRADE"] == "2"]


def test_class_info_years_and_kinds(base: str) -> None:
    atpt, code = school_code("대치중학교")
    rows = class_info(base, ATPT_OFCDC_SC_CODE=atpt, SD_SCHUL_CODE=code, pSize="1000")["classInfo"][1]["row"]
    assert {r["AY"] for r in rows} == {str(y) for y in range(2020, 2027)}
    atpt, code = school_code("서울대치초등학교")
    grades = {
        r["GRADE"]
        for r in class_info(base, ATPT_OFCDC_SC_CODE=atpt, SD_SCHUL_CODE=code, AY="2025")["classInfo"][1][
            "row"
        ]
    }
    assert grades == {"1", "2", "3", "4", "5", "6"}


def test_class_info_errors_by_the_portals_codes(base: str) -> None:
    atpt, code = school_code("대치중학교")
    assert (
        class_info(base, key="not-a-key", ATPT_OFCDC_SC_CODE=atpt, SD_SCHUL_CODE=code)["RESULT"]["CODE"]
        == "ERROR-290"
    )
    assert class_info(base, ATPT_OFCDC_SC_CODE=atpt)["RESULT"]["CODE"] == "ERROR-300"
    assert (
        class_info(base, ATPT_OFCDC_SC_CODE=atpt, SD_SCHUL_CODE=code, AY="2027")["RESULT"]["CODE"]
        == "INFO-200"
    )


# --- DART alotMatter and majorstock (OpenDartReader) -----------------------------------------------


def dart(base: str, name: str, **params: str) -> dict:
    return json.loads(get(f"{base}/api/{name}.json", {"crtfc_key": DEFAULT_EMULATOR_KEY, **params}).text)


def num(text: str) -> float:
    return float(text.replace(",", ""))


def test_dividends_as_opendartreader_reads_them(base: str) -> None:
    doc = dart(base, "alotMatter", corp_code=SAMSUNG, bsns_year="2025", reprt_code="11011")
    assert doc["status"] == "000"
    by_se = {r["se"]: r for r in doc["list"]}
    assert {
        "주당액면가액(원)",
        "(연결)당기순이익(백만원)",
        "현금배당금총액(백만원)",
        "(연결)현금배당성향(%)",
        "주당 현금배당금(원)",
    } <= set(by_se)
    for r in doc["list"]:
        assert (r["corp_code"], r["stlm_dt"]) == (SAMSUNG, "2025-12-31") and {
            "thstrm",
            "frmtrm",
            "lwfr",
        } <= set(r)
    assert (
        by_se["주당 현금배당금(원)"]["stock_knd"] == "보통주" and "stock_knd" not in by_se["주당액면가액(원)"]
    )
    # The report is the 사업보고서 whose accounts fnlttSinglAcnt serves: the same receipt number.
    accounts = dart(base, "fnlttSinglAcnt", corp_code=SAMSUNG, bsns_year="2025", reprt_code="11011")
    assert {r["rcept_no"] for r in doc["list"]} == {accounts["list"][0]["rcept_no"]}
    net = next(a for a in accounts["list"] if a["fs_div"] == "CFS" and a["account_nm"] == "당기순이익")
    assert num(by_se["(연결)당기순이익(백만원)"]["thstrm"]) == round(num(net["thstrm_amount"]) / 1e6)
    if by_se["현금배당금총액(백만원)"]["thstrm"] != "-":
        ratio = (
            num(by_se["현금배당금총액(백만원)"]["thstrm"])
            / num(by_se["(연결)당기순이익(백만원)"]["thstrm"])
            * 100
        )
        assert abs(ratio - num(by_se["(연결)현금배당성향(%)"]["thstrm"])) < 0.2


def test_large_holdings_as_opendartreader_reads_them(base: str) -> None:
    doc = dart(base, "majorstock", corp_code=SAMSUNG)
    assert doc["status"] == "000" and doc["list"]
    fields = {
        "rcept_no",
        "rcept_dt",
        "corp_code",
        "corp_name",
        "report_tp",
        "repror",
        "stkqy",
        "stkqy_irds",
        "stkrt",
        "stkrt_irds",
        "ctr_stkqy",
        "ctr_stkrt",
        "report_resn",
    }
    assert all(set(r) == fields for r in doc["list"])
    dates = [r["rcept_dt"] for r in doc["list"]]
    assert dates == sorted(dates, reverse=True) and dates[0] <= "2026-10-15"
    for holder in {r["repror"] for r in doc["list"]}:
        reports = [r for r in reversed(doc["list"]) if r["repror"] == holder]
        assert reports[0]["report_resn"] == "신규보고" and num(reports[0]["stkrt"]) >= 5
        for before, after in zip(reports, reports[1:], strict=False):
            assert abs(num(after["stkrt"]) - num(before["stkrt"]) - num(after["stkrt_irds"])) < 0.011


def test_dart_errors_by_the_guides_codes(base: str) -> None:
    bad_key = json.loads(
        get(f"{base}/api/majorstock.json", {"crtfc_key": "not-a-key", "corp_code": SAMSUNG}).text
    )
    assert bad_key == {"status": "010", "message": "등록되지 않은 키입니다."}
    assert (
        dart(base, "alotMatter", corp_code=SAMSUNG, bsns_year="2025", reprt_code="99999")["status"] == "100"
    )
    assert dart(base, "majorstock")["status"] == "100"
    # The 2026 사업보고서 is not filed at the clock.
    assert (
        dart(base, "alotMatter", corp_code=SAMSUNG, bsns_year="2026", reprt_code="11011")["status"] == "013"
    )


# --- ECOS: every curated getter of ecos-reader 0.7.0 ----------------------------------------------


def _months_back(n: int) -> str:
    y, m = 2026, 10 - n
    while m < 1:
        y, m = y - 1, m + 12
    return f"{y}{m:02d}"


M24, M36, Q5, D1 = (
    (_months_back(24), "202610"),
    (_months_back(36), "202610"),
    ("2021Q1", "2026Q4"),
    ("20251015", "20261015"),
)
# (getter, stat code, cycle, window, ITEM_CODE1/ITEM_CODE2 sent, the client's own filter on the rows).
GETTERS: list[tuple[str, str, str, tuple[str, str], tuple[str, ...], dict[str, str]]] = [
    ("get_base_rate", "722Y001", "M", M24, ("0101000",), {}),
    ("get_treasury_yield", "817Y002", "D", D1, ("010200000",), {}),
    ("get_yield_spread", "817Y002", "D", D1, ("010210000",), {}),
    ("get_bank_deposit_rate", "121Y002", "M", M24, ("BEABAA2",), {}),
    ("get_bank_lending_rate", "121Y006", "M", M24, ("BECBLA01",), {}),
    ("get_cpi", "901Y009", "M", M24, ("0",), {}),
    ("get_core_cpi", "901Y010", "M", M24, ("DB",), {}),
    ("get_ppi", "404Y014", "M", M24, ("*AA",), {}),
    ("get_cpi_monthly", "901Y009", "M", M24, (), {}),
    ("get_cpi_by_category", "901Y010", "M", M24, ("00",), {}),
    ("get_gdp", "200Y110", "Q", Q5, ("10601",), {}),
    ("get_gdp_deflator", "200Y112", "Q", Q5, ("10601",), {}),
    ("get_gdp_growth_rate", "902Y015", "Q", Q5, ("KOR",), {}),
    ("get_gdp_by_industry", "200Y104", "Q", Q5, (), {}),
    ("get_gdp_by_expenditure", "200Y108", "Q", Q5, (), {}),
    ("get_gdp_deflator_by_industry", "200Y111", "Q", Q5, (), {}),
    ("get_money_supply", "161Y008", "M", M36, ("BBGA00",), {}),
    ("get_bank_lending", "104Y016", "M", M36, ("BDCA1",), {}),
    ("get_m1_variants", "161Y003", "M", M36, ("BBKS00",), {}),
    ("get_m2_variants", "161Y007", "M", M36, ("BBGS00",), {}),
    ("get_m2_by_holder", "161Y012", "M", M36, (), {}),
    ("get_household_credit", "151Y001", "Q", Q5, ("1110000",), {}),
    ("get_household_lending_detail", "151Y005", "M", M36, (), {}),
    ("get_borrower_loan", "181Y002", "Q", Q5, (), {"ITEM_CODE1": "0000"}),
    ("get_fiscal_balance", "901Y013", "M", M24, ("A",), {}),
    ("get_stock_index", "802Y001", "D", D1, ("0001000",), {}),
    ("get_investor_trading", "901Y055", "M", M24, (), {"ITEM_CODE2": "VA", "ITEM_CODE1^": "S22C"}),
    ("get_bond_market", "901Y015", "M", M24, (), {"ITEM_CODE2": "2040000"}),
    ("get_industrial_production", "901Y033", "M", M24, ("A00", "1"), {}),
    ("get_facility_investment", "901Y066", "M", M24, ("I15A",), {}),
    ("get_composite_index", "901Y067", "M", M24, ("I16B",), {}),
    ("get_retail_sales", "901Y100", "M", M24, (), {"ITEM_CODE2": "T2"}),
    ("get_business_sentiment", "512Y014", "M", M24, ("99988", "BA"), {}),
    ("get_consumer_sentiment", "511Y002", "M", M24, ("FME",), {}),
    ("get_exchange_rate", "731Y001", "D", D1, ("0000001",), {}),
    ("get_balance_of_payments", "301Y013", "M", M24, ("000000",), {}),
    ("get_trade", "901Y118", "M", M24, ("T002",), {}),
]


def ecos(base: str, service: str, *tail: str, key: str = PATH_KEY, start: int = 1, end: int = 100000) -> dict:
    return json.loads(
        get("/".join([base, "api", service, key, "json", "kr", str(start), str(end), *tail])).text
    )


def test_the_getter_list_is_ecos_readers_curated_list() -> None:
    # ecos-reader 0.7.0's README table: 37 curated functions (get_indicator and get_series are generic).
    assert len(GETTERS) == len({g[0] for g in GETTERS}) == 37


@pytest.mark.parametrize(
    ("getter", "stat", "cycle", "window", "items", "keep"), GETTERS, ids=[g[0] for g in GETTERS]
)
def test_every_ecos_reader_getter_finds_rows(
    base: str,
    getter: str,
    stat: str,
    cycle: str,
    window: tuple[str, str],
    items: tuple[str, ...],
    keep: dict[str, str],
) -> None:
    doc = ecos(base, "StatisticSearch", stat, cycle, *window, *items)
    assert "StatisticSearch" in doc, f"{getter}: {doc}"
    rows = doc["StatisticSearch"]["row"]
    for field, want in keep.items():
        if field.endswith("^"):  # a prefix the getter keeps, less the prefix's own total row
            rows = [r for r in rows if r[field[:-1]].startswith(want) and r[field[:-1]] != want]
        else:
            rows = [r for r in rows if r[field] == want]
    assert rows, f"{getter} would come back empty"
    for r in rows:
        assert r["STAT_CODE"] == stat and window[0] <= r["TIME"] <= window[1]
        assert re.fullmatch(r"-?\d+(\.\d+)?", r["DATA_VALUE"]), r
        if items:
            assert r["ITEM_CODE1"] == items[0]


def test_ecos_coarser_cycles_combine_the_finest(base: str) -> None:
    def values(cycle: str, a: str, b: str) -> list[float]:
        return [
            float(r["DATA_VALUE"])
            for r in ecos(base, "StatisticSearch", "901Y010", cycle, a, b, "DB")["StatisticSearch"]["row"]
        ]

    months, quarter = values("M", "202501", "202503"), values("Q", "2025Q1", "2025Q1")
    assert len(months) == 3 and abs(sum(months) / 3 - quarter[0]) < 0.011  # an index averages
    flows = [
        float(r["DATA_VALUE"])
        for r in ecos(base, "StatisticSearch", "200Y110", "Q", "2024Q1", "2024Q4", "10601")[
            "StatisticSearch"
        ]["row"]
    ]
    year = float(
        ecos(base, "StatisticSearch", "200Y110", "A", "2024", "2024", "10601")["StatisticSearch"]["row"][0][
            "DATA_VALUE"
        ]
    )
    assert len(flows) == 4 and abs(sum(flows) - year) < 0.5  # a flow sums


def test_ecos_deposit_rates_follow_the_base_rate(base: str) -> None:
    def by_month(stat: str, item: str) -> dict[str, float]:
        rows = ecos(base, "StatisticSearch", stat, "M", "202201", "202608", item)["StatisticSearch"]["row"]
        return {r["TIME"]: float(r["DATA_VALUE"]) for r in rows}

    policy, deposit = by_month("722Y001", "0101000"), by_month("121Y002", "BEABAA2")
    assert set(deposit) == set(policy)
    assert all(-0.2 < deposit[m] - policy[m] < 1.6 for m in deposit)


def test_ecos_drawn_tables_list_their_items_and_cycles(base: str) -> None:
    listed = ecos(base, "StatisticTableList", "901Y100", end=10)["StatisticTableList"]["row"]
    assert [r["CYCLE"] for r in listed] == ["M", "Q", "A"] and all(r["SRCH_YN"] == "Y" for r in listed)
    items = ecos(base, "StatisticItemList", "901Y100")["StatisticItemList"]["row"]
    groups = {(r["GRP_CODE"], r["ITEM_CODE"]) for r in items if r["CYCLE"] == "M"}
    assert {("Group1", "G0"), ("Group2", "T2")} <= groups
    monthly = next(r for r in items if r["ITEM_CODE"] == "G0" and r["CYCLE"] == "M")
    assert (monthly["START_TIME"], monthly["END_TIME"]) == (
        "201501",
        "202608",
    )  # a month is out 30 days after it ends
    # The unfiltered listing stays the hand-built tables' (the benchmark's tasks browse it); a drawn
    # table is found by its code.
    assert {
        r["STAT_CODE"] for r in ecos(base, "StatisticTableList", end=100)["StatisticTableList"]["row"]
    } == {"0000000011", "0000000031", "0000000041", "722Y001", "817Y002", "731Y001", "901Y009"}


def test_ecos_errors_by_its_codes(base: str) -> None:
    assert ecos(base, "StatisticSearch", "901Y010", "M", "202401", "202412", "DB", key="NOTAKEY")["RESULT"][
        "CODE"
    ] == ("INFO-100")
    assert (
        ecos(base, "StatisticSearch", "901Y010", "M", "2024-01", "202412", "DB")["RESULT"]["CODE"]
        == "ERROR-101"
    )
    assert ecos(base, "StatisticSearch", "999Y999", "M", "202401", "202412")["RESULT"]["CODE"] == "INFO-200"
    assert (
        ecos(base, "StatisticSearch", "901Y010", "M", "202701", "202712", "DB")["RESULT"]["CODE"]
        == "INFO-200"
    )


def test_ecos_values_are_fixed_by_the_seed(base: str) -> None:
    url = "/".join(
        [
            base,
            "api",
            "StatisticSearch",
            PATH_KEY,
            "json",
            "kr",
            "1",
            "50",
            "802Y001",
            "D",
            "20260901",
            "20260930",
            "0001000",
        ]
    )
    assert get(url).text == get(url).text != get(url, seed=5).text
    weekdays = [d for d in range(1, 31) if date(2026, 9, d).weekday() < 5]
    assert [r["TIME"] for r in json.loads(get(url).text)["StatisticSearch"]["row"]] == [
        f"202609{d:02d}" for d in weekdays
    ]


# --- the same operations as tools (what a model calls) --------------------------------------------


async def test_the_operations_work_as_tools() -> None:
    from kopa_inspect.backends import make_backend
    from kopa_inspect.execution import Session

    atpt, code = school_code("대치중학교")
    session = Session(make_backend(), clock=CLOCK)
    calls = {
        "molit_getRTMSDataSvcOffiTrade": {"LAWD_CD": "11680", "DEAL_YMD": "202609", "numOfRows": 5},
        "molit_getRTMSDataSvcOffiRent": {"LAWD_CD": "11680", "DEAL_YMD": "202609", "numOfRows": 5},
        "seoul_CardBusStatisticsServiceNew": {"START_INDEX": 1, "END_INDEX": 5, "USE_DT": "20261010"},
        "neis_classInfo": {
            "KEY": session.issue_token("neis"),
            "ATPT_OFCDC_SC_CODE": atpt,
            "SD_SCHUL_CODE": code,
            "AY": "2026",
        },
        "dart_alotMatter": {"corp_code": SAMSUNG, "bsns_year": "2025", "reprt_code": "11011"},
        "dart_majorstock": {"corp_code": SAMSUNG},
        "ecos_StatisticSearch": {
            "lang": "kr",
            "start": 1,
            "end": 10,
            "STAT_CODE": "200Y110",
            "CYCLE": "Q",
            "START_TIME": "2025Q1",
            "END_TIME": "2025Q4",
            "ITEM_CODE1": "10601",
        },
    }
    try:
        for tool, args in calls.items():
            res = await session.call(tool, args)
            assert res.ok and res.parsed.items, (tool, res.parsed.code, res.parsed.message)
    finally:
        await session.backend.aclose()
