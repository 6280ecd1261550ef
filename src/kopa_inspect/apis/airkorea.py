"""한국환경공단 에어코리아: 대기오염정보 (ArpltnInforInqireSvc) and 측정소정보 (MsrstnInfoInqireSvc).

Contract: the provider's published API guide Operations: 시도별 실시간 측정정보
getCtprvnRltmMesureDnsty (sidoName), 측정소별 실시간 측정정보 getMsrstnAcctoRltmMesureDnsty
(stationName, dataTerm, ver), TM 기준좌표 getTMStdrCrdnt (umdName), 근접측정소 getNearbyMsrstnList
(tmX, tmY) — the real chain 읍면동 -> TM -> nearest station -> measurements.

Quirks reproduced: ``returnType=json`` (default XML); OK is ``00`` / ``NORMAL_CODE``; JSON puts
``body`` before ``header`` and ``body.items`` is a bare list (``""`` when empty, with resultCode
00 — an unknown station is not an error); every measured value is a string, ``"-"`` when the
instrument failed, with the grade null and a ``*Flag`` text; dataTime "YYYY-MM-DD HH:MM" where
midnight is "24:00" of the previous day; the nearby list comes sorted by distance with ``tm`` in km.

TM coordinates: EPSG:2097-like "TM 중부원점" on the Bessel ellipsoid (lat0 38°, lon0 127°, k 1,
false easting 200 000 m, northing 500 000 m). We project ourselves, without pyproj: WGS84 ->
Tokyo/Bessel datum by the inverse of EPSG:2097's 7-parameter towgs84 (position-vector Helmert,
small-angle form), then the Transverse Mercator series of Snyder (USGS PP 1395, eq. 8-9..8-10).
Series error is far below a metre within Korea; the datum shift matters (~300-400 m).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from kopa_inspect.apis._envelope import (
    JSON_CT,
    XML_CT,
    DataGoKrEnvelope,
    Format,
    HttpResponse,
    Page,
    dumps_json,
    dumps_xml,
    rows_for_xml,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.world import World
from kopa_inspect.world.air import SIDO_ORDER, AirModel, Station, latest_hour, station_by_name, stations
from kopa_inspect.world.regions import umds

# --- TM 중부원점 (Bessel) projection ---------------------------------------------------------

_WGS_A, _WGS_F = 6378137.0, 1 / 298.257223563
_BES_A, _BES_F = 6377397.155, 1 / 299.1528128
# EPSG:2097 +towgs84 (Bessel -> WGS84, position vector): metres, arc-seconds, ppm.
_TOWGS84 = (-145.907, 505.034, 685.756, -1.162, 2.347, 1.592, 6.342)
TM_LAT0, TM_LON0, TM_FE, TM_FN, TM_K0 = 38.0, 127.0, 200000.0, 500000.0, 1.0


def _to_ecef(lat: float, lon: float, a: float, f: float) -> tuple[float, float, float]:
    e2 = f * (2 - f)
    p, lam = math.radians(lat), math.radians(lon)
    n = a / math.sqrt(1 - e2 * math.sin(p) ** 2)
    return n * math.cos(p) * math.cos(lam), n * math.cos(p) * math.sin(lam), n * (1 - e2) * math.sin(p)


def _from_ecef(x: float, y: float, z: float, a: float, f: float) -> tuple[float, float]:
    e2 = f * (2 - f)
    lon = math.atan2(y, x)
    p = math.hypot(x, y)
    lat = math.atan2(z, p * (1 - e2))
    for _ in range(6):  # converges to < 1e-12 rad in a few steps
        n = a / math.sqrt(1 - e2 * math.sin(lat) ** 2)
        h = p / math.cos(lat) - n
        lat = math.atan2(z, p * (1 - e2 * n / (n + h)))
    return math.degrees(lat), math.degrees(lon)


def wgs84_to_bessel(lat: float, lon: float) -> tuple[float, float]:
    """WGS84 lat/lon -> Tokyo datum (Bessel) lat/lon, inverse of EPSG:2097's towgs84."""
    xw, yw, zw = _to_ecef(lat, lon, _WGS_A, _WGS_F)
    dx, dy, dz, rx, ry, rz, ds = _TOWGS84
    sec = math.pi / (180 * 3600)
    rx, ry, rz, s = rx * sec, ry * sec, rz * sec, ds * 1e-6
    vx, vy, vz = xw - dx, yw - dy, zw - dz
    # X_w = T + (1+s) R X_b with R = [[1,-rz,ry],[rz,1,-rx],[-ry,rx,1]]; R^-1 ≈ R^T for tiny angles.
    xb = (vx + rz * vy - ry * vz) / (1 + s)
    yb = (-rz * vx + vy + rx * vz) / (1 + s)
    zb = (ry * vx - rx * vy + vz) / (1 + s)
    return _from_ecef(xb, yb, zb, _BES_A, _BES_F)


