"""What a person calls things: the words EDGE's questions and answers are written in.

- ``USER_NOUNS``: what each operation returns in a person's words (the noun, and the word for one
  of its rows), never the specs' dataset names; a catalog dataset outside it is named from its
  title (``user_noun``, ``row_word``).
- ``op_noun``, ``field_label``, ``param_label``: Korean names read from the specs' descriptions
  ("시군구코드(LAWD_CD)와 계약년월(DEAL_YMD)로 아파트 전월세 신고 내역을 조회합니다" -> "아파트 전월세
  신고 내역"), without raw parameter names.
- ``ASKABLE``: per operation, the fields a person asks of its rows, each with the person's word for
  it, from the field meanings in the platform's documented contract and the specs' descriptions:

  - ``ask``: fields a person asks for ("이 병원 전화번호가 뭐예요?"); facts are read only from these.
    A row's own name is asked only of a row picked by a measure ("전문의가 가장 많은 진료과목의
    과목명"), so its word is short ("이름", "과목명"): "병원의 병원 이름" says the noun twice.
  - ``pick``: fields a person picks a row by without asking their value (distance: "가장 가까운
    측정소"); with ``ask`` they are the measures of max/min picks.
  - ``name``: the field that names one row (the hospital, the station, the complex); a fact's
    subject is that name, never a group the row belongs to ('동북권' for the station '강북구') or
    another of its fields (an address).

The rules built on these words read them from here: which fields are asked (``edge_synth.askable``),
which row a name picks out (``edge_synth.describe``), whether a query reads as a person's
(``edge_synth.natural``). This module imports none of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from edge_synth.fields import norm
from kopa_inspect.apis import get_operation

# op id -> (what the call returns as a person says it, the word for one row of it).
USER_NOUNS: dict[str, tuple[str, str]] = {
    "airkorea_getCtprvnRltmMesureDnsty": ("실시간 대기질", "측정소"),
    "airkorea_getNearbyMsrstnList": ("가까운 대기 측정소", "측정소"),
    "airkorea_getMsrstnList": ("대기 측정소", "측정소"),
    "airkorea_getTMStdrCrdnt": ("읍면동", "동네"),
    "assembly_ALLNAMEMBER": ("국회의원", "의원"),
    "dart_company": ("회사 정보", "회사"),
    "dart_corpCode": ("상장 회사", "회사"),
    "dart_fnlttSinglAcnt": ("재무제표 계정", "계정"),
    "dart_alotMatter": ("배당 내역", "항목"),
    "dart_majorstock": ("대량보유 보고", "보고"),
    "ecos_StatisticItemList": ("통계 항목", "항목"),
    "ecos_StatisticSearch": ("통계 수치", "시점"),
    "ecos_StatisticTableList": ("한국은행 통계표", "통계표"),
    "hira_getDgsbjtInfo2_7": ("진료과목", "진료과목"),
    "hira_getDtlInfo2_7": ("병원 이용 정보", "병원"),
    "hira_getHospBasisList": ("병원", "병원"),
    "kasi_getHoliDeInfo": ("국경일", "날"),
    "kasi_getRestDeInfo": ("공휴일", "날"),
    "kma_getGridPointList": ("예보 지역", "지역"),
    "kma_getUltraSrtFcst": ("초단기 날씨 예보", "예보"),
    "kma_getUltraSrtNcst": ("현재 날씨", "관측값"),
    "kma_getVilageFcst": ("단기 날씨 예보", "예보"),
    "lawgo_lawSearch": ("법령", "법령"),
    "lawgo_lawService": ("법령 본문", "조문"),
    "molit_getRTMSDataSvcAptRent": ("아파트 전월세 거래", "거래"),
    "molit_getRTMSDataSvcAptTrade": ("아파트 매매 거래", "거래"),
    "molit_getRTMSDataSvcAptTradeDev": ("아파트 매매 거래", "거래"),
    "molit_getRTMSDataSvcOffiRent": ("오피스텔 전월세 거래", "거래"),
    "molit_getRTMSDataSvcOffiTrade": ("오피스텔 매매 거래", "거래"),
    "neis_SchoolSchedule": ("학사일정", "일정"),
    "neis_classInfo": ("학급 정보", "학급"),
    "neis_mealServiceDietInfo": ("급식 식단", "식단"),
    "neis_schoolInfo": ("학교", "학교"),
    "seoul_ChildCareInfo": ("어린이집", "어린이집"),
    "seoul_CrtfcUpsoInfo": ("모범음식점", "음식점"),
    "seoul_GetParkingInfo": ("시영주차장", "주차장"),
    "seoul_ListNecessariesPricesService": ("생필품 가격", "품목"),
    "seoul_RealtimeCityAir": ("서울 실시간 대기환경", "구"),
    "seoul_SearchPublicToiletPOIService": ("공중화장실", "화장실"),
    "seoul_SeoulPublicLibraryInfo": ("공공도서관", "도서관"),
    "seoul_TbPublicWifiInfo": ("공공와이파이", "와이파이"),
    "seoul_TimeAverageAirQuality": ("서울 구별 대기오염도", "구"),
    "seoul_bikeList": ("따릉이 대여소", "대여소"),
    "seoul_culturalEventInfo": ("문화행사", "행사"),
    "seoul_tbLnOpendataRtmsV": ("부동산 거래", "거래"),
    "stanregincd_getStanReginCdList": ("법정동", "동"),
    "tago_getCtyCodeList": ("도시", "도시"),
    "tago_getSttnNoList": ("버스 정류장", "정류장"),
    "tourapi_areaBasedList2": ("관광지", "곳"),
    "tourapi_areaCode2": ("시군구", "시군구"),
    "tourapi_detailCommon2": ("관광지 기본 정보", "곳"),
    "tourapi_detailIntro2": ("관광지 이용 정보", "곳"),
    "tourapi_locationBasedList2": ("관광지", "곳"),
    "tourapi_searchFestival2": ("축제", "축제"),
    # the real operations that would otherwise fall back to their spec's summary
    "airkorea_getMsrstnAcctoRltmMesureDnsty": ("측정소의 시간별 대기질", "측정 시각"),
    "dart_list": ("공시", "공시"),
    "ecos_KeyStatisticList": ("주요 경제지표", "지표"),
    "kma_mid_getMidLandFcst": ("중기 날씨 예보", "예보"),
    "kma_mid_getMidTa": ("중기 기온 예보", "예보"),
    "mfds_getDrbEasyDrugList": ("의약품", "약"),
    "nec_getCommonSgCodeList": ("선거", "선거"),
    "nec_getWinnerInfoInqire": ("당선인", "당선인"),
    "nts_status": ("사업자 상태", "사업자"),
    "nts_validate": ("사업자등록 진위 확인", "확인 결과"),
    "tago_getSttnAcctoArvlPrearngeInfoList": ("버스 도착 정보", "버스"),
    "tourapi_searchKeyword2": ("관광지", "곳"),
}


def user_noun(op_id: str) -> str:
    return USER_NOUNS[op_id][0] if op_id in USER_NOUNS else _catalog_noun(op_id)[0]


def row_word(op_id: str) -> str:
    return USER_NOUNS[op_id][1] if op_id in USER_NOUNS else _catalog_noun(op_id)[1]


@lru_cache(maxsize=4096)
def _catalog_noun(op_id: str) -> tuple[str, str]:
    """A catalog dataset's title without the portal's framing ("서울시 공공와이파이 서비스 위치 정보"
    -> "공공와이파이 서비스 위치"); its rows are "곳" for places, "항목" never (a person says what)."""
    noun = op_noun(op_id)
    noun = re.sub(r"^서울시\s+", "", noun)
    noun = re.sub(r"\s*(?:정보|현황정보|현황|목록|통계)$", "", noun).strip() or noun
    op = get_operation(op_id)
    if op.platform == "assembly":
        return noun, "의원"
    return noun, "곳"


@lru_cache(maxsize=1)
def region_names() -> dict[str, str]:
    """LAWD_CD (5 digits) -> "서울특별시 노원구": how a person names the district a code stands for."""
    try:
        from kopa_inspect.world import regions
    except ImportError:
        return {}
    return {r.code[:5]: r.name for r in regions.sggs()}


# --- names read from the specs' descriptions ----------------------------------------------------

_ASCII_TOKEN = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_FORMAT_TOKEN = re.compile(r"\b(?:[YMDHhms]{4,}|YYYY|HHMM|HH\d*|MM|DD)\b")


def _ko(text: str) -> str:
    """The Korean head of a 'Korean (English gloss)' description."""
    head = re.split(r"\s*[(\[]", text, maxsplit=1)[0].strip()
    return head or text


def _clean(text: str) -> str:
    text = _FORMAT_TOKEN.sub("", text)
    text = re.sub(r"\s*[:：=|~].*$", "", text)
    text = re.sub(r"\s+(?:또는|및|등|예)$", "", text.strip())
    text = re.sub(r"\s{2,}", " ", text).strip(" ,.;-")
    return text


@lru_cache(maxsize=4096)
def op_noun(op_id: str) -> str:
    """What a call returns, as a noun phrase ("아파트 매매 실거래가", "급식식단정보")."""
    summary = get_operation(op_id).summary
    m = re.search(r"(?:으로|로)\s+([^.。(]+?)(?:을|를)\s*(?:조회|검색|반환|제공|찾)", summary)
    noun = _clean(m.group(1)) if m else _clean(re.split(r"[:;.。]", _ko(summary), maxsplit=1)[0])
    # "…을 조회합니다" as a whole sentence: the object is the noun.
    noun = re.sub(r"\s*(?:을|를)\s*(?:조회|검색|반환|제공)(?:합니다|한다)?$", "", noun)
    noun = re.sub(r"\s*(?:조회|검색)(?:합니다)?$", "", noun).strip()
    if noun.count(",") >= 2:  # "회사의 정식명칭, 대표자, 법인구분, …": name the first and say the rest exist
        noun = noun.split(",")[0].strip() + " 등 정보"
    noun = _ASCII_TOKEN.sub("", noun).strip() if re.search(r"[가-힣]", noun) else noun
    noun = re.sub(r"\s{2,}", " ", noun).strip(" ,")
    return noun or "정보"


@lru_cache(maxsize=16384)
def field_label(op_id: str, fname: str) -> str:
    """An output field's Korean label ("거래금액", "측정소 이름"); never a raw field name. A field of
    the askable table (ASKABLE) is called by the person's word for it ("의사 수", not
    "의사 총수"), in the question, the answer and the row picks alike."""
    if said := word(op_id, fname):
        return said
    desc = get_operation(op_id).output_fields.get(fname, "")
    label = _clean(re.split(r"[,;:(]", desc, maxsplit=1)[0]) if desc else ""
    label = re.sub(r"\s*\bWGS84\b", "", label).strip()  # "경도 WGS84": nobody says the datum
    # "요청 좌표로부터 거리 m" -> "거리", "미세먼지 PM10 농도 ㎍/㎥" -> "미세먼지 PM10 농도": the frame of
    # the request and a trailing unit are not part of what a person calls the field.
    label = re.sub(r"^(?:요청|중심)\s*좌표로부터\s*", "", label)
    label = re.sub(r"\s+[A-Z]\s+[가-힣].*$", "", label)  # "법인구분 Y 유가증권 K 코스닥 …": the code list
    label = re.sub(r"\s*\d[가-힣]+(?:/\d[가-힣]+)+.*$", "", label)  # "등급 1좋음/2보통/3나쁨…": the values
    label = re.sub(r"\s+(?:m|km|㎍/㎥|ppm|㎡|%)$", "", label).strip()
    if not label or not re.search(r"[가-힣]", label):
        label = _GENERIC.get(norm(fname), "")
    return label or "해당 항목"


def param_label(op_id: str, pname: str) -> str:
    """A parameter's Korean label ("계약년월", "측정소 이름")."""
    p = get_operation(op_id).param(pname)
    desc = p.description if p is not None else ""
    label = _clean(re.split(r"[,;:(]", desc, maxsplit=1)[0]) if desc else ""
    label = _ASCII_TOKEN.sub("", label).strip() if re.search(r"[가-힣]", label) else ""
    label = re.sub(r"\s*\d+(?:/\d+)+", "", label)  # "발표시각 0200/0500/…": the allowed values, not a name
    label = re.sub(r"\s*값$", "", re.sub(r"\s{2,}", " ", label)).strip(" ,")
    label = re.sub(r"\s*또는 그 일부$", "", label)  # "회사명 또는 그 일부": the matching rule
    return label or _GENERIC.get(norm(pname), "조건")


