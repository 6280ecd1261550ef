"""서울 열린데이터광장 (Seoul Open Data Plaza) — path-style OpenAPI, one tool per dataset.

Contract (the provider's published API guide):
``http://openapi.seoul.go.kr:8088/{KEY}/{type}/{SERVICE}/{START_INDEX}/{END_INDEX}/{positional filters...}``

- The key and the format (``xml`` | ``json``) are path segments; START/END are 1-based and
  inclusive, at most 1,000 rows per call (ERROR-336); optional filters are positional, trailing
  ones may be omitted and a middle one may be left empty.
- OK: ``{"<ROOT>":{"list_total_count":N,"RESULT":{"CODE":"INFO-000","MESSAGE":"정상 처리되었습니다."},"row":[...]}}``
  (XML: ``<ROOT><list_total_count/><RESULT>…</RESULT><row>…</row><row>…</row></ROOT>``). ROOT is
  usually the service name (bikeList answers as ``rentBikeStatus``).
- Errors come back as a bare ``RESULT`` object (JSON) or ``<RESULT>`` element (XML), HTTP 200.
  Code set from the portal's 명세: INFO-100 key, INFO-200 no data, ERROR-300 missing value,
  ERROR-301 bad type, ERROR-331..336 positions, ERROR-500 server. The exact message wording
  is from memory of the portal (UNCERTAIN); INFO-000's message is from a recorded response.

Not emulated (UNCERTAIN or needs a core change): the ``sample`` key (ERROR-335, at most 5
rows), ERROR-310 for an unknown SERVICE (the emulator answers 404 for unrouted paths).
"""

from __future__ import annotations

import re
from typing import Any

