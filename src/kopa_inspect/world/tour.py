"""Tourist content for TourAPI (한국관광공사 KorService2): attractions, culture, festivals, food, stays.

Real, well-known public places (경복궁, 해운대해수욕장, 성산일출봉 ...) with their real addresses and
approximate real coordinates, plus plausible synthetic places (restaurants, lodgings, parks,
markets, local festivals) around every 시군구 the regions table knows. Places are static per
seed; festival dates follow the world's clock (real festivals on their usual dates in the
clock's year, synthetic ones spread around the clock) so that "this weekend's festival" always
has answers.

TourAPI's own code systems (the provider's published API guide): the legacy areaCode (1 서울, 6 부산,
39 제주 ...) and sigunguCode (1..N in 가나다 order within an area, with historical gaps and names
such as 남제주군), which are NOT 법정동 codes, and the newer lDongRegnCd (2-digit 시도) /
lDongSignguCd (3-digit 시군구) which are. UNCERTAIN: the sigungu lists below are from memory of
the real areaCode2 answers (alphabetical with historical entries kept); lDongSignguCd as the
3-digit part is inferred from the manual's "44 / 44150 공주" example.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from kopa_inspect.world import World, world_part
from kopa_inspect.world import regions as rg

# --- TourAPI area codes ------------------------------------------------------------------


@dataclass(frozen=True)
class TourArea:
    code: str  # TourAPI areaCode
    name: str  # as areaCode2 names it
    sido_cd: str  # 법정동 시도 code (lDongRegnCd)
    sigungu: tuple[str, ...]  # index + 1 = sigunguCode; "" marks a retired code


def _sg(text: str) -> tuple[str, ...]:
    return tuple("" if t == "-" else t for t in text.split())


AREAS: tuple[TourArea, ...] = (
    TourArea(
        "1",
        "서울",
        "11",
        _sg(
            "강남구 강동구 강북구 강서구 관악구 광진구 구로구 금천구 노원구 도봉구 동대문구 동작구 마포구 서대문구 "
            "서초구 성동구 성북구 송파구 양천구 영등포구 용산구 은평구 종로구 중구 중랑구"
        ),
    ),
    TourArea("2", "인천", "28", _sg("강화군 계양구 미추홀구 남동구 동구 부평구 서구 연수구 옹진군 중구")),
    TourArea("3", "대전", "30", _sg("대덕구 동구 서구 유성구 중구")),
    TourArea("4", "대구", "27", _sg("남구 달서구 달성군 동구 북구 서구 수성구 중구 군위군")),
    TourArea("5", "광주", "29", _sg("광산구 남구 동구 북구 서구")),
    TourArea(
        "6",
        "부산",
        "26",
        _sg(
            "강서구 금정구 기장군 남구 동구 동래구 부산진구 북구 사상구 사하구 서구 수영구 연제구 영도구 중구 해운대구"
        ),
    ),
    # UNCERTAIN: 울산's order (중구 first) is remembered, not verified.
    TourArea("7", "울산", "31", _sg("중구 남구 동구 북구 울주군")),
    TourArea("8", "세종특별자치시", "36", _sg("세종특별자치시")),
    TourArea(
        "31",
        "경기도",
        "41",
        _sg(
            "가평군 고양시 과천시 광명시 광주시 구리시 군포시 김포시 남양주시 동두천시 부천시 성남시 수원시 시흥시 "
            "안산시 안성시 안양시 양주시 양평군 여주시 연천군 오산시 용인시 의왕시 의정부시 이천시 파주시 평택시 "
            "포천시 하남시 화성시"
        ),
    ),
    TourArea(
        "32",
        "강원특별자치도",
        "51",
        _sg(
            "강릉시 고성군 동해시 삼척시 속초시 양구군 양양군 영월군 원주시 인제군 정선군 철원군 춘천시 태백시 "
            "평창군 홍천군 화천군 횡성군"
        ),
    ),
    TourArea(
        "33",
        "충청북도",
        "43",
        _sg("괴산군 단양군 보은군 영동군 옥천군 음성군 제천시 진천군 청원군 청주시 충주시 증평군"),
    ),
    TourArea(
        "34",
        "충청남도",
        "44",
        _sg(
            "공주시 금산군 논산시 당진시 보령시 부여군 서산시 서천군 아산시 - 예산군 천안시 청양군 태안군 홍성군 계룡시"
        ),
    ),
    TourArea(
        "35",
        "경상북도",
        "47",
        _sg(
            "경산시 경주시 고령군 구미시 군위군 김천시 문경시 봉화군 상주시 성주군 안동시 영덕군 영양군 영주시 "
            "영천시 예천군 울릉군 울진군 의성군 청도군 청송군 칠곡군 포항시"
        ),
    ),
    TourArea(
        "36",
        "경상남도",
        "48",
        _sg(
            "거제시 거창군 고성군 김해시 남해군 마산시 밀양시 사천시 산청군 양산시 - 의령군 진주시 진해시 창녕군 "
            "창원시 통영시 하동군 함안군 함양군 합천군"
        ),
    ),
    TourArea(
        "37",
        "전북특별자치도",
        "52",
        _sg(
            "고창군 군산시 김제시 남원시 무주군 부안군 순창군 완주군 익산시 임실군 장수군 전주시 정읍시 진안군"
        ),
    ),
    TourArea(
        "38",
        "전라남도",
        "46",
        _sg(
            "강진군 고흥군 곡성군 광양시 구례군 나주시 담양군 목포시 무안군 보성군 순천시 신안군 여수시 - - "
            "영광군 영암군 완도군 장성군 장흥군 진도군 함평군 해남군 화순군"
        ),
    ),
    TourArea("39", "제주도", "50", _sg("남제주군 북제주군 서귀포시 제주시")),
)

AREA_BY_CODE = {a.code: a for a in AREAS}
AREA_BY_SIDO = {a.sido_cd: a for a in AREAS}

CONTENT_TYPES: dict[str, str] = {
    "12": "관광지",
    "14": "문화시설",
    "15": "축제공연행사",
    "25": "여행코스",
    "28": "레포츠",
    "32": "숙박",
    "38": "쇼핑",
    "39": "음식점",
}

# (cat1, cat2, cat3, lclsSystm1, lclsSystm2, lclsSystm3) defaults per content type.
# UNCERTAIN: lclsSystm codes beyond the manual's NA04/NA040500 example are plausible guesses.
_CATS: dict[str, tuple[str, str, str, str, str, str]] = {
    "12": ("A01", "A0101", "A01010500", "NA", "NA01", "NA010100"),
    "14": ("A02", "A0206", "A02060100", "VE", "VE07", "VE070100"),
    "15": ("A02", "A0207", "A02070200", "EV", "EV01", "EV010100"),
    "28": ("A03", "A0302", "A03022700", "LS", "LS02", "LS020100"),
    "32": ("B02", "B0201", "B02010100", "AC", "AC01", "AC010100"),
    "38": ("A04", "A0401", "A04010200", "SH", "SH04", "SH040100"),
    "39": ("A05", "A0502", "A05020100", "FD", "FD01", "FD010100"),
}
_CAT_SPECIAL = {
    "palace": ("A02", "A0201", "A02010100", "HS", "HS01", "HS010100"),
    "temple": ("A02", "A0201", "A02010800", "HS", "HS02", "HS020300"),
    "beach": ("A01", "A0101", "A01011200", "NA", "NA04", "NA040500"),
    "mountain": ("A01", "A0101", "A01010400", "NA", "NA01", "NA010100"),
    "village": ("A02", "A0201", "A02010600", "HS", "HS01", "HS010500"),
    "park": ("A02", "A0202", "A02020700", "VE", "VE03", "VE030500"),
    "theme": ("A02", "A0202", "A02020600", "LS", "LS01", "LS010100"),
    "tower": ("A02", "A0205", "A02050600", "VE", "VE02", "VE020100"),
    "cave": ("A01", "A0101", "A01011700", "NA", "NA03", "NA030100"),
    "waterfall": ("A01", "A0101", "A01010900", "NA", "NA02", "NA020300"),
    "museum": ("A02", "A0206", "A02060100", "VE", "VE07", "VE070100"),
    "market": ("A04", "A0401", "A04010200", "SH", "SH04", "SH040100"),
}

_TEL_PREFIX = {
    "11": "02",
    "26": "051",
    "27": "053",
    "28": "032",
    "29": "062",
    "30": "042",
    "31": "052",
    "36": "044",
    "41": "031",
    "43": "043",
    "44": "041",
    "46": "061",
    "47": "054",
    "48": "055",
    "50": "064",
    "51": "033",
    "52": "063",
}
# First two digits of 우편번호 per 시도 (real ranges).
_ZIP_RANGE = {
    "11": (1, 8),
    "26": (46, 49),
    "27": (41, 43),
    "28": (21, 23),
    "29": (61, 62),
    "30": (34, 35),
    "31": (44, 45),
    "36": (30, 30),
    "41": (10, 18),
    "43": (27, 29),
    "44": (31, 33),
    "46": (57, 59),
    "47": (36, 40),
    "48": (50, 53),
    "50": (63, 63),
    "51": (24, 26),
    "52": (54, 56),
}


# --- places ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    contentid: str
    contenttypeid: str
    title: str
    areacode: str
    sigungucode: str
    lawd_cd: str  # 5-digit 법정동 시군구 code of the place (lDongRegnCd + lDongSignguCd)
    addr1: str
    addr2: str
    zipcode: str
    tel: str
    mapx: float  # WGS84 longitude
    mapy: float  # WGS84 latitude
    cats: tuple[str, str, str, str, str, str]
    firstimage: str
    firstimage2: str
    cpyrhtDivCd: str
    createdtime: str
    modifiedtime: str
    overview: str
    homepage: str = ""
    telname: str = ""
    eventstartdate: str = ""
    eventenddate: str = ""
    real: bool = False
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def has_image(self) -> bool:
        return bool(self.firstimage)


# Real places: title, contenttypeid, LAWD_CD, lat, lon, addr1, category key, tel, fixed contentid or "",
# overview. Coordinates are approximate (within a few hundred metres). contentids 126508 (경복궁),
# 1277679 (부산타워) and 126121 (용두산공원) are the real ones (reference §2.7); the others are
# stable synthetic ids.
_REAL = """
경복궁|12|11110|37.5796|126.9770|서울특별시 종로구 사직로 161|palace|02-3700-3900|126508|조선 왕조 제일의 법궁으로 1395년 태조 이성계가 창건하였다. 근정전, 경회루, 향원정 등이 있다.
창덕궁|12|11110|37.5794|126.9910|서울특별시 종로구 율곡로 99|palace|02-3668-2300||조선의 이궁으로 1997년 유네스코 세계문화유산에 등재되었다. 후원이 특히 아름답다.
북촌한옥마을|12|11110|37.5826|126.9836|서울특별시 종로구 계동길 37|village|02-2148-4160||경복궁과 창덕궁 사이에 자리한 전통 한옥 밀집 지역이다.
덕수궁|12|11140|37.5658|126.9751|서울특별시 중구 세종대로 99|palace|02-771-9951||석조전과 돌담길로 유명한 도심 속 궁궐이다. 수문장 교대의식이 열린다.
N서울타워|12|11170|37.5512|126.9882|서울특별시 용산구 남산공원길 105|tower|02-3455-9277||남산 정상에 자리한 서울의 대표 전망 타워이다.
봉은사|12|11680|37.5150|127.0573|서울특별시 강남구 봉은사로 531|temple|02-3218-4800||도심 속 천년 고찰로 템플스테이를 운영한다.
석촌호수|12|11710|37.5096|127.1040|서울특별시 송파구 잠실로 148|park|02-412-0190||봄 벚꽃으로 유명한 잠실의 호수공원이다.
여의도한강공원|12|11560|37.5284|126.9326|서울특별시 영등포구 여의동로 330|park|02-3780-0561||한강변의 대표 공원으로 불꽃축제와 벚꽃길로 알려져 있다.
해운대해수욕장|12|26350|35.1587|129.1604|부산광역시 해운대구 해운대해변로 264|beach|051-749-7601||부산을 대표하는 해수욕장으로 백사장 길이가 약 1.5km에 이른다.
광안리해수욕장|12|26500|35.1532|129.1186|부산광역시 수영구 광안해변로 219|beach|051-622-4251||광안대교 야경으로 유명한 해수욕장이다.
용두산공원|12|26110|35.1009|129.0326|부산광역시 중구 용두산길 37-55|park|051-860-7820|126121|부산 원도심 한가운데의 공원으로 부산타워가 있다.
부산타워|12|26110|35.1013|129.0324|부산광역시 중구 용두산길 37-55|tower|051-601-1800|1277679|용두산공원 안의 전망 타워로 부산항을 한눈에 내려다볼 수 있다.
감천문화마을|12|26380|35.0975|129.0106|부산광역시 사하구 감내2로 203|village|051-204-1444||산비탈 계단식 골목에 알록달록한 집들이 늘어선 마을이다.
태종대|12|26200|35.0530|129.0870|부산광역시 영도구 전망로 24|mountain|051-405-8745||해안 절벽과 등대가 어우러진 영도 남단의 명승지이다.
해동용궁사|12|26710|35.1884|129.2233|부산광역시 기장군 기장읍 용궁길 86|temple|051-722-7744||바닷가 바위 위에 세워진 사찰이다.
성산일출봉|12|50130|33.4589|126.9425|제주특별자치도 서귀포시 성산읍 성산리 1|mountain|064-783-0959||바다에서 솟아오른 수성화산으로 일출 명소이며 유네스코 세계자연유산이다.
천지연폭포|12|50130|33.2470|126.5545|제주특별자치도 서귀포시 남성중로 2-15|waterfall|064-733-1528||서귀포 시내 가까이 있는 높이 22m의 폭포이다.
만장굴|12|50110|33.5284|126.7714|제주특별자치도 제주시 구좌읍 만장굴길 182|cave|064-710-7903||세계적 규모의 용암동굴로 유네스코 세계자연유산이다.
한라산국립공원|12|50110|33.3617|126.5292|제주특별자치도 제주시 1100로 2070-61|mountain|064-713-9950||남한에서 가장 높은 산(1,947m)으로 백록담이 있다.
협재해수욕장|12|50110|33.3940|126.2396|제주특별자치도 제주시 한림읍 한림로 329-10|beach|064-728-3981||비양도가 보이는 에메랄드빛 해변이다.
불국사|12|47130|35.7900|129.3320|경상북도 경주시 불국로 385|temple|054-746-9913||신라 불교 예술의 정수로 다보탑과 석가탑이 있다. 유네스코 세계문화유산이다.
석굴암|12|47130|35.7950|129.3490|경상북도 경주시 불국로 873-243|temple|054-746-9933||토함산 중턱의 석굴 사원으로 본존불이 유명하다.
첨성대|12|47130|35.8347|129.2190|경상북도 경주시 인왕동 839-1|village|054-779-8744||신라 선덕여왕 때 세워진 동양에서 가장 오래된 천문대이다.
안동 하회마을|12|47170|36.5390|128.5180|경상북도 안동시 풍천면 전서로 186|village|054-852-3588||풍산 류씨가 대대로 살아온 전통 마을로 하회탈춤이 전한다.
전주한옥마을|12|52111|35.8150|127.1530|전북특별자치도 전주시 완산구 기린대로 99|village|063-282-1330||700여 채의 한옥이 모여 있는 도심 속 전통 마을이다.
경포해변|12|51150|37.8055|128.9080|강원특별자치도 강릉시 창해로 514|beach|033-640-4531||경포호와 소나무 숲이 어우러진 동해안 대표 해변이다.
오죽헌|12|51150|37.7790|128.8780|강원특별자치도 강릉시 율곡로3139번길 24|village|033-660-3301||신사임당과 율곡 이이가 태어난 집이다.
남이섬|12|51110|37.7906|127.5256|강원특별자치도 춘천시 남산면 남이섬길 1|park|031-580-8114||메타세쿼이아 길로 유명한 북한강의 섬이다.
수원 화성|12|41115|37.2871|127.0119|경기도 수원시 팔달구 정조로 910|palace|031-228-4677||정조가 축성한 성곽으로 유네스코 세계문화유산이다.
에버랜드|12|41461|37.2943|127.2025|경기도 용인시 처인구 포곡읍 에버랜드로 199|theme|031-320-5000||국내 최대 규모의 테마파크이다.
순천만습지|12|46150|34.8866|127.5093|전라남도 순천시 순천만길 513-25|park|061-749-6052||갈대밭과 갯벌이 펼쳐진 연안 습지이다.
오동도|12|46130|34.7445|127.7660|전라남도 여수시 오동도로 222|park|061-659-1819||동백꽃으로 유명한 여수 앞바다의 섬이다.
공주 공산성|12|44150|36.4627|127.1246|충청남도 공주시 웅진로 280|palace|041-856-7700||백제 웅진 시대의 산성으로 유네스코 세계문화유산이다.
현충사|12|44200|36.8152|127.0210|충청남도 아산시 염치읍 현충사길 126|village|041-539-4600||충무공 이순신 장군을 모신 사당이다.
월미도|12|28110|37.4757|126.5970|인천광역시 중구 월미문화로 36|park|032-765-4169||인천항 앞 놀이시설과 바다 산책로가 있는 곳이다.
송도센트럴파크|12|28185|37.3925|126.6390|인천광역시 연수구 컨벤시아대로 160|park|032-721-4412||바닷물 수로가 흐르는 송도국제도시의 도심 공원이다.
이월드|12|27290|35.8535|128.5640|대구광역시 달서구 두류공원로 200|theme|053-620-0001||83타워가 있는 대구의 테마파크이다.
팔공산|12|27140|35.9860|128.6950|대구광역시 동구 팔공산로 1229|mountain|053-982-0101||대구 북쪽을 감싸는 명산으로 갓바위 부처가 유명하다.
한빛탑|12|30200|36.3760|127.3870|대전광역시 유성구 대덕대로 480|tower|042-250-1111||대전엑스포의 상징 탑으로 엑스포과학공원 안에 있다.
대왕암공원|12|31170|35.4920|129.4400|울산광역시 동구 등대로 95|park|052-209-3738||해송림과 기암괴석이 어우러진 바닷가 공원이다.
간절곶|12|31710|35.3597|129.3605|울산광역시 울주군 서생면 대송리 26-1|park|052-204-0331||한반도 육지에서 해가 가장 먼저 뜨는 곳 중 하나이다.
세종호수공원|12|36110|36.4980|127.2730|세종특별자치시 다솜로 216|park|044-300-5831||국내 최대 규모의 인공 호수공원이다.
무등산국립공원|12|29170|35.1340|126.9890|광주광역시 북구 무등로 1550|mountain|062-227-1187||광주를 품은 산으로 주상절리대가 유명하다.
유달산|12|46110|34.7910|126.3720|전라남도 목포시 노적봉길 1|mountain|061-270-8432||목포 시내와 다도해를 내려다보는 산이다.
호미곶|12|47111|36.0770|129.5680|경상북도 포항시 남구 호미곶면 해맞이로 136|beach|054-270-5855||상생의 손 조형물이 있는 일출 명소이다.
진주성|12|48170|35.1890|128.0810|경상남도 진주시 남강로 626|palace|055-749-5171||임진왜란 진주대첩의 현장으로 촉석루가 있다.
청남대|12|43111|36.4640|127.4910|충청북도 청주시 상당구 문의면 청남대길 646|park|043-257-5080||옛 대통령 별장으로 지금은 일반에 개방되어 있다.
국립중앙박물관|14|11170|37.5239|126.9803|서울특별시 용산구 서빙고로 137|museum|02-2077-9000||한국의 역사와 문화를 보여주는 국내 최대 박물관이다.
국립민속박물관|14|11110|37.5818|126.9790|서울특별시 종로구 삼청로 37|museum|02-3704-3114||한국인의 생활 문화를 전시하는 박물관이다.
국립경주박물관|14|47130|35.8290|129.2280|경상북도 경주시 일정로 186|museum|054-740-7500||신라 문화유산을 전시하며 성덕대왕신종이 있다.
부산시립미술관|14|26350|35.1667|129.1370|부산광역시 해운대구 APEC로 58|museum|051-744-2602||해운대 센텀에 있는 부산의 대표 미술관이다.
국립제주박물관|14|50110|33.5130|126.5490|제주특별자치도 제주시 일주동로 17|museum|064-720-8000||제주의 역사와 문화를 소개하는 박물관이다.
독립기념관|14|44131|36.7835|127.2230|충청남도 천안시 동남구 목천읍 독립기념관로 1|museum|041-560-0114||독립운동의 역사를 기리는 기념관이다.
광장시장|38|11110|37.5700|126.9996|서울특별시 종로구 창경궁로 88|market|02-2267-0291||빈대떡과 육회로 유명한 100년 넘은 전통시장이다.
남대문시장|38|11140|37.5592|126.9776|서울특별시 중구 남대문시장4길 21|market|02-753-2805||국내 최대 규모의 전통시장이다.
자갈치시장|38|26110|35.0966|129.0306|부산광역시 중구 자갈치해안로 52|market|051-245-2594||국내 최대의 수산물 시장이다.
서문시장|38|27110|35.8690|128.5810|대구광역시 중구 큰장로26길 45|market|053-256-6341||대구의 대표 전통시장으로 야시장이 열린다.
제주 동문재래시장|38|50110|33.5118|126.5262|제주특별자치도 제주시 관덕로14길 20|market|064-752-3001||제주 시내 최대의 상설 시장이다.
"""

# Real festivals: title, LAWD_CD, lat, lon, addr1, start MMDD, end MMDD, overview. Usual dates;
# UNCERTAIN: the exact dates move every year (the emulator places them in the clock's year).
_REAL_FESTIVALS = """
진해군항제|48129|35.1500|128.6600|경상남도 창원시 진해구 중원로터리 일대|0325|0403|벚꽃 명소 진해에서 열리는 국내 최대 규모의 벚꽃 축제이다.
제주들불축제|50110|33.3900|126.3500|제주특별자치도 제주시 애월읍 평화로 2835-3|0313|0316|새봄을 맞아 새별오름에 불을 놓는 제주 전통 목축 문화 축제이다.
전주국제영화제|52111|35.8180|127.1450|전북특별자치도 전주시 완산구 전주객사3길 22|0430|0509|독립·예술 영화를 중심으로 한 국제 영화제이다.
춘천마임축제|51110|37.8810|127.7300|강원특별자치도 춘천시 중앙로 1|0524|0601|몸짓 예술 마임을 주제로 한 공연 축제이다.
강릉단오제|51150|37.7560|128.9000|강원특별자치도 강릉시 단오장길 1|0615|0622|유네스코 인류무형문화유산인 천년의 단오 축제이다.
대구치맥페스티벌|27290|35.8490|128.5590|대구광역시 달서구 공원순환로 36|0702|0706|치킨과 맥주를 주제로 두류공원에서 열리는 여름 축제이다.
부산국제영화제|26350|35.1710|129.1270|부산광역시 해운대구 수영강변대로 120|0917|0926|아시아 최대 규모의 국제 영화제이다.
안동국제탈춤페스티벌|47170|36.5620|128.7300|경상북도 안동시 육사로 239|0926|1005|하회별신굿탈놀이와 세계의 탈춤을 만나는 축제이다.
진주남강유등축제|48170|35.1880|128.0800|경상남도 진주시 남강로 626|1001|1015|남강에 수만 개의 유등을 띄우는 진주의 대표 축제이다.
서울세계불꽃축제|11560|37.5284|126.9326|서울특별시 영등포구 여의동로 330|1003|1003|여의도 한강공원 밤하늘을 수놓는 세계 불꽃 축제이다.
수원화성문화제|41115|37.2871|127.0119|경기도 수원시 팔달구 정조로 910|1009|1011|정조의 효심과 화성 축성을 기리는 문화 축제이다.
부산불꽃축제|26500|35.1532|129.1186|부산광역시 수영구 광안해변로 219|1108|1108|광안대교를 배경으로 펼쳐지는 불꽃 축제이다.
최남단방어축제|50130|33.2170|126.2500|제주특별자치도 서귀포시 대정읍 하모항구로 74|1120|1123|모슬포항에서 제철 방어를 맛보는 축제이다.
"""

FOODS = (
    "국밥",
    "칼국수",
    "한정식",
    "갈비",
    "막국수",
    "순두부",
    "곰탕",
    "돼지국밥",
    "횟집",
    "냉면",
    "해물탕",
    "보리밥",
    "쌈밥",
    "닭갈비",
    "밀면",
    "고기국수",
    "삼계탕",
    "비빔밥",
    "해장국",
    "생선구이",
)
_FOOD_PREFIX = (
    "원조",
    "옛날",
    "고향",
    "할매",
    "명가",
    "본가",
    "소문난",
    "청기와",
    "황금",
    "시골",
    "토담",
    "솔밭",
)
_STAYS = ("호텔", "게스트하우스", "펜션", "한옥스테이", "리조트", "관광호텔")
_STAY_PREFIX = ("더스테이", "그랜드", "라온", "해담", "솔숲", "별빛", "하늘채", "노을", "바람결")
_SIGHTS = ("근린공원", "생태공원", "둘레길", "전망대", "수목원", "호수공원", "역사공원")
_CULTURE = ("문화예술회관", "향토역사관", "시립미술관", "문화원", "생활사박물관")
_SPORTS = ("자전거길", "오토캠핑장", "체육공원", "카누체험장", "짚라인")
_FEST_THEMES = (
    "벚꽃",
    "국화",
    "먹거리",
    "별빛",
    "가을",
    "음악",
    "빛",
    "전통",
    "꽃",
    "야시장",
    "단풍",
    "맥주",
)
_ROADS = (
    "중앙로",
    "시청로",
    "문화로",
    "공원로",
    "역전로",
    "강변로",
    "해안로",
    "번영로",
    "평화로",
    "새마을로",
)


def _local(region: rg.Region) -> str:
    name = region.sgg_name.split()[-1] if region.sgg_name else region.sido_name
    if name.endswith("특별자치시"):
        return name[:2]
    stem = name[:-1]
    return stem if len(stem) >= 2 else name


def _dist_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


distance_m = _dist_m


@dataclass
class TourData:
    places: tuple[Place, ...]
    by_id: dict[str, Place]

    def get(self, contentid: str) -> Place | None:
        return self.by_id.get(str(contentid))


def sigungu_code(area: TourArea, lawd_cd: str) -> str:
    """TourAPI sigunguCode of a 법정동 시군구 (a 구 of a 시 belongs to its 시)."""
    region = rg.by_code(lawd_cd)
    if region is None:
        return ""
    name = region.sgg_name.split()[0] if region.sgg_name else region.sido_name
    return str(area.sigungu.index(name) + 1) if name in area.sigungu else ""


def placement_regions(area: TourArea, sigungu_name: str) -> list[rg.Region]:
    """The 법정동 시군구 regions a TourAPI sigungu covers (a 시 with 구: its 구).

    Retired sigungu (남제주군, 청원군, 마산시 ...) cover nothing: their codes still answer in
    areaCode2 but new content is filed under the current 시.
    """
    out = [
        r
        for r in rg.sggs(area.sido_cd)
        if (r.sgg_name or r.sido_name) == sigungu_name or r.sgg_name.startswith(sigungu_name + " ")
    ]
    children = [r for r in out if " " in r.sgg_name]
    return children or out


def _content_id(title: str) -> str:
    digest = hashlib.blake2b(title.encode("utf-8"), digest_size=4).digest()
    return str(100000 + int.from_bytes(digest, "big") % 900000)


def _fmt_time(d: date, rng_seconds: int) -> str:
    h, rem = divmod(rng_seconds, 3600)
    return f"{d:%Y%m%d}{h:02d}{rem // 60:02d}{rem % 60:02d}"


def _image(rng, with_image: bool) -> tuple[str, str, str]:
    if not with_image:
        return "", "", ""
    n = rng.randint(1000000, 9999999)
    d = rng.randint(10, 99)
    base = f"http://tong.visitkorea.or.kr/cms/resource/{d}/{n}"
    return f"{base}_image2_1.jpg", f"{base}_image3_1.jpg", rng.choice(("Type1", "Type3"))


def _times(rng) -> tuple[str, str]:
    created = date(2006, 1, 1) + timedelta(days=rng.randint(0, 365 * 17))
    modified = created + timedelta(days=rng.randint(30, max(31, (date(2025, 12, 31) - created).days)))
    return _fmt_time(created, rng.randint(0, 86399)), _fmt_time(modified, rng.randint(0, 86399))


def zip_code(rng, sido_cd: str) -> str:
    """A 우편번호 in the 시도's real range."""
    lo, hi = _ZIP_RANGE.get(sido_cd, (1, 63))
    return f"{rng.randint(lo, hi):02d}{rng.randint(0, 999):03d}"


