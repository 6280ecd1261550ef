"""What a person calls things, and the checks that a query/answer reads as a person's (issue 10).

A person asks ONE question about what they want ("지난달 종로구에서 가장 비싸게 팔린 아파트 근처
병원 중 의사가 가장 많은 곳은 어디인가요?"); the intermediate calls appear as descriptions of
things, never as API names ("예보지점 격자", "공통정보", "위치기반 관광정보 목록") or as a chain of
instructions ("…을 찾아 주세요. 그중 …로 …을 조회해 주세요. 마지막으로 …"). ``USER_NOUNS`` says
what each operation returns in a person's words (the noun, and the word for one of its rows);
``naturalness_problems`` is the check every row (grammar- or model-written) must pass.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kopa_inspect.apis import get_operation

# op id -> (what the call returns as a person says it, the word for one row of it).
USER_NOUNS: dict[str, tuple[str, str]] = {
    "airkorea_getCtprvnRltmMesureDnsty": ("측정소별 실시간 대기질", "측정소"),
    "airkorea_getNearbyMsrstnList": ("가까운 대기 측정소", "측정소"),
    "airkorea_getMsrstnList": ("대기 측정소", "측정소"),
    "airkorea_getTMStdrCrdnt": ("읍면동", "동네"),
    "assembly_ALLNAMEMBER": ("국회의원", "의원"),
    "dart_company": ("회사 개요", "회사"),
    "dart_corpCode": ("상장 회사", "회사"),
    "dart_fnlttSinglAcnt": ("재무제표 주요 계정", "계정"),
    "ecos_StatisticItemList": ("통계 세부 항목", "통계"),
    "ecos_StatisticSearch": ("통계 수치", "시점"),
    "ecos_StatisticTableList": ("한국은행 통계표", "통계표"),
    "hira_getDgsbjtInfo2_7": ("진료과목", "진료과목"),
    "hira_getDtlInfo2_7": ("병원 상세 정보", "병원"),
    "hira_getHospBasisList": ("병원", "병원"),
    "kasi_getHoliDeInfo": ("국경일", "날"),
    "kasi_getRestDeInfo": ("공휴일", "날"),
    "kma_getGridPointList": ("날씨 예보 지역", "지역"),
    "kma_getUltraSrtFcst": ("초단기 날씨 예보", "예보"),
    "kma_getUltraSrtNcst": ("현재 날씨", "관측값"),
    "kma_getVilageFcst": ("단기 날씨 예보", "예보"),
    "lawgo_lawSearch": ("법령", "법령"),
    "lawgo_lawService": ("법령 본문", "조문"),
    "molit_getRTMSDataSvcAptRent": ("아파트 전월세 거래", "거래"),
    "molit_getRTMSDataSvcAptTrade": ("아파트 매매 거래", "거래"),
    "molit_getRTMSDataSvcAptTradeDev": ("아파트 매매 거래", "거래"),
    "neis_SchoolSchedule": ("학사일정", "일정"),
    "neis_mealServiceDietInfo": ("급식 식단", "식단"),
    "neis_schoolInfo": ("학교", "학교"),
    "seoul_ChildCareInfo": ("어린이집", "어린이집"),
    "seoul_CrtfcUpsoInfo": ("모범음식점", "음식점"),
    "seoul_GetParkingInfo": ("시영주차장", "주차장"),
    "seoul_ListNecessariesPricesService": ("생필품 가격", "품목"),
    "seoul_RealtimeCityAir": ("권역별 실시간 대기환경", "지역"),
    "seoul_SearchPublicToiletPOIService": ("공중화장실", "화장실"),
    "seoul_SeoulPublicLibraryInfo": ("공공도서관", "도서관"),
    "seoul_TbPublicWifiInfo": ("공공와이파이", "와이파이"),
    "seoul_TimeAverageAirQuality": ("시간 평균 대기오염도", "측정값"),
    "seoul_bikeList": ("따릉이 대여소", "대여소"),
    "seoul_culturalEventInfo": ("문화행사", "행사"),
    "seoul_tbLnOpendataRtmsV": ("부동산 거래", "거래"),
    "stanregincd_getStanReginCdList": ("법정동", "동"),
    "tago_getCtyCodeList": ("버스 정보 도시", "도시"),
    "tago_getSttnNoList": ("버스 정류장", "정류장"),
    "tourapi_areaBasedList2": ("관광지", "곳"),
    "tourapi_areaCode2": ("시군구", "시군구"),
    "tourapi_detailCommon2": ("관광지 상세 정보", "곳"),
    "tourapi_detailIntro2": ("관광지 이용 안내", "곳"),
    "tourapi_locationBasedList2": ("관광지", "곳"),
    "tourapi_searchFestival2": ("축제", "축제"),
}

# What a person asks "how many" of, and compares by how many (issue 10): hospitals near a place,
# trades in a district, stops near a point, sights near a place, holidays in a month. Not air
# quality stations of a province, meal rows of a school or forecast rows: their number is the
# API's paging, nothing a person wants to know.
COUNTABLE: frozenset[str] = frozenset({
    "hira_getHospBasisList", "hira_getDgsbjtInfo2_7", "molit_getRTMSDataSvcAptTrade",
    "molit_getRTMSDataSvcAptTradeDev", "molit_getRTMSDataSvcAptRent", "seoul_tbLnOpendataRtmsV",
    "tago_getSttnNoList", "tourapi_locationBasedList2", "tourapi_areaBasedList2", "tourapi_searchFestival2",
    "kasi_getRestDeInfo", "kasi_getHoliDeInfo", "seoul_ChildCareInfo", "seoul_CrtfcUpsoInfo",
})


def true_count(output: dict) -> int | None:
    """How many rows the query has in all: the result's totalCount (the rows returned are one page:
    "100" is the page size, not the number of meals); None when the output does not say."""
    total = output.get("totalCount")
    try:
        n = int(str(total).replace(",", "").strip())
    except (TypeError, ValueError):
        return None
    return n if n >= len(output.get("items", [])) else None


# Operation names from the specs (describe.op_noun) and plan words a person would not say.
INTERNAL_NAMES: tuple[str, ...] = (
    "공통정보", "예보지점 격자", "기준좌표", "위치기반 관광정보", "지역코드 목록", "병원정보 목록",
    "시도별 실시간 측정정보", "근접측정소 목록", "의료기관 세부정보", "진료과목정보", "실거래 신고 내역",
    "법정동코드 10자리", "서울시 부동산 실거래가 정보", "소개정보", "결과 중", "번째 항목", "마지막 항목",
    "조회해", "조회했", "요청 좌표로부터", "그중", "마지막으로",
)
# A request clause: "…해 주세요", "알려 줘", "비교해 주세요", "찾아 주세요" …
_REQUEST = re.compile(r"(?:주세요|주십시오|줘|주라|하세요|바랍니다)(?=[\s.?!]|$)")
_SENTENCE_END = re.compile(r"[가-힣A-Za-z)][.?!](?=\s|$)")
# "2025년 13월", "1100년 25월": a code read as a year-month.
_YEAR_MONTH = re.compile(r"(\d{3,4})년\s*(\d{1,2})월")
_INLINE_DUMP = re.compile(r"\(\s*[A-Za-z_]\w*\s*=")


def user_noun(op_id: str) -> str:
    return USER_NOUNS[op_id][0] if op_id in USER_NOUNS else _catalog_noun(op_id)[0]


def row_word(op_id: str) -> str:
    return USER_NOUNS[op_id][1] if op_id in USER_NOUNS else _catalog_noun(op_id)[1]


@lru_cache(maxsize=4096)
def _catalog_noun(op_id: str) -> tuple[str, str]:
    """A catalog dataset's title without the portal's framing ("서울시 공공와이파이 서비스 위치 정보"
    -> "공공와이파이 서비스 위치"); its rows are "곳" for places, "항목" never (a person says what)."""
    from edge_synth.describe import op_noun

    noun = op_noun(op_id)
    noun = re.sub(r"^서울시\s+", "", noun)
    noun = re.sub(r"\s*(?:정보|현황정보|현황|목록|통계)$", "", noun).strip() or noun
    op = get_operation(op_id)
    if op.platform == "assembly":
        return noun, "의원"
    return noun, "곳"


def requests(query: str) -> int:
    """How many request clauses the query makes (a person asks one thing)."""
    return len(_REQUEST.findall(query))


def sentences(query: str) -> int:
    """Sentences end in . ? ! after a word (not inside "3.1.1." or "(주)." of a quoted name)."""
    text = re.sub(r"'[^']*'", "X", query)
    n = len(_SENTENCE_END.findall(text))
    return n + (1 if text.strip() and not _SENTENCE_END.search(text.strip()[-2:] + " ") else 0)


def bad_year_months(text: str) -> list[str]:
    """Year-months no calendar has: a code rendered as a date ("시군구코드 1100년 25월")."""
    return [m.group(0) for m in _YEAR_MONTH.finditer(text)
            if not (1900 <= int(m.group(1)) <= 2100 and 1 <= int(m.group(2)) <= 12)]


def naturalness_problems(query: str, answer: str) -> list[str]:
    """Why a query/answer does not read as a person's (empty: it does)."""
    out: list[str] = []
    if requests(query) > 1:
        out.append(f"{requests(query)} requests")
    if sentences(query) > 2:
        out.append(f"{sentences(query)} sentences")
    for name in INTERNAL_NAMES:
        if name in query or name in answer:
            out.append(f"internal name {name!r}")
            break
    for text in (query, answer):
        if bad_year_months(text):
            out.append(f"code as a date {bad_year_months(text)[0]!r}")
            break
    for residue in ("을(를)", "값 값"):
        if residue in query or residue in answer:
            out.append(f"residue {residue!r}")
    if _INLINE_DUMP.search(query) or _INLINE_DUMP.search(answer):
        out.append("inline parameter dump")
    return out
