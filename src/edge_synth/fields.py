"""Field-level matching: which output field of one operation can fill which input of another.

Real Korean public APIs spell one concept many ways (``contentid`` in a list, ``contentId`` as a
parameter; ``region_cd``/``admCd`` 10-digit 법정동코드 vs the 5-digit ``LAWD_CD``; ``locdate`` as
YYYYMMDD vs ``DEAL_YMD`` as YYYYMM), and code systems that look alike are not interchangeable
(HIRA's ``sgguCd`` is not a 법정동 code). Matching here only *proposes*; execution decides.

A transform is what a plan reference can express (kopa_inspect.plans.Ref): a string slice
(``[0, 5]``: 10-digit 법정동코드 -> LAWD_CD) and/or a template; nothing else, so every proposed
link can be written as a plan step argument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kopa_inspect.apis._spec import Operation, Param

# Parameters that never carry data between calls (paging, format switches, keys).
PLUMBING_PARAMS = frozenset(
    k.lower()
    for k in (
        "serviceKey",
        "ServiceKey",
        "pageNo",
        "numOfRows",
        "dataType",
        "_type",
        "returnType",
        "type",
        "resultType",
        "MobileOS",
        "MobileApp",
        "pIndex",
        "pSize",
        "KEY",
        "Type",
        "crtfc_key",
        "OC",
        "apiKey",
        "api_key",
        "format",
        "start",
        "end",
        "startIndex",
        "endIndex",
        "START_INDEX",
        "END_INDEX",
        "page",
        "perPage",
    )
)

# Concepts and the spellings real APIs use for them (normalized: lower case, no "_").
# One concept = values are interchangeable as-is (possibly after a slice, see FORMAT_BRIDGES).
ALIASES: dict[str, tuple[str, ...]] = {
    "code10": (
        "regioncd",
        "admcd",
        "bjdcode",
        "bjdongcd",
        "ldongcd",
        "legaldongcode",
        "stdgcd",
        "lawdcode10",
    ),
    # 5-digit 법정동 시군구 codes: MOLIT LAWD_CD/sggCd, and Seoul's gu codes (GU_CODE 11740, CGG_CD 11620).
    "lawd5": (
        "lawdcd",
        "sggcd",
        "signgucd",
        "sigungucd5",
        "zscode",
        "lawd",
        "gucode",
        "cggcd",
        "cggcode",
        "mgucode",
    ),
    "sido2": ("sidocd", "zcode", "ctprvncd", "lawdsido", "ldongregncd"),
    # The 3-digit 시군구 part of a 법정동 code (StanReginCd sgg_cd "680", TourAPI lDongSignguCd "230").
    "sgg3": ("ldongsigngucd",),
    "nx": ("nx", "gridx"),
    "ny": ("ny", "gridy"),
    "date8": ("basedate", "locdate", "fcstdate", "ymd", "date", "searchdate", "eventstartdate", "tmfc8"),
    "ym6": ("dealymd", "ym", "yyyymm"),
    "year4": ("solyear", "year", "bsnsyear", "ay"),
    "month2": ("solmonth", "month"),
    "corp": ("corpcode",),
    "stock": ("stockcode", "srtncd", "isincd"),
    "contentid": ("contentid",),
    "contenttypeid": ("contenttypeid",),
    "areacode": ("areacode",),
    "sigungucode": ("sigungucode",),
    # WGS84 degrees (the platform's documented contract): TourAPI mapx/mapy, HIRA
    # XPos/YPos, TAGO gpslong/gpslati, Seoul LOT/LAT, LNT, LO/LA, X_WGS84/Y_WGS84, 따릉이. Not TM
    # metres (AirKorea tmX/tmY, Seoul LOCALDATA X/Y) and not generic "X"/"Y" columns. The ~100 Seoul
    # catalog datasets' LAT/LNG are left out on purpose (LNG unaliased, so their LAT has no partner):
    # hundreds of near-identical links would spend the grounding budget the distinct flows need.
    "lon": ("mapx", "xpos", "gpslong", "lon", "lot", "lnt", "lo", "stationlongitude", "xwgs84"),
    "lat": ("mapy", "ypos", "gpslati", "lat", "la", "stationlatitude", "ywgs84"),
    # A search radius in metres: a quantity the user states ("반경 2km"), always with a point.
    "radius": ("radius",),
    "nodeid": ("nodeid", "sttnid"),
    "citycode": ("citycode",),
    "routeid": ("routeid",),
    "stationname": ("stationname", "msrstnname"),
    "tmx": ("tmx",),
    "tmy": ("tmy",),
    "ykiho": ("ykiho",),
    "itemseq": ("itemseq",),
    "bno": ("bno", "bizno", "bidwinnrbizno"),
    "mst": ("mst", "lawserialno", "법령일련번호"),
    "statcode": ("statcode",),
    "itemcode": ("itemcode", "itemcode1"),
    "atpt": ("atptofcdccode",),
    "schul": ("sdschulcode",),
    "sgid": ("sgid",),
    "sgtypecode": ("sgtypecode",),
    "hgnm": ("hgnm", "deptnm"),
    # Place names a person says, one per administrative level (시도, 시군구, 읍면동): they feed name
    # lookups (KMA's grid table level1/2/3, AirKorea's umdName), a derivation step in the plan.
    "sidonm": ("sidocdnm", "sidoname", "level1", "ctprvnnm"),
    "sggnm": ("sggucdnm", "sggname", "level2", "guname", "cggnm", "cggcodenm", "sigunname", "mguname"),
    "umdnm": ("emdongnm", "umdname", "level3", "umdnm", "stdgnm"),
    "time4": ("basetime",),
    "tm12": ("tmfc",),
}

# Where one spelling means two things on two platforms, the (operation or platform, field) decides:
# KMA's grid-table areaCode is a 10-digit 법정동 code, not TourAPI's areaCode; StanReginCd's sgg_cd
# is the 3-digit part, not MOLIT's 5-digit sggCd; Seoul's library XCNTS/YDNTS hold latitude and
# longitude (the other way round from their names), its food-shop X_CNTS/Y_DNTS longitude/latitude.
FIELD_CONCEPTS: dict[tuple[str, str], str | None] = {
    ("kma_getGridPointList", "areaCode"): "code10",
    ("stanregincd", "sgg_cd"): "sgg3",
    ("seoul_SeoulPublicLibraryInfo", "XCNTS"): "lat",
    ("seoul_SeoulPublicLibraryInfo", "YDNTS"): "lon",
    ("seoul_CrtfcUpsoInfo", "X_CNTS"): "lon",
    ("seoul_CrtfcUpsoInfo", "Y_DNTS"): "lat",
}

_ALIAS_INDEX: dict[str, str] = {a: concept for concept, names in ALIASES.items() for a in names}

# Value formats recognisable from a parameter pattern, a field description or observed values.
FORMAT_REGEX: dict[str, str] = {
    "code10": r"\d{10}",
    "code5": r"\d{5}",
    "date8": r"(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])",
    "ym6": r"(19|20)\d{2}(0[1-9]|1[0-2])",
    "year4": r"(19|20)\d{2}",
}

# Producer format -> consumer format reachable by a slice (what the Ref can express).
FORMAT_BRIDGES: dict[tuple[str, str], tuple[int, int] | None] = {
    ("code10", "code10"): None,
    ("code10", "code5"): (0, 5),
    ("code5", "code5"): None,
    ("date8", "date8"): None,
    ("date8", "ym6"): (0, 6),
    ("date8", "year4"): (0, 4),
    ("date8", "month2"): (4, 6),
    ("ym6", "ym6"): None,
    ("ym6", "year4"): (0, 4),
    ("year4", "year4"): None,
}

# Concept -> the value format it has, to bridge concepts with a slice (code10 -> lawd5 ...).
CONCEPT_FORMAT: dict[str, str] = {
    "code10": "code10",
    "lawd5": "code5",
    "date8": "date8",
    "ym6": "ym6",
    "year4": "year4",
    "time4": "time4",
    "tm12": "tm12",
    "month2": "month2",
}

_DESC_FORMAT_CUES: tuple[tuple[str, str], ...] = (
    (r"10\s*자리|법정동\s*코드|10-digit", "code10"),
    (r"YYYYMMDD|yyyymmdd|\(YYYYMMDD\)|날짜|일자|\bdate\b", "date8"),
    (r"YYYYMM\b|연월|year-month", "ym6"),
    (r"5\s*자리|5-digit|LAWD_CD", "code5"),
)

_NAME_SUFFIX = re.compile(r"(nm|name|명|title|keyword|addr)$")


def norm(name: str) -> str:
    """Spelling-insensitive key: ``LAWD_CD`` == ``lawdCd``; ``contentid`` == ``contentId``."""
    return re.sub(r"[\s_\-.]", "", name).lower()


def concept(name: str, op_id: str | None = None) -> str | None:
    """The concept a field or parameter name stands for; with ``op_id`` the per-operation and
    per-platform exceptions (``FIELD_CONCEPTS``) come first."""
    if op_id is not None:
        for key in ((op_id, name), (op_id.split("_", 1)[0], name)):
            if key in FIELD_CONCEPTS:
                return FIELD_CONCEPTS[key]
    return _ALIAS_INDEX.get(norm(name))


def is_plumbing(p: Param) -> bool:
    return p.hidden or norm(p.name) in PLUMBING_PARAMS or p.name.lower() in PLUMBING_PARAMS


def data_params(op: Operation) -> list[Param]:
    return [p for p in op.visible_params if not is_plumbing(p)]


def param_format(p: Param, op_id: str | None = None) -> str | None:
    """The value format a parameter accepts, from its pattern (then its concept)."""
    if p.pattern:
        pat = p.pattern.strip("^$")
        for fmt, rx in FORMAT_REGEX.items():
            if pat in (rx, rx.replace(r"\d", "[0-9]")):
                return fmt
        m = re.fullmatch(r"\\d\{(\d+)\}|\[0-9\]\{(\d+)\}", pat)
        if m:
            n = int(m.group(1) or m.group(2))
            by_digits = {10: "code10", 5: "code5", 8: "date8", 6: "ym6", 4: "year4", 12: "tm12"}.get(n)
            if by_digits is not None:
                return by_digits
    c = concept(p.name, op_id)
    return CONCEPT_FORMAT.get(c) if c else None


def field_format(name: str, description: str = "", op_id: str | None = None) -> str | None:
    """The value format of an output field, from its concept or its description."""
    c = concept(name, op_id)
    if c in CONCEPT_FORMAT:
        return CONCEPT_FORMAT[c]
    for rx, fmt in _DESC_FORMAT_CUES:
        if re.search(rx, description):
            return fmt
    return None


def value_format(value: object) -> str | None:
    """The format of an observed value (used to propose links from real outputs)."""
    text = str(value).strip()
    for fmt in ("code10", "date8", "ym6", "code5", "year4"):
        if re.fullmatch(FORMAT_REGEX[fmt], text):
            return fmt
    return None


def is_name_like(name: str, description: str = "") -> bool:
    return bool(_NAME_SUFFIX.search(norm(name))) or "이름" in description or "명칭" in description


@dataclass(frozen=True)
class FieldMatch:
    """One proposed field -> param match and why."""

    field: str
    param: str
    slice: tuple[int, int] | None
    reason: str  # name | alias | format | semantic
    score: float  # proposal confidence in [0, 1], the weak prior's mean
    kind: str  # code | name | value: what flows (decides the SEQ/SEM junction type)


def match_fields(producer: Operation, consumer: Operation) -> list[FieldMatch]:
    """Every output field of ``producer`` that plausibly fills a data parameter of ``consumer``."""
    out: list[FieldMatch] = []
    params = data_params(consumer)
    for fname, fdesc in producer.output_fields.items():
        fkey, fcon, ffmt = norm(fname), concept(fname, producer.id), field_format(fname, fdesc, producer.id)
        for p in params:
            pkey, pcon, pfmt = norm(p.name), concept(p.name, consumer.id), param_format(p, consumer.id)
            kind = "name" if is_name_like(fname, fdesc) else "code"
            if fkey == pkey and not (fcon and pcon and fcon != pcon):  # one spelling, two meanings: no
                sl = FORMAT_BRIDGES.get((ffmt, pfmt)) if ffmt and pfmt and ffmt != pfmt else None
                out.append(FieldMatch(fname, p.name, sl, "name", 0.7, kind))
            elif fcon is not None and fcon == pcon:
                out.append(FieldMatch(fname, p.name, None, "alias", 0.6, kind))
            elif ffmt and pfmt and (ffmt, pfmt) in FORMAT_BRIDGES:
                # Same value format (or a slice away): plausible, often wrong across code systems.
                sl = FORMAT_BRIDGES[(ffmt, pfmt)]
                out.append(FieldMatch(fname, p.name, sl, "format", 0.5, "code"))
    return out


def name_overlap(a: str, b: str) -> float:
    """Token overlap of two identifiers after camelCase/underscore splitting (0..1)."""
    ta, tb = set(split_ident(a)), set(split_ident(b))
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def split_ident(name: str) -> list[str]:
    parts = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).replace("_", " ").split()
    return [p.lower() for p in parts if p]
