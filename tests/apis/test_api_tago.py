"""국토교통부 TAGO 버스 (도시코드, 정류소, 도착정보) through the real HTTP path and a Session."""

from __future__ import annotations

import json

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, create_app
from kopa_inspect.execution import Session

CITY = "/1613000/BusSttnInfoInqireService/getCtyCodeList"
STOPS = "/1613000/BusSttnInfoInqireService/getSttnNoList"
ARRIVALS = "/1613000/ArvlInfoInqireService/getSttnAcctoArvlPrearngeInfoList"
CLOCK = "2026-10-15T14:20:00+09:00"


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="http://apis.data.go.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient, path: str, clock: str = CLOCK, seed: int = 0, **params: str
) -> httpx.Response:
    headers = {SEED_HEADER: str(seed), CLOCK_HEADER: clock}
    return await client.get(path, params={"serviceKey": DEFAULT_EMULATOR_KEY, **params}, headers=headers)


async def get_json(client: httpx.AsyncClient, path: str, **params: str) -> dict:
    r = await get(client, path, _type="json", **params)
    return json.loads(r.text)["response"]


def items(resp: dict) -> list[dict]:
    raw = resp["body"]["items"]
    if raw == "" or raw is None:
        return []
    raw = raw["item"]
    return raw if isinstance(raw, list) else [raw]


async def first_stop(client: httpx.AsyncClient, city: str = "25", name: str = "대전역") -> dict:
    return items(await get_json(client, STOPS, cityCode=city, nodeNm=name))[0]


async def test_city_codes_json_and_xml(client: httpx.AsyncClient) -> None:
    resp = await get_json(client, CITY, numOfRows="100")
    assert resp["header"] == {"resultCode": "00", "resultMsg": "NORMAL SERVICE."}
    rows = items(resp)
    by_code = {r["citycode"]: r["cityname"] for r in rows}
    assert by_code[25] == "대전광역시" and 31100 in by_code and 12 in by_code
    assert all(isinstance(r["citycode"], int) for r in rows)  # JSON number
    assert resp["body"]["totalCount"] == len(rows) and not any("서울" in n for n in by_code.values())
    xml = xmltodict.parse((await get(client, CITY, numOfRows="100")).text)["response"]
    assert xml["header"]["resultCode"] == "00"
    assert {i["citycode"] for i in xml["body"]["items"]["item"]} == {str(c) for c in by_code}


async def test_station_search_and_one_item_object(client: httpx.AsyncClient) -> None:
    named = items(await get_json(client, STOPS, cityCode="25", nodeNm="북대전"))
    assert named and all("북대전" in r["nodenm"] for r in named)
    assert len({r["nodeid"] for r in named}) == len(named)  # one name may have a stop on each side
    resp = await get_json(client, STOPS, cityCode="25", nodeNo=str(named[0]["nodeno"]))
    raw = resp["body"]["items"]["item"]
    assert isinstance(raw, dict) and resp["body"]["totalCount"] == 1  # one row -> an object, not a list
    assert raw["nodeid"] == named[0]["nodeid"] and raw["nodeid"].startswith("DJB")
    assert (
        isinstance(raw["gpslati"], float)
        and isinstance(raw["gpslong"], float)
        and isinstance(raw["nodeno"], int)
    )
    assert "nodeId" not in raw and "cityCode" not in raw  # response casing differs from the request's
    xml = xmltodict.parse((await get(client, STOPS, cityCode="25", nodeNo=str(raw["nodeno"]))).text)[
        "response"
    ]
    assert xml["body"]["items"]["item"]["nodeid"] == raw["nodeid"]
    assert xml["body"]["items"]["item"]["nodeno"] == str(raw["nodeno"])


async def test_no_match_is_empty_items_not_an_error(client: httpx.AsyncClient) -> None:
    resp = await get_json(client, STOPS, cityCode="25", nodeNm="존재하지않는정류소")
    assert resp["header"]["resultCode"] == "00"
    assert resp["body"]["items"] == "" and resp["body"]["totalCount"] == 0
    r = await get(client, STOPS, cityCode="25", nodeNm="존재하지않는정류소")
    assert "<items></items>" in r.text
    unknown_city = await get_json(client, STOPS, cityCode="99999")
    assert unknown_city["body"]["totalCount"] == 0


@pytest.mark.parametrize(
    ("path", "params", "code", "msg"),
    [
        (STOPS, {"nodeNm": "대전역"}, "11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"),
        (STOPS, {"cityCode": "대전"}, "10", "INVALID_REQUEST_PARAMETER_ERROR"),
        (ARRIVALS, {"cityCode": "25"}, "11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"),
        (ARRIVALS, {"nodeId": "DJB8001793"}, "11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"),
        (CITY, {"numOfRows": "x"}, "10", "INVALID_REQUEST_PARAMETER_ERROR"),
    ],
)
async def test_errors_in_json_and_xml(
    client: httpx.AsyncClient, path: str, params: dict, code: str, msg: str
) -> None:
    resp = await get_json(client, path, **params)
    assert resp["header"] == {"resultCode": code, "resultMsg": msg}
    xml = xmltodict.parse((await get(client, path, **params)).text)["response"]
    assert xml["header"] == {"resultCode": code, "resultMsg": msg}


