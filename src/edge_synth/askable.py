"""What a person asks of each result (issue 10): the only fields EDGE facts are read from.

Reviewers read EDGE questions that asked for things nobody wants to know: "날씨 예보 지역의 1단계
시도" (the province the user had just named), "관광지 중 'X'의 수정일시" (when the record was
edited), the number of forecast areas, "'중구'(a station)의 거리" (the distance of a station from a
grid point), "'동대문구'의 오존" answered for the row '동북권'. Picking "any declared non-code field"
cannot tell these from "the hospital's phone number". So the fields a person asks about are listed
here, per operation, each with the person's word for it, from the field meanings in
the platform's documented contract and the specs' descriptions:

- ``ask``: fields a person asks for ("이 병원 전화번호가 뭐예요?"); facts are read only from these.
  A row's own name is asked only of a row picked by a measure ("전문의가 가장 많은 진료과목의
  과목명"), so its word is short ("이름", "과목명"): "병원의 병원 이름" says the noun twice.
- ``pick``: fields a person picks a row by without asking their value (distance: "가장 가까운
  측정소"); with ``ask`` they are the measures of max/min picks.
- ``name``: the field that names one row (the hospital, the station, the complex); a fact's
  subject is that name, never a group the row belongs to ('동북권' for the station '강북구') or
  another of its fields (an address).

Operations not in the table: the generic Seoul and Assembly catalog datasets (hundreds, one shape
each) follow ``catalog_askable``'s rule on the field's Korean label: bookkeeping of the record
(수정/등록/갱신/작성 일시, 데이터 기준일, 관리번호, 코드, 좌표 ...) is denied, what describes the
place or thing (name, address, phone, hours, fee, capacity ...) is kept, anything else is not
asked (UNCERTAIN: the label is all the rule reads). Any other operation has nothing to ask: a
leaf of it gets no fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from edge_synth.natural import COUNTABLE
from kopa_inspect.apis import get_operation


@dataclass(frozen=True)
class Askable:
    ask: dict[str, str]  # field -> the person's word for it
    why: str
    name: str | None = None  # the field that names one row
    pick: dict[str, str] = field(default_factory=dict)  # measures a row is picked by, not asked


_POLLUTANTS_AK = {"pm10Value": "미세먼지 농도", "pm25Value": "초미세먼지 농도", "o3Value": "오존 농도",
                  "no2Value": "이산화질소 농도", "coValue": "일산화탄소 농도", "so2Value": "아황산가스 농도",
                  "khaiValue": "통합대기환경지수"}
_POLLUTANTS_SEOUL = {"PM10": "미세먼지 농도", "PM25": "초미세먼지 농도", "O3": "오존 농도", "NO2": "이산화질소 농도",
                     "CO": "일산화탄소 농도", "SO2": "아황산가스 농도"}
_TRADE = {"aptNm": "단지명", "dealAmount": "거래금액", "excluUseAr": "전용면적", "floor": "층", "buildYear": "건축년도"}
_TOUR_LIST = {"title": "이름", "addr1": "주소", "tel": "전화번호"}
_MEMBER = {"POLY_NM": "정당", "ORIG_NM": "선거구", "CMIT_NM": "대표 위원회", "REELE_GBN_NM": "재선 구분",
           "TEL_NO": "전화번호", "E_MAIL": "이메일", "HOMEPAGE": "홈페이지", "ASSEM_ADDR": "사무실 호실",
           "JOB_RES_NM": "직책"}

ASKABLE: dict[str, Askable] = {
    # --- air quality: the figures a person checks before going out; grades are codes (1-4) said raw,
    # the measuring network and the measuring time are the source's bookkeeping.
    "airkorea_getCtprvnRltmMesureDnsty": Askable(
        _POLLUTANTS_AK, "a station's pollutant figures", name="stationName"),
    # nearby stations: which one is nearest; its distance from a TM point is the means of the pick
    # ("'중구'의 거리" asked the distance of a station from nowhere a person said), and the address
    # of a station the user names is the name again ("'동대문구'의 주소는 서울 동대문구").
    "airkorea_getNearbyMsrstnList": Askable(
        {"stationName": "이름"}, "the nearest station", name="stationName", pick={"tm": "거리"}),
    # a town name -> its TM coordinate: the names echo what the user typed, the coordinate is plumbing.
    "airkorea_getTMStdrCrdnt": Askable({}, "a coordinate lookup: nothing to ask"),
    "seoul_RealtimeCityAir": Askable(
        {**_POLLUTANTS_SEOUL, "IDEX_MVL": "통합대기환경지수", "IDEX_NM": "통합대기환경지수 등급"},
        "a 자치구 station's figures (the 등급 is said in words: 좋음/보통/나쁨)", name="MSRSTE_NM"),
    "seoul_TimeAverageAirQuality": Askable(_POLLUTANTS_SEOUL, "a 자치구 station's hourly figures",
                                           name="MSRSTE_NM"),
    # --- the National Assembly (held out by default): what a constituent asks of a member.
    "assembly_ALLNAMEMBER": Askable(_MEMBER, "a member's party, seat and contacts", name="HG_NM"),
    # --- companies: who runs it, where it is, how to reach it, when it was founded.
    "dart_company": Askable(
        {"ceo_nm": "대표자", "adres": "주소", "hm_url": "홈페이지", "phn_no": "전화번호", "est_dt": "설립일",
         "acc_mt": "결산월"}, "a company's profile", name="corp_name"),
    # the corp-code list is a key lookup (고유번호 for the next call); its dates are bookkeeping.
    "dart_corpCode": Askable({}, "a key lookup: nothing to ask", name="corp_name"),
    # financial statement lines: this and last term's amount of an account (매출액, 영업이익).
    "dart_fnlttSinglAcnt": Askable(
        {"thstrm_amount": "당기 금액", "frmtrm_amount": "전기 금액"}, "an account's amounts", name="account_nm"),
    # filings: which report was filed and when.
    "dart_list": Askable({"report_nm": "보고서명", "rcept_dt": "접수일자"}, "a company's filings",
                         name="report_nm"),
    # --- Bank of Korea: the statistic's value; the catalogues of tables and items are how to find it.
    "ecos_StatisticSearch": Askable({"DATA_VALUE": "통계 수치"}, "the value at a period"),
    "ecos_StatisticItemList": Askable({}, "a catalogue of series: nothing to ask", name="ITEM_NAME"),
    "ecos_StatisticTableList": Askable({}, "a catalogue of tables: nothing to ask", name="STAT_NAME"),
    # --- hospitals: what a patient asks (UNCERTAIN: 협진 의사 수 left out, a patient does not ask it).
    "hira_getHospBasisList": Askable(
        {"yadmNm": "이름", "addr": "주소", "telno": "전화번호", "drTotCnt": "의사 수", "mdeptSdrCnt": "전문의 수",
         "estbDd": "개설일자", "clCdNm": "병원 종류", "hospUrl": "홈페이지"},
        "a hospital's contacts and size", name="yadmNm", pick={"distance": "거리"}),
    "hira_getDgsbjtInfo2_7": Askable(
        {"dgsbjtCdNm": "과목명", "dgsbjtPrSdrCnt": "전문의 수"}, "a department and its specialists",
        name="dgsbjtCdNm"),
    # details: hours, breaks, parking; the Y/N flags (주차 비용, 응급실) are said raw, so left out.
    "hira_getDtlInfo2_7": Askable(
        {"trmtMonStart": "월요일 진료 시작", "trmtMonEnd": "월요일 진료 종료",  # "…가 더 늦게 끝나는"
         "trmtSatStart": "토요일 진료 시작", "trmtSatEnd": "토요일 진료 종료", "lunchWeek": "평일 점심시간",
         "rcvWeek": "평일 접수시간", "rcvSat": "토요일 접수시간", "noTrmtSun": "일요일 휴진 안내",
         "noTrmtHoli": "공휴일 휴진 안내", "parkQty": "주차 가능 대수"}, "when it is open, where to park"),
    # --- holidays: which day it falls on.
    "kasi_getHoliDeInfo": Askable({"dateName": "이름", "locdate": "날짜"}, "the day of a holiday",
                                  name="dateName"),
    "kasi_getRestDeInfo": Askable({"dateName": "이름", "locdate": "날짜"}, "the day of a holiday",
                                  name="dateName"),
    # --- weather: the grid list turns a place into a cell (its names are the user's, the cell is
    # plumbing). A forecast row is one category (TMP, POP ...) at one time: its value means
    # nothing without them, so it is never asked as a field; WEATHER below asks it by category.
    "kma_getGridPointList": Askable({}, "a place -> grid cell lookup: nothing to ask"),
    "kma_getUltraSrtFcst": Askable({}, "per-category rows: asked by category (WEATHER)"),
    "kma_getUltraSrtNcst": Askable({}, "per-category rows: asked by category (WEATHER)"),
    "kma_getVilageFcst": Askable({}, "per-category rows: asked by category (WEATHER)"),
    # --- laws (held out by default): when a law took effect, who is in charge of it.
    "lawgo_lawSearch": Askable(
        {"시행일자": "시행일자", "공포일자": "공포일자", "소관부처명": "소관부처", "법령구분명": "법령 종류",
         "법령약칭명": "약칭"}, "a law's dates and ministry", name="법령명한글"),
    "lawgo_lawService": Askable({"조문제목": "조문 제목", "조문시행일자": "조문 시행일자"}, "an article",
                                name="조문제목"),
    # --- apartment trades and leases: price, size, floor, age (the lot and road codes are keys).
    "molit_getRTMSDataSvcAptTrade": Askable(_TRADE, "a sale", name="aptNm"),
    "molit_getRTMSDataSvcAptTradeDev": Askable(_TRADE, "a sale", name="aptNm"),
    "molit_getRTMSDataSvcAptRent": Askable(
        {"aptNm": "단지명", "deposit": "보증금", "monthlyRent": "월세", "excluUseAr": "전용면적", "floor": "층",
         "buildYear": "건축년도"}, "a lease", name="aptNm"),
    "seoul_tbLnOpendataRtmsV": Askable(
        {"BLDG_NM": "건물명", "THING_AMT": "거래금액", "ARCH_AREA": "건물면적", "FLR": "층", "ARCH_YR": "건축년도",
         "BLDG_USG": "건물용도"}, "a Seoul trade", name="BLDG_NM"),
    # --- schools: a parent asks the date of an event, the menu's calories, the school's contacts.
    "neis_SchoolSchedule": Askable({"EVENT_NM": "행사명", "AA_YMD": "날짜"}, "the day of a school event",
                                   name="EVENT_NM"),
    "neis_mealServiceDietInfo": Askable({"CAL_INFO": "칼로리"}, "a meal's calories (UNCERTAIN: the dish list "
                                        "is a <br/> list with allergy codes, not asked)"),
    "neis_schoolInfo": Askable(
        {"ORG_RDNMA": "주소", "ORG_TELNO": "전화번호", "HMPG_ADRES": "홈페이지", "FOND_SC_NM": "설립 구분",
         "COEDU_SC_NM": "남녀공학 구분", "SCHUL_KND_SC_NM": "학교 종류", "FOND_YMD": "설립일자",
         "FOAS_MEMRD": "개교기념일"}, "a school's contacts and kind", name="SCHUL_NM"),
    # --- Seoul places: contacts, hours, capacity, fees.
    "seoul_ChildCareInfo": Askable(
        {"CRADDR": "주소", "CRTELNO": "전화번호", "CRCAPAT": "정원", "CRCHCNT": "현원", "CRTYPENAME": "어린이집 유형",
         "CRCARGBNAME": "통학차량 운영 여부", "CRSTATUSNAME": "운영 현황"}, "a daycare's contacts and places",
        name="CRNAME"),
    "seoul_CrtfcUpsoInfo": Askable(
        {"RDN_CODE_NM": "주소", "TEL_NO": "전화번호", "FOOD_MENU": "주된 음식", "COB_CODE_NM": "업태"},
        "a restaurant's food and contacts (the owner's name is private)", name="UPSO_NM"),
    "seoul_GetParkingInfo": Askable(
        {"ADDR": "주소", "TELNO": "전화번호", "TPKCT": "총 주차면", "NOW_PRK_VHCL_CNT": "현재 주차 차량 수",
         "PAY_YN_NM": "유료 여부", "BSC_PRK_CRG": "기본 주차 요금", "BSC_PRK_HR": "기본 주차 시간",
         "ADD_PRK_CRG": "추가 요금"}, "where, how full, how much", name="PKLT_NM"),
    "seoul_ListNecessariesPricesService": Askable({"A_PRICE": "가격", "A_UNIT": "판매 규격"}, "an item's price"),
    # a toilet's record holds its kind, district and coordinates: nothing a person asks of it.
    "seoul_SearchPublicToiletPOIService": Askable({}, "coordinates and record dates: nothing to ask",
                                                  name="FNAME"),
    "seoul_SeoulPublicLibraryInfo": Askable(
        {"ADRES": "주소", "TEL_NO": "전화번호", "HMPG_URL": "홈페이지", "OP_TIME": "운영시간",
         "FDRM_CLOSE_DATE": "정기 휴관일", "LBRRY_SE_NAME": "도서관 구분"}, "a library's hours and contacts",
        name="LBRRY_NAME"),
    "seoul_TbPublicWifiInfo": Askable(
        {"X_SWIFI_ADRES1": "주소", "X_SWIFI_ADRES2": "상세 위치", "X_SWIFI_INOUT_DOOR": "실내외 구분"},
        "where the hotspot is", name="X_SWIFI_MAIN_NM"),
    "seoul_bikeList": Askable(
        {"parkingBikeTotCnt": "대여 가능 자전거 수", "rackTotCnt": "거치대 수"}, "bikes free now",
        name="stationName"),
    "seoul_culturalEventInfo": Askable(
        {"PLACE": "장소", "DATE": "일정", "USE_FEE": "이용요금", "USE_TRGT": "이용대상", "STRTDATE": "시작일",
         "END_DATE": "종료일", "IS_FREE": "유무료"}, "where, when, for whom, how much", name="TITLE"),
    # --- codes: a 법정동 or city code is the key for the next call; its names are the user's own.
    "stanregincd_getStanReginCdList": Askable({}, "a code lookup: nothing to ask"),
    "tago_getCtyCodeList": Askable({}, "a code lookup: nothing to ask"),
    "tourapi_areaCode2": Askable({}, "a code lookup: nothing to ask"),
    # --- buses: the number painted on the stop (what a rider types into an app).
    "tago_getSttnNoList": Askable({"nodeno": "정류장 번호"}, "a stop's number", name="nodenm"),
    # --- tourism: where a place is, how to call it; categories are codes (A02060100), the record
    # dates are the portal's, the distance is the pick ("가장 가까운 관광지").
    "tourapi_areaBasedList2": Askable(_TOUR_LIST, "a place's address and phone", name="title"),
    "tourapi_locationBasedList2": Askable(_TOUR_LIST, "a place's address and phone", name="title",
                                          pick={"dist": "거리"}),
    "tourapi_searchFestival2": Askable(
        {**_TOUR_LIST, "eventstartdate": "시작일", "eventenddate": "종료일"}, "when and where a festival is",
        name="title"),
    "tourapi_detailCommon2": Askable({"addr1": "주소", "tel": "전화번호"}, "a place's address and phone",
                                     name="title"),
    "tourapi_detailIntro2": Askable(
        {"restdate": "쉬는 날", "usetime": "이용시간", "restdateculture": "쉬는 날", "usetimeculture": "이용시간",
         "usefee": "이용요금", "eventplace": "행사 장소", "playtime": "공연시간", "checkintime": "입실 시간",
         "checkouttime": "퇴실 시간", "roomcount": "객실 수", "firstmenu": "대표 메뉴", "opentimefood": "영업시간",
         "restdatefood": "쉬는 날", "parking": "주차 시설", "infocenter": "문의처"}, "hours, fees, rooms, menu"),
    # --- the real operations that had no person's noun (natural.USER_NOUNS) and so
    # nothing to ask. A station's hourly rows: no row is "the" figure (a person asks the latest, which no
    # pick says; the province list, airkorea_getCtprvnRltmMesureDnsty, asks it), so nothing is asked here.
    "airkorea_getMsrstnAcctoRltmMesureDnsty": Askable({}, "hourly rows of one station: nothing a pick says"),
    # the Bank of Korea's key indicators: an indicator's latest value (its group and cycle are bookkeeping)
    "ecos_KeyStatisticList": Askable({"DATA_VALUE": "값"}, "an indicator's latest value", name="KEYSTAT_NAME"),
    # mid-range forecasts: one row per region; day 4's figures are what a person plans with (the bounds
    # and later days are the same question again)
    "kma_mid_getMidLandFcst": Askable({"rnSt4Am": "4일 후 오전 강수확률", "wf4Am": "4일 후 오전 날씨"},
                                      "a region's weather in four days"),
    "kma_mid_getMidTa": Askable({"taMin4": "4일 후 최저기온", "taMax4": "4일 후 최고기온"},
                                "a city's temperatures in four days"),
    # medicines: what it is for and how to take it are long texts; the maker is what is asked
    "mfds_getDrbEasyDrugList": Askable({"entpName": "제조사"}, "a medicine's maker", name="itemName"),
    # elections (held out by default): the day of an election, a winner's party and votes
    "nec_getCommonSgCodeList": Askable({"sgVotedate": "선거일"}, "an election's day", name="sgName"),
    "nec_getWinnerInfoInqire": Askable({"jdName": "정당", "dugsu": "득표수", "dugyul": "득표율"},
                                       "a winner's party and votes", name="name"),
    # business registration: whether it is still open (the codes repeat the words)
    "nts_status": Askable({"b_stt": "사업 상태", "tax_type": "과세 유형"}, "a business's status"),
    "nts_validate": Askable({}, "a yes/no check of what the user gave: nothing to ask"),
    # bus arrivals: when the bus comes, how many stops away
    "tago_getSttnAcctoArvlPrearngeInfoList": Askable(
        {"arrprevstationcnt": "남은 정류장 수", "arrtime": "도착 예정 시간"}, "when a bus arrives", name="routeno"),
    "tourapi_searchKeyword2": Askable(_TOUR_LIST, "a sight found by a word", name="title"),
}

@dataclass(frozen=True)
class Weather:
    value: str  # the field holding the figure
    categories: dict[str, tuple[str, str]]  # category code -> (the person's word, the unit said after it)
    when: bool  # the row has a forecast date and time (fcstDate/fcstTime) to say


# What a person asks of a forecast: the temperature, the chance of rain, the humidity, at a time.
# Codes said as words (SKY 1/3/4, PTY 0-4) and wind components are left out: the figure alone would
# be said raw. Units from the KMA guide (``kopa_inspect.apis.kma``): ℃, %, %.
WEATHER: dict[str, Weather] = {
    "kma_getVilageFcst": Weather("fcstValue", {"TMP": ("기온", "도"), "POP": ("강수확률", "퍼센트"),
                                               "REH": ("습도", "퍼센트")}, True),
    "kma_getUltraSrtFcst": Weather("fcstValue", {"T1H": ("기온", "도"), "REH": ("습도", "퍼센트")}, True),
    "kma_getUltraSrtNcst": Weather("obsrValue", {"T1H": ("기온", "도"), "REH": ("습도", "퍼센트")}, False),
}


# The catalog rule (Seoul and Assembly datasets outside the table), on a field's Korean label.
# Denied first: the record's bookkeeping, keys, coordinates, links and private or trivia fields.
_DENY = re.compile(
    r"코드|\bID\b|ID$|관리번호|일련번호|순번|서열|좌표|위도|경도|수정|갱신|등록일|작성일|적재|작업일|입력일|기준일|"
    r"인허가취소|한자|영문|음/양력|생년월일|보좌관|비서관|약력|링크|URL|PDF|상세페이지|우편번호|회기|차수|대수|"
    r"작성자|제안자목록")
# Kept: what describes the place or thing (UNCERTAIN: guessed from the label alone).
_KEEP = re.compile(
    r"명$|명칭|이름|주소|소재지|장소|전화|문의|운영|시간|시각|휴관|요일|요금|이용료|결제|정원|좌석|구획|면적|장서|"
    r"건수|인원|승객수|시작일|종료일|개최일|제안일|의결일|처리결과|결과$|상태명|업태|정당|선거구|위원회|구분|유형|"
    r"분류|종류|홈페이지|이메일|호실|직책|대상|주요시설")
_CATALOG_PLATFORMS = ("seoul", "assembly")


def _label(desc: str) -> str:
    return re.split(r"\s*[(\[]", desc, maxsplit=1)[0].strip()


def catalog_askable(desc: str) -> bool:
    """The rule for a catalog field, on its spec description's Korean label."""
    label = _label(desc)
    return bool(label) and not _DENY.search(label) and bool(_KEEP.search(label))


