"""HIRA hospital list and per-institution details, through HTTP and through Session."""

from __future__ import annotations

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session
from kopa_inspect.world import regions as rg
from kopa_inspect.world.hospitals import hira_region, hira_regions

LIST = "/B551182/hospInfoServicev2/getHospBasisList"
DTL = "/B551182/MadmDtlInfoService2.7/getDtlInfo2.7"
DGS = "/B551182/MadmDtlInfoService2.7/getDgsbjtInfo2.7"
CLOCK = "2026-10-15T14:20:00+09:00"


@pytest.fixture(scope="module")
def app():
    return create_app()


async def call(
    app,
    path: str,
    params: dict,
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    json_: bool = True,
    seed: str = "0",
) -> httpx.Response:
    q = dict(params)
    if key is not None:
        q["ServiceKey"] = key
    if json_:
        q["_type"] = "json"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(path, params=q, headers={"X-Kopa-Clock": CLOCK, "X-Kopa-Seed": seed})


def body(resp: httpx.Response) -> dict:
    doc = resp.json()
    assert doc["response"]["header"] == {"resultCode": "00", "resultMsg": "NORMAL SERVICE."}
    return doc["response"]["body"]


def items(b: dict) -> list[dict]:
    if b["items"] == "":
        return []
    item = b["items"]["item"]
    return item if isinstance(item, list) else [item]


def xml_items(resp: httpx.Response) -> tuple[dict, list[dict]]:
    doc = xmltodict.parse(resp.text)["response"]
    assert doc["header"] == {"resultCode": "00", "resultMsg": "NORMAL SERVICE."}
    raw = (doc["body"]["items"] or {}).get("item", [])
    return doc["body"], raw if isinstance(raw, list) else [raw]


def test_hira_region_codes():
    assert hira_region(rg.by_code("11110")).sggu_cd == "110016"
    assert hira_region(rg.by_code("11680")).sggu_cd == "110001"
    assert hira_region(rg.by_code("41135")).sggu_cd == "310403"
    assert hira_region(rg.by_code("26350")).sggu_nm == "부산해운대구"
    assert hira_region(rg.by_code("50110")).sggu_cd == "390200"
    assert hira_region(rg.by_code("41110")) is None, "HIRA files 수원시 under its 구"
    codes = [h.sggu_cd for h in hira_regions()]
    assert len(codes) == len(set(codes)) and len(codes) > 120
    assert all(h.sggu_cd[:2] == h.sido_cd[:2] for h in hira_regions())


async def test_list_by_sggu_json_and_xml(app):
    b = body(await call(app, LIST, {"sidoCd": "110000", "sgguCd": "110016", "numOfRows": "100"}))
    rows = items(b)
    assert b["totalCount"] == len(rows) > 5
    snuh = next(r for r in rows if r["yadmNm"] == "서울대학교병원")
    assert snuh["clCd"] == "01" and snuh["clCdNm"] == "상급종합" and snuh["sgguCdNm"] == "종로구"
    assert (
        "XPos" in snuh and "xPos" not in snuh and 126.9 < snuh["XPos"] < 127.1 and 37.5 < snuh["YPos"] < 37.7
    )
    assert snuh["sgguCd"] == 110016 and snuh["postNo"][0] == "0"
    assert all(r["sgguCd"] == 110016 for r in rows)
    xb, xi = xml_items(await call(app, LIST, {"sgguCd": "110016", "numOfRows": "100"}, json_=False))
    assert int(xb["totalCount"]) == b["totalCount"] and [i["ykiho"] for i in xi] == [r["ykiho"] for r in rows]
    assert xi[0]["sgguCd"] == "110016"


