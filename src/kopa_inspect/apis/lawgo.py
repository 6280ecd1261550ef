"""국가법령정보 공동활용 law.go.kr DRF Open API (법제처): 법령 목록 검색과 법령 본문 조회.

Real contract (the provider's published API guide): ``GET http://www.law.go.kr/DRF/lawSearch.do?OC=…&target=law&
type=XML|JSON&query=…&display=20&page=1`` and ``/DRF/lawService.do?OC=…&target=law&type=…&ID=… | MST=…``.
Auth is ``OC`` (the user id registered at open.law.go.kr), not a key. Field tags are Korean.
Search answers ``<LawSearch><target/><키워드/><section/><totalCnt/><page/><law id="1">…</law>…</LawSearch>``
(JSON: ``{"LawSearch":{…,"law":[…]}}``, counters as strings); rows carry 법령일련번호 (= MST), 법령명한글,
법령약칭명, 법령ID (= ID), 공포일자, 공포번호, 제개정구분명, 소관부처코드, 소관부처명, 법령구분명, 시행일자,
현행연혁코드, 법령상세링크. Detail answers ``법령`` → ``기본정보`` and ``조문`` → ``조문단위[]``.

A law must be found first (lawSearch → 법령ID / 법령일련번호) before its text (lawService ID / MST).

UNCERTAIN (no authoritative source here): the exact detail tree (the emulator gives a flat 기본정보
and 조문단위 with 항 lists), the JSON of a single search row (object vs list: a list is sent), the
failure bodies: a failed OC check answers ``{"result":"사용자 정보 검증에 실패하였습니다.","msg":…}``
and an unknown ID/MST ``{"Law":"일치하는 법령이 없습니다. 법령명을 확인하여 주십시오."}`` as clients
report; the wording for a missing or wrong target is the emulator's own. law.go.kr has no result
codes: :meth:`LawGoEnvelope.parse` labels outcomes 00 (normal), AUTH, NO_DATA, ERROR for the
normalized view. ``display`` over 100 is clamped to 100 (UNCERTAIN). Only ``target=law`` is served.
``query`` (search=1, the name) matches a part of the name, spaces and ㆍ ignored, as clients observe
("민법" also finds 난민법): UNCERTAIN, the reference does not state it; display defaults to 20.
"""

from __future__ import annotations

from typing import Any

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
    render_document,
    to_int,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result
from kopa_inspect.world import World
from kopa_inspect.world.laws import BY_ID, BY_MST, LAWS, Law, article_key, article_text, norm

AUTH_FAIL = "사용자 정보 검증에 실패하였습니다."
AUTH_MSG = (
    "OPEN API 호출 시 사용자 검증을 위하여 정확한 서버장비의 IP주소 및 도메인주소를 등록해 주세요. "
    "(OC 값을 확인하여 주십시오.)"
)
NO_LAW = "일치하는 법령이 없습니다. 법령명을 확인하여 주십시오."
MISSING = "필수 요청변수가 누락되었습니다."
INVALID = "요청변수 값이 올바르지 않습니다."
AUTH_KINDS = {"key_missing", "key_not_registered", "access_denied"}
MAX_DISPLAY = 100


