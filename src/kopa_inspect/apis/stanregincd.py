"""행정안전부 법정동코드 (StanReginCd, data.go.kr 15077871): 주소명으로 10자리 법정동코드 찾기.

the provider's published API guide The service does not use the data.go.kr ``response`` envelope but
its own: ``{"StanReginCd":[{"head":[{"totalCount":N},{"numOfRows":"10","pageNo":"1","type":"JSON"},
{"RESULT":{"resultCode":"INFO-0","resultMsg":"NOMAL SERVICE"}}]},{"row":[...]}]}`` (the misspelt
"NOMAL" is real), XML twin ``<StanReginCd><head>…</head><row>…</row>…</StanReginCd>``. No rows is
not an error envelope but a bare ``{"RESULT":{"resultCode":"INFO-3","resultMsg":"데이터없음 에러"}}``
(recorded by several clients). The JSON switch is ``type=json``; JSON comes with a text/html
content type (observed). Rows come as a list even when there is one (the JSON is native, not an
XML conversion). Gateway errors (unknown key ...) are the usual data.go.kr XML.

Rows are served from :mod:`kopa_inspect.world.regions` (static real codes).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kopa_inspect.apis._envelope import (
    XML_CT,
    Envelope,
    Format,
    HttpResponse,
    Page,
    Parsed,
    dumps_json,
    dumps_xml,
    load_document,
    parse_gateway_error,
    render_gateway_error,
    split_head_rows,
    to_int,
    xml_scalar,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.world import World
from kopa_inspect.world.regions import Region, all_regions, by_code

OK_CODE = "INFO-0"
OK_MSG = "NOMAL SERVICE"  # sic: the real service misspells NORMAL
# Observed JSON content type of type=json answers (the body is JSON nonetheless).
JSON_AS_HTML_CT = "text/html;charset=UTF-8"

# INFO-3 is attested by several recorded responses. The ERROR-3xx codes follow the codes of the
# same 행정안전부/서울 style portals; UNCERTAIN for this service.
ERRORS: dict[str, tuple[str, str]] = {
    "nodata": ("INFO-3", "데이터없음 에러"),
    "missing_param": ("ERROR-300", "필수 값이 누락되어 있습니다."),
    "invalid_param": ("ERROR-333", "요청위치 값의 타입이 유효하지 않습니다."),
    "too_many_rows": ("ERROR-336", "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."),
    "no_service": ("ERROR-310", "해당하는 서비스를 찾을 수 없습니다."),
    "server_error": ("ERROR-500", "서버 오류입니다."),
}


class StanReginCdEnvelope(Envelope):
    format_param = "type"
    json_value = "json"
    page_param = "pageNo"
    size_param = "numOfRows"
    default_size = 10
    max_size = 1000

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        result = {"resultCode": OK_CODE, "resultMsg": OK_MSG}
        if fmt == "json":
            head = [
                {"totalCount": page.total},
                {"numOfRows": str(page.num_rows), "pageNo": str(page.page_no), "type": "JSON"},
                {"RESULT": result},
            ]
            doc = {"StanReginCd": [{"head": head}, {"row": page.rows}]}
            return HttpResponse(200, JSON_AS_HTML_CT, dumps_json(doc))
        head_x = {
            "totalCount": str(page.total),
            "numOfRows": str(page.num_rows),
            "pageNo": str(page.page_no),
            "type": "XML",
            "RESULT": result,
        }
        rows = [{k: xml_scalar(v) for k, v in r.items()} for r in page.rows]
        return HttpResponse(200, XML_CT, dumps_xml({"StanReginCd": {"head": head_x, "row": rows}}))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        if err.kind in self.gateway_kinds:
            return render_gateway_error(err.kind, fmt)
        code, msg = ERRORS.get(err.kind, ERRORS["server_error"])
        doc = {"RESULT": {"resultCode": code, "resultMsg": err.detail or msg}}
        if fmt == "json":
            return HttpResponse(200, JSON_AS_HTML_CT, dumps_json(doc))
        return HttpResponse(200, XML_CT, dumps_xml(doc))

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        text = resp.text.lstrip("\ufeff").strip()
        gateway = parse_gateway_error(text)
        if gateway is not None:
            return gateway
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        if "RESULT" in doc:  # INFO-3 and errors: a bare RESULT object
            res = doc["RESULT"] or {}
            code = str(res.get("resultCode", ""))
            return Parsed(ok=code == OK_CODE, code=code, message=str(res.get("resultMsg", "")), total_count=0)
        root = doc.get("StanReginCd")
        head, rows = split_head_rows(root)
        result = head.get("RESULT") or {}
        code = str(result.get("resultCode", ""))
        items = [_typed(r) for r in rows]
        return Parsed(
            ok=code == OK_CODE,
            code=code,
            message=str(result.get("resultMsg", "")),
            items=items,
            total_count=to_int(head.get("totalCount")),
            page_no=to_int(head.get("pageNo")),
            num_rows=to_int(head.get("numOfRows")),
        )


def _typed(row: dict[str, Any]) -> dict[str, Any]:
    """XML rows carry every value as text (None for empty); give them the JSON types."""
    out = {k: ("" if v is None else v) for k, v in row.items()}
    if "locat_order" in out and isinstance(out["locat_order"], str) and out["locat_order"].isdigit():
        out["locat_order"] = int(out["locat_order"])
    return out


def _parent(r: Region) -> str:
    if r.level == "sido":
        return "0000000000"
    if r.level == "umd":
        return r.code[:5] + "00000"
    # A 구 of a 시 (41135 under 41130) hangs under its 시 when the 시 exists.
    city = r.code[:4] + "000000"
    if r.code[4] != "0" and by_code(city) is not None:
        return city
    return r.sido_cd + "00000000"


@cache
def _rows() -> tuple[dict[str, Any], ...]:
    children: dict[str, list[str]] = {}
    for r in all_regions():
        children.setdefault(_parent(r), []).append(r.code)
    order = {code: i + 1 for kids in children.values() for i, code in enumerate(kids)}
    out = []
    for r in all_regions():
        out.append(
            {
                "region_cd": r.code,
                "sido_cd": r.sido_cd,
                "sgg_cd": r.sgg_cd,
                "umd_cd": r.umd_cd,
                "ri_cd": r.ri_cd,
                "locatjumin_cd": r.code,
                "locatjijuk_cd": r.code,
                "locatadd_nm": r.name,
                "locat_order": order[r.code],
                "locat_rm": "",
                "locathigh_cd": _parent(r),
                "locallow_nm": r.name.split()[-1],
                "adpt_de": "",
            }
        )
    return tuple(out)


def get_stan_regin_cd_list(world: World, params: dict[str, Any]) -> Rows:
    # The service matches the address text as a substring (SQL LIKE '%…%'), spaces included.
    # flag=Y asks for existing codes only; the emulated table holds only existing codes, so
    # it filters nothing (UNCERTAIN: abolished codes without flag are not emulated).
    text = str(params.get("locatadd_nm") or "").strip()
    return [dict(r) for r in _rows() if not text or text in r["locatadd_nm"]]


PLATFORM = Platform(
    id="stanregincd",
    name="행정안전부 법정동코드 (MOIS legal-dong code lookup)",
    domain="district",
    live_base_url="http://apis.data.go.kr",
    envelope=StanReginCdEnvelope(),
    description="주소명으로 10자리 법정동코드를 조회 (look up 10-digit 법정동 codes by address name)",
)

OPERATIONS = [
    Operation(
        platform="stanregincd",
        name="getStanReginCdList",
        path="/1741000/StanReginCd/getStanReginCdList",
        summary=(
            "주소명(시도·시군구·읍면동)으로 법정동코드 10자리를 조회합니다. region_cd 앞 5자리가 시군구코드"
            "(실거래가 LAWD_CD)입니다. (Look up 10-digit legal-dong codes by address name; the first 5 "
            "digits of region_cd are the 시군구 code used as LAWD_CD.)"
        ),
        params=[
            Param(
                "locatadd_nm", "주소명 일부, 예: '서울특별시 종로구', '분당구' (address name or part of it)"
            ),
            Param("flag", "Y: 현존 법정동만 (existing codes only)"),
            Param("pageNo", "페이지 번호 (page number)", type="integer", default=None),
            Param("numOfRows", "한 페이지 결과 수, 최대 1000 (rows per page, max 1000)", type="integer"),
            Param("type", "응답 형식 xml|json (response format)", hidden=True),
        ],
        handler=get_stan_regin_cd_list,
        output_fields={
            "region_cd": "법정동코드 10자리 (10-digit legal-dong code)",
            "sido_cd": "시도코드 2자리 (province code)",
            "sgg_cd": "시군구코드 3자리 (district code within province)",
            "umd_cd": "읍면동코드 3자리 (town/dong code)",
            "ri_cd": "리코드 2자리 (village code)",
            "locatjumin_cd": "주민등록 지역코드 (resident-registration code)",
            "locatjijuk_cd": "지적 지역코드 (cadastral code)",
            "locatadd_nm": "지역주소명 전체 (full address name)",
            "locat_order": "서열 (order among siblings)",
            "locat_rm": "비고 (remark)",
            "locathigh_cd": "상위지역코드 (parent code)",
            "locallow_nm": "최하위지역명 (lowest-level name)",
            "adpt_de": "생성일 (adoption date)",
        },
        uncertain="no-data/error codes other than INFO-0/INFO-3; flag semantics; locat_order values",
        tags=("region", "code-lookup"),
    )
]