from kopa_inspect.apis._envelope import (
    JSON_CT,
    XML_CT,
    Envelope,
    Format,
    HttpResponse,
    Page,
    Parsed,
    dumps_json,
    dumps_xml,
    load_document,
    render_document,
    rows_for_xml,
    to_int,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result
from kopa_inspect.world import World
from kopa_inspect.world.seoul_catalog import BY_SERVICE, DATASETS, Dataset, row_matches

MAX_ROWS_PER_CALL = 1000

OK_MESSAGE = "정상 처리되었습니다."
# (code, message). INFO-000 text as in the recorded bikeList response (reference §2.10).
ERRORS: dict[str, tuple[str, str]] = {
    "key_missing": (
        "INFO-100",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 열린 데이터 광장 홈페이지에서 인증키를 신청하십시오.",
    ),
    "key_not_registered": (
        "INFO-100",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 열린 데이터 광장 홈페이지에서 인증키를 신청하십시오.",
    ),
    "access_denied": (
        "INFO-100",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 열린 데이터 광장 홈페이지에서 인증키를 신청하십시오.",
    ),
    "nodata": ("INFO-200", "해당하는 데이터가 없습니다."),
    "missing_param": ("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
    "invalid_param": ("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
    "bad_type": ("ERROR-301", "파일타입 값이 누락 혹은 유효하지 않습니다. 요청인자 중 TYPE을 확인하십시오."),
    "no_service": ("ERROR-310", "해당하는 서비스를 찾을 수 없습니다. 요청인자 중 SERVICE를 확인하십시오."),
    "bad_start": ("ERROR-331", "요청시작위치 값을 확인하십시오. 요청인자를 참고 하십시오."),
    "bad_end": ("ERROR-332", "요청종료위치 값을 확인하십시오. 요청인자를 참고 하십시오."),
    "not_integer": ("ERROR-333", "요청위치 값의 타입이 유효하지 않습니다.요청위치 값은 정수를 입력하세요."),
    "end_before_start": (
        "ERROR-334",
        "요청종료위치 보다 요청시작위치가 더 큽니다. 요청시작조회건수는 정수를 입력하세요.",
    ),
    "too_many_rows": (
        "ERROR-336",
        "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다. 요청종료위치에서 요청시작위치를 뺀 값이 1000을 넘지 않도록 수정하세요.",
    ),
    # The daily-traffic code and text are from memory of the portal (UNCERTAIN).
    "rate_limited": ("ERROR-337", "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다."),
    "rate_limited_second": (
        "ERROR-337",
        "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다.",
    ),
    "server_error": (
        "ERROR-500",
        "서버 오류입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
    ),
}

# ApiError.detail values this module raises so the envelope can pick the precise ERROR-33x code.
_DETAIL_KINDS = {"bad_start", "bad_end", "not_integer", "end_before_start", "bad_type"}


def _error_kind(err: ApiError) -> str:
    if err.detail in _DETAIL_KINDS:
        return err.detail
    if err.kind == "invalid_param":
        if err.param == "type":
            return "bad_type"
        if err.param in ("START_INDEX", "END_INDEX"):
            return "not_integer"
    return err.kind


def _to_position(value: Any, which: str) -> int:
    text = str(value).strip() if value is not None else ""
    if text == "":
        raise ApiError("missing_param", "bad_start" if which == "START_INDEX" else "bad_end", param=which)
    if not re.fullmatch(r"-?\d+", text):
        raise ApiError("invalid_param", "not_integer", param=which)
    return int(text)


class SeoulEnvelope(Envelope):
    """``{ROOT:{list_total_count,RESULT,row}}`` and bare ``RESULT`` errors, JSON or XML."""

    format_param = "type"
    json_value = "json"
    page_param = None
    size_param = None
    max_size = MAX_ROWS_PER_CALL

    def response_format(self, params: dict[str, Any]) -> Format:
        value = str(params.get("type") or "").lower()
        return "json" if value == "json" else "xml"

    def paging(self, params: dict[str, Any]) -> tuple[int, int]:
        start = _to_position(params.get("START_INDEX"), "START_INDEX")
        end = _to_position(params.get("END_INDEX"), "END_INDEX")
        if start < 1:
            raise ApiError("invalid_param", "bad_start", param="START_INDEX")
        if end < 1:
            raise ApiError("invalid_param", "bad_end", param="END_INDEX")
        if end < start:
            raise ApiError("invalid_param", "end_before_start", param="END_INDEX")
        if end - start + 1 > MAX_ROWS_PER_CALL:
            raise ApiError("too_many_rows", param="END_INDEX")
        # The handler slices by START/END itself (Result.paged=False); these are informational.
        return 1, end - start + 1

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        root = BY_SERVICE[op.name].envelope_root
        result = {"CODE": "INFO-000", "MESSAGE": OK_MESSAGE}
        if fmt == "json":
            doc = {root: {"list_total_count": page.total, "RESULT": result, "row": page.rows}}
            return HttpResponse(200, JSON_CT, dumps_json(doc))
        xml = {root: {"list_total_count": str(page.total), "RESULT": result, "row": rows_for_xml(page.rows)}}
        return HttpResponse(200, XML_CT, dumps_xml(xml))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        code, message = ERRORS.get(_error_kind(err), ERRORS["server_error"])
        doc = {"RESULT": {"CODE": code, "MESSAGE": message}}
        return render_document(doc, fmt)

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        if "RESULT" in doc and len(doc) == 1:
            res = doc["RESULT"] or {}
            code = str(res.get("CODE", ""))
            return Parsed(
                ok=code == "INFO-000", code=code, message=str(res.get("MESSAGE", "")), total_count=0
            )
        body = next(iter(doc.values()), None)
        if not isinstance(body, dict):
            return Parsed(ok=False, code=str(resp.status), message=resp.text[:200])
        res = body.get("RESULT") or {}
        code = str(res.get("CODE", ""))
        rows = body.get("row")
        items = [
            r for r in (rows if isinstance(rows, list) else [rows] if rows else []) if isinstance(r, dict)
        ]
        return Parsed(
            ok=code == "INFO-000",
            code=code,
            message=str(res.get("MESSAGE", "")),
            items=items,
            total_count=to_int(body.get("list_total_count")),
        )


def _summary(ds: Dataset) -> str:
    parts = [f"{ds.title} ({ds.gloss})."]
    parts.append(
        "START_INDEX~END_INDEX 구간의 행을 반환 (1부터, 한 번에 최대 1000건; rows START..END, at most 1000 per call)."
    )
    if ds.filters:
        shown = ", ".join(f"{f.name}{'(필수)' if f.required else ''}" for f in ds.filters)
        parts.append(f"END_INDEX 뒤의 위치 인자 (positional filters after END_INDEX, in order): {shown}.")
    return " ".join(parts)


def _make_handler(ds: Dataset):
    key_filter = next((f for f in ds.filters if f.key), None)

    def handler(world: World, args: dict[str, Any]) -> Result:
        catalog = world.part("seoul_catalog")
        filters = {f.name: str(args.get(f.name, "")).strip() for f in ds.filters}
        rows = catalog.rows(ds.service, filters[key_filter.name] if key_filter else None)
        if any(filters.values()):
            rows = [r for r in rows if row_matches(ds, r, filters)]
        start, end = int(args["START_INDEX"]), int(args["END_INDEX"])
        return Result(rows=rows[start - 1 : end], total=len(rows), paged=False)

    return handler


def _operation(ds: Dataset) -> Operation:
    params = [
        Param("KEY", "인증키 (service key)", required=True, location="path", hidden=True),
        Param(
            "type", "응답 형식 xml|json (response format)", location="path", hidden=True, enum=("xml", "json")
        ),
        Param(
            "START_INDEX",
            "요청 시작 위치 (1부터; first row, 1-based)",
            type="integer",
            required=True,
            location="path",
        ),
        Param(
            "END_INDEX",
            "요청 종료 위치 (END-START+1 ≤ 1000; last row, inclusive)",
            type="integer",
            required=True,
            location="path",
        ),
    ]
    for i, f in enumerate(ds.filters, 1):
        how = {
            "contains": "부분 일치; substring",
            "prefix": "앞부분 일치; prefix",
            "during": "기간 포함; within the period",
        }
        desc = f"{f.description} ({i}번째 위치 인자, {how.get(f.match, '일치; exact')} filter on {f.column})"
        params.append(Param(f.name, desc, required=f.required, pattern=f.pattern, location="path"))
    path = (
        "/{KEY}/{type}/"
        + ds.service
        + "/{START_INDEX}/{END_INDEX}"
        + "".join("/{" + f.name + "}" for f in ds.filters)
    )
    return Operation(
        platform="seoul",
        name=ds.service,
        path=path,
        summary=_summary(ds),
        params=params,
        handler=_make_handler(ds),
        output_fields={c.name: c.description for c in ds.columns},
        uncertain=ds.uncertain,
        tags=("seoul", ds.theme.split(":")[0], *(("real",) if ds.real else ("generated",))),
    )


PLATFORM = Platform(
    id="seoul",
    name="서울 열린데이터광장 (Seoul Open Data Plaza)",
    domain="district",
    live_base_url="http://openapi.seoul.go.kr:8088",
    envelope=SeoulEnvelope(),
    auth_style="path",
    key_params=("KEY",),
    description="서울시 공공데이터 OpenAPI: 경로형 호출 /{KEY}/{type}/{SERVICE}/{START}/{END}/... "
    "(path-style Seoul city datasets: transport, environment, culture, licences, facilities).",
)

OPERATIONS: list[Operation] = [_operation(ds) for ds in DATASETS]
