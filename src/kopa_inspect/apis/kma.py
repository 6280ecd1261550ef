"""기상청 단기예보 조회서비스 (VilageFcstInfoService_2.0): 초단기실황, 초단기예보, 단기예보.

Contract: the provider's published API guide. The data is the world's weather model
(world/weather.py) sampled at the grid cell's centre; forecasts are keyed by the issuance so the
same base_date/base_time always gives the same rows.

Quirks reproduced:
- ``dataType=JSON`` switches to JSON and is echoed as the first body key ("dataType": "JSON").
- KMA's JSON is produced natively (not by an XML->JSON gateway), so ``items.item`` is always a
  list, even for one row.
- nx, ny are JSON numbers; every other item value is a string.
- No data is ``{"response":{"header":{"resultCode":"03","resultMsg":"NO_DATA"}}}`` without a body,
  also for an issuance that is not published yet (relative to the world clock).
- A base_date older than yesterday (or not a date) is ``10 최근 1일 간의 자료만 제공합니다.``.
- getVilageFcst: hourly slots through the end of base_date+2, then 3-hourly slots on the two
  following days (≈ 1000 rows per issuance, so numOfRows=1000 may need a second page);
  TMN only at 0600, TMX only at 1500; PCP/SNO as text ("강수없음", "1mm 미만", "1.0mm" ...).

getGridPointList (place name -> nx, ny) is NOT a real endpoint. KMA publishes its forecast-point
grid table only as an Excel attachment of the 활용가이드 ("격자_위경도" sheet: 구분, 행정구역코드,
1단계, 2단계, 3단계, 격자 X, 격자 Y, 경도, 위도); the emulator serves the same table as a lookup so
that a model can find nx/ny for a place instead of being told them (a documented departure; in live
mode there is no such service). Rows are the world's real regions (법정동 codes, where the Excel
uses 행정동 codes: UNCERTAIN for dong-level rows) with nx/ny from the real Lambert conversion.
"""

from __future__ import annotations

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
from kopa_inspect.world import KST, World
from kopa_inspect.world.grid import grid_to_latlon, latlon_to_grid
from kopa_inspect.world.regions import all_regions
from kopa_inspect.world.weather import State, WeatherModel

__all__ = [
    "OPERATIONS",
    "PLATFORM",
    "KmaEnvelope",
    "grid_to_latlon",
    "latest_ncst_base",
    "latest_ultra_fcst_base",
    "latest_vilage_base",
    "latlon_to_grid",
]

BASE = "/1360000/VilageFcstInfoService_2.0"
OLD_DATA_MSG = "최근 1일 간의 자료만 제공합니다."
VILAGE_TIMES = ("0200", "0500", "0800", "1100", "1400", "1700", "2000", "2300")
# Minutes after the nominal issuance time from which the API serves it (reference §4 item 11).
VILAGE_DELAY = timedelta(minutes=10)
NCST_DELAY = timedelta(minutes=40)
ULTRA_FCST_DELAY = timedelta(minutes=15)  # HH30 issuance served from HH:45
# KMA's Lambert grid covers nx 1..149, ny 1..253.
NX_MAX, NY_MAX = 149, 253


class KmaEnvelope(DataGoKrEnvelope):
    """The data.go.kr envelope as KMA writes it: body keys dataType, items, pageNo, numOfRows,
    totalCount in that order, and ``items.item`` a list even for a single row."""

    def __init__(self) -> None:
        super().__init__(
            format_param="dataType",
            json_value="JSON",
            echo_format="dataType",
            empty="nodata",
            nodata_with_body=False,
            # UNCERTAIN: the recorded fixture says KMA answers a missing mandatory parameter with
            # 03 NO_DATA (not 11 NO_MANDATORY_REQUEST_PARAMETERS_ERROR); we follow the fixture.
            errors={"nodata": ("03", "NO_DATA"), "missing_param": ("03", "NO_DATA")},
        )

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        header = {"resultCode": self.ok_code, "resultMsg": self.ok_msg}
        if fmt == "xml":
            body: dict[str, Any] = {
                "dataType": "XML",
                "items": {"item": rows_for_xml(page.rows)},
                "pageNo": str(page.page_no),
                "numOfRows": str(page.num_rows),
                "totalCount": str(page.total),
            }
            return HttpResponse(200, XML_CT, dumps_xml({"response": {"header": header, "body": body}}))
        body = {
            "dataType": "JSON",
            "items": {"item": list(page.rows)},
            "pageNo": page.page_no,
            "numOfRows": page.num_rows,
            "totalCount": page.total,
        }
        return HttpResponse(200, JSON_CT, dumps_json({"response": {"header": header, "body": body}}))


