"""Hospitals and clinics for HIRA 병원정보서비스 / 의료기관별상세정보 (the provider's published API guide).

HIRA files places under its own 6-digit region codes (서울 110000, 강남구 110001 ...), not
법정동 codes, so a task must look one up (a realistic code-system conversion). The table below
maps each 법정동 시군구 of :mod:`kopa_inspect.world.regions` to HIRA's code and name. Source: the
auto-harvested table in the public korea-public-data-mcp client (src/hira-region-codes.ts), keyed
by HIRA's own sgguCdNm spelling ("부산해운대구", "성남분당구", "수원영통구"). UNCERTAIN: that table
was harvested from live responses, not from an official code list; 세종 uses its 시도 code
410000 as its 시군구 code there, kept as is.

Real hospitals where public (서울대학교병원, 삼성서울병원, 서울아산병원 ...) with real addresses and
approximate coordinates; synthetic but plausible clinics (의원, 치과의원, 한의원, 병원, 요양병원)
around every covered 시군구. The ``ykiho`` a list returns is the key every detail operation
answers for, so list -> detail chains always meet the same institution.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from kopa_inspect.world import World, world_part
from kopa_inspect.world import regions as rg
from kopa_inspect.world.tour import zip_code

HIRA_SIDO: dict[str, tuple[str, str]] = {  # 법정동 시도 code -> (HIRA sidoCd, sidoCdNm)
    "11": ("110000", "서울"),
    "26": ("210000", "부산"),
    "27": ("230000", "대구"),
    "28": ("220000", "인천"),
    "29": ("240000", "광주"),
    "30": ("250000", "대전"),
    "31": ("260000", "울산"),
    "36": ("410000", "세종시"),
    "41": ("310000", "경기"),
    "43": ("330000", "충북"),
    "44": ("340000", "충남"),
    "46": ("360000", "전남"),
    "47": ("370000", "경북"),
    "48": ("380000", "경남"),
    "50": ("390000", "제주"),
    "51": ("320000", "강원"),
    "52": ("350000", "전북"),
}

# HIRA sgguCdNm -> sgguCd, for the 시군구 the regions table knows (subset of the harvested table).
_HIRA_SGGU = """
강남구 110001 강동구 110002 강서구 110003 관악구 110004 구로구 110005 도봉구 110006 동대문구 110007
동작구 110008 마포구 110009 서대문구 110010 성동구 110011 성북구 110012 영등포구 110013 용산구 110014
은평구 110015 종로구 110016 중구 110017 송파구 110018 중랑구 110019 양천구 110020 서초구 110021
노원구 110022 광진구 110023 강북구 110024 금천구 110025
부산남구 210001 부산동구 210002 부산동래구 210003 부산진구 210004 부산북구 210005 부산서구 210006
부산영도구 210007 부산중구 210008 부산해운대구 210009 부산사하구 210010 부산금정구 210011 부산강서구 210012
부산연제구 210013 부산수영구 210014 부산사상구 210015 부산기장군 210100
대구남구 230001 대구동구 230002 대구북구 230003 대구서구 230004 대구수성구 230005 대구중구 230006
대구달서구 230007 대구달성군 230100 대구군위군 230200
인천미추홀구 220001 인천동구 220002 인천부평구 220003 인천중구 220004 인천서구 220005 인천남동구 220006
인천연수구 220007 인천계양구 220008 인천강화군 220100 인천옹진군 220200
광주동구 240001 광주북구 240002 광주서구 240003 광주광산구 240004 광주남구 240005
대전유성구 250001 대전대덕구 250002 대전서구 250003 대전동구 250004 대전중구 250005
울산남구 260001 울산동구 260002 울산중구 260003 울산북구 260004 울산울주군 260100
세종시 410000
가평군 310001 양평군 310009 연천군 310011 광명시 310100 동두천시 310200 부천소사구 310301
부천오정구 310302 부천원미구 310303 성남수정구 310401 성남중원구 310402 성남분당구 310403
수원권선구 310601 수원장안구 310602 수원팔달구 310603 수원영통구 310604 안양만안구 310701 안양동안구 310702
의정부시 310800 과천시 310900 구리시 311000 안산단원구 311101 안산상록구 311102 평택시 311200
하남시 311300 군포시 311400 남양주시 311500 의왕시 311600 시흥시 311700 오산시 311800
고양덕양구 311901 고양일산서구 311902 고양일산동구 311903 용인기흥구 312001 용인수지구 312002
용인처인구 312003 이천시 312100 파주시 312200 김포시 312300 안성시 312400 화성만세구 312501
광주시 312600 양주시 312700 포천시 312800 여주시 312900
청주상당구 330101 청주흥덕구 330102 청주청원구 330103 청주서원구 330104 충주시 330200 제천시 330300
천안서북구 340201 천안동남구 340202 공주시 340300 아산시 340500
목포시 360300 순천시 360400 여수시 360500
경주시 370100 구미시 370200 안동시 370400 포항남구 370701 포항북구 370702
김해시 380100 진주시 380500 창원마산회원구 380701 창원마산합포구 380702 창원진해구 380703
창원의창구 380704 창원성산구 380705
서귀포시 390100 제주시 390200
강릉시 320100 원주시 320400 춘천시 320500
군산시 350100 익산시 350300 전주완산구 350401 전주덕진구 350402
"""
# UNCERTAIN: 화성시 is one 시군구 in regions but four 구 at HIRA (2026); its hospitals are filed
# under 화성만세구 (312501) here.
_HIRA_BY_NAME = dict(zip(_HIRA_SGGU.split()[::2], _HIRA_SGGU.split()[1::2], strict=True))
_METRO = {"26": "부산", "27": "대구", "28": "인천", "29": "광주", "30": "대전", "31": "울산"}


@dataclass(frozen=True)
class HiraRegion:
    sido_cd: str  # HIRA 6-digit 시도 code
    sido_nm: str
    sggu_cd: str  # HIRA 6-digit 시군구 code
    sggu_nm: str
    region: rg.Region  # the 법정동 시군구 it corresponds to


def _hira_name(region: rg.Region) -> str | None:
    sido = region.sido_cd
    name = region.sgg_name
    if sido == "36":
        return "세종시"
    if sido == "11":
        return name
    if sido in _METRO:
        for cand in (_METRO[sido] + name, name):
            if cand in _HIRA_BY_NAME:
                return cand
        return None
    if sido == "41" and name == "화성시":
        return "화성만세구"
    if " " in name:  # "수원시 영통구" -> "수원영통구"
        city, gu = name.split()
        return city[:-1] + gu
    return name


def hira_region(region: rg.Region) -> HiraRegion | None:
    """HIRA codes for one 법정동 시군구 (None for a 시 that HIRA splits into 구, or uncovered)."""
    if region.level != "sgg":
        return None
    name = _hira_name(region)
    if name is None or name not in _HIRA_BY_NAME:
        return None
    sido_cd, sido_nm = HIRA_SIDO[region.sido_cd]
    return HiraRegion(sido_cd, sido_nm, _HIRA_BY_NAME[name], name, region)


def hira_regions() -> list[HiraRegion]:
    return [h for r in rg.sggs() if (h := hira_region(r)) is not None]


DEPTS: dict[str, str] = {
    "00": "일반의",
    "01": "내과",
    "02": "신경과",
    "03": "정신건강의학과",
    "04": "외과",
    "05": "정형외과",
    "06": "신경외과",
    "07": "흉부외과",
    "08": "성형외과",
    "09": "마취통증의학과",
    "10": "산부인과",
    "11": "소아청소년과",
    "12": "안과",
    "13": "이비인후과",
    "14": "피부과",
    "15": "비뇨의학과",
    "16": "영상의학과",
    "21": "재활의학과",
    "23": "가정의학과",
    "24": "응급의학과",
    "49": "치과",
    "54": "치주과",
    "80": "한방내과",
    "85": "침구과",
}
# UNCERTAIN: the clCd table is from a client's memory (reference §2.12).
CL_NAMES: dict[str, str] = {
    "01": "상급종합",
    "11": "종합병원",
    "21": "병원",
    "28": "요양병원",
    "29": "정신병원",
    "31": "의원",
    "41": "치과병원",
    "51": "치과의원",
    "92": "한방병원",
    "93": "한의원",
}


@dataclass
class Hospital:
    ykiho: str
    yadmNm: str
    clCd: str
    hira: HiraRegion
    addr: str
    postNo: str
    telno: str
    hospUrl: str
    estbDd: str
    lat: float
    lon: float
    emdongNm: str
    # (dgsbjtCd, 전문의 수, 협진의사 수)
    depts: list[tuple[str, int, int]]
    counts: dict[str, int]
    hours: dict[str, str] = field(default_factory=dict)
    real: bool = False

    @property
    def clCdNm(self) -> str:
        return CL_NAMES[self.clCd]

    @property
    def drTotCnt(self) -> int:
        return sum(self.counts.values())


# name|clCd|LAWD_CD|lat|lon|addr|tel|url|estbDd|emdong
_REAL = """
서울대학교병원|01|11110|37.5797|126.9990|서울특별시 종로구 대학로 101 (연건동)|1588-5700|http://www.snuh.org|19781015|연건동
강북삼성병원|11|11110|37.5683|126.9679|서울특별시 종로구 새문안로 29 (평동)|02-2001-2001|http://www.kbsmc.co.kr|19680419|평동
삼성서울병원|01|11680|37.4881|127.0856|서울특별시 강남구 일원로 81 (일원동, 삼성의료원)|1599-3114|http://www.samsunghospital.com|19941109|일원동
강남세브란스병원|11|11680|37.4927|127.0463|서울특별시 강남구 언주로 211 (도곡동)|1599-6114|http://gs.iseverance.com|19830401|도곡동
서울아산병원|01|11710|37.5266|127.1082|서울특별시 송파구 올림픽로43길 88 (풍납동, 서울아산병원)|1688-7575|http://www.amc.seoul.kr|19890601|풍납동
연세대학교의과대학세브란스병원|01|11410|37.5622|126.9409|서울특별시 서대문구 연세로 50-1 (신촌동)|1599-1004|http://sev.iseverance.com|19620101|신촌동
가톨릭대학교서울성모병원|01|11650|37.5018|127.0048|서울특별시 서초구 반포대로 222 (반포동)|1588-1511|http://www.cmcseoul.or.kr|19800901|반포동
고려대학교의과대학부속병원(안암병원)|01|11290|37.5872|127.0264|서울특별시 성북구 고려대로 73 (안암동5가)|1577-0083|http://anam.kumc.or.kr|19910801|안암동5가
한양대학교병원|01|11200|37.5594|127.0446|서울특별시 성동구 왕십리로 222-1 (사근동)|02-2290-8114|http://seoul.hyumc.com|19721020|사근동
경희대학교병원|01|11230|37.5939|127.0517|서울특별시 동대문구 경희대로 23 (회기동)|1800-7575|http://www.khmc.or.kr|19711010|회기동
중앙대학교병원|01|11590|37.5070|126.9609|서울특별시 동작구 흑석로 102 (흑석동)|1800-1114|http://ch.cauhs.or.kr|20040301|흑석동
이화여자대학교의과대학부속목동병원|01|11470|37.5363|126.8866|서울특별시 양천구 안양천로 1071 (목동)|1666-5000|http://mokdong.eumc.ac.kr|19930301|목동
건국대학교병원|01|11215|37.5412|127.0723|서울특별시 광진구 능동로 120-1 (화양동)|1588-1533|http://www.kuh.ac.kr|20050829|화양동
국립중앙의료원|11|11140|37.5673|127.0057|서울특별시 중구 을지로 245 (을지로6가)|02-2260-7114|http://www.nmc.or.kr|19581002|을지로6가
분당서울대학교병원|01|41135|37.3520|127.1237|경기도 성남시 분당구 구미로173번길 82 (구미동)|1588-3369|http://www.snubh.org|20030501|구미동
아주대학교병원|01|41117|37.2794|127.0467|경기도 수원시 영통구 월드컵로 164 (원천동)|1688-6114|http://hosp.ajoumc.or.kr|19940901|원천동
인제대학교 해운대백병원|11|26350|35.1734|129.1823|부산광역시 해운대구 해운대로 875 (좌동)|051-797-0100|http://www.paik.ac.kr/haeundae|20100901|좌동
부산대학교병원|01|26140|35.1005|129.0170|부산광역시 서구 구덕로 179 (아미동1가)|1577-7512|http://www.pnuh.or.kr|19560505|아미동1가
경북대학교병원|01|27110|35.8661|128.6046|대구광역시 중구 동덕로 130 (삼덕동2가)|1666-0114|http://www.knuh.kr|19100101|삼덕동2가
인하대학교의과대학부속병원|01|28110|37.4573|126.6327|인천광역시 중구 인항로 27 (신흥동3가)|032-890-2114|http://www.inha.com|19960601|신흥동3가
전남대학교병원|01|29110|35.1418|126.9214|광주광역시 동구 제봉로 42 (학동)|1899-0000|http://www.cnuh.com|19100901|학동
충남대학교병원|01|30140|36.3169|127.4150|대전광역시 중구 문화로 282 (대사동)|1599-7123|http://www.cnuh.co.kr|19721120|대사동
울산대학교병원|01|31170|35.5220|129.4290|울산광역시 동구 방어진순환도로 877 (전하동)|1588-1114|http://www.uuh.ulsan.kr|19851101|전하동
세종충남대학교병원|11|36110|36.5140|127.2600|세종특별자치시 보듬7로 20 (도담동)|044-995-4114|http://www.cnush.com|20200716|도담동
강원대학교병원|11|51110|37.8690|127.7430|강원특별자치도 춘천시 백령로 156 (효자동)|033-258-2000|http://www.knuh.or.kr|20020401|효자동
충북대학교병원|01|43112|36.6230|127.4610|충청북도 청주시 서원구 1순환로 776 (개신동)|043-269-6114|http://www.cbnuh.or.kr|19911001|개신동
전북대학교병원|01|52113|35.8470|127.1410|전북특별자치도 전주시 덕진구 건지로 20 (금암동)|1577-7877|http://www.jbuh.co.kr|19801201|금암동
경상국립대학교병원|01|48170|35.1770|128.0950|경상남도 진주시 강남로 79 (칠암동)|1566-1010|http://www.gnuh.co.kr|19861001|칠암동
제주대학교병원|11|50110|33.4672|126.5452|제주특별자치도 제주시 아란13길 15 (아라일동)|064-717-1114|http://www.jejunuh.co.kr|20090301|아라일동
서귀포의료원|11|50130|33.2560|126.5627|제주특별자치도 서귀포시 장수로 47 (동홍동)|064-730-3114|http://www.seogwipomc.or.kr|19830701|동홍동
"""

_PREFIX = (
    "연세",
    "서울",
    "하나",
    "튼튼",
    "밝은",
    "미소",
    "365",
    "참",
    "굿모닝",
    "새봄",
    "우리",
    "열린",
    "바른",
    "푸른",
    "행복한",
    "온누리",
    "늘봄",
    "다온",
    "해맑은",
    "드림",
    "사랑",
    "제일",
    "365열린",
    "맑은",
)
_CLINIC_DEPTS = ("01", "11", "12", "13", "14", "05", "10", "23", "15", "03", "21", "09", "02", "08")
_BIG_DEPTS = (
    "01",
    "02",
    "03",
    "04",
    "05",
    "06",
    "07",
    "08",
    "09",
    "10",
    "11",
    "12",
    "13",
    "14",
    "15",
    "16",
    "21",
    "23",
    "24",
)
_DONGS = ("중앙동", "신흥동", "본동", "신촌동", "남산동", "동문동", "서문동", "대화동", "상동", "하동")
_ROADS = ("중앙로", "시청로", "역전로", "번영로", "대학로", "병원로", "문화로", "새마을로")
_TEL_PREFIX = rg.SIDO_TEL_PREFIX


def _ykiho(rng) -> str:
    """A base64 string shaped like HIRA's encrypted 요양기호 (UNCERTAIN: its real inner layout)."""
    a, b, c, d = (rng.randint(100000, 999999) for _ in range(4))
    raw = f"${a}#{rng.randint(11, 99)}#$1#$0#$89${b}#{rng.randint(11, 61)}#$1#$3#$99${c}#{d % 90 + 10}#$1#$8#$83"
    return base64.b64encode(raw.encode()).decode().rstrip("=")