def _meridian(phi: float, a: float, e2: float) -> float:
    e4, e6 = e2 * e2, e2 * e2 * e2
    return a * (
        (1 - e2 / 4 - 3 * e4 / 64 - 5 * e6 / 256) * phi
        - (3 * e2 / 8 + 3 * e4 / 32 + 45 * e6 / 1024) * math.sin(2 * phi)
        + (15 * e4 / 256 + 45 * e6 / 1024) * math.sin(4 * phi)
        - (35 * e6 / 3072) * math.sin(6 * phi)
    )


def wgs84_to_tm(lat: float, lon: float) -> tuple[float, float]:
    """WGS84 lat/lon (degrees) -> AirKorea TM (tmX, tmY) in metres."""
    blat, blon = wgs84_to_bessel(lat, lon)
    a, f = _BES_A, _BES_F
    e2 = f * (2 - f)
    ep2 = e2 / (1 - e2)
    phi = math.radians(blat)
    n = a / math.sqrt(1 - e2 * math.sin(phi) ** 2)
    t = math.tan(phi) ** 2
    c = ep2 * math.cos(phi) ** 2
    aa = math.radians(blon - TM_LON0) * math.cos(phi)
    m, m0 = _meridian(phi, a, e2), _meridian(math.radians(TM_LAT0), a, e2)
    x = TM_FE + TM_K0 * n * (
        aa + (1 - t + c) * aa**3 / 6 + (5 - 18 * t + t * t + 72 * c - 58 * ep2) * aa**5 / 120
    )
    y = TM_FN + TM_K0 * (
        m
        - m0
        + n
        * math.tan(phi)
        * (
            aa**2 / 2
            + (5 - t + 9 * c + 4 * c * c) * aa**4 / 24
            + (61 - 58 * t + t * t + 600 * c - 330 * ep2) * aa**6 / 720
        )
    )
    return x, y


# --- envelope ------------------------------------------------------------------------------


class AirKoreaEnvelope(DataGoKrEnvelope):
    """AirKorea's JSON: ``{"response":{"body":{"totalCount","items":[...],"pageNo","numOfRows"},
    "header":{"resultMsg","resultCode"}}}`` in exactly that key order (recorded bodies)."""

    def __init__(self) -> None:
        super().__init__(
            ok_msg="NORMAL_CODE",
            format_param="returnType",
            json_value="json",
            items_style="list",
            body_first=True,
            empty="empty_string",
        )

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if fmt == "xml":
            header = {"resultCode": self.ok_code, "resultMsg": self.ok_msg}
            body: dict[str, Any] = {
                "items": {"item": rows_for_xml(page.rows)} if page.rows else None,
                "numOfRows": str(page.num_rows),
                "pageNo": str(page.page_no),
                "totalCount": str(page.total),
            }
            return HttpResponse(200, XML_CT, dumps_xml({"response": {"header": header, "body": body}}))
        body = {
            "totalCount": page.total,
            "items": list(page.rows) if page.rows else "",
            "pageNo": page.page_no,
            "numOfRows": page.num_rows,
        }
        doc = {"response": {"body": body, "header": {"resultMsg": self.ok_msg, "resultCode": self.ok_code}}}
        return HttpResponse(200, JSON_CT, dumps_json(doc))