PLATFORM = Platform(
    id="kma",
    name="기상청 단기예보 조회서비스 (KMA short-range forecast)",
    domain="weather",
    live_base_url="http://apis.data.go.kr",
    envelope=KmaEnvelope(),
    description="초단기실황·초단기예보·단기예보를 격자(nx, ny)와 발표시각(base_date, base_time)으로 조회 "
    "(observations and forecasts on KMA's 5 km grid by issuance time).",
)


# --- issuance times ------------------------------------------------------------------------


def latest_vilage_base(clock: datetime) -> tuple[str, str]:
    """Latest getVilageFcst issuance served at ``clock`` (KST): one of 02,05,...,23 h, after HH:10."""
    t = clock.astimezone(KST) - VILAGE_DELAY
    for back in range(0, 4):
        cand = t - timedelta(hours=back)
        if cand.strftime("%H00") in VILAGE_TIMES:
            return cand.strftime("%Y%m%d"), cand.strftime("%H00")
    raise AssertionError("unreachable: an issuance every 3 hours")


def latest_ncst_base(clock: datetime) -> tuple[str, str]:
    """Latest getUltraSrtNcst observation served at ``clock``: HH00, available after HH:40."""
    t = clock.astimezone(KST) - NCST_DELAY
    return t.strftime("%Y%m%d"), t.strftime("%H00")


def latest_ultra_fcst_base(clock: datetime) -> tuple[str, str]:
    """Latest getUltraSrtFcst issuance served at ``clock``: HH30, available after HH:45."""
    t = clock.astimezone(KST) - ULTRA_FCST_DELAY
    if t.minute < 30:
        t -= timedelta(hours=1)
    return t.strftime("%Y%m%d"), t.strftime("%H30")


def _parse_date(value: str) -> datetime:
    try:
        if len(value) != 8 or not value.isdigit():
            raise ValueError(value)
        return datetime.strptime(value, "%Y%m%d").replace(tzinfo=KST)
    except ValueError:
        # The real service answers an unparseable base_date with its retention message.
        raise ApiError("invalid_param", OLD_DATA_MSG, param="base_date") from None


def _parse_time(value: str) -> tuple[int, int]:
    if len(value) != 4 or not value.isdigit() or int(value[:2]) > 23 or int(value[2:]) > 59:
        raise ApiError("invalid_param", param="base_time")
    return int(value[:2]), int(value[2:])


def _check_published(world: World, issued: datetime, delay: timedelta) -> None:
    # UNCERTAIN: "최근 1일" is read as "base_date is today or yesterday" (KST calendar days).
    if issued.date() < (world.clock - timedelta(days=1)).date():
        raise ApiError("invalid_param", OLD_DATA_MSG, param="base_date")
    if issued + delay > world.clock:
        raise ApiError("nodata")  # not published yet


def _cell(args: dict[str, Any]) -> tuple[int, int, float, float]:
    nx, ny = int(args["nx"]), int(args["ny"])
    if not (1 <= nx <= NX_MAX and 1 <= ny <= NY_MAX):
        raise ApiError("nodata")  # UNCERTAIN: off-grid cells; 03 NO_DATA is what a lookup miss gives
    lat, lon = grid_to_latlon(nx, ny)
    return nx, ny, lat, lon


# --- value formatting (the real services' text conventions) ---------------------------------


def _f1(x: float) -> str:
    s = f"{x:.1f}"
    return "0.0" if s == "-0.0" else s


