"""열린국회정보 (National Assembly Open API) — one tool per catalog dataset.

Contract: ``GET https://open.assembly.go.kr/portal/openapi/{SERVICE}?KEY=&Type=json&pIndex=1&pSize=100&...``

- ``Type`` xml (default) | json; ``pIndex`` 1-based page, ``pSize`` rows per page (default 100,
  at most 1,000); dataset filters are ordinary query parameters named after their columns.
- OK (JSON): ``{"<SERVICE>":[{"head":[{"list_total_count":N},{"RESULT":{"CODE":"INFO-000",
  "MESSAGE":"정상 처리되었습니다."}}]},{"row":[...]}]}``; XML: ``<SERVICE><head>…</head><row>…</row></SERVICE>``.
- Errors: a bare ``{"RESULT":{"CODE":…,"MESSAGE":…}}`` / ``<RESULT>`` (HTTP 200). INFO-200 no data,
  ERROR-300 missing required value, ERROR-290 bad key, ERROR-336 pSize over 1,000, ERROR-333 a
  non-integer position. Codes follow the portal's 명세 pattern (shared with 서울 열린데이터광장);
  ERROR-290 and the wording are from memory (UNCERTAIN). The real portal answers a request
  *without* a key with sample rows; the emulator answers ERROR-290 (UNCERTAIN simplification).
  A bad key's bare ``{"RESULT":{"CODE":"ERROR-290",…}}`` (HTTP 200) is what public clients
  record from the live portal too (their fixtures hold exactly that shape), so it stays bare.
- ``KEY`` and ``Type`` are read whatever their case: public clients send ``type=json``,
  ``key=`` and ``Key=``.

Not emulated, on purpose: assembly-api-client (PyPI, 1.2.x). Before its first call it downloads
each dataset's Excel specification from ``/portal/data/openapi/downloadOpenApiSpec.do?infId=…&infSeq=N``
(an absolute URL to the portal, not its base URL) and reads the endpoint name and parameters out
of that workbook. The download is keyed by the portal's internal ``infId`` (e.g.
``OOWY4R001216HX11536``), which no offline source ties to the endpoint codes this catalog uses,
so a faithful spec cannot be served for a given infId. The same client reads errors only from
``<SERVICE>[0].head[].RESULT``, so a bare RESULT (the real bad-key answer above) comes back to its
callers as an empty list, against the live portal as against this emulator; answering a bad key
in the head form instead would make the emulator differ from the portal to suit one client.
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.apis._envelope import (
    Envelope,
    Format,
    HttpResponse,
    Page,
    Parsed,
    load_document,
    render_document,
    render_head_rows,
    split_head_rows,
    to_int,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result
from kopa_inspect.world import World
from kopa_inspect.world.assembly_catalog import AGES, DATASETS, Dataset, dataset_rows, row_matches

OK = ("INFO-000", "정상 처리되었습니다.")
_KEY_ERROR = (
    "ERROR-290",
    "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
)
ERRORS: dict[str, tuple[str, str]] = {
    "key_missing": _KEY_ERROR,
    "key_not_registered": _KEY_ERROR,
    "access_denied": _KEY_ERROR,
    "nodata": ("INFO-200", "해당하는 데이터가 없습니다."),
    "missing_param": ("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
    "invalid_param": ("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
    "not_integer": ("ERROR-333", "요청위치 값의 타입이 유효하지 않습니다.요청위치 값은 정수를 입력하세요."),
    "too_many_rows": ("ERROR-336", "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."),
    "no_service": ("ERROR-310", "해당하는 서비스를 찾을 수 없습니다. 요청인자 중 SERVICE를 확인하십시오."),
    "rate_limited": ("INFO-300", "유효 호출건수를 이미 초과하셨습니다."),
    "rate_limited_second": ("INFO-300", "유효 호출건수를 이미 초과하셨습니다."),
    "server_error": ("ERROR-500", "서버 오류입니다. 지속적으로 발생시 홈페이지로 문의(Q&A) 바랍니다."),
}


class AssemblyEnvelope(Envelope):
    format_param = "Type"
    # Public clients send ``type=json``, ``key=`` and ``Key=`` and get JSON; see the module docstring.
    case_insensitive_params = ("KEY", "Type")
    json_value = "json"
    page_param = "pIndex"
    size_param = "pSize"
    default_size = 100
    max_size = 1000

    def paging(self, params: dict[str, Any]) -> tuple[int, int]:
        try:
            return super().paging(params)
        except ApiError as err:
            if err.kind == "invalid_param":
                raise ApiError("invalid_param", "not_integer", param=err.param) from None
            raise

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        return render_head_rows(op.name, page.total, {"CODE": OK[0], "MESSAGE": OK[1]}, page.rows, fmt)

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        paging_value = err.kind == "invalid_param" and err.param in ("pIndex", "pSize")
        kind = "not_integer" if err.detail == "not_integer" or paging_value else err.kind
        code, message = ERRORS.get(kind, ERRORS["server_error"])
        doc = {"RESULT": {"CODE": code, "MESSAGE": message}}
        return render_document(doc, fmt)

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        if set(doc) == {"RESULT"}:
            res = doc["RESULT"] or {}
            code = str(res.get("CODE", ""))
            return Parsed(ok=code == OK[0], code=code, message=str(res.get("MESSAGE", "")), total_count=0)
        body = next(iter(doc.values()))
        head, rows = split_head_rows(body)
        res = head.get("RESULT") or {}
        code = str(res.get("CODE", ""))
        return Parsed(
            ok=code == OK[0],
            code=code,
            message=str(res.get("MESSAGE", "")),
            items=rows,
            total_count=to_int(head.get("list_total_count")),
            page_no=None,
        )


def _summary(ds: Dataset) -> str:
    parts = [f"{ds.title} ({ds.gloss})."]
    if ds.filters:
        shown = ", ".join(f"{f.name}{'(필수)' if f.required else ''}" for f in ds.filters)
        parts.append(f"검색 조건 (filters): {shown}.")
    parts.append("pIndex/pSize로 페이지 조회 (paged by pIndex/pSize, pSize ≤ 1000).")
    return " ".join(parts)


def _make_handler(ds: Dataset):
    def handler(world: World, args: dict[str, Any]) -> Result:
        aw = world.part("assembly_catalog")
        text_args = {k: str(v).strip() for k, v in args.items() if v not in (None, "")}
        if ds.source == "votes" and int(text_args["AGE"]) not in AGES:
            return Result(rows=[])  # 대수 the portal does not hold: no data, as for any other filter
        rows = dataset_rows(aw, ds, text_args)
        if any(f.name in text_args for f in ds.filters):
            rows = [r for r in rows if row_matches(ds, r, text_args)]
        return Result(rows=rows)

    return handler


def _operation(ds: Dataset) -> Operation:
    params = [
        Param("KEY", "인증키 (service key)", required=True, hidden=True),
        Param("Type", "응답 형식 xml|json (response format)", hidden=True),
        Param("pIndex", "페이지 위치 (1부터; page number)", type="integer", default=None),
        Param("pSize", "페이지 당 요청 숫자 (기본 100, 최대 1000; rows per page)", type="integer"),
    ]
    for f in ds.filters:
        how = "부분 일치; substring" if f.match == "contains" else "일치; exact"
        params.append(
            Param(
                f.name, f"{f.description} ({how} filter on {f.name})", required=f.required, pattern=f.pattern
            )
        )
    return Operation(
        platform="assembly",
        name=ds.service,
        path=f"/portal/openapi/{ds.service}",
        summary=_summary(ds),
        params=params,
        handler=_make_handler(ds),
        output_fields={c.name: c.description for c in ds.columns},
        tool_name=f"assembly_{ds.service}",
        uncertain=ds.uncertain,
        tags=("assembly", ds.theme, "real" if ds.real else "generated"),
    )


PLATFORM = Platform(
    id="assembly",
    name="열린국회정보 (National Assembly Open API)",
    domain="politics",
    live_base_url="https://open.assembly.go.kr",
    envelope=AssemblyEnvelope(),
    auth_style="query",
    key_params=("KEY",),
    description="국회의원, 의안, 표결, 위원회, 회의록, 청원 데이터 (members, bills, votes, committees, minutes, petitions).",
)

OPERATIONS: list[Operation] = [_operation(ds) for ds in DATASETS]
