"""열린국회정보 (open.assembly.go.kr) as a catalog: datasets and a small consistent 국회 world.

The real portal publishes a few hundred OpenAPI datasets, each named by an opaque 17-letter id
(``nwvrqwxyaytdsfvhu`` 국회의원 인적사항, ``nzmimeepazxkubdpn`` 국회의원 발의법률안 — both ids
from memory, UNCERTAIN). We declare those few real ones first and generate the long tail
(위원회 × 자료 종류, 대수 × 자료 종류, 기관 자료) with deterministic ids of the same shape.

Rows come from one world per seed: members of each 대(代) 국회 (names, parties, 선거구,
committees, MONA_CD) and their bills, so that a member found in one dataset is the proposer in
another and a BILL_ID from a bill list opens its vote record. Names are synthetic; committee
and party names are real.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from datetime import date, timedelta

from kopa_inspect.world import World, world_part
from kopa_inspect.world.catalog_values import GIVEN, SURNAMES, person

Row = dict[str, str]

AGES = tuple(range(16, 23))  # 제16대 (2000) .. 제22대 (2024-)
AGE_START = {16: 2000, 17: 2004, 18: 2008, 19: 2012, 20: 2016, 21: 2020, 22: 2024}

COMMITTEES: tuple[tuple[str, str], ...] = (
    ("국회운영위원회", "house steering"),
    ("법제사법위원회", "legislation and judiciary"),
    ("정무위원회", "national policy"),
    ("기획재정위원회", "strategy and finance"),
    ("교육위원회", "education"),
    ("과학기술정보방송통신위원회", "science, ICT, broadcasting and communications"),
    ("외교통일위원회", "foreign affairs and unification"),
    ("국방위원회", "national defense"),
    ("행정안전위원회", "public administration and security"),
    ("문화체육관광위원회", "culture, sports and tourism"),
    ("농림축산식품해양수산위원회", "agriculture, food, fisheries"),
    ("산업통상자원중소벤처기업위원회", "trade, industry, energy, SMEs and startups"),
    ("보건복지위원회", "health and welfare"),
    ("환경노동위원회", "environment and labor"),
    ("국토교통위원회", "land, infrastructure and transport"),
    ("정보위원회", "intelligence"),
    ("여성가족위원회", "gender equality and family"),
    ("예산결산특별위원회", "special committee on budget and accounts"),
)
COMMITTEE_NAMES = tuple(c for c, _ in COMMITTEES)
# Committee codes (COMMITTEE_ID) are synthetic but stable; real ids look like "9700005".
COMMITTEE_ID = {name: f"97{i + 1:05d}" for i, name in enumerate(COMMITTEE_NAMES)}

PARTIES_22 = (
    "더불어민주당",
    "더불어민주당",
    "더불어민주당",
    "국민의힘",
    "국민의힘",
    "국민의힘",
    "조국혁신당",
    "개혁신당",
    "진보당",
    "기본소득당",
    "사회민주당",
    "무소속",
)
PARTIES_OLD = (
    "새천년민주당",
    "한나라당",
    "열린우리당",
    "새누리당",
    "민주통합당",
    "더불어민주당",
    "국민의힘",
    "정의당",
    "자유한국당",
    "바른미래당",
    "무소속",
)
DISTRICTS = (
    ("서울", "종로구"),
    ("서울", "중구성동구갑"),
    ("서울", "용산구"),
    ("서울", "광진구을"),
    ("서울", "동대문구갑"),
    ("서울", "마포구을"),
    ("서울", "강남구병"),
    ("서울", "송파구갑"),
    ("부산", "해운대구갑"),
    ("대구", "수성구을"),
    ("인천", "연수구갑"),
    ("광주", "서구을"),
    ("대전", "유성구을"),
    ("울산", "남구"),
    ("경기", "수원시정"),
    ("경기", "성남시분당구갑"),
    ("강원", "춘천시철원군화천군양구군갑"),
    ("충북", "청주시상당구"),
    ("충남", "천안시을"),
    ("전북", "전주시병"),
    ("전남", "목포시"),
    ("경북", "포항시북구"),
    ("경남", "창원시의창구"),
    ("제주", "제주시갑"),
)
LAWS = (
    "도로교통법",
    "국민건강보험법",
    "소득세법",
    "주택임대차보호법",
    "근로기준법",
    "공직선거법",
    "아동복지법",
    "교육기본법",
    "정보통신망 이용촉진 및 정보보호 등에 관한 법률",
    "자동차관리법",
    "농어업재해보험법",
    "국가재정법",
    "지방세법",
    "전기사업법",
    "의료법",
    "약사법",
    "형법",
    "민법",
    "상법",
    "건축법",
    "주차장법",
    "관광진흥법",
    "저작권법",
    "병역법",
)
BILL_KINDS = ("일부개정법률안", "일부개정법률안", "일부개정법률안", "전부개정법률안", "폐지법률안")
PROC_RESULTS = ("원안가결", "수정가결", "대안반영폐기", "임기만료폐기", "철회", "부결")
SURNAME_EN = dict(
    zip(
        SURNAMES,
        (
            "KIM",
            "LEE",
            "PARK",
            "CHOI",
            "JEONG",
            "KANG",
            "CHO",
            "YOON",
            "JANG",
            "LIM",
            "HAN",
            "OH",
            "SEO",
            "SHIN",
            "KWON",
            "HWANG",
            "AHN",
            "SONG",
            "RYU",
            "JEON",
            "HONG",
            "KO",
            "MOON",
            "YANG",
            "SON",
            "BAE",
            "BAEK",
            "HEO",
            "YU",
            "NAM",
            "SHIM",
            "NO",
            "HA",
            "KWAK",
            "SUNG",
            "CHA",
            "JOO",
            "WOO",
            "KOO",
            "MIN",
        ),
        strict=False,
    )
)
GIVEN_EN = dict(
    zip(
        GIVEN,
        (
            "Minjun",
            "Seoyeon",
            "Jiho",
            "Haeun",
            "Doyun",
            "Jiwoo",
            "Hyunwoo",
            "Subin",
            "Junseo",
            "Yerin",
            "Sungmin",
            "Eunji",
            "Taehyun",
            "Jimin",
            "Youngsoo",
            "Mikyung",
            "Junghoon",
            "Hyejin",
            "Sangcheol",
            "Yujin",
            "Donghyun",
            "Soyoung",
            "Jaewon",
            "Nayeon",
            "Seungwoo",
            "Gaeun",
        ),
        strict=False,
    )
)
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def opaque_id(title: str) -> str:
    """A 17-letter lowercase id of the portal's shape, fixed by the dataset title."""
    digest = hashlib.blake2b(title.encode("utf-8"), digest_size=17).digest()
    return "".join(chr(ord("a") + b % 26) for b in digest)


