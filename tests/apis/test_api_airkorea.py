"""AirKorea (ArpltnInforInqireSvc, MsrstnInfoInqireSvc) through the real HTTP path and Session."""

from __future__ import annotations

import re

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.apis.airkorea import cai, data_time, grade, wgs84_to_tm
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session
from kopa_inspect.world import KST
from kopa_inspect.world.air import stations

APP = create_app()
CLOCK = "2026-10-15T14:20:00+09:00"
ARPLTN = "/B552584/ArpltnInforInqireSvc"
MSRSTN = "/B552584/MsrstnInfoInqireSvc"
DATATIME = re.compile(r"\d{4}-\d{2}-\d{2} (?:[01]\d|2[0-4]):00")


async def get(
    path: str, clock: str = CLOCK, seed: int | None = None, key: str = DEFAULT_EMULATOR_KEY, **params: object
) -> httpx.Response:
    headers = {"X-Kopa-Clock": clock}
    if seed is not None:
        headers["X-Kopa-Seed"] = str(seed)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=APP), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(path, params={"serviceKey": key, **params}, headers=headers)


def assert_gateway_30(r: httpx.Response) -> None:
    assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")  # JSON form for returnType=json


# --- getCtprvnRltmMesureDnsty --------------------------------------------------------------


async def test_ctprvn_json_shape_body_first_bare_list():
    r = await get(
        f"{ARPLTN}/getCtprvnRltmMesureDnsty", sidoName="서울", returnType="json", numOfRows=100, ver="1.3"
    )
    doc = r.json()
    assert list(doc["response"]) == ["body", "header"]
    assert doc["response"]["header"] == {"resultMsg": "NORMAL_CODE", "resultCode": "00"}
    body = doc["response"]["body"]
    assert list(body) == ["totalCount", "items", "pageNo", "numOfRows"]
    items = body["items"]
    assert isinstance(items, list) and len(items) == body["totalCount"] >= 25
    names = [i["stationName"] for i in items]
    assert {"종로구", "중구", "강남구"} <= set(names)
    for it in items:
        assert it["sidoName"] == "서울"
        assert DATATIME.fullmatch(it["dataTime"]) and it["dataTime"] == "2026-10-15 14:00"
        for k in ("so2Value", "coValue", "o3Value", "no2Value", "pm10Value", "pm25Value", "khaiValue"):
            assert isinstance(it[k], str)
            assert it[k] == "-" or float(it[k]) >= 0
        for k in ("pm10Grade", "pm25Grade", "pm10Grade1h", "o3Grade"):
            assert it[k] is None or it[k] in ("1", "2", "3", "4")
        for p in ("so2", "co", "o3", "no2", "pm10", "pm25"):
            assert (it[f"{p}Flag"] is None) == (it[f"{p}Value"] != "-")