async def test_unknown_key_is_gateway_30_in_the_requested_form(client: httpx.AsyncClient) -> None:
    r = await client.get(CITY, params={"serviceKey": "unknown", "_type": "json"})
    assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
    assert_gateway(
        await client.get(CITY, params={"serviceKey": "unknown"}), "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR"
    )


async def test_arrivals_depend_on_the_clock(client: httpx.AsyncClient) -> None:
    stop = await first_stop(client)
    rows = items(await get_json(client, ARRIVALS, cityCode="25", nodeId=stop["nodeid"], numOfRows="100"))
    assert rows, "a daytime stop has buses coming"
    for r in rows:
        assert r["nodeid"] == stop["nodeid"] and r["nodenm"] == stop["nodenm"]
        assert isinstance(r["arrtime"], int) and 0 <= r["arrtime"] <= 2400
        assert isinstance(r["arrprevstationcnt"], int) and r["arrprevstationcnt"] >= 1
        assert (
            isinstance(r["routeno"], int | str)
            and r["routetp"]
            and r["vehicletp"] in ("일반차량", "저상버스")
        )
    later = items(
        json.loads(
            (
                await get(
                    client,
                    ARRIVALS,
                    clock="2026-10-15T14:23:00+09:00",
                    _type="json",
                    cityCode="25",
                    nodeId=stop["nodeid"],
                    numOfRows="100",
                )
            ).text
        )["response"]
    )
    assert [(r["routeid"], r["arrtime"]) for r in later] != [(r["routeid"], r["arrtime"]) for r in rows]
    night = json.loads(
        (
            await get(
                client,
                ARRIVALS,
                clock="2026-10-15T02:00:00+09:00",
                _type="json",
                cityCode="25",
                nodeId=stop["nodeid"],
            )
        ).text
    )["response"]
    assert night["header"]["resultCode"] == "00" and night["body"]["items"] == ""


async def test_every_stop_is_served_in_the_day(client: httpx.AsyncClient) -> None:
    stops = items(await get_json(client, STOPS, cityCode="39", numOfRows="12"))
    for stop in stops:
        resp = await get_json(client, ARRIVALS, cityCode="39", nodeId=stop["nodeid"])
        assert resp["body"]["totalCount"] >= 1, stop["nodenm"]


async def test_pagination_totals_agree(client: httpx.AsyncClient) -> None:
    full = items(await get_json(client, STOPS, cityCode="31100", numOfRows="1000"))
    assert len(full) > 20
    seen: list[dict] = []
    for page in range(1, len(full) // 7 + 2):
        resp = await get_json(client, STOPS, cityCode="31100", numOfRows="7", pageNo=str(page))
        assert resp["body"]["totalCount"] == len(full) and resp["body"]["pageNo"] == page
        seen.extend(items(resp))
    assert seen == full


async def test_determinism(client: httpx.AsyncClient) -> None:
    a = await get(client, STOPS, cityCode="39", _type="json", numOfRows="50")
    b = await get(client, STOPS, cityCode="39", _type="json", numOfRows="50")
    c = await get(client, STOPS, seed=3, cityCode="39", _type="json", numOfRows="50")
    assert a.content == b.content and a.content != c.content


async def test_session_chain_city_stop_arrivals() -> None:
    backend = make_backend()
    try:
        session = Session(backend, clock=CLOCK, seed=0)
        cities = await session.call("tago_getCtyCodeList", {"numOfRows": 100})
        assert cities.ok and cities.code == "00"
        daejeon = next(c for c in cities.output()["items"] if c["cityname"] == "대전광역시")
        stops = await session.call(
            "tago_getSttnNoList", {"cityCode": daejeon["citycode"], "nodeNm": "대전역"}
        )
        assert stops.ok and stops.output()["items"]
        one = await session.call(
            "tago_getSttnNoList", {"cityCode": 25, "nodeNo": stops.output()["items"][0]["nodeno"]}
        )
        assert len(one.output()["items"]) == 1  # the one-object item is normalized to a list
        node = one.output()["items"][0]["nodeid"]
        arr = await session.call(
            "tago_getSttnAcctoArvlPrearngeInfoList", {"cityCode": daejeon["citycode"], "nodeId": node}
        )
        assert arr.ok and arr.output()["items"] and all(i["nodeid"] == node for i in arr.output()["items"])
        bad = await session.call("tago_getSttnAcctoArvlPrearngeInfoList", {"cityCode": 25})
        assert not bad.ok and bad.code == "11"
    finally:
        await backend.aclose()


def test_operation_metadata() -> None:
    from kopa_inspect.apis import get_operation

    for op_id, field in (
        ("tago_getCtyCodeList", "citycode"),
        ("tago_getSttnNoList", "nodeid"),
        ("tago_getSttnAcctoArvlPrearngeInfoList", "arrtime"),
    ):
        op = get_operation(op_id)
        assert field in op.output_fields and "(" in op.summary