def pcp_text(mm: float) -> str:
    """1시간 강수량 as KMA writes it in 단기예보/초단기예보."""
    if mm <= 0:
        return "강수없음"
    if mm < 1.0:
        return "1mm 미만"
    if mm < 30.0:
        return f"{mm:.1f}mm"
    if mm < 50.0:
        return "30.0~50.0mm"
    return "50.0mm 이상"


def sno_text(cm: float) -> str:
    """1시간 신적설 as KMA writes it."""
    if cm <= 0:
        return "적설없음"
    if cm < 1.0:
        return "1cm 미만"
    if cm < 5.0:
        return f"{cm:.1f}cm"
    return "5.0cm 이상"


def _ultra_pty(st: State) -> int:
    """초단기 PTY codes: 0 없음, 1 비, 2 비/눈, 3 눈, 5 빗방울, 6 빗방울눈날림, 7 눈날림 (no 4 소나기)."""
    if st.pty == 0:
        return 0
    if st.rain_mm < 0.3:  # traces: 빗방울 / 빗방울눈날림 / 눈날림
        return {1: 5, 2: 6, 3: 7, 4: 5}[st.pty]
    return 1 if st.pty == 4 else st.pty


# --- handlers ------------------------------------------------------------------------------


def _model(world: World) -> WeatherModel:
    return world.part("weather")


def _ultra_srt_ncst(world: World, args: dict[str, Any]) -> Rows:
    day = _parse_date(args["base_date"])
    hh, _mm = _parse_time(args["base_time"])
    nx, ny, lat, lon = _cell(args)
    # UNCERTAIN: minutes are dropped (observations are hourly) and the echoed baseTime is HH00.
    issued = day + timedelta(hours=hh)
    _check_published(world, issued, NCST_DELAY)
    st = _model(world).truth(lat, lon, issued)
    values = {
        "PTY": str(_ultra_pty(st)),
        "REH": str(st.reh),
        "RN1": "0" if st.rain_mm <= 0 else _f1(st.rain_mm),
        "T1H": _f1(st.temp),
        "UUU": _f1(st.u),
        "VEC": str(st.vec),
        "VVV": _f1(st.v),
        "WSD": _f1(st.wsd),
    }
    bd, bt = issued.strftime("%Y%m%d"), issued.strftime("%H%M")
    return [
        {"baseDate": bd, "baseTime": bt, "category": cat, "nx": nx, "ny": ny, "obsrValue": val}
        for cat, val in values.items()
    ]


ULTRA_FCST_CATEGORIES = ("LGT", "PTY", "RN1", "SKY", "T1H", "REH", "UUU", "VVV", "VEC", "WSD")


def _ultra_values(st: State) -> dict[str, str]:
    return {
        "LGT": str(st.lightning),
        "PTY": str(_ultra_pty(st)),
        "RN1": pcp_text(st.rain_mm),
        "SKY": str(st.sky),
        "T1H": str(round(st.temp)),
        "REH": str(st.reh),
        "UUU": _f1(st.u),
        "VVV": _f1(st.v),
        "VEC": str(st.vec),
        "WSD": str(round(st.wsd)),  # UNCERTAIN: integer m/s in 초단기예보
    }


def _ultra_srt_fcst(world: World, args: dict[str, Any]) -> Rows:
    day = _parse_date(args["base_date"])
    hh, mm = _parse_time(args["base_time"])
    nx, ny, lat, lon = _cell(args)
    # Issued every hour at HH30. UNCERTAIN: a base_time before HH30 is read as the previous
    # hour's issuance and echoed as such.
    issued = day + timedelta(hours=hh, minutes=30)
    if mm < 30:
        issued -= timedelta(hours=1)
    _check_published(world, issued, ULTRA_FCST_DELAY)
    model = _model(world)
    slots = [issued + timedelta(minutes=30) + timedelta(hours=h) for h in range(6)]
    per_slot = [_ultra_values(model.forecast(lat, lon, t, issued)) for t in slots]
    bd, bt = issued.strftime("%Y%m%d"), issued.strftime("%H%M")
    rows: Rows = []
    for cat in ULTRA_FCST_CATEGORIES:  # by category, then time
        for t, vals in zip(slots, per_slot, strict=True):
            rows.append(
                {
                    "baseDate": bd,
                    "baseTime": bt,
                    "category": cat,
                    "fcstDate": t.strftime("%Y%m%d"),
                    "fcstTime": t.strftime("%H%M"),
                    "fcstValue": vals[cat],
                    "nx": nx,
                    "ny": ny,
                }
            )
    return rows