async def test_ctprvn_xml_default_and_nationwide_pagination():
    r = await get(f"{ARPLTN}/getCtprvnRltmMesureDnsty", sidoName="부산", numOfRows=5)
    doc = xmltodict.parse(r.text)["response"]
    assert doc["header"] == {"resultCode": "00", "resultMsg": "NORMAL_CODE"}
    assert len(doc["body"]["items"]["item"]) == 5
    total = int(doc["body"]["totalCount"])
    bodies = [
        (
            await get(
                f"{ARPLTN}/getCtprvnRltmMesureDnsty",
                sidoName="전국",
                returnType="json",
                numOfRows=100,
                pageNo=k,
            )
        ).json()["response"]["body"]
        for k in range(1, -(-len(stations()) // 100) + 1)
    ]
    assert {b["totalCount"] for b in bodies} == {len(stations())}
    names = [i["stationName"] for b in bodies for i in b["items"]]
    assert len(names) == len(set(names)) == bodies[0]["totalCount"]
    assert total == sum(1 for s in stations() if s.sido == "부산")


async def test_ctprvn_single_row_is_still_a_list():
    body = (
        await get(f"{ARPLTN}/getCtprvnRltmMesureDnsty", sidoName="세종", returnType="json", numOfRows=1)
    ).json()["response"]["body"]
    assert isinstance(body["items"], list) and len(body["items"]) == 1


async def test_ctprvn_errors():
    r = await get(f"{ARPLTN}/getCtprvnRltmMesureDnsty", returnType="json")
    assert r.json()["response"]["header"] == {
        "resultCode": "11",
        "resultMsg": "NO_MANDATORY_REQUEST_PARAMETERS_ERROR",
    }
    r = await get(f"{ARPLTN}/getCtprvnRltmMesureDnsty", sidoName="서울", ver="9.9", returnType="json")
    assert r.json()["response"]["header"]["resultCode"] == "10"
    r = await get(f"{ARPLTN}/getCtprvnRltmMesureDnsty", sidoName="서울특별시", returnType="json")
    body = r.json()["response"]["body"]
    assert body["items"] == "" and body["totalCount"] == 0  # long name: no rows, not an error
    assert_gateway_30(
        await get(f"{ARPLTN}/getCtprvnRltmMesureDnsty", key="bad", sidoName="서울", returnType="json")
    )


# --- getMsrstnAcctoRltmMesureDnsty ---------------------------------------------------------


async def test_station_daily_newest_first_and_versions():
    r = await get(
        f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
        stationName="종로구",
        dataTerm="DAILY",
        returnType="json",
        numOfRows=100,
    )
    body = r.json()["response"]["body"]
    items = body["items"]
    assert body["totalCount"] == 24 == len(items)
    assert items[0]["dataTime"] == "2026-10-15 14:00" and items[-1]["dataTime"] == "2026-10-14 15:00"
    assert "2026-10-14 24:00" in [i["dataTime"] for i in items]  # midnight reads 24:00
    assert "stationName" not in items[0] and "pm25Value" not in items[0]  # no ver: the basic field set
    v13 = (
        await get(
            f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
            stationName="종로구",
            dataTerm="daily",
            ver="1.3",
            returnType="json",
        )
    ).json()["response"]["body"]["items"][0]
    assert {"pm25Value", "pm10Value24", "mangName", "pm10Grade1h", "pm25Grade1h"} <= set(v13)
    assert v13["mangName"] == "도시대기"
    assert v13["pm10Value"] == items[0]["pm10Value"]  # same hour, same world


async def test_station_month_pagination_and_xml():
    p1 = (
        await get(
            f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
            stationName="강남구",
            dataTerm="MONTH",
            returnType="json",
            numOfRows=500,
            pageNo=1,
        )
    ).json()["response"]["body"]
    p2 = (
        await get(
            f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
            stationName="강남구",
            dataTerm="MONTH",
            returnType="json",
            numOfRows=500,
            pageNo=2,
        )
    ).json()["response"]["body"]
    assert p1["totalCount"] == p2["totalCount"] == 720
    times = [i["dataTime"] for i in p1["items"] + p2["items"]]
    assert len(times) == len(set(times)) == 720
    xml = xmltodict.parse(
        (
            await get(
                f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", stationName="강남구", dataTerm="DAILY", numOfRows=1
            )
        ).text
    )["response"]
    assert (
        xml["header"]["resultCode"] == "00" and xml["body"]["items"]["item"]["dataTime"] == "2026-10-15 14:00"
    )


async def test_station_errors_and_nodata():
    r = await get(
        f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
        stationName="없는측정소",
        dataTerm="DAILY",
        returnType="json",
    )
    doc = r.json()["response"]
    assert (
        doc["header"]["resultCode"] == "00" and doc["body"]["items"] == "" and doc["body"]["totalCount"] == 0
    )
    r = await get(
        f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", stationName="종로구", dataTerm="WEEK", returnType="json"
    )
    assert r.json()["response"]["header"] == {
        "resultCode": "10",
        "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR",
    }
    r = await get(f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", stationName="종로구", returnType="json")
    assert r.json()["response"]["header"]["resultCode"] == "11"
    assert_gateway_30(
        await get(
            f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
            key="bad",
            stationName="종로구",
            dataTerm="DAILY",
            returnType="json",
        )
    )


async def test_same_seed_clock_same_bytes():
    args = {"stationName": "종로구", "dataTerm": "DAILY", "returnType": "json", "ver": "1.3"}
    a = await get(f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", **args)
    b = await get(f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", **args)
    c = await get(f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", seed=3, **args)
    assert a.content == b.content and a.content != c.content
    later = await get(f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty", clock="2026-10-15T15:20:00+09:00", **args)
    # one hour later the list shifts by one hour: the old newest row is now second
    assert later.json()["response"]["body"]["items"][1] == a.json()["response"]["body"]["items"][0]


# --- MsrstnInfoInqireSvc --------------------------------------------------------------------


def test_tm_projection_matches_recorded_point():
    # 역삼동: getTMStdrCrdnt returned tmX 203338.99, tmY 444208.20 (reference §2.3b); our 역삼동 centroid
    # (37.5006, 127.0364) is a few hundred metres from AirKorea's own point.
    x, y = wgs84_to_tm(37.5006, 127.0364)
    assert abs(x - 203338.99) < 400 and abs(y - 444208.20) < 400
    # the origin of the projection (Bessel 38N 127E) maps to the false origin, after the datum shift
    x0, y0 = wgs84_to_tm(38.0, 127.0)
    assert abs(x0 - 200000) < 500 and abs(y0 - 500000) < 500


async def test_tm_std_crdnt_ok_and_empty():
    r = await get(f"{MSRSTN}/getTMStdrCrdnt", umdName="역삼동", returnType="json")
    body = r.json()["response"]["body"]
    item = body["items"][0]
    assert body["totalCount"] >= 1
    assert (item["sidoName"], item["sggName"], item["umdName"]) == ("서울특별시", "강남구", "역삼동")
    assert isinstance(item["tmX"], str) and 200000 < float(item["tmX"]) < 206000
    xml = xmltodict.parse((await get(f"{MSRSTN}/getTMStdrCrdnt", umdName="청운동")).text)["response"]
    assert xml["header"]["resultCode"] == "00" and xml["body"]["items"]["item"]["umdName"] == "청운동"
    none = (await get(f"{MSRSTN}/getTMStdrCrdnt", umdName="없는동", returnType="json")).json()["response"][
        "body"
    ]
    assert none["items"] == "" and none["totalCount"] == 0
    r = await get(f"{MSRSTN}/getTMStdrCrdnt", returnType="json")
    assert r.json()["response"]["header"]["resultCode"] == "11"
    assert_gateway_30(await get(f"{MSRSTN}/getTMStdrCrdnt", key="bad", umdName="역삼동", returnType="json"))


async def test_nearby_sorted_by_distance_and_chain():
    tm = (await get(f"{MSRSTN}/getTMStdrCrdnt", umdName="청운동", returnType="json")).json()
    item = tm["response"]["body"]["items"][0]
    r = await get(f"{MSRSTN}/getNearbyMsrstnList", tmX=item["tmX"], tmY=item["tmY"], returnType="json")
    near = r.json()["response"]["body"]["items"]
    assert len(near) == 3
    dists = [float(n["tm"]) for n in near]
    assert dists == sorted(dists) and dists[0] < 3.0
    assert near[0]["stationName"] in ("종로구", "종로", "서대문구")
    rt = await get(
        f"{ARPLTN}/getMsrstnAcctoRltmMesureDnsty",
        stationName=near[0]["stationName"],
        dataTerm="DAILY",
        returnType="json",
    )
    assert rt.json()["response"]["body"]["totalCount"] == 24
    xml = xmltodict.parse((await get(f"{MSRSTN}/getNearbyMsrstnList", tmX=item["tmX"], tmY=item["tmY"])).text)
    assert xml["response"]["header"]["resultCode"] == "00"
    r = await get(f"{MSRSTN}/getNearbyMsrstnList", tmX="abc", tmY="1", returnType="json")
    assert r.json()["response"]["header"]["resultCode"] == "10"
    r = await get(f"{MSRSTN}/getNearbyMsrstnList", tmX="200000", returnType="json")
    assert r.json()["response"]["header"]["resultCode"] == "11"
    assert_gateway_30(
        await get(f"{MSRSTN}/getNearbyMsrstnList", key="bad", tmX="1", tmY="1", returnType="json")
    )


# --- helpers and Session ---------------------------------------------------------------------


def test_grades_and_cai_and_datatime():
    from datetime import datetime

    assert [grade("pm10", v) for v in (30, 31, 80, 81, 151)] == [1, 2, 2, 3, 4]
    assert [grade("pm25", v) for v in (15, 16, 36, 76)] == [1, 2, 3, 4]
    assert grade("o3", None) is None
    assert cai("pm10", 30) == pytest.approx(50) and cai("pm10", 80) == pytest.approx(100)
    assert data_time(datetime(2026, 10, 15, 0, tzinfo=KST)) == "2026-10-14 24:00"
    assert data_time(datetime(2026, 10, 15, 9, tzinfo=KST)) == "2026-10-15 09:00"


def test_station_names_unique_and_per_sido():
    names = [s.name for s in stations()]
    assert len(names) == len(set(names))
    sidos = {s.sido for s in stations()}
    assert sidos == {
        "서울",
        "부산",
        "대구",
        "인천",
        "광주",
        "대전",
        "울산",
        "경기",
        "강원",
        "충북",
        "충남",
        "전북",
        "전남",
        "경북",
        "경남",
        "제주",
        "세종",
    }


async def test_session_chain():
    s = Session(make_backend(), clock=CLOCK)
    tm = await s.call("airkorea_getTMStdrCrdnt", {"umdName": "역삼동"})
    assert tm.ok and tm.code == "00" and tm.message == "NORMAL_CODE"
    near = await s.call(
        "airkorea_getNearbyMsrstnList", {"tmX": tm.parsed.items[0]["tmX"], "tmY": tm.parsed.items[0]["tmY"]}
    )
    assert near.ok and len(near.parsed.items) == 3
    rt = await s.call(
        "airkorea_getMsrstnAcctoRltmMesureDnsty",
        {"stationName": near.parsed.items[0]["stationName"], "dataTerm": "DAILY", "ver": "1.3"},
    )
    assert rt.ok and rt.parsed.total_count == 24 and rt.parsed.items[0]["dataTime"] == "2026-10-15 14:00"
    sido = await s.call("airkorea_getCtprvnRltmMesureDnsty", {"sidoName": "제주"})
    assert sido.ok and all(i["sidoName"] == "제주" for i in sido.parsed.items)
    for op_id in (
        "airkorea_getCtprvnRltmMesureDnsty",
        "airkorea_getMsrstnAcctoRltmMesureDnsty",
        "airkorea_getTMStdrCrdnt",
        "airkorea_getNearbyMsrstnList",
    ):
        op = get_operation(op_id)
        assert op.output_fields and "(" in op.summary