def _hours(rng, cl_cd: str) -> dict[str, str]:
    start = rng.choice(("0830", "0900", "0930"))
    end = rng.choice(("1730", "1800", "1830", "1900"))
    sat_end = rng.choice(("1230", "1300", "1400"))
    h = {
        "lunchWeek": rng.choice(("12:30~13:30", "13:00~14:00", "12:00~13:00")),
        "lunchSat": "없음",
        "rcvWeek": f"{start[:2]}:{start[2:]}~{end[:2]}:{int(end[2:]) // 2:02d}",
        "rcvSat": f"{start[:2]}:{start[2:]}~{sat_end[:2]}:00",
        "noTrmtSun": "휴진",
        "noTrmtHoli": "휴진",
        "parkQty": str(rng.choice((0, 2, 3, 5, 8, 10, 20))),
        "parkXpnsYn": rng.choice(("Y", "N")),
        "parkEtc": "건물 내 주차 가능" if rng.random() < 0.5 else "",
        "emyDayYn": "Y" if cl_cd in ("01", "11") else "N",
        "emyNgtYn": "Y" if cl_cd in ("01", "11") else "N",
    }
    for day in ("Mon", "Tue", "Wed", "Thu", "Fri"):
        h[f"trmt{day}Start"] = start
        h[f"trmt{day}End"] = end
    h["trmtSatStart"] = start
    h["trmtSatEnd"] = sat_end
    return h


