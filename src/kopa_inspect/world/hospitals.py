"""Hospitals and clinics for HIRA 병원정보서비스 / 의료기관별상세정보 (the provider's published API guide).

HIRA files places under its own 6-digit region codes (서울 110000, 강남구 110001 ...), not
법정동 codes, so a task must look one up (a realistic code-system conversion). The table
data/hira_sggu.csv maps each 법정동 시군구 of :mod:`kopa_inspect.world.regions` to HIRA's code and
name. Source: the auto-harvested table in the public korea-public-data-mcp client (src/hira-region-codes.ts), keyed
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
from operator import itemgetter

from kopa_inspect.world import World, world_part
from kopa_inspect.world import regions as rg
from kopa_inspect.world.tables import read_table
from kopa_inspect.world.tour import zip_code

# 법정동 시도 code -> (HIRA sidoCd, sidoCdNm); HIRA sgguCdNm -> sgguCd (data/hira_*.csv).
HIRA_SIDO: dict[str, tuple[str, str]] = {
    row["sido_cd"]: (row["hira_cd"], row["hira_name"]) for row in read_table("hira_sido.csv")
}
_HIRA_BY_NAME = {row["name"]: row["code"] for row in read_table("hira_sggu.csv")}
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


DEPTS: dict[str, str] = {row["code"]: row["name"] for row in read_table("hira_departments.csv")}
CL_NAMES: dict[str, str] = {row["code"]: row["name"] for row in read_table("hira_kinds.csv")}


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


# Real hospitals (data/hospitals.csv).
_REAL_HOSPITAL = itemgetter(
    "name", "cl_cd", "lawd_cd", "lat", "lon", "addr", "tel", "url", "estb_dd", "emdong"
)

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

    for row in read_table("hospitals.csv"):
        name, cl, lawd, lat_s, lon_s, addr, tel, url, estb, dong = _REAL_HOSPITAL(row)
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