_GENERIC = {
    "nx": "격자 X 좌표",
    "ny": "격자 Y 좌표",
    "basedate": "발표일자",
    "basetime": "발표시각",
    "lawdcd": "지역코드",
    "dealymd": "계약년월",
    "stationname": "측정소 이름",
    "sidoname": "시도 이름",
    "corpcode": "고유번호",
    "bsnsyear": "사업연도",
    "solyear": "연도",
    "solmonth": "월",
}


# --- what a person asks of each result, in their words --------------------------------------------


@dataclass(frozen=True)
class Askable:
    ask: dict[str, str]  # field -> the person's word for it
    why: str
    name: str | None = None  # the field that names one row
    pick: dict[str, str] = field(default_factory=dict)  # measures a row is picked by, not asked


_POLLUTANTS_AK = {
    "pm10Value": "미세먼지 농도",
    "pm25Value": "초미세먼지 농도",
    "o3Value": "오존 농도",
    "no2Value": "이산화질소 농도",
    "coValue": "일산화탄소 농도",
    "so2Value": "아황산가스 농도",
    "khaiValue": "통합대기환경지수",
}
_POLLUTANTS_SEOUL = {
    "PM10": "미세먼지 농도",
    "PM25": "초미세먼지 농도",
    "O3": "오존 농도",
    "NO2": "이산화질소 농도",
    "CO": "일산화탄소 농도",
    "SO2": "아황산가스 농도",
}
_TRADE = {
    "aptNm": "단지명",
    "dealAmount": "거래금액",
    "excluUseAr": "전용면적",
    "floor": "층",
    "buildYear": "건축년도",
}
_TOUR_LIST = {"title": "이름", "addr1": "주소", "tel": "전화번호"}
_MEMBER = {
    "POLY_NM": "정당",
    "ORIG_NM": "선거구",
    "CMIT_NM": "대표 위원회",
    "REELE_GBN_NM": "재선 구분",
    "TEL_NO": "전화번호",
    "E_MAIL": "이메일",
    "HOMEPAGE": "홈페이지",
    "ASSEM_ADDR": "사무실 호실",
    "JOB_RES_NM": "직책",
}

