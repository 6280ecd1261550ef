"""기상청 중기예보 조회서비스 (MidFcstInfoService): 중기육상예보 getMidLandFcst, 중기기온 getMidTa.

Contract: the provider's published API guide. One row per request (the region's
forecast); the values come from the world's weather model at the region's representative point,
as forecast by the issuance ``tmFc`` (so they agree with 단기예보 where the ranges overlap).

Quirks reproduced: ``tmFc`` is YYYYMMDD0600 or YYYYMMDD1800 only, served from ~10 minutes after
issue and for the last 24 hours only (older or not yet issued -> 03 NO_DATA without body);
rows do not echo tmFc; ``rnSt*`` (and, UNCERTAIN, ``taMin*/taMax*``) are JSON numbers; ``wf*`` are
Korean sky texts. The day range is 4..10 days after tmFc's date (UNCERTAIN: the service started
at day 3 before KMA extended 단기예보 in 2024; newer clients start at 4).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.apis.kma import KmaEnvelope
from kopa_inspect.world import KST, World
from kopa_inspect.world.weather import State, WeatherModel

BASE = "/1360000/MidFcstInfoService"
ISSUE_DELAY = timedelta(minutes=10)
RETENTION = timedelta(hours=24)
DAYS = range(4, 11)  # forecast days N (tmFc date + N)
AMPM_DAYS = range(4, 8)  # days with separate 오전/오후 values

# 중기육상예보 regions (regId -> name, representative lat/lon).
LAND_REGIONS: dict[str, tuple[str, float, float]] = {
    "11B00000": ("서울, 인천, 경기도", 37.57, 126.98),
    "11D10000": ("강원도영서", 37.88, 127.73),
    "11D20000": ("강원도영동", 37.75, 128.90),
    "11C20000": ("대전, 세종, 충청남도", 36.35, 127.38),
    "11C10000": ("충청북도", 36.64, 127.49),
    "11F20000": ("광주, 전라남도", 35.16, 126.85),
    "11F10000": ("전북자치도", 35.82, 127.15),
    "11H10000": ("대구, 경상북도", 35.87, 128.60),
    "11H20000": ("부산, 울산, 경상남도", 35.18, 129.08),
    "11G00000": ("제주도", 33.50, 126.53),
}

# 중기기온 city codes (regId -> name, lat, lon). The full table is a spreadsheet in the
# 활용가이드; the codes marked UNCERTAIN are from memory of client code, not two sources.
TA_REGIONS: dict[str, tuple[str, float, float]] = {
    "11B10101": ("서울", 37.57, 126.98),
    "11B20201": ("인천", 37.46, 126.71),
    "11B20601": ("수원", 37.26, 127.03),
    "11B20305": ("파주", 37.76, 126.78),  # UNCERTAIN
    "11D10301": ("춘천", 37.88, 127.73),
    "11D10401": ("원주", 37.34, 127.92),  # UNCERTAIN
    "11D20501": ("강릉", 37.75, 128.90),
    "11C20401": ("대전", 36.35, 127.38),
    "11C20101": ("서산", 36.78, 126.45),  # UNCERTAIN
    "11C20404": ("세종", 36.48, 127.29),  # UNCERTAIN
    "11C10301": ("청주", 36.64, 127.49),
    "11F20501": ("광주", 35.16, 126.85),
    "21F20801": ("목포", 34.81, 126.39),  # UNCERTAIN
    "11F20401": ("여수", 34.76, 127.66),  # UNCERTAIN
    "11F10201": ("전주", 35.82, 127.15),
    "11H10701": ("대구", 35.87, 128.60),
    "11H10501": ("안동", 36.57, 128.73),  # UNCERTAIN
    "11H10201": ("포항", 36.02, 129.34),  # UNCERTAIN
    "11H20201": ("부산", 35.18, 129.08),
    "11H20101": ("울산", 35.54, 129.31),
    "11H20301": ("창원", 35.23, 128.68),  # UNCERTAIN
    "11G00201": ("제주", 33.50, 126.53),
    "11G00401": ("서귀포", 33.25, 126.56),  # UNCERTAIN
}


def latest_tmfc(clock: datetime) -> str:
    """Latest tmFc (YYYYMMDDHHMM) served at ``clock``: 0600 or 1800, ~10 minutes after issue."""
    t = clock.astimezone(KST) - ISSUE_DELAY
    if t.hour >= 18:
        return t.strftime("%Y%m%d1800")
    if t.hour >= 6:
        return t.strftime("%Y%m%d0600")
    return (t - timedelta(days=1)).strftime("%Y%m%d1800")


def _issued(world: World, tmfc: str) -> datetime:
    if tmfc[8:] not in ("0600", "1800"):
        raise ApiError("nodata")  # only two issuances a day exist
    try:
        issued = datetime.strptime(tmfc, "%Y%m%d%H%M").replace(tzinfo=KST)
    except ValueError:
        raise ApiError("invalid_param", param="tmFc") from None
    # UNCERTAIN: both "not yet issued" and "older than 24 h" read 03 NO_DATA.
    if issued + ISSUE_DELAY > world.clock or issued < world.clock - RETENTION:
        raise ApiError("nodata")
    return issued


def _wf(states: list[State]) -> str:
    """중기 하늘상태 text from the hours of a half-day."""
    sky = max(s.sky for s in states)
    ptys = {s.pty for s in states if s.pty}
    head = "맑음" if sky == 1 else "구름많음" if sky == 3 else "흐림"
    if not ptys:
        return head
    if ptys <= {1}:
        kind = "비"
    elif ptys <= {3}:
        kind = "눈"
    elif ptys <= {4}:
        kind = "소나기"
    elif 4 in ptys and ptys <= {1, 4}:
        kind = "비"
    else:
        kind = "비/눈"
    return ("구름많고 " if sky == 3 else "흐리고 ") + kind


def _half(
    model: WeatherModel, lat: float, lon: float, day: datetime, issued: datetime, hours: range
) -> tuple[int, str]:
    times = [day + timedelta(hours=h) for h in hours]
    states = [model.forecast(lat, lon, t, issued) for t in times]
    pop = max(model.pop(lat, lon, t, issued) for t in times)
    return pop, _wf(states)


def _land(world: World, args: dict[str, Any]) -> Rows:
    reg = LAND_REGIONS.get(args["regId"])
    if reg is None:
        raise ApiError("nodata")  # UNCERTAIN: unknown regId; a lookup miss reads NO_DATA
    issued = _issued(world, args["tmFc"])
    _, lat, lon = reg
    model: WeatherModel = world.part("weather")
    base = issued.replace(hour=0, minute=0)
    rn: dict[str, int] = {}
    wf: dict[str, str] = {}
    for n in DAYS:
        day = base + timedelta(days=n)
        if n in AMPM_DAYS:
            rn[f"rnSt{n}Am"], wf[f"wf{n}Am"] = _half(model, lat, lon, day, issued, range(0, 12, 2))
            rn[f"rnSt{n}Pm"], wf[f"wf{n}Pm"] = _half(model, lat, lon, day, issued, range(12, 24, 2))
        else:
            rn[f"rnSt{n}"], wf[f"wf{n}"] = _half(model, lat, lon, day, issued, range(0, 24, 3))
    return [{"regId": args["regId"], **rn, **wf}]


def _ta(world: World, args: dict[str, Any]) -> Rows:
    reg = TA_REGIONS.get(args["regId"])
    if reg is None:
        raise ApiError("nodata")
    issued = _issued(world, args["tmFc"])
    _, lat, lon = reg
    model: WeatherModel = world.part("weather")
    base = issued.replace(hour=0, minute=0)
    row: dict[str, Any] = {"regId": args["regId"]}
    for n in DAYS:
        tmin, tmax = model.daily_extremes(lat, lon, base + timedelta(days=n), issued)
        # 하한/상한 범위: the spread of the forecast, widening with lead time.
        spread = 1 + (n - 4) // 2
        row[f"taMin{n}"] = round(tmin)
        row[f"taMin{n}Low"] = round(tmin) - spread
        row[f"taMin{n}High"] = round(tmin) + spread
        row[f"taMax{n}"] = round(tmax)
        row[f"taMax{n}Low"] = round(tmax) - spread
        row[f"taMax{n}High"] = round(tmax) + spread
    return [row]


PLATFORM = Platform(
    id="kma_mid",
    name="기상청 중기예보 조회서비스 (KMA medium-range forecast)",
    domain="weather",
    live_base_url="http://apis.data.go.kr",
    envelope=KmaEnvelope(),
    description="중기 육상예보(강수확률·하늘상태)와 중기 기온을 예보구역 코드(regId)와 발표시각(tmFc)으로 조회 "
    "(4-10 day forecasts by region code and issuance).",
)


def _params(reg_hint: str) -> list[Param]:
    return [
        Param("serviceKey", "공공데이터포털 인증키 (service key)", required=True, hidden=True),
        Param("pageNo", "페이지 번호 (page number)", type="integer"),
        Param("numOfRows", "한 페이지 결과 수 (rows per page)", type="integer"),
        Param("dataType", "응답 형식 XML/JSON (response format)", hidden=True),
        Param("regId", reg_hint, required=True),
        Param(
            "tmFc",
            "발표시각 YYYYMMDD0600 또는 YYYYMMDD1800, 최근 24시간 이내 "
            "(issuance time, 06:00 or 18:00, within the last 24 h)",
            required=True,
            pattern=r"\d{12}",
        ),
    ]


_LAND_HINT = "육상예보 구역코드 (land region code): " + ", ".join(
    f"{k} {v[0]}" for k, v in LAND_REGIONS.items()
)
_TA_HINT = "기온예보 지점코드 (city code): " + ", ".join(f"{k} {v[0]}" for k, v in TA_REGIONS.items())

_LAND_FIELDS: dict[str, str] = {"regId": "예보구역코드 (region code)"}
for _n in DAYS:
    if _n in AMPM_DAYS:
        _LAND_FIELDS[f"rnSt{_n}Am"] = f"{_n}일 후 오전 강수확률 % (AM precipitation probability, day {_n})"
        _LAND_FIELDS[f"rnSt{_n}Pm"] = f"{_n}일 후 오후 강수확률 % (PM precipitation probability, day {_n})"
    else:
        _LAND_FIELDS[f"rnSt{_n}"] = f"{_n}일 후 강수확률 % (precipitation probability, day {_n})"
for _n in DAYS:
    if _n in AMPM_DAYS:
        _LAND_FIELDS[f"wf{_n}Am"] = f"{_n}일 후 오전 날씨예보 (AM sky text, day {_n})"
        _LAND_FIELDS[f"wf{_n}Pm"] = f"{_n}일 후 오후 날씨예보 (PM sky text, day {_n})"
    else:
        _LAND_FIELDS[f"wf{_n}"] = f"{_n}일 후 날씨예보 (sky text, day {_n})"

_TA_FIELDS: dict[str, str] = {"regId": "예보구역코드 (city code)"}
for _n in DAYS:
    _TA_FIELDS[f"taMin{_n}"] = f"{_n}일 후 예상최저기온 ℃ (min temperature, day {_n})"
    _TA_FIELDS[f"taMin{_n}Low"] = f"{_n}일 후 최저기온 하한 (lower bound)"
    _TA_FIELDS[f"taMin{_n}High"] = f"{_n}일 후 최저기온 상한 (upper bound)"
    _TA_FIELDS[f"taMax{_n}"] = f"{_n}일 후 예상최고기온 ℃ (max temperature, day {_n})"
    _TA_FIELDS[f"taMax{_n}Low"] = f"{_n}일 후 최고기온 하한 (lower bound)"
    _TA_FIELDS[f"taMax{_n}High"] = f"{_n}일 후 최고기온 상한 (upper bound)"

OPERATIONS = [
    Operation(
        platform="kma_mid",
        name="getMidLandFcst",
        path=f"{BASE}/getMidLandFcst",
        summary="중기육상예보조회: 예보구역(regId, 예: 11B00000 서울·인천·경기)의 4~10일 후 오전/오후 강수확률(rnSt)과 "
        "날씨(wf), 발표 06시/18시 (4-10 day precipitation probability and sky by land region).",
        params=_params(_LAND_HINT),
        handler=_land,
        output_fields=_LAND_FIELDS,
        uncertain="day range 4..10 (3..10 before 2024)",
        tags=("weather", "forecast"),
    ),
    Operation(
        platform="kma_mid",
        name="getMidTa",
        path=f"{BASE}/getMidTa",
        summary="중기기온조회: 지점(regId, 예: 11B10101 서울)의 4~10일 후 예상 최저/최고기온과 범위, 발표 06시/18시 "
        "(4-10 day min/max temperature by city code).",
        params=_params(_TA_HINT),
        handler=_ta,
        output_fields=_TA_FIELDS,
        uncertain="taMin*/taMax* as JSON numbers; several regId codes",
        tags=("weather", "forecast"),
    ),
]