@dataclass(frozen=True)
class Column:
    name: str
    description: str


@dataclass(frozen=True)
class Filter:
    name: str
    description: str
    required: bool = False
    match: str = "eq"  # eq | contains
    pattern: str | None = None


@dataclass(frozen=True)
class Dataset:
    service: str
    title: str
    gloss: str
    source: str  # members | bills | votes | generic:<kind>
    columns: tuple[Column, ...]
    filters: tuple[Filter, ...] = ()
    fixed: tuple[tuple[str, str], ...] = ()  # rows restricted to column == value (a committee)
    real: bool = False
    uncertain: str | None = None
    theme: str = "general"


# --- column sets -----------------------------------------------------------------------------

MEMBER_COLS = tuple(
    Column(*c)
    for c in (
        ("HG_NM", "이름"),
        ("HJ_NM", "한자명"),
        ("ENG_NM", "영문명칭"),
        ("BTH_GBN_NM", "음/양력"),
        ("BTH_DATE", "생년월일"),
        ("JOB_RES_NM", "직책명"),
        ("POLY_NM", "정당명"),
        ("ORIG_NM", "선거구"),
        ("ELECT_GBN_NM", "선거구 구분 (지역구/비례대표)"),
        ("CMIT_NM", "대표 위원회"),
        ("CMITS", "소속 위원회 목록"),
        ("REELE_GBN_NM", "재선 구분 (초선, 재선 ...)"),
        ("UNITS", "당선 대수 (제22대 ...)"),
        ("SEX_GBN_NM", "성별"),
        ("TEL_NO", "전화번호"),
        ("E_MAIL", "이메일"),
        ("HOMEPAGE", "홈페이지"),
        ("STAFF", "보좌관"),
        ("SECRETARY", "선임비서관"),
        ("SECRETARY2", "비서관"),
        ("MONA_CD", "국회의원 코드"),
        ("MEM_TITLE", "약력"),
        ("ASSEM_ADDR", "사무실 호실"),
    )
)
MEMBER_FILTERS = (
    Filter("HG_NM", "이름"),
    Filter("POLY_NM", "정당명"),
    Filter("ORIG_NM", "선거구", match="contains"),
    Filter("CMIT_NM", "대표 위원회"),
    Filter("REELE_GBN_NM", "재선 구분"),
    Filter("SEX_GBN_NM", "성별"),
    Filter("MONA_CD", "국회의원 코드"),
)
BILL_COLS = tuple(
    Column(*c)
    for c in (
        ("BILL_ID", "의안ID"),
        ("BILL_NO", "의안번호"),
        ("BILL_NAME", "법률안명"),
        ("COMMITTEE", "소관위원회"),
        ("PROPOSE_DT", "제안일"),
        ("PROC_RESULT", "본회의심의결과"),
        ("AGE", "대수"),
        ("DETAIL_LINK", "상세페이지"),
        ("PROPOSER", "제안자"),
        ("MEMBER_LIST", "제안자목록링크"),
        ("RST_PROPOSER", "대표발의자"),
        ("PUBL_PROPOSER", "공동발의자"),
        ("COMMITTEE_ID", "소관위원회ID"),
        ("CMT_PRESENT_DT", "소관위상정일"),
        ("CMT_PROC_DT", "소관위처리일"),
        ("CMT_PROC_RESULT_CD", "소관위처리결과"),
        ("LAW_PROC_DT", "법사위처리일"),
        ("PROC_DT", "의결일"),
    )
)
BILL_FILTERS = (
    Filter("AGE", "대수 (예: 22)", required=True, pattern=r"\d{1,2}"),
    Filter("BILL_ID", "의안ID"),
    Filter("BILL_NO", "의안번호"),
    Filter("BILL_NAME", "법률안명 (일부)", match="contains"),
    Filter("COMMITTEE", "소관위원회"),
    Filter("PROC_RESULT", "본회의심의결과"),
    Filter("PROPOSER", "제안자 (일부)", match="contains"),
    Filter("COMMITTEE_ID", "소관위원회ID"),
)
VOTE_COLS = tuple(
    Column(*c)
    for c in (
        ("HG_NM", "의원명"),
        ("POLY_NM", "정당"),
        ("ORIG_NM", "선거구"),
        ("MONA_CD", "국회의원코드"),
        ("RESULT_VOTE_MOD", "표결결과 (찬성/반대/기권/불참)"),
        ("BILL_ID", "의안ID"),
        ("BILL_NO", "의안번호"),
        ("BILL_NAME", "의안명"),
        ("VOTE_DATE", "의결일자"),
        ("AGE", "대수"),
    )
)
GENERIC: dict[str, tuple[tuple[str, str], ...]] = {
    "minutes": (
        ("CONF_ID", "회의록ID"),
        ("CONF_NM", "회의명"),
        ("CONF_DATE", "회의일자"),
        ("CMIT_NM", "위원회"),
        ("SESS", "회기"),
        ("DGR", "차수"),
        ("CONF_TITLE", "안건"),
        ("PDF_LINK_URL", "회의록 PDF"),
        ("AGE", "대수"),
    ),
    "schedule": (
        ("MEETING_DATE", "회의일자"),
        ("MEETING_TIME", "회의시간"),
        ("TITLE", "회의명"),
        ("CMIT_NM", "위원회"),
        ("MEETTING_LOC", "회의장소"),
        ("SESS", "회기"),
        ("DEGREE", "차수"),
        ("AGE", "대수"),
    ),
    "petition": (
        ("BILL_ID", "청원ID"),
        ("BILL_NO", "청원번호"),
        ("BILL_NAME", "청원명"),
        ("PROPOSER", "청원인"),
        ("APPROVER", "소개의원"),
        ("PROPOSE_DT", "접수일"),
        ("CMIT_NM", "소관위원회"),
        ("PROC_RESULT", "처리결과"),
        ("PROC_DT", "처리일"),
        ("AGE", "대수"),
    ),
    "hearing": (
        ("HEARING_ID", "공청회ID"),
        ("TITLE", "공청회명"),
        ("CMIT_NM", "위원회"),
        ("HEARING_DATE", "개최일"),
        ("STATEMENT_CNT", "진술인 수"),
        ("LOC", "장소"),
        ("AGE", "대수"),
    ),
    "report": (
        ("REPORT_ID", "보고서ID"),
        ("TITLE", "보고서명"),
        ("CMIT_NM", "위원회"),
        ("REPORT_DT", "작성일"),
        ("REPORT_KIND", "보고서 종류"),
        ("WRITER", "작성자"),
        ("LINK_URL", "원문 링크"),
        ("AGE", "대수"),
    ),
    "budget": (
        ("FSCL_YY", "회계연도"),
        ("CMIT_NM", "위원회"),
        ("ITEM_NM", "사업명"),
        ("GOV_AMT", "정부안 (백만원)"),
        ("CMIT_AMT", "상임위 의결 (백만원)"),
        ("FINAL_AMT", "본회의 확정 (백만원)"),
        ("AGE", "대수"),
    ),
    "press": (
        ("PRESS_ID", "보도자료ID"),
        ("TITLE", "제목"),
        ("DEPT_NM", "부서"),
        ("REG_DATE", "등록일"),
        ("LINK_URL", "링크"),
    ),
    "seats": (
        ("AGE", "대수"),
        ("POLY_NM", "정당명"),
        ("LOCAL_CNT", "지역구 의석"),
        ("PR_CNT", "비례대표 의석"),
        ("TOTAL_CNT", "합계"),
    ),
    "proposals": (
        ("AGE", "대수"),
        ("HG_NM", "의원명"),
        ("POLY_NM", "정당"),
        ("MONA_CD", "국회의원코드"),
        ("RST_CNT", "대표발의 건수"),
        ("PUBL_CNT", "공동발의 건수"),
        ("PASS_CNT", "가결 건수"),
    ),
}

