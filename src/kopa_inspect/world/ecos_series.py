"""The ECOS statistic tables beyond the hand-built four: money, credit, prices, national accounts,
the balance of payments, trade, sentiment and markets (world part ``ecos_series``).

The tables and their items are package data (``data/ecos_tables.csv``, ``data/ecos_items.csv``):
the stat and item codes real clients send, with a recipe per series. Values are SYNTHETIC:
each series is drawn once per seed at its finest cycle (daily, monthly or quarterly) from its own
stream, as a level with a yearly trend and a persistent (AR(1)) wobble, or as a spread over the
base rate the world already holds (722Y001); a coarser cycle combines the finest periods it
covers (mean, sum or last). A period is published ``lag_days`` after it ends, so a table's data
stops where the clock says the real release would.
"""

from __future__ import annotations

import bisect
import math
import threading
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.tables import read_table

# Series are drawn up to the end of this year: a world whose clock lies later has no new data.
LAST_YEAR = 2028
_RHO = 0.85  # month-to-month persistence of the wobble (daily series use its 21st root)


@dataclass(frozen=True)
class Series:
    item_code1: str
    item_name1: str
    item_code2: str
    item_name2: str
    unit: str
    kind: str  # index | level | base_spread
    level: float
    trend: float
    noise: float
    dp: int
    agg: str  # mean | sum | last


@dataclass(frozen=True)
class SeriesTable:
    code: str
    name: str
    parent: str
    cycles: tuple[str, ...]  # finest first
    start: date
    lag_days: int
    market_days: bool
    series: tuple[Series, ...]

    @property
    def finest(self) -> str:
        return self.cycles[0]

    def last_published(self, today: date) -> date:
        return today - timedelta(days=self.lag_days)


def _load() -> dict[str, SeriesTable]:
    by_table: dict[str, list[Series]] = {}
    for r in read_table("ecos_items.csv"):
        by_table.setdefault(r["stat_code"], []).append(
            Series(
                r["item_code1"],
                r["item_name1"],
                r["item_code2"],
                r["item_name2"],
                r["unit"],
                r["kind"],
                float(r["level"]),
                float(r["trend"]),
                float(r["noise"]),
                int(r["dp"]),
                r["agg"],
            )
        )
    tables = {}
    for r in read_table("ecos_tables.csv"):
        start = r["start"]
        tables[r["stat_code"]] = SeriesTable(
            r["stat_code"],
            r["stat_name"],
            r["p_stat_code"],
            tuple(r["cycles"].split("|")),
            date(int(start[:4]), int(start[4:6]), int(start[6:])),
            int(r["lag_days"]),
            r["market_days"] == "Y",
            tuple(by_table.get(r["stat_code"], ())),
        )
    return tables


SERIES_TABLES: dict[str, SeriesTable] = _load()


def _month_end(y: int, m: int) -> date:
    return date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)


def finest_periods(table: SeriesTable) -> list[tuple[date, date]]:
    """(first day, last day) of every finest period from the table's start to the end of LAST_YEAR."""
    out = []
    end = date(LAST_YEAR, 12, 31)
    if table.finest == "D":
        d = table.start
        while d <= end:
            if not (table.market_days and d.weekday() >= 5):
                out.append((d, d))
            d += timedelta(days=1)
        return out
    step = {"M": 1, "Q": 3, "A": 12}[table.finest]
    y, m = table.start.year, table.start.month
    while y <= LAST_YEAR:
        last_month = m + step - 1
        out.append((date(y, m, 1), _month_end(y + (last_month - 1) // 12, (last_month - 1) % 12 + 1)))
        m += step
        if m > 12:
            y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    return out


class EcosSeries:
    """The drawn series of one world, built per series on first use."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._drawn: dict[tuple[str, str, str], tuple[list[date], list[float]]] = {}
        self._lock = threading.Lock()

    def _draw(self, table: SeriesTable, s: Series) -> tuple[list[date], list[float]]:
        key = (table.code, s.item_code1, s.item_code2)
        cached = self._drawn.get(key)
        if cached is not None:
            return cached
        periods = finest_periods(table)
        rng = self.world.rng("ecos-series", *key)
        rho = _RHO ** {"D": 1 / 21, "M": 1.0, "Q": 3.0, "A": 12.0}[table.finest]
        shock = s.noise * math.sqrt(1 - rho * rho)
        wobble = rng.gauss(0, s.noise)
        base = self.world.part("ecos") if s.kind == "base_spread" else None
        starts, values = [], []
        for a, b in periods:
            wobble = rho * wobble + rng.gauss(0, shock)
            years = (a + (b - a) / 2 - date(2020, 1, 1)).days / 365.25
            if s.kind == "index":
                v = s.level * (1 + s.trend) ** years * (1 + wobble)
            elif s.kind == "base_spread":
                assert base is not None
                v = max(0.05, base.base_rate(b) + s.level + wobble)
            else:
                v = s.level + s.trend * years + wobble
            starts.append(a)
            values.append(v)
        with self._lock:
            return self._drawn.setdefault(key, (starts, values))

    def value(self, table: SeriesTable, s: Series, a: date, b: date) -> float | None:
        """The series over [a, b]: its finest periods inside combined by the series' rule, or None."""
        starts, values = self._draw(table, s)
        lo, hi = bisect.bisect_left(starts, a), bisect.bisect_right(starts, b)
        inside = values[lo:hi]
        if not inside:
            return None
        if s.agg == "sum":
            v = sum(inside)
        elif s.agg == "last":
            v = inside[-1]
        else:
            v = sum(inside) / len(inside)
        return round(v, s.dp)


@world_part("ecos_series")
def build_ecos_series(world: World) -> EcosSeries:
    return EcosSeries(world)


def search_row(table: SeriesTable, s: Series, label: str, value: str) -> dict[str, Any]:
    """A StatisticSearch row of one observation (the value as ECOS writes it)."""
    return {
        "STAT_CODE": table.code,
        "STAT_NAME": table.name,
        "ITEM_CODE1": s.item_code1,
        "ITEM_NAME1": s.item_name1,
        "ITEM_CODE2": s.item_code2 or None,
        "ITEM_NAME2": s.item_name2 or None,
        "ITEM_CODE3": None,
        "ITEM_NAME3": None,
        "ITEM_CODE4": None,
        "ITEM_NAME4": None,
        "UNIT_NAME": s.unit or None,
        "WGT": None,
        "TIME": label,
        "DATA_VALUE": value,
    }
