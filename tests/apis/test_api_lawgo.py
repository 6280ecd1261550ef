"""law.go.kr DRF (lawSearch.do, lawService.do) over HTTP and a Session."""

from __future__ import annotations

import json

import httpx
import pytest
import xmltodict

from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, create_app
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"
SEARCH = "/DRF/lawSearch.do"
DETAIL = "/DRF/lawService.do"
NO_LAW = {"Law": "일치하는 법령이 없습니다. 법령명을 확인하여 주십시오."}


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="http://www.law.go.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient, path: str, *, oc: str | None = DEFAULT_EMULATOR_KEY, **params: str
) -> httpx.Response:
    if oc is not None:
        params["OC"] = oc
    params.setdefault("target", "law")
    return await client.get(path, params=params, headers={SEED_HEADER: "0", CLOCK_HEADER: CLOCK})


async def get_json(client: httpx.AsyncClient, path: str, **params: str) -> dict:
    r = await get(client, path, type="JSON", **params)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    return json.loads(r.text)


async def test_search_json_and_xml(client: httpx.AsyncClient) -> None:
    doc = (await get_json(client, SEARCH, query="도로교통법"))["LawSearch"]
    assert (
        doc["target"] == "law"
        and doc["키워드"] == "도로교통법"
        and doc["totalCnt"] == "3"
        and doc["page"] == "1"
    )
    names = [r["법령명한글"] for r in doc["law"]]
    assert names == ["도로교통법", "도로교통법 시행규칙", "도로교통법 시행령"]  # lasc: by name
    main = doc["law"][0]
    assert main["법령ID"] == "001638" and main["소관부처명"] == "경찰청" and main["법령구분명"] == "법률"
    assert main["법령일련번호"].isdigit() and len(main["시행일자"]) == 8 and main["현행연혁코드"] == "현행"
    xml = xmltodict.parse((await get(client, SEARCH, query="도로교통법", type="XML")).text)["LawSearch"]
    assert xml["totalCnt"] == "3" and [r["@id"] for r in xml["law"]] == ["1", "2", "3"]
    assert [r["법령명한글"] for r in xml["law"]] == names and xml["law"][0]["법령ID"] == "001638"
    default_xml = xmltodict.parse(
        (await get(client, SEARCH, query="공직선거법")).text
    )  # type defaults to XML
    assert default_xml["LawSearch"]["law"]["법령명한글"] == "공직선거법"  # one row -> one element


async def test_name_search_finds_every_law_sharing_the_words(client: httpx.AsyncClient) -> None:
    """A part of the name finds its neighbours, as on law.go.kr: 민법 -> 난민법 ..., 주택 -> 주택법 ..."""
    civil = [r["법령명한글"] for r in (await get_json(client, SEARCH, query="민법"))["LawSearch"]["law"]]
    assert "민법" in civil and "난민법" in civil and len(civil) >= 4
    housing = [r["법령명한글"] for r in (await get_json(client, SEARCH, query="주택"))["LawSearch"]["law"]]
    assert {"주택법", "주택법 시행령", "주택임대차보호법", "공공주택 특별법"} <= set(housing)
    lease = [
        r["법령명한글"]
        for r in (await get_json(client, SEARCH, query="주택임대차보호법"))["LawSearch"]["law"]
    ]
    assert lease == ["주택임대차보호법", "주택임대차보호법 시행령"]  # 상가건물 임대차보호법 is not a match


async def test_search_ignores_spaces_and_searches_text(client: httpx.AsyncClient) -> None:
    doc = (await get_json(client, SEARCH, query="개인정보보호법"))["LawSearch"]
    assert [r["법령명한글"] for r in doc["law"]] == ["개인정보 보호법", "개인정보 보호법 시행령"]
    body = (await get_json(client, SEARCH, query="혈중알코올농도", search="2"))["LawSearch"]
    assert body["section"] == "bdyText" and "도로교통법" in [r["법령명한글"] for r in body["law"]]
    none = (await get_json(client, SEARCH, query="존재하지않는법"))["LawSearch"]
    assert none["totalCnt"] == "0" and none["law"] == []
    newest = (await get_json(client, SEARCH, query="법", sort="efdes", display="3"))["LawSearch"]
    dates = [r["시행일자"] for r in newest["law"]]
    assert dates == sorted(dates, reverse=True)


