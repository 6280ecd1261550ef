"""서울 열린데이터광장 (data.seoul.go.kr) as a catalog: datasets, their columns and their rows.

The real portal serves ~1,000 OpenAPI datasets through one path-style envelope
(the provider's published API guide). We declare real datasets where their service name and
columns are publicly known (따릉이 ``bikeList``/``rentBikeStatus``, ``CardSubwayStatsNew``, ``CardBusStatisticsServiceNew``,
``RealtimeCityAir``, ``TbPublicWifiInfo`` ...) and generate the long tail over themes × 자치구
(인허가 LOCALDATA, 공영주차장, 도서관, 문화행사, 체육시설, 공원). Only ``bikeList`` is confirmed
field-for-field by a recorded response; other real datasets' columns are from memory of the
portal's 명세 (UNCERTAIN, marked per dataset). Generated datasets say so in ``uncertain``.

Rows: static columns depend on the seed only; ``dynamic`` columns (따릉이 parked bikes, air
quality, parking spaces) also on the clock's hour. Datasets with a *key filter* (a date, a
month) get their rows per key value, so every requested day has its own table.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from kopa_inspect.world import World, world_part
from kopa_inspect.world.catalog_values import (
    GU_BY_NAME,
    SEOUL_GU,
    Gu,
    RowContext,
    generate_value,
    make_context,
)

Row = dict[str, str]


@dataclass(frozen=True)
class Column:
    name: str
    description: str
    gen: str
    dynamic: bool = False  # varies with the clock's hour


@dataclass(frozen=True)
class Filter:
    """A positional path argument after END_INDEX (in the portal's declared order)."""

    name: str
    description: str
    column: str  # the row column it filters on
    match: str = "eq"  # eq | contains | prefix
    required: bool = False
    pattern: str | None = None
    key: bool = False  # rows are generated per value of this filter (a date, a month)


@dataclass(frozen=True)
class Dataset:
    service: str  # path segment, e.g. "bikeList"
    title: str  # Korean title as on the portal
    gloss: str  # short English gloss
    columns: tuple[Column, ...]
    filters: tuple[Filter, ...] = ()
    rows: int = 100  # row count (approximate for generated tables)
    root: str | None = None  # JSON/XML root when it differs from the service (bikeList -> rentBikeStatus)
    gu: str | None = None  # per-district dataset: rows belong to this 자치구
    theme: str = "general"
    real: bool = False
    uncertain: str | None = None
    # A key filter's valid values: days (YYYYMMDD) or months (YYYYMM) up to the clock minus a lag.
    key_lag_days: int = 0
    key_window_days: int = 730

    @property
    def envelope_root(self) -> str:
        return self.root or self.service


def C(name: str, description: str, gen: str, dynamic: bool = False) -> Column:
    return Column(name, description, gen, dynamic)


# --- real datasets --------------------------------------------------------------------------

# Subway stations with their real line-station numbers (FR_CODE, 외부코드). STATION_CD = "0" +
# FR_CODE holds for lines 1-4 on the real portal; for line 5 it is UNCERTAIN.
SUBWAY: tuple[tuple[str, str, str], ...] = tuple(
    (line, name, code)
    for line, names, first in (
        ("1", ("서울역", "시청", "종각", "종로3가", "종로5가", "동대문", "신설동", "제기동", "청량리"), 150),
        (
            "2",
            (
                "시청",
                "을지로입구",
                "을지로3가",
                "을지로4가",
                "동대문역사문화공원",
                "신당",
                "상왕십리",
                "왕십리",
                "한양대",
                "뚝섬",
                "성수",
                "건대입구",
                "구의",
                "강변",
                "잠실나루",
                "잠실",
                "잠실새내",
                "종합운동장",
                "삼성",
                "선릉",
                "역삼",
                "강남",
                "교대",
                "서초",
                "방배",
                "사당",
                "낙성대",
                "서울대입구",
                "봉천",
                "신림",
                "신대방",
                "구로디지털단지",
                "대림",
                "신도림",
                "문래",
                "영등포구청",
                "당산",
                "합정",
                "홍대입구",
                "신촌",
                "이대",
                "아현",
                "충정로",
            ),
            201,
        ),
        (
            "3",
            (
                "경복궁",
                "안국",
                "종로3가",
                "을지로3가",
                "충무로",
                "동대입구",
                "약수",
                "금호",
                "옥수",
                "압구정",
                "신사",
                "잠원",
                "고속터미널",
                "교대",
                "남부터미널",
                "양재",
            ),
            327,
        ),
        (
            "4",
            (
                "혜화",
                "동대문",
                "동대문역사문화공원",
                "충무로",
                "명동",
                "회현",
                "서울역",
                "숙대입구",
                "삼각지",
                "신용산",
                "이촌",
                "동작",
                "총신대입구(이수)",
                "사당",
            ),
            420,
        ),
        (
            "5",
            (
                "여의도",
                "여의나루",
                "마포",
                "공덕",
                "애오개",
                "충정로",
                "서대문",
                "광화문",
                "종로3가",
                "을지로4가",
                "동대문역사문화공원",
                "청구",
            ),
            526,
        ),
    )
    for name, code in ((n, str(first + i)) for i, n in enumerate(names))
)

# Seoul city bus routes (real route numbers and 기점~종점 names) and stops along them (real stop names
# in route order, abridged). Route ids (BUS_ROUTE_ID), standard stop ids (STND_BSST_ID) and the ARS
# numbers are SYNTHETIC in the real formats (9 digits; 5 digits whose first two name the 자치구 group).
BUS_ROUTES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "143",
        "143번(정릉~개포동)",
        (
            "정릉청수장:08",
            "정릉시장:08",
            "성신여대입구:08",
            "혜화동로터리:01",
            "종로5가:01",
            "을지로4가:02",
            "한남동:03",
            "신사역:22",
            "강남역:22",
            "역삼역:23",
            "개포동:23",
        ),
    ),
    (
        "150",
        "150번(도봉산~석수역)",
        (
            "도봉산역:10",
            "수유역:09",
            "미아사거리:08",
            "돈암동:08",
            "종로2가:01",
            "서울역:02",
            "용산역:03",
            "노량진역:19",
            "대방역:19",
            "석수역:17",
        ),
    ),
    (
        "262",
        "262번(중랑차고지~여의도)",
        (
            "중랑공영차고지:07",
            "상봉역:07",
            "청량리역:06",
            "신설동:06",
            "동대문:01",
            "을지로입구:02",
            "서울역:02",
            "마포역:14",
            "여의도환승센터:19",
        ),
    ),
    (
        "370",
        "370번(강동차고지~충정로역)",
        (
            "강동공영차고지:25",
            "천호역:25",
            "광나루역:05",
            "건대입구:05",
            "왕십리역:04",
            "동대문역사문화공원:02",
            "광화문:01",
            "서대문역:13",
            "충정로역:13",
        ),
    ),
    (
        "401",
        "401번(장지차고지~광화문)",
        (
            "장지공영차고지:24",
            "가락시장:24",
            "잠실역:24",
            "삼성역:23",
            "강남역:22",
            "반포대교:22",
            "한남동:03",
            "남대문시장:02",
            "광화문:01",
        ),
    ),
    (
        "470",
        "470번(상암차고지~안골마을)",
        (
            "상암동:13",
            "월드컵경기장:13",
            "신촌오거리:13",
            "서울역:02",
            "숭례문:02",
            "용산전쟁기념관:03",
            "반포대교:22",
            "양재역:22",
            "안골마을:22",
        ),
    ),
    (
        "602",
        "602번(양천차고지~시청)",
        (
            "양천공영차고지:15",
            "신월동:15",
            "화곡역:16",
            "강서구청:16",
            "당산역:19",
            "합정역:13",
            "공덕역:14",
            "시청앞:02",
        ),
    ),
    (
        "741",
        "741번(진관차고지~헌인릉)",
        (
            "진관공영차고지:12",
            "연신내역:12",
            "홍제역:13",
            "독립문:13",
            "광화문:01",
            "서울역:02",
            "용산구청:03",
            "한남대교남단:22",
            "양재역:22",
            "헌인릉:22",
        ),
    ),
    (
        "7016",
        "7016번(상명대~은평차고지)",
        ("상명대:01", "세검정:01", "경복궁:01", "광화문:01", "서대문역:13", "독립문:13", "은평공영차고지:12"),
    ),
)
BUS_STOPS: tuple[tuple[int, int, str, str], ...] = tuple(
    (r, s, stop.split(":")[0], stop.split(":")[1])
    for r, (_, _, stops) in enumerate(BUS_ROUTES)
    for s, stop in enumerate(stops)
)
# One id per stop name: a stop served by several routes keeps its ids on every route.
BUS_STOP_SERIAL: dict[str, int] = {
    name: i for i, name in enumerate(dict.fromkeys(stop[2] for stop in BUS_STOPS))
}

