"""TourAPI KorService2 emulation through the real HTTP path and through Session."""

from __future__ import annotations

import json
import urllib.parse

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session

BASE = "/B551011/KorService2"
CLOCK = "2026-10-05T10:00:00+09:00"
APP_PARAMS = {"MobileOS": "ETC", "MobileApp": "kopa-test"}


@pytest.fixture(scope="module")
def app():
    return create_app()


async def call(
    app,
    op: str,
    params: dict,
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    json_: bool = True,
    clock: str = CLOCK,
    seed: str = "0",
) -> httpx.Response:
    q = dict(params)
    if key is not None:
        q["serviceKey"] = key
    if json_:
        q["_type"] = "json"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(f"{BASE}/{op}", params=q, headers={"X-Kopa-Clock": clock, "X-Kopa-Seed": seed})


def body(resp: httpx.Response) -> dict:
    doc = resp.json()
    assert doc["response"]["header"] == {"resultCode": "0000", "resultMsg": "OK"}
    return doc["response"]["body"]


def items(b: dict) -> list[dict]:
    if b["items"] == "":
        return []
    item = b["items"]["item"]
    return item if isinstance(item, list) else [item]


def xml_items(resp: httpx.Response) -> tuple[dict, list[dict]]:
    doc = xmltodict.parse(resp.text)["response"]
    assert doc["header"] == {"resultCode": "0000", "resultMsg": "OK"}
    raw = (doc["body"]["items"] or {}).get("item", [])
    return doc["body"], raw if isinstance(raw, list) else [raw]


# --- areaCode2 -------------------------------------------------------------------------------


async def test_area_code_pages_json_and_xml(app):
    p1 = body(await call(app, "areaCode2", APP_PARAMS))
    p2 = body(await call(app, "areaCode2", {**APP_PARAMS, "pageNo": "2"}))
    assert p1["totalCount"] == p2["totalCount"] == 17
    assert (p1["numOfRows"], p1["pageNo"]) == (10, 1)
    names = [i["name"] for i in items(p1) + items(p2)]
    assert len(names) == len(set(names)) == 17
    assert {"code": "1", "name": "서울", "rnum": 1}.items() <= items(p1)[0].items()
    xb, xi = xml_items(await call(app, "areaCode2", APP_PARAMS, json_=False))
    assert xb["totalCount"] == "17" and [i["name"] for i in xi] == names[:10]


async def test_area_code_sigungu(app):
    seoul = items(body(await call(app, "areaCode2", {**APP_PARAMS, "areaCode": "1", "numOfRows": "30"})))
    assert len(seoul) == 25 and {"code": "23", "name": "종로구"}.items() <= seoul[22].items()
    busan = items(body(await call(app, "areaCode2", {**APP_PARAMS, "areaCode": "6", "numOfRows": "30"})))
    assert busan[15]["name"] == "해운대구" and busan[15]["code"] == "16"


# --- lists -----------------------------------------------------------------------------------


async def test_area_based_list_gyeongbokgung(app):
    params = {**APP_PARAMS, "areaCode": "1", "sigunguCode": "23", "contentTypeId": "12", "numOfRows": "100"}
    b = body(await call(app, "areaBasedList2", params))
    rows = items(b)
    assert b["totalCount"] == len(rows) > 1
    gbg = next(r for r in rows if r["title"] == "경복궁")
    assert gbg["contentid"] == "126508" and gbg["contenttypeid"] == "12"
    assert all(isinstance(v, str) for r in rows for v in r.values()), "every item value is a string"
    assert 126.9 < float(gbg["mapx"]) < 127.1 and 37.5 < float(gbg["mapy"]) < 37.7
    assert gbg["lDongRegnCd"] == "11" and gbg["lDongSignguCd"] == "110"
    assert all(r["areacode"] == "1" and r["sigungucode"] == "23" and r["contenttypeid"] == "12" for r in rows)
    xb, xi = xml_items(await call(app, "areaBasedList2", params, json_=False))
    assert int(xb["totalCount"]) == b["totalCount"] and [i["contentid"] for i in xi] == [
        r["contentid"] for r in rows
    ]