async def test_pagination_totals_agree(app):
    params = {"sidoCd": "110000", "clCd": "31", "numOfRows": "40"}
    first = body(await call(app, LIST, params))
    total = first["totalCount"]
    seen: list[str] = []
    for page in range(1, (total + 39) // 40 + 1):
        b = body(await call(app, LIST, {**params, "pageNo": str(page)}))
        assert b["totalCount"] == total
        seen += [r["ykiho"] for r in items(b)]
    assert len(seen) == len(set(seen)) == total > 100


async def test_single_item_is_object(app):
    b = body(await call(app, LIST, {"yadmNm": "삼성서울병원"}))
    assert b["totalCount"] == 1 and isinstance(b["items"]["item"], dict)


async def test_list_to_details_same_ykiho(app):
    rows = items(body(await call(app, LIST, {"sgguCd": "110009", "dgsbjtCd": "11", "numOfRows": "50"})))
    assert rows
    for r in rows:
        depts = items(body(await call(app, DGS, {"ykiho": r["ykiho"]})))
        assert any(d["dgsbjtCd"] == 11 and d["dgsbjtCdNm"] == "소아청소년과" for d in depts)
        if r["clCd"] == 31:
            assert r["mdeptSdrCnt"] == sum(d["dgsbjtPrSdrCnt"] for d in depts)
        dtl = body(await call(app, DTL, {"ykiho": r["ykiho"]}))
        assert dtl["totalCount"] == 1 and isinstance(dtl["items"]["item"], dict)
        assert dtl["items"]["item"]["trmtMonStart"] in ("0830", "0900", "0930")
    xb, xi = xml_items(await call(app, DGS, {"ykiho": rows[0]["ykiho"]}, json_=False))
    assert xi and xi[0]["dgsbjtCdNm"]


async def test_address_search_finds_the_detail_institution(app):
    rows = items(body(await call(app, LIST, {"sgguCd": "110001", "emdongNm": "일원동", "numOfRows": "50"})))
    smc = next(r for r in rows if r["yadmNm"] == "삼성서울병원")
    assert "일원동" in smc["addr"] and all(r["emdongNm"] == "일원동" for r in rows)
    by_name = body(await call(app, LIST, {"yadmNm": "삼성서울"}))["items"]["item"]
    assert by_name["ykiho"] == smc["ykiho"]
    depts = items(body(await call(app, DGS, {"ykiho": smc["ykiho"], "numOfRows": "50"})))
    assert len(depts) >= 10 and sum(d["dgsbjtPrSdrCnt"] for d in depts) == smc["mdeptSdrCnt"]
    dtl = body(await call(app, DTL, {"ykiho": smc["ykiho"]}))["items"]["item"]
    assert dtl["emyDayYn"] == "Y"


async def test_geo_search(app):
    params = {"xPos": "126.9990", "yPos": "37.5797", "radius": "3000", "numOfRows": "200"}
    rows = items(body(await call(app, LIST, params)))
    assert rows and rows[0]["yadmNm"] == "서울대학교병원"
    dists = [int(r["distance"]) for r in rows]
    assert dists == sorted(dists) and dists[-1] <= 3000


async def test_no_data(app):
    b = body(await call(app, LIST, {"sgguCd": "999999"}))
    assert b["items"] == "" and b["totalCount"] == 0
    b = body(await call(app, DTL, {"ykiho": "JDQ4MTYyMiM1MSMkMSMkMCMkODkkMzgx"}))
    assert b["items"] == "" and b["totalCount"] == 0


@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        (DTL, {}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR")),
        (DGS, {}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR")),
        (LIST, {"sgguCd": "11001"}, ("10", "INVALID_REQUEST_PARAMETER_ERROR")),
        (LIST, {"numOfRows": "ten"}, ("10", "INVALID_REQUEST_PARAMETER_ERROR")),
        (LIST, {"xPos": "127.0", "yPos": "37.5"}, ("10", "INVALID_REQUEST_PARAMETER_ERROR")),
    ],
)
async def test_parameter_errors(app, path, params, expected):
    doc = (await call(app, path, params)).json()
    assert doc["response"]["header"] == {"resultCode": expected[0], "resultMsg": expected[1]}
    xml = xmltodict.parse((await call(app, path, params, json_=False)).text)
    assert xml["response"]["header"] == {"resultCode": expected[0], "resultMsg": expected[1]}


@pytest.mark.parametrize("key", [None, "wrong-key"])
async def test_gateway_key_errors(app, key):
    resp = await call(app, LIST, {"sgguCd": "110016"}, key=key)  # _type=json: the gateway's JSON form
    if key is None:
        assert_gateway(resp, "20", "SERVICE_KEY_IS_NULL")
    else:
        assert_gateway(resp, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
    xml = await call(app, LIST, {"sgguCd": "110016"}, key=key, json_=False)
    assert_gateway(xml, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")


async def test_deterministic_bytes(app):
    params = {"sgguCd": "310403", "numOfRows": "30"}
    assert (await call(app, LIST, params)).content == (await call(create_app(), LIST, params)).content
    assert (await call(app, LIST, params, seed="3")).content != (await call(app, LIST, params)).content


async def test_session_chain():
    session = Session(make_backend(), clock=CLOCK)
    lst = await session.call("hira_getHospBasisList", {"sgguCd": "110009", "dgsbjtCd": "11"})
    assert lst.ok and lst.parsed.total_count
    ykiho = lst.parsed.items[0]["ykiho"]
    dgs = await session.call("hira_getDgsbjtInfo2_7", {"ykiho": ykiho})
    dtl = await session.call("hira_getDtlInfo2_7", {"ykiho": ykiho})
    assert dgs.ok and dtl.ok and any(d["dgsbjtCd"] == 11 for d in dgs.parsed.items)
    missing = await session.call("hira_getDtlInfo2_7", {})
    assert not missing.ok and missing.code == "11"


def test_operation_metadata():
    for op_id in ("hira_getHospBasisList", "hira_getDtlInfo2_7", "hira_getDgsbjtInfo2_7"):
        op = get_operation(op_id)
        assert op.output_fields and any("\uac00" <= ch <= "\ud7a3" for ch in op.summary) and "(" in op.summary


def test_world_hospitals_lie_in_their_regions():
    from kopa_inspect.world import World
    from kopa_inspect.world.hospitals import build_hospitals
    from kopa_inspect.world.tour import distance_m

    data = build_hospitals(World(0, CLOCK))
    assert len(data.by_ykiho) == len(data.hospitals) > 1000
    for h in data.hospitals:
        r = h.hira.region
        assert h.addr.startswith(r.sido_name) and distance_m(h.lat, h.lon, r.lat, r.lon) < 15_000, h.yadmNm