VILAGE_CATEGORIES = ("TMP", "UUU", "VVV", "VEC", "WSD", "SKY", "PTY", "POP", "WAV", "PCP", "REH", "SNO")


def vilage_slots(issued: datetime) -> list[datetime]:
    """fcstDate/fcstTime slots of one getVilageFcst issuance."""
    start = issued + timedelta(hours=1)
    base_day = issued.replace(hour=0, minute=0)
    hourly_end = base_day + timedelta(days=2, hours=23)
    slots = []
    t = start
    while t <= hourly_end:
        slots.append(t)
        t += timedelta(hours=1)
    for d in (3, 4):
        slots.extend(base_day + timedelta(days=d, hours=h) for h in range(0, 24, 3))
    return slots


def _vilage_fcst(world: World, args: dict[str, Any]) -> Rows:
    day = _parse_date(args["base_date"])
    hh, mm = _parse_time(args["base_time"])
    nx, ny, lat, lon = _cell(args)
    if f"{hh:02d}{mm:02d}" not in VILAGE_TIMES:
        raise ApiError("nodata")  # not an issuance time (reference: 03 for a non-published time)
    issued = day + timedelta(hours=hh)
    _check_published(world, issued, VILAGE_DELAY)
    model = _model(world)
    bd, bt = issued.strftime("%Y%m%d"), issued.strftime("%H%M")
    far_from = issued.replace(hour=0) + timedelta(days=3)
    extremes: dict[str, tuple[float, float]] = {}
    rows: Rows = []
    for t in vilage_slots(issued):
        st = model.forecast(lat, lon, t, issued)
        far = t >= far_from
        values = {
            "TMP": str(round(st.temp)),
            "UUU": _f1(st.u),
            "VVV": _f1(st.v),
            "VEC": str(st.vec),
            "WSD": _f1(st.wsd),
            "SKY": str(st.sky),
            "PTY": str(st.pty),
            "POP": str(model.pop(lat, lon, t, issued)),
            "WAV": "0",  # 파고: no land/sea mask in the world; inland cells read 0 as the real API
            # Recorded quirk: on the 3-hourly far days PCP/SNO read "0" instead of the text.
            "PCP": "0" if far and st.rain_mm <= 0 else pcp_text(st.rain_mm),
            "REH": str(st.reh),
            "SNO": "0" if far and st.snow_cm <= 0 else sno_text(st.snow_cm),
        }
        fd, ft = t.strftime("%Y%m%d"), t.strftime("%H%M")
        if ft in ("0600", "1500"):
            if fd not in extremes:
                extremes[fd] = model.daily_extremes(lat, lon, t, issued)
            if ft == "0600":
                values["TMN"] = _f1(extremes[fd][0])
            else:
                values["TMX"] = _f1(extremes[fd][1])
        for cat, val in values.items():
            rows.append(
                {
                    "baseDate": bd,
                    "baseTime": bt,
                    "category": cat,
                    "fcstDate": fd,
                    "fcstTime": ft,
                    "fcstValue": val,
                    "nx": nx,
                    "ny": ny,
                }
            )
    return rows


# --- grid table (emulator extension, see module docstring) ---------------------------------

GRID_PATH = "/kopa-ext/1360000/VilageFcstInfoService_2.0/getGridPointList"


def _squash(text: Any) -> str:
    return "".join(str(text or "").split())


def _grid_points(world: World, args: dict[str, Any]) -> Rows:
    """The grid table rows whose 1/2/3단계 names contain the given parts (spaces ignored)."""
    wanted = [(_squash(args.get(k)), k) for k in ("level1", "level2", "level3")]
    if not any(w for w, _ in wanted):
        raise ApiError("missing_param", param="level1")
    rows: Rows = []
    for r in all_regions():
        names = {"level1": r.sido_name, "level2": r.sgg_name, "level3": r.umd_name}
        if all(not w or w in _squash(names[k]) for w, k in wanted):
            rows.append(
                {
                    "areaCode": r.code,
                    "level1": r.sido_name,
                    "level2": r.sgg_name,
                    "level3": r.umd_name,
                    "nx": r.nx,
                    "ny": r.ny,
                    "lon": f"{r.lon:.6f}",
                    "lat": f"{r.lat:.6f}",
                }
            )
    return rows


