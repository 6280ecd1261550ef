"""OpenDART (corpCode search, company, list, fnlttSinglAcnt) over HTTP and a Session."""

from __future__ import annotations

import io
import json
import re
import zipfile

import httpx
import pytest
import xmltodict

from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, EmulatorConfig, create_app
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"
SAMSUNG = "00126380"


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="https://opendart.fss.or.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient,
    name: str,
    fmt: str = "json",
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    seed: int = 0,
    clock: str = CLOCK,
    **params: str,
) -> httpx.Response:
    if key is not None:
        params["crtfc_key"] = key
    return await client.get(
        f"/api/{name}.{fmt}", params=params, headers={SEED_HEADER: str(seed), CLOCK_HEADER: clock}
    )


async def get_json(client: httpx.AsyncClient, name: str, **params: str) -> dict:
    r = await get(client, name, **params)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    return json.loads(r.text)


async def get_xml(client: httpx.AsyncClient, name: str, **params: str) -> dict:
    r = await get(client, name, "xml", **params)
    assert r.headers["content-type"].startswith("text/xml")
    return xmltodict.parse(r.text)["result"]


async def test_corp_code_search_json(client: httpx.AsyncClient) -> None:
    doc = await get_json(client, "corpCode", corp_name="삼성전자")
    assert (doc["status"], doc["message"]) == ("000", "정상")
    names = {r["corp_name"]: r for r in doc["list"]}
    assert doc["total_count"] == len(doc["list"]) >= 2  # the listed company and its unlisted namesakes
    assert names["삼성전자"]["corp_code"] == SAMSUNG and names["삼성전자"]["stock_code"] == "005930"
    assert names["삼성전자서비스"]["stock_code"] == " "  # unlisted: a single space, as in CORPCODE.xml
    by_stock = await get_json(client, "corpCode", stock_code="000660")
    assert [r["corp_code"] for r in by_stock["list"]] == ["00164779"]
    pages = [await get_json(client, "corpCode", page_no=str(i), page_count="7") for i in (1, 2, 3)]
    assert {p["total_count"] for p in pages} == {(await get_json(client, "corpCode"))["total_count"]}
    assert [r["corp_code"] for p in pages for r in p["list"]] == [
        r["corp_code"] for r in (await get_json(client, "corpCode", page_count="100"))["list"]
    ]


async def test_corp_code_xml_is_the_real_zip_of_corpcode_xml(client: httpx.AsyncClient) -> None:
    # OpenDartReader and dart-fss download /api/corpCode.xml and unzip CORPCODE.xml from it.
    r = await get(client, "corpCode", "xml")
    assert r.status_code == 200 and r.content[:4] == b"PK\x03\x04", r.content[:80]
    assert re.search(r"attachment;\s*filename=\"?CORPCODE\.zip", r.headers["content-disposition"])
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert zf.namelist() == ["CORPCODE.xml"]
        text = zf.read("CORPCODE.xml").decode("utf-8")
    rows = xmltodict.parse(text)["result"]["list"]
    search = await get_json(client, "corpCode", page_count="100")
    assert len(rows) == search["total_count"] >= 20  # every company, no paging, no search
    assert [list(row) for row in rows[:1]] == [
        ["corp_code", "corp_name", "corp_eng_name", "stock_code", "modify_date"]
    ]
    by_code = {row["corp_code"]: row for row in rows}
    assert by_code[SAMSUNG]["corp_name"] == "삼성전자" and by_code[SAMSUNG]["stock_code"] == "005930"
    assert "<stock_code> </stock_code>" in text  # unlisted: a single space, as in the real file
    # The same bytes every time (a fixed ZIP timestamp), whatever the search parameters.
    again = await get(client, "corpCode", "xml", corp_name="삼성전자", page_count="3")
    assert again.content == r.content
    # A bad key is the XML status document, not a ZIP (OpenDartReader reads <status> first).
    bad = await get(client, "corpCode", "xml", key="bad-key")
    assert xmltodict.parse(bad.text)["result"] == {"status": "010", "message": "등록되지 않은 키입니다."}


async def test_corp_code_zip_parses_through_the_envelope(client: httpx.AsyncClient) -> None:
    from kopa_inspect.apis import get_operation, get_platform
    from kopa_inspect.apis._envelope import HttpResponse

    r = await get(client, "corpCode", "xml")
    op = get_operation("dart_corpCode")
    parsed = get_platform("dart").envelope.parse(
        op, HttpResponse(r.status_code, r.headers["content-type"], r.content)
    )
    assert parsed.ok and parsed.code == "000" and parsed.total_count == len(parsed.items) >= 20
    assert {"corp_code": SAMSUNG, "corp_name": "삼성전자"}.items() <= next(
        i for i in parsed.items if i["corp_code"] == SAMSUNG
    ).items()


