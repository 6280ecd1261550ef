"""KMA 단기예보 (VilageFcstInfoService_2.0) through the real HTTP path and through Session."""

from __future__ import annotations

import json
from datetime import datetime

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.apis._schema import tool_schema
from kopa_inspect.apis.kma import (
    VILAGE_CATEGORIES,
    latest_ncst_base,
    latest_ultra_fcst_base,
    latest_vilage_base,
    pcp_text,
    sno_text,
)
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session
from kopa_inspect.world import KST

APP = create_app()
CLOCK = "2026-10-15T14:20:00+09:00"
BASE = "/1360000/VilageFcstInfoService_2.0"
SEOUL = {"nx": 60, "ny": 127}


async def get(
    op: str, clock: str = CLOCK, seed: int | None = None, key: str = DEFAULT_EMULATOR_KEY, **params: object
) -> httpx.Response:
    headers = {"X-Kopa-Clock": clock}
    if seed is not None:
        headers["X-Kopa-Seed"] = str(seed)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=APP), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(f"{BASE}/{op}", params={"serviceKey": key, **params}, headers=headers)


def body_of(r: httpx.Response) -> dict:
    return r.json()["response"]["body"]


def header_of(r: httpx.Response) -> dict:
    if r.text.lstrip().startswith("<"):
        return xmltodict.parse(r.text)["response"]["header"]
    return r.json()["response"]["header"]


# --- getVilageFcst ---------------------------------------------------------------------------


async def test_vilage_json_ok_shape_and_types():
    # The 0200 issuance has more than 1000 rows: numOfRows=1000 needs a second page.
    r = await get(
        "getVilageFcst", dataType="JSON", base_date="20261015", base_time="0200", numOfRows=1000, **SEOUL
    )
    assert r.headers["content-type"].startswith("application/json")
    doc = r.json()
    assert doc["response"]["header"] == {"resultCode": "00", "resultMsg": "NORMAL_SERVICE"}
    body = doc["response"]["body"]
    assert list(body) == ["dataType", "items", "pageNo", "numOfRows", "totalCount"]
    assert body["dataType"] == "JSON"
    items = body["items"]["item"]
    assert isinstance(items, list) and len(items) == 1000
    assert 1000 < body["totalCount"] <= 1100
    first = items[0]
    assert list(first) == [
        "baseDate",
        "baseTime",
        "category",
        "fcstDate",
        "fcstTime",
        "fcstValue",
        "nx",
        "ny",
    ]
    for it in items:
        assert isinstance(it["nx"], int) and isinstance(it["ny"], int)
        assert all(
            isinstance(it[k], str)
            for k in ("baseDate", "baseTime", "category", "fcstDate", "fcstTime", "fcstValue")
        )
    assert (first["baseDate"], first["baseTime"], first["fcstTime"]) == ("20261015", "0200", "0300")
    # Within a slot the fixed category order, then TMN/TMX where they belong.
    assert [it["category"] for it in items[:12]] == list(VILAGE_CATEGORIES)
    page2 = body_of(
        await get(
            "getVilageFcst",
            dataType="JSON",
            base_date="20261015",
            base_time="0200",
            numOfRows=1000,
            pageNo=2,
            **SEOUL,
        )
    )
    assert page2["totalCount"] == body["totalCount"]
    assert len(page2["items"]["item"]) == body["totalCount"] - 1000


async def test_vilage_tmn_tmx_only_at_0600_and_1500_and_text_values():
    r = await get(
        "getVilageFcst", dataType="JSON", base_date="20261015", base_time="0500", numOfRows=1200, **SEOUL
    )
    items = body_of(r)["items"]["item"]
    tmn = [it for it in items if it["category"] == "TMN"]
    tmx = [it for it in items if it["category"] == "TMX"]
    assert tmn and tmx
    assert {it["fcstTime"] for it in tmn} == {"0600"}
    assert {it["fcstTime"] for it in tmx} == {"1500"}
    assert all("." in it["fcstValue"] for it in tmn + tmx)  # "12.0" style
    for it in tmn:  # the day's minimum is not above any hourly TMP of 00-09 h that day
        temps = [
            float(x["fcstValue"])
            for x in items
            if x["category"] == "TMP" and x["fcstDate"] == it["fcstDate"] and x["fcstTime"] <= "0900"
        ]
        assert float(it["fcstValue"]) <= min(temps) + 0.5
    near = [it["fcstValue"] for it in items if it["category"] == "PCP" and it["fcstDate"] <= "20261017"]
    assert all(v == "강수없음" or v.endswith(("mm", "미만", "이상")) for v in near)
    sky = {it["fcstValue"] for it in items if it["category"] == "SKY"}
    assert sky <= {"1", "3", "4"}
    pop = {int(it["fcstValue"]) for it in items if it["category"] == "POP"}
    assert all(p % 10 == 0 and 0 <= p <= 100 for p in pop)
    # hourly for three days, then 3-hourly slots
    times_far = {it["fcstTime"] for it in items if it["fcstDate"] == "20261019"}
    assert times_far == {"0000", "0300", "0600", "0900", "1200", "1500", "1800", "2100"}


