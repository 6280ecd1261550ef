"""Schools, school meals and school calendars for the NEIS emulator (world part ``schools``).

What is real: the 17 시도교육청 codes and names (ATPT_OFCDC_SC_CODE B10 서울 ... T10 제주), their
지역 phone prefixes, the district and 동 names the schools are named after, the NEIS field
vocabulary (초등학교/중학교/고등학교, 공립/사립, 남여공학 ...), the public-holiday calendar and the
rhythm of a Korean school year (입학식 3월 2일, 여름·겨울방학, 중간·기말고사, 토요휴업일 rows).
What is synthetic: the schools themselves (names are "<동> + 학교급", Seoul public elementary
schools carry the "서울" prefix as the real NEIS names do), their 7-digit SD_SCHUL_CODE (real
per-office prefixes, synthetic serials), addresses, phone numbers, menus and event dates.

The school list is fixed (independent of the seed) so that benchmark tasks can name a school;
menus and calendars are drawn per (seed, school, date / school year).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.tables import read_table

District = tuple[str, str, tuple[str, ...]]  # (district, 교육지원청 or "" for the office, [동 ...])


def _offices() -> tuple[tuple[str, str, str, str, str, tuple[District, ...]], ...]:
    """(code, 교육청 name, 소재지명 (sido), phone prefix, SD_SCHUL_CODE prefix, districts) from
    data/school_offices.csv and data/school_dongs.csv, in file order."""
    dongs: dict[str, dict[tuple[str, str], list[str]]] = {}
    for row in read_table("school_dongs.csv"):
        dongs.setdefault(row["office"], {}).setdefault((row["district"], row["ju_org"]), []).append(
            row["dong"]
        )
    return tuple(
        (
            row["code"],
            row["name"],
            row["sido"],
            row["phone"],
            row["school_code_prefix"],
            tuple(
                (district, ju_org, tuple(names)) for (district, ju_org), names in dongs[row["code"]].items()
            ),
        )
        for row in read_table("school_offices.csv")
    )


OFFICES = _offices()
_ROMAN_DONG = {row["dong"]: row["roman"] for row in read_table("school_dongs.csv")}
OFFICE_NAMES = {o[0]: o[1] for o in OFFICES}

ROMAN = {"초등학교": "Elementary School", "중학교": "Middle School", "고등학교": "High School"}

# Public holidays, data/public_holidays.csv: MMDD -> name every year, YYYYMMDD -> name once.
_HOLIDAYS = read_table("public_holidays.csv")
_FIXED_HOLIDAYS = {row["date"]: row["name"] for row in _HOLIDAYS if len(row["date"]) == 4}
_LUNAR_HOLIDAYS = {row["date"]: row["name"] for row in _HOLIDAYS if len(row["date"]) == 8}


def holiday_name(d: date) -> str | None:
    ymd = d.strftime("%Y%m%d")
    return _LUNAR_HOLIDAYS.get(ymd) or _FIXED_HOLIDAYS.get(ymd[4:])


@dataclass(frozen=True)
class School:
    atpt_code: str
    atpt_name: str
    code: str  # SD_SCHUL_CODE (7 digits)
    name: str
    eng_name: str
    kind: str  # 초등학교 | 중학교 | 고등학교
    sido: str
    ju_org: str
    fond: str  # 공립 | 사립
    coedu: str
    address: str
    address_detail: str
    zipcode: str
    tel: str
    fax: str
    homepage: str
    fond_ymd: str
    foas_memrd: str
    students: int  # lunches served (MLSV_FGR)

    def info_row(self, load_dtm: str) -> dict[str, Any]:
        high = self.kind == "고등학교"
        return {
            "ATPT_OFCDC_SC_CODE": self.atpt_code,
            "ATPT_OFCDC_SC_NM": self.atpt_name,
            "SD_SCHUL_CODE": self.code,
            "SCHUL_NM": self.name,
            "ENG_SCHUL_NM": self.eng_name,
            "SCHUL_KND_SC_NM": self.kind,
            "LCTN_SC_NM": self.sido,
            "JU_ORG_NM": self.ju_org,
            "FOND_SC_NM": self.fond,
            "ORG_RDNZC": self.zipcode,
            "ORG_RDNMA": self.address,
            "ORG_RDNDA": self.address_detail,
            "ORG_TELNO": self.tel,
            "HMPG_ADRES": self.homepage,
            "COEDU_SC_NM": self.coedu,
            "ORG_FAXNO": self.fax,
            "HS_SC_NM": "일반고" if high else None,
            "INDST_SPECL_CCCCL_EXST_YN": "N",
            "HS_GNRL_BUSNS_SC_NM": "일반계" if high else "해당없음",
            "SPCLY_PURPS_HS_ORD_NM": None,
            "ENE_BFE_SEHF_SC_NM": "후기" if high else "전기",
            "DGHT_SC_NM": "주간",
            "FOND_YMD": self.fond_ymd,
            "FOAS_MEMRD": self.foas_memrd,
            "LOAD_DTM": load_dtm,
        }


def _romanize(dong: str) -> str:
    return _ROMAN_DONG.get(dong, dong)


def build_schools() -> tuple[School, ...]:
    """The fixed school list (no randomness: a task may name any of these)."""
    schools: list[School] = []
    for atpt, office, sido, phone, prefix, districts in OFFICES:
        serial = 0
        for district, ju_org, dongs in districts:
            for i, dong in enumerate(dongs):
                kinds = ["초등학교", "중학교"] + (["고등학교"] if i == 0 or len(dongs) == 2 else [])
                for kind in kinds:
                    serial += 7
                    code = f"{prefix}{serial:03d}"
                    n = int(code) % 997
                    private = kind == "고등학교" and n % 3 == 0
                    name = dong + kind
                    if atpt == "B10" and kind == "초등학교" and not private:
                        name = "서울" + name  # real NEIS spelling of Seoul public elementary schools
                    coedu = "남여공학" if kind != "고등학교" or n % 4 else ("남" if n % 8 else "여")
                    road = f"{dong}로{n % 90 + 10}번길 {n % 40 + 3}"
                    slug = "".join(ch for ch in _romanize(dong).lower() if ch.isalpha())
                    schools.append(
                        School(
                            atpt_code=atpt,
                            atpt_name=office,
                            code=code,
                            name=name,
                            eng_name=f"{_romanize(dong)} {ROMAN[kind]}",
                            kind=kind,
                            sido=sido,
                            ju_org=ju_org or office,
                            fond="사립" if private else "공립",
                            coedu=coedu,
                            address=f"{sido} {district} {road}",
                            address_detail=f"/ {dong}{kind} ({dong}동)",
                            zipcode=f"{(int(prefix) * 7 + serial * 13) % 63000 + 1000:05d}",
                            tel=f"{phone}-{300 + n % 600}-{1000 + (n * 37) % 9000}",
                            fax=f"{phone}-{300 + n % 600}-{1000 + (n * 53) % 9000}",
                            homepage=f"https://{slug}-{'e' if kind == '초등학교' else 'm' if kind == '중학교' else 'h'}.{atpt.lower()}.kr",
                            fond_ymd=f"{1950 + n % 70}0{3 + n % 6}01",
                            foas_memrd=f"{1950 + n % 70}0{3 + n % 6}{10 + n % 18:02d}",
                            students=(400 if kind == "초등학교" else 600) + (n * 11) % 700,
                        )
                    )
    return tuple(schools)


SCHOOLS: tuple[School, ...] = build_schools()
BY_CODE: dict[str, School] = {s.code: s for s in SCHOOLS}


# --- the school year ------------------------------------------------------------------------


def academic_year(d: date) -> int:
    """Korean school years run March to February."""
    return d.year if d.month >= 3 else d.year - 1


@dataclass(frozen=True)
class SchoolYear:
    ay: int
    events: dict[str, tuple[str, str]]  # YYYYMMDD -> (EVENT_NM, SBTR_DD_SC_NM)
    summer: tuple[date, date]  # first and last day of the summer vacation
    winter: tuple[date, date]  # winter vacation (to the end of February; 봄방학 folded in)


def _first_weekday_on_or_after(d: date) -> date:
    while d.weekday() >= 5 or holiday_name(d):
        d += timedelta(days=1)
    return d


def build_year(world: World, school: School, ay: int) -> SchoolYear:
    rng = world.rng("neis-calendar", school.code, ay)
    start = _first_weekday_on_or_after(date(ay, 3, 2))
    summer_start = date(ay, 7, 18) + timedelta(days=rng.randint(0, 7))
    summer_end = summer_start + timedelta(days=rng.randint(24, 30))
    winter_start = date(ay + 1, 1, 2) + timedelta(days=rng.randint(0, 9))
    winter_end = date(ay + 1, 3, 1)
    events: dict[str, tuple[str, str]] = {}

    def add(d: date, name: str, kind: str = "해당없음") -> None:
        events.setdefault(d.strftime("%Y%m%d"), (name, kind))

    add(start, "입학식")
    exams = school.kind != "초등학교"
    mid1 = _first_weekday_on_or_after(date(ay, 4, 22) + timedelta(days=rng.randint(0, 6)))
    fin1 = _first_weekday_on_or_after(date(ay, 6, 30) + timedelta(days=rng.randint(0, 6)))
    mid2 = _first_weekday_on_or_after(date(ay, 10, 8) + timedelta(days=rng.randint(4, 12)))
    fin2 = _first_weekday_on_or_after(date(ay, 12, 1) + timedelta(days=rng.randint(0, 8)))
    if exams:
        for first, label in (
            (mid1, "1학기 중간고사"),
            (fin1, "1학기 기말고사"),
            (mid2, "2학기 중간고사"),
            (fin2, "2학기 기말고사"),
        ):
            d = first
            for _ in range(3):
                add(d, label)
                d = _first_weekday_on_or_after(d + timedelta(days=1))
    add(_first_weekday_on_or_after(date(ay, 5, 12) + timedelta(days=rng.randint(0, 10))), "체육대회")
    add(_first_weekday_on_or_after(date(ay, 10, 20) + timedelta(days=rng.randint(0, 10))), "현장체험학습")
    memo = date(ay, int(school.foas_memrd[4:6]), int(school.foas_memrd[6:8]))
    if memo.weekday() < 5 and not holiday_name(memo):
        add(memo, "개교기념일", "휴업일")
    add(summer_start - timedelta(days=1), "여름방학식")
    d = summer_start
    while d <= summer_end:
        add(d, "여름방학", "휴업일")
        d += timedelta(days=1)
    add(_first_weekday_on_or_after(summer_end + timedelta(days=1)), "개학식")
    add(winter_start - timedelta(days=1), "겨울방학식")
    grad = _first_weekday_on_or_after(winter_start - timedelta(days=rng.randint(1, 3)))
    add(grad, "졸업식")
    d = winter_start
    while d <= winter_end - timedelta(days=1):
        add(d, "겨울방학", "휴업일")
        d += timedelta(days=1)
    # Public holidays and 토요휴업일 as the real calendars list them.
    d = date(ay, 3, 1)
    while d < date(ay + 1, 3, 1):
        name = holiday_name(d)
        if name:
            events[d.strftime("%Y%m%d")] = (name, "공휴일")
        elif d.weekday() == 5:
            events.setdefault(d.strftime("%Y%m%d"), ("토요휴업일", "휴업일"))
        d += timedelta(days=1)
    return SchoolYear(
        ay, dict(sorted(events.items())), (summer_start, summer_end), (winter_start, winter_end)
    )


def is_meal_day(world: World, school: School, d: date) -> bool:
    if d.weekday() >= 5 or holiday_name(d):
        return False
    year = school_year(world, school, academic_year(d))
    if year.summer[0] <= d <= year.summer[1] or year.winter[0] <= d:
        return False
    name, kind = year.events.get(d.strftime("%Y%m%d"), ("", ""))
    return kind not in ("휴업일", "공휴일") and name != "졸업식"


# --- menus ----------------------------------------------------------------------------------


# Dishes by course, data/school_dishes.csv: (name, NEIS allergy codes).
def _dishes() -> dict[str, list[tuple[str, str]]]:
    courses: dict[str, list[tuple[str, str]]] = {}
    for row in read_table("school_dishes.csv"):
        courses.setdefault(row["course"], []).append((row["name"], row["allergy"]))
    return courses


_DISHES = _dishes()
RICE = [name for name, _ in _DISHES["rice"]]
SOUP, MAIN, SIDE, KIMCHI, DESSERT = (_DISHES[c] for c in ("soup", "main", "side", "kimchi", "dessert"))

ORIGINS = (
    "쌀 : 국내산<br/>김치류 : 국내산<br/>고춧가루(김치류) : 국내산<br/>쇠고기(종류) : 국내산(한우)"
    "<br/>돼지고기 : 국내산<br/>닭고기 : 국내산<br/>오리고기 : 국내산<br/>쇠고기 식육가공품 : 국내산"
    "<br/>돼지고기 식육가공품 : 국내산<br/>닭고기 식육가공품 : 국내산<br/>낙지 : 중국산<br/>고등어 : 노르웨이산"
    "<br/>갈치 : 국내산<br/>오징어 : 원양산<br/>꽃게 : 국내산<br/>참조기 : 국내산<br/>비고 : "
)

MEAL_NAMES = {"1": "조식", "2": "중식", "3": "석식"}


def _dish(name: str, allergy: str) -> str:
    return f"{name} ({allergy})" if allergy else name


def meal_rows(world: World, school: School, d: date, load_dtm: str) -> list[dict[str, Any]]:
    if not is_meal_day(world, school, d):
        return []
    ymd = d.strftime("%Y%m%d")
    codes = ["2"] + (["3"] if school.kind == "고등학교" else [])
    rows = []
    for code in codes:
        rng = world.rng("neis-meal", school.code, ymd, code)
        dishes = [rng.choice(RICE), _dish(*rng.choice(SOUP)), _dish(*rng.choice(MAIN))]
        dishes += [_dish(*s) for s in rng.sample(SIDE, 1)] + [_dish(*rng.choice(KIMCHI))]
        if code == "2":
            dishes.append(_dish(*rng.choice(DESSERT)))
        base = {"초등학교": 620.0, "중학교": 780.0, "고등학교": 850.0}[school.kind]
        cal = round(base + rng.uniform(-90, 90), 1)
        carb, prot, fat = round(cal * 0.6 / 4, 1), round(cal * 0.16 / 4, 1), round(cal * 0.24 / 9, 1)
        ntr = (
            f"탄수화물(g) : {carb}<br/>단백질(g) : {prot}<br/>지방(g) : {fat}<br/>"
            f"비타민A(R.E) : {round(rng.uniform(90, 300), 1)}<br/>티아민(mg) : {round(rng.uniform(0.3, 0.9), 1)}<br/>"
            f"리보플라빈(mg) : {round(rng.uniform(0.3, 0.8), 1)}<br/>비타민C(mg) : {round(rng.uniform(5, 40), 1)}<br/>"
            f"칼슘(mg) : {round(rng.uniform(150, 450), 1)}<br/>철분(mg) : {round(rng.uniform(2, 6), 1)}"
        )
        fgr = school.students if code == "2" else school.students // 3
        rows.append(
            {
                "ATPT_OFCDC_SC_CODE": school.atpt_code,
                "ATPT_OFCDC_SC_NM": school.atpt_name,
                "SD_SCHUL_CODE": school.code,
                "SCHUL_NM": school.name,
                "MMEAL_SC_CODE": code,
                "MMEAL_SC_NM": MEAL_NAMES[code],
                "MLSV_YMD": ymd,
                "MLSV_FGR": fgr,
                "DDISH_NM": "<br/>".join(dishes),
                "ORPLC_INFO": ORIGINS,
                "CAL_INFO": f"{cal} Kcal",
                "NTR_INFO": ntr,
                "MLSV_FROM_YMD": ymd,
                "MLSV_TO_YMD": ymd,
                "LOAD_DTM": load_dtm,
            }
        )
    return rows


# --- the part -------------------------------------------------------------------------------


class SchoolWorld:
    """Per-world cache of school years (menus are cheap and drawn on demand)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._years: dict[tuple[str, int], SchoolYear] = {}

    def year(self, school: School, ay: int) -> SchoolYear:
        key = (school.code, ay)
        if key not in self._years:
            self._years[key] = build_year(self.world, school, ay)
        return self._years[key]