COMMITTEE_KINDS: tuple[tuple[str, str, str], ...] = (
    ("위원 명단", "members", "committee members"),
    ("계류 의안", "bills:pending", "pending bills"),
    ("처리 의안", "bills:done", "processed bills"),
    ("회의록 목록", "generic:minutes", "meeting minutes"),
    ("회의 일정", "generic:schedule", "meeting schedule"),
    ("청원 접수 목록", "generic:petition", "petitions received"),
    ("청원 처리 현황", "generic:petition", "petitions processed"),
    ("공청회 현황", "generic:hearing", "public hearings"),
    ("소위원회 위원 현황", "members", "sub-committee members"),
    ("검토보고서 목록", "generic:report", "review reports"),
    ("법률안 심사 경과", "bills", "bill review progress"),
    ("예산안 심사 현황", "generic:budget", "budget review"),
)
AGE_KINDS: tuple[tuple[str, str, str], ...] = (
    ("본회의 회의록", "generic:minutes", "plenary minutes"),
    ("국회의원 현황", "members", "members of the assembly"),
    ("정당별 의석수 현황", "generic:seats", "seats by party"),
    ("의원별 법률안 발의 통계", "generic:proposals", "bills proposed per member"),
    ("국정감사 결과보고서", "generic:report", "audit reports"),
    ("본회의 처리 의안", "bills:done", "bills passed in plenary"),
)
GENERAL: tuple[tuple[str, str, str], ...] = (
    ("국회 보도자료", "generic:press", "press releases"),
    ("국회의장 일정", "generic:schedule", "speaker's schedule"),
    ("국회입법조사처 보고서", "generic:report", "NARS reports"),
    ("국회예산정책처 보고서", "generic:report", "NABO reports"),
    ("입법예고 목록", "bills:pending", "legislative notices"),
    ("의안 접수 목록", "bills", "bills received"),
    ("본회의 일정", "generic:schedule", "plenary schedule"),
    ("전원위원회 회의록", "generic:minutes", "committee of the whole minutes"),
    ("국회사무처 보도자료", "generic:press", "secretariat press releases"),
    ("청원 전체 목록", "generic:petition", "all petitions"),
    ("국회도서관 정책자료", "generic:report", "library policy papers"),
    ("특별위원회 회의 일정", "generic:schedule", "special committee schedule"),
)


