"""Air-quality monitoring stations and their hourly measurements (AirKorea's world).

Stations are static, seed-independent data: 서울's stations are named after their 구 (as
AirKorea names them: 종로구, 중구, 강남구 ...) plus the real 도로변대기 stations on main roads; other
시도 use the 동/읍 names AirKorea uses (광복동, 수창동, 신흥 ...). Positions are approximate (a few
hundred metres to ~1 km): good for "nearest station" questions, not surveying. Station names
outside 서울 are real-looking, and most are real AirKorea names; UNCERTAIN that every one of them
is still an active station. 부산, 대구 and 인천 hold about as many stations as AirKorea lists there
(20-25 each; the real networks are of that size, UNCERTAIN exact counts), so a 시도-wide query
returns a realistic number of rows; the stations added for that are placed to ~1-2 km (UNCERTAIN).
The stations other than 서울's 구 stations are package data, ``data/air_stations.csv``.

Measurements are a closed-form function of (seed, station, hour): monthly baselines (spring
dust, summer ozone, winter NO2), a diurnal cycle, a smooth regional anomaly shared by nearby
stations, washout when the world's weather says it rains, and rare instrument faults ("-" with a
flag), so a station's history is consistent however it is queried.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache, lru_cache

from kopa_inspect.world import KST, World, world_part
from kopa_inspect.world.regions import sggs, sidos
from kopa_inspect.world.tables import read_table
from kopa_inspect.world.weather import WeatherModel  # importing registers the "weather" part

MANG_NAMES = ("도시대기", "도로변대기", "교외대기", "국가배경농도", "항만")
POLLUTANTS = ("so2", "co", "o3", "no2", "pm10", "pm25")
FLAGS = ("통신장애", "장비점검", "자료이상")  # UNCERTAIN: only 통신장애 is in a recorded body


@dataclass(frozen=True)
class Station:
    name: str  # stationName, unique nationwide
    sido: str  # short 시도 name as AirKorea's sidoName ("서울")
    sido_full: str  # "서울특별시"
    sgg: str  # "종로구", "수원시 팔달구"
    addr: str
    lat: float
    lon: float
    mang: str  # mangName
    code: str  # a stable numeric station code (6 digits)


@cache
def stations() -> tuple[Station, ...]:
    """Every station, grouped by 시도 in AirKorea's order (the later additions last), static across seeds."""
    full = {r.short_sido: r.name for r in sidos()}
    out: list[Station] = []
    # 서울: one 도시대기 station per 구, named by the 구, at the 구's centre.
    for r in sggs("11"):
        out.append(
            Station(
                r.sgg_name,
                "서울",
                full["서울"],
                r.sgg_name,
                f"서울 {r.sgg_name}",
                r.lat,
                r.lon,
                "도시대기",
                "",
            )
        )
    for row in read_table("air_stations.csv"):
        sido, sgg, name = row["sido"], row["sgg"], row["name"]
        place = "" if sgg == full.get(sido) else f" {sgg}"
        # AirKorea writes addresses with the short 시도 name: "서울 종로구 ...", "경기 수원시 팔달구 ...".
        addr = f"{sido}{place} {name.split('(')[0]}"
        out.append(
            Station(
                name,
                sido,
                full.get(sido, sido),
                sgg,
                addr,
                float(row["lat"]),
                float(row["lon"]),
                row["mang"],
                "",
            )
        )
    coded = [
        Station(
            s.name, s.sido, s.sido_full, s.sgg, s.addr, s.lat, s.lon, s.mang, f"{111100 + 10 * i + 1:06d}"
        )
        for i, s in enumerate(out)
    ]
    names = [s.name for s in coded]
    if len(set(names)) != len(names):
        raise ValueError("duplicate AirKorea station names")
    return tuple(coded)


@cache
def station_by_name() -> dict[str, Station]:
    return {s.name: s for s in stations()}


SIDO_ORDER = (
    "서울",
    "부산",
    "대구",
    "인천",
    "광주",
    "대전",
    "울산",
    "경기",
    "강원",
    "충북",
    "충남",
    "전북",
    "전남",
    "경북",
    "경남",
    "제주",
    "세종",
)


def latest_hour(clock: datetime) -> datetime:
    """The newest hour with published data: HH:00 is served from ~HH:15."""
    t = clock.astimezone(KST) - timedelta(minutes=15)
    return t.replace(minute=0, second=0, microsecond=0)


def _u01(*keys: object) -> float:
    d = hashlib.blake2b("\x1f".join(map(str, keys)).encode(), digest_size=8).digest()
    return int.from_bytes(d, "big") / 2**64


