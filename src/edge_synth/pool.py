"""The value pool: what EDGE knows how to put into a call.

At the start it holds the world's static real data (법정동 regions: 10-digit codes, LAWD_CD,
sido/sgg/umd names, KMA nx/ny) and what a clock implies (YYYYMMDD, YYYYMM, year). Every verified
output adds its rows as *records*; a call's arguments are filled from one record where possible
so that correlated values (nx with its own ny) travel together. Growing the pool opens frontier
calls: operations whose required inputs no seed could fill become callable once some verified
output carries them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from edge_synth.clock import SCHEDULES, clock_value, clock_values
from edge_synth.fields import concept, data_params, is_plumbing, norm, param_format
from kopa_inspect.apis._spec import Operation, Param

MAX_RECORDS = 4000
# The radius of a search around a point (TourAPI's required one, HIRA's that makes xPos/yPos
# valid): a round figure the query states ("반경 2000m"), not a value from an API.
RADIUS_M = 2000
MAX_PER_KEY = 400


def key_of(name: str) -> str:
    return concept(name) or norm(name)


def _scalar(v: Any) -> bool:
    return isinstance(v, str | int | float) and not isinstance(v, bool) and str(v).strip() != ""


def record_of(item: dict[str, Any]) -> dict[str, Any]:
    return {key_of(k): v for k, v in item.items() if _scalar(v)}


def region_records() -> list[dict[str, Any]]:
    """Seed records from the static 법정동 table (empty until world.regions exists)."""
    try:
        from kopa_inspect.world import regions
    except ImportError:  # the regions module is written by another helper
        return []
    out = []
    for r in regions.sggs():
        out.append(
            {
                "code10": r.code,
                "lawd5": r.lawd_cd,
                "sido2": r.sido_cd,
                "nx": r.nx,
                "ny": r.ny,
                "sidoname": r.short_sido,
                "sidonm": r.sido_name,
                "sggnm": r.sgg_name,
                "signgunm": r.sgg_name,
                "regionnm": r.name,
                "addr": r.name,
                "lat": round(r.lat, 4),
                "lon": round(r.lon, 4),
            }
        )
    return out


class ValuePool:
    def __init__(self, clock: str | None = None, seed_records: list[dict[str, Any]] | None = None) -> None:
        self.clock_vals = clock_values(clock)
        self.records: list[dict[str, Any]] = []
        self.by_key: dict[str, list[int]] = defaultdict(list)
        self.worked: dict[tuple[str, str], list[Any]] = defaultdict(list)
        self._seen: set[str] = set()
        for rec in seed_records if seed_records is not None else region_records():
            self.add_record(rec, source="seed")

    def add_record(self, rec: dict[str, Any], source: str = "") -> bool:
        if not rec or len(self.records) >= MAX_RECORDS:
            return False
        sig = repr(sorted(rec.items()))
        if sig in self._seen:
            return False
        self._seen.add(sig)
        idx = len(self.records)
        self.records.append(rec)
        for k in rec:
            if len(self.by_key[k]) < MAX_PER_KEY:
                self.by_key[k].append(idx)
        return True

    def add_output(self, items: list[dict[str, Any]], limit: int = 20) -> int:
        return sum(self.add_record(record_of(it), "output") for it in items[:limit])

    def note_worked(self, op_id: str, args: dict[str, Any]) -> None:
        for k, v in args.items():
            lst = self.worked[(op_id, k)]
            if v not in lst and len(lst) < 50:
                lst.append(v)

    # filling ---------------------------------------------------------------------------------
    def fillable(self, op: Operation, given: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
        return all(self._can_fill(op, p) for p in required_data_params(op) if p.name not in given)

    def _can_fill(self, op: Operation, p: Param) -> bool:
        if concept(p.name, op.id) == "radius":
            return True
        if p.enum or p.default is not None or self.worked.get((op.id, p.name)):
            return True
        if self.by_key.get(key_of(p.name)):
            return True
        return clock_value(self.clock_vals, op.id, param_format(p)) is not None

    def issuance_args(self, op: Operation, given: dict[str, Any]) -> dict[str, Any]:
        """A scheduled operation's issuance (KMA base_date/base_time, tmFc) not in ``given``: the
        latest one its own schedule serves at the clock, never a record's or a worked call's older one."""
        if op.id not in SCHEDULES:
            return {}
        out = {}
        for p in required_data_params(op):
            value = clock_value(self.clock_vals, op.id, param_format(p))
            if p.name not in given and value is not None:
                out[p.name] = value
        return out

    def fill(
        self, op: Operation, rng: random.Random, given: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """Arguments for ``op``'s required data params not in ``given``; None if one is unfillable."""
        args: dict[str, Any] = {**paging_args(op), **(given or {})}
        near = any(concept(k, op.id) in ("lon", "lat") for k in args)
        for p in data_params(op):
            if concept(p.name, op.id) == "radius" and p.name not in args and (p.required or near):
                args[p.name] = RADIUS_M
        args.update(self.issuance_args(op, args))
        todo = [p for p in required_data_params(op) if p.name not in args]
        # One record for as many params as it covers (keeps nx with its own ny).
        keys = {p.name: key_of(p.name) for p in todo}
        if todo:
            cands: set[int] = set()
            for p in todo:
                cands.update(self.by_key.get(keys[p.name], [])[:MAX_PER_KEY])
            if cands:
                ranked = sorted(cands, key=lambda i: (-sum(keys[p.name] in self.records[i] for p in todo), i))
                best = sum(keys[p.name] in self.records[ranked[0]] for p in todo)
                top = [i for i in ranked if sum(keys[p.name] in self.records[i] for p in todo) == best]
                worked_first = [p for p in todo if self.worked.get((op.id, p.name))]
                rec = self.records[rng.choice(top)] if not worked_first or rng.random() < 0.5 else {}
                for p in todo:
                    if keys[p.name] in rec:
                        args[p.name] = rec[keys[p.name]]
        for p in todo:
            if p.name in args:
                continue
            worked = self.worked.get((op.id, p.name))
            if worked:
                args[p.name] = rng.choice(worked)
            elif p.default is not None:
                args[p.name] = p.default
            elif p.enum:
                args[p.name] = rng.choice(p.enum)
            elif (clocked := clock_value(self.clock_vals, op.id, param_format(p))) is not None:
                args[p.name] = clocked
            elif self.by_key.get(keys[p.name]):
                args[p.name] = self.records[rng.choice(self.by_key[keys[p.name]])][keys[p.name]]
            else:
                return None
        return args


