"""KMA 중기예보 (MidFcstInfoService) through the real HTTP path and through Session."""

from __future__ import annotations

from datetime import datetime

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.apis.kma_mid import LAND_REGIONS, TA_REGIONS, latest_tmfc
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session
from kopa_inspect.world import KST

APP = create_app()
CLOCK = "2026-10-15T14:20:00+09:00"
BASE = "/1360000/MidFcstInfoService"


async def get(
    op: str, clock: str = CLOCK, key: str = DEFAULT_EMULATOR_KEY, **params: object
) -> httpx.Response:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=APP), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(
            f"{BASE}/{op}", params={"serviceKey": key, **params}, headers={"X-Kopa-Clock": clock}
        )


async def test_land_json_ok_numbers_and_texts():
    r = await get("getMidLandFcst", dataType="JSON", regId="11B00000", tmFc="202610150600")
    doc = r.json()["response"]
    assert doc["header"] == {"resultCode": "00", "resultMsg": "NORMAL_SERVICE"}
    assert doc["body"]["dataType"] == "JSON" and doc["body"]["totalCount"] == 1
    items = doc["body"]["items"]["item"]
    assert isinstance(items, list) and len(items) == 1  # KMA: a list even for one row
    row = items[0]
    assert row["regId"] == "11B00000" and "tmFc" not in row
    rn = {k: v for k, v in row.items() if k.startswith("rnSt")}
    assert set(rn) >= {"rnSt4Am", "rnSt4Pm", "rnSt7Pm", "rnSt8", "rnSt10"}
    assert all(isinstance(v, int) and v % 10 == 0 and 0 <= v <= 100 for v in rn.values())
    wf = {k: v for k, v in row.items() if k.startswith("wf")}
    assert all(
        isinstance(v, str) and v.split()[0] in ("맑음", "구름많음", "흐림", "구름많고", "흐리고")
        for v in wf.values()
    )


async def test_land_xml_ok():
    r = await get("getMidLandFcst", regId="11G00000", tmFc="202610150600")
    doc = xmltodict.parse(r.text)["response"]
    assert doc["header"]["resultCode"] == "00"
    assert doc["body"]["dataType"] == "XML"
    assert doc["body"]["items"]["item"]["regId"] == "11G00000"


async def test_ta_ok_json_and_bounds():
    r = await get("getMidTa", dataType="JSON", regId="11B10101", tmFc="202610150600")
    row = r.json()["response"]["body"]["items"]["item"][0]
    for n in range(4, 11):
        assert isinstance(row[f"taMin{n}"], int) and isinstance(row[f"taMax{n}"], int)
        assert row[f"taMin{n}"] <= row[f"taMax{n}"]
        assert row[f"taMin{n}Low"] <= row[f"taMin{n}"] <= row[f"taMin{n}High"]
    assert -5 <= row["taMin4"] <= 20 and 5 <= row["taMax4"] <= 30  # October in Seoul
    xml = xmltodict.parse((await get("getMidTa", regId="11H20201", tmFc="202610150600")).text)
    assert xml["response"]["body"]["items"]["item"]["regId"] == "11H20201"


@pytest.mark.parametrize("op,reg", [("getMidLandFcst", "11B00000"), ("getMidTa", "11B10101")])
async def test_errors(op, reg):
    nodata = {"response": {"header": {"resultCode": "03", "resultMsg": "NO_DATA"}}}
    # 1800 not issued yet at 14:20; 1200 never exists; older than 24 h; unknown region
    for tmfc, rid in (
        ("202610151800", reg),
        ("202610151200", reg),
        ("202610140600", reg),
        ("202610150600", "99X99999"),
    ):
        r = await get(op, dataType="JSON", regId=rid, tmFc=tmfc)
        assert r.json() == nodata, (tmfc, rid)
    r = await get(op, dataType="JSON", regId=reg, tmFc="2026101506")
    assert r.json()["response"]["header"] == {
        "resultCode": "10",
        "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR",
    }
    r = await get(op, dataType="JSON", regId=reg)
    assert r.json() == nodata  # missing tmFc: KMA's 03 (recorded fixture)
    r = await get(op, key="nope", dataType="JSON", regId=reg, tmFc="202610150600")
    assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
    # yesterday's 1800 is within 24 h
    r = await get(op, dataType="JSON", regId=reg, tmFc="202610141800")
    assert r.json()["response"]["header"]["resultCode"] == "00"


async def test_pagination_totals():
    b1 = (
        await get("getMidTa", dataType="JSON", regId="11B10101", tmFc="202610150600", numOfRows=1, pageNo=1)
    ).json()
    assert b1["response"]["body"]["totalCount"] == 1
    b2 = (
        await get("getMidTa", dataType="JSON", regId="11B10101", tmFc="202610150600", numOfRows=1, pageNo=2)
    ).json()
    assert b2["response"]["header"]["resultCode"] == "03"


async def test_deterministic_and_consistent_with_tables():
    a = await get("getMidLandFcst", dataType="JSON", regId="11H20000", tmFc="202610150600")
    b = await get("getMidLandFcst", dataType="JSON", regId="11H20000", tmFc="202610150600")
    assert a.content == b.content
    assert len(LAND_REGIONS) == 10 and "11B10101" in TA_REGIONS


def test_latest_tmfc():
    assert latest_tmfc(datetime(2026, 10, 15, 14, 20, tzinfo=KST)) == "202610150600"
    assert latest_tmfc(datetime(2026, 10, 15, 6, 5, tzinfo=KST)) == "202610141800"
    assert latest_tmfc(datetime(2026, 10, 15, 18, 30, tzinfo=KST)) == "202610151800"


async def test_session_path():
    s = Session(make_backend(), clock=CLOCK)
    res = await s.call("kma_mid_getMidTa", {"regId": "11B10101", "tmFc": "202610150600"})
    assert res.ok and res.parsed.items[0]["regId"] == "11B10101"
    bad = await s.call("kma_mid_getMidLandFcst", {"regId": "11B00000", "tmFc": "202610151800"})
    assert not bad.ok and bad.code == "03"
    for op_id in ("kma_mid_getMidLandFcst", "kma_mid_getMidTa"):
        op = get_operation(op_id)
        assert op.output_fields and "(" in op.summary