PLATFORM = Platform(
    id="airkorea",
    name="한국환경공단 에어코리아 (AirKorea air quality)",
    domain="environment",
    live_base_url="http://apis.data.go.kr",
    envelope=AirKoreaEnvelope(),
    description="측정소별·시도별 실시간 대기오염 측정정보와 측정소 검색(TM 좌표, 근접측정소) "
    "(real-time air quality by station or province; station lookup by TM coordinates).",
)

ARPLTN = "/B552584/ArpltnInforInqireSvc"
MSRSTN = "/B552584/MsrstnInfoInqireSvc"

# --- grades (통합대기환경지수 CAI breakpoints, 에어코리아) -----------------------------------------

_BREAKS: dict[str, tuple[float, float, float, float]] = {
    # good upper, normal upper, bad upper, scale max
    "so2": (0.02, 0.05, 0.15, 1.0),
    "co": (2.0, 9.0, 15.0, 50.0),
    "o3": (0.03, 0.09, 0.15, 0.6),
    "no2": (0.03, 0.06, 0.2, 2.0),
    "pm10": (30, 80, 150, 600),
    "pm25": (15, 35, 75, 500),
}
_INDEX = (0, 50, 100, 250, 500)


def grade(pollutant: str, value: float | None) -> int | None:
    """1 좋음, 2 보통, 3 나쁨, 4 매우나쁨."""
    if value is None:
        return None
    b = _BREAKS[pollutant]
    return 1 if value <= b[0] else 2 if value <= b[1] else 3 if value <= b[2] else 4


def cai(pollutant: str, value: float | None) -> float | None:
    """Sub-index of 통합대기환경지수: piecewise linear between the grade breakpoints."""
    if value is None:
        return None
    lo_c = 0.0
    for i, hi_c in enumerate(_BREAKS[pollutant]):
        if value <= hi_c or i == 3:
            lo_i, hi_i = _INDEX[i], _INDEX[i + 1]
            frac = 0.0 if hi_c == lo_c else (min(value, hi_c) - lo_c) / (hi_c - lo_c)
            return lo_i + frac * (hi_i - lo_i)
        lo_c = hi_c
    return None  # pragma: no cover


def data_time(hour: datetime) -> str:
    """AirKorea's dataTime: midnight is "24:00" of the previous day."""
    if hour.hour == 0:
        return (hour - timedelta(days=1)).strftime("%Y-%m-%d") + " 24:00"
    return hour.strftime("%Y-%m-%d %H:00")


_FMT = {"so2": "{:.3f}", "co": "{:.1f}", "o3": "{:.3f}", "no2": "{:.3f}", "pm10": "{:.0f}", "pm25": "{:.0f}"}


def _val(p: str, v: float | None) -> str:
    return "-" if v is None else _FMT[p].format(v)


def _grade_str(g: int | None) -> str | None:
    return None if g is None else str(g)


def _ver(args: dict[str, Any]) -> float:
    raw = args.get("ver")
    if raw is None:
        return 0.0
    try:
        return float(raw)
    except ValueError:
        raise ApiError("invalid_param", param="ver") from None