AIR_COLS = (
    C("MSRDT", "측정일시 (YYYYMMDDHHMM)", "key", True),
    C("MSRRGN_NM", "권역명", "region"),
    C("MSRSTE_NM", "측정소명 (자치구)", "gu"),
    C("PM10", "미세먼지 PM10 (㎍/㎥)", "int:8:95", True),
    C("PM25", "초미세먼지 PM2.5 (㎍/㎥)", "int:3:60", True),
    C("O3", "오존 (ppm)", "float:0.002:0.070:3", True),
    C("NO2", "이산화질소 (ppm)", "float:0.005:0.060:3", True),
    C("CO", "일산화탄소 (ppm)", "float:0.2:0.9:1", True),
    C("SO2", "아황산가스 (ppm)", "float:0.002:0.006:3", True),
    C("IDEX_NM", "통합대기환경지수 등급", "choice:좋음|보통|보통|나쁨", True),
    C("IDEX_MVL", "통합대기환경지수", "int:25:140", True),
    C("ARPLT_MAIN", "지수결정물질", "choice:PM10|PM25|O3", True),
)

REAL: list[Dataset] = [
    Dataset(
        "bikeList",
        "서울시 공공자전거 실시간 대여정보",
        "Seoul public bike (Ttareungyi) real-time rental status",
        (
            C("rackTotCnt", "거치대 개수", "int:5:30"),
            C("stationName", "대여소 이름 (번호. 이름)", "bike_station"),
            C("parkingBikeTotCnt", "대여 가능 자전거 수", "int:0:25", True),
            C("shared", "거치율 (%)", "shared", True),
            C("stationLatitude", "위도 (WGS84)", "lat:8"),
            C("stationLongitude", "경도 (WGS84)", "lon:8"),
            C("stationId", "대여소 ID (ST-n)", "id:ST-:0"),
        ),
        rows=2_760,
        root="rentBikeStatus",
        theme="교통",
        real=True,
    ),
    Dataset(
        "CardSubwayStatsNew",
        "서울시 지하철호선별 역별 승하차 인원 정보",
        "daily boardings/alightings per subway station",
        (
            C("USE_DT", "사용일자 (YYYYMMDD)", "key"),
            C("LINE_NUM", "호선명", "subway_line"),
            C("SUB_STA_NM", "역명", "subway_name"),
            C("RIDE_PASGR_NUM", "승차총승객수", "int:800:95000"),
            C("ALIGHT_PASGR_NUM", "하차총승객수", "int:800:95000"),
            C("WORK_DT", "등록일자 (YYYYMMDD)", "key_plus3"),
        ),
        filters=(
            Filter(
                "USE_DT",
                "사용일자 YYYYMMDD (3일 전까지 제공)",
                "USE_DT",
                required=True,
                pattern=r"\d{8}",
                key=True,
            ),
            Filter("LINE_NUM", "호선명 (예: 2호선)", "LINE_NUM"),
            Filter("SUB_STA_NM", "역명 (예: 강남)", "SUB_STA_NM"),
        ),
        rows=len(SUBWAY),
        theme="교통",
        real=True,
        key_lag_days=3,
        uncertain="only USE_DT is documented as a positional filter; LINE_NUM/SUB_STA_NM filters UNCERTAIN",
    ),
    Dataset(
        "CardBusStatisticsServiceNew",
        "서울시 버스노선별 정류장별 승하차 인원 정보",
        "daily boardings/alightings per bus route and stop",
        (
            C("USE_DT", "사용일자 (YYYYMMDD)", "key"),
            C("BUS_ROUTE_ID", "노선ID", "bus_route_id"),
            C("BUS_ROUTE_NO", "노선번호", "bus_route_no"),
            C("BUS_ROUTE_NM", "노선명 (번호(기점~종점))", "bus_route_nm"),
            C("STND_BSST_ID", "표준버스정류장ID", "bus_stop_id"),
            C("BSST_ARS_NO", "버스정류장ARS번호", "bus_ars"),
            C("BUS_STA_NM", "역명 (정류장명)", "bus_stop_nm"),
            C("RIDE_PASGR_NUM", "승차총승객수", "int:3:4200"),
            C("ALIGHT_PASGR_NUM", "하차총승객수", "int:3:4200"),
            C("WORK_DT", "등록일자 (YYYYMMDD)", "key_plus3"),
        ),
        filters=(
            Filter(
                "USE_DT",
                "사용일자 YYYYMMDD (3일 전까지 제공)",
                "USE_DT",
                required=True,
                pattern=r"\d{8}",
                key=True,
            ),
            Filter("BUS_ROUTE_NO", "노선번호 (예: 143)", "BUS_ROUTE_NO"),
            Filter("BUS_STA_NM", "정류장명 (예: 강남역)", "BUS_STA_NM"),
        ),
        rows=len(BUS_STOPS),
        theme="교통",
        real=True,
        key_lag_days=3,
        uncertain="only USE_DT is documented as a positional filter; BUS_ROUTE_NO/BUS_STA_NM filters UNCERTAIN; "
        "route ids, stop ids and ARS numbers are synthetic",
    ),
    Dataset(
        "CardSubwayTime",
        "서울시 지하철 호선별 역별 시간대별 승하차 인원 정보",
        "monthly hourly boardings per station",
        (
            C("USE_MON", "사용월 (YYYYMM)", "key"),
            C("LINE_NUM", "호선명", "subway_line"),
            C("SUB_STA_NM", "지하철역", "subway_name"),
            *[
                C(f"{h}_RIDE_NUM", f"{label} 승차인원", "int:100:60000")
                for h, label in (("SEVEN", "07시-08시"), ("EIGHT", "08시-09시"), ("EIGHTEEN", "18시-19시"))
            ],
            *[
                C(f"{h}_ALIGHT_NUM", f"{label} 하차인원", "int:100:60000")
                for h, label in (("SEVEN", "07시-08시"), ("EIGHT", "08시-09시"), ("EIGHTEEN", "18시-19시"))
            ],
            C("WORK_DT", "작업일자", "date:30"),
        ),
        filters=(
            Filter("USE_MON", "사용월 YYYYMM", "USE_MON", required=True, pattern=r"\d{6}", key=True),
            Filter("LINE_NUM", "호선명", "LINE_NUM"),
            Filter("SUB_STA_NM", "지하철역", "SUB_STA_NM"),
        ),
        rows=len(SUBWAY),
        theme="교통",
        real=True,
        key_lag_days=31,
        uncertain="column set abbreviated (the real table has every hour 04-03); names UNCERTAIN",
    ),
    Dataset(
        "SearchSTNBySubwayLineInfo",
        "서울시 지하철역 정보 검색(역명)",
        "subway station search by name/line",
        (
            C("STATION_CD", "전철역코드", "station_cd"),
            C("STATION_NM", "전철역명", "subway_name"),
            C("STATION_NM_ENG", "전철역명(영문)", "const:"),
            C("LINE_NUM", "호선", "subway_line_padded"),
            C("FR_CODE", "외부코드", "subway_code"),
        ),
        filters=(
            Filter("STATION_CD", "전철역코드", "STATION_CD"),
            Filter("STATION_NM", "전철역명", "STATION_NM"),
            Filter("LINE_NUM", "호선 (예: 02호선)", "LINE_NUM"),
        ),
        rows=len(SUBWAY),
        theme="교통",
        real=True,
        uncertain="STATION_NM_ENG left empty",
    ),
    Dataset(
        "RealtimeCityAir",
        "서울시 권역별 실시간 대기환경 현황",
        "real-time air quality per district",
        AIR_COLS,
        filters=(
            Filter("MSRRGN_NM", "권역명 (도심권, 서북권, 동북권, 서남권, 동남권)", "MSRRGN_NM"),
            Filter("MSRSTE_NM", "측정소명 (자치구, 예: 종로구)", "MSRSTE_NM"),
        ),
        rows=25,
        theme="환경",
        real=True,
    ),
    Dataset(
        "TimeAverageAirQuality",
        "서울시 시간 평균 대기오염도 정보",
        "hourly average air pollution per station",
        tuple(c if c.name != "MSRDT" else C("MSRDT", "측정일시 (YYYYMMDDHHMM)", "key") for c in AIR_COLS[:9]),
        filters=(
            Filter(
                "MSRDT_DE",
                "측정일자 YYYYMMDD",
                "MSRDT",
                match="prefix",
                required=True,
                pattern=r"\d{8}",
                key=True,
            ),
            Filter("MSRSTE_NM", "측정소명", "MSRSTE_NM"),
        ),
        rows=25,
        theme="환경",
        real=True,
        uncertain="filter names from memory (UNCERTAIN)",
    ),
    Dataset(
        "TbPublicWifiInfo",
        "서울시 공공와이파이 서비스 위치 정보",
        "public Wi-Fi locations",
        (
            C("X_SWIFI_MGR_NO", "관리번호", "id:WF1:6"),
            C("X_SWIFI_WRDOFC", "자치구", "gu"),
            C("X_SWIFI_MAIN_NM", "와이파이명", "place:공공와이파이"),
            C("X_SWIFI_ADRES1", "도로명주소", "addr"),
            C("X_SWIFI_ADRES2", "상세주소", "choice:1층|2층|정류장|공원 입구|주민센터 앞"),
            C("X_SWIFI_INSTL_FLOOR", "설치위치(층)", "choice:1|2|3|"),
            C(
                "X_SWIFI_INSTL_TY",
                "설치유형",
                "choice:7-1. 공원(하천)|5. 버스정류소|3. 전통시장|4. 주요거리|1. 행정",
            ),
            C("X_SWIFI_INSTL_MBY", "설치기관", "choice:서울시(AP)|자치구|과기부"),
            C("X_SWIFI_SVC_SE", "서비스구분", "choice:공공WiFi|서울시 공공와이파이 S"),
            C("X_SWIFI_CMCWR", "망종류", "choice:자가망|임대망"),
            C("X_SWIFI_CNSTC_YEAR", "설치년도", "year:10"),
            C("X_SWIFI_INOUT_DOOR", "실내외구분", "choice:실내|실외"),
            C("LAT", "Y좌표 (위도)", "lat"),
            C("LNT", "X좌표 (경도)", "lon"),
            C("WORK_DTTM", "작업일자", "datetime:200"),
        ),
        rows=3_000,
        theme="생활",
        real=True,
    ),
    Dataset(
        "culturalEventInfo",
        "서울시 문화행사 정보",
        "Seoul cultural events",
        (
            C(
                "CODENAME",
                "분류",
                "choice:전시/미술|클래식|콘서트|연극|교육/체험|축제-문화/예술|국악|뮤지컬/오페라|무용",
            ),
            C("GUNAME", "자치구", "gu"),
            C("TITLE", "공연/행사명", "event_title"),
            C("DATE", "날짜/시간", "event_period"),
            C("PLACE", "장소", "place:문화센터"),
            C("ORG_NAME", "기관명", "choice:서울문화재단|세종문화회관|서울시립미술관|자치구 문화재단"),
            C("USE_TRGT", "이용대상", "choice:누구나|전체관람가|8세 이상|성인"),
            C("USE_FEE", "이용요금", "choice:무료|10,000원|전석 20,000원|"),
            C("ORG_LINK", "홈페이지 주소", "url:culture.seoul.go.kr"),
            C("RGSTDATE", "신청일", "date_dash:60"),
            C("TICKET", "시민/기관", "choice:시민|기관"),
            C("STRTDATE", "시작일", "event_start"),
            C("END_DATE", "종료일", "event_end"),
            C("THEMECODE", "테마분류", "choice:가족 문화행사|어린이/청소년 문화행사|기타"),
            C("LOT", "경도(Y좌표)", "lon"),
            C("LAT", "위도(X좌표)", "lat"),
            C("IS_FREE", "유무료", "choice:무료|유료"),
        ),
        filters=(
            Filter("CODENAME", "분류 (예: 클래식)", "CODENAME"),
            Filter("TITLE", "공연/행사명 (일부)", "TITLE", match="contains"),
            Filter("DATE", "날짜 YYYY-MM-DD (해당 날짜에 진행 중인 행사)", "DATE", match="during"),
        ),
        rows=900,
        theme="문화",
        real=True,
        uncertain="LOT/LAT are swapped on the real portal (UNCERTAIN which)",
    ),
    Dataset(
        "SeoulPublicLibraryInfo",
        "서울시 공공도서관 현황정보",
        "public libraries",
        (
            C("LBRRY_SEQ_NO", "도서관 일련번호", "seq"),
            C("LBRRY_NAME", "도서관명", "place:도서관"),
            C("GU_CODE", "구 코드", "gu_code"),
            C("CODE_VALUE", "구명", "gu"),
            C("ADRES", "주소", "addr"),
            C("TEL_NO", "전화번호", "tel"),
            C("HMPG_URL", "홈페이지", "url:lib.seoul.go.kr"),
            C("OP_TIME", "운영시간", "choice:09:00~22:00|09:00~18:00|07:00~23:00"),
            C("FDRM_CLOSE_DATE", "정기 휴관일", "choice:매주 월요일|매월 둘째·넷째 월요일|법정공휴일"),
            C("LBRRY_SE_NAME", "도서관 구분", "choice:구립도서관|작은도서관|시립도서관|교육청 도서관"),
            C("XCNTS", "위도", "lat"),
            C("YDNTS", "경도", "lon"),
        ),
        rows=220,
        theme="문화",
        real=True,
    ),
    Dataset(
        "GetParkingInfo",
        "서울시 시영주차장 실시간 주차대수 정보",
        "city car parks with real-time occupancy",
        (
            C("PKLT_CD", "주차장코드", "id:1:6"),
            C("PKLT_NM", "주차장명", "place:공영주차장"),
            C("ADDR", "주소", "jibun"),
            C("PKLT_TYPE", "주차장 종류", "choice:NW|NS"),
            C("PRK_TYPE_NM", "주차장 종류명", "choice:노외 주차장|노상 주차장"),
            C("OPER_SE_NM", "운영구분명", "choice:시간제 주차장|시간제+거주자|거주자 주차장"),
            C("TELNO", "전화번호", "tel"),
            C("TPKCT", "총 주차면", "int:20:400"),
            C("NOW_PRK_VHCL_CNT", "현재 주차 차량수", "int:0:300", True),
            C("NOW_PRK_VHCL_UPDT_TM", "현재 주차 차량수 업데이트시간", "now", True),
            C("PAY_YN_NM", "유무료구분명", "choice:유료|무료"),
            C("BSC_PRK_CRG", "기본 주차 요금", "choice:300|400|500|1000"),
            C("BSC_PRK_HR", "기본 주차 시간(분)", "const:5"),
            C("ADD_PRK_CRG", "추가 단위 요금", "choice:300|400|500|1000"),
            C("ADD_PRK_HR", "추가 단위 시간(분)", "const:5"),
            C("LAT", "위도", "lat"),
            C("LOT", "경도", "lon"),
        ),
        filters=(Filter("ADDR", "주소 (일부, 예: 강남구)", "ADDR", match="contains"),),
        rows=320,
        theme="교통",
        real=True,
        uncertain="field names of the 2023 revision from memory (UNCERTAIN)",
    ),
    Dataset(
        "ListNecessariesPricesService",
        "서울시 생필품 농수축산물 가격 정보",
        "market prices of daily necessities",
        (
            C("P_SEQ", "일련번호", "seq"),
            C("M_SEQ", "시장/마트 번호", "int:1:400"),
            C("M_NAME", "시장/마트 이름", "place:시장"),
            C("A_SEQ", "품목 번호", "int:1:60"),
            C(
                "A_NAME",
                "품목 이름",
                "choice:배추(1포기)|무(1개)|사과(부사, 1개)|달걀(30구)|돼지고기(삼겹살 100g)|쌀(20kg)|고등어(1마리)|양파(1.5kg)",
            ),
            C("A_UNIT", "실판매규격", "choice:1포기|1개|30구|100g|20kg|1마리|1.5kg"),
            C("A_PRICE", "가격(원)", "money:100:9000:10"),
            C("P_YEAR_MONTH", "년도-월", "ym:60"),
            C("P_DATE", "점검일자", "date_dash:60"),
            C("M_TYPE_CODE", "시장유형 구분 코드", "choice:001|002"),
            C("M_TYPE_NAME", "시장유형 구분 이름", "choice:전통시장|대형마트"),
            C("M_GU_CODE", "자치구 코드", "gu_code"),
            C("M_GU_NAME", "자치구 이름", "gu"),
        ),
        filters=(
            Filter("M_NAME", "시장/마트 이름", "M_NAME", match="contains"),
            Filter("A_NAME", "품목 이름", "A_NAME", match="contains"),
        ),
        rows=1_200,
        theme="경제",
        real=True,
        uncertain="positional filters UNCERTAIN",
    ),
    Dataset(
        "tbLnOpendataRtmsV",
        "서울시 부동산 실거래가 정보",
        "Seoul real-estate transactions",
        (
            C("RCPT_YR", "접수연도", "year:3"),
            C("CGG_CD", "자치구코드", "gu_code"),
            C("CGG_NM", "자치구명", "gu"),
            C("STDG_NM", "법정동명", "dong"),
            C("LOTNO_SE_NM", "지번구분명", "choice:대지|산"),
            C("MNO", "본번", "int:1:999"),
            C("SNO", "부번", "int:0:60"),
            C("BLDG_NM", "건물명", "name:아파트"),
            C("CTRT_DAY", "계약일", "date:730"),
            C("THING_AMT", "물건금액(만원)", "money:20000:350000"),
            C("ARCH_AREA", "건물면적(㎡)", "float:20:200:2"),
            C("FLR", "층", "int:1:35"),
            C("ARCH_YR", "건축년도", "year:40"),
            C("BLDG_USG", "건물용도", "choice:아파트|연립다세대|오피스텔|단독다가구"),
            C("DCLR_SE", "신고구분", "choice:중개거래|직거래"),
        ),
        filters=(
            Filter("RCPT_YR", "접수연도 YYYY", "RCPT_YR", pattern=r"\d{4}"),
            Filter("CGG_CD", "자치구코드 (5자리)", "CGG_CD", pattern=r"\d{5}"),
            Filter("CGG_NM", "자치구명", "CGG_NM"),
            Filter("STDG_NM", "법정동명", "STDG_NM"),
            Filter("BLDG_USG", "건물용도", "BLDG_USG"),
        ),
        rows=2_000,
        theme="부동산",
        real=True,
        uncertain="2024 column renaming (RCPT_YR ...) from memory (UNCERTAIN)",
    ),
    Dataset(
        "CrtfcUpsoInfo",
        "서울시 모범음식점 지정 현황",
        "certified model restaurants",
        (
            C("CRTFC_UPSO_MGT_SNO", "인증업소관리번호", "id::7"),
            C("UPSO_NM", "업소명", "name:식당"),
            C("CGG_CODE", "자치구코드", "gu_code"),
            C("CGG_CODE_NM", "자치구명", "gu"),
            C("COB_CODE_NM", "업태명", "choice:한식|중국식|일식|경양식|분식"),
            C("BIZCND_CODE_NM", "업종명", "const:일반음식점"),
            C("OWNER_NM", "대표자명", "masked_person"),
            C("CRTFC_GBN_NM", "인증구분", "const:모범음식점"),
            C("CRTFC_YMD", "지정일자", "date:3000"),
            C("RDN_CODE_NM", "도로명주소", "addr"),
            C("TEL_NO", "전화번호", "tel"),
            C("Y_DNTS", "위도", "lat"),
            C("X_CNTS", "경도", "lon"),
            C("FOOD_MENU", "주된음식", "choice:갈비|냉면|짜장면|초밥|김밥|칼국수|삼계탕"),
        ),
        filters=(
            Filter("CGG_CODE_NM", "자치구명", "CGG_CODE_NM"),
            Filter("UPSO_NM", "업소명", "UPSO_NM", match="contains"),
        ),
        rows=700,
        theme="식품",
        real=True,
        uncertain="positional filters UNCERTAIN",
    ),
    Dataset(
        "SearchPublicToiletPOIService",
        "서울시 공중화장실 위치정보",
        "public toilets",
        (
            C("POI_ID", "POI ID", "id::9"),
            C("FNAME", "명칭", "place:공중화장실"),
            C("ANAME", "구분", "choice:민간개방화장실|공중화장실|지하철역"),
            C("CNAME", "자치구", "gu"),
            C("X_WGS84", "경도", "lon"),
            C("Y_WGS84", "위도", "lat"),
            C("INSERTDATE", "등록일", "date_dash:3000"),
            C("UPDATEDATE", "수정일", "date_dash:500"),
        ),
        rows=1_500,
        theme="생활",
        real=True,
    ),
    Dataset(
        "busStopLocationXyInfo",
        "서울시 버스정류소 위치정보",
        "bus stop locations",
        (
            C("STOPS_NO", "정류소번호 (ARS)", "ars"),
            C("STOPS_NM", "정류소명", "place:정류장"),
            C("XCRD", "X좌표 (경도)", "lon:7"),
            C("YCRD", "Y좌표 (위도)", "lat:7"),
            C("NODE_ID", "노드 ID", "id:10000:5"),
            C("STOPS_TYPE", "정류소 타입", "choice:가로변시간|중앙차로|가로변전일"),
        ),
        filters=(Filter("STOPS_NO", "정류소번호", "STOPS_NO"),),
        rows=2_500,
        theme="교통",
        real=True,
        uncertain="filter UNCERTAIN",
    ),
    Dataset(
        "ChildCareInfo",
        "서울시 어린이집 정보",
        "day-care centres",
        (
            C("SIGUNNAME", "시군구명", "gu"),
            C("STCODE", "어린이집코드", "id:11:9"),
            C("CRNAME", "어린이집명", "name:어린이집"),
            C("CRTYPENAME", "어린이집유형", "choice:국공립|민간|가정|직장|사회복지법인"),
            C("CRSTATUSNAME", "운영현황", "choice:정상|정상|휴지"),
            C("CRADDR", "주소", "addr"),
            C("CRTELNO", "전화번호", "tel"),
            C("CRCAPAT", "정원", "int:15:120"),
            C("CRCHCNT", "현원", "int:5:110"),
            C("LA", "위도", "lat"),
            C("LO", "경도", "lon"),
            C("CRCARGBNAME", "통학차량운영여부", "choice:운영|미운영"),
        ),
        filters=(Filter("SIGUNNAME", "시군구명", "SIGUNNAME"),),
        rows=1_800,
        theme="복지",
        real=True,
        uncertain="service name and columns from memory (UNCERTAIN)",
    ),
]

