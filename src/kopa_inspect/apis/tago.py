"""국토교통부 TAGO (국가대중교통정보센터) 버스: 도시코드, 정류소 검색, 정류소별 도착 예정 정보.

the provider's published API guide The standard data.go.kr envelope with ``_type=json``; OK "00".
Traps reproduced: requests say ``cityCode``/``nodeId``/``nodeNm``/``nodeNo`` while responses say
``citycode``/``nodeid``/``nodenm``/``nodeno``; in JSON ``citycode``, ``nodeno``, ``gpslati``,
``gpslong``, ``arrtime`` (seconds), ``arrprevstationcnt`` are numbers and ``routeno`` is a number
when numeric ("34-1" stays a string); one row comes as an object, none as ``items: ""`` with
totalCount 0 (not 03). Seoul is not a TAGO city (its buses are served by ws.bus.go.kr).

Data: :mod:`kopa_inspect.world.transit` (stops per seed; arrivals per clock).
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.apis._envelope import DataGoKrEnvelope
from kopa_inspect.apis._spec import Operation, Param, Platform, Rows
from kopa_inspect.world import World
from kopa_inspect.world.transit import Transit, cities, city

# UNCERTAIN: resultMsg is reported both as "NORMAL SERVICE." and "NORMAL_SERVICE"; one is kept.
ENVELOPE = DataGoKrEnvelope(
    ok_code="00", ok_msg="NORMAL SERVICE.", format_param="_type", empty="empty_string"
)

_CITY_PARAM = Param(
    "cityCode",
    "도시코드, getCtyCodeList의 citycode (예 25 대전) (TAGO city code from getCtyCodeList)",
    required=True,
    pattern=r"\d{1,5}",
)
_PAGING = [
    Param("pageNo", "페이지 번호 (page number)", type="integer"),
    Param("numOfRows", "한 페이지 결과 수, 기본 10 (rows per page, default 10)", type="integer"),
    Param("_type", "응답 형식 xml|json (response format)", hidden=True),
]


def city_codes(world: World, params: dict[str, Any]) -> Rows:
    return [{"citycode": c.code, "cityname": c.name} for c in cities()]


def station_list(world: World, params: dict[str, Any]) -> Rows:
    c = city(params["cityCode"])
    if c is None:
        return []
    transit: Transit = world.part("transit")
    name = str(params.get("nodeNm") or "").strip()
    number = str(params.get("nodeNo") or "").strip()
    rows = []
    for s in transit.stops(c):
        if name and name not in s.name:
            continue
        if number and str(s.node_no) != number:
            continue
        row: dict[str, Any] = {"gpslati": s.lat, "gpslong": s.lon, "nodeid": s.node_id, "nodenm": s.name}
        if s.node_no is not None:
            row["nodeno"] = s.node_no
        rows.append(row)
    rows.sort(key=lambda r: (r["nodenm"], r["nodeid"]))
    return rows


def arrivals(world: World, params: dict[str, Any]) -> Rows:
    c = city(params["cityCode"])
    if c is None:
        return []
    transit: Transit = world.part("transit")
    return transit.arrivals(c, str(params["nodeId"]).strip())


PLATFORM = Platform(
    id="tago",
    name="국토교통부 TAGO 대중교통정보 (national public-transport info)",
    domain="transport",
    live_base_url="http://apis.data.go.kr",
    envelope=ENVELOPE,
    description="전국(서울 제외) 버스 정류소·도착 정보 (bus stops and arrivals outside Seoul)",
)

OPERATIONS = [
    Operation(
        platform="tago",
        name="getCtyCodeList",
        path="/1613000/BusSttnInfoInqireService/getCtyCodeList",
        summary=(
            "TAGO 버스 정보를 제공하는 도시의 도시코드 목록을 조회합니다(서울 제외). "
            "(List the city codes of cities with TAGO bus data; Seoul is not included.)"
        ),
        params=list(_PAGING),
        handler=city_codes,
        output_fields={"citycode": "도시코드 (city code, number)", "cityname": "도시명 (city name)"},
        tags=("bus",),
    ),
    Operation(
        platform="tago",
        name="getSttnNoList",
        path="/1613000/BusSttnInfoInqireService/getSttnNoList",
        summary=(
            "도시코드와 정류소명(일부) 또는 정류소번호로 버스 정류소를 검색합니다. 같은 이름의 정류소가 길 양쪽에 "
            "따로 있을 수 있습니다. (Search bus stops of a city by name part or stop number; a name may "
            "have a stop on each side of the road.)"
        ),
        params=[
            _CITY_PARAM,
            Param("nodeNm", "정류소명 일부 (stop name or part of it)"),
            Param("nodeNo", "정류소번호 (stop number shown at the stop)"),
            *_PAGING,
        ],
        handler=station_list,
        output_fields={
            "gpslati": "정류소 위도 WGS84 (latitude)",
            "gpslong": "정류소 경도 WGS84 (longitude)",
            "nodeid": "정류소ID, 도착정보 조회의 nodeId (stop id; pass as nodeId)",
            "nodenm": "정류소명 (stop name)",
            "nodeno": "정류소번호 (stop number)",
        },
        uncertain="whether getSttnNoList rows also carry citycode",
        tags=("bus",),
    ),
    Operation(
        platform="tago",
        name="getSttnAcctoArvlPrearngeInfoList",
        path="/1613000/ArvlInfoInqireService/getSttnAcctoArvlPrearngeInfoList",
        summary=(
            "도시코드와 정류소ID(nodeId)로 그 정류소에 곧 도착할 버스들의 도착 예정 시간(초)과 남은 정류장 수를 "
            "조회합니다. (Buses about to arrive at a stop: seconds to arrival and stops to go.)"
        ),
        params=[
            _CITY_PARAM,
            Param("nodeId", "정류소ID, getSttnNoList의 nodeid (stop id from getSttnNoList)", required=True),
            *_PAGING,
        ],
        handler=arrivals,
        output_fields={
            "arrprevstationcnt": "남은 정류장 수 (stops to go)",
            "arrtime": "도착 예정 시간, 초 (seconds until arrival)",
            "nodeid": "정류소ID (stop id)",
            "nodenm": "정류소명 (stop name)",
            "routeid": "노선ID (route id)",
            "routeno": "노선번호 (route number)",
            "routetp": "노선유형 일반/좌석/마을버스 등 (route type)",
            "vehicletp": "차량유형 일반차량/저상버스 (vehicle type)",
        },
        tags=("bus", "realtime"),
    ),
]
