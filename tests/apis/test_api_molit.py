"""국토교통부 아파트 매매/전월세 실거래가 (RTMS) through the real HTTP path and a Session."""

from __future__ import annotations

import re

import httpx
import pytest
import xmltodict

from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, create_app
from kopa_inspect.execution import Session

TRADE = "/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade"
TRADE_DEV = "/1613000/RTMSDataSvcAptTradeDev/getRTMSDataSvcAptTradeDev"
RENT = "/1613000/RTMSDataSvcAptRent/getRTMSDataSvcAptRent"
CLOCK = "2026-10-15T14:20:00+09:00"


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="http://apis.data.go.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient, path: str, seed: int = 0, clock: str = CLOCK, **params: str
) -> httpx.Response:
    headers = {SEED_HEADER: str(seed), CLOCK_HEADER: clock}
    return await client.get(path, params={"serviceKey": DEFAULT_EMULATOR_KEY, **params}, headers=headers)


def parse(text: str) -> dict:
    # Keep the single-space blanks the feed uses.
    return xmltodict.parse(text, strip_whitespace=False)["response"]


def items(resp: dict) -> list[dict]:
    raw = (resp["body"]["items"] or {}).get("item") or []
    return raw if isinstance(raw, list) else [raw]


@pytest.mark.parametrize("path", [TRADE, TRADE_DEV])
async def test_trade_ok_xml(client: httpx.AsyncClient, path: str) -> None:
    r = await get(client, path, LAWD_CD="11680", DEAL_YMD="202608", numOfRows="1000")
    assert r.status_code == 200
    assert r.text.startswith('<?xml version="1.0" encoding="utf-8" standalone="yes"?>')
    doc = parse(r.text)
    assert doc["header"] == {"resultCode": "000", "resultMsg": "OK"}
    rows = items(doc)
    assert int(doc["body"]["totalCount"]) == len(rows) >= 20
    row = rows[0]
    assert list(row) == sorted(row)  # tags in alphabetical order
    assert row["sggCd"] == "11680" and row["dealYear"] == "2026" and row["dealMonth"] == "8"
    assert all(re.fullmatch(r" *\d{1,3}(,\d{3})*", x["dealAmount"]) for x in rows)
    assert any(x["dealAmount"].startswith(" ") for x in rows)
    assert all(
        re.fullmatch(r"\d{4}", x["bonbun"]) and re.fullmatch(r"\d{5}", x["roadNmBonbun"]) for x in rows
    )
    assert all(not x["dealDay"].startswith("0") for x in rows)
    assert any(x["aptDong"] == " " for x in rows) and any(x["cdealType"] == " " for x in rows)
    umd_names = {x["umdNm"] for x in rows}
    assert umd_names <= {
        "역삼동",
        "개포동",
        "청담동",
        "삼성동",
        "대치동",
        "신사동",
        "논현동",
        "압구정동",
        "세곡동",
        "자곡동",
        "율현동",
        "일원동",
        "수서동",
        "도곡동",
    }
    assert all(x["aptSeq"].startswith("11680-") for x in rows)
    # Alias path and main path serve the same rows.
    other = await get(
        client, TRADE_DEV if path == TRADE else TRADE, LAWD_CD="11680", DEAL_YMD="202608", numOfRows="1000"
    )
    assert other.content == r.content


async def test_json_switch_is_ignored(client: httpx.AsyncClient) -> None:
    r = await get(client, TRADE, LAWD_CD="11110", DEAL_YMD="202607", _type="json")
    assert r.text.startswith("<?xml")


async def test_rent_ok_xml(client: httpx.AsyncClient) -> None:
    r = await get(client, RENT, LAWD_CD="11710", DEAL_YMD="202609", numOfRows="1000")
    doc = parse(r.text)
    assert doc["header"]["resultCode"] == "000"
    rows = items(doc)
    assert len(rows) >= 20
    row = rows[0]
    assert list(row) == sorted(row)
    assert {"roadnm", "roadnmbonbun", "roadnmsggcd"} <= set(row) and "roadNm" not in row  # lower-case trap
    assert any(x["monthlyRent"] == "0" for x in rows) and any(x["monthlyRent"] != "0" for x in rows)
    assert all(re.fullmatch(r" *\d{1,3}(,\d{3})*", x["deposit"]) for x in rows)


