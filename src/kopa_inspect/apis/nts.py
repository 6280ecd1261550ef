"""국세청 사업자등록정보 상태조회 / 진위확인 (the provider's published API guide).

Not on apis.data.go.kr: the odcloud gateway, ``POST https://api.odcloud.kr/api/nts-businessman/v1/
status?serviceKey=...`` with a JSON body ``{"b_no": ["1248100998", ...]}`` (at most 100 numbers,
digits only). The answer is its own shape: ``{"status_code":"OK","match_cnt":1,"request_cnt":1,
"data":[{"b_no":..., "b_stt":"계속사업자", "b_stt_cd":"01", "tax_type":..., ...}]}``. A number the
NTS does not know still comes back as a row, with the message in ``tax_type`` (a real trap).

UNCERTAIN (reference: "from memory"): the request-error status codes and their HTTP statuses
(BAD_JSON_REQUEST 400, REQUEST_DATA_MALFORMED 411, TOO_LARGE_REQUEST 413, INTERNAL_ERROR 500) and
the gateway's key-error body ``{"code":-4,"msg":"등록되지 않은 인증키 입니다."}`` (HTTP 401). A
malformed number (not ten digits) is treated as REQUEST_DATA_MALFORMED.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kopa_inspect.apis._envelope import JSON_CT, Envelope, Format, HttpResponse, Page, Parsed, dumps_json
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result
from kopa_inspect.world import World
from kopa_inspect.world import businesses as bw

MAX_PER_CALL = 100

# kind -> (HTTP status, status_code, Korean gloss for the model)
REQUEST_ERRORS: dict[str, tuple[int, str, str]] = {
    "missing_param": (411, "REQUEST_DATA_MALFORMED", "필수 요청 파라미터 누락 (a required field is missing)"),
    "invalid_param": (411, "REQUEST_DATA_MALFORMED", "요청 데이터 형식 오류 (malformed request data)"),
    "too_many_rows": (413, "TOO_LARGE_REQUEST", "요청 사업자번호 100개 초과 (more than 100 numbers)"),
    "server_error": (500, "INTERNAL_ERROR", "내부 오류 (internal error)"),
}
# odcloud gateway errors (key, quota): HTTP status, code, msg. UNCERTAIN beyond code -4.
GATEWAY_ERRORS: dict[str, tuple[int, int, str]] = {
    "key_missing": (401, -4, "등록되지 않은 인증키 입니다."),
    "key_not_registered": (401, -4, "등록되지 않은 인증키 입니다."),
    "access_denied": (401, -3, "활용신청하지 않은 API 입니다."),
    "rate_limited": (429, -10, "일일 트래픽 제한을 초과하였습니다."),
    "rate_limited_second": (429, -10, "초당 트래픽 제한을 초과하였습니다."),
    "no_service": (404, -1, "API를 찾을 수 없습니다."),
}


class NtsEnvelope(Envelope):
    format_param = None
    page_param = None
    size_param = None

    def response_format(self, params: dict[str, Any]) -> Format:
        return "json"  # JSON in, JSON out

    def json_request_params(self) -> dict[str, str]:
        return {}

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        doc = {"status_code": "OK", **page.extra, "data": page.rows}
        return HttpResponse(200, JSON_CT, dumps_json(doc))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        if err.kind in GATEWAY_ERRORS:
            status, code, msg = GATEWAY_ERRORS[err.kind]
            return HttpResponse(status, JSON_CT, dumps_json({"code": code, "msg": msg}))
        status, status_code, _ = REQUEST_ERRORS.get(err.kind, REQUEST_ERRORS["server_error"])
        return HttpResponse(status, JSON_CT, dumps_json({"status_code": status_code}))

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        try:
            doc = json.loads(resp.text.lstrip("\ufeff") or "null")
        except json.JSONDecodeError:
            return Parsed(ok=False, code=str(resp.status), message=resp.text[:200])
        if not isinstance(doc, dict):
            return Parsed(ok=False, code=str(resp.status), message=f"HTTP {resp.status}")
        if "status_code" not in doc:
            return Parsed(
                ok=False,
                code=str(doc.get("code", resp.status)),
                message=str(doc.get("msg", "")),
                gateway_error=True,
            )
        code = str(doc["status_code"])
        if code != "OK":
            gloss = next((g for _, c, g in REQUEST_ERRORS.values() if c == code), code)
            return Parsed(ok=False, code=code, message=gloss)
        items = [d for d in doc.get("data") or [] if isinstance(d, dict)]
        extra = {k: v for k, v in doc.items() if k not in ("status_code", "data")}
        return Parsed(ok=True, code="OK", message="OK", items=items, total_count=len(items), extra=extra)


ENVELOPE = NtsEnvelope()

PLATFORM = Platform(
    id="nts",
    name="국세청 사업자등록정보 진위확인 및 상태조회 (National Tax Service business registration)",
    domain="finance",
    live_base_url="https://api.odcloud.kr",
    envelope=ENVELOPE,
    key_params=("serviceKey",),
    description="사업자등록번호의 계속·휴업·폐업 상태와 과세유형 (business status and tax type by registration number)",
)

_BNO = re.compile(r"\d{10}")


def _data(world: World) -> bw.BusinessData:
    return world.part("businesses")


def _status_row(b_no: str, biz: bw.Business | None) -> dict[str, str]:
    if biz is None:
        return {
            "b_no": b_no,
            "b_stt": "",
            "b_stt_cd": "",
            "tax_type": bw.NOT_REGISTERED,
            "tax_type_cd": "",
            "end_dt": "",
            "utcc_yn": "",
            "tax_type_change_dt": "",
            "invoice_apply_dt": "",
            "rbf_tax_type": "",
            "rbf_tax_type_cd": "",
        }
    return {
        "b_no": b_no,
        "b_stt": bw.STATUS[biz.b_stt_cd],
        "b_stt_cd": biz.b_stt_cd,
        "tax_type": bw.TAX_TYPES[biz.tax_type_cd],
        "tax_type_cd": biz.tax_type_cd,
        "end_dt": biz.end_dt,
        "utcc_yn": biz.utcc_yn,
        "tax_type_change_dt": biz.tax_type_change_dt,
        "invoice_apply_dt": biz.invoice_apply_dt,
        "rbf_tax_type": bw.TAX_TYPES.get(biz.rbf_tax_type_cd, ""),
        "rbf_tax_type_cd": biz.rbf_tax_type_cd,
    }


def status(world: World, p: dict[str, Any]) -> Result:
    numbers = p.get("b_no") or []
    if not numbers:
        raise ApiError("missing_param", param="b_no")
    if len(numbers) > MAX_PER_CALL:
        raise ApiError("too_many_rows", param="b_no")
    if any(not _BNO.fullmatch(str(n)) for n in numbers):
        raise ApiError("invalid_param", param="b_no")
    data = _data(world)
    rows = [_status_row(str(n), data.by_bno.get(str(n))) for n in numbers]
    matched = sum(1 for r in rows if r["b_stt_cd"])
    return Result(rows=rows, paged=False, extra={"match_cnt": matched, "request_cnt": len(rows)})


_VALIDATE_FIELDS = ("b_no", "start_dt", "p_nm", "p_nm2", "b_nm", "corp_no", "b_sector", "b_type", "b_adr")


def _norm(text: Any) -> str:
    return "".join(str(text or "").split())


def validate(world: World, p: dict[str, Any]) -> Result:
    requests = p.get("businesses") or []
    if not requests:
        raise ApiError("missing_param", param="businesses")
    if len(requests) > MAX_PER_CALL:
        raise ApiError("too_many_rows", param="businesses")
    data = _data(world)
    rows = []
    for req in requests:
        if not isinstance(req, dict) or any(not req.get(k) for k in ("b_no", "start_dt", "p_nm")):
            raise ApiError("missing_param", param="businesses")
        if not _BNO.fullmatch(str(req["b_no"])) or not re.fullmatch(r"\d{8}", str(req["start_dt"])):
            raise ApiError("invalid_param", param="businesses")
        echo = {k: str(req.get(k) or "") for k in _VALIDATE_FIELDS}
        biz = data.by_bno.get(echo["b_no"])
        ok = biz is not None and biz.start_dt == echo["start_dt"] and _norm(biz.p_nm) == _norm(echo["p_nm"])
        if ok and biz is not None:
            for field, actual in (
                ("b_nm", biz.b_nm),
                ("corp_no", biz.corp_no),
                ("b_sector", biz.b_sector),
                ("b_type", biz.b_type),
                ("b_adr", biz.b_adr),
            ):
                if echo[field] and _norm(echo[field]) != _norm(actual):
                    ok = False
        if ok:
            rows.append(
                {
                    "b_no": echo["b_no"],
                    "valid": "01",
                    "valid_msg": "",
                    "request_param": echo,
                    "status": _status_row(echo["b_no"], biz),
                }
            )
        else:
            rows.append(
                {
                    "b_no": echo["b_no"],
                    "valid": "02",
                    "valid_msg": "확인할 수 없습니다.",
                    "request_param": echo,
                }
            )
    valid = sum(1 for r in rows if r["valid"] == "01")
    return Result(rows=rows, paged=False, extra={"request_cnt": len(rows), "valid_cnt": valid})


_STATUS_FIELDS = {
    "b_no": "사업자등록번호 (business registration number)",
    "b_stt": "납세자상태: 계속사업자/휴업자/폐업자 (status)",
    "b_stt_cd": "납세자상태코드 01 계속, 02 휴업, 03 폐업 (status code)",
    "tax_type": "과세유형 메시지; 미등록 번호면 '국세청에 등록되지 않은 사업자등록번호입니다.' (tax type or not-registered message)",
    "tax_type_cd": "과세유형코드 01 일반, 02 간이, 04 면세, 07 간이(세금계산서 발급) (tax type code)",
    "end_dt": "폐업일 YYYYMMDD (closure date)",
    "utcc_yn": "단위과세전환폐업여부 Y/N (closed by unit-taxation switch)",
    "tax_type_change_dt": "최근 과세유형 전환일자 (last tax type change)",
    "invoice_apply_dt": "세금계산서 적용일자 (tax invoice applicable from)",
    "rbf_tax_type": "직전 과세유형 (previous tax type)",
}

OPERATIONS: list[Operation] = [
    Operation(
        platform="nts",
        name="status",
        path="/api/nts-businessman/v1/status",
        method="POST",
        summary="사업자등록 상태조회: 사업자등록번호(하이픈 없는 10자리, 최대 100개)의 계속·휴업·폐업 상태와 과세유형 "
        "(business status and tax type for up to 100 ten-digit registration numbers)",
        params=[
            Param("serviceKey", "인증키 (service key)", hidden=True),
            Param(
                "b_no",
                "사업자등록번호 목록, 하이픈 없이 10자리, 최대 100개 (registration numbers, digits only, max 100)",
                type="array",
                required=True,
                location="body",
            ),
        ],
        handler=status,
        output_fields=_STATUS_FIELDS,
        uncertain="request-error codes; match_cnt excluding unregistered numbers",
    ),
    Operation(
        platform="nts",
        name="validate",
        path="/api/nts-businessman/v1/validate",
        method="POST",
        summary="사업자등록정보 진위확인: 번호·개업일자·대표자명(및 선택 항목)이 등록 정보와 일치하는지 확인, valid 01 일치 "
        "/ 02 확인 불가 (check that number, start date and representative match the registration)",
        params=[
            Param("serviceKey", "인증키 (service key)", hidden=True),
            Param(
                "businesses",
                "확인할 사업자 목록: 각 항목 {b_no, start_dt(YYYYMMDD), p_nm, 선택: p_nm2, b_nm, corp_no, "
                "b_sector, b_type, b_adr}, 최대 100개 (businesses to check, max 100)",
                type="array",
                items_type="object",
                required=True,
                location="body",
            ),
        ],
        handler=validate,
        output_fields={
            "b_no": "사업자등록번호 (number)",
            "valid": "01 일치, 02 확인할 수 없음 (01 match, 02 not confirmed)",
            "valid_msg": "검증 메시지 (message)",
            "request_param": "요청값 (request echo)",
            "status": "상태조회 결과 (status record, when valid)",
        },
        uncertain="response shape of a non-matching row (no 'status' key assumed)",
    ),
]