async def test_pagination_totals_agree(app):
    params = {**APP_PARAMS, "areaCode": "6", "contentTypeId": "39", "numOfRows": "7", "arrange": "A"}
    first = body(await call(app, "areaBasedList2", params))
    total = first["totalCount"]
    assert total > 14
    seen: list[str] = []
    for page in range(1, (total + 6) // 7 + 1):
        b = body(await call(app, "areaBasedList2", {**params, "pageNo": str(page)}))
        assert b["totalCount"] == total and b["pageNo"] == page
        seen += [r["contentid"] for r in items(b)]
    assert len(seen) == len(set(seen)) == total
    titles = [
        r["title"] for r in items(body(await call(app, "areaBasedList2", {**params, "numOfRows": "1000"})))
    ]
    assert titles == sorted(titles), "arrange=A is title order"


async def test_arrange_image_only_and_modified_order(app):
    params = {**APP_PARAMS, "areaCode": "1", "numOfRows": "1000"}
    q = items(body(await call(app, "areaBasedList2", {**params, "arrange": "Q"})))
    c = items(body(await call(app, "areaBasedList2", {**params, "arrange": "C"})))
    assert all(r["firstimage"] for r in q) and len(q) < len(c)
    mods = [r["modifiedtime"] for r in c]
    assert mods == sorted(mods, reverse=True)


async def test_search_keyword_single_item_is_object(app):
    b = body(
        await call(app, "searchKeyword2", {**APP_PARAMS, "keyword": "성산일출봉", "contentTypeId": "12"})
    )
    assert b["totalCount"] == 1 and isinstance(b["items"]["item"], dict)
    assert b["items"]["item"]["areacode"] == "39"
    xb, xi = xml_items(
        await call(
            app, "searchKeyword2", {**APP_PARAMS, "keyword": "성산일출봉", "contentTypeId": "12"}, json_=False
        )
    )
    assert xi[0]["title"] == "성산일출봉"


async def test_no_rows_is_empty_string_items(app):
    b = body(await call(app, "searchKeyword2", {**APP_PARAMS, "keyword": "존재하지않는관광지이름"}))
    assert b["items"] == "" and b["totalCount"] == 0
    xb, xi = xml_items(
        await call(app, "searchKeyword2", {**APP_PARAMS, "keyword": "존재하지않는관광지"}, json_=False)
    )
    assert xi == [] and xb["totalCount"] == "0"


async def test_location_based_list_near_gyeongbokgung(app):
    params = {
        **APP_PARAMS,
        "mapX": "126.9770",
        "mapY": "37.5796",
        "radius": "2000",
        "contentTypeId": "39",
        "numOfRows": "50",
    }
    rows = items(body(await call(app, "locationBasedList2", params)))
    assert len(rows) >= 2
    dists = [float(r["dist"]) for r in rows]
    assert dists == sorted(dists) and dists[-1] <= 2000
    assert all(r["contenttypeid"] == "39" for r in rows)
    bad = (await call(app, "locationBasedList2", {**params, "radius": "20001"})).json()
    assert bad == {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR(radius)"}


async def test_festivals_follow_the_clock(app):
    rows = items(
        body(
            await call(
                app, "searchFestival2", {**APP_PARAMS, "eventStartDate": "20261005", "numOfRows": "1000"}
            )
        )
    )
    assert rows and all(r["eventenddate"] >= "20261005" for r in rows)
    jinju = next(r for r in rows if r["title"] == "진주남강유등축제")
    assert (jinju["eventstartdate"], jinju["eventenddate"]) == ("20261001", "20261015")
    assert any("20261005" <= r["eventstartdate"] <= "20261031" for r in rows), (
        "upcoming local festivals exist"
    )
    older = items(
        body(
            await call(
                app,
                "searchFestival2",
                {**APP_PARAMS, "eventStartDate": "20250101", "numOfRows": "1000"},
                clock="2025-03-01T09:00:00+09:00",
            )
        )
    )
    assert any(r["title"] == "진해군항제" and r["eventstartdate"] == "20250325" for r in older)


# --- detailCommon2 ---------------------------------------------------------------------------


async def test_detail_common(app):
    b = body(await call(app, "detailCommon2", {**APP_PARAMS, "contentId": "126508"}))
    item = b["items"]["item"]
    assert isinstance(item, dict) and item["contentid"] == "126508" and item["title"] == "경복궁"
    assert "contentId" not in item and item["overview"] and item["homepage"].startswith("<a ")
    xb, xi = xml_items(await call(app, "detailCommon2", {**APP_PARAMS, "contentId": "126508"}, json_=False))
    assert xi[0]["addr1"] == "서울특별시 종로구 사직로 161"


async def test_detail_common_unknown_id_is_ok_and_empty(app):
    b = body(await call(app, "detailCommon2", {**APP_PARAMS, "contentId": "9999999999"}))
    assert b["items"] == "" and b["totalCount"] == 0


async def test_detail_intro_by_type(app):
    b = body(await call(app, "detailIntro2", {**APP_PARAMS, "contentId": "126508", "contentTypeId": "12"}))
    item = b["items"]["item"]
    assert item["restdate"] == "매주 화요일" and item["contentid"] == "126508" and item["usetime"]
    rows = items(
        body(
            await call(
                app,
                "locationBasedList2",
                {**APP_PARAMS, "mapX": "126.977", "mapY": "37.5796", "radius": "2000", "contentTypeId": "39"},
            )
        )
    )
    food = body(
        await call(
            app, "detailIntro2", {**APP_PARAMS, "contentId": rows[0]["contentid"], "contentTypeId": "39"}
        )
    )["items"]["item"]
    assert food["firstmenu"] in rows[0]["title"] and food["restdatefood"]
    xb, xi = xml_items(
        await call(
            app, "detailIntro2", {**APP_PARAMS, "contentId": "126508", "contentTypeId": "12"}, json_=False
        )
    )
    assert xi[0]["restdate"] == "매주 화요일"
    wrong = body(
        await call(app, "detailIntro2", {**APP_PARAMS, "contentId": "126508", "contentTypeId": "39"})
    )
    assert wrong["items"] == ""
    missing = (await call(app, "detailIntro2", {**APP_PARAMS, "contentId": "126508"})).json()
    assert missing == {
        "resultCode": "11",
        "resultMsg": "NO_MANDATORY_REQUEST_PARAMETERS_ERROR(contentTypeId)",
    }


# --- failures --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "params", "expected"),
    [
        (
            "detailCommon2",
            {**APP_PARAMS, "contentId": "126508", "addrinfoYN": "Y"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(addrinfoYN)"),
        ),
        (
            "detailCommon2",
            {**APP_PARAMS, "contentId": "126508", "contentTypeId": "12"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(contentTypeId)"),
        ),
        ("detailCommon2", {**APP_PARAMS}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR(contentId)")),
        ("areaCode2", {"MobileApp": "x"}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR(MobileOS)")),
        ("areaCode2", {"MobileOS": "ETC"}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR(MobileApp)")),
        (
            "areaCode2",
            {**APP_PARAMS, "MobileOS": "PHONE"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(MobileOS)"),
        ),
        (
            "areaBasedList2",
            {**APP_PARAMS, "numOfRows": "1001"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(numOfRows)"),
        ),
        (
            "areaBasedList2",
            {**APP_PARAMS, "contentTypeId": "99"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(contentTypeId)"),
        ),
        (
            "areaBasedList2",
            {**APP_PARAMS, "sigunguCode": "23"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(areaCode)"),
        ),
        (
            "areaBasedList2",
            {**APP_PARAMS, "pageNo": "abc"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(pageNo)"),
        ),
        ("searchKeyword2", {**APP_PARAMS}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR(keyword)")),
        ("searchFestival2", {**APP_PARAMS}, ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR(eventStartDate)")),
        (
            "searchFestival2",
            {**APP_PARAMS, "eventStartDate": "2026-10-05"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(eventStartDate)"),
        ),
        (
            "locationBasedList2",
            {**APP_PARAMS, "mapX": "east", "mapY": "37.5", "radius": "100"},
            ("10", "INVALID_REQUEST_PARAMETER_ERROR(mapX)"),
        ),
    ],
)
async def test_parameter_errors(app, op, params, expected):
    doc = (await call(app, op, params)).json()
    assert doc == {"resultCode": expected[0], "resultMsg": expected[1]}
    xml = xmltodict.parse((await call(app, op, params, json_=False)).text)
    assert xml["response"]["header"] == {"resultCode": expected[0], "resultMsg": expected[1]}


async def test_numofrows_cap_itself_is_accepted(app):
    b = body(await call(app, "areaBasedList2", {**APP_PARAMS, "numOfRows": "1000"}))
    assert b["numOfRows"] == 1000 and len(items(b)) == min(1000, b["totalCount"])


@pytest.mark.parametrize(
    "key",
    [None, "not-a-key", urllib.parse.quote(DEFAULT_EMULATOR_KEY, safe="")],
    ids=["missing", "unknown", "double"],
)
async def test_gateway_key_errors_in_the_requested_form(app, key):
    resp = await call(app, "areaCode2", APP_PARAMS, key=key)  # _type=json: JSON form, HTTP 403 (live, 2026)
    if key is None:
        assert_gateway(resp, "20", "SERVICE_KEY_IS_NULL")
    else:
        assert_gateway(resp, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")


async def test_same_seed_and_clock_same_bytes(app):
    params = {**APP_PARAMS, "areaCode": "39", "numOfRows": "50"}
    a = await call(app, "areaBasedList2", params)
    b = await call(create_app(), "areaBasedList2", params)
    assert a.content == b.content
    other = await call(app, "areaBasedList2", params, seed="7")
    assert other.content != a.content


# --- through Session (the tools' path) ---------------------------------------------------------


async def test_session_chain_area_list_detail_nearby():
    session = Session(make_backend(), clock=CLOCK)
    areas = await session.call("tourapi_areaCode2", {"areaCode": "6", "numOfRows": 20})
    assert areas.ok and areas.code == "0000"
    haeundae = next(i["code"] for i in areas.parsed.items if i["name"] == "해운대구")
    lst = await session.call(
        "tourapi_areaBasedList2",
        {"areaCode": "6", "sigunguCode": haeundae, "contentTypeId": "12", "numOfRows": 50},
    )
    beach = next(i for i in lst.parsed.items if i["title"] == "해운대해수욕장")
    detail = await session.call("tourapi_detailCommon2", {"contentId": beach["contentid"]})
    assert detail.ok and detail.parsed.items[0]["addr1"].startswith("부산광역시 해운대구")
    near = await session.call(
        "tourapi_locationBasedList2",
        {
            "mapX": detail.parsed.items[0]["mapx"],
            "mapY": detail.parsed.items[0]["mapy"],
            "radius": 2000,
            "contentTypeId": "39",
        },
    )
    assert near.ok and near.parsed.total_count and near.parsed.total_count >= 2
    bad = await session.call("tourapi_searchFestival2", {})
    assert not bad.ok and bad.code == "11" and "eventStartDate" in bad.message
    assert json.loads(detail.for_model())["items"][0]["contentid"] == beach["contentid"]


def test_operation_metadata():
    for name in (
        "areaCode2",
        "areaBasedList2",
        "searchKeyword2",
        "detailCommon2",
        "locationBasedList2",
        "searchFestival2",
        "detailIntro2",
    ):
        op = get_operation(f"tourapi_{name}")
        assert op.output_fields and any("\uac00" <= ch <= "\ud7a3" for ch in op.summary) and "(" in op.summary
        visible = {p.name for p in op.visible_params}
        assert not visible & {"serviceKey", "MobileOS", "MobileApp", "_type"}


def test_world_places_lie_in_their_regions():
    from kopa_inspect.world import World
    from kopa_inspect.world import regions as rg
    from kopa_inspect.world.tour import AREA_BY_CODE, build_tour, distance_m

    data = build_tour(World(0, CLOCK))
    assert len({p.contentid for p in data.places}) == len(data.places)
    sights = [p for p in data.places if p.real]
    for p in data.places:
        region = rg.by_code(p.lawd_cd)
        assert region is not None and p.addr1.startswith(region.sido_name)
        # Real sights lie within their 시군구 (성산일출봉 is ~35 km from 서귀포시청); synthetic places are
        # within ~2 km of the 시군구 centre or one of its 법정동, or near a real sight.
        centres = [region, *rg.umds(p.lawd_cd)]
        nearest = min(distance_m(p.mapy, p.mapx, c.lat, c.lon) for c in centres)
        near_sight = any(distance_m(p.mapy, p.mapx, s.mapy, s.mapx) < 1_600 for s in sights)
        assert nearest < (45_000 if p.real else 2_500) or near_sight, p.title
        area = AREA_BY_CODE[p.areacode]
        assert area.sido_cd == p.lawd_cd[:2] and area.sigungu[int(p.sigungucode) - 1]
