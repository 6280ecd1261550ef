"""Real 법정동코드 (legal-dong codes) of Korea: 시도, 시군구 and, for well-known 구, 법정동.

Static, seed-independent data (the same in every world). A code has 10 digits:
시도(2) 시군구(3) 읍면동(3) 리(2), e.g. 1111010100 = 서울특별시 종로구 청운동. ``lawd_cd`` (the
first five digits) is what MOLIT 실거래가 and many other APIs take as LAWD_CD / sigunguCd.

Coverage: all 17 시도 (current codes, incl. 강원특별자치도 51 and 전북특별자치도 52); every 시군구 of
서울, 부산, 대구, 인천, 광주, 대전, 울산, 세종, 경기 and 제주; the main cities of the other
provinces; 법정동 of every 서울 구 and of the big apartment districts of 부산, 경기, 인천, 대구,
대전, 세종 and 제주 (a 시군구 without listed 법정동 has no 실거래 rows in the world). Coordinates are approximate centroids (구청/시청
positions or district centres), good to a few km: enough for the KMA 5 km grid and map points.

The tables are package data: ``data/regions_sido.csv``, ``data/regions_sgg.csv`` and
``data/regions_umd.csv``. UNCERTAIN items are marked in their notes: codes of recently created 구
(부천시 2024, 화성시 2026), the 2026-07-01 인천 reorganisation (not reflected), and some 법정동
codes in the middle of their 구's numbering.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache, cached_property

from kopa_inspect.world.grid import latlon_to_grid
from kopa_inspect.world.tables import read_table

__all__ = ["Region", "all_regions", "by_code", "search", "sggs", "sidos", "umds"]


@dataclass(frozen=True)
class Region:
    code: str  # 10-digit 법정동코드
    name: str  # full name, e.g. "서울특별시 종로구 청운동"
    level: str  # "sido" | "sgg" | "umd"
    sido_name: str
    sgg_name: str  # "" for a 시도; e.g. "수원시 영통구" for a 구 of a 시
    umd_name: str  # "" above the 읍면동 level
    lat: float
    lon: float

    @property
    def lawd_cd(self) -> str:
        return self.code[:5]

    @property
    def sido_cd(self) -> str:
        return self.code[:2]

    @property
    def sgg_cd(self) -> str:
        """Three digits, as in StanReginCd rows (not the five-digit LAWD_CD)."""
        return self.code[2:5]

    @property
    def umd_cd(self) -> str:
        return self.code[5:8]

    @property
    def ri_cd(self) -> str:
        return self.code[8:10]

    @cached_property
    def _grid(self) -> tuple[int, int]:
        return latlon_to_grid(self.lat, self.lon)

    @property
    def nx(self) -> int:
        return self._grid[0]

    @property
    def ny(self) -> int:
        return self._grid[1]

    @property
    def short_sido(self) -> str:
        return SHORT_SIDO[self.sido_cd]

    @property
    def local_name(self) -> str:
        """The lowest part of the name: "종로구", "수원시 영통구", "청운동", "서울특별시"."""
        return self.umd_name or self.sgg_name or self.sido_name


# 2-digit 시도 code -> short name ("11" -> "서울"), filled when the tables are read.
SHORT_SIDO: dict[str, str] = {}
# 2-digit 시도 code -> its 지역번호 ("11" -> "02") and the range of its 우편번호's first two digits.
SIDO_TEL_PREFIX: dict[str, str] = {row["code"]: row["tel_prefix"] for row in read_table("regions_sido.csv")}
SIDO_ZIP_RANGE: dict[str, tuple[int, int]] = {
    row["code"]: (int(row["zip_from"]), int(row["zip_to"])) for row in read_table("regions_sido.csv")
}


def _jitter(code: str, scale: float = 0.012) -> tuple[float, float]:
    """A fixed small offset for a 법정동 whose own centre is not listed (static, not seeded)."""
    d = hashlib.blake2b(code.encode(), digest_size=4).digest()
    return ((d[0] - 127.5) / 127.5 * scale, (d[1] - 127.5) / 127.5 * scale)


@cache
def _build() -> tuple[tuple[Region, ...], dict[str, Region]]:
    regions: list[Region] = []
    sido_by_cd: dict[str, Region] = {}
    for row in read_table("regions_sido.csv"):
        cd, name = row["code"], row["name"]
        SHORT_SIDO[cd] = row["short_name"]
        r = Region(cd + "00000000", name, "sido", name, "", "", float(row["lat"]), float(row["lon"]))
        sido_by_cd[cd] = r
        regions.append(r)
    sgg_by_cd: dict[str, Region] = {}
    for row in read_table("regions_sgg.csv"):
        lawd, sgg_name = row["lawd_cd"], row["name"]
        sido = sido_by_cd[lawd[:2]]
        # 세종 has a single 시군구-level row with the 시도's own name.
        full = sido.name if sgg_name == sido.name else f"{sido.name} {sgg_name}"
        r = Region(lawd + "00000", full, "sgg", sido.name, sgg_name, "", float(row["lat"]), float(row["lon"]))
        sgg_by_cd[lawd] = r
        regions.append(r)
    for row in read_table("regions_umd.csv"):
        sgg = sgg_by_cd[row["lawd_cd"]]
        code = f"{row['lawd_cd']}{row['umd_cd']}00"
        if row["lat"]:
            lat, lon = float(row["lat"]), float(row["lon"])
        else:
            dlat, dlon = _jitter(code)
            lat, lon = round(sgg.lat + dlat, 4), round(sgg.lon + dlon, 4)
        umd_name = row["name"]
        regions.append(
            Region(code, f"{sgg.name} {umd_name}", "umd", sgg.sido_name, sgg.sgg_name, umd_name, lat, lon)
        )
    regions.sort(key=lambda r: r.code)
    index = {r.code: r for r in regions}
    if len(index) != len(regions):
        raise ValueError("duplicate 법정동코드 in regions data")
    return tuple(regions), index


def all_regions() -> tuple[Region, ...]:
    """Every region, sorted by code (시도, then its 시군구, then their 법정동)."""
    return _build()[0]


@cache
def sidos() -> tuple[Region, ...]:
    return tuple(r for r in all_regions() if r.level == "sido")


@cache
def sggs(sido_cd: str | None = None) -> tuple[Region, ...]:
    """시군구 (5-digit LAWD_CD level), optionally of one 시도 (2-digit code)."""
    return tuple(
        r for r in all_regions() if r.level == "sgg" and (sido_cd is None or r.code.startswith(sido_cd))
    )


@cache
def umds(lawd_cd: str | None = None) -> tuple[Region, ...]:
    """법정동 of one 시군구 (LAWD_CD); for a 시 with 구 (e.g. 41135 under 41130) pass the 구's code."""
    return tuple(
        r for r in all_regions() if r.level == "umd" and (lawd_cd is None or r.code.startswith(lawd_cd))
    )


def by_code(code: str) -> Region | None:
    """Lookup by 10-digit code; a 2- or 5-digit prefix is padded with zeros (시도 / 시군구)."""
    code = str(code).strip()
    if code.isdigit() and len(code) in (2, 5, 8):
        code = code.ljust(10, "0")
    return _build()[1].get(code)


@cache
def search(text: str) -> tuple[Region, ...]:
    """Regions whose full name contains ``text`` (spaces ignored on both sides), by code."""
    needle = "".join(str(text).split())
    if not needle:
        return ()
    return tuple(r for r in all_regions() if needle in r.name.replace(" ", ""))


_build()
