"""Apartment complexes and their monthly sales and lease contracts (MOLIT 실거래가 world part).

Complexes are fixed by the seed and the 법정동 (same names, addresses and build years in every
month and every clock). Contracts of one month are drawn from a stream keyed by (seed, LAWD_CD,
DEAL_YMD), so a month's rows never depend on which other months were asked for; the clock only
cuts them: months after the clock's month have no rows, and the clock's own month holds the
contracts made before the clock's day (real reports lag the contract by days to weeks).

Values are synthetic but plausible: Seoul 구 see dozens to a few hundred sales a month, prices
scale with a per-district level (강남 3구 highest), areas come from typical unit types.
"""

from __future__ import annotations

import calendar
import threading
from dataclasses import dataclass
from datetime import date
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.regions import Region, by_code, umds
from kopa_inspect.world.tables import read_table

# 만원 per ㎡ of exclusive area by 시군구 (data/apartment_price_levels.csv); districts not listed use
# their 시도's level.
_PRICE_PER_M2: dict[str, int] = {
    row["lawd_cd"]: int(row["price_per_m2"]) for row in read_table("apartment_price_levels.csv")
}
_SIDO_PRICE = {"11": 1100, "26": 450, "41": 650, "50": 450, "28": 450, "27": 400, "30": 400, "36": 500}
_MONTHLY_VOLUME = {"11": (80, 300), "41": (50, 220), "26": (40, 160), "50": (20, 90)}

_BRANDS = (
    "래미안",
    "자이",
    "힐스테이트",
    "e편한세상",
    "푸르지오",
    "아이파크",
    "롯데캐슬",
    "더샵",
    "SK뷰",
    "두산위브",
    "호반써밋",
    "센트레빌",
    "하늘채",
    "데시앙",
    "꿈에그린",
)
_OLD = (
    "현대",
    "한신",
    "삼성",
    "우성",
    "대림",
    "쌍용",
    "벽산",
    "신동아",
    "한양",
    "동아",
    "극동",
    "럭키",
    "삼익",
    "진흥",
)
_SUFFIX = ("", "1차", "2차", "3차", "센트럴", "퍼스트", "리버뷰", "파크", "에듀포레", "더퍼스트")
_ROADS = ("로", "길", "대로")
_UNIT_TYPES = (39.6, 49.94, 59.97, 59.99, 74.91, 84.95, 84.99, 101.9, 114.87, 134.8, 164.3)
_ESTATE_SHORT = {"서울": "서울", "부산": "부산", "경기": "경기", "제주": "제주"}


@dataclass(frozen=True)
class Complex:
    seq: str  # aptSeq "{LAWD_CD}-{n}"
    name: str
    umd: Region
    jibun_main: int
    jibun_sub: int
    road_name: str
    road_code: str  # 7 digits
    road_main: int
    build_year: int
    floors: int
    units: tuple[float, ...]
    price_per_m2: int  # 만원


def _stem(umd_name: str) -> str:
    """The part of a 법정동 name used in complex names: 수성동1가 -> 수성, 도두일동 -> 도두, 반포동 -> 반포."""
    name = umd_name
    if name.endswith("가") and len(name) > 2:
        name = name[:-1].rstrip("0123456789")
    for tail in ("일동", "이동", "삼동"):
        if name.endswith(tail) and len(name) > 3:
            return name[: -len(tail)]
    if name[-1:] in ("동", "로") and len(name) > 2:
        name = name[:-1]
    return name


def _fmt_amount(value: int, rng: Any) -> str:
    """만원 with thousands commas; the real feed often right-aligns with leading spaces."""
    text = f"{value:,}"
    if rng.random() < 0.5:
        text = text.rjust(7 if value < 100000 else 8)
    return text


