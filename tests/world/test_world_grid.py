"""KMA Lambert grid conversion: known points and round trips."""

from __future__ import annotations

import pytest

from kopa_inspect.world.grid import grid_to_latlon, latlon_to_grid


@pytest.mark.parametrize(
    "lat,lon,expected",
    [
        (37.5735, 126.9790, (60, 127)),  # 서울 종로구청
        (35.1796, 129.0756, (98, 76)),  # 부산 시청
        (33.4890, 126.4983, (52, 38)),  # 제주특별자치도청 (KMA's 제주 point)
        (33.4996, 126.5312, (53, 38)),  # 제주시청 is one cell east
    ],
)
def test_known_points(lat, lon, expected):
    assert latlon_to_grid(lat, lon) == expected


@pytest.mark.parametrize("cell", [(60, 127), (98, 76), (52, 38), (1, 1), (149, 253), (89, 90)])
def test_round_trip_cell(cell):
    lat, lon = grid_to_latlon(*cell)
    assert latlon_to_grid(lat, lon) == cell


def test_cell_centres_are_5km_apart():
    lat1, lon1 = grid_to_latlon(60, 127)
    lat2, lon2 = grid_to_latlon(60, 128)
    assert 0.04 < lat2 - lat1 < 0.05  # ~5 km north
    assert abs(lon2 - lon1) < 0.01
