"""NEIS 교육정보 개방 포털 (open.neis.go.kr/hub): 학교기본정보, 급식식단정보, 학사일정, 학급정보.

Real contract (open.neis.go.kr 개발가이드, as wrapped by several public clients):
``GET https://open.neis.go.kr/hub/<service>?KEY=…&Type=json|xml&pIndex=1&pSize=100&<filters>``.
``Type`` defaults to XML and, like ``KEY``, is read whatever its case (neispy sends ``type=json``); ``pIndex`` defaults to 1 and ``pSize`` to 100 (at most 1,000 a call).
JSON: ``{"<service>":[{"head":[{"list_total_count":N},{"RESULT":{"CODE":"INFO-000","MESSAGE":
"정상 처리되었습니다."}}]},{"row":[…]}]}``; XML ``<service><head><list_total_count/><RESULT>…</RESULT>
</head><row>…</row>…</service>``. No rows (also: a page past the end) is not a head with zero but
a bare ``{"RESULT":{"CODE":"INFO-200","MESSAGE":"해당하는 데이터가 없습니다."}}``; every error uses the
same bare RESULT. Codes and messages: INFO-000, INFO-200, INFO-300 (key restricted), ERROR-290
(invalid key), ERROR-300 (mandatory value missing), ERROR-310 (no such service), ERROR-333 (page
position not an integer), ERROR-336 (over 1,000 rows), ERROR-337 (daily traffic), ERROR-500/600/601.

The platform is the paper's education-key trap: tools take a session token in ``KEY`` that the
model must first get from the ``neis_get_api_key`` tool; the tool layer swaps it for the real key.

UNCERTAIN: the real portal answers a request without any KEY with sample data (at most 5 rows);
the emulator answers ERROR-290 instead, which is what a wrong or expired key gets. Filter values
that do not exist (or are malformed, like MLSV_YMD=2024-10-15) give INFO-200, as the portal filters
with SQL and finds nothing. Whether SCHUL_NM matches a part of the name (LIKE) is UNCERTAIN; the
emulator matches a substring, so "대치" finds 서울대치초등학교 and 대치중학교.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
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
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.world import World
from kopa_inspect.world.schools import (
    BY_CODE,
    FIRST_CLASS_YEAR,
    SCHOOLS,
    School,
    academic_year,
    class_rows,
    meal_rows,
    meal_window,
    school_year,
)

OK = ("INFO-000", "정상 처리되었습니다.")
ERRORS: dict[str, tuple[str, str]] = {
    "nodata": ("INFO-200", "해당하는 데이터가 없습니다."),
    "access_denied": ("INFO-300", "관리자에 의해 인증키 사용이 제한되었습니다."),
    "key_missing": (
        "ERROR-290",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
    ),
    "key_not_registered": (
        "ERROR-290",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
    ),
    "missing_param": ("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
    "no_service": ("ERROR-310", "해당하는 서비스를 찾을 수 없습니다. 요청인자 중 SERVICE를 확인하십시오."),
    "invalid_page": ("ERROR-333", "요청위치 값의 타입이 유효하지 않습니다.요청위치 값은 정수를 입력하세요."),
    "too_many_rows": ("ERROR-336", "데이터요청은 한번에 최대 1,000건을 넘을 수 없습니다."),
    "rate_limited": ("ERROR-337", "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다."),
    "rate_limited_second": (
        "ERROR-337",
        "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다.",
    ),
    "server_error": ("ERROR-500", "서버 오류입니다. 지속적으로 발생시 홈페이지로 문의(Q&A) 바랍니다."),
}
OK_CODES = {OK[0]}


class NeisEnvelope(Envelope):
    format_param = "Type"
    # The portal reads ``type=json`` (what neispy sends) and ``key=`` as well as ``Type``/``KEY``.
    # UNCERTAIN whether pIndex/pSize/filter names are also case-insensitive; they are exact here.
    case_insensitive_params = ("KEY", "Type")
    json_value = "json"
    page_param = "pIndex"
    size_param = "pSize"
    default_size = 100
    max_size = 1000
    gateway_kinds = frozenset()  # NEIS answers auth errors itself, in its own RESULT

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        return render_head_rows(op.name, page.total, {"CODE": OK[0], "MESSAGE": OK[1]}, page.rows, fmt)

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        kind: str = err.kind
        if kind == "invalid_param":
            # A malformed page position is ERROR-333; any other odd filter just finds nothing.
            kind = "invalid_page" if err.param in (self.page_param, self.size_param) else "nodata"
        code, msg = ERRORS.get(kind, ERRORS["server_error"])
        doc = {"RESULT": {"CODE": code, "MESSAGE": msg}}
        return render_document(doc, fmt)

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        if "RESULT" in doc:
            res = doc["RESULT"] or {}
            code = str(res.get("CODE", ""))
            return Parsed(
                ok=code in OK_CODES,
                code=code,
                message=str(res.get("MESSAGE", "")),
                total_count=0 if code == "INFO-200" else None,
            )
        root = doc.get(op.name)
        if root is None and len(doc) == 1:
            root = next(iter(doc.values()))
        head, rows = split_head_rows(root)
        result = head.get("RESULT") or {}
        code = str(result.get("CODE", ""))
        return Parsed(
            ok=code in OK_CODES,
            code=code,
            message=str(result.get("MESSAGE", "")),
            items=rows,
            total_count=to_int(head.get("list_total_count")),
        )


# --- handlers ---------------------------------------------------------------------------------


def _load_dtm(world: World) -> str:
    return world.today


def _school(params: dict[str, Any]) -> School:
    school = BY_CODE.get(str(params["SD_SCHUL_CODE"]))
    if school is None or school.atpt_code != params["ATPT_OFCDC_SC_CODE"]:
        raise ApiError("nodata")
    return school


def _ymd(text: str) -> date:
    try:
        return datetime.strptime(text, "%Y%m%d").date()
    except ValueError:
        raise ApiError("nodata") from None


def _date_range(
    params: dict[str, Any], exact: str, start: str, end: str, default: tuple[date, date]
) -> tuple[date, date]:
    """Exact date (or a YYYYMM / YYYY prefix), a from/to range, or the default window."""
    value = params.get(exact)
    if value:
        if len(value) == 8:
            d = _ymd(value)
            return d, d
        if len(value) == 6:
            first = _ymd(value + "01")
            nxt = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
            return first, nxt - timedelta(days=1)
        return date(int(value), 1, 1), date(int(value), 12, 31)
    lo = _ymd(params[start]) if params.get(start) else None
    hi = _ymd(params[end]) if params.get(end) else None
    if lo is None and hi is None:
        return default
    return lo or date(2000, 1, 1), hi or default[1]


def school_info(world: World, params: dict[str, Any]) -> Rows:
    rows = []
    for s in SCHOOLS:
        if params.get("ATPT_OFCDC_SC_CODE") and s.atpt_code != params["ATPT_OFCDC_SC_CODE"]:
            continue
        if params.get("SD_SCHUL_CODE") and s.code != params["SD_SCHUL_CODE"]:
            continue
        if params.get("SCHUL_NM") and params["SCHUL_NM"] not in s.name:
            continue
        if params.get("SCHUL_KND_SC_NM") and s.kind != params["SCHUL_KND_SC_NM"]:
            continue
        if params.get("LCTN_SC_NM") and s.sido != params["LCTN_SC_NM"]:
            continue
        if params.get("FOND_SC_NM") and s.fond != params["FOND_SC_NM"]:
            continue
        rows.append(s.info_row(_load_dtm(world)))
    return rows


def meal_service_diet_info(world: World, params: dict[str, Any]) -> Rows:
    school = _school(params)
    first, last = meal_window(world)
    today = world.clock.date()
    this_year = date(academic_year(today), 3, 1)
    lo, hi = _date_range(params, "MLSV_YMD", "MLSV_FROM_YMD", "MLSV_TO_YMD", (this_year, last))
    lo, hi = max(lo, first), min(hi, last)
    rows: Rows = []
    d = lo
    while d <= hi:
        rows.extend(meal_rows(world, school, d, _load_dtm(world)))
        d += timedelta(days=1)
    if params.get("MMEAL_SC_CODE"):
        rows = [r for r in rows if r["MMEAL_SC_CODE"] == params["MMEAL_SC_CODE"]]
    return rows


def school_schedule(world: World, params: dict[str, Any]) -> Rows:
    school = _school(params)
    today = world.clock.date()
    ay_now = academic_year(today)
    default = (date(ay_now, 3, 1), date(ay_now + 1, 2, 28 if (ay_now + 1) % 4 else 29))
    lo, hi = _date_range(params, "AA_YMD", "AA_FROM_YMD", "AA_TO_YMD", default)
    if params.get("SCHUL_CRSE_SC_NM") and params["SCHUL_CRSE_SC_NM"] != school.kind:
        return []
    if params.get("DGHT_CRSE_SC_NM") and params["DGHT_CRSE_SC_NM"] != "주간":
        return []
    # Calendars exist from 2020 up to the clock's school year (next year's is not yet planned).
    ays = range(max(2019, academic_year(lo)), min(ay_now, academic_year(hi)) + 1)
    lo_s, hi_s = lo.strftime("%Y%m%d"), hi.strftime("%Y%m%d")
    elementary = school.kind == "초등학교"
    rows: Rows = []
    for ay in ays:
        for ymd, (name, kind) in school_year(world, school, ay).events.items():
            if not lo_s <= ymd <= hi_s:
                continue
            rows.append(
                {
                    "ATPT_OFCDC_SC_CODE": school.atpt_code,
                    "ATPT_OFCDC_SC_NM": school.atpt_name,
                    "SD_SCHUL_CODE": school.code,
                    "SCHUL_NM": school.name,
                    "AY": str(ay),
                    "DGHT_CRSE_SC_NM": "주간",
                    "SCHUL_CRSE_SC_NM": school.kind,
                    "SBTR_DD_SC_NM": kind,
                    "AA_YMD": ymd,
                    "EVENT_NM": name,
                    "EVENT_CNTNT": None,
                    "ONE_GRADE_EVENT_YN": "Y",
                    "TW_GRADE_EVENT_YN": "Y",
                    "THREE_GRADE_EVENT_YN": "Y",
                    "FR_GRADE_EVENT_YN": "Y" if elementary else "N",
                    "FIV_GRADE_EVENT_YN": "Y" if elementary else "N",
                    "SIX_GRADE_EVENT_YN": "Y" if elementary else "N",
                    "LOAD_DTM": _load_dtm(world),
                }
            )
    return rows


def class_info(world: World, params: dict[str, Any]) -> Rows:
    school = _school(params)
    current = academic_year(world.clock.date())
    years = range(FIRST_CLASS_YEAR, current + 1)
    if params.get("AY"):
        years = range(int(params["AY"]), int(params["AY"]) + 1) if int(params["AY"]) in years else range(0)
    rows: Rows = []
    for ay in years:
        rows.extend(class_rows(world, school, ay, _load_dtm(world)))
    for name in ("GRADE", "DGHT_CRSE_SC_NM", "SCHUL_CRSE_SC_NM", "ORD_SC_NM", "DDDEP_NM"):
        if params.get(name):
            rows = [r for r in rows if r[name] == params[name]]
    return rows


# --- spec ----------------------------------------------------------------------------------------

ENVELOPE = NeisEnvelope()

PLATFORM = Platform(
    id="neis",
    name="NEIS 교육정보 개방 포털 (NEIS education open data portal)",
    domain="education",
    live_base_url="https://open.neis.go.kr",
    envelope=ENVELOPE,
    key_params=("KEY",),
    session_token_param="KEY",
    description="학교 기본정보, 급식 식단, 학사일정, 학급정보 (school info, school meals, school calendars, classes)",
    uncertain="KEY-less sample mode (5 rows) not emulated; SCHUL_NM substring matching",
)

_COMMON = [
    Param("pIndex", "페이지 위치, 기본 1 (page index, default 1)", type="integer"),
    Param(
        "pSize",
        "페이지 당 신청 숫자, 기본 100, 최대 1000 (rows per page, default 100, max 1000)",
        type="integer",
    ),
    Param("Type", "호출 문서 xml|json (response format)", hidden=True),
]
_ATPT = "시도교육청코드, 예: B10 서울, C10 부산, J10 경기, T10 제주 (province education office code)"
_SCHUL = "행정표준코드 7자리 (SD_SCHUL_CODE, from schoolInfo)"

_SCHOOL_FIELDS = {
    "ATPT_OFCDC_SC_CODE": "시도교육청코드 (education office code)",
    "ATPT_OFCDC_SC_NM": "시도교육청명 (education office name)",
    "SD_SCHUL_CODE": "행정표준코드 (school code)",
    "SCHUL_NM": "학교명 (school name)",
}

OPERATIONS = [
    Operation(
        platform="neis",
        name="schoolInfo",
        path="/hub/schoolInfo",
        summary=(
            "학교기본정보: 학교명·시도교육청·학교종류로 학교를 찾아 행정표준코드(SD_SCHUL_CODE), 주소, 전화번호 등을 "
            "조회합니다. (School basic info: find schools by name, education office or kind and get their "
            "SD_SCHUL_CODE, address and phone.)"
        ),
        params=[
            Param("ATPT_OFCDC_SC_CODE", _ATPT),
            Param("SD_SCHUL_CODE", _SCHUL),
            Param("SCHUL_NM", "학교명 (일부 가능), 예: 대치 (school name or part of it)"),
            Param("SCHUL_KND_SC_NM", "학교종류명: 초등학교|중학교|고등학교 (school kind)"),
            Param("LCTN_SC_NM", "소재지명, 예: 서울특별시 (province name)"),
            Param("FOND_SC_NM", "설립명: 공립|사립 (public/private)"),
            *_COMMON,
        ],
        handler=school_info,
        output_fields={
            **_SCHOOL_FIELDS,
            "ENG_SCHUL_NM": "영문학교명 (English name)",
            "SCHUL_KND_SC_NM": "학교종류명 (school kind)",
            "LCTN_SC_NM": "소재지명 (province)",
            "JU_ORG_NM": "관할조직명 (supervising office)",
            "FOND_SC_NM": "설립명 (public/private)",
            "ORG_RDNZC": "도로명우편번호 (postcode)",
            "ORG_RDNMA": "도로명주소 (road address)",
            "ORG_RDNDA": "도로명상세주소 (address detail)",
            "ORG_TELNO": "전화번호 (phone)",
            "HMPG_ADRES": "홈페이지주소 (homepage)",
            "COEDU_SC_NM": "남녀공학구분명 (coeducation)",
            "ORG_FAXNO": "팩스번호 (fax)",
            "HS_SC_NM": "고등학교구분명 (high-school type)",
            "FOND_YMD": "설립일자 (founding date)",
            "FOAS_MEMRD": "개교기념일 (foundation anniversary)",
            "LOAD_DTM": "적재일시 (load date)",
        },
        tags=("education", "code-lookup"),
    ),
    Operation(
        platform="neis",
        name="mealServiceDietInfo",
        path="/hub/mealServiceDietInfo",
        summary=(
            "급식식단정보: 학교(시도교육청코드+행정표준코드)의 날짜별 급식 메뉴, 칼로리, 영양정보를 조회합니다. 급식이 "
            "없는 날(주말·공휴일·방학)은 INFO-200. (School meal menus by date for one school: dishes, calories, "
            "nutrition; no meal on weekends, holidays and vacations gives INFO-200.)"
        ),
        params=[
            Param("ATPT_OFCDC_SC_CODE", _ATPT, required=True),
            Param("SD_SCHUL_CODE", _SCHUL, required=True),
            Param("MMEAL_SC_CODE", "식사코드: 1 조식, 2 중식, 3 석식 (meal code)"),
            Param(
                "MLSV_YMD",
                "급식일자 YYYYMMDD (YYYYMM: 한 달) (meal date; YYYYMM for a month)",
                pattern=r"\d{4}|\d{6}|\d{8}",
            ),
            Param("MLSV_FROM_YMD", "급식시작일자 YYYYMMDD (from date)", pattern=r"\d{8}"),
            Param("MLSV_TO_YMD", "급식종료일자 YYYYMMDD (to date)", pattern=r"\d{8}"),
            *_COMMON,
        ],
        handler=meal_service_diet_info,
        output_fields={
            **_SCHOOL_FIELDS,
            "MMEAL_SC_CODE": "식사코드 1 조식 2 중식 3 석식 (meal code)",
            "MMEAL_SC_NM": "식사명 (meal name)",
            "MLSV_YMD": "급식일자 YYYYMMDD (meal date)",
            "MLSV_FGR": "급식인원수 (number served)",
            "DDISH_NM": "요리명, <br/>로 구분, 괄호 안은 알레르기 번호 (dishes, <br/>-separated, allergy codes)",
            "ORPLC_INFO": "원산지정보 (origin of ingredients)",
            "CAL_INFO": "칼로리정보, 예: 812.4 Kcal (calories)",
            "NTR_INFO": "영양정보 (nutrition)",
        },
        uncertain="MLSV_FGR as a JSON number; MLSV_YMD month prefix (YYYYMM) support",
        tags=("education",),
    ),
    Operation(
        platform="neis",
        name="SchoolSchedule",
        path="/hub/SchoolSchedule",
        summary=(
            "학사일정: 학교의 날짜별 행사(입학식, 시험, 방학, 개교기념일, 공휴일, 토요휴업일)를 조회합니다. (School "
            "calendar: events by date for one school: entrance ceremony, exams, vacations, holidays.)"
        ),
        params=[
            Param("ATPT_OFCDC_SC_CODE", _ATPT, required=True),
            Param("SD_SCHUL_CODE", _SCHUL, required=True),
            Param("DGHT_CRSE_SC_NM", "주야과정명: 주간|야간 (day/night course)"),
            Param("SCHUL_CRSE_SC_NM", "학교과정명: 초등학교|중학교|고등학교 (school course)"),
            Param(
                "AA_YMD",
                "학사일자 YYYYMMDD (YYYYMM: 한 달) (date; YYYYMM for a month)",
                pattern=r"\d{4}|\d{6}|\d{8}",
            ),
            Param("AA_FROM_YMD", "학사시작일자 YYYYMMDD (from date)", pattern=r"\d{8}"),
            Param("AA_TO_YMD", "학사종료일자 YYYYMMDD (to date)", pattern=r"\d{8}"),
            *_COMMON,
        ],
        handler=school_schedule,
        output_fields={
            **_SCHOOL_FIELDS,
            "AY": "학년도 (school year, March-February)",
            "SBTR_DD_SC_NM": "수업공제일명: 해당없음|휴업일|공휴일 (day type)",
            "AA_YMD": "학사일자 YYYYMMDD (date)",
            "EVENT_NM": "행사명 (event name)",
            "EVENT_CNTNT": "행사내용 (event detail)",
            "ONE_GRADE_EVENT_YN": "1학년행사여부 (grade 1 event)",
        },
        uncertain="grade flags for grades 4-6 of secondary schools ('N' here)",
        tags=("education",),
    ),
    Operation(
        platform="neis",
        name="classInfo",
        path="/hub/classInfo",
        summary=(
            "학급정보: 학교(시도교육청코드+행정표준코드)의 학년도·학년별 학급 목록(학급명)을 조회합니다. 학년도를 "
            "생략하면 2020학년도부터 모두. (Classes of one school by school year and grade; all years from 2020 "
            "when AY is omitted.)"
        ),
        params=[
            Param("ATPT_OFCDC_SC_CODE", _ATPT, required=True),
            Param("SD_SCHUL_CODE", _SCHUL, required=True),
            Param("AY", "학년도 YYYY (school year, March-February)", pattern=r"\d{4}"),
            Param("GRADE", "학년, 예: 1 (grade)", pattern=r"\d{1,2}"),
            Param("DGHT_CRSE_SC_NM", "주야과정명: 주간|야간 (day/night course)"),
            Param("SCHUL_CRSE_SC_NM", "학교과정명: 초등학교|중학교|고등학교 (school course)"),
            Param("ORD_SC_NM", "계열명, 예: 일반계 (track; high schools)"),
            Param("DDDEP_NM", "학과명 (department; high schools)"),
            *_COMMON,
        ],
        handler=class_info,
        output_fields={
            **_SCHOOL_FIELDS,
            "AY": "학년도 (school year)",
            "GRADE": "학년 (grade)",
            "DGHT_CRSE_SC_NM": "주야과정명 (day/night course)",
            "SCHUL_CRSE_SC_NM": "학교과정명 (school course)",
            "ORD_SC_NM": "계열명 (track; null below high school)",
            "DDDEP_NM": "학과명 (department; null below high school)",
            "CLASS_NM": "학급명, 예: 1 (class name)",
            "LOAD_DTM": "수정일 (load date)",
        },
        uncertain="class counts are synthetic (the school's size over its grades); ORD_SC_NM/DDDEP_NM wording for "
        "general high schools",
        tags=("education",),
    ),
]