ASKABLE: dict[str, Askable] = {
    # --- air quality: the figures a person checks before going out; grades are codes (1-4) said raw,
    # the measuring network and the measuring time are the source's bookkeeping.
    "airkorea_getCtprvnRltmMesureDnsty": Askable(
        _POLLUTANTS_AK, "a station's pollutant figures", name="stationName"
    ),
    # nearby stations: which one is nearest; its distance from a TM point is the means of the pick
    # ("'중구'의 거리" asked the distance of a station from nowhere a person said), and the address
    # of a station the user names is the name again ("'동대문구'의 주소는 서울 동대문구").
    "airkorea_getNearbyMsrstnList": Askable(
        {"stationName": "이름"}, "the nearest station", name="stationName", pick={"tm": "거리"}
    ),
    # a town name -> its TM coordinate: the names echo what the user typed, the coordinate is plumbing.
    "airkorea_getTMStdrCrdnt": Askable({}, "a coordinate lookup: nothing to ask"),
    "seoul_RealtimeCityAir": Askable(
        {**_POLLUTANTS_SEOUL, "IDEX_MVL": "통합대기환경지수", "IDEX_NM": "통합대기환경지수 등급"},
        "a 자치구 station's figures (the 등급 is said in words: 좋음/보통/나쁨)",
        name="MSRSTE_NM",
    ),
    "seoul_TimeAverageAirQuality": Askable(
        _POLLUTANTS_SEOUL, "a 자치구 station's hourly figures", name="MSRSTE_NM"
    ),
    # --- the National Assembly (held out by default): what a constituent asks of a member.
    "assembly_ALLNAMEMBER": Askable(_MEMBER, "a member's party, seat and contacts", name="HG_NM"),
    # --- companies: who runs it, where it is, how to reach it, when it was founded.
    "dart_company": Askable(
        {
            "ceo_nm": "대표자",
            "adres": "주소",
            "hm_url": "홈페이지",
            "phn_no": "전화번호",
            "est_dt": "설립일",
            "acc_mt": "결산월",
        },
        "a company's profile",
        name="corp_name",
    ),
    # the corp-code list is a key lookup (고유번호 for the next call); its dates are bookkeeping.
    "dart_corpCode": Askable({}, "a key lookup: nothing to ask", name="corp_name"),
    # financial statement lines: this and last term's amount of an account (매출액, 영업이익).
    "dart_fnlttSinglAcnt": Askable(
        {"thstrm_amount": "당기 금액", "frmtrm_amount": "전기 금액"},
        "an account's amounts",
        name="account_nm",
    ),
    # filings: which report was filed and when.
    "dart_list": Askable(
        {"report_nm": "보고서명", "rcept_dt": "접수일자"}, "a company's filings", name="report_nm"
    ),
    # dividends: an item's figure this term and the last (the item names say the unit: 원, %)
    "dart_alotMatter": Askable(
        {"thstrm": "당기 값", "frmtrm": "전기 값"}, "a dividend item's figures", name="se"
    ),
    # large holdings: who holds how much (the receipt and contract figures are bookkeeping)
    "dart_majorstock": Askable(
        {"stkqy": "보유 주식 수", "stkrt": "보유 비율", "rcept_dt": "보고일"},
        "a holder's shares and ratio",
        name="repror",
    ),
    # --- Bank of Korea: the statistic's value; the catalogues of tables and items are how to find it.
    "ecos_StatisticSearch": Askable({"DATA_VALUE": "통계 수치"}, "the value at a period"),
    "ecos_StatisticItemList": Askable({}, "a catalogue of series: nothing to ask", name="ITEM_NAME"),
    "ecos_StatisticTableList": Askable({}, "a catalogue of tables: nothing to ask", name="STAT_NAME"),
    # --- hospitals: what a patient asks (UNCERTAIN: 협진 의사 수 left out, a patient does not ask it).
    "hira_getHospBasisList": Askable(
        {
            "yadmNm": "이름",
            "addr": "주소",
            "telno": "전화번호",
            "drTotCnt": "의사 수",
            "mdeptSdrCnt": "전문의 수",
            "estbDd": "개설일자",
            "clCdNm": "병원 종류",
            "hospUrl": "홈페이지",
        },
        "a hospital's contacts and size",
        name="yadmNm",
        pick={"distance": "거리"},
    ),
    "hira_getDgsbjtInfo2_7": Askable(
        {"dgsbjtCdNm": "과목명", "dgsbjtPrSdrCnt": "전문의 수"},
        "a department and its specialists",
        name="dgsbjtCdNm",
    ),
    # details: hours, breaks, parking; the Y/N flags (주차 비용, 응급실) are said raw, so left out.
    "hira_getDtlInfo2_7": Askable(
        {
            "trmtMonStart": "월요일 진료 시작",
            "trmtMonEnd": "월요일 진료 종료",  # "…가 더 늦게 끝나는"
            "trmtSatStart": "토요일 진료 시작",
            "trmtSatEnd": "토요일 진료 종료",
            "lunchWeek": "평일 점심시간",
            "rcvWeek": "평일 접수시간",
            "rcvSat": "토요일 접수시간",
            "noTrmtSun": "일요일 휴진 안내",
            "noTrmtHoli": "공휴일 휴진 안내",
            "parkQty": "주차 가능 대수",
        },
        "when it is open, where to park",
    ),
    # --- holidays: which day it falls on.
    "kasi_getHoliDeInfo": Askable(
        {"dateName": "이름", "locdate": "날짜"}, "the day of a holiday", name="dateName"
    ),
    "kasi_getRestDeInfo": Askable(
        {"dateName": "이름", "locdate": "날짜"}, "the day of a holiday", name="dateName"
    ),
    # --- weather: the grid list turns a place into a cell (its names are the user's, the cell is
    # plumbing). A forecast row is one category (TMP, POP ...) at one time: its value means
    # nothing without them, so it is never asked as a field; WEATHER below asks it by category.
    "kma_getGridPointList": Askable({}, "a place -> grid cell lookup: nothing to ask"),
    "kma_getUltraSrtFcst": Askable({}, "per-category rows: asked by category (WEATHER)"),
    "kma_getUltraSrtNcst": Askable({}, "per-category rows: asked by category (WEATHER)"),
    "kma_getVilageFcst": Askable({}, "per-category rows: asked by category (WEATHER)"),
    # --- laws (held out by default): when a law took effect, who is in charge of it.
    "lawgo_lawSearch": Askable(
        {
            "시행일자": "시행일자",
            "공포일자": "공포일자",
            "소관부처명": "소관부처",
            "법령구분명": "법령 종류",
            "법령약칭명": "약칭",
        },
        "a law's dates and ministry",
        name="법령명한글",
    ),
    "lawgo_lawService": Askable(
        {"조문제목": "조문 제목", "조문시행일자": "조문 시행일자"}, "an article", name="조문제목"
    ),
    # --- apartment trades and leases: price, size, floor, age (the lot and road codes are keys).
    "molit_getRTMSDataSvcAptTrade": Askable(_TRADE, "a sale", name="aptNm"),
    "molit_getRTMSDataSvcAptTradeDev": Askable(_TRADE, "a sale", name="aptNm"),
    "molit_getRTMSDataSvcAptRent": Askable(
        {
            "aptNm": "단지명",
            "deposit": "보증금",
            "monthlyRent": "월세",
            "excluUseAr": "전용면적",
            "floor": "층",
            "buildYear": "건축년도",
        },
        "a lease",
        name="aptNm",
    ),
    # officetels: the same questions as an apartment's sale or lease, the building named offiNm
    "molit_getRTMSDataSvcOffiTrade": Askable(
        {
            "offiNm": "건물명",
            "dealAmount": "거래금액",
            "excluUseAr": "전용면적",
            "floor": "층",
            "buildYear": "건축년도",
        },
        "an officetel sale",
        name="offiNm",
    ),
    "molit_getRTMSDataSvcOffiRent": Askable(
        {
            "offiNm": "건물명",
            "deposit": "보증금",
            "monthlyRent": "월세",
            "excluUseAr": "전용면적",
            "floor": "층",
            "buildYear": "건축년도",
        },
        "an officetel lease",
        name="offiNm",
    ),
    "seoul_tbLnOpendataRtmsV": Askable(
        {
            "BLDG_NM": "건물명",
            "THING_AMT": "거래금액",
            "ARCH_AREA": "건물면적",
            "FLR": "층",
            "ARCH_YR": "건축년도",
            "BLDG_USG": "건물용도",
        },
        "a Seoul trade",
        name="BLDG_NM",
    ),
    # --- schools: a parent asks the date of an event, the menu's calories, the school's contacts.
    "neis_SchoolSchedule": Askable(
        {"EVENT_NM": "행사명", "AA_YMD": "날짜"}, "the day of a school event", name="EVENT_NM"
    ),
    # a school's classes: a row is a grade's class, its name the number; nothing else a parent asks
    "neis_classInfo": Askable({}, "a school's class list: counted, not asked", name="CLASS_NM"),
    "neis_mealServiceDietInfo": Askable(
        {"CAL_INFO": "칼로리"},
        "a meal's calories (UNCERTAIN: the dish list is a <br/> list with allergy codes, not asked)",
    ),
    "neis_schoolInfo": Askable(
        {
            "ORG_RDNMA": "주소",
            "ORG_TELNO": "전화번호",
            "HMPG_ADRES": "홈페이지",
            "FOND_SC_NM": "설립 구분",
            "COEDU_SC_NM": "남녀공학 구분",
            "SCHUL_KND_SC_NM": "학교 종류",
            "FOND_YMD": "설립일자",
            "FOAS_MEMRD": "개교기념일",
        },
        "a school's contacts and kind",
        name="SCHUL_NM",
    ),
    # --- Seoul places: contacts, hours, capacity, fees.
    "seoul_ChildCareInfo": Askable(
        {
            "CRADDR": "주소",
            "CRTELNO": "전화번호",
            "CRCAPAT": "정원",
            "CRCHCNT": "현원",
            "CRTYPENAME": "어린이집 유형",
            "CRCARGBNAME": "통학차량 운영 여부",
            "CRSTATUSNAME": "운영 현황",
        },
        "a daycare's contacts and places",
        name="CRNAME",
    ),
    "seoul_CrtfcUpsoInfo": Askable(
        {"RDN_CODE_NM": "주소", "TEL_NO": "전화번호", "FOOD_MENU": "주된 음식", "COB_CODE_NM": "업태"},
        "a restaurant's food and contacts (the owner's name is private)",
        name="UPSO_NM",
    ),
    "seoul_GetParkingInfo": Askable(
        {
            "ADDR": "주소",
            "TELNO": "전화번호",
            "TPKCT": "총 주차면",
            "NOW_PRK_VHCL_CNT": "현재 주차 차량 수",
            "PAY_YN_NM": "유료 여부",
            "BSC_PRK_CRG": "기본 주차 요금",
            "BSC_PRK_HR": "기본 주차 시간",
            "ADD_PRK_CRG": "추가 요금",
        },
        "where, how full, how much",
        name="PKLT_NM",
    ),
    "seoul_ListNecessariesPricesService": Askable(
        {"A_PRICE": "가격", "A_UNIT": "판매 규격"}, "an item's price"
    ),
    # a toilet's record holds its kind, district and coordinates: nothing a person asks of it.
    "seoul_SearchPublicToiletPOIService": Askable(
        {}, "coordinates and record dates: nothing to ask", name="FNAME"
    ),
    "seoul_SeoulPublicLibraryInfo": Askable(
        {
            "ADRES": "주소",
            "TEL_NO": "전화번호",
            "HMPG_URL": "홈페이지",
            "OP_TIME": "운영시간",
            "FDRM_CLOSE_DATE": "정기 휴관일",
            "LBRRY_SE_NAME": "도서관 구분",
        },
        "a library's hours and contacts",
        name="LBRRY_NAME",
    ),
    "seoul_TbPublicWifiInfo": Askable(
        {"X_SWIFI_ADRES1": "주소", "X_SWIFI_ADRES2": "상세 위치", "X_SWIFI_INOUT_DOOR": "실내외 구분"},
        "where the hotspot is",
        name="X_SWIFI_MAIN_NM",
    ),
    "seoul_bikeList": Askable(
        {"parkingBikeTotCnt": "대여 가능 자전거 수", "rackTotCnt": "거치대 수"},
        "bikes free now",
        name="stationName",
    ),
    "seoul_culturalEventInfo": Askable(
        {
            "PLACE": "장소",
            "DATE": "일정",
            "USE_FEE": "이용요금",
            "USE_TRGT": "이용대상",
            "STRTDATE": "시작일",
            "END_DATE": "종료일",
            "IS_FREE": "유무료",
        },
        "where, when, for whom, how much",
        name="TITLE",
    ),
    # --- codes: a 법정동 or city code is the key for the next call; its names are the user's own.
    "stanregincd_getStanReginCdList": Askable({}, "a code lookup: nothing to ask"),
    "tago_getCtyCodeList": Askable({}, "a code lookup: nothing to ask"),
    "tourapi_areaCode2": Askable({}, "a code lookup: nothing to ask"),
    # --- buses: the number painted on the stop (what a rider types into an app).
    "tago_getSttnNoList": Askable({"nodeno": "정류장 번호"}, "a stop's number", name="nodenm"),
    # --- tourism: where a place is, how to call it; categories are codes (A02060100), the record
    # dates are the portal's, the distance is the pick ("가장 가까운 관광지").
    "tourapi_areaBasedList2": Askable(_TOUR_LIST, "a place's address and phone", name="title"),
    "tourapi_locationBasedList2": Askable(
        _TOUR_LIST, "a place's address and phone", name="title", pick={"dist": "거리"}
    ),
    "tourapi_searchFestival2": Askable(
        {**_TOUR_LIST, "eventstartdate": "시작일", "eventenddate": "종료일"},
        "when and where a festival is",
        name="title",
    ),
    "tourapi_detailCommon2": Askable(
        {"addr1": "주소", "tel": "전화번호"}, "a place's address and phone", name="title"
    ),
    "tourapi_detailIntro2": Askable(
        {
            "restdate": "쉬는 날",
            "usetime": "이용시간",
            "restdateculture": "쉬는 날",
            "usetimeculture": "이용시간",
            "usefee": "이용요금",
            "eventplace": "행사 장소",
            "playtime": "공연시간",
            "checkintime": "입실 시간",
            "checkouttime": "퇴실 시간",
            "roomcount": "객실 수",
            "firstmenu": "대표 메뉴",
            "opentimefood": "영업시간",
            "restdatefood": "쉬는 날",
            "parking": "주차 시설",
            "infocenter": "문의처",
        },
        "hours, fees, rooms, menu",
    ),
    # --- the real operations that had no person's noun (USER_NOUNS) and so
    # nothing to ask. A station's hourly rows: no row is "the" figure (a person asks the latest, which no
    # pick says; the province list, airkorea_getCtprvnRltmMesureDnsty, asks it), so nothing is asked here.
    "airkorea_getMsrstnAcctoRltmMesureDnsty": Askable({}, "hourly rows of one station: nothing a pick says"),
    # the Bank of Korea's key indicators: an indicator's latest value (its group and cycle are bookkeeping)
    "ecos_KeyStatisticList": Askable(
        {"DATA_VALUE": "값"}, "an indicator's latest value", name="KEYSTAT_NAME"
    ),
    # mid-range forecasts: one row per region; day 4's figures are what a person plans with (the bounds
    # and later days are the same question again)
    "kma_mid_getMidLandFcst": Askable(
        {"rnSt4Am": "4일 후 오전 강수확률", "wf4Am": "4일 후 오전 날씨"}, "a region's weather in four days"
    ),
    "kma_mid_getMidTa": Askable(
        {"taMin4": "4일 후 최저기온", "taMax4": "4일 후 최고기온"}, "a city's temperatures in four days"
    ),
    # medicines: what it is for and how to take it are long texts; the maker is what is asked
    "mfds_getDrbEasyDrugList": Askable({"entpName": "제조사"}, "a medicine's maker", name="itemName"),
    # elections (held out by default): the day of an election, a winner's party and votes
    "nec_getCommonSgCodeList": Askable({"sgVotedate": "선거일"}, "an election's day", name="sgName"),
    "nec_getWinnerInfoInqire": Askable(
        {"jdName": "정당", "dugsu": "득표수", "dugyul": "득표율"}, "a winner's party and votes", name="name"
    ),
    # business registration: whether it is still open (the codes repeat the words)
    "nts_status": Askable({"b_stt": "사업 상태", "tax_type": "과세 유형"}, "a business's status"),
    "nts_validate": Askable({}, "a yes/no check of what the user gave: nothing to ask"),
    # bus arrivals: when the bus comes, how many stops away
    "tago_getSttnAcctoArvlPrearngeInfoList": Askable(
        {"arrprevstationcnt": "남은 정류장 수", "arrtime": "도착 예정 시간"},
        "when a bus arrives",
        name="routeno",
    ),
    "tourapi_searchKeyword2": Askable(_TOUR_LIST, "a sight found by a word", name="title"),
}


def word(op_id: str, fname: str) -> str | None:
    """The person's word for a field of the table (asked or picked by); None outside it."""
    entry = ASKABLE.get(op_id)
    if entry is not None:
        return entry.ask.get(fname) or entry.pick.get(fname)
    return None


def name_field(op_id: str) -> str | None:
    """The field that names one row of this operation (the table's), or None: decide generically."""
    entry = ASKABLE.get(op_id)
    return entry.name if entry is not None else None