def test_pcp_sno_text():
    assert pcp_text(0) == "강수없음"
    assert pcp_text(0.4) == "1mm 미만"
    assert pcp_text(3.25) == "3.2mm" or pcp_text(3.25) == "3.3mm"
    assert pcp_text(35) == "30.0~50.0mm"
    assert pcp_text(70) == "50.0mm 이상"
    assert sno_text(0) == "적설없음" and sno_text(0.5) == "1cm 미만" and sno_text(7) == "5.0cm 이상"


async def test_vilage_xml_ok():
    r = await get("getVilageFcst", base_date="20261015", base_time="1400", numOfRows=3, **SEOUL)
    assert r.headers["content-type"].startswith("text/xml")
    doc = xmltodict.parse(r.text)["response"]
    assert doc["header"]["resultCode"] == "00"
    assert doc["body"]["dataType"] == "XML"
    assert len(doc["body"]["items"]["item"]) == 3
    assert doc["body"]["items"]["item"][0]["nx"] == "60"


async def test_vilage_pagination_totals_agree():
    full = body_of(
        await get(
            "getVilageFcst", dataType="JSON", base_date="20261015", base_time="1400", numOfRows=2000, **SEOUL
        )
    )
    total = full["totalCount"]
    pages = []
    for page in (1, 2):
        b = body_of(
            await get(
                "getVilageFcst",
                dataType="JSON",
                base_date="20261015",
                base_time="1400",
                numOfRows=500,
                pageNo=page,
                **SEOUL,
            )
        )
        assert b["totalCount"] == total and b["pageNo"] == page and b["numOfRows"] == 500
        pages.extend(b["items"]["item"])
    assert pages == full["items"]["item"]
    beyond = await get(
        "getVilageFcst",
        dataType="JSON",
        base_date="20261015",
        base_time="1400",
        numOfRows=500,
        pageNo=3,
        **SEOUL,
    )
    assert header_of(beyond)["resultCode"] == "03"


async def test_vilage_single_row_is_still_a_list():
    b = body_of(
        await get(
            "getVilageFcst", dataType="JSON", base_date="20261015", base_time="1400", numOfRows=1, **SEOUL
        )
    )
    assert isinstance(b["items"]["item"], list) and len(b["items"]["item"]) == 1


async def test_vilage_unpublished_is_03_no_data_without_body():
    # 1700 is not out yet at 14:20; nor is 1400 before 14:10.
    for clock, bt in ((CLOCK, "1700"), ("2026-10-15T14:05:00+09:00", "1400")):
        r = await get(
            "getVilageFcst", clock=clock, dataType="JSON", base_date="20261015", base_time=bt, **SEOUL
        )
        assert r.json() == {"response": {"header": {"resultCode": "03", "resultMsg": "NO_DATA"}}}
    xml = await get("getVilageFcst", base_date="20261015", base_time="1700", **SEOUL)
    doc = xmltodict.parse(xml.text)["response"]
    assert doc["header"] == {"resultCode": "03", "resultMsg": "NO_DATA"} and "body" not in doc