def measurement_row(
    model: AirModel, s: Station, hour: datetime, ver: float, with_station: bool
) -> dict[str, Any]:
    """One hour of one station, fields gated by ``ver`` as the 활용가이드 describes.

    ver 1.0 adds PM2.5, 1.1 the 24-hour moving averages, 1.2 mangName, 1.3 the 1-hour PM
    grades (UNCERTAIN: 1.3 also adds stationName/sidoName to the per-station operation, as a
    recorded fixture shows).
    """
    r = model.reading(s.name, hour)
    v = r.values
    pm10_24, pm25_24 = model.mean24(s.name, hour, "pm10"), model.mean24(s.name, hour, "pm25")
    subs = [cai(p, v[p]) for p in ("so2", "co", "o3", "no2")] + [cai("pm10", pm10_24)]
    if ver >= 1.0:
        subs.append(cai("pm25", pm25_24))
    known = [x for x in subs if x is not None]
    khai = round(max(known)) if known else None
    khai_grade = (
        None if khai is None else (1 if khai <= 50 else 2 if khai <= 100 else 3 if khai <= 250 else 4)
    )
    row: dict[str, Any] = {}
    if with_station or ver >= 1.3:
        row["stationName"] = s.name
    if ver >= 1.2:
        row["mangName"] = s.mang
    if with_station or ver >= 1.3:
        row["sidoName"] = s.sido
    row["dataTime"] = data_time(hour)
    row["so2Value"] = _val("so2", v["so2"])
    row["coValue"] = _val("co", v["co"])
    row["o3Value"] = _val("o3", v["o3"])
    row["no2Value"] = _val("no2", v["no2"])
    row["pm10Value"] = _val("pm10", v["pm10"])
    if ver >= 1.1:
        row["pm10Value24"] = _val("pm10", pm10_24)
    if ver >= 1.0:
        row["pm25Value"] = _val("pm25", v["pm25"])
    if ver >= 1.1:
        row["pm25Value24"] = _val("pm25", pm25_24)
    row["khaiValue"] = "-" if khai is None else str(khai)
    row["khaiGrade"] = _grade_str(khai_grade)
    row["so2Grade"] = _grade_str(grade("so2", v["so2"]))
    row["coGrade"] = _grade_str(grade("co", v["co"]))
    row["o3Grade"] = _grade_str(grade("o3", v["o3"]))
    row["no2Grade"] = _grade_str(grade("no2", v["no2"]))
    row["pm10Grade"] = _grade_str(grade("pm10", pm10_24))
    if ver >= 1.0:
        row["pm25Grade"] = _grade_str(grade("pm25", pm25_24))
    if ver >= 1.3:
        row["pm10Grade1h"] = _grade_str(grade("pm10", v["pm10"]))
        row["pm25Grade1h"] = _grade_str(grade("pm25", v["pm25"]))
    for p in ("so2", "co", "o3", "no2", "pm10") + (("pm25",) if ver >= 1.0 else ()):
        row[f"{p}Flag"] = r.flags[p]
    return row


# --- handlers ------------------------------------------------------------------------------


def _air(world: World) -> AirModel:
    return world.part("air")


def _ctprvn(world: World, args: dict[str, Any]) -> Rows:
    sido = args["sidoName"]
    ver = _ver(args)
    picked = [s for s in stations() if sido == "전국" or s.sido == sido]
    if sido == "전국":
        order = {name: i for i, name in enumerate(SIDO_ORDER)}
        picked.sort(key=lambda s: order.get(s.sido, 99))
    # UNCERTAIN: an unknown sidoName gives an empty list (00), not an error.
    hour = latest_hour(world.clock)
    model = _air(world)
    return [measurement_row(model, s, hour, ver, with_station=True) for s in picked]


_TERMS = {"DAILY": 24, "MONTH": 24 * 30, "3MONTH": 24 * 90}


def _station_rt(world: World, args: dict[str, Any]) -> Rows:
    term = str(args["dataTerm"]).upper()
    if term not in _TERMS:
        raise ApiError("invalid_param", param="dataTerm")
    ver = _ver(args)
    s = station_by_name().get(args["stationName"])
    if s is None:
        return []  # unknown station: 00 with empty items, as the real service
    hour = latest_hour(world.clock)
    model = _air(world)
    return [
        measurement_row(model, s, hour - timedelta(hours=i), ver, with_station=False)
        for i in range(_TERMS[term])
    ]