# Monthly baselines (서울-like urban background).
_PM10 = (48, 52, 58, 52, 44, 32, 23, 22, 24, 32, 42, 45)
_O3 = (0.018, 0.022, 0.030, 0.036, 0.041, 0.040, 0.030, 0.028, 0.028, 0.024, 0.019, 0.016)
_NO2 = (0.026, 0.025, 0.023, 0.021, 0.019, 0.016, 0.014, 0.014, 0.016, 0.020, 0.024, 0.026)


@dataclass(frozen=True)
class Reading:
    """One station-hour: values in their units (None = missing) and flags."""

    values: dict[str, float | None]
    flags: dict[str, str | None]


class AirModel:
    def __init__(self, world: World) -> None:
        self.seed = world.seed
        self.world = world
        rng = random.Random(f"air|{world.seed}")
        self.waves = [
            (
                rng.uniform(0.004, 0.012),
                rng.uniform(0, 2 * math.pi),
                rng.uniform(-0.01, 0.01),
                2 * math.pi / rng.uniform(30, 140),
                rng.uniform(0, 2 * math.pi),
            )
            for _ in range(4)
        ]

    def _anomaly(self, s: Station, th: float) -> float:
        x, y = (s.lon - 127.0) * 88.8, (s.lat - 36.0) * 111.0
        total = 0.0
        for k, direction, _drift, omega, phase in self.waves:
            total += math.sin(k * (x * math.cos(direction) + y * math.sin(direction)) - omega * th + phase)
        return 0.28 * total  # std ≈ 0.4 in log space

    @lru_cache(maxsize=65536)  # noqa: B019 - one model per world
    def reading(self, name: str, hour: datetime) -> Reading:
        s = station_by_name()[name]
        th = (hour - datetime(2020, 1, 1, tzinfo=KST)).total_seconds() / 3600.0
        m = hour.month - 1
        h = hour.hour
        local = 0.8 + 0.4 * _u01(self.seed, "air-site", name)
        anomaly = math.exp(self._anomaly(s, th))
        model: WeatherModel = self.world.part("weather")
        weather = model.truth(s.lat, s.lon, hour)
        washout = 0.55 if weather.pty else 1.0
        wind = 1.0 / (1.0 + 0.08 * weather.wsd)
        road = s.mang == "도로변대기"
        rural = s.mang in ("교외대기", "국가배경농도")
        jitter = 0.9 + 0.2 * _u01(self.seed, "air-h", name, th)
        pm10 = (
            _PM10[m] * local * anomaly * washout * (1 + 0.12 * math.cos(2 * math.pi * (h - 10) / 24)) * jitter
        )
        pm10 *= 1.15 if road else 0.8 if rural else 1.0
        pm25 = pm10 * (0.45 + 0.15 * _u01(self.seed, "air-ratio", name)) * (0.95 + 0.1 * jitter)
        o3 = (
            _O3[m]
            * (1 + 0.65 * math.cos(2 * math.pi * (h - 15) / 24))
            * (0.8 + 0.3 * local)
            * (0.7 if road else 1.15 if rural else 1.0)
            * (0.8 if weather.pty else 1.0)
        )
        traffic = 1 + 0.3 * math.cos(2 * math.pi * (h - 8) / 12)
        no2 = _NO2[m] * traffic * local * wind * (1.6 if road else 0.45 if rural else 1.0) * jitter
        co = 0.22 + 9.0 * no2 + 0.05 * local
        so2 = 0.0022 + 0.0015 * local * (1.8 if s.mang == "항만" or s.sido in ("울산",) else 1.0)
        values: dict[str, float | None] = {
            "so2": round(so2, 3),
            "co": round(co, 1),
            "o3": round(max(0.002, o3), 3),
            "no2": round(no2, 3),
            "pm10": float(max(3, round(pm10 * wind))),
            "pm25": float(max(1, round(pm25 * wind))),
        }
        flags: dict[str, str | None] = dict.fromkeys(POLLUTANTS)
        for p in POLLUTANTS:
            u = _u01(self.seed, "air-fault", name, p, th)
            if u < 0.012:  # ~1 % of station-hours lose a pollutant
                values[p] = None
                flags[p] = FLAGS[int(u * 1000) % len(FLAGS)]
        return Reading(values, flags)

    def mean24(self, name: str, hour: datetime, pollutant: str) -> float | None:
        """24-hour moving average ending at ``hour`` (missing hours skipped)."""
        vals = [
            v
            for i in range(24)
            if (v := self.reading(name, hour - timedelta(hours=i)).values[pollutant]) is not None
        ]
        return sum(vals) / len(vals) if len(vals) >= 12 else None


@world_part("air")
def _build(world: World) -> AirModel:
    return AirModel(world)
