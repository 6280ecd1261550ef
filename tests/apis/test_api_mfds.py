"""MFDS e약은요 emulation: root-less JSON with bare item lists, XML twin, failures, Session."""

from __future__ import annotations

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session

PATH = "/1471000/DrbEasyDrugInfoService/getDrbEasyDrugList"
CLOCK = "2026-10-15T14:20:00+09:00"


@pytest.fixture(scope="module")
def app():
    return create_app()


async def call(
    app, params: dict, *, key: str | None = DEFAULT_EMULATOR_KEY, json_: bool = True
) -> httpx.Response:
    q = dict(params)
    if key is not None:
        q["serviceKey"] = key
    if json_:
        q["type"] = "json"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://apis.data.go.kr"
    ) as c:
        return await c.get(PATH, params=q, headers={"X-Kopa-Clock": CLOCK})


def body(resp: httpx.Response) -> dict:
    doc = resp.json()
    assert "response" not in doc
    assert doc["header"] == {"resultCode": "00", "resultMsg": "NORMAL SERVICE."}
    return doc["body"]


async def test_search_by_name_json_and_xml(app):
    b = body(await call(app, {"itemName": "타이레놀"}))
    assert b["totalCount"] == len(b["items"]) == 3 and isinstance(b["items"], list)
    assert list(b) == ["pageNo", "totalCount", "numOfRows", "items"]
    first = b["items"][0]
    assert first["entpName"] == "한국존슨앤드존슨판매(유)" and len(first["itemSeq"]) == 9
    assert first["efcyQesitm"].startswith("<p>") and first["efcyQesitm"].endswith("</p>")
    xml = xmltodict.parse((await call(app, {"itemName": "타이레놀"}, json_=False)).text)["response"]
    assert xml["header"]["resultCode"] == "00" and xml["body"]["totalCount"] == "3"
    assert [i["itemSeq"] for i in xml["body"]["items"]["item"]] == [i["itemSeq"] for i in b["items"]]


async def test_item_seq_lookup_single_row_stays_a_list(app):
    seq = body(await call(app, {"itemName": "게보린"}))["items"][0]["itemSeq"]
    b = body(await call(app, {"itemSeq": seq}))
    assert b["totalCount"] == 1 and isinstance(b["items"], list) and b["items"][0]["itemName"] == "게보린정"
    assert b["items"][0]["atpnQesitm"]


async def test_nulls_and_text_search(app):
    rows = body(await call(app, {"efcyQesitm": "소화불량", "numOfRows": "50"}))["items"]
    assert {"베아제정", "훼스탈플러스정"} <= {r["itemName"] for r in rows}
    assert any(r["atpnWarnQesitm"] is None for r in rows), "absent texts are JSON null"


async def test_pagination_totals_agree(app):
    total = body(await call(app, {"numOfRows": "7"}))["totalCount"]
    seen = []
    for page in range(1, (total + 6) // 7 + 1):
        b = body(await call(app, {"numOfRows": "7", "pageNo": str(page)}))
        assert b["totalCount"] == total and b["pageNo"] == page
        seen += [r["itemSeq"] for r in b["items"]]
    assert len(seen) == len(set(seen)) == total > 20


async def test_no_data(app):
    b = body(await call(app, {"itemName": "존재하지않는약"}))
    assert b["totalCount"] == 0 and "items" not in b


@pytest.mark.parametrize("params", [{"numOfRows": "many"}, {"itemSeq": "12ab"}, {"pageNo": "0"}])
async def test_invalid_parameters(app, params):
    doc = (await call(app, params)).json()
    assert doc == {"header": {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"}}
    xml = xmltodict.parse((await call(app, params, json_=False)).text)
    assert xml["response"]["header"]["resultCode"] == "10"


@pytest.mark.parametrize("key", [None, "bad"])
async def test_gateway_key_errors(app, key):
    resp = await call(app, {"itemName": "타이레놀"}, key=key)  # type=json: the gateway's JSON form
    if key is None:
        assert_gateway(resp, "20", "SERVICE_KEY_IS_NULL")
    else:
        assert_gateway(resp, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")


async def test_deterministic_bytes(app):
    assert (await call(app, {"entpName": "대웅"})).content == (
        await call(create_app(), {"entpName": "대웅"})
    ).content


async def test_session_and_cross_api_chain_to_nts():
    session = Session(make_backend(), clock=CLOCK)
    found = await session.call("mfds_getDrbEasyDrugList", {"itemName": "타이레놀정500"})
    assert found.ok and found.parsed.total_count == 1
    drug = found.parsed.items[0]
    again = await session.call("mfds_getDrbEasyDrugList", {"itemSeq": drug["itemSeq"]})
    assert again.parsed.items[0]["itemName"] == drug["itemName"]
    status = await session.call("nts_status", {"b_no": [drug["bizrno"]]})
    assert status.ok and status.parsed.items[0]["b_stt_cd"] == "01"
    bad = await session.call("mfds_getDrbEasyDrugList", {"itemSeq": "x"})
    assert not bad.ok and bad.code == "10"


def test_operation_metadata():
    op = get_operation("mfds_getDrbEasyDrugList")
    assert op.output_fields and any("\uac00" <= ch <= "\ud7a3" for ch in op.summary) and "(" in op.summary