class MonthlyContracts:
    """A month's contracts of one kind ("trade" | "rent") in a 시군구, drawn once and cached.

    Subclasses draw a month's rows whatever the clock (:meth:`_draw`); the clock only cuts them to
    the contracts known by then.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self._months: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def _cutoff(self, deal_ymd: str) -> int:
        """Last day of the month whose contracts are known at the clock (0: none)."""
        year, month = int(deal_ymd[:4]), int(deal_ymd[4:])
        clock = self.world.clock.date()
        if date(year, month, 1) > clock:
            return 0
        if (year, month) == (clock.year, clock.month):
            return clock.day - 1
        return calendar.monthrange(year, month)[1]

    def trades(self, lawd_cd: str, deal_ymd: str) -> list[dict[str, Any]]:
        return self._month("trade", lawd_cd, deal_ymd)

    def rents(self, lawd_cd: str, deal_ymd: str) -> list[dict[str, Any]]:
        return self._month("rent", lawd_cd, deal_ymd)

    def _month(self, kind: str, lawd_cd: str, deal_ymd: str) -> list[dict[str, Any]]:
        key = (kind, lawd_cd, deal_ymd)
        cached = self._months.get(key)
        if cached is not None:
            return cached
        # Drawn outside the lock: a draw builds the district's buildings, which may take it.
        cut = self._cutoff(deal_ymd)
        rows = [r for r in self._draw(kind, lawd_cd, deal_ymd) if int(r["dealDay"]) <= cut] if cut else []
        with self._lock:
            return self._months.setdefault(key, rows)

    def _draw(self, kind: str, lawd_cd: str, deal_ymd: str) -> list[dict[str, Any]]:
        raise NotImplementedError


class Trades(MonthlyContracts):
    """Lazily generated complexes and monthly contracts of one world."""

    def __init__(self, world: World) -> None:
        super().__init__(world)
        self._complexes: dict[str, tuple[Complex, ...]] = {}

    # complexes -----------------------------------------------------------------------
    def complexes(self, lawd_cd: str) -> tuple[Complex, ...]:
        if lawd_cd not in self._complexes:
            self._complexes[lawd_cd] = self._make_complexes(lawd_cd)
        return self._complexes[lawd_cd]

    def _make_complexes(self, lawd_cd: str) -> tuple[Complex, ...]:
        sgg = by_code(lawd_cd)
        dongs = umds(lawd_cd)
        if sgg is None or sgg.level != "sgg" or not dongs:
            return ()
        rng = self.world.rng("trades.complexes", lawd_cd)
        level = _PRICE_PER_M2.get(lawd_cd, _SIDO_PRICE.get(lawd_cd[:2], 350))
        out: list[Complex] = []
        used: set[str] = set()
        n = 0
        # Districts with few 법정동 (양천구: 신정·목동·신월) still get a dozen or more complexes.
        per_dong = max(1, -(-18 // len(dongs)))
        for dong in dongs:
            for _ in range(rng.randint(per_dong, per_dong + 4)):
                old = rng.random() < 0.45
                year = rng.randint(1979, 2002) if old else rng.randint(2003, 2024)
                if old:
                    name = rng.choice((_stem(dong.umd_name), *_OLD)) + rng.choice(
                        ("", "1", "2", "3", "아파트")
                    )
                else:
                    name = rng.choice(
                        (
                            _stem(dong.umd_name) + rng.choice(_BRANDS),
                            rng.choice(_BRANDS) + _stem(dong.umd_name),
                        )
                    )
                    name += rng.choice(_SUFFIX)
                if name in used:
                    continue
                used.add(name)
                n += 1
                age_factor = 1.0 + (year - 2000) * 0.008
                units = tuple(
                    sorted(rng.sample(_UNIT_TYPES[1:] if not old else _UNIT_TYPES, rng.randint(2, 4)))
                )
                out.append(
                    Complex(
                        seq=f"{lawd_cd}-{rng.randint(n * 10, n * 10 + 9)}",
                        name=name,
                        umd=dong,
                        jibun_main=rng.randint(1, 1200),
                        jibun_sub=rng.choice((0, 0, 0, rng.randint(1, 40))),
                        road_name=_stem(dong.umd_name)
                        + rng.choice(_ROADS)
                        + (str(rng.randint(1, 40)) + "길" if rng.random() < 0.4 else ""),
                        road_code=f"{rng.randint(3000000, 4999999)}",
                        road_main=rng.randint(1, 600),
                        build_year=year,
                        floors=rng.randint(5, 15) if old else rng.randint(12, 49),
                        units=units,
                        price_per_m2=max(150, int(level * age_factor * rng.uniform(0.8, 1.25))),
                    )
                )
        return tuple(out)

    # contracts ------------------------------------------------------------------------
    def _draw(self, kind: str, lawd_cd: str, deal_ymd: str) -> list[dict[str, Any]]:
        cx = self.complexes(lawd_cd)
        if not cx:
            return []
        year, month = int(deal_ymd[:4]), int(deal_ymd[4:])
        days = calendar.monthrange(year, month)[1]
        rng = self.world.rng(f"trades.{kind}", lawd_cd, deal_ymd)
        lo, hi = _MONTHLY_VOLUME.get(lawd_cd[:2], (10, 80))
        # A per-district activity level (seed-static) times a per-month swing.
        activity = self.world.rng("trades.activity", lawd_cd).uniform(0.6, 1.0)
        count = int(rng.randint(lo, hi) * activity * (2.2 if kind == "rent" else 1.0))
        # Slow market drift: +0.25 % a month from 2020-01, and a seasonal wobble.
        months_since = (year - 2020) * 12 + month - 1
        drift = 1.0 + 0.0025 * months_since
        sgg = by_code(lawd_cd)
        assert sgg is not None
        agent_sgg = f"{sgg.short_sido} {sgg.sgg_name}"
        rows = []
        for _ in range(count):
            c = rng.choice(cx)
            area = (
                rng.choice(c.units)
                if rng.random() < 0.9
                else round(rng.choice(c.units) + rng.uniform(-0.5, 0.5), 2)
            )
            floor = rng.randint(1, c.floors) if rng.random() > 0.01 else -1
            day = rng.randint(1, days)
            value = c.price_per_m2 * area * drift * rng.uniform(0.9, 1.1) * (1.0 + 0.004 * min(floor, 20))
            common = {
                "aptNm": c.name,
                "aptSeq": c.seq,
                "buildYear": str(c.build_year),
                "dealDay": str(day),
                "dealMonth": str(month),
                "dealYear": str(year),
                "excluUseAr": f"{area:.2f}".rstrip("0").rstrip(".") if rng.random() < 0.3 else f"{area:g}",
                "floor": str(floor),
                "jibun": str(c.jibun_main) + (f"-{c.jibun_sub}" if c.jibun_sub else ""),
                "sggCd": lawd_cd,
                "umdNm": c.umd.umd_name,
            }
            if kind == "trade":
                step = 500 if value >= 100000 else 100
                rows.append(
                    self._trade_row(
                        rng, c, common, int(round(value / step)) * step, agent_sgg, year, month, day
                    )
                )
            else:
                rows.append(self._rent_row(rng, c, common, value, year, month))
        rows.sort(key=lambda r: (int(r["dealDay"]), r["aptSeq"], int(r["floor"])))
        return rows

    def _trade_row(
        self,
        rng: Any,
        c: Complex,
        common: dict[str, Any],
        amount: int,
        agent_sgg: str,
        year: int,
        month: int,
        day: int,
    ) -> dict[str, Any]:
        # Every draw is made whatever the clock, so the stream (and the month's rows) never
        # depends on the clock; the clock only decides whether a registration is known yet.
        direct = rng.random() < 0.1
        cancelled = rng.random() < 0.03
        cancel_after, register_after = rng.randint(5, 40), rng.randint(20, 45)
        registers = rng.random() < 0.85
        contract = date(year, month, day).toordinal()
        today = self.world.clock.date().toordinal()

        def yymmdd(ordinal: int) -> str:
            return date.fromordinal(ordinal).strftime("%y.%m.%d")

        cancel_day = contract + cancel_after
        register_day = contract + register_after
        dong = str(rng.randint(101, 120))
        has_dong = rng.random() < 0.25
        buyer_corp, seller_corp = rng.random() < 0.03, rng.random() < 0.02
        amount_text = _fmt_amount(amount, rng)
        row = {
            **common,
            "aptDong": dong if has_dong else " ",
            "bonbun": f"{c.jibun_main:04d}",
            "bubun": f"{c.jibun_sub:04d}",
            "buyerGbn": "법인" if buyer_corp else "개인",
            "cdealDay": yymmdd(cancel_day) if cancelled and cancel_day < today else " ",
            "cdealType": "O" if cancelled and cancel_day < today else " ",
            "dealAmount": amount_text,
            "dealingGbn": "직거래" if direct else "중개거래",
            "estateAgentSggNm": " " if direct else agent_sgg,
            "landCd": "1",
            "landLeaseholdGbn": "N",
            "rgstDate": yymmdd(register_day) if registers and not cancelled and register_day < today else " ",
            "roadNm": c.road_name,
            "roadNmBonbun": f"{c.road_main:05d}",
            "roadNmBubun": "00000",
            "roadNmCd": c.road_code,
            "roadNmSeq": "01",
            "roadNmSggCd": common["sggCd"],
            "roadNmbCd": "0",
            "slerGbn": "법인" if seller_corp else "개인",
            "umdCd": c.umd.code[5:10],
        }
        return dict(sorted(row.items()))

    def _rent_row(
        self, rng: Any, c: Complex, common: dict[str, Any], value: float, year: int, month: int
    ) -> dict[str, Any]:
        jeonse = value * rng.uniform(0.45, 0.6)
        monthly_kind = rng.random() < 0.45
        if monthly_kind:
            deposit = int(jeonse * rng.uniform(0.1, 0.5) / 500) * 500 or 500
            rent = int((jeonse - deposit) * 0.045 / 12 / 5) * 5 or 10
        else:
            deposit, rent = int(jeonse / 500) * 500 or 1000, 0
        renewal = rng.random() < 0.35
        row = {
            **common,
            **lease_fields(rng, year, month, deposit, rent, renewal),
            "roadnm": c.road_name,
            "roadnmbcd": "0",
            "roadnmbonbun": f"{c.road_main:05d}",
            "roadnmbubun": "00000",
            "roadnmcd": c.road_code,
            "roadnmseq": "01",
            "roadnmsggcd": common["sggCd"],
        }
        return dict(sorted(row.items()))


def lease_fields(rng: Any, year: int, month: int, deposit: int, rent: int, renewal: bool) -> dict[str, str]:
    """The contract fields MOLIT's lease lists share (apartments and officetels): the term from the
    next month, new or renewed, the amounts, the previous ones on a renewal and the renewal right;
    ``rng`` drawn in the order the rows have always drawn it (term, amount's form, renewal right)."""
    start_y, start_m = (year, month + 1) if month < 12 else (year + 1, 1)
    term = (
        f"{start_y % 100:02d}.{start_m:02d}~{(start_y + 2) % 100:02d}.{start_m:02d}"
        if rng.random() < 0.7
        else " "
    )
    return {
        "contractTerm": term,
        "contractType": ("갱신" if renewal else "신규") if term != " " else " ",
        "deposit": _fmt_amount(deposit, rng),
        "monthlyRent": f"{rent:,}",
        "preDeposit": f"{int(deposit * 0.95 / 100) * 100:,}" if renewal else " ",
        "preMonthlyRent": f"{int(rent * 0.95):,}" if renewal else " ",
        "useRRRight": "사용" if renewal and rng.random() < 0.6 else " ",
    }


@world_part("trades")
def build_trades(world: World) -> Trades:
    return Trades(world)