class LawGoEnvelope(Envelope):
    format_param = "type"
    json_value = "JSON"
    page_param = "page"
    size_param = "display"
    default_size = 20
    gateway_kinds = frozenset()

    def paging(self, params: dict[str, Any]) -> tuple[int, int]:
        page, size = super().paging(params)
        return page, min(size, MAX_DISPLAY)

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if op.name == "lawService":
            return self._render_detail(page, fmt)
        head = {
            "target": "law",
            "키워드": page.extra.get("키워드", ""),
            "section": page.extra.get("section", "lawNm"),
            "totalCnt": str(page.total),
            "page": str(page.page_no),
        }
        if fmt == "json":
            return HttpResponse(200, JSON_CT, dumps_json({"LawSearch": {**head, "law": page.rows}}))
        rows = [{"@id": r["id"], **{k: v for k, v in r.items() if k != "id"}} for r in page.rows]
        doc = {"LawSearch": {**head, **({"law": rows} if rows else {})}}
        return HttpResponse(200, XML_CT, dumps_xml(doc))

    def _render_detail(self, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(None, ApiError("nodata"), fmt)
        basic = page.extra["기본정보"]
        if fmt == "json":
            doc = {"법령": {"법령키": basic["법령ID"], "기본정보": basic, "조문": {"조문단위": page.rows}}}
            return HttpResponse(200, JSON_CT, dumps_json(doc))
        units = [{"@조문키": r["조문키"], **{k: v for k, v in r.items() if k != "조문키"}} for r in page.rows]
        doc = {"법령": {"@법령키": basic["법령ID"], "기본정보": basic, "조문": {"조문단위": units}}}
        return HttpResponse(200, XML_CT, dumps_xml(doc))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        if err.kind in AUTH_KINDS:
            body: dict[str, Any] = {"result": AUTH_FAIL, "msg": AUTH_MSG}
            doc: dict[str, Any] = body if fmt == "json" else {"Law": body}
        else:
            if err.kind == "nodata":
                text = NO_LAW
            elif err.kind == "missing_param":
                text = f"{MISSING} ({err.param})" if err.param else MISSING
            elif err.kind == "invalid_param":
                text = f"{INVALID} ({err.param})" if err.param else INVALID
            else:
                text = "처리 중 오류가 발생하였습니다."
            doc = {"Law": err.detail or text}
        return render_document(doc, fmt)

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        law = doc.get("Law")
        if isinstance(law, dict) and "result" in law:
            doc = law
        if "result" in doc and "LawSearch" not in doc:
            return Parsed(
                ok=False, code="AUTH", message=f"{doc.get('result', '')} {doc.get('msg', '')}".strip()
            )
        if isinstance(law, str):
            code = "NO_DATA" if law.startswith("일치하는") else "ERROR"
            return Parsed(ok=False, code=code, message=law, total_count=0)
        if "LawSearch" in doc:
            root = doc["LawSearch"] or {}
            rows = []
            for r in as_list(root.get("law")):
                if isinstance(r, dict):
                    row = {
                        (k[1:] if k.startswith("@") else k): ("" if v is None else v) for k, v in r.items()
                    }
                    rows.append(row)
            return Parsed(
                ok=True,
                code="00",
                message="정상",
                items=rows,
                total_count=to_int(root.get("totalCnt")),
                page_no=to_int(root.get("page")),
                extra={"키워드": root.get("키워드") or ""},
            )
        if "법령" in doc:
            root = doc["법령"] or {}
            units = as_list((root.get("조문") or {}).get("조문단위"))
            items = []
            for u in units:
                if not isinstance(u, dict):
                    continue
                item = {(k[1:] if k.startswith("@") else k): v for k, v in u.items()}
                if "항" in item:
                    item["항"] = as_list(item["항"])
                items.append(item)
            return Parsed(
                ok=True,
                code="00",
                message="정상",
                items=items,
                total_count=len(items),
                extra={"기본정보": root.get("기본정보") or {}},
            )
        return Parsed(ok=False, code="ERROR", message=resp.text[:200])


# --- handlers ---------------------------------------------------------------------------------

SORTS = ("lasc", "ldes", "dasc", "ddes", "nasc", "ndes", "efasc", "efdes")


def _check_target(params: dict[str, Any]) -> None:
    if params.get("target") != "law":
        raise ApiError("invalid_param", param="target")


def _search_row(i: int, law: Law, oc_hint: str = "") -> dict[str, Any]:
    return {
        "id": str(i),
        "법령일련번호": law.mst,
        "현행연혁코드": "현행",
        "법령명한글": law.name,
        "법령약칭명": law.abbrev,
        "법령ID": law.law_id,
        "공포일자": law.promulgated,
        "공포번호": law.promulgation_no,
        "제개정구분명": law.amendment,
        "소관부처코드": law.ministry_code,
        "소관부처명": law.ministry,
        "법령구분명": law.kind,
        "공동부령정보": "",
        "시행일자": law.effective,
        "자법타법여부": "",
        "법령상세링크": f"/DRF/lawService.do?OC={oc_hint}&target=law&MST={law.mst}&type=HTML&mobileYn=&efYd={law.effective}",
    }


def law_search(world: World, params: dict[str, Any]) -> Result:
    _check_target(params)
    query = str(params.get("query") or "")
    section = "bdyText" if params.get("search") == "2" else "lawNm"
    q = norm(query)
    hits = []
    for law in LAWS:
        if q:
            if section == "lawNm":
                if q not in norm(law.name) and q not in norm(law.abbrev):
                    continue
            elif not any(q in norm(article_text(law, a) + " ".join(a[4])) for a in law.articles):
                continue
        if params.get("org") and law.ministry_code != params["org"]:
            continue
        hits.append(law)
    sort = params.get("sort") or "lasc"
    keys = {
        "l": lambda x: x.name,
        "d": lambda x: x.promulgated,
        "n": lambda x: int(x.promulgation_no),
        "e": lambda x: x.effective,
    }
    hits.sort(key=keys[sort[0]], reverse=sort.endswith("des"))
    # The placeholder OC in 법령상세링크 is never the caller's: the link is informative only.
    rows = [_search_row(i + 1, law, "") for i, law in enumerate(hits)]
    return Result(rows=rows, extra={"키워드": query, "section": section})


def law_service(world: World, params: dict[str, Any]) -> Result:
    _check_target(params)
    if not params.get("ID") and not params.get("MST"):
        raise ApiError("missing_param", param="ID/MST")
    law = BY_ID.get(str(params.get("ID") or "")) if params.get("ID") else BY_MST.get(str(params.get("MST")))
    if law is None:
        raise ApiError("nodata")
    basic = {
        "법령ID": law.law_id,
        "공포일자": law.promulgated,
        "공포번호": law.promulgation_no,
        "언어": "한글",
        "법종구분": law.kind,
        "법종구분코드": law.kind_code,
        "법령명_한글": law.name,
        "법령명_한자": law.hanja,
        "법령명약칭": law.abbrev,
        "제개정구분": law.amendment,
        "소관부처": law.ministry,
        "소관부처코드": law.ministry_code,
        "시행일자": law.effective,
        "법령일련번호": law.mst,
    }
    units = []
    for art in law.articles:
        key = article_key(art)
        if params.get("JO") and params["JO"] != key:
            continue
        num, branch, title, body, paras = art
        unit: dict[str, Any] = {
            "조문키": key + "1",
            "조문번호": num,
            "조문여부": "조문",
            "조문제목": title,
            "조문시행일자": law.effective,
            "조문내용": article_text(law, art),
        }
        if branch:
            unit["조문가지번호"] = branch
        if paras:
            marks = "①②③④⑤⑥⑦⑧⑨⑩"
            unit["항"] = [{"항번호": marks[i], "항내용": f"{marks[i]} {p}"} for i, p in enumerate(paras)]
        units.append(unit)
    return Result(rows=units, paged=False, extra={"기본정보": basic})


# --- spec ----------------------------------------------------------------------------------------

PLATFORM = Platform(
    id="lawgo",
    name="국가법령정보 공동활용 law.go.kr (Korea Ministry of Government Legislation open law API)",
    domain="law",
    live_base_url="http://www.law.go.kr",
    envelope=LawGoEnvelope(),
    key_params=("OC",),
    description="법령 검색과 법령 본문(조문) 조회 (search laws and read their articles)",
    uncertain="detail XML tree; failure bodies; display cap; only target=law",
)

_TYPE = Param("type", "출력 형태 XML|JSON (response format)", hidden=True)
_TARGET = Param("target", "서비스 대상: law (법령) (service target)", required=True, default="law")

OPERATIONS = [
    Operation(
        platform="lawgo",
        name="lawSearch",
        path="/DRF/lawSearch.do",
        summary=(
            "법령 목록 검색: 법령명(또는 본문)으로 현행 법령을 찾아 법령ID와 법령일련번호(MST), 공포·시행일자, 소관부처를 "
            "조회합니다. 본문은 lawService에 ID 또는 MST를 넣어 조회합니다. (Search current laws by name or text; returns "
            "법령ID and 법령일련번호 (MST) needed to read the text with lawService.)"
        ),
        params=[
            _TARGET,
            Param("query", "검색어 (법령명), 예: 주택임대차보호법 (search words)"),
            Param("search", "검색범위: 1 법령명(기본), 2 본문검색 (1 name, 2 full text)", enum=("1", "2")),
            Param("display", "검색 결과 개수, 기본 20, 최대 100 (results per page)", type="integer"),
            Param("page", "검색 결과 페이지, 기본 1 (page)", type="integer"),
            Param(
                "sort",
                "정렬: lasc 법령명 오름차순(기본), ldes, dasc 공포일자, ddes, nasc 공포번호, ndes, efasc 시행일자, "
                "efdes (sort order)",
                enum=SORTS,
            ),
            Param("org", "소관부처코드, 예: 1270000 법무부 (ministry code)", pattern=r"\d{7}"),
            _TYPE,
        ],
        handler=law_search,
        output_fields={
            "법령일련번호": "법령일련번호 = lawService의 MST (law serial no.)",
            "법령명한글": "법령명 (law name)",
            "법령약칭명": "법령 약칭 (abbreviation)",
            "법령ID": "법령ID = lawService의 ID (law id)",
            "공포일자": "공포일자 YYYYMMDD (promulgation date)",
            "공포번호": "공포번호 (promulgation no.)",
            "제개정구분명": "제개정구분 (amendment type)",
            "소관부처명": "소관부처 (ministry)",
            "법령구분명": "법령구분: 법률, 대통령령, 부령 (law kind)",
            "시행일자": "시행일자 YYYYMMDD (effective date)",
            "현행연혁코드": "현행/연혁 (current or historical)",
        },
        tags=("law", "code-lookup", "pagination"),
    ),
    Operation(
        platform="lawgo",
        name="lawService",
        path="/DRF/lawService.do",
        summary=(
            "법령 본문 조회: lawSearch에서 얻은 법령ID(ID) 또는 법령일련번호(MST)로 법령의 기본정보와 조문(조문번호, "
            "조문제목, 조문내용, 항)을 조회합니다. JO=000300처럼 6자리로 한 조만 볼 수 있습니다. (Law text by ID or MST "
            "from lawSearch: basic info and articles; JO=000300 for article 3 only, 001002 for article 10-2.)"
        ),
        params=[
            _TARGET,
            Param("ID", "법령ID (law id from lawSearch)", pattern=r"\d{6}"),
            Param("MST", "법령일련번호 (law serial no. from lawSearch)", pattern=r"\d{1,7}"),
            Param(
                "JO",
                "조번호 6자리: 조 4자리 + 가지 2자리, 예: 000300 제3조, 001002 제10조의2 (article)",
                pattern=r"\d{6}",
            ),
            _TYPE,
        ],
        handler=law_service,
        output_fields={
            "조문번호": "조문번호 (article number)",
            "조문가지번호": "가지번호, 예: 제6조의3의 3 (branch number)",
            "조문제목": "조문제목 (article title)",
            "조문내용": "조문내용 (article text)",
            "항": "항 목록: 항번호, 항내용 (paragraphs)",
            "조문시행일자": "조문 시행일자 (article effective date)",
            "기본정보": "법령 기본정보: 법령명_한글, 공포일자, 시행일자, 소관부처 (basic info, outside items)",
        },
        uncertain="detail tree shape; article texts are synthetic paraphrases",
        tags=("law",),
    ),
]
