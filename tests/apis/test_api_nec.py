"""중앙선거관리위원회 코드정보 / 당선인정보 (data.go.kr 9760000) over HTTP and a Session."""

from __future__ import annotations

import json

import httpx
import pytest
import xmltodict

from _gateway import assert_gateway
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, create_app
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"
CODES = "/9760000/CommonCodeService/getCommonSgCodeList"
WINNERS = "/9760000/WinnerInfoInqireService2/getWinnerInfoInqire"
OK = {"resultCode": "INFO-00", "resultMsg": "NORMAL SERVICE"}
NODATA = {
    "resultCode": "INFO-03",
    "resultMsg": "데이터 정보가 없습니다. 입력 파라메터값을 확인해주시기 바랍니다.",
}


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="http://apis.data.go.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient,
    path: str,
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    clock: str = CLOCK,
    seed: int = 0,
    **params: str,
) -> httpx.Response:
    if key is not None:
        params["serviceKey"] = key
    return await client.get(path, params=params, headers={SEED_HEADER: str(seed), CLOCK_HEADER: clock})


async def get_json(client: httpx.AsyncClient, path: str, **params: str) -> dict:
    return json.loads((await get(client, path, resultType="json", **params)).text)["response"]


def items(resp: dict) -> list[dict]:
    raw = resp["body"]["items"]["item"]
    return raw if isinstance(raw, list) else [raw]