def _columns(source: str) -> tuple[Column, ...]:
    if source == "members":
        return MEMBER_COLS
    if source.startswith("bills"):
        return BILL_COLS
    if source == "votes":
        return VOTE_COLS
    return tuple(Column(*c) for c in GENERIC[source.split(":")[1]])


AGE_OPTIONAL = Filter("AGE", "대수 (예: 22, 기본 22)", pattern=r"\d{1,2}")


def _filters(source: str) -> tuple[Filter, ...]:
    if source == "members":
        return (Filter("UNIT_CD", "대수 코드 (예: 100022 = 제22대)", pattern=r"1000\d{2}"), *MEMBER_FILTERS)
    if source.startswith("bills"):  # generated bill lists default to the current assembly
        return (AGE_OPTIONAL, *BILL_FILTERS[1:])
    if source == "votes":
        return (
            Filter("AGE", "대수", required=True, pattern=r"\d{1,2}"),
            Filter("BILL_ID", "의안ID", required=True),
            Filter("HG_NM", "의원명"),
            Filter("POLY_NM", "정당"),
            Filter("RESULT_VOTE_MOD", "표결결과"),
        )
    names = {c.name for c in _columns(source)}
    out = [Filter("AGE", "대수", pattern=r"\d{1,2}")] if "AGE" in names else []
    for name, desc in (
        ("TITLE", "제목 (일부)"),
        ("CONF_NM", "회의명 (일부)"),
        ("BILL_NAME", "청원명 (일부)"),
        ("POLY_NM", "정당명"),
        ("HG_NM", "의원명"),
        ("FSCL_YY", "회계연도"),
    ):
        if name in names:
            out.append(Filter(name, desc, match="contains" if "일부" in desc else "eq"))
    return tuple(out)


REAL: list[Dataset] = [
    Dataset(
        "nwvrqwxyaytdsfvhu",
        "국회의원 인적사항",
        "current members' personal details",
        "members",
        MEMBER_COLS,
        MEMBER_FILTERS,
        real=True,
        theme="국회의원",
        uncertain="service id and field list from memory of the portal (UNCERTAIN); rows are the current (22nd) assembly",
    ),
    Dataset(
        "nzmimeepazxkubdpn",
        "국회의원 발의법률안",
        "bills proposed by members",
        "bills",
        BILL_COLS,
        BILL_FILTERS,
        real=True,
        theme="의안",
        uncertain="service id from memory (UNCERTAIN); AGE is required as on the portal",
    ),
    Dataset(
        "nojepdqqaweusdfbi",
        "국회의원 본회의 표결정보",
        "plenary roll-call votes per member",
        "votes",
        VOTE_COLS,
        _filters("votes"),
        real=True,
        theme="표결",
        uncertain="service id and columns from memory (UNCERTAIN)",
    ),
    Dataset(
        "ALLNAMEMBER",
        "국회의원 정보 통합 API",
        "members of every assembly (integrated)",
        "members",
        MEMBER_COLS,
        _filters("members"),
        real=True,
        theme="국회의원",
        uncertain="the real ALLNAMEMBER uses NAAS_* column names; emulated with the 인적사항 columns (UNCERTAIN)",
    ),
    Dataset(
        "TVBPMBILL11",
        "의안 접수목록",
        "bills received (all proposers)",
        "bills",
        BILL_COLS,
        BILL_FILTERS,
        real=True,
        theme="의안",
        uncertain="service id and columns UNCERTAIN",
    ),
]

