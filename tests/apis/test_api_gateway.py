"""The data.go.kr gateway's errors: XML for XML requests, the JSON form (403/429) for JSON ones,
and one parse for both so tools, EDGE and GRPO see the same code whatever the form."""

from __future__ import annotations

import json

import pytest

from _gateway import assert_gateway
from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.apis._envelope import HttpResponse, parse_gateway_error
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, Emulator, EmulatorConfig

CLOCK = "2026-10-15T14:20:00+09:00"
VILAGE = "/1360000/VilageFcstInfoService_2.0/getVilageFcst"
QUERY = {"base_date": "20261015", "base_time": "1400", "nx": "60", "ny": "127"}


def call(emu: Emulator, key: str | None, **extra: str) -> HttpResponse:
    q = {**QUERY, **extra}
    if key is not None:
        q["serviceKey"] = key
    return emu.handle("GET", VILAGE, q, clock=CLOCK)


@pytest.mark.parametrize(
    ("key", "code", "name"),
    [
        ("not-a-key", "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR"),
        (None, "20", "SERVICE_KEY_IS_NULL"),
    ],
)
def test_json_request_gets_the_json_form_and_xml_the_xml_form(key, code, name):
    emu = Emulator()
    assert_gateway(call(emu, key, dataType="JSON"), code, name, json_request=True)
    assert_gateway(call(emu, key), "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR", json_request=False)


def test_quota_is_429_in_json():
    emu = Emulator(EmulatorConfig(daily_quota=1))
    assert call(emu, DEFAULT_EMULATOR_KEY, dataType="JSON").status == 200
    assert_gateway(
        call(emu, DEFAULT_EMULATOR_KEY, dataType="JSON"),
        "22",
        "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
        json_request=True,
    )


def test_both_forms_parse_to_the_same_gateway_error():
    op = get_operation("kma_getVilageFcst")
    envelope = get_platform("kma").envelope
    emu = Emulator()
    for resp in (call(emu, "bad", dataType="JSON"), call(emu, "bad")):
        parsed = envelope.parse(op, resp)
        assert (parsed.ok, parsed.code, parsed.message, parsed.gateway_error) == (
            False,
            "30",
            "SERVICE_KEY_IS_NOT_REGISTERED_ERROR",
            True,
        )
    # The older per-second variant carries the code name in errMsg and Korean in returnAuthMsg.
    old = (
        "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR"
        "</errMsg><returnAuthMsg>초당 서비스 요청제한 횟수 초과 에러</returnAuthMsg><returnReasonCode>23"
        "</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>"
    )
    parsed = parse_gateway_error(old)
    assert parsed and parsed.code == "23" and parsed.message.startswith("LIMITED_NUMBER")
    # A service body that merely mentions the name is not a gateway error.
    body = json.dumps({"response": {"header": {"resultCode": "00", "resultMsg": "OpenAPI_ServiceResponse"}}})
    assert parse_gateway_error(body) is None