RESERVATION_COLS = (
    C("GUBUN", "서비스구분", "choice:자체|연계"),
    C("SVCID", "서비스ID", "id:S2:8"),
    C("MAXCLASSNM", "대분류명", "key"),
    C("MINCLASSNM", "소분류명", "reservation_min"),
    C("SVCSTATNM", "서비스상태", "choice:접수중|안내중|예약마감|접수종료"),
    C("SVCNM", "서비스명", "reservation_name"),
    C("PAYATNM", "결제방법", "choice:무료|유료"),
    C("PLACENM", "장소명", "place:센터"),
    C("USETGTINFO", "서비스대상", "choice:제한없음|성인|어린이|가족"),
    C("SVCURL", "바로가기URL", "url:yeyak.seoul.go.kr"),
    C("X", "장소X좌표 (경도)", "lon"),
    C("Y", "장소Y좌표 (위도)", "lat"),
    C("SVCOPNBGNDT", "서비스개시시작일시", "datetime:60"),
    C("SVCOPNENDDT", "서비스개시종료일시", "future:120"),
    C("AREANM", "지역명", "gu"),
    C("TELNO", "전화번호", "tel"),
    C("V_MIN", "서비스이용 시작시간", "choice:06:00|09:00|10:00"),
    C("V_MAX", "서비스이용 종료시간", "choice:18:00|21:00|22:00"),
    C("REVSTDDAYNM", "취소기간 기준정보", "choice:이용일|접수일"),
    C("REVSTDDAY", "취소기간 기준일까지", "int:1:7"),
)
for _svc, _cls, _gloss in (
    ("ListPublicReservationSport", "체육시설", "sports facilities"),
    ("ListPublicReservationCulture", "문화체험", "cultural programmes"),
    ("ListPublicReservationEducation", "교육강좌", "education courses"),
    ("ListPublicReservationInstitution", "시설대관", "venue rental"),
    ("ListPublicReservationMedical", "진료", "medical services"),
):
    REAL.append(
        Dataset(
            _svc,
            f"서울시 공공서비스예약 {_cls} 정보",
            f"public service reservations: {_gloss}",
            RESERVATION_COLS,
            filters=(Filter("MINCLASSNM", "소분류명", "MINCLASSNM"),),
            rows=400,
            theme="공공서비스예약",
            real=True,
            uncertain="MINCLASSNM positional filter UNCERTAIN",
        )
    )