def _counts(total_sdr: int, rng, kind: str) -> dict[str, int]:
    c = {
        k: 0
        for k in (
            "mdeptSdrCnt",
            "mdeptGdrCnt",
            "mdeptIntnCnt",
            "mdeptResdntCnt",
            "detySdrCnt",
            "detyGdrCnt",
            "detyIntnCnt",
            "detyResdntCnt",
            "cmdcSdrCnt",
            "cmdcGdrCnt",
            "cmdcIntnCnt",
            "cmdcResdntCnt",
        )
    }
    prefix = {"med": "mdept", "dent": "dety", "orient": "cmdc"}[kind]
    c[f"{prefix}SdrCnt"] = total_sdr
    if total_sdr > 50:
        c[f"{prefix}IntnCnt"] = rng.randint(20, 120)
        c[f"{prefix}ResdntCnt"] = rng.randint(100, 500)
        c[f"{prefix}GdrCnt"] = rng.randint(0, 10)
    elif rng.random() < 0.1:
        c[f"{prefix}GdrCnt"] = 1
    return c


@dataclass
class HospitalData:
    hospitals: list[Hospital]
    by_ykiho: dict[str, Hospital]


@world_part("hospitals")
def build_hospitals(world: World) -> HospitalData:
    hospitals: list[Hospital] = []
    used: set[str] = set()

    def ykiho(rng) -> str:
        y = _ykiho(rng)
        while y in used:
            y = _ykiho(rng)
        used.add(y)
        return y

    for line in _REAL.strip().splitlines():
        name, cl, lawd, lat_s, lon_s, addr, tel, url, estb, dong = line.split("|")
        region = rg.by_code(lawd)
        hira = hira_region(region) if region else None
        if hira is None:
            continue
        rng = world.rng("hira.real", name)
        depts = [
            (d, rng.randint(8, 45) if cl == "01" else rng.randint(3, 15), rng.randint(0, 3))
            for d in _BIG_DEPTS
            if cl == "01" or rng.random() < 0.75
        ]
        hospitals.append(
            Hospital(
                ykiho(rng),
                name,
                cl,
                hira,
                addr,
                zip_code(rng, lawd[:2]),
                tel,
                url,
                estb,
                float(lat_s),
                float(lon_s),
                dong,
                depts,
                _counts(sum(d[1] for d in depts), rng, "med"),
                _hours(rng, cl),
                real=True,
            )
        )

    for hira in hira_regions():
        reg = hira.region
        umds = rg.umds(reg.lawd_cd)
        rng = world.rng("hira.syn", hira.sggu_cd)
        local = (reg.sgg_name.split()[-1] if reg.sgg_name else reg.sido_name)[:-1] or reg.sgg_name
        plan = (
            ["31"] * rng.randint(6, 11)
            + ["51"] * rng.randint(1, 3)
            + ["93"] * rng.randint(1, 2)
            + ["21"] * rng.randint(0, 2)
            + ["28"] * rng.randint(0, 1)
        )
        names: set[str] = set()
        # Every covered 시군구 has at least one 내과, 소아청소년과, 이비인후과 and 정형외과 의원.
        core = ["01", "11", "13", "05"]
        for cl in plan:
            spot = rng.choice(umds) if umds else reg
            dong = spot.umd_name or rng.choice(_DONGS)
            prefix = rng.choice(_PREFIX + (local,))
            if cl == "31":
                main = core.pop(0) if core else rng.choice(_CLINIC_DEPTS)
                name = f"{prefix}{DEPTS[main]}의원"
                sdr = rng.choice((1, 1, 1, 2, 2, 3))
                depts = [(main, sdr, 0)] + [
                    (d, 0, 0) for d in rng.sample(("00", "23", "01", "21"), rng.randint(0, 2)) if d != main
                ]
                kind = "med"
            elif cl == "51":
                name = f"{prefix}치과의원"
                sdr = rng.choice((0, 1, 1, 2))
                depts = [("49", sdr, 0)] + ([("54", 1, 0)] if rng.random() < 0.3 else [])
                kind = "dent"
            elif cl == "93":
                name = f"{prefix}한의원"
                sdr = rng.choice((0, 1, 1))
                depts = [("80", sdr, 0), ("85", 0, 0)]
                kind = "orient"
            elif cl == "21":
                name = f"{prefix}병원"
                depts = [
                    (d, rng.randint(1, 4), 0)
                    for d in ("05", "04", "01", "09", "21", "16")
                    if rng.random() < 0.8
                ]
                kind = "med"
            else:
                name = f"{prefix}요양병원"
                depts = [(d, rng.randint(1, 3), 0) for d in ("01", "21", "23", "02")]
                kind = "med"
            if name in names:
                name = name.replace(prefix, f"{prefix}{dong[:-1] or dong}", 1)
            if name in names:
                continue
            names.add(name)
            sdr_total = sum(d[1] for d in depts)
            lat = spot.lat + rng.uniform(-0.01, 0.01)
            lon = spot.lon + rng.uniform(-0.012, 0.012)
            floor = rng.randint(1, 6)
            addr = f"{reg.name} {rng.choice(_ROADS)} {rng.randint(1, 400)}, {floor}층 ({dong})"
            tel = f"{_TEL_PREFIX[reg.sido_cd]}-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"
            estb = f"{rng.randint(1985, 2025)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
            hospitals.append(
                Hospital(
                    ykiho(rng),
                    name,
                    cl,
                    hira,
                    addr,
                    zip_code(rng, reg.sido_cd),
                    tel,
                    "",
                    estb,
                    round(lat, 7),
                    round(lon, 7),
                    dong,
                    depts,
                    _counts(sdr_total, rng, kind),
                    _hours(rng, cl),
                )
            )
    return HospitalData(hospitals, {h.ykiho: h for h in hospitals})
