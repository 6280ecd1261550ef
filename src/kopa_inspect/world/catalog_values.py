"""Value generators shared by the catalog portals (서울 열린데이터광장, 열린국회정보).

Catalog datasets are declared as columns with a *generator spec* (``"tel"``, ``"int:1:50"``,
``"choice:운영|휴관"`` ...). One small interpreter turns a spec into a plausible string value, so
several hundred datasets need no code of their own. Values are strings, as both portals send
them (numbers included). Every value is drawn from a :class:`random.Random` the caller fixes
from (seed, dataset, row), so the same world gives the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from kopa_inspect.world.tables import read_table


@dataclass(frozen=True)
class Gu:
    """One of the 25 자치구 of Seoul (package data, ``data/seoul_gu.csv``)."""

    name: str
    code: str  # 5-digit 시군구 code (법정동코드 prefix)
    abbr: str  # short roman code for generated ids (not an official code)
    lat: float
    lon: float
    dongs: tuple[str, ...]
    roads: tuple[str, ...]
    region: str  # 서울시 대기 권역 (도심권, 서북권, 동북권, 서남권, 동남권)


def _gu(row: dict[str, str]) -> Gu:
    return Gu(
        row["name"],
        row["code"],
        row["abbr"],
        float(row["lat"]),
        float(row["lon"]),
        tuple(row["dongs"].split("|")),
        tuple(row["roads"].split("|")),
        row["region"],
    )


SEOUL_GU: tuple[Gu, ...] = tuple(_gu(row) for row in read_table("seoul_gu.csv"))
GU_BY_NAME = {g.name: g for g in SEOUL_GU}

SURNAMES = "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민"
GIVEN = (
    "민준",
    "서연",
    "지호",
    "하은",
    "도윤",
    "지우",
    "현우",
    "수빈",
    "준서",
    "예린",
    "성민",
    "은지",
    "태현",
    "지민",
    "영수",
    "미경",
    "정훈",
    "혜진",
    "상철",
    "유진",
    "동현",
    "소영",
    "재원",
    "나연",
    "승우",
    "가은",
)
NAME_PREFIX = (
    "한빛",
    "푸른",
    "새봄",
    "다온",
    "늘봄",
    "행복",
    "미래",
    "해오름",
    "솔빛",
    "가온",
    "온누리",
    "별빛",
    "청솔",
    "우리",
    "하늘",
    "초록",
    "다솜",
    "한울",
    "바른",
    "으뜸",
    "참좋은",
    "누리",
    "은하수",
    "사랑",
)


def person(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + rng.choice(GIVEN)


def business_name(rng: random.Random, suffix: str) -> str:
    return f"{rng.choice(NAME_PREFIX)}{suffix}"


def tel(rng: random.Random) -> str:
    return f"02-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"


def road_address(rng: random.Random, gu: Gu) -> str:
    return f"서울특별시 {gu.name} {rng.choice(gu.roads)} {rng.randint(1, 320)}"


def jibun_address(rng: random.Random, gu: Gu, dong: str) -> str:
    return f"서울특별시 {gu.name} {dong.rstrip('0123456789본가동') or dong}동 {rng.randint(1, 900)}-{rng.randint(1, 40)}"


def coord(rng: random.Random, gu: Gu) -> tuple[float, float]:
    return gu.lat + rng.uniform(-0.018, 0.018), gu.lon + rng.uniform(-0.022, 0.022)


def day_before(end: date, rng: random.Random, max_days: int) -> date:
    return end - timedelta(days=rng.randint(0, max_days))


@dataclass
class RowContext:
    """What the columns of one row share, so that address, 자치구 and coordinates agree."""

    index: int
    gu: Gu
    dong: str
    lat: float
    lon: float
    today: date
    key: str | None = None  # the value of the dataset's key filter (a date, a 대수 ...)
    extra: dict[str, Any] | None = None


def make_context(
    rng: random.Random, index: int, today: date, gu: Gu | None = None, key: str | None = None
) -> RowContext:
    g = gu or rng.choice(SEOUL_GU)
    lat, lon = coord(rng, g)
    return RowContext(index=index, gu=g, dong=rng.choice(g.dongs), lat=lat, lon=lon, today=today, key=key)


def _int(rng: random.Random, args: list[str], _: RowContext) -> str:
    return str(rng.randint(int(args[0]), int(args[1])))


def _float(rng: random.Random, args: list[str], _: RowContext) -> str:
    dec = int(args[2]) if len(args) > 2 else 1
    return f"{rng.uniform(float(args[0]), float(args[1])):.{dec}f}"


def _date(rng: random.Random, args: list[str], ctx: RowContext, fmt: str = "%Y%m%d") -> str:
    days = int(args[0]) if args else 3650
    return day_before(ctx.today, rng, days).strftime(fmt)


def _future_date(rng: random.Random, args: list[str], ctx: RowContext) -> str:
    days = int(args[0]) if args else 90
    return (ctx.today + timedelta(days=rng.randint(0, days))).strftime("%Y-%m-%d")


def _id(rng: random.Random, args: list[str], ctx: RowContext) -> str:
    prefix = args[0] if args else ""
    width = int(args[1]) if len(args) > 1 else 6
    return f"{prefix}{ctx.index + 1:0{width}d}"


GENERATORS: dict[str, Callable[[random.Random, list[str], RowContext], str]] = {
    "seq": lambda rng, a, c: str(c.index + 1),
    "id": _id,
    "int": _int,
    "float": _float,
    "choice": lambda rng, a, c: rng.choice(":".join(a).split("|")),
    "const": lambda rng, a, c: ":".join(a),
    "gu": lambda rng, a, c: c.gu.name,
    "gu_code": lambda rng, a, c: c.gu.code,
    "region": lambda rng, a, c: c.gu.region,
    "dong": lambda rng, a, c: c.dong,
    "addr": lambda rng, a, c: road_address(rng, c.gu),
    "jibun": lambda rng, a, c: jibun_address(rng, c.gu, c.dong),
    "lat": lambda rng, a, c: f"{c.lat:.{int(a[0]) if a else 6}f}",
    "lon": lambda rng, a, c: f"{c.lon:.{int(a[0]) if a else 6}f}",
    # 중부원점 TM (EPSG:2097-like metres), roughly consistent with lat/lon around Seoul.
    "tm_x": lambda rng, a, c: f"{200000 + (c.lon - 127.0) * 88_800:.4f}",
    "tm_y": lambda rng, a, c: f"{500000 + (c.lat - 38.0) * 111_000:.4f}",
    "tel": lambda rng, a, c: tel(rng),
    "person": lambda rng, a, c: person(rng),
    "masked_person": lambda rng, a, c: person(rng)[0] + "*" + person(rng)[-1],
    "name": lambda rng, a, c: business_name(rng, a[0] if a else ""),
    "place": lambda rng, a, c: f"{c.dong.rstrip('0123456789')} {a[0] if a else ''}".strip(),
    "date": _date,
    "date_dash": lambda rng, a, c: _date(rng, a, c, "%Y-%m-%d"),
    "datetime": lambda rng, a, c: (
        _date(rng, a, c, "%Y-%m-%d") + f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00"
    ),
    "future": _future_date,
    "ym": lambda rng, a, c: _date(rng, a, c, "%Y%m"),
    "year": lambda rng, a, c: str(c.today.year - rng.randint(0, int(a[0]) if a else 30)),
    "yn": lambda rng, a, c: rng.choice(("Y", "N")),
    "url": lambda rng, a, c: f"https://{a[0] if a else 'www.seoul.go.kr'}/{rng.randint(1000, 99999)}",
    "key": lambda rng, a, c: c.key or "",
    "money": lambda rng, a, c: str(rng.randint(int(a[0]), int(a[1])) * (int(a[2]) if len(a) > 2 else 1)),
    "text": lambda rng, a, c: rng.choice(":".join(a).split("|")) if a else "",
}


@lru_cache(maxsize=4096)
def _parse(spec: str) -> tuple[Callable[[random.Random, list[str], RowContext], str], list[str]]:
    kind, *args = spec.split(":")
    try:
        return GENERATORS[kind], args
    except KeyError:
        raise ValueError(f"unknown column generator {spec!r}") from None


def generate_value(spec: str, rng: random.Random, ctx: RowContext) -> str:
    fn, args = _parse(spec)
    return fn(rng, args, ctx)