@pytest.mark.parametrize(
    ("params", "code", "msg"),
    [
        ({"DEAL_YMD": "202608"}, "11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"),
        ({"LAWD_CD": "11680"}, "11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"),
        ({"LAWD_CD": "1168", "DEAL_YMD": "202608"}, "10", "INVALID_REQUEST_PARAMETER_ERROR"),
        ({"LAWD_CD": "11680", "DEAL_YMD": "2026-08"}, "10", "INVALID_REQUEST_PARAMETER_ERROR"),
        ({"LAWD_CD": "11680", "DEAL_YMD": "202613"}, "10", "INVALID_REQUEST_PARAMETER_ERROR"),
        ({"LAWD_CD": "11680", "DEAL_YMD": "202608", "pageNo": "0"}, "10", "INVALID_REQUEST_PARAMETER_ERROR"),
    ],
)
async def test_errors(client: httpx.AsyncClient, params: dict, code: str, msg: str) -> None:
    for path in (TRADE, RENT):
        doc = parse((await get(client, path, **params)).text)
        assert doc["header"] == {"resultCode": code, "resultMsg": msg}


async def test_unknown_key_is_gateway_30(client: httpx.AsyncClient) -> None:
    r = await client.get(TRADE, params={"serviceKey": "nope", "LAWD_CD": "11680", "DEAL_YMD": "202608"})
    hdr = xmltodict.parse(r.text)["OpenAPI_ServiceResponse"]["cmmMsgHeader"]
    assert hdr["returnReasonCode"] == "30" and hdr["returnAuthMsg"] == "SERVICE_KEY_IS_NOT_REGISTERED_ERROR"


async def test_no_data_is_ok_with_empty_items(client: httpx.AsyncClient) -> None:
    for lawd, ymd in (("11680", "202611"), ("11680", "203001"), ("99999", "202608")):
        r = await get(client, TRADE, LAWD_CD=lawd, DEAL_YMD=ymd)
        assert "<items></items>" in r.text
        doc = parse(r.text)
        assert doc["header"]["resultCode"] == "000" and doc["body"]["totalCount"] == "0"


async def test_clock_month_is_cut_at_the_clock(client: httpx.AsyncClient) -> None:
    r = await get(client, TRADE, LAWD_CD="11680", DEAL_YMD="202610", numOfRows="1000")
    days = [int(x["dealDay"]) for x in items(parse(r.text))]
    assert days and max(days) < 15
    later = await get(
        client, TRADE, clock="2026-11-20T09:00:00+09:00", LAWD_CD="11680", DEAL_YMD="202610", numOfRows="1000"
    )
    later_rows = items(parse(later.text))
    assert len(later_rows) > len(days)
    # Rows known earlier stay the same rows later (the month is one draw, cut by the clock).
    early = {(x["aptSeq"], x["dealDay"], x["floor"], x["dealAmount"]) for x in items(parse(r.text))}
    assert early <= {(x["aptSeq"], x["dealDay"], x["floor"], x["dealAmount"]) for x in later_rows}