# --- generated: 인허가 (LOCALDATA) × 자치구 -----------------------------------------------------

# 개방서비스 ids of localdata.go.kr as the Seoul portal's LOCALDATA_<id>_<gu> services. The ids
# and the per-district suffix scheme are UNCERTAIN (from memory); the columns are the common
# LOCALDATA layout.
LOCALDATA_KINDS: tuple[tuple[str, str, str, str], ...] = (
    ("072404", "일반음식점", "general restaurants", "한식|중국식|일식|경양식|분식|호프/통닭|기타"),
    ("072405", "휴게음식점", "cafés and snack bars", "커피숍|기타 휴게음식점|패스트푸드|편의점|아이스크림"),
    ("072218", "제과점영업", "bakeries", "제과점영업"),
    ("072304", "단란주점영업", "karaoke bars", "단란주점"),
    ("072206", "집단급식소", "institutional kitchens", "학교|병원|사회복지시설|산업체"),
    ("031101", "숙박업", "lodging", "일반숙박업|생활숙박업|여관업"),
    ("051801", "이용업", "barbershops", "이용업"),
    ("051901", "미용업", "beauty salons", "일반미용업|피부미용업|네일미용업|종합미용업"),
    ("052001", "세탁업", "laundries", "일반세탁업|셀프빨래방"),
    ("010101", "병원", "hospitals", "병원|요양병원|종합병원"),
    ("010201", "의원", "clinics", "의원|치과의원|한의원"),
    ("020301", "약국", "pharmacies", "약국"),
    ("061101", "안경업", "opticians", "안경업"),
    ("091101", "체력단련장업", "fitness centres", "체력단련장업"),
    ("090501", "노래연습장업", "karaoke rooms", "노래연습장업"),
    ("091901", "인터넷컴퓨터게임시설제공업", "PC rooms", "인터넷컴퓨터게임시설제공업"),
    ("121101", "동물병원", "animal hospitals", "동물병원"),
    ("114301", "건강기능식품일반판매업", "health-food shops", "건강기능식품일반판매업"),
    ("100101", "담배소매업", "tobacco retailers", "일반소매인|구내소매인"),
    ("080101", "공연장", "performance halls", "공연장"),
    ("072209", "즉석판매제조가공업", "ready-to-eat food makers", "즉석판매제조가공업"),
    ("051701", "목욕장업", "public baths", "공중목욕업|찜질시설서비스영업"),
    ("010601", "산후조리업", "postnatal care centres", "산후조리업"),
    ("130101", "의료기기판매업", "medical device sellers", "의료기기판매(임대)업"),
)

