"""The data.go.kr gateway's own error envelope, in the form the request asked for.

XML requests get the long-standing XML form (HTTP 200, code name in ``returnAuthMsg``); JSON
requests get the JSON form the live gateway sends (HTTP 403 / 429, code name in ``errMsg``).
See kopa_inspect.apis._envelope for the evidence.
"""

from __future__ import annotations

import json
from typing import Any

import xmltodict

JSON_SWITCHES = ("_type", "datatype", "returntype", "type", "resulttype")


def asked_json(resp: Any) -> bool:
    """Whether the request behind an httpx response selected JSON (any provider's switch)."""
    params = resp.request.url.params
    return any(k.lower() in JSON_SWITCHES and v.lower() == "json" for k, v in params.multi_items())


def assert_gateway(resp: Any, code: str, name: str, *, json_request: bool | None = None) -> None:
    status = resp.status_code if hasattr(resp, "status_code") else resp.status
    text = resp.text
    if json_request is None:
        json_request = asked_json(resp)
    if json_request:
        assert status == (429 if code in ("22", "23") else 403), (status, text[:120])
        assert not text.lstrip().startswith("<"), text[:120]
        hdr = json.loads(text)["OpenAPI_ServiceResponse"]["cmmMsgHeader"]
        assert (hdr["returnReasonCode"], hdr["errMsg"]) == (code, name), hdr
        assert hdr["returnAuthMsg"] and not hdr["returnAuthMsg"].isascii(), hdr  # the Korean text
        return
    assert status == 200 and text.lstrip().startswith("<"), (status, text[:120])
    hdr = xmltodict.parse(text)["OpenAPI_ServiceResponse"]["cmmMsgHeader"]
    assert (hdr["returnReasonCode"], hdr["returnAuthMsg"], hdr["errMsg"]) == (code, name, "SERVICE ERROR"), (
        hdr
    )
