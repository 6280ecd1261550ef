"""한국은행 경제통계시스템 ECOS Open API (ecos.bok.or.kr/api): 통계표 목록, 항목 목록, 통계 조회, 100대 지표.

Real contract (the provider's published API guide, PublicDataReader ecos.py): path-style,
``/api/{서비스명}/{인증키}/{요청유형 json|xml}/{언어 kr|en}/{요청시작건수}/{요청종료건수}/{positional …}``;
StatisticSearch continues ``/{통계표코드}/{주기 A|S|Q|M|SM|D}/{검색시작일자}/{검색종료일자}/{항목코드1..4}``
with dates by cycle (2024, 2024Q1, 202401, 20240115). JSON ``{"StatisticSearch":{"list_total_count":N,
"row":[…]}}``, XML ``<StatisticSearch><list_total_count/><row/>…</StatisticSearch>``; errors and no data
a bare ``{"RESULT":{"CODE":"INFO-200","MESSAGE":"해당하는 데이터가 없습니다."}}``. Rows are paged by the
start/end positions (1-based, inclusive); list_total_count is the full count. Values are strings.

Codes (ECOS 개발 명세서, from memory of its table: wording UNCERTAIN): INFO-100 인증키 오류, INFO-200 데이터
없음, ERROR-100 필수 값 누락, ERROR-101 주기와 다른 날짜 형식, ERROR-200 파일타입 오류, ERROR-300/301 조회건수
누락/타입 오류, ERROR-500 서버 오류, ERROR-602 과도한 호출.

Data: the 한국은행 기준금리 (722Y001 / 0101000) follows the real decisions up to May 2025 and the
holds after it through November 2025; later moves, the 원/달러 rate, the CPI and the 3-year treasury yield are SYNTHETIC (anchored near real
yearly levels, drawn from the seed). Table and item codes 722Y001/0101000, 731Y001/0000001,
901Y009/0, 817Y002/010200000 are believed real.

Beyond these four hand-built tables, 51 drawn tables (:mod:`kopa_inspect.world.ecos_series`: money,
credit, deposit and lending rates, prices, national accounts, the balance of payments, trade,
sentiment, markets) answer StatisticSearch, StatisticItemList and StatisticTableList/{STAT_CODE}
under the codes ecos-reader's getters send, with up to two item axes (ITEM_CODE1, ITEM_CODE2).
The unfiltered StatisticTableList stays the hand-built tables' (what KOPA-Bench tasks browse).
UNCERTAIN: English names of the drawn tables (lang=en answers in Korean).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kopa_inspect.apis._envelope import (
    JSON_CT,
    XML_CT,
    Envelope,
    Format,
    HttpResponse,
    Page,
    Parsed,
    as_list,
    dumps_json,
    dumps_xml,
    load_document,
    render_document,
    to_int,
    xml_scalar,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result
from kopa_inspect.world import World, world_part
from kopa_inspect.world.ecos_series import SERIES_TABLES, EcosSeries, SeriesTable, search_row

ERRORS: dict[str, tuple[str, str]] = {
    "key_missing": (
        "INFO-100",
        "인증키가 유효하지 않습니다. 인증키를 확인하십시오! 인증키가 없는 경우 인증키를 신청하십시오!",
    ),
    "key_not_registered": (
        "INFO-100",
        "인증키가 유효하지 않습니다. 인증키를 확인하십시오! 인증키가 없는 경우 인증키를 신청하십시오!",
    ),
    "access_denied": (
        "INFO-100",
        "인증키가 유효하지 않습니다. 인증키를 확인하십시오! 인증키가 없는 경우 인증키를 신청하십시오!",
    ),
    "nodata": ("INFO-200", "해당하는 데이터가 없습니다."),
    "missing_param": (
        "ERROR-100",
        "필수 값이 누락되어 있습니다. 필수 값을 확인하십시오! 필수 값이 누락되어 있으면 오류를 발생합니다. "
        "요청 변수를 참고 하십시오!",
    ),
    "bad_date": ("ERROR-101", "주기와 다른 형식의 날짜 형식입니다."),
    "bad_type": (
        "ERROR-200",
        "파일타입 값이 누락 혹은 유효하지 않습니다. 파일타입 값을 확인하십시오! 파일타입 값이 누락 혹은 "
        "유효하지 않으면 오류를 발생합니다. 요청 변수를 참고 하십시오!",
    ),
    "bad_count": (
        "ERROR-301",
        "조회건수 값의 타입이 유효하지 않습니다. 조회건수 값을 확인하십시오! 조회건수 값의 타입이 "
        "유효하지 않으면 오류를 발생합니다. 정수를 입력하세요.",
    ),
    "no_service": (
        "ERROR-500",
        "서버 오류입니다. OpenAPI 호출시 서버에서 오류가 발생하였습니다. 해당 서비스를 찾을 수 없습니다.",
    ),
    "server_error": ("ERROR-500", "서버 오류입니다. OpenAPI 호출시 서버에서 오류가 발생하였습니다."),
    "rate_limited": (
        "ERROR-602",
        "과도한 OpenAPI호출로 이용이 제한되었습니다. 잠시후 이용해주시기 바랍니다.",
    ),
    "rate_limited_second": (
        "ERROR-602",
        "과도한 OpenAPI호출로 이용이 제한되었습니다. 잠시후 이용해주시기 바랍니다.",
    ),
}


class EcosEnvelope(Envelope):
    format_param = "type"
    json_value = "json"
    page_param = None  # start/end positions are handled by the handlers (rows start..end)
    size_param = None
    gateway_kinds = frozenset()

    def response_format(self, params: dict[str, Any]) -> Format:
        return "json" if str(params.get("type", "")).lower() == "json" else "xml"

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows:
            return self.render_error(op, ApiError("nodata"), fmt)
        if fmt == "json":
            return HttpResponse(
                200, JSON_CT, dumps_json({op.name: {"list_total_count": page.total, "row": page.rows}})
            )
        rows = [{k: xml_scalar(v) for k, v in r.items()} for r in page.rows]
        return HttpResponse(
            200, XML_CT, dumps_xml({op.name: {"list_total_count": str(page.total), "row": rows}})
        )

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        kind: str = err.kind
        if kind == "invalid_param":
            kind = {"type": "bad_type", "start": "bad_count", "end": "bad_count"}.get(
                err.param or "", "nodata"
            )
            if err.detail == "bad_date":
                kind = "bad_date"
        code, msg = ERRORS.get(kind, ERRORS["server_error"])
        doc = {"RESULT": {"CODE": code, "MESSAGE": msg}}
        return render_document(doc, fmt)

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        doc = load_document(resp)
        if isinstance(doc, Parsed):
            return doc
        if "RESULT" in doc:
            res = doc["RESULT"] or {}
            code = str(res.get("CODE", ""))
            return Parsed(
                ok=False,
                code=code,
                message=str(res.get("MESSAGE", "")),
                total_count=0 if code == "INFO-200" else None,
            )
        root = doc.get(op.name) or (next(iter(doc.values())) if len(doc) == 1 else {})
        if not isinstance(root, dict):
            return Parsed(ok=False, code=str(resp.status), message=resp.text[:200])
        rows = [
            {k: ("" if v is None else v) for k, v in r.items()}
            for r in as_list(root.get("row"))
            if isinstance(r, dict)
        ]
        return Parsed(
            ok=True,
            code="INFO-000",
            message="정상 처리되었습니다.",
            items=rows,
            total_count=to_int(root.get("list_total_count")),
        )


# --- the statistics ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    code: str
    name: str
    name_en: str
    unit: str


@dataclass(frozen=True)
class Table:
    code: str
    name: str
    name_en: str
    parent: str
    cycles: tuple[str, ...]
    items: tuple[Item, ...]
    start: date  # first observation


TABLES: tuple[Table, ...] = (
    Table(
        "722Y001",
        "1.3.1. 한국은행 기준금리 및 여수신금리",
        "1.3.1. The Bank of Korea Base Rate",
        "0000000011",
        ("D", "M", "Q", "A"),
        (Item("0101000", "한국은행 기준금리", "BOK Base Rate", "연%"),),
        date(2008, 8, 7),
    ),
    Table(
        "817Y002",
        "1.3.2.1. 시장금리(일별)",
        "1.3.2.1. Market Interest Rates(Daily)",
        "0000000011",
        ("D",),
        (
            Item("010200000", "국고채(3년)", "Treasury Bonds(3-year)", "연%"),
            Item("010210000", "국고채(10년)", "Treasury Bonds(10-year)", "연%"),
        ),
        date(2015, 1, 2),
    ),
    Table(
        "731Y001",
        "3.1.1.1. 주요국 통화의 대원화환율",
        "3.1.1.1. Exchange Rates of Won against Major Currencies",
        "0000000031",
        ("D",),
        (
            Item(
                "0000001",
                "원/미국달러(매매기준율)",
                "Won per United States Dollar(Basic Exchange Rate)",
                "원",
            ),
            Item("0000002", "원/일본엔(100엔)", "Won per Japanese Yen(100Yen)", "원"),
            Item("0000003", "원/유로", "Won per Euro", "원"),
        ),
        date(2015, 1, 2),
    ),
    Table(
        "901Y009",
        "4.2.1. 소비자물가지수",
        "4.2.1. Consumer Price Indices",
        "0000000041",
        ("M", "Q", "A"),
        (Item("0", "총지수", "All items", "2020=100"),),
        date(2015, 1, 1),
    ),
)
BY_TABLE = {t.code: t for t in TABLES}
PARENTS = (
    ("0000000011", "1.3. 금리", "1.3. Interest Rates"),
    ("0000000031", "3.1. 환율", "3.1. Exchange Rates"),
    ("0000000041", "4.2. 소비자/생산자 물가", "4.2. Consumer/Producer Prices"),
)

# Real base-rate decisions (effective date, rate) up to May 2025; synthetic ones are appended
# by the world part after that.
BASE_RATE_DECISIONS: tuple[tuple[str, float], ...] = (
    ("20080807", 5.25),
    ("20081009", 5.00),
    ("20081027", 4.25),
    ("20081107", 4.00),
    ("20081211", 3.00),
    ("20090109", 2.50),
    ("20090212", 2.00),
    ("20100709", 2.25),
    ("20101116", 2.50),
    ("20110113", 2.75),
    ("20110310", 3.00),
    ("20110610", 3.25),
    ("20120712", 3.00),
    ("20121011", 2.75),
    ("20130509", 2.50),
    ("20140814", 2.25),
    ("20141015", 2.00),
    ("20150312", 1.75),
    ("20150611", 1.50),
    ("20160609", 1.25),
    ("20171130", 1.50),
    ("20181130", 1.75),
    ("20190718", 1.50),
    ("20191016", 1.25),
    ("20200317", 0.75),
    ("20200528", 0.50),
    ("20210826", 0.75),
    ("20211125", 1.00),
    ("20220114", 1.25),
    ("20220414", 1.50),
    ("20220526", 1.75),
    ("20220713", 2.25),
    ("20220825", 2.50),
    ("20221012", 3.00),
    ("20221124", 3.25),
    ("20230113", 3.50),
    ("20241011", 3.25),
    ("20241128", 3.00),
    ("20250225", 2.75),
    ("20250529", 2.50),
)
# Yearly anchors for synthetic series (approximate real yearly averages).
USD_ANCHORS = {
    2015: 1131,
    2016: 1160,
    2017: 1130,
    2018: 1100,
    2019: 1166,
    2020: 1180,
    2021: 1144,
    2022: 1292,
    2023: 1306,
    2024: 1364,
    2025: 1415,
    2026: 1400,
    2027: 1390,
}
CPI_ANCHORS = {
    2015: 94.7,
    2016: 95.6,
    2017: 97.5,
    2018: 98.9,
    2019: 99.3,
    2020: 100.0,
    2021: 102.5,
    2022: 107.7,
    2023: 111.6,
    2024: 114.2,
    2025: 116.5,
    2026: 118.8,
    2027: 121.0,
}


def _d(ymd: str) -> date:
    return date(int(ymd[:4]), int(ymd[4:6]), int(ymd[6:8]))


class EconWorld:
    """Daily and monthly series of one seed, up to the end of the clock's next year."""

    def __init__(self, world: World) -> None:
        self.world = world
        decisions = [(_d(d), r) for d, r in BASE_RATE_DECISIONS]
        # Synthetic meetings after the last known one (holds at 2.50 through November 2025):
        # about eight a year, mostly holds.
        rng = world.rng("ecos-base-rate")
        day, rate = date(2026, 1, 15), 2.50
        while day.year <= 2028:
            move = rng.choices((0.0, -0.25, 0.25), weights=(12, 2, 1.5))[0]
            if move:
                rate = max(0.5, rate + move)
                decisions.append((day, rate))
            day += timedelta(days=rng.choice((42, 49, 56)))
        self.decisions = decisions
        self.usd: dict[date, float] = {}
        self.jpy: dict[date, float] = {}
        self.eur: dict[date, float] = {}
        self.kr3: dict[date, float] = {}
        self.kr10: dict[date, float] = {}
        rng = world.rng("ecos-fx")
        noise = 0.0
        d = date(2015, 1, 1)
        while d <= date(2027, 12, 31):
            if d.weekday() < 5:
                frac = (d.timetuple().tm_yday - 1) / 365
                anchor = (
                    USD_ANCHORS[d.year] * (1 - frac) + USD_ANCHORS.get(d.year + 1, USD_ANCHORS[d.year]) * frac
                )
                noise = noise * 0.97 + rng.gauss(0, 4.0)
                usd = round(anchor + noise, 1)
                self.usd[d] = usd
                self.jpy[d] = round(usd * (0.0092 - 0.0002 * (d.year - 2015)) * 100 / 1.0, 2)
                self.eur[d] = round(usd * (1.08 + 0.03 * rng.uniform(-1, 1)), 2)
                base = self.base_rate(d)
                self.kr3[d] = round(base + 0.35 + 0.25 * rng.uniform(-1, 1), 3)
                self.kr10[d] = round(self.kr3[d] + 0.3 + 0.15 * rng.uniform(-1, 1), 3)
            d += timedelta(days=1)
        rng = world.rng("ecos-cpi")
        self.cpi: dict[tuple[int, int], float] = {}
        for y in range(2015, 2028):
            for m in range(1, 13):
                a, b = CPI_ANCHORS[y], CPI_ANCHORS.get(y + 1, CPI_ANCHORS[y] * 1.02)
                self.cpi[(y, m)] = round(a + (b - a) * (m - 6.5) / 12 + rng.uniform(-0.15, 0.15), 2)

    def base_rate(self, d: date) -> float:
        rate = 5.0
        for when, r in self.decisions:
            if when > d:
                break
            rate = r
        return rate


