"""Bus stops, routes and arrivals of the TAGO cities (국가대중교통정보센터 world part).

Cities and their TAGO city codes are static (Seoul is absent: TAGO does not carry Seoul buses).
Stops and routes are fixed by the seed and the city. Arrivals depend on the clock: every route
runs from 05:30 to 23:00 with its own headway and phase, and a stop sees the vehicles that will
reach it within the next 40 minutes (arrtime in seconds, stations to go ≈ one per 100 s).
Around each landmark lie 11-16 more stops named after it (시청입구, 시청역, 시청남문 ...), as in real
cities, so a partial nodeNm search by the landmark's word returns 15-36 rows (UNCERTAIN: real counts
vary by city; the names are generated, not the real stops).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from kopa_inspect.world import World, world_part
from kopa_inspect.world.regions import Region, by_code, sggs, umds
from kopa_inspect.world.tables import read_table

# Landmarks every big city has, combined with local place names into stop names.
_PLACE_TAILS = (
    "역",
    "시장",
    "사거리",
    "초등학교",
    "중학교",
    "고등학교",
    "우체국",
    "주민센터",
    "아파트",
    "입구",
    "삼거리",
    "공원",
    "도서관",
    "보건소",
    "파출소",
    "농협",
    "교회",
    "성당",
    "터미널",
    "병원",
)
# Landmarks by TAGO city code, and the word a person types to find a landmark's stops
# (data/tago_landmarks.csv): around a landmark a city has many stops named after it (시청, 시청입구,
# 시청역, 시청남문 ...), so a stop search by that word (TAGO nodeNm is a partial match) finds them all.
_LANDMARKS = read_table("tago_landmarks.csv")


def _city_landmarks() -> dict[str, tuple[str, ...]]:
    by_city: dict[str, list[str]] = {}
    for row in _LANDMARKS:
        by_city.setdefault(row["city"], []).append(row["landmark"])
    return {code: tuple(names) for code, names in by_city.items()}


_CITY_LANDMARKS = _city_landmarks()
_LANDMARK_WORDS = {row["landmark"]: row["word"] for row in _LANDMARKS if row["word"]}
_CLUSTER_TAILS = (
    "입구",
    "정문",
    "후문",
    "남문",
    "북문",
    "서문",
    "동문",
    "앞",
    "건너편",
    "사거리",
    "네거리",
    "삼거리",
    "오거리",
    "교차로",
    "로터리",
    "역",
    "역입구",
    "주차장",
    "환승센터",
    "우체국",
    "파출소",
    "치안센터",
    "초등학교",
    "중학교",
    "도서관",
    "공영주차장",
    "시장",
    "아파트",
    "주민센터",
    "먹자골목",
)
_ROUTE_TYPES = (
    ("일반버스", 0.55),
    ("좌석버스", 0.12),
    ("마을버스", 0.15),
    ("급행버스", 0.08),
    ("지선버스", 0.10),
)


def landmark_word(name: str) -> str:
    """The word a person types to find the stops of a landmark (충남대학교 -> 충남대)."""
    return _LANDMARK_WORDS.get(name, name)


@dataclass(frozen=True)
class City:
    code: int
    name: str
    prefix: str
    area: str  # region code prefix (2 or 5 digits)

    @property
    def center(self) -> Region:
        r = by_code(self.area)
        assert r is not None
        return r


@dataclass(frozen=True)
class Stop:
    node_id: str
    name: str
    node_no: int | None
    lat: float
    lon: float


@dataclass(frozen=True)
class Route:
    route_id: str
    route_no: int | str  # a number when the route number is numeric (TAGO JSON quirk)
    route_type: str
    headway_s: int
    phase_s: int
    stops: tuple[str, ...]  # node ids in order
    vehicle_low_floor: float


@cache
def cities() -> tuple[City, ...]:
    """The TAGO cities of data/tago_cities.csv."""
    return tuple(
        City(int(row["code"]), row["name"], row["prefix"], row["area"])
        for row in read_table("tago_cities.csv")
    )


def city(code: int | str) -> City | None:
    try:
        n = int(str(code).strip())
    except ValueError:
        return None
    return next((c for c in cities() if c.code == n), None)


def _local_names(c: City) -> list[str]:
    """Place names for stop names: 법정동 names where known, and the names of the 구/시군구."""
    # A 시 with 구 (41280 고양시) covers the codes 4128x; a 시도-wide city (30 대전) covers 30xxx.
    prefix = c.area[:4] if len(c.area) == 5 and c.area.endswith("0") else c.area
    areas = [r for r in umds() if r.code.startswith(prefix)]
    areas += [r for r in sggs(c.area[:2]) if r.code.startswith(prefix) and r.code[:5] != c.area]
    names = []
    for r in areas or [c.center]:
        local = r.umd_name or r.sgg_name.split()[-1]
        if len(local) > 3 and local[-2:] in ("일동", "이동", "삼동"):  # 도두일동 -> 도두
            stem = local[:-2]
        elif len(local) > 4:  # 세종특별자치시 -> 세종
            stem = local[:2]
        elif len(local) > 2 and local[-1] in "동구시군읍면가":
            stem = local[:-1]
        else:
            stem = local
        names.append(stem)
    return sorted(set(names))


def _new_node_id(rng: random.Random, prefix: str, digits: int, used: set[str]) -> str:
    """A stop id not yet used in the world (the city's prefix and a number of its length); marked used."""
    while True:
        node_id = f"{prefix}{rng.randint(10 ** (digits - 1), 10**digits - 1)}"
        if node_id not in used:
            used.add(node_id)
            return node_id


def _new_node_no(rng: random.Random, used_no: set[int | None]) -> int:
    """A stop number (ARS) not yet used in the city; the caller marks it used."""
    node_no = rng.randint(10000, 99999)
    while node_no in used_no:
        node_no = rng.randint(10000, 99999)
    return node_no


class Transit:
    def __init__(self, world: World) -> None:
        self.world = world
        self._net: dict[int, tuple[dict[str, Stop], tuple[Route, ...]]] = {}

    def network(self, c: City) -> tuple[dict[str, Stop], tuple[Route, ...]]:
        if c.code not in self._net:
            self._net[c.code] = self._build(c)
        return self._net[c.code]

    def stops(self, c: City) -> list[Stop]:
        return sorted(self.network(c)[0].values(), key=lambda s: s.node_id)

    def _build(self, c: City) -> tuple[dict[str, Stop], tuple[Route, ...]]:
        rng = self.world.rng("transit.network", c.code)
        center = c.center
        base_names = list(_CITY_LANDMARKS.get(str(c.code), ()))
        for stem in _local_names(c):
            base_names.extend(stem + t for t in rng.sample(_PLACE_TAILS, 3))
        if len(base_names) < 24:  # small cities: more generic stops around the centre
            base_names.extend(f"{center.local_name[:-1] or center.local_name}{t}" for t in _PLACE_TAILS)
        base_names = sorted(set(base_names))
        stops: dict[str, Stop] = {}
        digits = 9 if c.prefix == "GGB" else 7
        used: set[str] = set()
        used_no: set[int | None] = {None}
        for name in base_names:
            lat = center.lat + rng.uniform(-0.06, 0.06)
            lon = center.lon + rng.uniform(-0.07, 0.07)
            # Most stops exist on both sides of the road: same name, two ids and numbers.
            for side in range(2 if rng.random() < 0.8 else 1):
                node_id = _new_node_id(rng, c.prefix, digits, used)
                # Stop numbers are unique within a city; some 제주 stops have none (UNCERTAIN).
                node_no: int | None = _new_node_no(rng, used_no)
                if c.code == 39 and rng.random() < 0.1:
                    node_no = None
                else:
                    used_no.add(node_no)
                stops[node_id] = Stop(
                    node_id, name, node_no, round(lat + side * 0.0004, 7), round(lon + side * 0.0003, 7)
                )
        ids = sorted(stops)
        routes: list[Route] = []
        n_routes = max(8, len(base_names) // 2)
        numbers: set[str] = set()
        for _ in range(n_routes):
            rtype = rng.choices([t for t, _ in _ROUTE_TYPES], weights=[w for _, w in _ROUTE_TYPES])[0]
            if rtype == "마을버스":
                no: int | str = f"{rng.randint(1, 60)}-{rng.randint(1, 3)}"
            elif rtype == "급행버스":
                no = f"급행{rng.randint(1, 9)}"
            elif rtype == "좌석버스":
                no = rng.randint(1000, 9900) if c.prefix == "GGB" else rng.randint(300, 999)
            else:
                no = rng.randint(1, 999)
            if str(no) in numbers:
                continue
            numbers.add(str(no))
            path = tuple(rng.sample(ids, min(len(ids), rng.randint(12, 30))))
            routes.append(
                Route(
                    route_id=f"{c.prefix}{rng.randint(10 ** (digits), 10 ** (digits + 1) - 1)}",
                    route_no=no,
                    route_type=rtype,
                    headway_s=rng.choice((480, 600, 720, 900, 1200, 1500)),
                    phase_s=rng.randint(0, 1499),
                    stops=path,
                    vehicle_low_floor=rng.uniform(0.2, 0.7),
                )
            )
        # Every stop is served: a stop no sampled route passes joins the end of some route.
        covered = {s for r in routes for s in r.stops}
        for node_id in ids:
            if node_id not in covered:
                k = rng.randrange(len(routes))
                routes[k] = replace(routes[k], stops=(*routes[k].stops, node_id))
        self._add_landmark_clusters(c, stops, routes, used, used_no, digits)
        return stops, tuple(routes)

    def _add_landmark_clusters(
        self,
        c: City,
        stops: dict[str, Stop],
        routes: list[Route],
        used: set[str],
        used_no: set[int | None],
        digits: int,
    ) -> None:
        """The stops named after each landmark (충남대정문, 충남대후문, 충남대학교앞 ...), near it.

        Own random stream, added after the base network, so the stops, routes and arrivals that
        existed before keep their ids, order and times; a cluster stop joins the end of 1-2 routes."""
        rng = self.world.rng("transit.landmark_cluster", c.code)
        by_name: dict[str, Stop] = {}
        for s in stops.values():
            by_name.setdefault(s.name, s)
        names = set(by_name)
        for landmark in _CITY_LANDMARKS.get(str(c.code), ()):
            anchor = by_name[landmark]
            word = landmark_word(landmark)
            tails = rng.sample(_CLUSTER_TAILS, rng.randint(11, 14))
            cluster = [f"{word}{t}" for t in tails]
            if word != landmark:  # the landmark's own name with a tail, too: 충남대학교정문
                cluster += [f"{landmark}{t}" for t in rng.sample(("앞", "입구", "정류소", "환승센터"), 2)]
            for name in cluster:
                if name in names:
                    continue
                names.add(name)
                lat = anchor.lat + rng.uniform(-0.006, 0.006)
                lon = anchor.lon + rng.uniform(-0.007, 0.007)
                for side in range(2 if rng.random() < 0.8 else 1):
                    node_id = _new_node_id(rng, c.prefix, digits, used)
                    node_no = _new_node_no(rng, used_no)
                    used_no.add(node_no)
                    stops[node_id] = Stop(
                        node_id, name, node_no, round(lat + side * 0.0004, 7), round(lon + side * 0.0003, 7)
                    )
                    for k in rng.sample(range(len(routes)), min(len(routes), rng.randint(1, 2))):
                        routes[k] = replace(routes[k], stops=(*routes[k].stops, node_id))

    def arrivals(self, c: City, node_id: str) -> list[dict[str, Any]]:
        stops, routes = self.network(c)
        stop = stops.get(node_id)
        if stop is None:
            return []
        clock = self.world.clock
        now = clock.hour * 3600 + clock.minute * 60 + clock.second
        first, last = 5 * 3600 + 1800, 23 * 3600
        rows = []
        for route in routes:
            if node_id not in route.stops:
                continue
            idx = route.stops.index(node_id)
            travel = idx * 100 + 60  # seconds from the first stop
            k0 = max(0, math.ceil((now - travel - route.phase_s - first) / route.headway_s))
            found = 0
            for k in range(k0, k0 + 6):
                depart = first + route.phase_s + k * route.headway_s
                if depart > last:
                    break
                arr = depart + travel - now
                if arr < 0:
                    continue
                if arr > 2400 or found >= 2:
                    break
                found += 1
                vrng = self.world.rng("transit.vehicle", c.code, route.route_id, clock.date().isoformat(), k)
                rows.append(
                    {
                        "arrprevstationcnt": max(1, min(idx, round(arr / 100))),
                        "arrtime": int(arr),
                        "nodeid": node_id,
                        "nodenm": stop.name,
                        "routeid": route.route_id,
                        "routeno": route.route_no,
                        "routetp": route.route_type,
                        "vehicletp": "저상버스" if vrng.random() < route.vehicle_low_floor else "일반차량",
                    }
                )
        rows.sort(key=lambda r: (r["routeid"], r["arrtime"]))
        return rows


@world_part("transit")
def build_transit(world: World) -> Transit:
    return Transit(world)