LOCALDATA_COLS = (
    C("OPNSFTEAMCODE", "개방자치단체코드", "opn_code"),
    C("MGTNO", "관리번호", "mgtno"),
    C("APVPERMYMD", "인허가일자", "date:9000"),
    C("APVCANCELYMD", "인허가취소일자", "const:"),
    C("TRDSTATEGBN", "영업상태코드 (01 영업/정상, 03 폐업)", "trdstate"),
    C("TRDSTATENM", "영업상태명", "trdstate_nm"),
    C("DTLSTATEGBN", "상세영업상태코드", "dtlstate"),
    C("DTLSTATENM", "상세영업상태명", "dtlstate_nm"),
    C("DCBYMD", "폐업일자", "dcb"),
    C("SITETEL", "전화번호", "tel"),
    C("SITEAREA", "소재지면적(㎡)", "float:10:400:2"),
    C("SITEWHLADDR", "지번주소", "jibun"),
    C("RDNWHLADDR", "도로명주소", "addr"),
    C("RDNPOSTNO", "도로명우편번호", "int:1000:8999"),
    C("BPLCNM", "사업장명", "bplcnm"),
    C("LASTMODTS", "최종수정일자", "datetime:400"),
    C("UPDATEGBN", "데이터갱신구분", "choice:I|U"),
    C("UPDATEDT", "데이터갱신일자", "datetime:30"),
    C("UPTAENM", "업태구분명", "uptae"),
    C("X", "좌표정보(X) 중부원점TM", "tm_x"),
    C("Y", "좌표정보(Y) 중부원점TM", "tm_y"),
)
LOCALDATA_FILTERS = (
    Filter("TRDSTATEGBN", "영업상태코드 (01 영업/정상, 02 휴업, 03 폐업)", "TRDSTATEGBN", pattern=r"\d{2}"),
    Filter("BPLCNM", "사업장명 (일부)", "BPLCNM", match="contains"),
)

