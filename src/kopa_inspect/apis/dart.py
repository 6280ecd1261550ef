"""OpenDART 전자공시 (opendart.fss.or.kr/api): 고유번호 검색, 기업개황, 공시검색, 단일회사 주요계정,
배당에 관한 사항 (alotMatter), 대량보유 상황보고 (majorstock).

Real contract (OpenDART 개발가이드): ``GET https://opendart.fss.or.kr/api/<name>.json|.xml?crtfc_key=…``;
the format is the file extension, not a parameter. Answers are flat objects with ``status`` and
``message`` first: ``{"status":"000","message":"정상", …}``; lists come as ``"list":[…]`` (XML:
``<result><status/><message/><list>…</list><list>…</list></result>``), 공시검색 adds ``page_no``,
``page_count``, ``total_count``, ``total_page``. Errors are the same object with only status and
message: 000 정상, 010 등록되지 않은 키입니다., 011 사용할 수 없는 키입니다., 013 조회된 데이타가 없습니다.,
020 요청 제한을 초과하였습니다., 100 필드의 부적절한 값입니다., 101 부적절한 접근입니다., 800 시스템 점검으로 인한
서비스가 중지 중입니다., 900 정의되지 않은 오류가 발생하였습니다. (the guide lists longer explanations
after these sentences; which form the live API sends is UNCERTAIN, the short one is used). The code
for a missing key (010 here) and for a missing mandatory field (100 here) is UNCERTAIN.

고유번호: the real ``/api/corpCode.xml`` is a download, not a document: a ZIP (``Content-Disposition:
attachment; filename=CORPCODE.zip``) holding one file, CORPCODE.xml, ``<result><list><corp_code/>
<corp_name/><corp_eng_name/><stock_code/><modify_date/></list>…</result>`` for every company, with
no search and no paging; OpenDartReader and dart-fss download and unzip it. The emulator serves
exactly that at ``/api/corpCode.xml`` (a key error is the usual ``<result><status/>`` document,
not a ZIP). UNCERTAIN: the live Content-Type (``application/x-msdownload`` here). OpenDartReader
0.2.2 runs against it in the default tests; dart-fss 0.4.17 (``get_corp_code``, ``get_corp_list``,
which needs the Content-Disposition header) was checked by hand, not in the suite: it pulls about
190 MB of dependencies (arelle-release, ...).

EXTENSION (emulator-only): a tool cannot hand a model a ZIP of every company, so ``/api/corpCode.json``
is a *searchable list* (corp_name / stock_code filters, DART-style paging) with the same row fields.
The real API has no corpCode.json; a live backend cannot answer this tool.
"""

from __future__ import annotations

import io
import math
import zipfile
from datetime import date, datetime
from typing import Any

import xmltodict