async def test_search_pagination_totals_agree(client: httpx.AsyncClient) -> None:
    full = (await get_json(client, SEARCH, display="100"))["LawSearch"]
    total = int(full["totalCnt"])
    assert total == len(full["law"]) > 10
    seen: list[dict] = []
    for page in range(1, (total + 4) // 5 + 1):
        doc = (await get_json(client, SEARCH, display="5", page=str(page)))["LawSearch"]
        assert doc["totalCnt"] == str(total) and doc["page"] == str(page)
        seen += doc["law"]
    assert [r["법령ID"] for r in seen] == [r["법령ID"] for r in full["law"]]
    default = (await get_json(client, SEARCH))["LawSearch"]
    assert len(default["law"]) == min(20, total)  # display defaults to 20
    capped = (await get_json(client, SEARCH, display="500"))["LawSearch"]
    assert len(capped["law"]) == min(100, total)


async def test_detail_by_id_and_mst(client: httpx.AsyncClient) -> None:
    found = (await get_json(client, SEARCH, query="주택임대차보호법"))["LawSearch"]["law"]
    law = next(r for r in found if r["법령명한글"] == "주택임대차보호법")
    by_id = (await get_json(client, DETAIL, ID=law["법령ID"]))["법령"]
    by_mst = (await get_json(client, DETAIL, MST=law["법령일련번호"]))["법령"]
    assert by_id == by_mst
    assert (
        by_id["기본정보"]["법령명_한글"] == "주택임대차보호법" and by_id["기본정보"]["소관부처"] == "법무부"
    )
    units = by_id["조문"]["조문단위"]
    art4 = next(u for u in units if u["조문번호"] == "4")
    assert art4["조문제목"] == "임대차기간 등" and "2년" in art4["항"][0]["항내용"]
    one = (await get_json(client, DETAIL, ID=law["법령ID"], JO="000603"))["법령"]["조문"]["조문단위"]
    assert len(one) == 1 and one[0]["조문번호"] == "6" and one[0]["조문가지번호"] == "3"
    xml = xmltodict.parse((await get(client, DETAIL, ID=law["법령ID"], type="XML")).text)["법령"]
    assert xml["기본정보"]["법령ID"] == law["법령ID"]
    assert [u["조문번호"] for u in xml["조문"]["조문단위"]] == [u["조문번호"] for u in units]


@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        (DETAIL, {"ID": "999999"}, NO_LAW),
        (DETAIL, {"MST": "1"}, NO_LAW),
        (DETAIL, {"ID": "001706", "JO": "099900"}, NO_LAW),
        (DETAIL, {}, {"Law": "필수 요청변수가 누락되었습니다. (ID/MST)"}),
        (SEARCH, {"target": "prec"}, {"Law": "요청변수 값이 올바르지 않습니다. (target)"}),
        (SEARCH, {"target": ""}, {"Law": "필수 요청변수가 누락되었습니다. (target)"}),
    ],
)
async def test_documented_failures(
    client: httpx.AsyncClient, path: str, params: dict, expected: dict
) -> None:
    assert await get_json(client, path, **params) == expected
    xml = xmltodict.parse((await get(client, path, type="XML", **params)).text)
    assert xml == expected


@pytest.mark.parametrize("oc", [None, "unknown-user"])
async def test_oc_check(client: httpx.AsyncClient, oc: str | None) -> None:
    doc = await get_json(client, SEARCH, oc=oc, query="민법")
    assert doc["result"] == "사용자 정보 검증에 실패하였습니다." and "msg" in doc
    xml = xmltodict.parse((await get(client, SEARCH, oc=oc, type="XML")).text)["Law"]
    assert xml["result"] == doc["result"]


async def test_lookup_then_text_through_a_session() -> None:
    backend = make_backend()
    session = Session(backend, clock=CLOCK)
    try:
        found = await session.call("lawgo_lawSearch", {"target": "law", "query": "근로기준법"})
        # the act, its decree and its rules (시행규칙)
        assert found.ok and found.code == "00" and found.parsed.total_count == 3
        law_id = next(r["법령ID"] for r in found.output()["items"] if r["법령명한글"] == "근로기준법")
        text = await session.call("lawgo_lawService", {"target": "law", "ID": law_id, "JO": "005000"})
        assert text.ok and text.parsed.items[0]["조문제목"] == "근로시간"
        assert "40시간" in text.parsed.items[0]["항"][0]["항내용"]
        assert text.output()["기본정보"]["법령명_한글"] == "근로기준법"
        missing = await session.call("lawgo_lawService", {"target": "law", "ID": "000000"})
        assert (
            not missing.ok
            and missing.code == "NO_DATA"
            and missing.message.startswith("일치하는 법령이 없습니다")
        )
    finally:
        await backend.aclose()