GENERATED: list[Dataset] = []
for _code, _kind, _gloss, _uptae in LOCALDATA_KINDS:
    for _gu in SEOUL_GU:
        GENERATED.append(
            Dataset(
                f"LOCALDATA_{_code}_{_gu.abbr}",
                f"서울시 {_gu.name} {_kind} 인허가 정보",
                f"{_gu.name} licensed {_gloss}",
                LOCALDATA_COLS,
                filters=LOCALDATA_FILTERS,
                rows=0,
                gu=_gu.name,
                theme=f"인허가:{_kind}:{_uptae}",
                uncertain="generated catalog dataset: LOCALDATA id scheme UNCERTAIN",
            )
        )

# --- generated: 공공시설 themes × 자치구 ----------------------------------------------------------

THEMES: tuple[tuple[str, str, str, tuple[Column, ...], tuple[Filter, ...]], ...] = (
    (
        "PublicParkingInfo",
        "공영주차장 현황",
        "public car parks",
        (
            C("PRK_PLCE_NO", "주차장관리번호", "id:PK:5"),
            C("PRK_PLCE_NM", "주차장명", "place:공영주차장"),
            C("GU_NM", "자치구", "gu"),
            C("ADDR", "소재지 도로명주소", "addr"),
            C("PRK_CMPRT_CO", "주차구획수", "int:10:500"),
            C("OPER_DAY", "운영요일", "choice:평일+토요일|평일+토요일+공휴일"),
            C("WEEKDAY_OPER_OPEN_HHMM", "평일 운영 시작시각", "choice:00:00|07:00|09:00"),
            C("WEEKDAY_OPER_COLSE_HHMM", "평일 운영 종료시각", "choice:23:59|21:00|19:00"),
            C("PARKINGCHRGE_INFO", "요금정보", "choice:유료|무료|혼합"),
            C("BASIC_CHARGE", "주차기본요금", "choice:300|500|1000"),
            C("PHONE_NUMBER", "전화번호", "tel"),
            C("LAT", "위도", "lat"),
            C("LNG", "경도", "lon"),
        ),
        (Filter("PRK_PLCE_NM", "주차장명 (일부)", "PRK_PLCE_NM", match="contains"),),
    ),
    (
        "LibraryInfo",
        "도서관 현황",
        "libraries",
        (
            C("LBRRY_CD", "도서관코드", "id:LB:5"),
            C("LBRRY_NM", "도서관명", "place:도서관"),
            C("GU_NM", "자치구", "gu"),
            C("ADDR", "주소", "addr"),
            C("TELNO", "전화번호", "tel"),
            C("CLOSE_DAY", "휴관일", "choice:매주 월요일|매주 금요일|법정공휴일"),
            C("BOOK_CO", "장서수", "int:3000:150000"),
            C("SEAT_CO", "열람좌석수", "int:20:600"),
            C("LAT", "위도", "lat"),
            C("LNG", "경도", "lon"),
        ),
        (Filter("LBRRY_NM", "도서관명 (일부)", "LBRRY_NM", match="contains"),),
    ),
    (
        "CultureEventInfo",
        "문화행사 일정",
        "cultural events",
        (
            C("EVENT_ID", "행사ID", "id:EV:6"),
            C("EVENT_NM", "행사명", "event_title"),
            C("GU_NM", "자치구", "gu"),
            C("PLACE", "장소", "place:아트홀"),
            C("CATEGORY", "분류", "choice:공연|전시|축제|교육"),
            C("BEGIN_DE", "시작일", "event_start"),
            C("END_DE", "종료일", "event_end"),
            C("FEE", "요금", "choice:무료|5,000원|10,000원"),
            C("INQRY_TELNO", "문의처", "tel"),
        ),
        (
            Filter("CATEGORY", "분류 (공연, 전시, 축제, 교육)", "CATEGORY"),
            Filter("EVENT_NM", "행사명 (일부)", "EVENT_NM", match="contains"),
        ),
    ),
    (
        "SportsFacilityInfo",
        "공공체육시설 현황",
        "public sports facilities",
        (
            C("FCLTY_ID", "시설ID", "id:SF:5"),
            C("FCLTY_NM", "시설명", "place:체육센터"),
            C("GU_NM", "자치구", "gu"),
            C("FCLTY_TY", "시설유형", "choice:수영장|축구장|테니스장|다목적체육관|풋살장|배드민턴장"),
            C("ADDR", "주소", "addr"),
            C("TELNO", "전화번호", "tel"),
            C("RSRV_YN", "예약가능여부", "yn"),
            C("LAT", "위도", "lat"),
            C("LNG", "경도", "lon"),
        ),
        (Filter("FCLTY_TY", "시설유형 (예: 수영장)", "FCLTY_TY"),),
    ),
    (
        "ParkInfo",
        "공원 현황",
        "parks",
        (
            C("PARK_ID", "공원ID", "id:PA:5"),
            C("PARK_NM", "공원명", "place:근린공원"),
            C("GU_NM", "자치구", "gu"),
            C("PARK_SE", "공원구분", "choice:근린공원|어린이공원|소공원|체육공원|수변공원"),
            C("AREA", "면적(㎡)", "int:500:300000"),
            C("ADDR", "소재지", "jibun"),
            C("MAIN_FCLTY", "주요시설", "choice:산책로, 운동기구|놀이터, 벤치|배드민턴장, 화장실"),
            C("MNG_TELNO", "관리기관 전화번호", "tel"),
            C("LAT", "위도", "lat"),
            C("LNG", "경도", "lon"),
        ),
        (Filter("PARK_SE", "공원구분", "PARK_SE"),),
    ),
)

