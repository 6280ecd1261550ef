"""NTS 사업자등록 상태조회 / 진위확인 on the odcloud gateway: POST JSON, own envelope."""

from __future__ import annotations

import httpx
import pytest

from kopa_inspect.apis import get_operation
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, create_app
from kopa_inspect.execution import Session
from kopa_inspect.world import get_world
from kopa_inspect.world.businesses import build_businesses, check_digit, is_valid_bno, make_bno

STATUS = "/api/nts-businessman/v1/status"
VALIDATE = "/api/nts-businessman/v1/validate"
CLOCK = "2026-10-15T14:20:00+09:00"


@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture(scope="module")
def biz():
    return build_businesses(get_world(0, CLOCK))


async def post(
    app, path: str, payload, *, key: str | None = DEFAULT_EMULATOR_KEY, seed: str = "0"
) -> httpx.Response:
    params = {"serviceKey": key} if key is not None else {}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://api.odcloud.kr"
    ) as c:
        return await c.post(
            path, params=params, json=payload, headers={"X-Kopa-Clock": CLOCK, "X-Kopa-Seed": seed}
        )


def test_checksum():
    assert is_valid_bno("1248100998")  # a well-known published number
    assert not is_valid_bno("1248100997") and not is_valid_bno("124810099")
    assert check_digit("124810099") == 8
    b = make_bno(220, 81, 1234)
    assert is_valid_bno(b) and b[3:5] == "81"


def test_world_numbers_are_valid_and_closures_past(biz):
    assert all(is_valid_bno(b.b_no) for b in biz.businesses)
    closed = [b for b in biz.businesses if b.b_stt_cd == "03"]
    assert closed and all(b.end_dt and b.end_dt <= "20261015" for b in closed)
    assert {b.b_stt_cd for b in biz.businesses} == {"01", "02", "03"}


async def test_status_mixed(app, biz):
    closed = next(b for b in biz.businesses if b.b_stt_cd == "03")
    active = biz.businesses[0]
    resp = await post(app, STATUS, {"b_no": [active.b_no, "1234567890", closed.b_no]})
    assert resp.status_code == 200
    doc = resp.json()
    assert list(doc) == ["status_code", "match_cnt", "request_cnt", "data"]
    assert (doc["status_code"], doc["match_cnt"], doc["request_cnt"]) == ("OK", 2, 3)
    a, unknown, c = doc["data"]
    assert (a["b_stt"], a["b_stt_cd"], a["tax_type_cd"]) == ("계속사업자", "01", "01")
    assert unknown["b_stt_cd"] == "" and unknown["tax_type"] == "국세청에 등록되지 않은 사업자등록번호입니다."
    assert c["b_stt"] == "폐업자" and c["end_dt"] == closed.end_dt
    assert all(isinstance(v, str) for row in doc["data"] for v in row.values())


async def test_single_number_is_still_a_list(app, biz):
    doc = (await post(app, STATUS, {"b_no": [biz.businesses[1].b_no]})).json()
    assert isinstance(doc["data"], list) and len(doc["data"]) == 1


async def test_hundred_allowed_and_over_rejected(app, biz):
    numbers = [b.b_no for b in biz.businesses[:100]]
    doc = (await post(app, STATUS, {"b_no": numbers})).json()
    assert doc["request_cnt"] == 100 and len(doc["data"]) == 100
    resp = await post(app, STATUS, {"b_no": [*numbers, biz.businesses[100].b_no]})
    assert resp.status_code == 413 and resp.json() == {"status_code": "TOO_LARGE_REQUEST"}


@pytest.mark.parametrize("payload", [{}, {"b_no": []}, {"b_no": ["124-81-00998"]}, {"b_no": ["12481"]}])
async def test_malformed_requests(app, payload):
    resp = await post(app, STATUS, payload)
    assert resp.status_code == 411 and resp.json() == {"status_code": "REQUEST_DATA_MALFORMED"}


@pytest.mark.parametrize("key", [None, "unknown-key"])
async def test_gateway_key_errors(app, key):
    resp = await post(app, STATUS, {"b_no": ["1248100998"]}, key=key)
    assert resp.status_code == 401 and resp.json() == {"code": -4, "msg": "등록되지 않은 인증키 입니다."}


async def test_validate(app, biz):
    b = biz.businesses[3]
    payload = {
        "businesses": [
            {"b_no": b.b_no, "start_dt": b.start_dt, "p_nm": b.p_nm},
            {"b_no": b.b_no, "start_dt": b.start_dt, "p_nm": "홍길동X"},
            {"b_no": b.b_no, "start_dt": b.start_dt, "p_nm": b.p_nm, "b_nm": b.b_nm},
        ]
    }
    doc = (await post(app, VALIDATE, payload)).json()
    assert (doc["status_code"], doc["request_cnt"], doc["valid_cnt"]) == ("OK", 3, 2)
    ok, bad, ok2 = doc["data"]
    assert ok["valid"] == "01" and ok["status"]["b_no"] == b.b_no and ok["request_param"]["p_nm"] == b.p_nm
    assert bad["valid"] == "02" and bad["valid_msg"] == "확인할 수 없습니다." and "status" not in bad
    assert ok2["valid"] == "01"
    resp = await post(app, VALIDATE, {"businesses": [{"b_no": b.b_no}]})
    assert resp.status_code == 411


async def test_deterministic_bytes(app, biz):
    payload = {"b_no": [b.b_no for b in biz.businesses[:20]]}
    assert (await post(app, STATUS, payload)).content == (await post(create_app(), STATUS, payload)).content


async def test_session_calls(biz):
    session = Session(make_backend(), clock=CLOCK)
    res = await session.call("nts_status", {"b_no": [biz.businesses[0].b_no, "1234567890"]})
    assert res.ok and res.code == "OK" and res.output()["match_cnt"] == 1 and len(res.parsed.items) == 2
    b = biz.businesses[5]
    val = await session.call(
        "nts_validate", {"businesses": [{"b_no": b.b_no, "start_dt": b.start_dt, "p_nm": b.p_nm}]}
    )
    assert val.ok and val.parsed.items[0]["valid"] == "01"
    bad = await session.call("nts_status", {"b_no": ["123"]})
    assert not bad.ok and bad.code == "REQUEST_DATA_MALFORMED"


def test_operation_metadata():
    for op_id in ("nts_status", "nts_validate"):
        op = get_operation(op_id)
        assert op.method == "POST" and op.output_fields
        assert any("\uac00" <= ch <= "\ud7a3" for ch in op.summary) and "(" in op.summary