def _umd_points() -> list[tuple[str, str, str, float, float]]:
    """(sidoName full, sggName, umdName, lat, lon): regions' 법정동 plus the station 동 names."""
    seen: dict[tuple[str, str, str], tuple[str, str, str, float, float]] = {}
    for r in umds():
        seen.setdefault(
            (r.sido_name, r.sgg_name, r.umd_name), (r.sido_name, r.sgg_name, r.umd_name, r.lat, r.lon)
        )
    for s in stations():
        name = s.name.split("(")[0]
        if name.endswith(("동", "읍", "면", "리", "가")) and s.sgg != name:
            seen.setdefault((s.sido_full, s.sgg, name), (s.sido_full, s.sgg, name, s.lat, s.lon))
    return sorted(seen.values(), key=lambda t: (t[0], t[1], t[2]))


def _tm_std(world: World, args: dict[str, Any]) -> Rows:
    needle = "".join(str(args["umdName"]).split())
    rows: Rows = []
    for sido, sgg, umd, lat, lon in _umd_points():
        if needle and needle in umd:
            x, y = wgs84_to_tm(lat, lon)
            # UNCERTAIN: decimals of tmX/tmY (6 here; a note shows 2).
            rows.append(
                {"sidoName": sido, "sggName": sgg, "umdName": umd, "tmX": f"{x:.6f}", "tmY": f"{y:.6f}"}
            )
    return rows


NEARBY_COUNT = 3


def _nearby(world: World, args: dict[str, Any]) -> Rows:
    x, y = float(args["tmX"]), float(args["tmY"])
    ranked = []
    for s in stations():
        sx, sy = wgs84_to_tm(s.lat, s.lon)
        ranked.append((math.hypot(sx - x, sy - y) / 1000.0, s.name, s))
    ranked.sort(key=lambda t: (t[0], t[1]))
    return [{"stationName": s.name, "addr": s.addr, "tm": f"{d:.1f}"} for d, _, s in ranked[:NEARBY_COUNT]]


# --- operations ----------------------------------------------------------------------------


def _common() -> list[Param]:
    return [
        Param("serviceKey", "공공데이터포털 인증키 (service key)", required=True, hidden=True),
        Param("returnType", "응답 형식 xml/json (response format)", hidden=True),
        Param("numOfRows", "한 페이지 결과 수, 기본 10 (rows per page)", type="integer"),
        Param("pageNo", "페이지 번호, 기본 1 (page number)", type="integer"),
    ]


_VER = Param(
    "ver",
    "오퍼레이션 버전 1.0~1.5, 1.3 이상이면 1시간 등급 포함 (version; >=1.3 adds 1-hour grades)",
    pattern=r"1\.[0-5]",
)

_MEASURE_FIELDS = {
    "stationName": "측정소명 (station name)",
    "sidoName": "시도명 (province short name)",
    "mangName": "측정망 정보: 도시대기/도로변대기/교외대기/국가배경농도/항만 (network type)",
    "dataTime": "측정일시 YYYY-MM-DD HH:MM, 자정은 24:00 (measurement time)",
    "so2Value": "아황산가스 농도 ppm (SO2)",
    "coValue": "일산화탄소 농도 ppm (CO)",
    "o3Value": "오존 농도 ppm (O3)",
    "no2Value": "이산화질소 농도 ppm (NO2)",
    "pm10Value": "미세먼지 PM10 농도 ㎍/㎥ (PM10)",
    "pm10Value24": "미세먼지 24시간 예측이동농도 (PM10 24 h average)",
    "pm25Value": "초미세먼지 PM2.5 농도 ㎍/㎥ (PM2.5)",
    "pm25Value24": "초미세먼지 24시간 예측이동농도 (PM2.5 24 h average)",
    "khaiValue": "통합대기환경수치 (comprehensive air-quality index)",
    "khaiGrade": "통합대기환경지수 등급 1좋음/2보통/3나쁨/4매우나쁨 (CAI grade)",
    "pm10Grade": "미세먼지 24시간 등급 (PM10 grade)",
    "pm25Grade": "초미세먼지 24시간 등급 (PM2.5 grade)",
    "pm10Grade1h": "미세먼지 1시간 등급 (PM10 1 h grade)",
    "pm25Grade1h": "초미세먼지 1시간 등급 (PM2.5 1 h grade)",
    "o3Grade": "오존 등급 (O3 grade)",
    "pm10Flag": "측정자료 상태정보: 통신장애 등, 값이 '-'일 때 (data flag when the value is '-')",
}