for _suffix, _title, _gloss, _cols, _filters in THEMES:
    for _gu in SEOUL_GU:
        GENERATED.append(
            Dataset(
                f"{_gu.abbr}{_suffix}",
                f"서울시 {_gu.name} {_title}",
                f"{_gu.name} {_gloss}",
                _cols,
                filters=_filters,
                rows=0,
                gu=_gu.name,
                theme=_title,
                uncertain="generated catalog dataset (not a real service name)",
            )
        )

DATASETS: tuple[Dataset, ...] = (*REAL, *GENERATED)
BY_SERVICE: dict[str, Dataset] = {d.service: d for d in DATASETS}
if len(BY_SERVICE) != len(DATASETS):  # pragma: no cover - a catalog typo
    raise ValueError("duplicate Seoul service name in the catalog")


# --- rows ---------------------------------------------------------------------------------------

EVENT_WORDS = ("봄", "가을", "한여름밤", "겨울", "시민", "청년", "가족", "어린이", "우리동네", "한강")
EVENT_KINDS = (
    "음악회",
    "사진전",
    "문화축제",
    "인문학 강좌",
    "뮤지컬 갈라",
    "국악 한마당",
    "미술 특별전",
    "영화제",
    "재즈 콘서트",
)


def _transit_special(spec: str, ctx: RowContext) -> str | None:
    """The subway and bus columns: a row's line, station, route and stop, by the row's index."""
    if spec.startswith("subway_"):
        line, name, code = SUBWAY[ctx.index % len(SUBWAY)]
        return {
            "subway_line": f"{line}호선",
            "subway_line_padded": f"0{line}호선",
            "subway_name": name,
            "subway_code": code,
        }[spec]
    if spec.startswith("bus_"):
        r, _, stop, ars_group = BUS_STOPS[ctx.index % len(BUS_STOPS)]
        route_no, route_nm, _ = BUS_ROUTES[r]
        serial = BUS_STOP_SERIAL[stop]
        return {
            "bus_route_id": f"{100100000 + 11 * r + 1:09d}",
            "bus_route_no": route_no,
            "bus_route_nm": route_nm,
            "bus_stop_id": f"{100000000 + 1000 * int(ars_group) + serial:09d}",
            "bus_ars": f"{ars_group}{serial:03d}",
            "bus_stop_nm": stop,
        }[spec]
    if spec == "station_cd":
        return "0" + SUBWAY[ctx.index % len(SUBWAY)][2]
    return None


def _special(spec: str, ds: Dataset, rng, ctx: RowContext, row: Row) -> str | None:  # noqa: ANN001
    """Generators that need the dataset or the row so far; None: not special."""
    if spec == "bike_station":
        if rng.random() < 0.4:
            station = SUBWAY[rng.randrange(len(SUBWAY))][1]
            return (
                f"{ctx.index + 101}. {station}역 {rng.randint(1, 8)}번출구 {rng.choice(('앞', '뒤', '옆'))}"
            )
        place = ctx.dong
        return f"{ctx.index + 101}. {place} {rng.choice(('주민센터 앞', '사거리', '버스정류장 옆', '어린이공원 입구', '우체국 앞'))}"
    if spec == "shared":
        rack = int(row.get("rackTotCnt") or 10)
        return str(round(100 * int(row.get("parkingBikeTotCnt") or 0) / max(rack, 1)))
    transit = _transit_special(spec, ctx)
    if transit is not None:
        return transit
    if spec == "key_plus3":
        try:
            return (datetime.strptime(ctx.key or "", "%Y%m%d") + timedelta(days=3)).strftime("%Y%m%d")
        except ValueError:
            return ""
    if spec == "now":
        return ctx.extra["now"] if ctx.extra else ""
    if spec == "ars":
        return f"{int(ctx.gu.code[2:4]):02d}{ctx.index % 1000:03d}"
    if spec == "event_title":
        return f"{rng.choice(EVENT_WORDS)} {rng.choice(EVENT_KINDS)}"
    if spec in ("event_start", "event_end", "event_period"):
        if not ctx.extra or "start" not in ctx.extra:  # one period per row, shared by its columns
            start = ctx.today + timedelta(days=rng.randint(-40, 60))
            end = start + timedelta(days=rng.choice((0, 0, 1, 2, 6, 13, 30)))
            ctx.extra = {**(ctx.extra or {}), "start": start, "end": end}
        start, end = ctx.extra["start"], ctx.extra["end"]
        return {
            "event_start": f"{start:%Y-%m-%d} 00:00:00.0",
            "event_end": f"{end:%Y-%m-%d} 00:00:00.0",
            "event_period": f"{start:%Y-%m-%d}~{end:%Y-%m-%d}",
        }[spec]
    if spec == "reservation_min":
        return rng.choice(
            {
                "체육시설": ("축구장", "테니스장", "풋살장", "배드민턴장"),
                "문화체험": ("공연", "전시/관람", "체험"),
                "교육강좌": ("정보통신", "교양/어학", "자연/과학"),
                "시설대관": ("강당", "회의실", "다목적실"),
                "진료": ("검진", "상담"),
            }.get(ctx.key or "", ("기타",))
        )
    if spec == "reservation_name":
        return f"[{ctx.gu.name}] {row.get('MINCLASSNM', '')} {rng.choice(('이용 안내', '예약', '프로그램', '정기 대관'))}".strip()
    if spec == "opn_code":
        return f"{int(ctx.gu.code) * 100 + 0:07d}"[:7]
    if spec == "mgtno":
        return f"{ctx.gu.code[:2]}{ctx.gu.code[2:]}{rng.randint(2000, 2026)}{rng.randint(0, 99999):05d}"
    if spec in ("trdstate", "trdstate_nm", "dtlstate", "dtlstate_nm", "dcb"):
        state = ctx.extra.get("state") if ctx.extra else None
        if state is None:
            state = rng.choices(("01", "02", "03"), weights=(62, 3, 35))[0]
            ctx.extra = {**(ctx.extra or {}), "state": state}
        return {
            "trdstate": state,
            "trdstate_nm": {"01": "영업/정상", "02": "휴업", "03": "폐업"}[state],
            "dtlstate": {"01": "01", "02": "03", "03": "02"}[state],
            "dtlstate_nm": {"01": "영업", "02": "휴업", "03": "폐업"}[state],
            "dcb": (ctx.today - timedelta(days=rng.randint(1, 3000))).strftime("%Y%m%d")
            if state == "03"
            else "",
        }[spec]
    if spec == "bplcnm":
        kind = ds.theme.split(":")[1] if ds.theme.startswith("인허가:") else ""
        suffix = {
            "일반음식점": "식당",
            "휴게음식점": "카페",
            "제과점영업": "베이커리",
            "숙박업": "모텔",
            "미용업": "헤어",
            "약국": "약국",
            "의원": "의원",
            "병원": "병원",
            "동물병원": "동물병원",
            "체력단련장업": "피트니스",
            "노래연습장업": "노래연습장",
            "인터넷컴퓨터게임시설제공업": "PC방",
            "안경업": "안경원",
            "목욕장업": "사우나",
            "산후조리업": "산후조리원",
            "의료기기판매업": "메디칼",
        }.get(kind, "")
        return f"{rng.choice(('한빛', '푸른', '새봄', '다온', '행복', '미래', '솔빛', '가온', '청솔', '우리', '하늘'))}{ctx.dong[:2]}{suffix}"
    if spec == "uptae":
        return rng.choice(ds.theme.split(":")[2].split("|")) if ds.theme.startswith("인허가:") else ""
    return None