async def test_company_profile_json_and_xml(client: httpx.AsyncClient) -> None:
    doc = await get_json(client, "company", corp_code=SAMSUNG)
    assert list(doc)[:2] == ["status", "message"] and doc["status"] == "000"
    assert doc["corp_name"] == "삼성전자(주)" and doc["stock_code"] == "005930" and doc["corp_cls"] == "Y"
    assert doc["est_dt"] == "19690113" and doc["acc_mt"] == "12" and "list" not in doc
    xml = await get_xml(client, "company", corp_code=SAMSUNG)
    assert xml["corp_name"] == doc["corp_name"] and xml["adres"] == doc["adres"]


async def test_financial_accounts_follow_filing_deadlines(client: httpx.AsyncClient) -> None:
    doc = await get_json(client, "fnlttSinglAcnt", corp_code=SAMSUNG, bsns_year="2025", reprt_code="11011")
    assert doc["status"] == "000"
    rows = doc["list"]
    cfs = {r["account_nm"]: r for r in rows if r["fs_div"] == "CFS"}
    assert {"매출액", "영업이익", "당기순이익", "자산총계", "부채총계", "자본총계"} <= set(cfs)
    assert {r["fs_div"] for r in rows} == {"CFS", "OFS"} and {r["sj_div"] for r in rows} == {"BS", "IS"}
    revenue = cfs["매출액"]
    assert revenue["thstrm_amount"].replace(",", "").isdigit() and "," in revenue["thstrm_amount"]
    assert (
        revenue["thstrm_nm"] == "제 57 기" and revenue["bfefrmtrm_amount"]
    )  # 1969 founding: 57th term in 2025
    assets = int(cfs["자산총계"]["thstrm_amount"].replace(",", ""))
    parts = int(cfs["부채총계"]["thstrm_amount"].replace(",", "")) + int(
        cfs["자본총계"]["thstrm_amount"].replace(",", "")
    )
    assert abs(assets - parts) <= 2  # the balance sheet balances (rounding)
    assert len({r["rcept_no"] for r in rows}) == 1 and rows[0]["rcept_no"].startswith("2026")
    xml = await get_xml(client, "fnlttSinglAcnt", corp_code=SAMSUNG, bsns_year="2025", reprt_code="11011")
    assert [r["thstrm_amount"] for r in xml["list"]] == [r["thstrm_amount"] for r in rows]
    # The 2026 annual report is due in March 2027; at this clock it does not exist.
    not_yet = await get_json(
        client, "fnlttSinglAcnt", corp_code=SAMSUNG, bsns_year="2026", reprt_code="11011"
    )
    assert not_yet == {"status": "013", "message": "조회된 데이타가 없습니다."}
    half = await get_json(client, "fnlttSinglAcnt", corp_code=SAMSUNG, bsns_year="2026", reprt_code="11012")
    assert half["status"] == "000"
    q1 = await get_json(client, "fnlttSinglAcnt", corp_code=SAMSUNG, bsns_year="2026", reprt_code="11013")

    def amount(doc: dict, field: str) -> int:
        row = next(r for r in doc["list"] if r["fs_div"] == "CFS" and r["account_nm"] == "매출액")
        return int(row[field].replace(",", ""))

    # 반기보고서: the second quarter alone, and the half year to date = 1분기 + 2분기.
    assert (
        abs(amount(half, "thstrm_add_amount") - amount(half, "thstrm_amount") - amount(q1, "thstrm_amount"))
        <= 2
    )
    assert amount(q1, "thstrm_add_amount") == amount(q1, "thstrm_amount")