@world_part("schools")
def _build(world: World) -> SchoolWorld:
    return SchoolWorld(world)


def school_year(world: World, school: School, ay: int) -> SchoolYear:
    return world.part("schools").year(school, ay)


def meal_window(world: World) -> tuple[date, date]:
    """Menus exist from 2020 up to the end of the month after the clock's (published monthly)."""
    today = world.clock.date()
    nxt = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    end = date(nxt.year + (nxt.month == 12), nxt.month % 12 + 1, 1) - timedelta(days=1)
    return date(2020, 1, 1), end


# --- classes (학급정보) ------------------------------------------------------------------------

# Students per class by school kind (recent national averages, rounded).
_CLASS_SIZE = {"초등학교": 21, "중학교": 25, "고등학교": 24}
GRADES = {"초등학교": 6, "중학교": 3, "고등학교": 3}
# Years whose class lists exist: from 2020 up to the clock's school year.
FIRST_CLASS_YEAR = 2020


def class_counts(world: World, school: School, ay: int) -> list[int]:
    """Classes per grade in one school year: the school's size spread over its grades, a class
    more or less per grade from year to year (the seed fixes which)."""
    grades = GRADES[school.kind]
    base = max(1, round(school.students / grades / _CLASS_SIZE[school.kind]))
    rng = world.rng("neis.classes", school.code, ay)
    return [max(1, base + rng.choice((-1, 0, 0, 0, 1))) for _ in range(grades)]


def class_rows(world: World, school: School, ay: int, load_dtm: str) -> list[dict[str, Any]]:
    """classInfo rows of one school year: one per class, grade by grade, classes numbered from 1."""
    high = school.kind == "고등학교"
    rows = []
    for grade, count in enumerate(class_counts(world, school, ay), 1):
        for n in range(1, count + 1):
            rows.append(
                {
                    "ATPT_OFCDC_SC_CODE": school.atpt_code,
                    "ATPT_OFCDC_SC_NM": school.atpt_name,
                    "SD_SCHUL_CODE": school.code,
                    "SCHUL_NM": school.name,
                    "AY": str(ay),
                    "GRADE": str(grade),
                    "DGHT_CRSE_SC_NM": "주간",
                    "SCHUL_CRSE_SC_NM": school.kind,
                    "ORD_SC_NM": "일반계" if high else None,
                    "DDDEP_NM": "일반학과" if high else None,
                    "CLASS_NM": str(n),
                    "LOAD_DTM": load_dtm,
                }
            )
    return rows