# --- operations ----------------------------------------------------------------------------


def _params() -> list[Param]:
    return [
        Param("serviceKey", "공공데이터포털 인증키 (service key)", required=True, hidden=True),
        Param("pageNo", "페이지 번호, 기본 1 (page number)", type="integer"),
        Param("numOfRows", "한 페이지 결과 수, 기본 10 (rows per page)", type="integer"),
        Param("dataType", "응답 형식 XML/JSON (response format)", hidden=True),
        Param(
            "base_date",
            "발표일자 YYYYMMDD, 오늘 또는 어제 (issuance date, today or yesterday)",
            required=True,
        ),
        Param("base_time", "발표시각 HHMM (issuance time)", required=True),
        Param("nx", "예보지점 X 격자 좌표 (grid x, 1-149)", type="integer", required=True),
        Param("ny", "예보지점 Y 격자 좌표 (grid y, 1-253)", type="integer", required=True),
    ]


def _with_time_hint(hint: str) -> list[Param]:
    params = _params()
    return [Param(p.name, hint, required=True) if p.name == "base_time" else p for p in params]


_FCST_FIELDS = {
    "baseDate": "발표일자 (issuance date YYYYMMDD)",
    "baseTime": "발표시각 (issuance time HHMM)",
    "category": "자료구분코드 (category code)",
    "fcstDate": "예보일자 (forecast date YYYYMMDD)",
    "fcstTime": "예보시각 (forecast time HHMM)",
    "fcstValue": "예보 값 (forecast value, text)",
    "nx": "예보지점 X 좌표 (grid x)",
    "ny": "예보지점 Y 좌표 (grid y)",
}