GENERATED: list[Dataset] = []
for _cmit, _cgloss in COMMITTEES:
    for _kind, _source, _kgloss in COMMITTEE_KINDS:
        if _cmit == "예산결산특별위원회" and _source.startswith("bills"):
            continue  # 예결위 reviews the budget, not bills: no bill lists on the portal either
        _title = f"{_cmit} {_kind}"
        _fixed_col = "COMMITTEE" if _source.startswith("bills") else "CMIT_NM"
        GENERATED.append(
            Dataset(
                opaque_id(_title),
                _title,
                f"{_kgloss} of the {_cgloss} committee",
                _source,
                _columns(_source),
                _filters(_source),
                fixed=((_fixed_col, _cmit),),
                theme="위원회",
                uncertain="generated catalog dataset (id and columns not from the real portal)",
            )
        )
for _age in AGES:
    for _kind, _source, _kgloss in AGE_KINDS:
        _title = f"제{_age}대 국회 {_kind}"
        GENERATED.append(
            Dataset(
                opaque_id(_title),
                _title,
                f"{_kgloss}, {_age}th National Assembly",
                _source,
                _columns(_source),
                tuple(f for f in _filters(_source) if f.name not in ("AGE", "UNIT_CD")),
                fixed=(("AGE", str(_age)),),
                theme="대수",
                uncertain="generated catalog dataset (id and columns not from the real portal)",
            )
        )
for _title, _source, _gloss in GENERAL:
    GENERATED.append(
        Dataset(
            opaque_id(_title),
            _title,
            _gloss,
            _source,
            _columns(_source),
            _filters(_source),
            theme="기관",
            uncertain="generated catalog dataset (id and columns not from the real portal)",
        )
    )

DATASETS: tuple[Dataset, ...] = (*REAL, *GENERATED)
BY_SERVICE: dict[str, Dataset] = {d.service: d for d in DATASETS}
if len(BY_SERVICE) != len(DATASETS):  # pragma: no cover
    raise ValueError("duplicate assembly service id")


# --- the 국회 world ---------------------------------------------------------------------------


def _mona_cd(rng) -> str:  # noqa: ANN001
    return "".join(rng.choice(ALNUM) for _ in range(8))


def _members(world: World, age: int) -> list[Row]:
    rng = world.rng("assembly.members", age)
    parties = PARTIES_22 if age == 22 else PARTIES_OLD
    rows: list[Row] = []
    seen: set[str] = set()
    for i in range(300):
        name = person(rng)
        while name in seen:
            name = person(rng)
        seen.add(name)
        pr = i >= 254  # 지역구 254 + 비례대표 46 (22대 배분)
        cmit = COMMITTEE_NAMES[i % (len(COMMITTEE_NAMES) - 1)]
        units = sorted({age, *(a for a in AGES if a < age and rng.random() < 0.18)})
        reele = ["초선", "재선", "3선", "4선", "5선", "6선", "7선"][min(len(units), 7) - 1]
        birth = date(1950 + rng.randint(0, 40), rng.randint(1, 12), rng.randint(1, 28))
        rows.append(
            {
                "HG_NM": name,
                "HJ_NM": "",
                "ENG_NM": f"{SURNAME_EN.get(name[0], 'KIM')} {GIVEN_EN.get(name[1:], 'Minsu')}",
                "BTH_GBN_NM": rng.choice(("양", "양", "음")),
                "BTH_DATE": birth.isoformat(),
                "JOB_RES_NM": rng.choice(("위원", "위원", "위원", "간사", "위원장")) if i < 290 else "위원",
                "POLY_NM": rng.choice(parties),
                "ORIG_NM": "비례대표" if pr else " ".join(rng.choice(DISTRICTS)),
                "ELECT_GBN_NM": "비례대표" if pr else "지역구",
                "CMIT_NM": cmit,
                "CMITS": ", ".join(sorted({cmit, rng.choice(COMMITTEE_NAMES)})),
                "REELE_GBN_NM": reele,
                "UNITS": ", ".join(f"제{u}대" for u in units),
                "SEX_GBN_NM": "여" if rng.random() < 0.2 else "남",
                "TEL_NO": f"02-784-{rng.randint(1000, 9999)}",
                "E_MAIL": f"member{age}{i:03d}@assembly.go.kr",
                "HOMEPAGE": f"https://www.assembly.go.kr/members/{age}nd/{i:03d}",
                "STAFF": f"{person(rng)}, {person(rng)}",
                "SECRETARY": person(rng),
                "SECRETARY2": f"{person(rng)}, {person(rng)}",
                "MONA_CD": _mona_cd(rng),
                "MEM_TITLE": rng.choice(
                    (
                        "前 변호사",
                        "前 국무위원",
                        "前 시민단체 대표",
                        "前 교수",
                        "前 지방의회 의원",
                        "前 언론인",
                    )
                ),
                "ASSEM_ADDR": f"의원회관 {rng.randint(3, 10)}{rng.randint(1, 50):02d}호",
            }
        )
    _assign_posts(rows)
    return rows