OPERATIONS = [
    Operation(
        platform="airkorea",
        name="getCtprvnRltmMesureDnsty",
        path=f"{ARPLTN}/getCtprvnRltmMesureDnsty",
        summary="시도별 실시간 측정정보 조회: 시도(sidoName: 서울, 부산, 경기, 전국 등 약칭) 모든 측정소의 최신 시각 "
        "미세먼지·오존 등 농도와 등급 (latest hourly air quality of every station in a province; short names).",
        params=[
            *_common(),
            Param(
                "sidoName",
                "시도 이름 약칭: 전국, 서울, 부산, 대구, 인천, 광주, 대전, 울산, 경기, 강원, 충북, 충남, "
                "전북, 전남, 경북, 경남, 제주, 세종 (province short name)",
                required=True,
            ),
            _VER,
        ],
        handler=_ctprvn,
        uncertain="unknown sidoName -> empty list; missing parameter -> 11",
        output_fields=_MEASURE_FIELDS,
        tags=("air", "paged"),
    ),
    Operation(
        platform="airkorea",
        name="getMsrstnAcctoRltmMesureDnsty",
        path=f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
        summary="측정소별 실시간 측정정보 조회: 측정소명(stationName)의 시간별 대기오염 농도, 최신순; dataTerm DAILY(24시간), "
        "MONTH, 3MONTH (hourly measurements of one station, newest first). 값 '-'는 측정 불가.",
        params=[
            *_common(),
            Param("stationName", "측정소 이름, 예: 종로구, 강남구, 광복동 (station name)", required=True),
            Param("dataTerm", "요청 데이터기간: DAILY, MONTH, 3MONTH (period)", required=True),
            _VER,
        ],
        handler=_station_rt,
        uncertain="fields added per ver (1.3 adds stationName/sidoName)",
        output_fields={k: v for k, v in _MEASURE_FIELDS.items() if k not in ("stationName", "sidoName")},
        tags=("air", "paged"),
    ),
    Operation(
        platform="airkorea",
        name="getTMStdrCrdnt",
        path=f"{MSRSTN}/getTMStdrCrdnt",
        summary="TM 기준좌표 조회: 읍면동 이름(umdName, 예: 역삼동)으로 TM 좌표(tmX, tmY)를 찾음, 근접측정소 조회에 사용 "
        "(TM coordinates of a 읍면동 by name, for the nearby-station lookup).",
        params=[*_common(), Param("umdName", "읍면동명, 예: 역삼동, 청운동 (town name)", required=True)],
        handler=_tm_std,
        uncertain="tmX/tmY decimals",
        output_fields={
            "sidoName": "시도 이름 (province)",
            "sggName": "시군구 이름 (district)",
            "umdName": "읍면동 이름 (town)",
            "tmX": "TM X 좌표 (TM easting, m)",
            "tmY": "TM Y 좌표 (TM northing, m)",
        },
        tags=("air", "geo"),
    ),
    Operation(
        platform="airkorea",
        name="getNearbyMsrstnList",
        path=f"{MSRSTN}/getNearbyMsrstnList",
        summary="근접측정소 목록 조회: TM 좌표(tmX, tmY) 근처 측정소 3곳을 가까운 순으로, 거리(tm, km) 포함 "
        "(the 3 nearest stations to a TM point, nearest first, distance in km).",
        params=[
            *_common(),
            Param("tmX", "TM 측정방식 X 좌표 (TM x)", type="number", required=True),
            Param("tmY", "TM 측정방식 Y 좌표 (TM y)", type="number", required=True),
            Param("ver", "오퍼레이션 버전 (version)", pattern=r"1\.[0-9]"),
        ],
        handler=_nearby,
        output_fields={
            "stationName": "측정소 이름 (station name)",
            "addr": "측정소 주소 (address)",
            "tm": "요청 좌표로부터 거리 km (distance)",
        },
        tags=("air", "geo"),
    ),
]
