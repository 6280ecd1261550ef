"""행정안전부 법정동코드 StanReginCd through the real HTTP path and through a Session."""

from __future__ import annotations

import json
import urllib.parse

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session

PATH = "/1741000/StanReginCd/getStanReginCdList"
OP = "stanregincd_getStanReginCdList"


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="http://apis.data.go.kr"
    ) as c:
        yield c


async def get(client: httpx.AsyncClient, **params: str) -> httpx.Response:
    return await client.get(PATH, params={"serviceKey": DEFAULT_EMULATOR_KEY, **params})


def head_of(doc: dict) -> dict:
    head: dict = {}
    for h in doc["StanReginCd"][0]["head"]:
        head.update(h)
    return head


async def test_json_envelope_is_the_non_standard_one(client: httpx.AsyncClient) -> None:
    r = await get(client, type="json", pageNo="1", numOfRows="5", locatadd_nm="서울특별시 종로구")
    assert r.status_code == 200
    doc = json.loads(r.text)
    head_list = doc["StanReginCd"][0]["head"]
    assert head_list[0] == {"totalCount": head_list[0]["totalCount"]}
    assert isinstance(head_list[0]["totalCount"], int) and head_list[0]["totalCount"] > 10
    assert head_list[1] == {"numOfRows": "5", "pageNo": "1", "type": "JSON"}
    assert head_list[2] == {"RESULT": {"resultCode": "INFO-0", "resultMsg": "NOMAL SERVICE"}}
    rows = doc["StanReginCd"][1]["row"]
    assert len(rows) == 5
    first = rows[0]
    assert first["region_cd"] == "1111000000" and first["locatadd_nm"] == "서울특별시 종로구"
    assert (first["sido_cd"], first["sgg_cd"], first["umd_cd"], first["ri_cd"]) == ("11", "110", "000", "00")
    assert first["locathigh_cd"] == "1100000000" and first["locallow_nm"] == "종로구"
    assert isinstance(first["locat_order"], int)
    assert rows[1]["region_cd"] == "1111010100" and rows[1]["locallow_nm"] == "청운동"


async def test_xml_by_default(client: httpx.AsyncClient) -> None:
    r = await get(client, locatadd_nm="성남시 분당구", numOfRows="100")
    assert r.text.startswith("<?xml")
    doc = xmltodict.parse(r.text)["StanReginCd"]
    assert doc["head"]["RESULT"] == {"resultCode": "INFO-0", "resultMsg": "NOMAL SERVICE"}
    assert doc["head"]["type"] == "XML"
    codes = [row["region_cd"] for row in doc["row"]]
    assert "4113500000" in codes and "4113510300" in codes
    assert int(doc["head"]["totalCount"]) == len(codes)


async def test_one_row_is_still_a_list(client: httpx.AsyncClient) -> None:
    r = await get(client, type="json", locatadd_nm="분당구 정자동")
    rows = json.loads(r.text)["StanReginCd"][1]["row"]
    assert isinstance(rows, list) and [x["region_cd"] for x in rows] == ["4113510300"]


async def test_no_data_is_info_3(client: httpx.AsyncClient) -> None:
    r = await get(client, type="json", locatadd_nm="없는특별시")
    assert json.loads(r.text) == {"RESULT": {"resultCode": "INFO-3", "resultMsg": "데이터없음 에러"}}
    r = await get(client, locatadd_nm="없는특별시")
    assert xmltodict.parse(r.text)["RESULT"]["resultCode"] == "INFO-3"


async def test_bad_paging_parameters(client: httpx.AsyncClient) -> None:
    r = await get(client, type="json", numOfRows="abc")
    assert json.loads(r.text)["RESULT"]["resultCode"] == "ERROR-333"
    r = await get(client, type="json", numOfRows="1001")
    assert json.loads(r.text)["RESULT"]["resultCode"] == "ERROR-336"


@pytest.mark.parametrize("key", ["not-a-key", None, "double"])
async def test_gateway_rejects_bad_keys_in_the_requested_form(
    client: httpx.AsyncClient, key: str | None
) -> None:
    params = {"type": "json", "locatadd_nm": "종로구"}
    if key == "double":  # the "Encoding" key sent through a client that encodes again
        params["serviceKey"] = urllib.parse.quote(DEFAULT_EMULATOR_KEY, safe="")
    elif key is not None:
        params["serviceKey"] = key
    r = await client.get(PATH, params=params)
    if key is None:
        assert_gateway(r, "20", "SERVICE_KEY_IS_NULL")
    else:
        assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
    del params["type"]
    assert_gateway(await client.get(PATH, params=params), "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")


async def test_pagination_totals_agree(client: httpx.AsyncClient) -> None:
    full = json.loads((await get(client, type="json", locatadd_nm="서울특별시", numOfRows="1000")).text)
    total = head_of(full)["totalCount"]
    all_codes = [x["region_cd"] for x in full["StanReginCd"][1]["row"]]
    assert total == len(all_codes) > 100
    seen: list[str] = []
    page = 1
    while True:
        r = await get(client, type="json", locatadd_nm="서울특별시", numOfRows="40", pageNo=str(page))
        doc = json.loads(r.text)
        if "RESULT" in doc:  # past the last page
            assert doc["RESULT"]["resultCode"] == "INFO-3"
            break
        assert head_of(doc)["totalCount"] == total
        seen.extend(x["region_cd"] for x in doc["StanReginCd"][1]["row"])
        page += 1
    assert seen == all_codes


async def test_same_seed_same_bytes(client: httpx.AsyncClient) -> None:
    a = await get(client, type="json", locatadd_nm="강남구", numOfRows="50")
    b = await get(client, type="json", locatadd_nm="강남구", numOfRows="50")
    assert a.content == b.content


async def test_session_call_and_chain_to_lawd_cd() -> None:
    backend = make_backend()
    try:
        session = Session(backend, clock="2026-10-15T14:20:00+09:00", seed=0)
        res = await session.call(OP, {"locatadd_nm": "서울특별시 강남구 역삼동"})
        assert res.ok and res.code == "INFO-0"
        assert res.parsed.total_count == 1
        assert res.output()["items"][0]["region_cd"][:5] == "11680"
        missing = await session.call(OP, {"locatadd_nm": "없는동네"})
        assert not missing.ok and missing.code == "INFO-3"
        assert DEFAULT_EMULATOR_KEY not in res.for_model()
    finally:
        await backend.aclose()


def test_operation_metadata() -> None:
    from kopa_inspect.apis import get_operation

    op = get_operation(OP)
    assert "법정동코드" in op.summary and "(" in op.summary
    assert {"region_cd", "locatadd_nm", "sgg_cd"} <= set(op.output_fields)
