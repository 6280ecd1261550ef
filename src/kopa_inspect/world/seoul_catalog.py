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
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.catalog_values import (
    GU_BY_NAME,
    SEOUL_GU,
    Gu,
    RowContext,
    generate_value,
    make_context,
)
from kopa_inspect.world.tables import TableError, read_json, read_table

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


# --- transit tables -----------------------------------------------------------------------------

# (line, station name, FR_CODE) in line order (data/seoul_subway.csv).
SUBWAY: tuple[tuple[str, str, str], ...] = tuple(
    (row["line"], row["name"], row["code"]) for row in read_table("seoul_subway.csv")
)


def _bus_routes() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(route number, route name, ("stop:ars group", ...)) in the order of data/seoul_bus_stops.csv."""
    routes: dict[tuple[str, str], list[str]] = {}
    for row in read_table("seoul_bus_stops.csv"):
        routes.setdefault((row["route_no"], row["route_nm"]), []).append(f"{row['stop']}:{row['ars_group']}")
    return tuple((no, name, tuple(stops)) for (no, name), stops in routes.items())


BUS_ROUTES = _bus_routes()
BUS_STOPS: tuple[tuple[int, int, str, str], ...] = tuple(
    (r, s, stop.split(":")[0], stop.split(":")[1])
    for r, (_, _, stops) in enumerate(BUS_ROUTES)
    for s, stop in enumerate(stops)
)
# One id per stop name: a stop served by several routes keeps its ids on every route.
BUS_STOP_SERIAL: dict[str, int] = {
    name: i for i, name in enumerate(dict.fromkeys(stop[2] for stop in BUS_STOPS))
}

# --- the catalog (data/seoul_catalog.json) ------------------------------------------------------
# Real datasets in portal order, then per-district families: every 인허가 kind of
# data/seoul_localdata_kinds.csv, then the 공공시설 themes, each × the 25 자치구. A dataset's
# ``columns`` is a list of [name, description, generator(, dynamic)] or the name of a shared column
# set; ``rows`` a count or the transit table whose rows it has.

CATALOG_FILE = "seoul_catalog.json"
_ROWS_OF_TABLE = {"seoul_subway.csv": len(SUBWAY), "seoul_bus_stops.csv": len(BUS_STOPS)}
_CATALOG = read_json(CATALOG_FILE)
_COLUMN_SETS: dict[str, tuple[Column, ...]] = {
    name: tuple(Column(*col) for col in cols) for name, cols in _CATALOG["column_sets"].items()
}
_FILTER_SETS: dict[str, tuple[Filter, ...]] = {
    name: tuple(Filter(**spec) for spec in specs) for name, specs in _CATALOG["filter_sets"].items()
}


def _dataset(index: int, spec: dict[str, Any], **fixed: Any) -> Dataset:
    fields = {**spec, **fixed}
    columns, filters = fields.pop("columns"), fields.pop("filters", ())
    if isinstance(fields.get("rows"), str):
        fields["rows"] = _ROWS_OF_TABLE[fields["rows"]]
    try:
        return Dataset(
            columns=_COLUMN_SETS[columns] if isinstance(columns, str) else tuple(Column(*c) for c in columns),
            filters=_FILTER_SETS[filters]
            if isinstance(filters, str)
            else tuple(Filter(**f) for f in filters),
            **fields,
        )
    except (TypeError, KeyError) as exc:
        raise TableError(f"{CATALOG_FILE} dataset {index} ({spec.get('service')}): {exc!r}") from exc


def _per_gu(index: int, family: dict[str, Any]) -> list[Dataset]:
    """One dataset of a family a 자치구: ``{abbr}`` and ``{gu}`` in its texts name the district."""
    return [
        _dataset(
            index,
            family,
            service=family["service"].format(abbr=gu.abbr),
            title=family["title"].format(gu=gu.name),
            gloss=family["gloss"].format(gu=gu.name),
            rows=0,
            gu=gu.name,
        )
        for gu in SEOUL_GU
    ]


LOCALDATA_KINDS: tuple[tuple[str, str, str, str], ...] = tuple(
    (row["code"], row["kind"], row["gloss"], row["uptae"]) for row in read_table("seoul_localdata_kinds.csv")
)
_LOCALDATA_FAMILIES = [
    {
        "service": f"LOCALDATA_{code}_{{abbr}}",
        "title": f"서울시 {{gu}} {kind} 인허가 정보",
        "gloss": f"{{gu}} licensed {gloss}",
        "columns": "localdata",
        "filters": "localdata",
        "theme": f"인허가:{kind}:{uptae}",
        "uncertain": "generated catalog dataset: LOCALDATA id scheme UNCERTAIN",
    }
    for code, kind, gloss, uptae in LOCALDATA_KINDS
]

REAL: list[Dataset] = [_dataset(i, spec) for i, spec in enumerate(_CATALOG["real"])]
GENERATED: list[Dataset] = [
    dataset
    for i, family in enumerate([*_LOCALDATA_FAMILIES, *_CATALOG["per_gu"]])
    for dataset in _per_gu(i, family)
]
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