@lru_cache(maxsize=4096)
def _catalog(op_id: str) -> dict[str, str]:
    try:
        op = get_operation(op_id)
    except KeyError:
        return {}
    if op.platform not in _CATALOG_PLATFORMS:
        return {}
    from edge_synth.describe import field_label  # describe reads this table's words: import late

    return {f: field_label(op_id, f) for f, d in op.output_fields.items() if catalog_askable(d)}


def askable_fields(op_id: str) -> dict[str, str]:
    """field -> the person's word, for every field a person asks of this operation's rows."""
    entry = ASKABLE.get(op_id)
    return entry.ask if entry is not None else _catalog(op_id)


def is_askable(op_id: str, fname: str) -> bool:
    """A field a fact may be read from: the table's (or the catalog rule's), or a forecast's figure
    (asked by its category, WEATHER)."""
    return fname in askable_fields(op_id) or (op_id in WEATHER and WEATHER[op_id].value == fname)


def askable_label(op_id: str, fname: str) -> str | None:
    """The person's word for an askable field ("의사 수", "정류장 번호"); None if not askable."""
    return askable_fields(op_id).get(fname)


def picks_by(op_id: str, fname: str) -> bool:
    """May a row be picked as the largest/smallest by this field? An askable field, or a pick-only
    measure (a distance: "the nearest")."""
    entry = ASKABLE.get(op_id)
    return fname in askable_fields(op_id) or (entry is not None and fname in entry.pick)


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


@lru_cache(maxsize=4096)
def asks_anything(op_id: str) -> bool:
    """Can a leaf of this operation carry a fact at all? A field a person asks (the table's or the
    catalog rule's), a forecast asked by category, or a count of something a person counts. A walk
    should not end on one that cannot (a grid cell lookup, a corp-code list, an ECOS catalogue):
    its row would have nothing to ask and be dropped (the sampler avoids ending there)."""
    return bool(askable_fields(op_id)) or op_id in WEATHER or op_id in COUNTABLE