async def test_election_codes_json_xml_and_paging(client: httpx.AsyncClient) -> None:
    full = await get_json(client, CODES, numOfRows="100")
    assert full["header"] == OK
    rows = items(full)
    total = full["body"]["totalCount"]
    assert total == len(rows)
    by_key = {(r["sgId"], r["sgTypecode"]): r["sgName"] for r in rows}
    assert by_key[("20240410", "0")] == "제22대 국회의원선거" and ("20240410", "2") in by_key
    assert by_key[("20250603", "0")] == "제21대 대통령선거" and ("20220601", "11") in by_key
    seen: list[dict] = []
    for page in range(1, (total + 6) // 7 + 1):
        resp = await get_json(client, CODES, pageNo=str(page), numOfRows="7")
        assert resp["body"]["totalCount"] == total and resp["body"]["pageNo"] == page
        seen += items(resp)
    assert seen == rows
    xml = xmltodict.parse((await get(client, CODES, numOfRows="100")).text)["response"]
    assert xml["header"] == OK and xml["body"]["totalCount"] == str(total)
    assert [i["sgId"] for i in xml["body"]["items"]["item"]] == [r["sgId"] for r in rows]
    # An election only enters the list months before it is held.
    early = await get_json(client, CODES, numOfRows="100", clock="2024-01-10T09:00:00+09:00")
    assert "20250603" not in {r["sgId"] for r in items(early)} and "20240410" in {
        r["sgId"] for r in items(early)
    }


async def test_winners_json_and_xml(client: httpx.AsyncClient) -> None:
    resp = await get_json(
        client, WINNERS, sgId="20240410", sgTypecode="2", sdName="서울특별시", numOfRows="100"
    )
    assert resp["header"] == OK
    rows = items(resp)
    assert resp["body"]["totalCount"] == len(rows) >= 10 and all(r["sdName"] == "서울특별시" for r in rows)
    assert {"종로구", "강남구갑"} <= {r["sggName"] for r in rows}
    assert all(
        r["jdName"] in {"더불어민주당", "국민의힘", "개혁신당", "새로운미래", "진보당", "무소속"}
        for r in rows
    )
    paged = [
        items(
            await get_json(
                client,
                WINNERS,
                sgId="20240410",
                sgTypecode="2",
                sdName="서울특별시",
                pageNo=str(p),
                numOfRows="5",
            )
        )
        for p in range(1, (len(rows) + 4) // 5 + 1)
    ]
    assert [r["huboid"] for page in paged for r in page] == [r["huboid"] for r in rows]
    one = await get_json(client, WINNERS, sgId="20240410", sgTypecode="2", sggName="종로구")
    raw = one["body"]["items"]["item"]
    assert isinstance(raw, dict) and raw["sggName"] == "종로구"  # one row -> object
    assert raw["dugsu"].isdigit() and 0 < float(raw["dugyul"]) <= 100 and len(raw["birthday"]) == 8
    xml = xmltodict.parse(
        (await get(client, WINNERS, sgId="20240410", sgTypecode="2", sggName="종로구")).text
    )
    assert xml["response"]["body"]["items"]["item"]["name"] == raw["name"]
    president = items(await get_json(client, WINNERS, sgId="20250603", sgTypecode="1"))
    assert (
        len(president) == 1 and president[0]["jdName"] == "더불어민주당" and president[0]["sdName"] == "전국"
    )
    older = items(await get_json(client, WINNERS, sgId="20220601", sgTypecode="3", numOfRows="20"))
    assert "강원도" in {r["sdName"] for r in older}  # the province's name on election day


@pytest.mark.parametrize(
    ("params", "header"),
    [
        ({"sgId": "20240410", "sgTypecode": "1"}, NODATA),  # no presidential race that day
        ({"sgId": "20240411", "sgTypecode": "2"}, NODATA),
        ({"sgId": "20240410", "sgTypecode": "2", "sggName": "없는선거구"}, NODATA),
        ({"sgTypecode": "2"}, {"resultCode": "11", "resultMsg": "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"}),
        (
            {"sgId": "2024-04-10", "sgTypecode": "2"},
            {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"},
        ),
        (
            {"sgId": "20240410", "sgTypecode": "99"},
            {"resultCode": "10", "resultMsg": "INVALID_REQUEST_PARAMETER_ERROR"},
        ),
    ],
)
async def test_documented_failures(client: httpx.AsyncClient, params: dict, header: dict) -> None:
    assert (await get_json(client, WINNERS, **params))["header"] == header
    xml = xmltodict.parse((await get(client, WINNERS, **params)).text)["response"]
    assert xml["header"] == header


async def test_results_only_after_the_vote(client: httpx.AsyncClient) -> None:
    before = await get_json(
        client, WINNERS, sgId="20260603", sgTypecode="3", clock="2026-06-03T12:00:00+09:00"
    )
    assert before["header"] == NODATA
    after = await get_json(client, WINNERS, sgId="20260603", sgTypecode="3", numOfRows="20")
    assert after["header"] == OK and after["body"]["totalCount"] == 17


@pytest.mark.parametrize("key", [None, "not-registered"])
async def test_gateway_key_errors_in_the_requested_form(client: httpx.AsyncClient, key: str | None) -> None:
    r = await get(client, CODES, key=key, resultType="json")
    if key is None:
        assert_gateway(r, "20", "SERVICE_KEY_IS_NULL")
    else:
        assert_gateway(r, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
    assert_gateway(await get(client, CODES, key=key), "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")


async def test_codes_then_winners_through_a_session() -> None:
    backend = make_backend()
    session = Session(backend, clock=CLOCK)
    try:
        codes = await session.call("nec_getCommonSgCodeList", {"numOfRows": 100})
        assert codes.ok and codes.code == "INFO-00"
        sg = next(i for i in codes.parsed.items if i["sgName"] == "제22대 국회의원선거")
        won = await session.call(
            "nec_getWinnerInfoInqire", {"sgId": sg["sgId"], "sgTypecode": "2", "sdName": "제주특별자치도"}
        )
        assert won.ok and won.parsed.total_count == 3
        assert {i["sggName"] for i in won.parsed.items} == {"제주시갑", "제주시을", "서귀포시"}
        none = await session.call("nec_getWinnerInfoInqire", {"sgId": "20240410", "sgTypecode": "1"})
        assert not none.ok and none.code == "INFO-03"
    finally:
        await backend.aclose()


async def test_determinism(client: httpx.AsyncClient) -> None:
    args = {"sgId": "20240410", "sgTypecode": "2", "numOfRows": "50"}
    a = (await get(client, WINNERS, **args)).content
    assert a == (await get(client, WINNERS, **args)).content
    assert a != (await get(client, WINNERS, seed=9, **args)).content