def _tel(rng, sido_cd: str) -> str:
    return f"{_TEL_PREFIX.get(sido_cd, '02')}-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"


def _stable_id(world: World, *keys: object) -> int:
    return world.rng("tour.id", *keys).randint(2_000_000, 3_999_999)


@world_part("tour")
def build_tour(world: World) -> TourData:
    places: list[Place] = []
    used: set[str] = set()

    def new_id(*keys: object) -> str:
        n = _stable_id(world, *keys)
        while str(n) in used:
            n += 1
        used.add(str(n))
        return str(n)

    def area_of(lawd: str) -> TourArea:
        return AREA_BY_SIDO[lawd[:2]]

    # real attractions, culture, markets ---------------------------------------------------
    for line in _REAL.strip().splitlines():
        title, ctype, lawd, lat_s, lon_s, addr, cat, tel, cid, overview = line.split("|")
        area = area_of(lawd)
        rng = world.rng("tour.real", title)
        contentid = cid or _content_id(title)
        while contentid in used:
            contentid = str(int(contentid) + 1)
        used.add(contentid)
        img = _image(rng, True)
        created, modified = _times(rng)
        places.append(
            Place(
                contentid,
                ctype,
                title,
                area.code,
                sigungu_code(area, lawd),
                lawd,
                addr,
                "",
                zip_code(rng, lawd[:2]),
                tel,
                float(lon_s),
                float(lat_s),
                _CAT_SPECIAL.get(cat, _CATS[ctype]),
                *img,
                created,
                modified,
                overview,
                homepage='<a href="https://korean.visitkorea.or.kr" target="_blank">visitkorea</a>',
                telname=title,
                real=True,
            )
        )

    # food and stays near each real sight, so "맛집 near X" (locationBasedList2) has answers
    for anchor in [p for p in places if p.contenttypeid in ("12", "14")]:
        area = AREA_BY_CODE[anchor.areacode]
        reg = rg.by_code(anchor.lawd_cd)
        if reg is None:
            continue
        rng = world.rng("tour.near", anchor.contentid)
        for k, ctype in enumerate(["39"] * rng.randint(2, 4) + ["32"] * rng.randint(0, 2)):
            bearing = rng.uniform(0, 2 * math.pi)
            dist = rng.uniform(150, 1500)
            lat = anchor.mapy + dist * math.cos(bearing) / 111_000
            lon = anchor.mapx + dist * math.sin(bearing) / (111_000 * math.cos(math.radians(anchor.mapy)))
            short = anchor.title.split()[-1]
            if ctype == "39":
                title = f"{rng.choice(_FOOD_PREFIX)}{rng.choice(FOODS)} {short}점"
            else:
                title = f"{short} {rng.choice(_STAY_PREFIX)} {rng.choice(_STAYS)}"
            created, modified = _times(rng)
            places.append(
                Place(
                    new_id("near", anchor.contentid, k),
                    ctype,
                    title,
                    area.code,
                    anchor.sigungucode,
                    anchor.lawd_cd,
                    f"{reg.name} {rng.choice(_ROADS)} {rng.randint(1, 300)}",
                    "",
                    zip_code(rng, reg.sido_cd),
                    _tel(rng, reg.sido_cd),
                    round(lon, 10),
                    round(lat, 10),
                    _CATS[ctype],
                    *_image(rng, rng.random() < 0.7),
                    created,
                    modified,
                    _overview(ctype, title, short, rng),
                    telname=title if rng.random() < 0.5 else "",
                )
            )

    # real festivals, dated in the clock's year --------------------------------------------
    year = world.clock.year
    for line in _REAL_FESTIVALS.strip().splitlines():
        title, lawd, lat_s, lon_s, addr, start, end, overview = line.split("|")
        area = area_of(lawd)
        rng = world.rng("tour.fest", title)
        contentid = _content_id(title)
        while contentid in used:
            contentid = str(int(contentid) + 1)
        used.add(contentid)
        created, modified = _times(rng)
        places.append(
            Place(
                contentid,
                "15",
                title,
                area.code,
                sigungu_code(area, lawd),
                lawd,
                addr,
                "",
                zip_code(rng, lawd[:2]),
                _tel(rng, lawd[:2]),
                float(lon_s),
                float(lat_s),
                _CATS["15"],
                *_image(rng, True),
                created,
                modified,
                overview,
                telname=f"{title} 사무국",
                eventstartdate=f"{year}{start}",
                eventenddate=f"{year}{end}",
                real=True,
            )
        )

    # synthetic content around every covered sigungu --------------------------------------
    today = world.clock.date()
    for area in AREAS:
        for idx, sg_name in enumerate(area.sigungu, start=1):
            if not sg_name:
                continue
            regs = placement_regions(area, sg_name)
            if not regs:
                continue
            for ctype, lo, hi in (
                ("39", 4, 7),
                ("32", 2, 4),
                ("12", 1, 3),
                ("14", 1, 2),
                ("38", 1, 1),
                ("28", 0, 2),
                ("15", 0, 2),
            ):
                rng = world.rng("tour.syn", area.code, idx, ctype)
                for k in range(rng.randint(lo, hi)):
                    reg = rng.choice(regs)
                    umds = rg.umds(reg.lawd_cd)
                    spot = rng.choice(umds) if umds else reg
                    lat = spot.lat + rng.uniform(-0.012, 0.012)
                    lon = spot.lon + rng.uniform(-0.015, 0.015)
                    local = _local(reg)
                    if ctype == "39":
                        title = f"{rng.choice(_FOOD_PREFIX)}{rng.choice(FOODS)} {spot.umd_name or local}점"
                    elif ctype == "32":
                        title = f"{local} {rng.choice(_STAY_PREFIX)} {rng.choice(_STAYS)}"
                    elif ctype == "12":
                        title = f"{local} {rng.choice(_SIGHTS)}"
                    elif ctype == "14":
                        title = f"{local} {rng.choice(_CULTURE)}"
                    elif ctype == "38":
                        title = f"{local}중앙시장"
                    elif ctype == "28":
                        title = f"{local} {rng.choice(_SPORTS)}"
                    else:
                        title = f"{local} {rng.choice(_FEST_THEMES)}축제"
                    if any(p.title == title for p in places[-40:]):
                        title = f"{title} {k + 2}"
                    road = f"{rng.choice(_ROADS)} {rng.randint(1, 300)}"
                    if spot.umd_name:
                        addr1 = f"{reg.name} {spot.umd_name} {rng.randint(1, 999)}-{rng.randint(1, 30)}"
                    else:
                        addr1 = f"{reg.name} {road}"
                    addr2 = f"({spot.umd_name})" if spot.umd_name and rng.random() < 0.4 else ""
                    created, modified = _times(rng)
                    start = end = ""
                    if ctype == "15":
                        s = today + timedelta(days=rng.randint(-45, 120))
                        e = s + timedelta(days=rng.randint(0, 9))
                        start, end = f"{s:%Y%m%d}", f"{e:%Y%m%d}"
                    overview = _overview(ctype, title, local, rng)
                    places.append(
                        Place(
                            new_id(area.code, idx, ctype, k),
                            ctype,
                            title,
                            area.code,
                            str(idx),
                            reg.lawd_cd,
                            addr1,
                            addr2,
                            zip_code(rng, reg.sido_cd),
                            _tel(rng, reg.sido_cd) if rng.random() < 0.85 else "",
                            round(lon, 10),
                            round(lat, 10),
                            _CATS[ctype],
                            *_image(rng, rng.random() < 0.7),
                            created,
                            modified,
                            overview,
                            eventstartdate=start,
                            eventenddate=end,
                            telname=title if rng.random() < 0.5 else "",
                        )
                    )
    places.sort(key=lambda p: int(p.contentid))
    return TourData(tuple(places), {p.contentid: p for p in places})


def _overview(ctype: str, title: str, local: str, rng) -> str:
    if ctype == "39":
        return f"{title}은(는) {local} 주민들이 즐겨 찾는 식당이다.<br>대표 메뉴는 매일 아침 직접 준비한다."
    if ctype == "32":
        return f"{local}에 자리한 숙소로 객실 {rng.randint(6, 120)}실을 갖추고 있다.<br>주변 관광지와 가깝다."
    if ctype == "15":
        return f"{local}에서 열리는 지역 축제로 공연, 체험, 먹거리 장터가 마련된다."
    if ctype == "14":
        return f"{local}의 문화 공간으로 상설 전시와 교육 프로그램을 운영한다."
    if ctype == "38":
        return f"{local}의 대표 전통시장으로 제철 농수산물과 먹거리가 풍부하다."
    if ctype == "28":
        return f"{local}에서 즐길 수 있는 야외 레포츠 시설이다."
    return f"{title}은(는) 산책과 휴식을 즐기기 좋은 {local}의 명소이다."


def with_dist(place: Place, dist: float) -> Place:
    return replace(place, extra={"dist": f"{dist:.6f}"})