def required_data_params(op: Operation) -> list[Param]:
    return [p for p in data_params(op) if p.required]


# Required paging parameters (Seoul's START_INDEX/END_INDEX path segments, NEIS pIndex ...).
_PAGING_VALUES = {
    "startindex": 1,
    "endindex": 10,
    "pageno": 1,
    "numofrows": 10,
    "pindex": 1,
    "psize": 10,
    "page": 1,
    "perpage": 10,
    "start": 1,
    "end": 10,
}


def paging_args(op: Operation) -> dict[str, Any]:
    """Values for required, visible plumbing params: the first page of a small size."""
    out: dict[str, Any] = {}
    for p in op.visible_params:
        if p.required and p.default is None and is_plumbing(p) and norm(p.name) in _PAGING_VALUES:
            out[p.name] = _PAGING_VALUES[norm(p.name)]
    return out


def pool_to_json(pool: ValuePool) -> dict[str, Any]:
    return {
        "clock_vals": pool.clock_vals,
        "records": pool.records,
        "worked": [[op, p, vals] for (op, p), vals in sorted(pool.worked.items())],
    }


def pool_from_json(data: dict[str, Any]) -> ValuePool:
    pool = ValuePool(None, seed_records=[])
    pool.clock_vals = dict(data["clock_vals"])
    for rec in data["records"]:
        pool.add_record(rec)
    for op, p, vals in data["worked"]:
        pool.worked[(op, p)] = list(vals)
    return pool
