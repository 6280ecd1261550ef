"""Two small emulated platforms for EDGE tests (test-only; not in the product registry).

They are registered into the API registry by the ``toy_registry`` context manager for the
duration of a test module, so the tests exercise the real emulator, backend, Session and plans.
They include one *planted wrong link*: ``edgetoy_getTrades.sggCd`` (a 5-digit 법정동 시군구 code)
and ``edgehealth_getClinics.sgguCd`` (a 5-digit code of a *different* code system) match by value
format and type, so the candidate graph proposes the link; executing it always gives NODATA.
The field-meaning check rejects it before execution (a 법정동 code is no HIRA code).

A second planted link is *meaningful by name but not a dependence*: ``edgetoy_getNotices`` takes a
``sidoName`` and ignores it (the same notices whatever it is given), so ``getRegions.sidoName ->
getNotices.sidoName`` returns rows every time; only the counterfactual (another sidoName, the same
rows) shows the consumer does not depend on the value.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from edge_synth.askable import ASKABLE, Askable
from edge_synth.natural import DETAIL_OF_ROW, PLACE_ROWS, USER_NOUNS
from kopa_inspect import apis
from kopa_inspect.apis._envelope import DataGoKrEnvelope
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform

ENV = DataGoKrEnvelope()

REGIONS = [
    {"region_cd": "1111000000", "regionNm": "서울특별시 종로구", "nx": 60, "ny": 127, "sidoName": "서울"},
    {"region_cd": "1168000000", "regionNm": "서울특별시 강남구", "nx": 61, "ny": 125, "sidoName": "서울"},
    {"region_cd": "2635000000", "regionNm": "부산광역시 해운대구", "nx": 99, "ny": 75, "sidoName": "부산"},
    {"region_cd": "3017000000", "regionNm": "대전광역시 서구", "nx": 67, "ny": 100, "sidoName": "대전"},
    {"region_cd": "4113500000", "regionNm": "경기도 성남시 분당구", "nx": 62, "ny": 123, "sidoName": "경기"},
]
STATIONS = {
    "서울": ["종로구", "강남구", "중구"],
    "부산": ["해운대", "광복동"],
    "대전": ["둔산동"],
    "경기": ["정자동", "수내동"],
}
CLINIC_CODES = {"31001": ["가나의원", "다라내과"], "31002": ["마바소아과"]}  # not 법정동 codes


def _h(*parts: object) -> int:
    return sum((i + 1) * ord(c) for i, c in enumerate("|".join(map(str, parts))))


def get_regions(world, args):
    name = args.get("regionNm")
    return [dict(r) for r in REGIONS if not name or name in r["regionNm"]]


def get_trades(world, args):
    lawd, ym = args["LAWD_CD"], args["DEAL_YMD"]
    if not any(r["region_cd"].startswith(lawd) for r in REGIONS):
        raise ApiError("nodata")
    n = 3 + _h(lawd, ym, world.seed) % 4
    return [
        {
            "aptNm": f"아파트{_h(lawd, i) % 97}",
            "dealAmount": str(50000 + _h(lawd, ym, i) % 90000),
            "sggCd": lawd,
            "dealYear": ym[:4],
            "dealMonth": str(int(ym[4:])),
        }
        for i in range(n)
    ]


def get_forecast(world, args):
    nx, ny = int(args["nx"]), int(args["ny"])
    if not any(r["nx"] == nx and r["ny"] == ny for r in REGIONS):
        raise ApiError("nodata")
    return [
        {
            "category": cat,
            "fcstDate": args["base_date"],
            "fcstValue": str(_h(nx, ny, cat, args["base_date"]) % 30),
        }
        for cat in ("TMP", "POP", "REH")
    ]


def get_stations(world, args):
    sido = args["sidoName"]
    if sido not in STATIONS:
        raise ApiError("nodata")
    return [{"stationName": s, "addr": f"{sido} {s}"} for s in STATIONS[sido]]


def get_measure(world, args):
    name = args["stationName"]
    if not any(name in v for v in STATIONS.values()):
        raise ApiError("nodata")
    return [
        {
            "stationName": name,
            "pm10Value": str(10 + _h(name, world.seed) % 60),
            "pm25Value": str(5 + _h(name, 2) % 30),
        }
    ]


def get_clinics(world, args):
    code = args["sgguCd"]
    if code not in CLINIC_CODES:
        raise ApiError("nodata")
    return [{"yadmNm": n, "ykiho": f"JDQ{_h(n) % 100000:05d}", "sgguCd": code} for n in CLINIC_CODES[code]]


def get_clinic_detail(world, args):
    ykiho = args["ykiho"]
    names = [n for v in CLINIC_CODES.values() for n in v if f"JDQ{_h(n) % 100000:05d}" == ykiho]
    if not names:
        raise ApiError("nodata")
    return [{"yadmNm": names[0], "drTotCnt": str(1 + _h(ykiho) % 9), "ykiho": ykiho}]


NOTICES = [
    {"noticeTitle": "도로 공사 안내", "noticeNo": "N-1"},
    {"noticeTitle": "전기 점검 안내", "noticeNo": "N-2"},
]


def get_notices(world, args):
    return [dict(n) for n in NOTICES]  # sidoName is accepted and ignored


def _op(platform, name, summary, params, handler, fields):
    return Operation(
        platform=platform,
        name=name,
        path=f"/{platform}/{name}",
        summary=summary,
        params=params,
        handler=handler,
        output_fields=fields,
    )


TOY = Platform(
    id="edgetoy",
    name="EDGE 시험 플랫폼 (EDGE test platform)",
    domain="district",
    live_base_url="http://127.0.0.1:9",
    envelope=ENV,
)
HEALTH = Platform(
    id="edgehealth",
    name="EDGE 시험 의료 (EDGE test health)",
    domain="health",
    live_base_url="http://127.0.0.1:9",
    envelope=ENV,
)

OPERATIONS = [
    _op(
        "edgetoy",
        "getRegions",
        "법정동 지역 목록 (list legal-dong regions with codes and grid)",
        [Param("regionNm", "지역 이름 (region name)")],
        get_regions,
        {
            "region_cd": "법정동코드 10자리 (10-digit legal-dong code)",
            "regionNm": "지역명 (region name)",
            "nx": "예보 격자 X (grid x)",
            "ny": "예보 격자 Y (grid y)",
            "sidoName": "시도명 (province short name)",
        },
    ),
    _op(
        "edgetoy",
        "getTrades",
        "아파트 매매 실거래가 (apartment trades by district and month)",
        [
            Param("LAWD_CD", "지역코드 5자리 (5-digit district code)", required=True, pattern=r"\d{5}"),
            Param("DEAL_YMD", "계약년월 YYYYMM (deal year-month)", required=True, pattern=r"\d{6}"),
        ],
        get_trades,
        {
            "aptNm": "아파트 이름 (apartment name)",
            "dealAmount": "거래금액 만원 (price, 10k KRW)",
            "sggCd": "시군구코드 5자리 (5-digit district code)",
            "dealYear": "계약년도 (year)",
            "dealMonth": "계약월 (month)",
        },
    ),
    _op(
        "edgetoy",
        "getForecast",
        "단기예보 조회 (short-term forecast at a grid point)",
        [
            Param("nx", "예보 격자 X (grid x)", type="integer", required=True),
            Param("ny", "예보 격자 Y (grid y)", type="integer", required=True),
            Param("base_date", "발표일자 YYYYMMDD (base date)", required=True, pattern=r"\d{8}"),
        ],
        get_forecast,
        {
            "category": "자료구분 (category)",
            "fcstDate": "예보일자 (forecast date)",
            "fcstValue": "예보값 (value)",
        },
    ),
    _op(
        "edgetoy",
        "getStations",
        "시도별 측정소 목록 (air stations in a province)",
        [Param("sidoName", "시도 이름 (province short name)", required=True)],
        get_stations,
        {"stationName": "측정소 이름 (station name)", "addr": "주소 (address)"},
    ),
    _op(
        "edgetoy",
        "getMeasure",
        "측정소별 실시간 대기질 (real-time air quality at a station)",
        [Param("stationName", "측정소 이름 (station name)", required=True)],
        get_measure,
        {
            "stationName": "측정소 이름 (station name)",
            "pm10Value": "미세먼지 농도 (PM10)",
            "pm25Value": "초미세먼지 농도 (PM2.5)",
        },
    ),
    _op(
        "edgehealth",
        "getClinics",
        "의원 목록 (clinics in a HIRA district)",
        [
            Param(
                "sgguCd",
                "시군구코드 5자리 (5-digit district code, HIRA system)",
                required=True,
                pattern=r"\d{5}",
            )
        ],
        get_clinics,
        {
            "yadmNm": "요양기관명 (clinic name)",
            "ykiho": "암호화 요양기호 (clinic id)",
            "sgguCd": "시군구코드 (district code)",
        },
    ),
    _op(
        "edgehealth",
        "getClinicDetail",
        "의원 상세 (clinic details by id)",
        [Param("ykiho", "암호화 요양기호 (clinic id)", required=True)],
        get_clinic_detail,
        {
            "yadmNm": "요양기관명 (clinic name)",
            "drTotCnt": "의사 수 (number of doctors)",
            "ykiho": "요양기호 (clinic id)",
        },
    ),
]

OPERATIONS.append(
    _op(
        "edgetoy",
        "getNotices",
        "시도 공지 목록 (notices of a province)",
        [Param("sidoName", "시도 이름 (province short name)", required=True)],
        get_notices,
        {"noticeTitle": "공지 제목 (notice title)", "noticeNo": "공지 번호 (notice number)"},
    )
)

# What a person asks of the toy results (edge_synth.askable's table for the toy operations):
# registered with the toy platforms, removed with them.
TOY_ASKABLE = {
    "edgetoy_getRegions": Askable({}, "a region -> code/grid lookup: nothing to ask"),
    "edgetoy_getTrades": Askable({"aptNm": "아파트 이름", "dealAmount": "거래금액"}, "a sale", name="aptNm"),
    "edgetoy_getForecast": Askable({}, "per-category rows"),
    "edgetoy_getStations": Askable(
        {"stationName": "측정소 이름", "addr": "주소"}, "a station", name="stationName"
    ),
    "edgetoy_getMeasure": Askable(
        {"pm10Value": "미세먼지 농도", "pm25Value": "초미세먼지 농도"},
        "a station's figures",
        name="stationName",
    ),
    "edgehealth_getClinics": Askable({"yadmNm": "의원 이름"}, "a clinic", name="yadmNm"),
    "edgehealth_getClinicDetail": Askable({"drTotCnt": "의사 수"}, "a clinic's doctors", name="yadmNm"),
    "edgetoy_getNotices": Askable({"noticeTitle": "공지 제목"}, "a notice", name="noticeTitle"),
}

# What a person calls each toy result and one of its rows (edge_synth.natural.USER_NOUNS, which names
# every real operation the sampler reaches): without them the grammar falls back to the specs'
# summaries ("측정소별 실시간 대기질", "시도별 측정소"), dataset names the fluency check drops.
TOY_USER_NOUNS = {
    "edgetoy_getRegions": ("지역", "지역"),
    "edgetoy_getTrades": ("아파트 매매 거래", "거래"),
    "edgetoy_getForecast": ("단기 날씨 예보", "예보"),
    "edgetoy_getStations": ("대기 측정소", "측정소"),
    "edgetoy_getMeasure": ("실시간 대기질", "측정소"),
    "edgehealth_getClinics": ("의원", "의원"),
    "edgehealth_getClinicDetail": ("의원 정보", "의원"),
    "edgetoy_getNotices": ("공지", "공지"),
}
# As their real counterparts are: a region table looked up by name is that place (the grid table,
# kma_getGridPointList), and a station's one row of figures is more about that station ("'중구'의
# 실시간 미세먼지 농도", as seoul_RealtimeCityAir).
TOY_PLACE_ROWS = {"edgetoy_getRegions"}
TOY_DETAIL_OF_ROW = {"edgetoy_getMeasure": "실시간"}

PLANTED_WRONG = ("edgetoy_getTrades", "sggCd", "edgehealth_getClinics", "sgguCd")
PLANTED_INSENSITIVE = ("edgetoy_getRegions", "sidoName", "edgetoy_getNotices", "sidoName")


@contextlib.contextmanager
def toy_registry(exclusive: bool = True) -> Iterator[dict[str, Operation]]:
    """Put the toy platforms into the registry (alone, if ``exclusive``) and restore it afterwards."""
    plats, ops = apis._load()
    saved_p, saved_o = dict(plats), dict(ops)
    if exclusive:
        plats.clear()
        ops.clear()
    plats[TOY.id] = TOY
    plats[HEALTH.id] = HEALTH
    toy_ops = {op.id: op for op in OPERATIONS}
    ops.update(toy_ops)
    saved_a = dict(ASKABLE)
    ASKABLE.update(TOY_ASKABLE)
    saved_n, saved_d, saved_r = dict(USER_NOUNS), dict(DETAIL_OF_ROW), set(PLACE_ROWS)
    USER_NOUNS.update(TOY_USER_NOUNS)
    DETAIL_OF_ROW.update(TOY_DETAIL_OF_ROW)
    PLACE_ROWS.update(TOY_PLACE_ROWS)
    try:
        yield toy_ops
    finally:
        ASKABLE.clear()
        ASKABLE.update(saved_a)
        USER_NOUNS.clear()
        USER_NOUNS.update(saved_n)
        DETAIL_OF_ROW.clear()
        DETAIL_OF_ROW.update(saved_d)
        PLACE_ROWS.clear()
        PLACE_ROWS.update(saved_r)
        plats.clear()
        plats.update(saved_p)
        ops.clear()
        ops.update(saved_o)
