"""Officetel buildings and their monthly sales and lease contracts (MOLIT 오피스텔 실거래가 world part).

The officetel twin of :mod:`kopa_inspect.world.trades`, built the same way: buildings are fixed by
the seed and the 시군구; a month's contracts come from a stream keyed by (seed, LAWD_CD, DEAL_YMD)
and the clock only cuts them (months after the clock's month are empty; the clock's month holds
the contracts made before its day). Streams have their own namespaces, so the apartment rows of
a world are the same with or without this part.

Values are synthetic but plausible: officetels are small (20-85 ㎡), cost less per ㎡ than the
district's apartments, and lease more often than they sell, mostly as 월세.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.regions import Region, by_code, umds
from kopa_inspect.world.trades import (
    _PRICE_PER_M2,
    _SIDO_PRICE,
    MonthlyContracts,
    _fmt_amount,
    _stem,
    lease_fields,
)

_NAMES = ("오피스텔", "타워", "스퀘어", "시티", "센트럴", "레지던스", "스테이", "파크뷰", "리버", "더스카이")
_BRANDS = (
    "",
    "",
    "",
    "푸르지오",
    "자이",
    "힐스테이트",
    "롯데캐슬",
    "e편한세상",
    "SK허브",
    "대우",
    "아이파크",
)
_UNITS = (19.9, 23.5, 26.4, 29.8, 33.1, 39.6, 45.2, 59.4, 84.9)
# Sales a month by 시도 (officetel markets are thinner than apartment markets).
_MONTHLY_VOLUME = {"11": (25, 110), "41": (15, 80), "28": (10, 50), "26": (8, 45)}


@dataclass(frozen=True)
class Officetel:
    name: str
    umd: Region
    jibun: str
    build_year: int
    floors: int
    units: tuple[float, ...]
    price_per_m2: int  # 만원


class Officetels(MonthlyContracts):
    """Lazily generated officetel buildings and monthly contracts of one world."""

    def __init__(self, world: World) -> None:
        super().__init__(world)
        self._buildings: dict[str, tuple[Officetel, ...]] = {}

    def buildings(self, lawd_cd: str) -> tuple[Officetel, ...]:
        if lawd_cd not in self._buildings:
            built = self._make_buildings(lawd_cd)
            with self._lock:
                self._buildings.setdefault(lawd_cd, built)
        return self._buildings[lawd_cd]

    def _make_buildings(self, lawd_cd: str) -> tuple[Officetel, ...]:
        sgg = by_code(lawd_cd)
        dongs = umds(lawd_cd)
        if sgg is None or sgg.level != "sgg" or not dongs:
            return ()
        rng = self.world.rng("officetels.buildings", lawd_cd)
        level = _PRICE_PER_M2.get(lawd_cd, _SIDO_PRICE.get(lawd_cd[:2], 350))
        out: list[Officetel] = []
        used: set[str] = set()
        for dong in dongs:
            for _ in range(rng.randint(1, 3)):
                name = rng.choice(_BRANDS) + _stem(dong.umd_name) + rng.choice(_NAMES)
                if name in used:
                    continue
                used.add(name)
                year = rng.randint(1995, 2024)
                main, sub = rng.randint(1, 1500), rng.choice((0, 0, rng.randint(1, 30)))
                out.append(
                    Officetel(
                        name=name,
                        umd=dong,
                        jibun=str(main) + (f"-{sub}" if sub else ""),
                        build_year=year,
                        floors=rng.randint(10, 30),
                        units=tuple(sorted(rng.sample(_UNITS, rng.randint(2, 3)))),
                        price_per_m2=max(
                            120, int(level * 0.4 * (1.0 + (year - 2000) * 0.006) * rng.uniform(0.8, 1.2))
                        ),
                    )
                )
        return tuple(out)

    def _draw(self, kind: str, lawd_cd: str, deal_ymd: str) -> list[dict[str, Any]]:
        buildings = self.buildings(lawd_cd)
        if not buildings:
            return []
        sgg = by_code(lawd_cd)
        assert sgg is not None
        year, month = int(deal_ymd[:4]), int(deal_ymd[4:])
        days = calendar.monthrange(year, month)[1]
        rng = self.world.rng(f"officetels.{kind}", lawd_cd, deal_ymd)
        lo, hi = _MONTHLY_VOLUME.get(lawd_cd[:2], (3, 25))
        count = int(rng.randint(lo, hi) * (2.5 if kind == "rent" else 1.0))
        drift = 1.0 + 0.0015 * ((year - 2020) * 12 + month - 1)
        rows = []
        for _ in range(count):
            b = rng.choice(buildings)
            area = rng.choice(b.units)
            floor = rng.randint(2, b.floors)
            day = rng.randint(1, days)
            value = b.price_per_m2 * area * drift * rng.uniform(0.9, 1.1)
            common = {
                "buildYear": str(b.build_year),
                "dealDay": str(day),
                "dealMonth": str(month),
                "dealYear": str(year),
                "excluUseAr": f"{area:g}",
                "floor": str(floor),
                "jibun": b.jibun,
                "offiNm": b.name,
                "sggCd": lawd_cd,
                "sggNm": sgg.sgg_name,
                "umdNm": b.umd.umd_name,
            }
            if kind == "trade":
                rows.append(self._trade_row(rng, common, int(round(value / 50)) * 50 or 500, sgg))
            else:
                rows.append(self._rent_row(rng, common, value, year, month))
        rows.sort(key=lambda r: (int(r["dealDay"]), r["offiNm"], int(r["floor"])))
        return rows

    def _trade_row(self, rng: Any, common: dict[str, Any], amount: int, sgg: Region) -> dict[str, Any]:
        # Every draw is made whatever the clock; the clock only decides whether a cancellation is known.
        direct = rng.random() < 0.12
        cancelled = rng.random() < 0.03
        cancel_after = rng.randint(5, 40)
        buyer_corp, seller_corp = rng.random() < 0.05, rng.random() < 0.04
        amount_text = _fmt_amount(amount, rng)
        contract = date(int(common["dealYear"]), int(common["dealMonth"]), int(common["dealDay"])).toordinal()
        cancel_day = contract + cancel_after
        known = cancelled and cancel_day < self.world.clock.date().toordinal()
        row = {
            **common,
            "buyerGbn": "법인" if buyer_corp else "개인",
            "cdealDay": date.fromordinal(cancel_day).strftime("%y.%m.%d") if known else " ",
            "cdealType": "O" if known else " ",
            "dealAmount": amount_text,
            "dealingGbn": "직거래" if direct else "중개거래",
            "estateAgentSggNm": " " if direct else f"{sgg.short_sido} {sgg.sgg_name}",
            "slerGbn": "법인" if seller_corp else "개인",
        }
        return dict(sorted(row.items()))

    def _rent_row(
        self, rng: Any, common: dict[str, Any], value: float, year: int, month: int
    ) -> dict[str, Any]:
        jeonse = value * rng.uniform(0.6, 0.8)
        if rng.random() < 0.7:  # 월세 dominates the officetel market
            deposit = int(jeonse * rng.uniform(0.05, 0.3) / 100) * 100 or 500
            rent = int((jeonse - deposit) * 0.055 / 12) or 30
        else:
            deposit, rent = int(jeonse / 100) * 100 or 3000, 0
        renewal = rng.random() < 0.3
        row = {**common, **lease_fields(rng, year, month, deposit, rent, renewal)}
        return dict(sorted(row.items()))


@world_part("officetels")
def build_officetels(world: World) -> Officetels:
    return Officetels(world)