def _assign_posts(rows: list[Row]) -> None:
    """Make JOB_RES_NM consistent per representative committee (CMIT_NM): exactly one 위원장, one 간사
    per negotiating group (교섭단체: 20+ seats, 국회법 제33조) sitting on it, everyone else 위원.

    The per-member draw above is kept (it only says who is *eligible* first) so the rng stream, and with
    it every other field of the world, stays as it was."""
    seats: dict[str, int] = {}
    for r in rows:
        seats[r["POLY_NM"]] = seats.get(r["POLY_NM"], 0) + 1
    groups = {p for p, n in seats.items() if n >= 20 and p != "무소속"}
    by_cmit: dict[str, list[Row]] = {}
    for r in rows:
        by_cmit.setdefault(r["CMIT_NM"], []).append(r)
    for members in by_cmit.values():
        drawn = {id(m): m["JOB_RES_NM"] for m in members}
        # the chair: the first member drawn as 위원장, else the first of the largest group on the committee
        chair = next((m for m in members if drawn[id(m)] == "위원장"), None)
        if chair is None:
            chair = max(members, key=lambda m: (m["POLY_NM"] in groups, seats[m["POLY_NM"]]))
        for m in members:
            m["JOB_RES_NM"] = "위원"
        chair["JOB_RES_NM"] = "위원장"
        for party in sorted(groups):
            cands = [m for m in members if m is not chair and m["POLY_NM"] == party]
            if cands:
                pick = next((m for m in cands if drawn[id(m)] == "간사"), cands[0])
                pick["JOB_RES_NM"] = "간사"


