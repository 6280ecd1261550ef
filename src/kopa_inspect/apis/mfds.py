"""식약처 의약품개요정보 e약은요 — DrbEasyDrugInfoService (the provider's published API guide).

Its JSON is not the usual data.go.kr shape: no ``response`` root and ``body.items`` a bare list
(recorded in several clients): ``{"header":{"resultCode":"00","resultMsg":"NORMAL SERVICE."},
"body":{"pageNo":1,"totalCount":69,"numOfRows":3,"items":[{...}]}}``. Values are HTML fragments
(``<p>...</p>``), absent texts are JSON ``null``. XML (the default) keeps the standard
``<response><header/><body>`` tree. Switch: ``type=json``.

UNCERTAIN: no rows -> ``totalCount: 0`` with the ``items`` key omitted (one client's mock);
parameter errors are assumed to use the same root-less header in JSON; result order (itemSeq).
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.apis._envelope import (
    DATAGOKR_ERRORS,
    JSON_CT,
    XML_CT,
    Envelope,
    Format,
    HttpResponse,
    Page,
    Parsed,
    as_list,
    dumps_json,
    dumps_xml,
    load_document,
    parse_gateway_error,
    render_gateway_error,
    rows_for_xml,
    to_int,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.world import World
from kopa_inspect.world import drugs as dw

OK_CODE, OK_MSG = "00", "NORMAL SERVICE."


class MfdsEnvelope(Envelope):
    format_param = "type"
    json_value = "json"

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        header = {"resultCode": OK_CODE, "resultMsg": OK_MSG}
        if fmt == "xml":
            body: dict[str, Any] = {
                "pageNo": str(page.page_no),
                "totalCount": str(page.total),
                "numOfRows": str(page.num_rows),
            }
            body["items"] = {"item": rows_for_xml(page.rows)} if page.rows else None
            return HttpResponse(200, XML_CT, dumps_xml({"response": {"header": header, "body": body}}))
        jbody: dict[str, Any] = {"pageNo": page.page_no, "totalCount": page.total, "numOfRows": page.num_rows}
        if page.rows:
            jbody["items"] = page.rows
        return HttpResponse(200, JSON_CT, dumps_json({"header": header, "body": jbody}))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        if err.kind in self.gateway_kinds:
            return render_gateway_error(err.kind, fmt)
        code, msg = DATAGOKR_ERRORS.get(err.kind, DATAGOKR_ERRORS["server_error"])
        header = {"resultCode": code, "resultMsg": err.detail or msg}
        if fmt == "xml":
            return HttpResponse(200, XML_CT, dumps_xml({"response": {"header": header}}))
        return HttpResponse(200, JSON_CT, dumps_json({"header": header}))

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        text = resp.text.lstrip("\ufeff").strip()
        gateway = parse_gateway_error(text)
        if gateway is not None:
            return gateway
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        root = doc.get("response", doc) if isinstance(doc, dict) else {}
        header = root.get("header") or {}
        body = root.get("body") or {}
        raw = body.get("items") if isinstance(body, dict) else None
        if isinstance(raw, dict):
            raw = raw.get("item")
        code = str(header.get("resultCode", ""))
        return Parsed(
            ok=code == OK_CODE,
            code=code,
            message=str(header.get("resultMsg", "")),
            items=[i for i in as_list(raw) if isinstance(i, dict)],
            total_count=to_int(body.get("totalCount")) if isinstance(body, dict) else None,
            page_no=to_int(body.get("pageNo")) if isinstance(body, dict) else None,
            num_rows=to_int(body.get("numOfRows")) if isinstance(body, dict) else None,
        )


ENVELOPE = MfdsEnvelope()

PLATFORM = Platform(
    id="mfds",
    name="식품의약품안전처 의약품개요정보 e약은요 (MFDS easy drug information)",
    domain="health",
    live_base_url="https://apis.data.go.kr",
    envelope=ENVELOPE,
    description="일반의약품의 효능·사용법·주의사항·부작용·보관법 (OTC drug efficacy, dosage, warnings, side effects)",
)

_TEXT_FILTERS = {
    "efcyQesitm": "efcy",
    "useMethodQesitm": "useMethod",
    "atpnWarnQesitm": "atpnWarn",
    "atpnQesitm": "atpn",
    "intrcQesitm": "intrc",
    "seQesitm": "se",
    "depositMethodQesitm": "deposit",
}


def _squash(text: Any) -> str:
    return "".join(str(text or "").split())


def _row(d: dw.Drug) -> dict[str, Any]:
    return {
        "entpName": d.entpName,
        "itemName": d.itemName,
        "itemSeq": d.itemSeq,
        "efcyQesitm": d.efcy,
        "useMethodQesitm": d.useMethod,
        "atpnWarnQesitm": d.atpnWarn,
        "atpnQesitm": d.atpn,
        "intrcQesitm": d.intrc,
        "seQesitm": d.se,
        "depositMethodQesitm": d.deposit,
        "openDe": d.openDe,
        "updateDe": d.updateDe,
        "itemImage": d.itemImage,
        "bizrno": d.bizrno,
    }


def get_drb_easy_drug_list(world: World, p: dict[str, Any]) -> Rows:
    data: dw.DrugData = world.part("drugs")
    out = []
    for d in data.drugs:
        if p.get("itemSeq") and d.itemSeq != p["itemSeq"]:
            continue
        if p.get("itemName") and _squash(p["itemName"]) not in _squash(d.itemName):
            continue
        if p.get("entpName") and _squash(p["entpName"]) not in _squash(d.entpName):
            continue
        if any(
            p.get(k) and _squash(p[k]) not in _squash(getattr(d, attr)) for k, attr in _TEXT_FILTERS.items()
        ):
            continue
        if p.get("openDe") and not d.openDe.replace("-", "").startswith(p["openDe"]):
            continue
        if p.get("updateDe") and not d.updateDe.startswith(p["updateDe"]):
            continue
        out.append(_row(d))
    return out


OPERATIONS: list[Operation] = [
    Operation(
        platform="mfds",
        name="getDrbEasyDrugList",
        path="/1471000/DrbEasyDrugInfoService/getDrbEasyDrugList",
        summary="e약은요 의약품 개요정보: 제품명(일부)·업체명·품목기준코드로 일반의약품의 효능, 사용법, 주의사항, 상호작용, "
        "부작용, 보관법 조회 (OTC drug information by product name, maker or item code)",
        params=[
            Param("serviceKey", "인증키 (service key)", hidden=True),
            Param("type", "응답 형식 json (response format; XML if absent)", hidden=True),
            Param("pageNo", "페이지 번호 (page number, from 1)", type="integer"),
            Param("numOfRows", "한 페이지 결과 수 (rows per page)", type="integer"),
            Param("itemName", "제품명, 일부만 써도 됨 (product name, partial match)"),
            Param("entpName", "업체명, 일부만 써도 됨 (manufacturer, partial match)"),
            Param("itemSeq", "품목기준코드 9자리 (item code)", pattern=r"\d{9}"),
            Param("efcyQesitm", "효능 문구 검색어 (text in efficacy)"),
            Param("useMethodQesitm", "사용법 문구 검색어 (text in dosage)"),
            Param("atpnWarnQesitm", "경고 문구 검색어 (text in warnings)"),
            Param("atpnQesitm", "주의사항 문구 검색어 (text in precautions)"),
            Param("intrcQesitm", "상호작용 문구 검색어 (text in interactions)"),
            Param("seQesitm", "부작용 문구 검색어 (text in side effects)"),
            Param("depositMethodQesitm", "보관법 문구 검색어 (text in storage)"),
            Param("openDe", "공개일자 YYYYMMDD (published on)", pattern=r"\d{4,8}"),
            Param("updateDe", "수정일자 YYYYMMDD (updated on)", pattern=r"\d{4,8}"),
        ],
        handler=get_drb_easy_drug_list,
        output_fields={
            "itemName": "제품명 (product name)",
            "entpName": "업체명 (manufacturer)",
            "itemSeq": "품목기준코드 (item code; itemSeq로 다시 조회)",
            "efcyQesitm": "효능 (what it is for)",
            "useMethodQesitm": "사용법 (how to take)",
            "atpnWarnQesitm": "사용 전 경고 (warnings)",
            "atpnQesitm": "주의사항 (precautions)",
            "intrcQesitm": "상호작용 (interactions)",
            "seQesitm": "부작용 (side effects)",
            "depositMethodQesitm": "보관법 (storage)",
            "openDe": "공개일자 (published)",
            "updateDe": "수정일자 YYYYMMDD (updated)",
            "itemImage": "낱알 이미지 URL 또는 null (pill image)",
            "bizrno": "업체 사업자등록번호 (maker's business number; 국세청 상태조회 b_no)",
        },
        uncertain="empty-result shape; bizrno presence",
    ),
]
