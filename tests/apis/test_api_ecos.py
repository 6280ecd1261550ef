"""한국은행 ECOS path-style API over HTTP (key in the path) and a Session."""

from __future__ import annotations

import json
import urllib.parse

import httpx
import pytest
import xmltodict

from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, EmulatorConfig, create_app
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"
KEY = urllib.parse.quote(DEFAULT_EMULATOR_KEY, safe="")  # the key holds "/" and "+": encoded once
NODATA = {"RESULT": {"CODE": "INFO-200", "MESSAGE": "해당하는 데이터가 없습니다."}}


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="https://ecos.bok.or.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient,
    service: str,
    *tail: str,
    key: str = KEY,
    fmt: str = "json",
    start: int | str = 1,
    end: int | str = 100,
    clock: str = CLOCK,
    seed: int = 0,
) -> httpx.Response:
    path = "/".join(["/api", service, key, fmt, "kr", str(start), str(end), *tail])
    return await client.get(path, headers={SEED_HEADER: str(seed), CLOCK_HEADER: clock})


async def get_json(client: httpx.AsyncClient, service: str, *tail: str, **kw) -> dict:
    r = await get(client, service, *tail, **kw)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    return json.loads(r.text)


async def test_base_rate_history_json_and_xml(client: httpx.AsyncClient) -> None:
    doc = (await get_json(client, "StatisticSearch", "722Y001", "M", "202201", "202512", "0101000"))[
        "StatisticSearch"
    ]
    by_month = {r["TIME"]: r["DATA_VALUE"] for r in doc["row"]}
    assert doc["list_total_count"] == 48 == len(doc["row"])
    # Real decisions: 3.50 from Jan 2023, cut to 3.25 in Oct 2024, 3.00 Nov 2024, 2.75 Feb 2025, 2.50 May 2025.
    assert by_month["202212"] == "3.25" and by_month["202301"] == "3.5" and by_month["202409"] == "3.5"
    assert by_month["202410"] == "3.25" and by_month["202411"] == "3" and by_month["202502"] == "2.75"
    assert by_month["202505"] == "2.5"
    row = doc["row"][0]
    assert row["STAT_NAME"] == "1.3.1. 한국은행 기준금리 및 여수신금리" and row["UNIT_NAME"] == "연%"
    assert row["ITEM_NAME1"] == "한국은행 기준금리" and row["ITEM_CODE2"] is None
    xml = xmltodict.parse(
        (await get(client, "StatisticSearch", "722Y001", "M", "202201", "202512", "0101000", fmt="xml")).text
    )["StatisticSearch"]
    assert xml["list_total_count"] == "48" and [r["DATA_VALUE"] for r in xml["row"]] == list(
        by_month.values()
    )


async def test_data_stops_at_the_clock(client: httpx.AsyncClient) -> None:
    doc = (await get_json(client, "StatisticSearch", "731Y001", "D", "20261001", "20261231", "0000001"))[
        "StatisticSearch"
    ]
    days = [r["TIME"] for r in doc["row"]]
    assert days[-1] == "20261014" and "20261003" not in days  # yesterday at the latest; no weekends
    assert all(1000 < float(r["DATA_VALUE"]) < 2000 for r in doc["row"])
    months = (await get_json(client, "StatisticSearch", "722Y001", "M", "202601", "202612"))[
        "StatisticSearch"
    ]
    assert [r["TIME"] for r in months["row"]][-1] == "202609"  # October is not over
    cpi = (await get_json(client, "StatisticSearch", "901Y009", "A", "2015", "2030", "0"))["StatisticSearch"]
    assert cpi["row"][-1]["TIME"] == "2025" and cpi["row"][0]["UNIT_NAME"] == "2020=100"


async def test_positions_page_the_rows(client: httpx.AsyncClient) -> None:
    tail = ("731Y001", "D", "20250101", "20251231", "0000001")
    full = (await get_json(client, "StatisticSearch", *tail, end=1000))["StatisticSearch"]
    total = full["list_total_count"]
    assert total == len(full["row"]) > 250
    seen: list[dict] = []
    for start in range(1, total + 1, 100):
        doc = (await get_json(client, "StatisticSearch", *tail, start=start, end=start + 99))[
            "StatisticSearch"
        ]
        assert doc["list_total_count"] == total
        seen += doc["row"]
    assert seen == full["row"]
    assert await get_json(client, "StatisticSearch", *tail, start=total + 1, end=total + 10) == NODATA


