"""열린국회정보 (open.assembly.go.kr) as a catalog: datasets and a small consistent 국회 world.

The real portal publishes a few hundred OpenAPI datasets, each named by an opaque 17-letter id
(``nwvrqwxyaytdsfvhu`` 국회의원 인적사항, ``nzmimeepazxkubdpn`` 국회의원 발의법률안 — both ids
from memory, UNCERTAIN). We declare those few real ones first and generate the long tail
(위원회 × 자료 종류, 대수 × 자료 종류, 기관 자료) with deterministic ids of the same shape.

Rows come from one world per seed: members of each 대(代) 국회 (names, parties, 선거구,
committees, MONA_CD) and their bills, so that a member found in one dataset is the proposer in
another and a BILL_ID from a bill list opens its vote record. Names are synthetic; committee
and party names are real.

The catalog is package data: ``data/assembly_catalog.json`` (column sets, real datasets, kinds of
the generated ones), ``data/assembly_committees.csv``, ``data/assembly_districts.csv`` and
``data/name_romanization.csv``.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.catalog_values import person
from kopa_inspect.world.tables import TableError, read_json, read_table

Row = dict[str, str]

AGES = tuple(range(16, 23))  # 제16대 (2000) .. 제22대 (2024-)
AGE_START = {16: 2000, 17: 2004, 18: 2008, 19: 2012, 20: 2016, 21: 2020, 22: 2024}

# (name, English gloss) of each committee, data/assembly_committees.csv.
COMMITTEES: tuple[tuple[str, str], ...] = tuple(
    (row["name"], row["gloss"]) for row in read_table("assembly_committees.csv")
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
DISTRICTS = tuple((row["sido"], row["district"]) for row in read_table("assembly_districts.csv"))
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
_ROMAN = read_table("name_romanization.csv")
SURNAME_EN = {row["hangul"]: row["roman"] for row in _ROMAN if row["part"] == "surname"}
GIVEN_EN = {row["hangul"]: row["roman"] for row in _ROMAN if row["part"] == "given"}
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


# --- the catalog (data/assembly_catalog.json) --------------------------------------------------
# Column sets by source (members, bills, votes, or the kind of a generic:<kind> source), the filter
# sets the real datasets declare, the real datasets, and the kinds of the generated ones.

CATALOG_FILE = "assembly_catalog.json"
_CATALOG = read_json(CATALOG_FILE)
_COLUMN_SETS: dict[str, tuple[Column, ...]] = {
    name: tuple(Column(*col) for col in cols) for name, cols in _CATALOG["column_sets"].items()
}
_FILTER_SETS: dict[str, tuple[Filter, ...]] = {
    name: tuple(Filter(**spec) for spec in specs) for name, specs in _CATALOG["filter_sets"].items()
}
MEMBER_COLS, BILL_COLS, VOTE_COLS = (_COLUMN_SETS[name] for name in ("members", "bills", "votes"))
MEMBER_FILTERS, BILL_FILTERS = _FILTER_SETS["members"], _FILTER_SETS["bills"]


def _kinds(key: str) -> tuple[tuple[str, str, str], ...]:
    """(title part, source, English gloss) of each generated dataset kind."""
    return tuple((title, source, gloss) for title, source, gloss in _CATALOG[key])


COMMITTEE_KINDS = _kinds("committee_kinds")
AGE_KINDS = _kinds("age_kinds")
GENERAL = _kinds("general")


def _columns(source: str) -> tuple[Column, ...]:
    if source.startswith("bills"):
        return BILL_COLS
    return _COLUMN_SETS[source.removeprefix("generic:")]


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


def _real(index: int, spec: dict[str, Any]) -> Dataset:
    """A real dataset: its columns are its source's; its filters a declared set or its source's."""
    fields = dict(spec)
    filters = fields.pop("filters", None)
    try:
        return Dataset(
            columns=_columns(fields["source"]),
            filters=_FILTER_SETS[filters] if filters else _filters(fields["source"]),
            real=True,
            **fields,
        )
    except (TypeError, KeyError) as exc:
        raise TableError(f"{CATALOG_FILE} dataset {index} ({spec.get('service')}): {exc!r}") from exc


REAL: list[Dataset] = [_real(i, spec) for i, spec in enumerate(_CATALOG["real"])]

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
    cols = [c.name for c in _COLUMN_SETS[kind]]
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