async def test_disclosure_list_pagination(client: httpx.AsyncClient) -> None:
    args = {"bgn_de": "20260101", "end_de": "20261015"}
    full = await get_json(client, "list", page_count="100", **args)
    total = full["total_count"]
    assert full["status"] == "000" and total > 100 and full["total_page"] == (total + 99) // 100
    seen: list[dict] = []
    for page in range(1, (total + 29) // 30 + 1):
        doc = await get_json(client, "list", page_no=str(page), page_count="30", **args)
        assert doc["total_count"] == total and doc["page_no"] == page and doc["page_count"] == 30
        seen += doc["list"]
    everything = []
    for page in range(1, full["total_page"] + 1):
        everything += (await get_json(client, "list", page_no=str(page), page_count="100", **args))["list"]
    assert seen == everything and len(seen) == total
    assert [r["rcept_dt"] for r in seen] == sorted((r["rcept_dt"] for r in seen), reverse=True)
    past = await get_json(client, "list", page_no=str(full["total_page"] * 4), page_count="30", **args)
    assert past["status"] == "013"
    own = await get_json(
        client, "list", corp_code=SAMSUNG, pblntf_ty="A", bgn_de="20250101", page_count="100"
    )
    assert {r["corp_code"] for r in own["list"]} == {SAMSUNG}
    assert any(r["report_nm"] == "사업보고서 (2025.12)" for r in own["list"])
    xml = await get_xml(client, "list", page_count="5", **args)
    assert xml["total_count"] == str(total) and len(xml["list"]) == 5


@pytest.mark.parametrize(
    ("name", "params", "status", "message"),
    [
        ("company", {"key": "bad-key", "corp_code": SAMSUNG}, "010", "등록되지 않은 키입니다."),
        ("company", {"key": None, "corp_code": SAMSUNG}, "010", "등록되지 않은 키입니다."),
        ("company", {"corp_code": "99999999"}, "013", "조회된 데이타가 없습니다."),
        ("company", {"corp_code": "1234"}, "100", "필드의 부적절한 값입니다."),
        ("company", {}, "100", "필드의 부적절한 값입니다."),
        (
            "fnlttSinglAcnt",
            {"corp_code": SAMSUNG, "bsns_year": "2024", "reprt_code": "11099"},
            "100",
            "필드의 부적절한 값입니다.",
        ),
        (
            "fnlttSinglAcnt",
            {"corp_code": SAMSUNG, "bsns_year": "2010", "reprt_code": "11011"},
            "013",
            "조회된 데이타가 없습니다.",
        ),
        ("list", {"page_count": "101"}, "100", "필드의 부적절한 값입니다."),
    ],
)
async def test_documented_failures(
    client: httpx.AsyncClient, name: str, params: dict, status: str, message: str
) -> None:
    params = dict(params)
    key = params.pop("key", DEFAULT_EMULATOR_KEY)
    assert await get_json(client, name, key=key, **params) == {"status": status, "message": message}
    xml = await get_xml(client, name, key=key, **params)
    assert xml == {"status": status, "message": message}


async def test_chain_through_a_session() -> None:
    backend = make_backend()
    session = Session(backend, clock=CLOCK)
    try:
        found = await session.call("dart_corpCode", {"corp_name": "SK하이닉스"})
        assert found.ok and found.parsed.total_count == 1
        code = found.output()["items"][0]["corp_code"]
        profile = await session.call("dart_company", {"corp_code": code})
        assert profile.ok and profile.parsed.items[0]["stock_code"] == "000660"
        fin = await session.call(
            "dart_fnlttSinglAcnt", {"corp_code": code, "bsns_year": "2025", "reprt_code": "11011"}
        )
        assert fin.ok and any(i["account_nm"] == "영업이익" for i in fin.parsed.items)
        missing = await session.call(
            "dart_fnlttSinglAcnt", {"corp_code": code, "bsns_year": "2026", "reprt_code": "11011"}
        )
        assert not missing.ok and missing.error_text() == "013 조회된 데이타가 없습니다."
        listing = await session.call("dart_list", {"corp_code": code, "bgn_de": "20250101", "page_count": 5})
        assert listing.ok and listing.parsed.page_no == 1 and listing.parsed.num_rows == 5
        assert listing.parsed.total_count is not None and listing.parsed.total_count > 5
    finally:
        await backend.aclose()


async def test_determinism(client: httpx.AsyncClient) -> None:
    args = {"corp_code": SAMSUNG, "bsns_year": "2024", "reprt_code": "11011"}
    a = (await get(client, "fnlttSinglAcnt", **args)).content
    assert a == (await get(client, "fnlttSinglAcnt", **args)).content
    assert a != (await get(client, "fnlttSinglAcnt", seed=3, **args)).content


async def test_quota_and_suspended_key() -> None:
    other = "suspended-key"
    app = create_app(
        EmulatorConfig(
            keys=frozenset({DEFAULT_EMULATOR_KEY, other}), daily_quota=1, denied={other: frozenset({"dart"})}
        )
    )
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://opendart.fss.or.kr"
    ) as c:
        assert (await get_json(c, "company", corp_code=SAMSUNG))["status"] == "000"
        assert await get_json(c, "company", corp_code=SAMSUNG) == {
            "status": "020",
            "message": "요청 제한을 초과하였습니다.",
        }
        assert await get_json(c, "company", key=other, corp_code=SAMSUNG) == {
            "status": "011",
            "message": "사용할 수 없는 키입니다.",
        }