@world_part("ecos")
def _build(world: World) -> EconWorld:
    return EconWorld(world)


# --- periods --------------------------------------------------------------------------------------

PERIOD_RE = {
    "A": r"\d{4}",
    "S": r"\d{4}S[12]",
    "Q": r"\d{4}Q[1-4]",
    "M": r"\d{6}",
    "SM": r"\d{6}S[12]",
    "D": r"\d{8}",
}


def _periods(cycle: str, start: str, end: str, first: date, last: date) -> list[tuple[str, date, date]]:
    """(label, first day, last day) of every period of a cycle between two labels, within data."""
    out = []
    if cycle == "D":
        d, stop = max(_d(start), first), min(_d(end), last)
        while d <= stop:
            out.append((d.strftime("%Y%m%d"), d, d))
            d += timedelta(days=1)
        return out
    y = int(start[:4])
    while y <= int(end[:4]):
        if cycle == "A":
            spans = [(f"{y}", date(y, 1, 1), date(y, 12, 31))]
        elif cycle == "Q":
            spans = [(f"{y}Q{q}", date(y, 3 * q - 2, 1), _month_end(y, 3 * q)) for q in range(1, 5)]
        else:  # M
            spans = [(f"{y}{m:02d}", date(y, m, 1), _month_end(y, m)) for m in range(1, 13)]
        for label, a, b in spans:
            if start <= label <= end and b <= last and b >= first:
                out.append((label, a, b))
        y += 1
    return out