async def test_vilage_errors():
    # not an issuance time
    r = await get("getVilageFcst", dataType="JSON", base_date="20261015", base_time="1200", **SEOUL)
    assert header_of(r)["resultCode"] == "03"
    # older than a day
    r = await get("getVilageFcst", dataType="JSON", base_date="20261013", base_time="1400", **SEOUL)
    assert r.json()["response"]["header"] == {
        "resultCode": "10",
        "resultMsg": "최근 1일 간의 자료만 제공합니다.",
    }
    # malformed date / time / grid
    r = await get("getVilageFcst", dataType="JSON", base_date="2026-10-15", base_time="1400", **SEOUL)
    assert header_of(r) == {"resultCode": "10", "resultMsg": "최근 1일 간의 자료만 제공합니다."}
    r = await get("getVilageFcst", dataType="JSON", base_date="20261015", base_time="2500", **SEOUL)
    assert header_of(r) == {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"}
    r = await get("getVilageFcst", dataType="JSON", base_date="20261015", base_time="1400", nx="abc", ny=127)
    assert header_of(r) == {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"}
    # missing mandatory parameter: KMA answers 03 NO_DATA (recorded fixture)
    r = await get("getVilageFcst", dataType="JSON", base_date="20261015", base_time="1400", nx=60)
    assert r.json() == {"response": {"header": {"resultCode": "03", "resultMsg": "NO_DATA"}}}
    # off the grid
    r = await get("getVilageFcst", dataType="JSON", base_date="20261015", base_time="1400", nx=500, ny=127)
    assert header_of(r)["resultCode"] == "03"
    # a yesterday issuance is still served
    r = await get("getVilageFcst", dataType="JSON", base_date="20261014", base_time="2300", **SEOUL)
    assert header_of(r)["resultCode"] == "00"


@pytest.mark.parametrize("op", ["getVilageFcst", "getUltraSrtNcst", "getUltraSrtFcst"])
async def test_unknown_key_is_gateway_30_in_the_requested_form(op):
    for key in ("not-a-key", "kopa%2BEMULATOR/dev%2Bkey0123456789%3D%3D"):  # unknown / double-encoded
        r = await get(op, key=key, dataType="JSON", base_date="20261015", base_time="1300", **SEOUL)
        assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")  # JSON form, HTTP 403
        r = await get(op, key=key, base_date="20261015", base_time="1300", **SEOUL)
        assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")  # XML form, HTTP 200


# --- getUltraSrtNcst / getUltraSrtFcst -------------------------------------------------------


async def test_ultra_ncst_ok_json_and_xml():
    r = await get("getUltraSrtNcst", dataType="JSON", base_date="20261015", base_time="1300", **SEOUL)
    items = body_of(r)["items"]["item"]
    assert [it["category"] for it in items] == ["PTY", "REH", "RN1", "T1H", "UUU", "VEC", "VVV", "WSD"]
    assert list(items[0]) == ["baseDate", "baseTime", "category", "nx", "ny", "obsrValue"]
    assert all(isinstance(it["obsrValue"], str) for it in items)
    t1h = float(next(it["obsrValue"] for it in items if it["category"] == "T1H"))
    assert -5 < t1h < 30  # mid-October in Seoul
    xml = xmltodict.parse(
        (await get("getUltraSrtNcst", base_date="20261015", base_time="1300", **SEOUL)).text
    )
    assert xml["response"]["header"]["resultCode"] == "00"
    assert xml["response"]["body"]["totalCount"] == "8"


async def test_ultra_ncst_publication_rules():
    # 14:00 observation is served from 14:40
    r = await get("getUltraSrtNcst", dataType="JSON", base_date="20261015", base_time="1400", **SEOUL)
    assert header_of(r) == {"resultCode": "03", "resultMsg": "NO_DATA"}
    r = await get(
        "getUltraSrtNcst",
        clock="2026-10-15T14:41:00+09:00",
        dataType="JSON",
        base_date="20261015",
        base_time="1400",
        **SEOUL,
    )
    assert header_of(r)["resultCode"] == "00"
    r = await get("getUltraSrtNcst", dataType="JSON", base_date="20261012", base_time="1400", **SEOUL)
    assert header_of(r) == {"resultCode": "10", "resultMsg": "최근 1일 간의 자료만 제공합니다."}


async def test_ultra_fcst_ok_order_and_publication():
    b = body_of(
        await get(
            "getUltraSrtFcst", dataType="JSON", base_date="20261015", base_time="1330", numOfRows=60, **SEOUL
        )
    )
    items = b["items"]["item"]
    assert b["totalCount"] == 60
    cats = [it["category"] for it in items]
    assert cats[::6] == ["LGT", "PTY", "RN1", "SKY", "T1H", "REH", "UUU", "VVV", "VEC", "WSD"]
    assert [it["fcstTime"] for it in items[:6]] == ["1400", "1500", "1600", "1700", "1800", "1900"]
    assert all(it["baseTime"] == "1330" for it in items)
    r = await get("getUltraSrtFcst", dataType="JSON", base_date="20261015", base_time="1430", **SEOUL)
    assert header_of(r)["resultCode"] == "03"


async def test_same_seed_clock_same_bytes_other_seed_differs():
    args = {"dataType": "JSON", "base_date": "20261015", "base_time": "1400", "numOfRows": 300, **SEOUL}
    a = await get("getVilageFcst", **args)
    b = await get("getVilageFcst", **args)
    assert a.content == b.content
    c = await get("getVilageFcst", seed=7, **args)
    assert c.content != a.content


async def test_forecasts_consistent_across_issuances():
    """Two issuances describe the same hour similarly (errors are small, not independent noise)."""

    def tmp_at(items: list[dict], date: str, time: str) -> int:
        return int(
            next(
                i["fcstValue"]
                for i in items
                if i["category"] == "TMP" and i["fcstDate"] == date and i["fcstTime"] == time
            )
        )

    a = body_of(
        await get(
            "getVilageFcst", dataType="JSON", base_date="20261015", base_time="1100", numOfRows=2000, **SEOUL
        )
    )["items"]["item"]
    b = body_of(
        await get(
            "getVilageFcst", dataType="JSON", base_date="20261015", base_time="1400", numOfRows=2000, **SEOUL
        )
    )["items"]["item"]
    for time in ("1800", "2100"):
        assert abs(tmp_at(a, "20261015", time) - tmp_at(b, "20261015", time)) <= 2


def test_latest_base_helpers():
    clock = datetime(2026, 10, 15, 14, 20, tzinfo=KST)
    assert latest_vilage_base(clock) == ("20261015", "1400")
    assert latest_vilage_base(datetime(2026, 10, 15, 2, 5, tzinfo=KST)) == ("20261014", "2300")
    assert latest_ncst_base(clock) == ("20261015", "1300")
    assert latest_ultra_fcst_base(clock) == ("20261015", "1330")
    assert latest_ultra_fcst_base(datetime(2026, 10, 15, 14, 50, tzinfo=KST)) == ("20261015", "1430")


async def test_session_path_and_tool_schema():
    session = Session(make_backend(), clock=CLOCK)
    bd, bt = latest_vilage_base(datetime(2026, 10, 15, 14, 20, tzinfo=KST))
    res = await session.call(
        "kma_getVilageFcst", {"base_date": bd, "base_time": bt, "nx": 60, "ny": 127, "numOfRows": 100}
    )
    assert res.ok and res.code == "00"
    assert res.parsed.total_count and res.parsed.total_count > 800
    assert len(res.parsed.items) == 100 and res.parsed.items[0]["category"] == "TMP"
    out = json.loads(res.for_model())
    assert out["items"][0]["nx"] == 60
    bad = await session.call(
        "kma_getUltraSrtNcst", {"base_date": "20261015", "base_time": "1400", "nx": 60, "ny": 127}
    )
    assert not bad.ok and bad.code == "03" and bad.message == "NO_DATA"
    for op_id in ("kma_getVilageFcst", "kma_getUltraSrtNcst", "kma_getUltraSrtFcst"):
        op = get_operation(op_id)
        assert op.output_fields and "(" in op.summary  # Korean with an English gloss
        params = tool_schema(op)["function"]["parameters"]
        assert {"base_date", "base_time", "nx", "ny"} <= set(params["required"])
        assert "serviceKey" not in params["properties"] and "dataType" not in params["properties"]


def test_weather_model_climate_is_plausible():
    from datetime import timedelta

    from kopa_inspect.world.weather import WeatherModel

    m = WeatherModel(0)

    def month_stats(lat: float, lon: float, month: int) -> tuple[float, float]:
        hours = [datetime(2026, month, 1, tzinfo=KST) + timedelta(hours=h) for h in range(0, 24 * 28, 3)]
        states = [m.truth(lat, lon, t) for t in hours]
        return sum(s.temp for s in states) / len(states), sum(s.pty > 0 for s in states) / len(states)

    seoul_jan, rain_jan = month_stats(37.57, 126.98, 1)
    seoul_aug, _ = month_stats(37.57, 126.98, 8)
    _, rain_jul = month_stats(37.57, 126.98, 7)
    jeju_jan, _ = month_stats(33.50, 126.53, 1)
    assert -8 < seoul_jan < 4 and 21 < seoul_aug < 30
    assert jeju_jan > seoul_jan + 3
    assert rain_jul > rain_jan
    t = datetime(2026, 10, 15, 15, tzinfo=KST)
    assert m.truth(37.57, 126.98, t) == m.truth(37.57, 126.98, t)  # pure function of its inputs
    # forecast error shrinks as the issuance approaches the target hour
    far = abs(m.forecast(37.57, 126.98, t, t - timedelta(days=4)).temp - m.truth(37.57, 126.98, t).temp)
    near = abs(m.forecast(37.57, 126.98, t, t - timedelta(hours=1)).temp - m.truth(37.57, 126.98, t).temp)
    assert near <= 1.0 and near <= far + 1.0


async def test_ultra_pty_codes_have_no_shower_code():
    """초단기 PTY uses 0/1/2/3/5/6/7; 단기예보 may use 4 (소나기)."""
    from datetime import timedelta

    seen: set[str] = set()
    start = datetime(2026, 7, 1, 0, tzinfo=KST)
    for i in range(0, 24 * 12, 4):
        base = start + timedelta(hours=i)
        clock = (base + timedelta(minutes=50)).isoformat()
        b = body_of(
            await get(
                "getUltraSrtNcst",
                clock=clock,
                dataType="JSON",
                base_date=base.strftime("%Y%m%d"),
                base_time=base.strftime("%H00"),
                **SEOUL,
            )
        )
        seen.update(it["obsrValue"] for it in b["items"]["item"] if it["category"] == "PTY")
    assert seen <= {"0", "1", "2", "3", "5", "6", "7"}
    assert seen - {"0"}, "a rainy July fortnight should show some precipitation"


# --- getGridPointList (emulator extension: KMA's Excel grid table served as a lookup) ----------


async def _grid(**params: object) -> httpx.Response:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=APP), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(
            "/kopa-ext/1360000/VilageFcstInfoService_2.0/getGridPointList",
            params={"serviceKey": DEFAULT_EMULATOR_KEY, "dataType": "JSON", **params},
            headers={"X-Kopa-Clock": CLOCK},
        )


async def test_grid_lookup_gives_the_real_lambert_cell():
    from kopa_inspect.world.grid import latlon_to_grid

    r = await _grid(level1="서울특별시", level2="종로구", numOfRows=100)
    body = body_of(r)
    rows = body["items"]["item"]
    gu = [row for row in rows if row["level3"] == ""]
    assert len(gu) == 1 and (gu[0]["nx"], gu[0]["ny"]) == (60, 127)  # KMA's published 종로구 cell
    assert body["totalCount"] == len(rows) > 10  # the 구 row and its 법정동
    for row in rows:
        assert (row["nx"], row["ny"]) == latlon_to_grid(float(row["lat"]), float(row["lon"]))
        assert isinstance(row["nx"], int) and row["level2"] == "종로구"


async def test_grid_lookup_partial_names_and_misses():
    r = await _grid(level2="영통구")
    names = {row["level2"] for row in body_of(r)["items"]["item"]}
    assert names == {"수원시 영통구"}  # a part of the name finds the 구 of a 시
    r = await _grid(level1="부산", level3="우동")
    assert {row["level3"] for row in body_of(r)["items"]["item"]} == {"우동"}
    miss = await _grid(level1="서울특별시", level2="해운대구")  # 해운대구 is in 부산
    assert header_of(miss) == {"resultCode": "03", "resultMsg": "NO_DATA"}
    none = await _grid()
    assert header_of(none)["resultCode"] == "03"


def test_grid_lookup_is_marked_as_not_a_real_endpoint():
    op = get_operation("kma_getGridPointList")
    assert op.uncertain and "NOT A REAL ENDPOINT" in op.uncertain
    assert op.path.startswith("/kopa-ext/")