async def test_table_and_item_lists_feed_the_search(client: httpx.AsyncClient) -> None:
    tables = (await get_json(client, "StatisticTableList"))["StatisticTableList"]["row"]
    searchable = {(r["STAT_CODE"], r["CYCLE"]) for r in tables if r["SRCH_YN"] == "Y"}
    assert ("722Y001", "M") in searchable and ("901Y009", "M") in searchable
    one = (await get_json(client, "StatisticTableList", "722Y001"))["StatisticTableList"]
    assert {r["CYCLE"] for r in one["row"]} == {"D", "M", "Q", "A"}
    items = (await get_json(client, "StatisticItemList", "731Y001"))["StatisticItemList"]["row"]
    usd = next(r for r in items if r["ITEM_NAME"].startswith("원/미국달러"))
    assert usd["ITEM_CODE"] == "0000001" and usd["CYCLE"] == "D" and usd["END_TIME"] == "20261014"
    values = (
        await get_json(
            client,
            "StatisticSearch",
            "731Y001",
            usd["CYCLE"],
            usd["END_TIME"],
            usd["END_TIME"],
            usd["ITEM_CODE"],
        )
    )["StatisticSearch"]
    assert values["list_total_count"] == 1
    keys = (await get_json(client, "KeyStatisticList"))["KeyStatisticList"]["row"]
    for service, tail, total in (
        ("StatisticTableList", (), 12),
        ("StatisticItemList", ("731Y001",), 3),
        ("KeyStatisticList", (), len(keys)),
    ):
        xml = xmltodict.parse((await get(client, service, *tail, fmt="xml")).text)[service]
        assert xml["list_total_count"] == str(total) and len(xml["row"]) == total
        two = (await get_json(client, service, *tail, start=2, end=3))[service]
        assert two["list_total_count"] == total and len(two["row"]) == 2
    by_name = {r["KEYSTAT_NAME"]: r for r in keys}
    assert by_name["원/달러 환율(종가)"]["DATA_VALUE"] == values["row"][0]["DATA_VALUE"]
    assert by_name["한국은행 기준금리"]["CYCLE"] == "20261015"


@pytest.mark.parametrize(
    ("kwargs", "tail", "code"),
    [
        ({"key": "WRONGKEY"}, ("722Y001", "M", "202401", "202412"), "INFO-100"),
        ({}, ("722Y001", "M", "2024", "2024"), "ERROR-101"),
        ({}, ("722Y001", "M", "20240101", "20241231"), "ERROR-101"),
        ({"fmt": "csv"}, ("722Y001", "M", "202401", "202412"), "ERROR-200"),
        ({"start": "a"}, ("722Y001", "M", "202401", "202412"), "ERROR-301"),
        ({}, ("999Y999", "M", "202401", "202412"), "INFO-200"),
        ({}, ("722Y001", "M", "202401", "202412", "9999999"), "INFO-200"),
        ({}, ("731Y001", "M", "202401", "202412"), "INFO-200"),  # table without a monthly cycle
    ],
)
async def test_documented_failures(client: httpx.AsyncClient, kwargs: dict, tail: tuple, code: str) -> None:
    r = await get(client, "StatisticSearch", *tail, **kwargs)
    doc = json.loads(r.text) if r.text.startswith("{") else xmltodict.parse(r.text)
    assert doc["RESULT"]["CODE"] == code and doc["RESULT"]["MESSAGE"]
    if code == "INFO-200":
        assert doc == NODATA
    xml = xmltodict.parse((await get(client, "StatisticSearch", *tail, **{**kwargs, "fmt": "xml"})).text)
    if kwargs.get("fmt") != "csv":
        assert xml["RESULT"]["CODE"] == code


async def test_path_call_through_a_session() -> None:
    backend = make_backend()
    session = Session(backend, clock=CLOCK)
    base = {"lang": "kr", "start": 1, "end": 10}
    try:
        items = await session.call("ecos_StatisticItemList", {**base, "STAT_CODE": "722Y001"})
        assert items.ok and items.parsed.total_count == 4
        row = next(i for i in items.parsed.items if i["CYCLE"] == "Q")
        res = await session.call(
            "ecos_StatisticSearch",
            {
                **base,
                "STAT_CODE": "722Y001",
                "CYCLE": "Q",
                "START_TIME": "2024Q1",
                "END_TIME": "2025Q4",
                "ITEM_CODE1": row["ITEM_CODE"],
            },
        )
        values = [i["DATA_VALUE"] for i in res.parsed.items]
        assert res.ok and res.parsed.total_count == 8
        assert values == [
            "3.5",
            "3.5",
            "3.5",
            "3",
            "2.75",
            "2.5",
            "2.5",
            "2.5",
        ]  # real decisions, quarter ends
        no_item = await session.call(
            "ecos_StatisticSearch",
            {**base, "STAT_CODE": "722Y001", "CYCLE": "A", "START_TIME": "2020", "END_TIME": "2024"},
        )
        assert no_item.ok and no_item.parsed.total_count == 5  # trailing item codes may be left off the path
        bad = await session.call(
            "ecos_StatisticSearch",
            {**base, "STAT_CODE": "722Y001", "CYCLE": "Q", "START_TIME": "202401", "END_TIME": "202412"},
        )
        assert not bad.ok and bad.code == "ERROR-101"
    finally:
        await backend.aclose()


async def test_determinism(client: httpx.AsyncClient) -> None:
    tail = ("731Y001", "D", "20260101", "20260131", "0000001")
    a = (await get(client, "StatisticSearch", *tail)).content
    assert a == (await get(client, "StatisticSearch", *tail)).content
    assert a != (await get(client, "StatisticSearch", *tail, seed=5)).content
    real = ("722Y001", "M", "202001", "202412", "0101000")  # real history does not depend on the seed
    assert (await get(client, "StatisticSearch", *real)).content == (
        await get(client, "StatisticSearch", *real, seed=5)
    ).content


async def test_quota() -> None:
    app = create_app(EmulatorConfig(daily_quota=1))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://ecos.bok.or.kr"
    ) as c:
        assert "KeyStatisticList" in await get_json(c, "KeyStatisticList")
        assert (await get_json(c, "KeyStatisticList"))["RESULT"]["CODE"] == "ERROR-602"