def _month_end(y: int, m: int) -> date:
    return date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)


def _last_published(world: World, table: Table) -> date:
    """The last day with data: yesterday for daily series; a month's CPI from the 3rd of the next."""
    today = world.clock.date()
    if table.code == "901Y009":
        prev_end = today.replace(day=1) - timedelta(days=1)
        return prev_end if today.day >= 3 else prev_end.replace(day=1) - timedelta(days=1)
    return today - timedelta(days=1)


def _value(econ: EconWorld, table: Table, item: Item, cycle: str, a: date, b: date) -> float | None:
    if table.code == "722Y001":
        return None if cycle == "D" and b.weekday() >= 5 else econ.base_rate(b)
    if table.code == "901Y009":
        months = [(y, m) for y in range(a.year, b.year + 1) for m in range(1, 13) if a <= date(y, m, 1) <= b]
        vals = [econ.cpi[k] for k in months if k in econ.cpi]
        return round(sum(vals) / len(vals), 2) if vals else None
    series = {
        "010200000": econ.kr3,
        "010210000": econ.kr10,
        "0000001": econ.usd,
        "0000002": econ.jpy,
        "0000003": econ.eur,
    }[item.code]
    return series.get(a)


def _fmt(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return text or "0"


# --- handlers ---------------------------------------------------------------------------------


def _window(params: dict[str, Any], rows: list[dict[str, Any]]) -> Result:
    start, end = params["start"], params["end"]
    if start < 1 or end < start:
        raise ApiError("invalid_param", param="start")
    return Result(rows=rows[start - 1 : end], total=len(rows), paged=False)


def _check_type(params: dict[str, Any]) -> None:
    if str(params.get("type", "")).lower() not in ("json", "xml"):
        raise ApiError("invalid_param", param="type")


def statistic_table_list(world: World, params: dict[str, Any]) -> Result:
    _check_type(params)
    en = params.get("lang") == "en"
    rows = []
    for code, name, name_en in PARENTS:
        rows.append(
            {
                "P_STAT_CODE": "0000000000",
                "STAT_CODE": code,
                "STAT_NAME": name_en if en else name,
                "CYCLE": None,
                "SRCH_YN": "N",
                "ORG_NAME": None,
            }
        )
        for t in TABLES:
            if t.parent == code:
                for cycle in t.cycles:
                    rows.append(
                        {
                            "P_STAT_CODE": code,
                            "STAT_CODE": t.code,
                            "STAT_NAME": t.name_en if en else t.name,
                            "CYCLE": cycle,
                            "SRCH_YN": "Y",
                            "ORG_NAME": "한국은행" if not en else "The Bank of Korea",
                        }
                    )
    if params.get("STAT_CODE"):
        rows = [r for r in rows if r["STAT_CODE"] == params["STAT_CODE"]]
        series = SERIES_TABLES.get(params["STAT_CODE"])
        if series is not None:
            rows = [
                {
                    "P_STAT_CODE": series.parent,
                    "STAT_CODE": series.code,
                    "STAT_NAME": series.name,
                    "CYCLE": cycle,
                    "SRCH_YN": "Y",
                    "ORG_NAME": "한국은행" if not en else "The Bank of Korea",
                }
                for cycle in series.cycles
            ]
    return _window(params, rows)


def statistic_item_list(world: World, params: dict[str, Any]) -> Result:
    _check_type(params)
    table = BY_TABLE.get(params["STAT_CODE"])
    if table is None:
        series = SERIES_TABLES.get(params["STAT_CODE"])
        return _window(params, _series_items(world, series)) if series else Result(rows=[], paged=False)
    en = params.get("lang") == "en"
    econ: EconWorld = world.part("ecos")
    last = _last_published(world, table)
    rows = []
    for item in table.items:
        for cycle in table.cycles:
            periods = _periods(cycle, _label(cycle, table.start), _label(cycle, last), table.start, last)
            rows.append(
                {
                    "STAT_CODE": table.code,
                    "STAT_NAME": table.name_en if en else table.name,
                    "GRP_CODE": "Group1",
                    "GRP_NAME": "계정항목" if not en else "Items",
                    "ITEM_CODE": item.code,
                    "ITEM_NAME": item.name_en if en else item.name,
                    "P_ITEM_CODE": None,
                    "P_ITEM_NAME": None,
                    "CYCLE": cycle,
                    "START_TIME": periods[0][0] if periods else None,
                    "END_TIME": periods[-1][0] if periods else None,
                    "DATA_CNT": str(
                        len([p for p in periods if _value(econ, table, item, cycle, p[1], p[2]) is not None])
                    ),
                    "UNIT_NAME": item.unit,
                    "WEIGHT": None,
                }
            )
    return _window(params, rows)


def _label(cycle: str, d: date) -> str:
    if cycle == "A":
        return f"{d.year}"
    if cycle == "Q":
        return f"{d.year}Q{(d.month - 1) // 3 + 1}"
    if cycle == "M":
        return f"{d.year}{d.month:02d}"
    return d.strftime("%Y%m%d")


def statistic_search(world: World, params: dict[str, Any]) -> Result:
    _check_type(params)
    cycle = params["CYCLE"]
    start_t, end_t = params["START_TIME"], params["END_TIME"]
    pattern = PERIOD_RE.get(cycle)
    if pattern is None or not re.fullmatch(pattern, start_t) or not re.fullmatch(pattern, end_t):
        raise ApiError("invalid_param", "bad_date", param="START_TIME")
    table = BY_TABLE.get(params["STAT_CODE"])
    if table is None:
        series = SERIES_TABLES.get(params["STAT_CODE"])
        if series is None or cycle not in series.cycles:
            return Result(rows=[], paged=False)
        return _window(params, _series_search(world, series, params))
    if cycle not in table.cycles:
        return Result(rows=[], paged=False)
    items = [i for i in table.items if not params.get("ITEM_CODE1") or i.code == params["ITEM_CODE1"]]
    if any(params.get(f"ITEM_CODE{n}") for n in (2, 3, 4)):
        items = []  # the emulated tables have one item dimension: a second code matches nothing
    en = params.get("lang") == "en"
    econ: EconWorld = world.part("ecos")
    last = _last_published(world, table)
    rows = []
    for item in items:
        for label, a, b in _periods(cycle, start_t, end_t, table.start, last):
            v = _value(econ, table, item, cycle, a, b)
            if v is None:
                continue
            rows.append(
                {
                    "STAT_CODE": table.code,
                    "STAT_NAME": table.name_en if en else table.name,
                    "ITEM_CODE1": item.code,
                    "ITEM_NAME1": item.name_en if en else item.name,
                    "ITEM_CODE2": None,
                    "ITEM_NAME2": None,
                    "ITEM_CODE3": None,
                    "ITEM_NAME3": None,
                    "ITEM_CODE4": None,
                    "ITEM_NAME4": None,
                    "UNIT_NAME": item.unit,
                    "WGT": None,
                    "TIME": label,
                    "DATA_VALUE": _fmt(v),
                }
            )
    return _window(params, rows)


def _series_items(world: World, table: SeriesTable) -> list[dict[str, Any]]:
    """StatisticItemList rows of a drawn table: each item of each axis (Group1 = ITEM_CODE1, Group2 =
    ITEM_CODE2), per cycle, with its span and count of published periods."""
    drawn: EcosSeries = world.part("ecos_series")
    last = table.last_published(world.clock.date())
    rows = []
    for group, axis in (("Group1", 1), ("Group2", 2)):
        seen: dict[str, Any] = {}
        for s in table.series:
            code = s.item_code1 if axis == 1 else s.item_code2
            if code and code not in seen:
                seen[code] = s
        for code, s in seen.items():
            for cycle in table.cycles:
                periods = [
                    p
                    for p in _periods(
                        cycle, _label(cycle, table.start), _label(cycle, last), table.start, last
                    )
                    if drawn.value(table, s, p[1], p[2]) is not None
                ]
                rows.append(
                    {
                        "STAT_CODE": table.code,
                        "STAT_NAME": table.name,
                        "GRP_CODE": group,
                        "GRP_NAME": "계정항목" if axis == 1 else "세부항목",
                        "ITEM_CODE": code,
                        "ITEM_NAME": s.item_name1 if axis == 1 else s.item_name2,
                        "P_ITEM_CODE": None,
                        "P_ITEM_NAME": None,
                        "CYCLE": cycle,
                        "START_TIME": periods[0][0] if periods else None,
                        "END_TIME": periods[-1][0] if periods else None,
                        "DATA_CNT": str(len(periods)),
                        "UNIT_NAME": s.unit or None,
                        "WEIGHT": None,
                    }
                )
    return rows


def _series_search(world: World, table: SeriesTable, params: dict[str, Any]) -> list[dict[str, Any]]:
    """StatisticSearch rows of a drawn table: item by item (ITEM_CODE1/2 filter exactly), period by period."""
    if params.get("ITEM_CODE3") or params.get("ITEM_CODE4"):
        return []  # the drawn tables have at most two item axes
    drawn: EcosSeries = world.part("ecos_series")
    cycle = params["CYCLE"]
    last = table.last_published(world.clock.date())
    rows = []
    for s in table.series:
        if params.get("ITEM_CODE1") and s.item_code1 != params["ITEM_CODE1"]:
            continue
        if params.get("ITEM_CODE2") and s.item_code2 != params["ITEM_CODE2"]:
            continue
        for label, a, b in _periods(cycle, params["START_TIME"], params["END_TIME"], table.start, last):
            v = drawn.value(table, s, a, b)
            if v is not None:
                rows.append(search_row(table, s, label, _fmt(v)))
    return rows


def key_statistic_list(world: World, params: dict[str, Any]) -> Result:
    """100대 통계지표: the latest value of each key indicator (here a handful, the rest synthetic)."""
    _check_type(params)
    econ: EconWorld = world.part("ecos")
    today = world.clock.date()
    y = today - timedelta(days=1)
    while y.weekday() >= 5:
        y -= timedelta(days=1)
    cpi_last = _last_published(world, BY_TABLE["901Y009"])
    cpi_now = econ.cpi[(cpi_last.year, cpi_last.month)]
    cpi_prev = econ.cpi[(cpi_last.year - 1, cpi_last.month)]
    rng = world.rng("ecos-keystat", today.isoformat())
    q_end = date(today.year, ((today.month - 1) // 3) * 3 + 1, 1) - timedelta(days=1)
    quarter = f"{q_end.year}Q{(q_end.month - 1) // 3 + 1}"
    month = f"{cpi_last.year}{cpi_last.month:02d}"
    rows = [
        ("시장금리", "한국은행 기준금리", _fmt(econ.base_rate(today)), today.strftime("%Y%m%d"), "%"),
        ("시장금리", "국고채수익률(3년)", _fmt(econ.kr3[y]), y.strftime("%Y%m%d"), "%"),
        ("환율", "원/달러 환율(종가)", _fmt(econ.usd[y]), y.strftime("%Y%m%d"), "원"),
        ("환율", "원/엔(100엔) 환율(매매기준율)", _fmt(econ.jpy[y]), y.strftime("%Y%m%d"), "원"),
        ("물가", "소비자물가지수", _fmt(cpi_now), month, "2020=100"),
        ("물가", "소비자물가상승률", _fmt(round((cpi_now / cpi_prev - 1) * 100, 1)), month, "%"),
        (
            "성장률",
            "경제성장률(실질, 계절조정 전기대비)",
            _fmt(round(rng.uniform(-0.3, 1.0), 1)),
            quarter,
            "%",
        ),
        ("고용", "실업률", _fmt(round(rng.uniform(2.4, 3.4), 1)), month, "%"),
        ("고용", "고용률", _fmt(round(rng.uniform(62.0, 63.5), 1)), month, "%"),
        ("주식", "KOSPI", _fmt(round(rng.uniform(2400, 3400), 2)), y.strftime("%Y%m%d"), "1980.01.04=100"),
    ]
    out = [
        {"CLASS_NAME": c, "KEYSTAT_NAME": n, "DATA_VALUE": v, "CYCLE": t, "UNIT_NAME": u}
        for c, n, v, t, u in rows
    ]
    return _window(params, out)


# --- spec ----------------------------------------------------------------------------------------

PLATFORM = Platform(
    id="ecos",
    name="한국은행 경제통계시스템 ECOS (Bank of Korea Economic Statistics System)",
    domain="finance",
    live_base_url="https://ecos.bok.or.kr",
    envelope=EcosEnvelope(),
    auth_style="path",
    key_params=("KEY",),
    description="기준금리, 환율, 물가 등 경제통계 (base rate, exchange rates, prices and other statistics)",
    uncertain="error message wording; synthetic values after May 2025 and for non-base-rate series",
)


def _head(*tail: Param) -> list[Param]:
    return [
        Param("KEY", "인증키 (API key)", required=True, location="path", hidden=True),
        Param("type", "요청유형 json|xml (response format)", required=True, location="path", hidden=True),
        Param(
            "lang",
            "언어구분 kr|en (language)",
            required=True,
            location="path",
            enum=("kr", "en"),
            default="kr",
        ),
        Param(
            "start",
            "요청시작건수, 1부터 (first row, 1-based)",
            type="integer",
            required=True,
            location="path",
        ),
        Param("end", "요청종료건수 (last row, inclusive)", type="integer", required=True, location="path"),
        *tail,
    ]


_STAT_FIELDS = {"STAT_CODE": "통계표코드 (table code)", "STAT_NAME": "통계명 (table name)"}
_PREFIX = "/api/{svc}/{KEY}/{type}/{lang}/{start}/{end}"

OPERATIONS = [
    Operation(
        platform="ecos",
        name="StatisticTableList",
        path=_PREFIX.format(
            svc="StatisticTableList", KEY="{KEY}", type="{type}", lang="{lang}", start="{start}", end="{end}"
        )
        + "/{STAT_CODE}",
        summary=(
            "통계표 목록: 조회 가능한 통계표 코드(STAT_CODE)와 주기(CYCLE)를 찾습니다. SRCH_YN=Y인 통계표만 조회할 수 "
            "있습니다. (List statistical tables: STAT_CODE and cycle; only SRCH_YN=Y tables can be searched.)"
        ),
        params=_head(
            Param("STAT_CODE", "통계표코드, 생략 시 전체 (table code; all if omitted)", location="path")
        ),
        handler=statistic_table_list,
        output_fields={
            "P_STAT_CODE": "상위통계표코드 (parent)",
            **_STAT_FIELDS,
            "CYCLE": "주기 D 일, M 월, Q 분기, A 년 (cycle)",
            "SRCH_YN": "검색가능여부 (searchable)",
            "ORG_NAME": "출처 (source)",
        },
        tags=("finance", "code-lookup"),
    ),
    Operation(
        platform="ecos",
        name="StatisticItemList",
        path=_PREFIX.format(
            svc="StatisticItemList", KEY="{KEY}", type="{type}", lang="{lang}", start="{start}", end="{end}"
        )
        + "/{STAT_CODE}",
        summary=(
            "통계 세부항목 목록: 통계표코드로 항목코드(ITEM_CODE), 주기별 자료 기간(START_TIME~END_TIME), 단위를 "
            "조회합니다. (Items of a table: ITEM_CODE, available period per cycle, unit.)"
        ),
        params=_head(
            Param("STAT_CODE", "통계표코드, 예: 722Y001 (table code)", required=True, location="path")
        ),
        handler=statistic_item_list,
        output_fields={
            **_STAT_FIELDS,
            "ITEM_CODE": "통계항목코드 (item code)",
            "ITEM_NAME": "통계항목명 (item name)",
            "CYCLE": "주기 (cycle)",
            "START_TIME": "수록시작일자 (first period)",
            "END_TIME": "수록종료일자 (last period)",
            "DATA_CNT": "자료수 (observations)",
            "UNIT_NAME": "단위 (unit)",
        },
        tags=("finance", "code-lookup"),
    ),
    Operation(
        platform="ecos",
        name="StatisticSearch",
        path=_PREFIX.format(
            svc="StatisticSearch", KEY="{KEY}", type="{type}", lang="{lang}", start="{start}", end="{end}"
        )
        + "/{STAT_CODE}/{CYCLE}/{START_TIME}/{END_TIME}/{ITEM_CODE1}/{ITEM_CODE2}"
        "/{ITEM_CODE3}/{ITEM_CODE4}",
        summary=(
            "통계 조회: 통계표코드, 주기(A 년, Q 분기 2024Q1, M 월 202401, D 일 20240115), 기간, 항목코드로 시계열 값을 "
            "조회합니다. 예: 기준금리 722Y001/0101000, 원/달러 환율 731Y001/0000001, 소비자물가지수 901Y009/0. (Time "
            "series values by table, cycle, period and item; dates follow the cycle's format.)"
        ),
        params=_head(
            Param("STAT_CODE", "통계표코드, 예: 722Y001 (table code)", required=True, location="path"),
            Param(
                "CYCLE",
                "주기: A 년, S 반년, Q 분기, M 월, SM 반월, D 일 (cycle)",
                required=True,
                location="path",
                enum=("A", "S", "Q", "M", "SM", "D"),
            ),
            Param(
                "START_TIME",
                "검색시작일자, 주기 형식: 2024 / 2024Q1 / 202401 / 20240115 (start period)",
                required=True,
                location="path",
            ),
            Param("END_TIME", "검색종료일자, 주기 형식 (end period)", required=True, location="path"),
            Param("ITEM_CODE1", "통계항목코드1, 예: 0101000 (item code; all if omitted)", location="path"),
            Param("ITEM_CODE2", "통계항목코드2 (item code 2)", location="path"),
            Param("ITEM_CODE3", "통계항목코드3 (item code 3)", location="path"),
            Param("ITEM_CODE4", "통계항목코드4 (item code 4)", location="path"),
        ),
        handler=statistic_search,
        output_fields={
            **_STAT_FIELDS,
            "ITEM_CODE1": "통계항목코드1 (item code)",
            "ITEM_NAME1": "통계항목명1 (item name)",
            "UNIT_NAME": "단위 (unit)",
            "TIME": "시점 (period)",
            "DATA_VALUE": "값, 문자열 (value, string)",
        },
        uncertain="S and SM cycles are accepted but no table here has them (INFO-200)",
        tags=("finance", "pagination"),
    ),
    Operation(
        platform="ecos",
        name="KeyStatisticList",
        path=_PREFIX.format(
            svc="KeyStatisticList", KEY="{KEY}", type="{type}", lang="{lang}", start="{start}", end="{end}"
        ),
        summary=(
            "100대 통계지표: 기준금리, 환율, 물가상승률, 경제성장률 등 주요 지표의 최신 값을 조회합니다. (Latest values of "
            "key indicators: base rate, exchange rate, inflation, growth ...; CYCLE holds the period of the value.)"
        ),
        params=_head(),
        handler=key_statistic_list,
        output_fields={
            "CLASS_NAME": "통계그룹명 (group)",
            "KEYSTAT_NAME": "통계명 (indicator)",
            "DATA_VALUE": "값 (value)",
            "CYCLE": "시점 (period of the value)",
            "UNIT_NAME": "단위 (unit)",
        },
        uncertain="only ten of the hundred indicators; growth, employment and KOSPI values are synthetic",
        tags=("finance",),
    ),
]