def _row_count(ds: Dataset, world: World) -> int:
    if ds.rows:
        return ds.rows
    base = 40 if ds.theme.startswith("인허가") else 12
    return base + world.rng("seoul.count", ds.service).randint(0, base * 4)


def _generate(world: World, ds: Dataset, key: str | None) -> list[Row]:
    today: date = world.clock.date()
    hour = world.clock.strftime("%Y%m%d%H")
    gu = GU_BY_NAME.get(ds.gu) if ds.gu else None
    n = _row_count(ds, world)
    if ds.service.startswith("ListPublicReservation"):
        key = ds.title.split()[-2]  # the 대분류 (체육시설, 문화체험 ...) keys the 소분류 choices
    rows: list[Row] = []
    # One stream per table (and per hour, per key value): a table is always built whole, so
    # row i is fixed by (seed, service[, hour | key]) without paying a stream per row.
    static = world.rng("seoul.rows", ds.service)
    dyn = world.rng("seoul.dyn", ds.service, hour)
    keyed = world.rng("seoul.key", ds.service, key)
    for i in range(n):
        row_gu: Gu | None = gu
        if row_gu is None and ds.service in ("RealtimeCityAir", "TimeAverageAirQuality"):
            row_gu = SEOUL_GU[i % len(SEOUL_GU)]
        ctx = make_context(static, i, today, row_gu, key)
        if ds.service in ("RealtimeCityAir",):
            ctx.key = world.clock.strftime("%Y%m%d%H00")
        if ds.service == "TimeAverageAirQuality" and key:
            ctx.key = key + world.rng("seoul.hour", key).choice(("0100", "0900", "1300", "1800"))
        ctx.extra = {"now": world.clock.strftime("%Y-%m-%d %H:%M:%S")}
        row: Row = {}
        for col in ds.columns:
            rng = (
                dyn
                if col.dynamic
                else (keyed if key and not col.dynamic and _keyed_column(ds, col) else static)
            )
            value = _special(col.gen, ds, rng, ctx, row)
            row[col.name] = value if value is not None else generate_value(col.gen, rng, ctx)
        if ds.service == "bikeList":
            rack = int(row["rackTotCnt"])
            parked = min(int(row["parkingBikeTotCnt"]), rack + 5)
            row["parkingBikeTotCnt"] = str(parked)
            row["shared"] = str(round(100 * parked / rack))
        if ds.service == "GetParkingInfo":
            row["NOW_PRK_VHCL_CNT"] = str(min(int(row["NOW_PRK_VHCL_CNT"]), int(row["TPKCT"])))
        rows.append(row)
    return rows


def _keyed_column(ds: Dataset, col: Column) -> bool:
    """Columns whose values change per key value (counts of a day), not per row identity."""
    return col.gen.startswith(("int:", "float:", "money:"))


def key_is_published(ds: Dataset, key: str, today: date) -> bool:
    """A date/month key has data only inside the portal's window (lagging the clock)."""
    try:
        if len(key) == 8:
            day = datetime.strptime(key, "%Y%m%d").date()
            latest = today - timedelta(days=ds.key_lag_days)
            return latest - timedelta(days=ds.key_window_days) <= day <= latest
        if len(key) == 6:
            month = datetime.strptime(key + "01", "%Y%m%d").date()
            latest = (today - timedelta(days=ds.key_lag_days)).replace(day=1)
            return latest - timedelta(days=ds.key_window_days) <= month <= latest
    except ValueError:
        return False
    return True


class SeoulCatalog:
    """Rows of every dataset in one world, built on first use and cached."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._rows: dict[tuple[str, str | None], list[Row]] = {}
        self._lock = threading.Lock()

    def rows(self, service: str, key: str | None = None) -> list[Row]:
        ds = BY_SERVICE[service]
        if key is not None and not key_is_published(ds, key, self.world.clock.date()):
            return []
        slot = (service, key)
        cached = self._rows.get(slot)
        if cached is not None:
            return cached
        rows = _generate(self.world, ds, key)
        with self._lock:
            self._rows.setdefault(slot, rows)
        return self._rows[slot]


@world_part("seoul_catalog")
def build_seoul_catalog(world: World) -> SeoulCatalog:
    return SeoulCatalog(world)


def row_matches(ds: Dataset, row: Row, filters: dict[str, str]) -> bool:
    for f in ds.filters:
        want = filters.get(f.name)
        if want in (None, "") or f.key:
            continue
        have = row.get(f.column, "")
        if f.match == "contains":
            if want not in have:
                return False
        elif f.match == "prefix":
            if not have.startswith(want):
                return False
        elif f.match == "during":
            period = row.get("DATE", "")
            start, _, end = period.partition("~")
            if not (start <= want <= (end or start)):
                return False
        elif have != want:
            return False
    return True