def _bills(world: World, age: int, members: list[Row], today: date) -> list[Row]:
    rng = world.rng("assembly.bills", age)
    start = date(AGE_START[age], 5, 30)
    end = min(date(AGE_START[age] + 4, 5, 29), today)
    span = max((end - start).days, 1)
    n = 400 if age < 22 else 600
    rows: list[Row] = []
    for i in range(n):
        lead = rng.choice(members)
        cmit = rng.choice(COMMITTEE_NAMES[:-1])
        proposed = start + timedelta(days=int(span * i / n) + rng.randint(0, max(span // n, 1)))
        proposed = min(proposed, end)
        result = "" if (age == 22 and rng.random() < 0.7) else rng.choice(PROC_RESULTS)
        if age < 22 and result == "":
            result = "임기만료폐기"
        done = proposed + timedelta(days=rng.randint(20, 400))
        done_s = done.isoformat() if result and done <= today else ""
        co = [rng.choice(members)["HG_NM"] for _ in range(rng.randint(9, 14))]
        bill_no = f"{age}{i + 1:05d}"
        rows.append(
            {
                "BILL_ID": "PRC_" + "".join(rng.choice(ALNUM) for _ in range(30)),
                "BILL_NO": bill_no,
                "BILL_NAME": f"{rng.choice(LAWS)} {rng.choice(BILL_KINDS)}",
                "COMMITTEE": cmit,
                "PROPOSE_DT": proposed.isoformat(),
                "PROC_RESULT": result if done_s or result == "" else "",
                "AGE": str(age),
                "DETAIL_LINK": f"http://likms.assembly.go.kr/bill/billDetail.do?billId={bill_no}",
                "PROPOSER": f"{lead['HG_NM']}의원 등 {len(co) + 1}인",
                "MEMBER_LIST": "http://likms.assembly.go.kr/bill/coactorListPopup.do",
                "RST_PROPOSER": lead["HG_NM"],
                "PUBL_PROPOSER": ",".join(co),
                "COMMITTEE_ID": COMMITTEE_ID[cmit],
                "CMT_PRESENT_DT": (proposed + timedelta(days=rng.randint(10, 90))).isoformat()
                if done_s
                else "",
                "CMT_PROC_DT": done_s,
                "CMT_PROC_RESULT_CD": ("대안반영폐기" if result == "대안반영폐기" else "원안가결")
                if done_s
                else "",
                "LAW_PROC_DT": done_s,
                "PROC_DT": done_s,
            }
        )
    return rows


class AssemblyWorld:
    """Members, bills and generated tables of one world, built on first use."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.today = world.clock.date()
        self._cache: dict[tuple[str, ...], list[Row]] = {}
        self._lock = threading.Lock()

    def _cached(self, key: tuple[str, ...], build) -> list[Row]:  # noqa: ANN001
        rows = self._cache.get(key)
        if rows is None:
            rows = build()
            with self._lock:
                rows = self._cache.setdefault(key, rows)
        return rows

    def members(self, age: int) -> list[Row]:
        return self._cached(("members", str(age)), lambda: _members(self.world, age))

    def bills(self, age: int) -> list[Row]:
        return self._cached(
            ("bills", str(age)), lambda: _bills(self.world, age, self.members(age), self.today)
        )

    def votes(self, age: int, bill_id: str) -> list[Row]:
        bill = next((b for b in self.bills(age) if b["BILL_ID"] == bill_id), None)
        if bill is None or not bill["PROC_DT"]:
            return []
        rng = self.world.rng("assembly.votes", bill_id)
        yes_share = 0.2 if bill["PROC_RESULT"] == "부결" else 0.85
        rows = []
        for m in self.members(age):
            r = rng.random()
            mode = "찬성" if r < yes_share else rng.choice(("반대", "기권", "불참", "불참"))
            rows.append(
                {
                    "HG_NM": m["HG_NM"],
                    "POLY_NM": m["POLY_NM"],
                    "ORIG_NM": m["ORIG_NM"],
                    "MONA_CD": m["MONA_CD"],
                    "RESULT_VOTE_MOD": mode,
                    "BILL_ID": bill_id,
                    "BILL_NO": bill["BILL_NO"],
                    "BILL_NAME": bill["BILL_NAME"],
                    "VOTE_DATE": bill["PROC_DT"].replace("-", ""),
                    "AGE": str(age),
                }
            )
        return rows

    def generic(self, ds: Dataset) -> list[Row]:
        return self._cached(("generic", ds.service), lambda: _generic(self, ds))


def _generic(aw: AssemblyWorld, ds: Dataset) -> list[Row]:
    kind = ds.source.split(":")[1]
    fixed = dict(ds.fixed)
    rng = aw.world.rng("assembly.generic", ds.service)
    ages = [int(fixed["AGE"])] if "AGE" in fixed else [21, 22]
    if kind == "seats":
        rows = []
        for age in ages:
            counts: dict[str, list[int]] = {}
            for m in aw.members(age):
                c = counts.setdefault(m["POLY_NM"], [0, 0])
                c[1 if m["ELECT_GBN_NM"] == "비례대표" else 0] += 1
            rows += [
                {
                    "AGE": str(age),
                    "POLY_NM": p,
                    "LOCAL_CNT": str(a),
                    "PR_CNT": str(b),
                    "TOTAL_CNT": str(a + b),
                }
                for p, (a, b) in sorted(counts.items(), key=lambda kv: -sum(kv[1]))
            ]
        return rows
    if kind == "proposals":
        rows = []
        for age in ages:
            lead: dict[str, list[int]] = {}
            for b in aw.bills(age):
                c = lead.setdefault(b["RST_PROPOSER"], [0, 0])
                c[0] += 1
                c[1] += b["PROC_RESULT"] in ("원안가결", "수정가결")
            for m in aw.members(age):
                rst, passed = lead.get(m["HG_NM"], [0, 0])
                rows.append(
                    {
                        "AGE": str(age),
                        "HG_NM": m["HG_NM"],
                        "POLY_NM": m["POLY_NM"],
                        "MONA_CD": m["MONA_CD"],
                        "RST_CNT": str(rst),
                        "PUBL_CNT": str(rng.randint(rst, rst * 6 + 20)),
                        "PASS_CNT": str(passed),
                    }
                )
        return rows
    cols = [c.name for c, _ in ((Column(*c), 0) for c in GENERIC[kind])]
    n = 20 + rng.randint(0, 140)
    rows = []
    for i in range(n):
        age = rng.choice(ages)
        day = aw.today - timedelta(days=rng.randint(1, 700 if age == 22 else 1400))
        cmit = fixed.get("CMIT_NM") or rng.choice(COMMITTEE_NAMES)
        member = rng.choice(aw.members(age))
        topic = rng.choice(LAWS)
        values = {
            "AGE": str(age),
            "CMIT_NM": cmit,
            "SESS": f"제{400 + rng.randint(0, 30)}회",
            "DGR": f"제{rng.randint(1, 12)}차",
            "DEGREE": f"제{rng.randint(1, 12)}차",
            "CONF_ID": f"{age}{rng.randint(10000, 99999)}",
            "CONF_NM": f"제{400 + rng.randint(0, 30)}회 국회 {cmit if 'CMIT_NM' in fixed else '본회의'} 제{rng.randint(1, 12)}차",
            "CONF_DATE": day.isoformat(),
            "CONF_TITLE": f"{topic} 일부개정법률안 등",
            "MEETING_DATE": day.isoformat(),
            "MEETING_TIME": rng.choice(("10:00", "14:00", "15:00")),
            "TITLE": _title_for(kind, cmit, topic, rng),
            "MEETTING_LOC": rng.choice(("본회의장", "위원회 회의실", "국회의원회관 제1소회의실")),
            "PDF_LINK_URL": f"https://record.assembly.go.kr/assembly/viewer/minutes/download/pdf.do?id={age}{i:05d}",
            "BILL_ID": f"PRC_{age}P{i:06d}",
            "BILL_NO": f"{age}{i + 1:05d}",
            "BILL_NAME": f"{topic} 개정에 관한 청원",
            "PROPOSER": person(rng),
            "APPROVER": member["HG_NM"],
            "PROPOSE_DT": day.isoformat(),
            "PROC_RESULT": rng.choice(("", "본회의불부의", "채택", "철회", "임기만료폐기")),
            "PROC_DT": "",
            "HEARING_ID": f"H{age}{i:04d}",
            "HEARING_DATE": day.isoformat(),
            "STATEMENT_CNT": str(rng.randint(2, 8)),
            "LOC": rng.choice(("국회 본관", "의원회관")),
            "REPORT_ID": f"R{age}{i:05d}",
            "REPORT_DT": day.isoformat(),
            "REPORT_KIND": rng.choice(("검토보고서", "심사보고서", "결과보고서", "현안분석")),
            "WRITER": person(rng),
            "LINK_URL": f"https://www.assembly.go.kr/portal/bbs/{rng.randint(100000, 999999)}",
            "FSCL_YY": str(aw.today.year + 1),
            "ITEM_NM": f"{topic.split()[0]} 관련 사업",
            "GOV_AMT": str(rng.randint(500, 90000)),
            "PRESS_ID": f"P{i:06d}",
            "DEPT_NM": rng.choice(("의정종합지원센터", "홍보기획관실", "국제국")),
            "REG_DATE": day.isoformat(),
        }
        gov = int(values["GOV_AMT"])
        values["CMIT_AMT"] = str(gov + rng.randint(-gov // 10, gov // 10))
        values["FINAL_AMT"] = str(int(values["CMIT_AMT"]) + rng.randint(-gov // 20, gov // 20))
        if values["PROC_RESULT"]:
            values["PROC_DT"] = (day + timedelta(days=rng.randint(30, 300))).isoformat()
        rows.append({c: values.get(c, "") for c in cols})
    date_col = next((c for c in cols if c.endswith(("_DATE", "_DT", "_DE"))), None)
    if date_col:
        rows.sort(key=lambda r: r[date_col], reverse=True)
    return rows


def _title_for(kind: str, cmit: str, topic: str, rng) -> str:  # noqa: ANN001
    if kind == "hearing":
        return f"{topic} 개정 관련 공청회"
    if kind == "report":
        return f"{topic} 일부개정법률안 {rng.choice(('검토보고', '심사보고', '현안 분석'))}"
    if kind == "press":
        return rng.choice(
            (f"{cmit}, {topic} 개정안 의결", f"국회의장, {topic} 관련 간담회 개최", f"{cmit} 전체회의 개최")
        )
    if kind == "schedule":
        return f"{cmit} 전체회의"
    return f"{topic} 관련"


@world_part("assembly_catalog")
def build_assembly_world(world: World) -> AssemblyWorld:
    return AssemblyWorld(world)


def dataset_rows(aw: AssemblyWorld, ds: Dataset, args: dict[str, str]) -> list[Row]:
    """All rows of a dataset for a request (before the request's own filters)."""
    fixed = dict(ds.fixed)
    if ds.source == "votes":
        return aw.votes(int(args["AGE"]), args["BILL_ID"])
    if ds.source == "members":
        if "AGE" in fixed:
            age = int(fixed["AGE"])
        elif args.get("UNIT_CD"):
            age = int(args["UNIT_CD"][-2:])
        else:
            age = 22
        if age not in AGES:
            return []
        rows = aw.members(age)
    elif ds.source.startswith("bills"):
        age = int(fixed.get("AGE") or args.get("AGE") or 22)
        if age not in AGES:
            return []
        rows = aw.bills(age)
        if ds.source == "bills:pending":
            rows = [r for r in rows if not r["PROC_RESULT"]]
        elif ds.source == "bills:done":
            rows = [r for r in rows if r["PROC_RESULT"]]
    else:
        rows = aw.generic(ds)
    for col, value in fixed.items():
        if col == "CMIT_NM" and ds.source == "members":  # a member sits on several committees
            rows = [r for r in rows if value in r["CMITS"].split(", ")]
        elif col != "AGE" or ds.source.startswith("generic"):
            rows = [r for r in rows if r.get(col) == value]
    return rows


def row_matches(ds: Dataset, row: Row, args: dict[str, str]) -> bool:
    for f in ds.filters:
        want = args.get(f.name)
        if (
            want in (None, "")
            or f.name == "UNIT_CD"
            or (ds.source == "votes" and f.name in ("AGE", "BILL_ID"))
        ):
            continue
        have = row.get(f.name, "")
        if (want not in have) if f.match == "contains" else (have != want):
            return False
    return True


__all__ = ["DATASETS", "BY_SERVICE", "Dataset", "AssemblyWorld", "dataset_rows", "row_matches"]
