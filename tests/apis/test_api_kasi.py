"""KASI 특일정보 (SpcdeInfoService) through the real HTTP path and through Session."""

from __future__ import annotations

from datetime import date

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.apis.kasi import holidays
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session

APP = create_app()
BASE = "/B090041/openapi/service/SpcdeInfoService"


async def get(
    op: str, key: str = DEFAULT_EMULATOR_KEY, key_name: str = "serviceKey", **params: object
) -> httpx.Response:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=APP), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(f"{BASE}/{op}", params={key_name: key, **params})


async def test_month_json_list_numbers_and_message():
    r = await get("getRestDeInfo", solYear="2025", solMonth="10", _type="json")  # 2025: plain 대체공휴일
    doc = r.json()["response"]
    assert doc["header"] == {"resultCode": "00", "resultMsg": "NORMAL SERVICE."}
    body = doc["body"]
    assert list(body) == ["items", "numOfRows", "pageNo", "totalCount"]
    items = body["items"]["item"]
    assert [(i["locdate"], i["dateName"]) for i in items] == [
        (20251003, "개천절"),
        (20251005, "추석"),
        (20251006, "추석"),
        (20251007, "추석"),
        (20251008, "대체공휴일"),
        (20251009, "한글날"),
    ]
    assert all(isinstance(i["locdate"], int) and isinstance(i["seq"], int) for i in items)
    assert all(i["isHoliday"] == "Y" and i["dateKind"] == "01" for i in items)


async def test_single_item_is_object_and_zero_is_empty_string():
    one = (await get("getRestDeInfo", solYear="2026", solMonth="01", _type="json")).json()["response"]["body"]
    assert one["items"]["item"] == {
        "dateKind": "01",
        "dateName": "1월1일",
        "isHoliday": "Y",
        "locdate": 20260101,
        "seq": 1,
    }
    zero = (await get("getRestDeInfo", solYear="2026", solMonth="11", _type="json")).json()["response"]
    assert zero["header"]["resultCode"] == "00"
    assert zero["body"]["items"] == "" and zero["body"]["totalCount"] == 0


async def test_xml_ok_default_format():
    r = await get("getRestDeInfo", solYear="2026", solMonth="02")
    doc = xmltodict.parse(r.text)["response"]
    assert doc["header"]["resultMsg"] == "NORMAL SERVICE."
    assert [i["locdate"] for i in doc["body"]["items"]["item"]] == ["20260216", "20260217", "20260218"]


async def test_capital_servicekey_accepted():
    r = await get("getRestDeInfo", key_name="ServiceKey", solYear="2026", solMonth="09", _type="json")
    assert r.json()["response"]["body"]["totalCount"] == 3


async def test_year_pagination_default_10_rows():
    first = (await get("getRestDeInfo", solYear="2026", _type="json")).json()["response"]["body"]
    total = first["totalCount"]
    assert first["numOfRows"] == 10 and len(first["items"]["item"]) == 10 and total == len(holidays(2026))
    seen = list(first["items"]["item"])
    page = 2
    while len(seen) < total:
        b = (await get("getRestDeInfo", solYear="2026", pageNo=page, _type="json")).json()["response"]["body"]
        assert b["totalCount"] == total
        chunk = b["items"]["item"]
        seen.extend(chunk if isinstance(chunk, list) else [chunk])
        page += 1
    whole = (await get("getRestDeInfo", solYear="2026", numOfRows=100, _type="json")).json()["response"][
        "body"
    ]
    assert seen == whole["items"]["item"]


@pytest.mark.parametrize("op", ["getRestDeInfo", "getHoliDeInfo"])
async def test_errors(op):
    r = await get(op, solMonth="10", _type="json")
    assert r.json()["response"]["header"] == {
        "resultCode": "11",
        "resultMsg": "NO_MANDATORY_REQUEST_PARAMETERS_ERROR",
    }
    for bad in (
        {"solYear": "26", "solMonth": "10"},
        {"solYear": "2026", "solMonth": "13"},
        {"solYear": "2026", "solMonth": "5"},
        {"solYear": "2026", "numOfRows": "x"},
    ):
        r = await get(op, _type="json", **bad)
        assert r.json()["response"]["header"] == {
            "resultCode": "10",
            "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR",
        }, bad
    r = await get(op, key="nope", solYear="2026", _type="json")
    assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
    # a year outside the static data: no rows, still 00
    r = await get(op, solYear="2031", _type="json")
    assert r.json()["response"]["body"] == {"items": "", "numOfRows": 10, "pageNo": 1, "totalCount": 0}
    xml = xmltodict.parse((await get(op, solYear="2026", solMonth="03")).text)["response"]
    assert xml["header"]["resultCode"] == "00" and len(xml["body"]["items"]["item"]) == 2


async def test_holide_info_adds_non_holiday_national_days():
    r = await get("getHoliDeInfo", solYear="2025", solMonth="07", _type="json")
    item = r.json()["response"]["body"]["items"]["item"]
    assert item["dateName"] == "제헌절" and item["isHoliday"] == "N"
    r = await get("getRestDeInfo", solYear="2025", solMonth="07", _type="json")
    assert r.json()["response"]["body"]["items"] == ""


@pytest.mark.parametrize("year", [2025, 2026, 2027])
def test_holiday_data_rules(year):
    days = holidays(year)
    names = [n for _, n in days]
    assert names.count("설날") == 3 and names.count("추석") == 3
    for fixed in (
        "1월1일",
        "삼일절",
        "어린이날",
        "부처님오신날",
        "현충일",
        "광복절",
        "개천절",
        "한글날",
        "기독탄신일",
    ):
        assert fixed in names, fixed
    dates = {d for d, _ in days}
    # 대체공휴일 always falls on a weekday that is not itself another holiday
    for d, n in days:
        if n.startswith("대체공휴일"):
            assert date(int(d[:4]), int(d[4:6]), int(d[6:])).weekday() < 5
    # 국경일 on a weekend get a substitute on the next weekday (since 2021)
    for d, n in days:
        if n in ("삼일절", "광복절", "개천절", "한글날"):
            wd = date(int(d[:4]), int(d[4:6]), int(d[6:])).weekday()
            if wd >= 5:
                assert any(x > d and name.startswith("대체공휴일") for x, name in days), (d, n)
    assert len(dates) >= 15


async def test_session_path():
    s = Session(make_backend())
    res = await s.call("kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "10"})
    assert res.ok and [(i["locdate"], i["dateName"]) for i in res.parsed.items] == [
        (20261003, "개천절"),
        (20261005, "대체공휴일(개천절)"),
        (20261009, "한글날"),
    ]
    may = await s.call("kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "05"})
    assert [(i["dateName"], i["seq"]) for i in may.parsed.items] == [
        ("노동절", 2),
        ("어린이날", 2),
        ("부처님오신날", 1),
        ("대체공휴일(부처님오신날)", 1),
    ]
    one = await s.call("kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "01"})
    assert one.ok and len(one.parsed.items) == 1  # object normalized to a list
    none = await s.call("kasi_getRestDeInfo", {"solYear": "2026", "solMonth": "11"})
    assert none.ok and none.parsed.items == [] and none.parsed.total_count == 0
    for op_id in ("kasi_getRestDeInfo", "kasi_getHoliDeInfo"):
        op = get_operation(op_id)
        assert op.output_fields and "(" in op.summary
