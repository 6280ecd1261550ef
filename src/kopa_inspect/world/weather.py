"""A smooth, deterministic "true" weather over Korea, and forecasts of it.

Why this shape: the KMA emulator must answer any (grid cell, hour, issuance) consistently — the
same hour seen through 초단기실황, 초단기예보, 단기예보 and 중기예보 must tell one story, and the
same request must give the same bytes. So the weather is a closed-form function of
(seed, position, time) rather than a stored table:

- climatology: an annual cosine whose mean and amplitude depend on latitude (fitted by hand to
  서울 / 부산 / 제주 normals: 서울 Jan ≈ -2 ℃, Aug ≈ 26 ℃; 제주 Jan ≈ 6 ℃);
- a diurnal cycle (minimum near 05 KST, maximum near 15 KST), damped by cloud;
- synoptic anomalies: a few travelling sine waves per field (temperature, wetness, wind) with
  wavelengths of hundreds of km and periods of days, their phases drawn once from the seed.

Forecasts are truth plus an error that is itself a smooth wave field keyed by the issuance
time (base_date+base_time, or tmFc) and grows with lead time, so one issuance is internally
consistent and successive issuances converge on the truth.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from kopa_inspect.world import KST, World, world_part

_EPOCH = datetime(2020, 1, 1, tzinfo=KST)

# Rain threshold on the wetness field per month (higher = drier); the wetness field is ~N(0,1),
# so P(rain) ≈ 1 - Φ(threshold): ≈ 10-15 % of hours in winter, ≈ 30 % in the 장마 (Jul).
_RAIN_THRESHOLD = (1.35, 1.3, 1.2, 1.1, 1.1, 0.9, 0.55, 0.7, 1.0, 1.3, 1.25, 1.3)
# Typical rain intensity (mm/h per unit of wetness above threshold) per month.
_RAIN_SCALE = (0.8, 0.9, 1.2, 1.8, 2.2, 3.0, 6.0, 5.5, 3.5, 1.8, 1.4, 0.9)


@dataclass(frozen=True)
class Wave:
    amp: float
    kx: float  # rad per km
    ky: float
    omega: float  # rad per hour
    phase: float

    def at(self, x: float, y: float, t: float) -> float:
        return self.amp * math.sin(self.kx * x + self.ky * y - self.omega * t + self.phase)


def _waves(
    rng: random.Random, n: int, total_std: float, wl_km: tuple[float, float], period_h: tuple[float, float]
) -> tuple[Wave, ...]:
    # Sum of n sines with equal amplitude a has std a*sqrt(n/2).
    amp = total_std / math.sqrt(n / 2)
    out = []
    for _ in range(n):
        wl = rng.uniform(*wl_km)
        direction = rng.uniform(0, 2 * math.pi)
        k = 2 * math.pi / wl
        out.append(
            Wave(
                amp,
                k * math.cos(direction),
                k * math.sin(direction),
                2 * math.pi / rng.uniform(*period_h),
                rng.uniform(0, 2 * math.pi),
            )
        )
    return tuple(out)


def _sum(waves: tuple[Wave, ...], x: float, y: float, t: float) -> float:
    return sum(w.at(x, y, t) for w in waves)


@dataclass(frozen=True)
class Fields:
    temp: tuple[Wave, ...]
    wet: tuple[Wave, ...]
    u: tuple[Wave, ...]
    v: tuple[Wave, ...]

    @classmethod
    def draw(cls, rng: random.Random, scale: float = 1.0) -> Fields:
        return cls(
            temp=_waves(rng, 4, 3.0 * scale, (900, 2600), (60, 220)),
            wet=_waves(rng, 5, 1.0 * scale, (250, 1200), (30, 130)),
            u=_waves(rng, 3, 2.2 * scale, (600, 2000), (40, 160)),
            v=_waves(rng, 3, 2.2 * scale, (600, 2000), (40, 160)),
        )


@dataclass(frozen=True)
class State:
    """The weather at one place and hour (model units, before any API formatting)."""

    temp: float  # ℃
    rain_mm: float  # precipitation in the hour, water-equivalent mm
    snow_cm: float  # new snow in the hour
    pty: int  # 0 none, 1 rain, 2 rain/snow, 3 snow, 4 shower
    sky: int  # 1 맑음, 3 구름많음, 4 흐림
    reh: int  # relative humidity %
    u: float  # eastward wind m/s
    v: float  # northward wind m/s
    wetness_margin: float  # wetness minus the month's rain threshold (used for POP)
    lightning: int  # kA-ish, 0 mostly

    @property
    def wsd(self) -> float:
        return math.hypot(self.u, self.v)

    @property
    def vec(self) -> int:
        """Meteorological direction the wind blows FROM, degrees 0-359."""
        if self.wsd < 0.05:
            return 0
        return int(round((270.0 - math.degrees(math.atan2(self.v, self.u))) % 360.0)) % 360


def _xy(lat: float, lon: float) -> tuple[float, float]:
    return (lon - 127.0) * 88.8, (lat - 36.0) * 111.0


def _hours(t: datetime) -> float:
    return (t - _EPOCH).total_seconds() / 3600.0


def climatology(lat: float, t: datetime) -> float:
    """Mean temperature for the latitude and day of year (smooth annual cycle)."""
    south = 37.57 - lat
    mean = 12.6 + 0.95 * south
    amp = 14.0 - 0.85 * south
    doy = t.timetuple().tm_yday + t.hour / 24.0
    return mean - amp * math.cos(2 * math.pi * (doy - 20.0) / 365.25)


class WeatherModel:
    """Truth and forecasts for one seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = random.Random(f"weather|{seed}")
        self.truth_fields = Fields.draw(rng)
        self.mean_u = rng.uniform(1.0, 2.5)  # prevailing westerlies

    @lru_cache(maxsize=4096)  # noqa: B019 - the model lives as long as its world
    def _error_fields(self, issued_key: str) -> Fields:
        return Fields.draw(random.Random(f"weather-err|{self.seed}|{issued_key}"), scale=1.0)

    def _state(self, lat: float, lon: float, t: datetime, err: Fields | None, lead_h: float) -> State:
        x, y = _xy(lat, lon)
        th = _hours(t)
        f = self.truth_fields
        month = t.month - 1
        wet = _sum(f.wet, x, y, th)
        t_anom = _sum(f.temp, x, y, th)
        u = self.mean_u * (1.3 if t.month in (11, 12, 1, 2, 3) else 0.6) + _sum(f.u, x, y, th)
        v = _sum(f.v, x, y, th)
        if err is not None and lead_h > 0:
            # Error grows with lead time: ~0.15 at +1 h, ~1 at +5 days (relative to the field std).
            g = min(1.0, 0.12 + lead_h / 130.0)
            wet += 0.55 * g * _sum(err.wet, x, y, th)
            t_anom += 0.6 * g * _sum(err.temp, x, y, th)
            u += 0.5 * g * _sum(err.u, x, y, th)
            v += 0.5 * g * _sum(err.v, x, y, th)
        thr = _RAIN_THRESHOLD[month]
        margin = wet - thr
        cloud = 1.0 / (1.0 + math.exp(-3.0 * (margin + 0.75)))
        hour = t.hour + t.minute / 60.0
        diurnal = 4.5 * math.cos(2 * math.pi * (hour - 15.0) / 24.0) * (1.0 - 0.55 * cloud)
        rain = max(0.0, margin) * _RAIN_SCALE[month] * (1.0 + 0.3 * math.sin(x / 37.0 + y / 23.0 + th / 5.0))
        temp = climatology(lat, t) + t_anom + diurnal - (1.2 if rain > 0 else 0.0)
        if rain < 0.05:
            rain = 0.0
        pty = 0
        snow = 0.0
        if rain > 0:
            if temp <= -0.5:
                pty, snow = 3, rain * 1.2
            elif temp <= 2.0:
                pty, snow = 2, rain * 0.4
            elif t.month in (6, 7, 8, 9) and margin < 0.35 and 12 <= t.hour <= 19:
                pty = 4  # afternoon summer showers
            else:
                pty = 1
        sky = 1 if cloud < 0.35 else 3 if cloud < 0.7 else 4
        if pty:
            sky = 4
        summer = 0.5 - 0.5 * math.cos(2 * math.pi * (t.month - 1.5) / 12.0)
        reh = 55 + 14 * wet - 9 * (diurnal / 4.5) + 15 * summer
        if pty:
            reh = max(reh, 88.0)
        reh_i = int(max(12, min(100, round(reh))))
        lightning = 1 if (pty in (1, 4) and rain > 8.0 and t.month in (6, 7, 8)) else 0
        return State(
            round(temp, 1),
            round(rain, 1),
            round(snow, 1),
            pty,
            sky,
            reh_i,
            round(u, 1),
            round(v, 1),
            margin,
            lightning,
        )

    def truth(self, lat: float, lon: float, t: datetime) -> State:
        return self._state(lat, lon, t, None, 0.0)

    def forecast(self, lat: float, lon: float, t: datetime, issued: datetime) -> State:
        """What the issuance at ``issued`` says about hour ``t`` (same answer every time asked)."""
        lead = max(0.0, _hours(t) - _hours(issued))
        return self._state(lat, lon, t, self._error_fields(issued.strftime("%Y%m%d%H%M")), lead)

    def pop(self, lat: float, lon: float, t: datetime, issued: datetime) -> int:
        """강수확률 (%, multiple of 10) from the forecast wetness and the lead-time spread."""
        st = self.forecast(lat, lon, t, issued)
        lead = max(0.0, _hours(t) - _hours(issued))
        spread = 0.22 + lead / 110.0
        p = 0.5 * (1.0 + math.erf(st.wetness_margin / (spread * math.sqrt(2))))
        value = int(round(p * 10)) * 10
        if st.pty:
            value = max(value, 60)
        return min(100, value)

    def daily_extremes(
        self, lat: float, lon: float, day: datetime, issued: datetime | None
    ) -> tuple[float, float]:
        """(min, max) temperature of a KST calendar day: over 00-09 h and 09-18 h as KMA defines."""
        base = day.replace(hour=0, minute=0, second=0, microsecond=0)

        def at(h: int) -> float:
            t = base + timedelta(hours=h)
            return (self.truth(lat, lon, t) if issued is None else self.forecast(lat, lon, t, issued)).temp

        return min(at(h) for h in range(0, 10)), max(at(h) for h in range(9, 19))


@world_part("weather")
def _build(world: World) -> WeatherModel:
    return WeatherModel(world.seed)
