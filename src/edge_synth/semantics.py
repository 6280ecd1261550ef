"""Does a link *mean* something? Field-meaning agreement, checked before any execution.

Execution proves a link executable, not meaningful: a DART ``bsns_year`` fed into KASI's
``solYear`` returns holidays (rows!), an ECOS series date fed into KMA's ``base_date`` returns a
forecast. Both are look-alikes: the value has the right format but the user never meant the
business year of a company as the year of a holiday calendar. A link is kept for grounding only if
the producer field and the consumer parameter agree in meaning:

1. same normalized name or the same concept in the alias table (``fields.ALIASES``), or a concept
   pair in ``BRIDGES`` (a 10-digit 법정동코드 sliced to the 5-digit LAWD_CD) -> agree;
2. a *temporal* value (date, year-month, year, issue time) never flows between two platforms:
   the date of a trade is not the date of a forecast; a date the user wants is the user's own and
   is stated in the query (or read from the clock), not taken from another API's output;
3. two different known concepts -> disagree; a known code system on one side only -> disagree
   (a HIRA 5-digit district code is no 법정동 시군구코드, though the two descriptions read alike);
4. a semantic match (embedding similarity of field and parameter texts, ``graph._semantic_edges``)
   on a retrieved pair, between the same kind of value -> agree with its similarity as score;
5. format-only matches (any 5 digits into any 5-digit parameter) -> disagree;
6. with ``--model``, the paper's LLM link score: below 0.3 -> disagree (``llm.DROP_BELOW``).

Execution then adds the counterfactual test (verify.py): the consumer's rows must change when
another value of the same type is passed, or the consumer does not depend on the link at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from edge_synth.fields import FORMAT_BRIDGES, concept, field_format, norm, param_format
from edge_synth.graph import Edge
from kopa_inspect.apis import get_operation

TEMPORAL = frozenset({"date8", "ym6", "year4", "month2", "time4", "tm12"})
# Concept pairs whose values are the same thing in another spelling/length (a slice away).
BRIDGES: frozenset[tuple[str, str]] = frozenset(
    {
        ("code10", "lawd5"),
        ("code10", "sido2"),
        ("lawd5", "sido2"),
    }
)
# Concepts whose values are names a person says, not codes of one system.
NAME_CONCEPTS = frozenset({"stationname", "hgnm", "sidonm", "sggnm", "umdnm"})
PLACE_NAMES = frozenset({"sidonm", "sggnm", "umdnm"})
COORDINATES = frozenset({"lon", "lat"})
GRID = frozenset({"nx", "ny"})
# Dates that cross platforms because the query makes them the user's own (korean-apis.md §3 #19,
# #20): "the holidays in the month the festival starts" (the festival's start date is the date the
# user asks about), "festivals from the next holiday on". (producer platform, field) -> consumer
# (platform, param)s. A record's own timestamps (createdtime, modifiedtime), a business year or a
# statistics period are never the user's date. A festival date into a forecast's base_date is no
# such link either: base_date is the issue time (today), not the day forecast.
USER_DATES: dict[tuple[str, str], frozenset[tuple[str, str]]] = {
    ("tourapi", "eventstartdate"): frozenset({("kasi", "solYear"), ("kasi", "solMonth")}),
    ("kasi", "locdate"): frozenset({("tourapi", "eventStartDate")}),
}
AGREE_MIN = 0.5
LLM_DROP_BELOW = 0.3
SEMANTIC_MIN = 0.62


@dataclass(frozen=True)
class Meaning:
    agree: bool
    score: float
    why: str


def _sem_sim(reasons: list[str]) -> float | None:
    for r in reasons:
        m = re.match(r"semantic:([0-9.]+)", r)
        if m:
            return float(m.group(1))
    return None


def temporal_kind(name: str, fmt: str | None, op_id: str | None = None) -> str | None:
    c = concept(name, op_id)
    if c in TEMPORAL:
        return c
    return fmt if fmt in TEMPORAL else None


def link_meaning(e: Edge) -> Meaning:
    """The field-meaning verdict for one link (pure; reads the two operations' specs)."""
    prod, cons = get_operation(e.producer), get_operation(e.consumer)
    param = cons.param(e.param)
    fdesc = prod.output_fields.get(e.field, "")
    fcon, pcon = concept(e.field, e.producer), concept(e.param, e.consumer)
    ffmt = field_format(e.field, fdesc, e.producer)
    pfmt = param_format(param, e.consumer) if param is not None else None
    cross = prod.platform != cons.platform
    sl = f" slice [{e.slice[0]}:{e.slice[1]}]" if e.slice else ""
    if e.llm_score is not None and e.llm_score < LLM_DROP_BELOW:
        return Meaning(False, e.llm_score, f"llm score {e.llm_score:.2f} < {LLM_DROP_BELOW}")
    t_f, t_p = temporal_kind(e.field, ffmt, e.producer), temporal_kind(e.param, pfmt, e.consumer)
    if (t_f or t_p) and cross:
        if (
            t_f
            and t_p
            and (cons.platform, e.param) in USER_DATES.get((prod.platform, e.field), ())
            and FORMAT_BRIDGES.get((t_f, t_p), None) == e.slice
        ):
            return Meaning(
                True, 0.8, f"user's own date {t_f}->{t_p}{sl} ({prod.platform} -> {cons.platform})"
            )
        return Meaning(False, 0.0, f"cross-platform {t_p or t_f} ({prod.platform} -> {cons.platform})")
    if {fcon, pcon} & COORDINATES and {fcon, pcon} & GRID:
        # korean-apis.md §3 #6: real, but a WGS84 -> Lambert (LCC) projection in client code; no
        # tool offers it, so a model shown mapx/mapy could not know nx/ny. The place-name route
        # (a name -> kma_getGridPointList -> nx/ny) is the one a trajectory can teach.
        return Meaning(False, 0.0, f"grid conversion {fcon}->{pcon} needs code no tool offers")
    if fcon is not None and pcon is not None and fcon != pcon and (fcon, pcon) not in BRIDGES:
        # Same spelling, two meanings (KMA's 10-digit areaCode vs TourAPI's areaCode).
        return Meaning(False, 0.0, f"different concepts {fcon} vs {pcon}")
    if fcon in COORDINATES and fcon == pcon:
        # A point travels as a pair from one row: a longitude whose latitude is not beside it (or
        # a consumer without the other half) would be completed from elsewhere, another place.
        other = "lat" if fcon == "lon" else "lon"
        if not any(concept(f, e.producer) == other for f in prod.output_fields) or not any(
            concept(q.name, e.consumer) == other for q in cons.params
        ):
            return Meaning(
                False, 0.0, f"coordinate {fcon} without its {other} ({e.producer} -> {e.consumer})"
            )
        return Meaning(True, 0.95, f"same concept {fcon} (WGS84 degrees, {e.field} -> {e.param})")
    if fcon in PLACE_NAMES and fcon == pcon:
        return Meaning(True, 0.9, f"place name {fcon} -> name lookup {e.consumer}.{e.param}")
    if norm(e.field) == norm(e.param):
        return Meaning(True, 1.0, "same name")
    if fcon is not None and fcon == pcon:
        return Meaning(True, 0.95, f"same concept {fcon}")
    if fcon is not None and pcon is not None and (fcon, pcon) in BRIDGES:
        return Meaning(True, 0.9, f"bridge {fcon}->{pcon}{sl}")
    if fcon is not None and pcon is not None:
        return Meaning(False, 0.0, f"different concepts {fcon} vs {pcon}")
    if (fcon is None) != (pcon is None) and (fcon or pcon) not in NAME_CONCEPTS:
        # A code of a known system on one side only: text similarity cannot tell two code systems
        # apart (a 법정동 시군구코드 and HIRA's 시군구코드 read alike and mean different districts).
        return Meaning(False, 0.0, f"known code system on one side only ({fcon or pcon})")
    sim = _sem_sim(e.reasons)
    if sim is not None and sim >= SEMANTIC_MIN and (e.retriever_sim or 0.0) > 0:
        if (t_f is None) != (t_p is None):
            return Meaning(False, 0.0, "temporal vs non-temporal")
        score = sim if e.llm_score is None else 0.5 * (sim + e.llm_score)
        return Meaning(score >= AGREE_MIN, score, f"semantic {sim:.2f}")
    if e.llm_score is not None and e.llm_score >= 0.7 and not cross:
        return Meaning(True, e.llm_score, f"llm score {e.llm_score:.2f}")
    return Meaning(False, 0.2, "format only")