async def test_pagination_totals_agree(client: httpx.AsyncClient) -> None:
    full = items(parse((await get(client, TRADE, LAWD_CD="11650", DEAL_YMD="202607", numOfRows="1000")).text))
    seen = []
    for page in range(1, len(full) // 10 + 2):
        doc = parse(
            (
                await get(client, TRADE, LAWD_CD="11650", DEAL_YMD="202607", pageNo=str(page), numOfRows="10")
            ).text
        )
        assert int(doc["body"]["totalCount"]) == len(full)
        assert doc["body"]["pageNo"] == str(page)
        seen.extend(items(doc))
    assert seen == full
    one = parse((await get(client, TRADE, LAWD_CD="11650", DEAL_YMD="202607", numOfRows="1")).text)
    assert isinstance(one["body"]["items"]["item"], dict)  # one <item> element


async def test_complexes_are_consistent_across_months(client: httpx.AsyncClient) -> None:
    names: dict[str, set[str]] = {}
    for ymd in ("202601", "202605", "202609"):
        for x in items(
            parse((await get(client, TRADE, LAWD_CD="11440", DEAL_YMD=ymd, numOfRows="1000")).text)
        ):
            names.setdefault(x["aptSeq"], set()).add(x["aptNm"] + "|" + x["umdNm"] + "|" + x["buildYear"])
    assert names and all(len(v) == 1 for v in names.values())


async def test_volumes_are_realistic(client: httpx.AsyncClient) -> None:
    for lawd in ("11680", "11350", "11440", "26350", "41135"):
        doc = parse((await get(client, TRADE, LAWD_CD=lawd, DEAL_YMD="202606")).text)
        assert 15 <= int(doc["body"]["totalCount"]) <= 600, lawd


async def test_determinism_and_seed(client: httpx.AsyncClient) -> None:
    a = await get(client, TRADE, LAWD_CD="11680", DEAL_YMD="202605", numOfRows="50")
    b = await get(client, TRADE, LAWD_CD="11680", DEAL_YMD="202605", numOfRows="50")
    c = await get(client, TRADE, seed=7, LAWD_CD="11680", DEAL_YMD="202605", numOfRows="50")
    assert a.content == b.content and a.content != c.content


async def test_session_call() -> None:
    backend = make_backend()
    try:
        session = Session(backend, clock=CLOCK, seed=0)
        res = await session.call(
            "molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11680", "DEAL_YMD": "202609", "numOfRows": 5}
        )
        assert res.ok and res.code == "000"
        out = res.output()
        assert out["totalCount"] >= 5 and len(out["items"]) == 5 and out["items"][0]["sggCd"] == "11680"
        dev = await session.call(
            "molit_getRTMSDataSvcAptTradeDev", {"LAWD_CD": "11680", "DEAL_YMD": "202609", "numOfRows": 5}
        )
        assert dev.output()["items"] == out["items"]
        rent = await session.call("molit_getRTMSDataSvcAptRent", {"LAWD_CD": "41135", "DEAL_YMD": "202609"})
        assert rent.ok and rent.output()["items"][0]["sggCd"] == "41135"
        bad = await session.call("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11680"})
        assert not bad.ok and bad.code == "11"
        empty = await session.call("molit_getRTMSDataSvcAptTrade", {"LAWD_CD": "11680", "DEAL_YMD": "202612"})
        assert empty.ok and empty.output()["items"] == [] and empty.parsed.total_count == 0
    finally:
        await backend.aclose()


def test_operation_metadata() -> None:
    from kopa_inspect.apis import get_operation

    for op_id in (
        "molit_getRTMSDataSvcAptTrade",
        "molit_getRTMSDataSvcAptTradeDev",
        "molit_getRTMSDataSvcAptRent",
    ):
        op = get_operation(op_id)
        assert "LAWD_CD" in op.summary and "(" in op.summary
        assert "dealAmount" in op.output_fields or "deposit" in op.output_fields


def test_same_bytes_in_a_fresh_process() -> None:
    """No hidden dependence on hash seeds or call order: another process gives the same bytes."""
    import hashlib
    import os
    import subprocess
    import sys

    script = (
        "import hashlib,sys\n"
        "from kopa_inspect.emulator import Emulator, DEFAULT_EMULATOR_KEY as K\n"
        "e = Emulator()\n"
        "q = {'serviceKey': K, 'LAWD_CD': '11440', 'DEAL_YMD': '202609', 'numOfRows': '1000'}\n"
        "b = e.handle('GET', '/1613000/RTMSDataSvcAptRent/getRTMSDataSvcAptRent', q, seed='5',"
        " clock='2026-10-15T14:20:00+09:00').body\n"
        "sys.stdout.write(hashlib.sha256(b).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    ).stdout

    from kopa_inspect.emulator import Emulator

    q = {"serviceKey": DEFAULT_EMULATOR_KEY, "LAWD_CD": "11440", "DEAL_YMD": "202609", "numOfRows": "1000"}
    here = Emulator().handle("GET", RENT, q, seed="5", clock="2026-10-15T14:20:00+09:00").body
    assert out == hashlib.sha256(here).hexdigest()
