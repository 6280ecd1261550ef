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

from edge_synth.fields import concept, field_format, norm, param_format
from edge_synth.graph import Edge
from kopa_inspect.apis import get_operation

TEMPORAL = frozenset({"date8", "ym6", "year4", "month2", "time4", "tm12"})
# Concept pairs whose values are the same thing in another spelling/length (a slice away).
BRIDGES: frozenset[tuple[str, str]] = frozenset({
    ("code10", "lawd5"), ("code10", "sido2"), ("lawd5", "sido2"),
})
# Concepts whose values are names a person says, not codes of one system.
NAME_CONCEPTS = frozenset({"stationname", "hgnm"})
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


def temporal_kind(name: str, fmt: str | None) -> str | None:
    c = concept(name)
    if c in TEMPORAL:
        return c
    return fmt if fmt in TEMPORAL else None


def link_meaning(e: Edge) -> Meaning:
    """The field-meaning verdict for one link (pure; reads the two operations' specs)."""
    prod, cons = get_operation(e.producer), get_operation(e.consumer)
    param = cons.param(e.param)
    fdesc = prod.output_fields.get(e.field, "")
    fcon, pcon = concept(e.field), concept(e.param)
    ffmt = field_format(e.field, fdesc)
    pfmt = param_format(param) if param is not None else None
    cross = prod.platform != cons.platform
    if e.llm_score is not None and e.llm_score < LLM_DROP_BELOW:
        return Meaning(False, e.llm_score, f"llm score {e.llm_score:.2f} < {LLM_DROP_BELOW}")
    t_f, t_p = temporal_kind(e.field, ffmt), temporal_kind(e.param, pfmt)
    if (t_f or t_p) and cross:
        return Meaning(False, 0.0, f"cross-platform {t_p or t_f} ({prod.platform} -> {cons.platform})")
    if norm(e.field) == norm(e.param):
        return Meaning(True, 1.0, "same name")
    if fcon is not None and fcon == pcon:
        return Meaning(True, 0.95, f"same concept {fcon}")
    if fcon is not None and pcon is not None and (fcon, pcon) in BRIDGES:
        return Meaning(True, 0.9, f"bridge {fcon}->{pcon}")
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