OPERATIONS = [
    Operation(
        platform="kma",
        name="getUltraSrtNcst",
        path=f"{BASE}/getUltraSrtNcst",
        summary="초단기실황조회: 격자 지점의 현재 관측값(기온 T1H, 1시간 강수량 RN1, 습도 REH, 강수형태 PTY, "
        "풍향 VEC, 풍속 WSD 등), 매시 정시 자료를 40분 이후 제공 (current observations at a grid cell; "
        "hourly HH00, available after HH:40).",
        params=_with_time_hint("관측시각 HH00, 매시 40분 이후 조회 가능 (observation hour HH00)"),
        handler=_ultra_srt_ncst,
        uncertain="base_time minutes dropped (echoed HH00); missing parameter -> 03 NO_DATA",
        output_fields={
            "baseDate": "발표일자 (observation date)",
            "baseTime": "발표시각 (observation time HHMM)",
            "category": "자료구분코드: T1H 기온, RN1 1시간 강수량, REH 습도, PTY 강수형태, UUU/VVV 바람성분, "
            "VEC 풍향, WSD 풍속 (category code)",
            "obsrValue": "실황 값 (observed value)",
            "nx": "예보지점 X 좌표 (grid x)",
            "ny": "예보지점 Y 좌표 (grid y)",
        },
        tags=("weather", "observation"),
    ),
    Operation(
        platform="kma",
        name="getUltraSrtFcst",
        path=f"{BASE}/getUltraSrtFcst",
        summary="초단기예보조회: 향후 6시간 매시 예보(기온 T1H, 하늘상태 SKY, 강수형태 PTY, 강수량 RN1, 낙뢰 LGT 등), "
        "매시 30분 발표·45분 이후 제공, 항목별·시간순 정렬 (6-hour hourly forecast, issued HH30, "
        "available after HH:45; rows by category then time).",
        params=_with_time_hint("발표시각 HH30, 매시 45분 이후 조회 가능 (issuance time HH30)"),
        handler=_ultra_srt_fcst,
        uncertain="a base_time before HH30 is read as the previous hour's issuance; WSD as integer",
        output_fields={
            **_FCST_FIELDS,
            "category": "LGT 낙뢰, PTY 강수형태, RN1 1시간 강수량, SKY 하늘상태, "
            "T1H 기온, REH 습도, UUU/VVV 바람성분, VEC 풍향, WSD 풍속 (category code)",
        },
        tags=("weather", "forecast"),
    ),
    Operation(
        platform="kma",
        name="getVilageFcst",
        path=f"{BASE}/getVilageFcst",
        summary="단기예보조회: 발표시각(0200, 0500, 0800, 1100, 1400, 1700, 2000, 2300, 발표 10분 이후 제공) 기준 "
        "약 5일간 예보(1시간 기온 TMP, 최저 TMN(0600), 최고 TMX(1500), 강수확률 POP, 하늘상태 SKY 1맑음/3구름많음/4흐림, "
        "강수형태 PTY, 강수량 PCP, 신적설 SNO 등). 한 발표에 약 1000행이므로 numOfRows/pageNo로 페이지를 넘기세요 "
        "(short-range forecast for ~5 days from an issuance; ~1000 rows per issuance, so page through).",
        params=_with_time_hint("발표시각 0200/0500/0800/1100/1400/1700/2000/2300 (issuance time)"),
        handler=_vilage_fcst,
        uncertain="slot layout per issuance (hourly to base_date+2, 3-hourly for 2 more days); WAV always 0",
        output_fields={
            **_FCST_FIELDS,
            "category": "TMP 1시간 기온, TMN 일최저기온, TMX 일최고기온, POP 강수확률, "
            "PTY 강수형태(0없음/1비/2비·눈/3눈/4소나기), PCP 1시간 강수량, SNO 1시간 신적설, "
            "SKY 하늘상태(1맑음/3구름많음/4흐림), REH 습도, UUU/VVV 바람성분, VEC 풍향, WSD 풍속, "
            "WAV 파고 (category code)",
        },
        tags=("weather", "forecast", "paged"),
    ),
]
OPERATIONS.append(
    Operation(
        platform="kma",
        name="getGridPointList",
        path=GRID_PATH,
        summary="예보지점 격자 조회: 시도(level1)·시군구(level2)·읍면동(level3) 이름으로 단기예보 격자 좌표(nx, ny)와 "
        "위경도를 찾음, 이름 일부로 검색 가능, 상위 행정구역 행은 하위 단계가 빈 값 (forecast grid lookup: "
        "place names -> KMA grid nx, ny; partial names allowed; a 시군구 row has an empty level3).",
        params=[
            Param("serviceKey", "공공데이터포털 인증키 (service key)", required=True, hidden=True),
            Param("pageNo", "페이지 번호, 기본 1 (page number)", type="integer"),
            Param("numOfRows", "한 페이지 결과 수, 기본 10 (rows per page)", type="integer"),
            Param("dataType", "응답 형식 XML/JSON (response format)", hidden=True),
            Param("level1", "1단계 시도명, 예: 서울특별시 (province)"),
            Param("level2", "2단계 시군구명, 예: 마포구, 수원시 영통구 (city/district)"),
            Param("level3", "3단계 읍면동명, 예: 서교동 (town)"),
        ],
        handler=_grid_points,
        uncertain="NOT A REAL ENDPOINT: KMA ships this table only as an Excel file (활용가이드 격자_위경도); "
        "served as a lookup by the emulator; dong rows use 법정동 codes where the Excel uses 행정동",
        output_fields={
            "areaCode": "행정구역코드 (area code, 10 digits)",
            "level1": "1단계 시도 (province)",
            "level2": "2단계 시군구 (city/district; empty on a 시도 row)",
            "level3": "3단계 읍면동 (town; empty on a 시도/시군구 row)",
            "nx": "격자 X (grid x for getVilageFcst/getUltraSrtNcst nx)",
            "ny": "격자 Y (grid y for ny)",
            "lon": "경도 (longitude)",
            "lat": "위도 (latitude)",
        },
        tags=("weather", "lookup", "emulator_extension"),
    )
)
