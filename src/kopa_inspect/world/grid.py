"""KMA's Lambert conformal conic 5 km grid (동네예보 격자), from KMA's published sample code.

Constants and formula: the provider's published API guide (identical in many independent clients).
Known points: 서울 종로 (60, 127), 부산 (98, 76), 제주 (52, 38).
"""

from __future__ import annotations

import math

RE = 6371.00877  # earth radius, km
GRID = 5.0  # grid spacing, km
SLAT1, SLAT2 = 30.0, 60.0  # standard parallels
OLON, OLAT = 126.0, 38.0  # origin
XO, YO = 43, 136  # origin grid cell

_DEG = math.pi / 180.0
_re = RE / GRID
_slat1, _slat2 = SLAT1 * _DEG, SLAT2 * _DEG
_olon, _olat = OLON * _DEG, OLAT * _DEG
_sn = math.log(math.cos(_slat1) / math.cos(_slat2)) / math.log(
    math.tan(math.pi / 4 + _slat2 / 2) / math.tan(math.pi / 4 + _slat1 / 2)
)
_sf = math.tan(math.pi / 4 + _slat1 / 2) ** _sn * math.cos(_slat1) / _sn
_ro = _re * _sf / math.tan(math.pi / 4 + _olat / 2) ** _sn


def latlon_to_grid(lat: float, lon: float) -> tuple[int, int]:
    """WGS84 latitude/longitude (degrees) -> KMA grid (nx, ny)."""
    ra = _re * _sf / math.tan(math.pi / 4 + lat * _DEG / 2) ** _sn
    theta = lon * _DEG - _olon
    if theta > math.pi:
        theta -= 2 * math.pi
    if theta < -math.pi:
        theta += 2 * math.pi
    theta *= _sn
    nx = math.floor(ra * math.sin(theta) + XO + 0.5)
    ny = math.floor(_ro - ra * math.cos(theta) + YO + 0.5)
    return nx, ny


def grid_to_latlon(nx: int, ny: int) -> tuple[float, float]:
    """KMA grid (nx, ny) -> latitude/longitude of the cell centre (degrees)."""
    xn = nx - XO
    yn = _ro - ny + YO
    ra = math.sqrt(xn * xn + yn * yn)
    if _sn < 0:
        ra = -ra
    alat = 2 * math.atan((_re * _sf / ra) ** (1 / _sn)) - math.pi / 2
    if abs(xn) <= 0:
        theta = 0.0
    elif abs(yn) <= 0:
        theta = math.pi / 2 if xn > 0 else -math.pi / 2
    else:
        theta = math.atan2(xn, yn)
    alon = theta / _sn + _olon
    return alat / _DEG, alon / _DEG