from kopa_inspect.apis._envelope import (
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
    rows_for_xml,
    to_int,
    xml_scalar,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result, Rows
from kopa_inspect.world import World
from kopa_inspect.world.companies import (
    BY_CORP_CODE,
    COMPANIES,
    dividend_rows,
    filings,
    holding_reports,
    statement_rows,
)

OK = ("000", "정상")
ERRORS: dict[str, tuple[str, str]] = {
    "nodata": ("013", "조회된 데이타가 없습니다."),
    "key_missing": ("010", "등록되지 않은 키입니다."),
    "key_not_registered": ("010", "등록되지 않은 키입니다."),
    "access_denied": ("011", "사용할 수 없는 키입니다."),
    "rate_limited": ("020", "요청 제한을 초과하였습니다."),
    "rate_limited_second": ("020", "요청 제한을 초과하였습니다."),
    "invalid_param": ("100", "필드의 부적절한 값입니다."),
    "missing_param": ("100", "필드의 부적절한 값입니다."),
    "too_many_rows": ("100", "필드의 부적절한 값입니다."),
    "no_service": ("101", "부적절한 접근입니다."),
    "server_error": ("900", "정의되지 않은 오류가 발생하였습니다."),
}

# Operations whose answer is one flat object, and those with 공시검색-style paging counters.
FLAT_OPS = {"company"}
PAGED_OPS = {"list", "corpCode"}


class DartEnvelope(Envelope):
    format_param = "format"  # the path's file extension (…/company.json)
    json_value = "json"
    page_param = "page_no"
    size_param = "page_count"
    default_size = 10
    max_size = 100
    gateway_kinds = frozenset()

    def _doc(self, op: Operation, page: Page) -> dict[str, Any]:
        doc: dict[str, Any] = {"status": OK[0], "message": OK[1]}
        if op.name in FLAT_OPS:
            doc.update(page.rows[0])
            return doc
        if op.name in PAGED_OPS:
            doc.update(
                {
                    "page_no": page.page_no,
                    "page_count": page.num_rows,
                    "total_count": page.total,
                    "total_page": math.ceil(page.total / page.num_rows) if page.num_rows else 0,
                }
            )
        doc["list"] = page.rows
        return doc

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if op.name == "corpCode" and fmt == "xml":
            return corp_code_zip(page.rows)
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        doc = self._doc(op, page)
        if fmt == "json":
            return HttpResponse(200, JSON_CT, dumps_json(doc))
        xml_doc = {k: (xml_scalar(v) if not isinstance(v, list) else v) for k, v in doc.items()}
        if "list" in xml_doc:
            xml_doc["list"] = [{k: xml_scalar(v) for k, v in r.items()} for r in doc["list"]]
        return HttpResponse(200, XML_CT, dumps_xml({"result": xml_doc}))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        code, msg = ERRORS.get(err.kind, ERRORS["server_error"])
        doc = {"status": code, "message": msg}
        if fmt == "json":
            return HttpResponse(200, JSON_CT, dumps_json(doc))
        return HttpResponse(200, XML_CT, dumps_xml({"result": doc}))

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        if resp.body[:4] == ZIP_MAGIC:
            return parse_corp_code_zip(resp.body)
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        if isinstance(doc, dict) and isinstance(doc.get("result"), dict) and "status" not in doc:
            doc = doc["result"]
        if not isinstance(doc, dict):
            return Parsed(ok=False, code=str(resp.status), message=resp.text[:200])
        code = str(doc.get("status", ""))
        message = str(doc.get("message", ""))
        counters = ("status", "message", "page_no", "page_count", "total_count", "total_page", "list")
        if "list" in doc:
            items = [
                {k: ("" if v is None else v) for k, v in r.items()}
                for r in as_list(doc["list"])
                if isinstance(r, dict)
            ]
        else:
            flat = {k: ("" if v is None else v) for k, v in doc.items() if k not in counters}
            items = [flat] if flat else []
        extra = {}
        if "total_page" in doc:
            extra["total_page"] = to_int(doc["total_page"])
        return Parsed(
            ok=code == OK[0],
            code=code,
            message=message,
            items=items,
            total_count=to_int(doc["total_count"])
            if "total_count" in doc
            else (len(items) if code == OK[0] else 0),
            page_no=to_int(doc.get("page_no")),
            num_rows=to_int(doc.get("page_count")),
            extra=extra,
        )


ZIP_MAGIC = b"PK\x03\x04"
CORPCODE_FILE = "CORPCODE.xml"
# UNCERTAIN: the live service's Content-Type for the download.
ZIP_CT = "application/x-msdownload"
# A fixed timestamp inside the ZIP: the same world gives the same bytes.
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def corp_code_zip(rows: Rows) -> HttpResponse:
    """/api/corpCode.xml: CORPCODE.xml (every company) in a ZIP, as a file download."""
    xml = dumps_xml({"result": {"list": rows_for_xml(rows)}}) if rows else dumps_xml({"result": None})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        info = zipfile.ZipInfo(CORPCODE_FILE, date_time=_ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, xml)
    headers = {"Content-Disposition": "attachment; filename=CORPCODE.zip"}
    return HttpResponse(200, ZIP_CT, buf.getvalue(), headers=headers)


def parse_corp_code_zip(body: bytes) -> Parsed:
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as zf:
            text = zf.read(CORPCODE_FILE).decode("utf-8")
    except (zipfile.BadZipFile, KeyError) as exc:
        return Parsed(ok=False, code="900", message=f"corpCode ZIP without {CORPCODE_FILE}: {exc}"[:200])
    root = (xmltodict.parse(text) or {}).get("result") or {}
    items = [
        {k: ("" if v is None else v) for k, v in r.items()}
        for r in as_list(root.get("list"))
        if isinstance(r, dict)
    ]
    return Parsed(ok=True, code=OK[0], message=OK[1], items=items, total_count=len(items))


# --- handlers ---------------------------------------------------------------------------------


def corp_code(world: World, params: dict[str, Any]) -> Rows | Result:
    if params.get("format") == "xml":
        # The real download: every company, unfiltered and unpaged (rendered as the ZIP).
        return Result(rows=_corp_rows("", ""), paged=False)
    name = str(params.get("corp_name") or "").strip().lower().replace(" ", "")
    stock = str(params.get("stock_code") or "").strip()
    return _corp_rows(name, stock)


def _corp_rows(name: str, stock: str) -> Rows:
    """The companies whose names contain ``name`` (lowercase, no spaces) and whose stock code is
    ``stock``; an empty filter keeps every company."""
    rows: Rows = []
    for c in COMPANIES:
        names = (c.short_name, c.corp_name, c.corp_name_eng)
        if name and not any(name in n.lower().replace(" ", "") for n in names):
            continue
        if stock and c.stock_code != stock:
            continue
        rows.append(
            {
                "corp_code": c.corp_code,
                "corp_name": c.short_name,
                "corp_eng_name": c.corp_name_eng,
                "stock_code": c.stock_code,
                "modify_date": c.modify_date,
            }
        )
    return rows


def company(world: World, params: dict[str, Any]) -> Result:
    c = BY_CORP_CODE.get(params["corp_code"])
    if c is None:
        return Result(rows=[], paged=False)
    row = {
        "corp_code": c.corp_code,
        "corp_name": c.corp_name,
        "corp_name_eng": c.corp_name_eng,
        "stock_name": c.short_name,
        "stock_code": c.stock_code,
        "ceo_nm": c.ceo_nm,
        "corp_cls": c.corp_cls,
        # 법인등록번호 / 사업자등록번호: synthetic 13 / 10 digits derived from the corp_code.
        "jurir_no": f"{(int(c.corp_code) * 7919) % 10**13:013d}",
        "bizr_no": f"{(int(c.corp_code) * 104729) % 10**10:010d}",
        "adres": c.adres,
        "hm_url": c.hm_url,
        "ir_url": "",
        "phn_no": c.phn_no,
        "fax_no": "",
        "induty_code": c.induty_code,
        "est_dt": c.est_dt,
        "acc_mt": "12",
    }
    return Result(rows=[row], paged=False)


def fnltt_single_acnt(world: World, params: dict[str, Any]) -> Result:
    c = BY_CORP_CODE.get(params["corp_code"])
    year = int(params["bsns_year"])
    if c is None or year < 2015:  # OpenDART serves statements from 2015 on
        return Result(rows=[], paged=False)
    rows = statement_rows(world, c, year, params["reprt_code"])
    for r in rows:
        r["corp_code"] = c.corp_code
    return Result(rows=rows, paged=False)


def alot_matter(world: World, params: dict[str, Any]) -> Result:
    c = BY_CORP_CODE.get(params["corp_code"])
    year = int(params["bsns_year"])
    if c is None or year < 2015:  # 정기보고서 주요정보 are served from 2015 on
        return Result(rows=[], paged=False)
    return Result(rows=dividend_rows(world, c, year, params["reprt_code"]), paged=False)


def majorstock(world: World, params: dict[str, Any]) -> Result:
    c = BY_CORP_CODE.get(params["corp_code"])
    return Result(rows=holding_reports(world, c) if c is not None else [], paged=False)


def _de(value: str | None, default: date) -> str:
    if not value:
        return default.strftime("%Y%m%d")
    try:
        datetime.strptime(value, "%Y%m%d")
    except ValueError:
        raise ApiError("invalid_param", param="bgn_de") from None
    return value


def disclosure_list(world: World, params: dict[str, Any]) -> Rows:
    end = _de(params.get("end_de"), world.clock.date())
    bgn = _de(params.get("bgn_de"), datetime.strptime(end, "%Y%m%d").date())
    code = params.get("corp_code")
    ty = params.get("pblntf_ty")
    cls = params.get("corp_cls")
    rows = []
    for f in filings(world):
        if not bgn <= f.rcept_dt <= end:
            continue
        if code and f.company.corp_code != code:
            continue
        if ty and f.pblntf_ty != ty:
            continue
        if cls and f.company.corp_cls != cls:
            continue
        rows.append(f.row())
    return rows


# --- spec ----------------------------------------------------------------------------------------

PLATFORM = Platform(
    id="dart",
    name="금융감독원 OpenDART 전자공시 (FSS OpenDART corporate disclosure)",
    domain="finance",
    live_base_url="https://opendart.fss.or.kr",
    envelope=DartEnvelope(),
    key_params=("crtfc_key",),
    description="기업 고유번호, 기업개황, 공시목록, 재무제표 주요계정, 배당, 대량보유 (corp codes, company profiles, filings, "
    "key accounts, dividends, large holdings)",
    uncertain="error code for a missing key / missing field; message wording (short forms)",
)

_FORMAT = Param(
    "format",
    "응답 형식 json|xml (파일 확장자) (response format: the path extension)",
    enum=("json", "xml"),
    location="path",
    hidden=True,
)
_CORP = Param(
    "corp_code", "고유번호 8자리 (8-digit DART corp code, from corpCode)", required=True, pattern=r"\d{8}"
)
# Which periodic report (정기보고서) a question is about: its business year and report code.
_PERIODIC_REPORT = (
    Param(
        "bsns_year",
        "사업연도 YYYY, 2015년 이후 (business year, 2015 or later)",
        required=True,
        pattern=r"\d{4}",
    ),
    Param(
        "reprt_code",
        "보고서 코드: 11013 1분기, 11012 반기, 11014 3분기, 11011 사업보고서 (report code)",
        required=True,
        enum=("11013", "11012", "11014", "11011"),
    ),
)

OPERATIONS = [
    Operation(
        platform="dart",
        name="corpCode",
        path="/api/corpCode.{format}",
        summary=(
            "고유번호 검색: 회사명(일부) 또는 종목코드로 DART 고유번호(corp_code 8자리)를 찾습니다. 다른 DART 도구는 모두 "
            "corp_code가 필요합니다. (Find a company's 8-digit DART corp_code by name or stock code; every other "
            "DART tool needs it.)"
        ),
        params=[
            Param("corp_name", "회사명 또는 그 일부, 예: 삼성전자 (company name or part of it)"),
            Param("stock_code", "종목코드 6자리, 예: 005930 (6-digit stock code)", pattern=r"\d{6}"),
            Param("page_no", "페이지 번호, 기본 1 (page number)", type="integer"),
            Param("page_count", "페이지 별 건수, 기본 10, 최대 100 (rows per page, max 100)", type="integer"),
            _FORMAT,
        ],
        handler=corp_code,
        output_fields={
            "corp_code": "고유번호 8자리 (DART corp code)",
            "corp_name": "정식 회사명 (company name)",
            "corp_eng_name": "영문 회사명 (English name)",
            "stock_code": "종목코드 6자리, 비상장은 공백 (stock code; blank if unlisted)",
            "modify_date": "최종변경일자 (last modified)",
        },
        uncertain="emulator-only: the real corpCode.xml is a ZIP download of every company, without search",
        tags=("finance", "code-lookup"),
    ),
    Operation(
        platform="dart",
        name="company",
        path="/api/company.{format}",
        summary=(
            "기업개황: 고유번호로 회사의 정식명칭, 대표자, 법인구분, 주소, 설립일, 업종코드를 조회합니다. (Company profile by "
            "corp_code: legal name, CEO, market, address, founding date, industry code.)"
        ),
        params=[_CORP, _FORMAT],
        handler=company,
        output_fields={
            "corp_name": "정식명칭 (legal name)",
            "corp_name_eng": "영문명칭 (English name)",
            "stock_name": "종목명 (stock name)",
            "stock_code": "종목코드 (stock code)",
            "ceo_nm": "대표자명 (CEO)",
            "corp_cls": "법인구분 Y 유가증권 K 코스닥 N 코넥스 E 기타 (market)",
            "jurir_no": "법인등록번호 (corporate registration no.)",
            "bizr_no": "사업자등록번호 (business registration no.)",
            "adres": "주소 (address)",
            "hm_url": "홈페이지 (homepage)",
            "phn_no": "전화번호 (phone)",
            "induty_code": "업종코드 (industry code)",
            "est_dt": "설립일 YYYYMMDD (founding date)",
            "acc_mt": "결산월 (fiscal year-end month)",
        },
        uncertain="jurir_no/bizr_no are synthetic",
        tags=("finance",),
    ),
    Operation(
        platform="dart",
        name="list",
        path="/api/list.{format}",
        summary=(
            "공시검색: 기간(bgn_de~end_de), 회사(corp_code), 공시유형으로 공시 목록과 접수번호(rcept_no)를 조회합니다. "
            "(Search disclosures by date range, company and type; returns report names and receipt numbers.)"
        ),
        params=[
            Param("corp_code", "고유번호 8자리 (corp code)", pattern=r"\d{8}"),
            Param("bgn_de", "시작일 YYYYMMDD, 기본 종료일 (start date; default end date)", pattern=r"\d{8}"),
            Param("end_de", "종료일 YYYYMMDD, 기본 오늘 (end date; default today)", pattern=r"\d{8}"),
            Param("last_reprt_at", "최종보고서만 검색 Y|N (final reports only)", enum=("Y", "N")),
            Param(
                "pblntf_ty",
                "공시유형: A 정기공시, B 주요사항보고, C 발행공시, D 지분공시, E 기타공시, I 거래소공시 "
                "(disclosure type)",
                enum=tuple("ABCDEFGHIJ"),
            ),
            Param("corp_cls", "법인구분 Y 유가 K 코스닥 N 코넥스 E 기타 (market)", enum=("Y", "K", "N", "E")),
            Param("page_no", "페이지 번호, 기본 1 (page number)", type="integer"),
            Param("page_count", "페이지 별 건수, 기본 10, 최대 100 (rows per page, max 100)", type="integer"),
            _FORMAT,
        ],
        handler=disclosure_list,
        output_fields={
            "corp_cls": "법인구분 (market)",
            "corp_name": "회사명 (company)",
            "corp_code": "고유번호 (corp code)",
            "stock_code": "종목코드 (stock code)",
            "report_nm": "보고서명, 예: 사업보고서 (2024.12) (report name)",
            "rcept_no": "접수번호 14자리 (receipt number)",
            "flr_nm": "공시 제출인명 (filer)",
            "rcept_dt": "접수일자 YYYYMMDD (filing date)",
            "rm": "비고 (remark: 유 유가증권, 연 연결 ...)",
        },
        uncertain="the real service limits a search without corp_code to 3 months; not enforced here",
        tags=("finance", "pagination"),
    ),
    Operation(
        platform="dart",
        name="fnlttSinglAcnt",
        path="/api/fnlttSinglAcnt.{format}",
        summary=(
            "단일회사 주요계정: 사업연도와 보고서코드(11013 1분기, 11012 반기, 11014 3분기, 11011 사업보고서)로 "
            "재무상태표·손익계산서 주요계정(매출액, 영업이익, 당기순이익, 자산총계 등)을 조회합니다. 금액은 원 단위 "
            "콤마 문자열입니다. (Key financial accounts of one company for a business year and report code; "
            "amounts are comma-formatted KRW strings; CFS = consolidated, OFS = separate.)"
        ),
        params=[
            _CORP,
            *_PERIODIC_REPORT,
            _FORMAT,
        ],
        handler=fnltt_single_acnt,
        output_fields={
            "rcept_no": "접수번호 (receipt number)",
            "bsns_year": "사업연도 (business year)",
            "reprt_code": "보고서 코드 (report code)",
            "fs_div": "CFS 연결 / OFS 별도 (consolidated or separate)",
            "sj_div": "BS 재무상태표 / IS 손익계산서 (statement)",
            "account_nm": "계정명, 예: 매출액, 영업이익, 당기순이익 (account)",
            "thstrm_nm": "당기명 (this term)",
            "thstrm_amount": "당기금액, 원, 콤마 문자열 (this term amount, KRW)",
            "thstrm_add_amount": "당기누적금액 (분기·반기 손익) (year-to-date amount)",
            "frmtrm_amount": "전기금액 (previous term amount)",
            "bfefrmtrm_amount": "전전기금액 (사업보고서만) (term before previous)",
            "ord": "계정과목 정렬순서 (order)",
            "currency": "통화 (currency)",
        },
        uncertain="all amounts are synthetic; the period labels (thstrm_dt) of quarterly income rows",
        tags=("finance",),
    ),
    Operation(
        platform="dart",
        name="alotMatter",
        path="/api/alotMatter.{format}",
        summary=(
            "배당에 관한 사항 (정기보고서 주요정보): 사업연도와 보고서코드로 주당액면가액, 당기순이익, 주당순이익, 현금배당금총액, "
            "현금배당성향, 현금배당수익률, 주당 현금배당금을 당기·전기·전전기로 조회합니다. 값은 콤마 문자열, 없으면 '-'. "
            "(Dividend facts of a periodic report by business year and report code: this term, previous and the one "
            "before; comma-formatted strings, '-' for none.)"
        ),
        params=[
            _CORP,
            *_PERIODIC_REPORT,
            _FORMAT,
        ],
        handler=alot_matter,
        output_fields={
            "rcept_no": "접수번호 (receipt number)",
            "corp_cls": "법인구분 (market)",
            "corp_code": "고유번호 (corp code)",
            "corp_name": "법인명 (company)",
            "se": "구분, 예: 주당 현금배당금(원), (연결)현금배당성향(%) (item)",
            "stock_knd": "주식 종류 보통주/우선주 (share kind; per-share rows only)",
            "thstrm": "당기 (this term)",
            "frmtrm": "전기 (previous term)",
            "lwfr": "전전기 (term before previous)",
            "stlm_dt": "결산기준일 YYYY-MM-DD (settlement date)",
        },
        uncertain="all figures are synthetic; common shares only (no 우선주 rows); whether rows without a share kind "
        "omit stock_knd or send it empty",
        tags=("finance",),
    ),
    Operation(
        platform="dart",
        name="majorstock",
        path="/api/majorstock.{format}",
        summary=(
            "대량보유 상황보고 (지분공시): 회사의 5% 이상 대량보유자 보고(보고자, 보유주식수, 보유비율과 증감, 보고사유)를 "
            "최근 것부터 조회합니다. (Large-holding (5% rule) reports on a company, newest first: reporter, shares "
            "held, ratio and change, reason.)"
        ),
        params=[_CORP, _FORMAT],
        handler=majorstock,
        output_fields={
            "rcept_no": "접수번호 (receipt number)",
            "rcept_dt": "접수일자 YYYY-MM-DD (filing date)",
            "corp_code": "고유번호 (corp code)",
            "corp_name": "회사명 (company)",
            "report_tp": "보고구분 일반/약식 (report type)",
            "repror": "대표보고자 (reporter)",
            "stkqy": "보유주식등의 수 (shares held)",
            "stkqy_irds": "보유주식등의 증감 (change in shares)",
            "stkrt": "보유비율 % (holding ratio)",
            "stkrt_irds": "보유비율 증감 %p (change in ratio)",
            "ctr_stkqy": "주요체결 주식등의 수 (shares under major contracts)",
            "ctr_stkrt": "주요체결 보유비율 (ratio under major contracts)",
            "report_resn": "보고사유 (reason)",
        },
        uncertain="holders and holdings are synthetic and these filings are not in list.json; rcept_dt spelling "
        "(YYYY-MM-DD) and the list's order",
        tags=("finance",),
    ),
]
