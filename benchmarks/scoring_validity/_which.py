"""Shared by the attack scripts: each task's gold facts, and its "which one" facts with every candidate.

A which-one fact is a required fact with competitors (given, resolved in ``GoldTruth.context``, or
inferred from a ``max_by`` over literals). Its candidates are the winner and the competitors in item
order; a name fact and a figure fact ranking the same rows (``matching.measure_key``) are paired, so a
candidate row can be written with its figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kopa_inspect import matching
from kopa_inspect.scorers.grading import GoldTruth
from kopa_inspect.task_data.schema import AnswerFact, BenchTask

MONEY_UNITS = ("원", "만원", "천원", "억원")


def say(fact: AnswerFact, value: Any) -> str:
    """A value as the oracle writes it (money with its API unit)."""
    unit = fact.unit if fact.matcher == "money" and fact.unit in MONEY_UNITS else ""
    return f"{value}{unit}"


@dataclass
class Which:
    fact: AnswerFact
    right: Any
    candidates: list[Any]  # the winner included, in item order
    label: str  # the fact's description without its English gloss


def which_facts(task: BenchTask, gold: GoldTruth) -> list[Which]:
    out: list[Which] = []
    for f in task.facts:
        right = gold.expected.get(f.id)
        if not f.required or right is None or isinstance(right, list) or gold.context[f.id].get("subject"):
            continue
        comps = gold.context[f.id].get("competitors") or matching.infer_competitors(f.value, right)
        comps = [c for c in matching._as_list(comps) if c is not None]
        if not any(not matching._same_value(c, right) for c in comps):
            continue
        cands = list(comps) if any(matching._same_value(c, right) for c in comps) else [right, *comps]
        label = f.description.split("(")[0].strip() or f.description
        out.append(Which(f, right, cands, label))
    return out


def rows_of(ws: list[Which]) -> list[list[tuple[Which, Any]]]:
    """Candidate rows: per group of which-one facts over the same measure whose candidate lists line
    up, one list of (fact, value) per row."""
    groups: dict[tuple[str | None, int], list[Which]] = {}
    key = getattr(matching, "measure_key", lambda f: None)  # absent from older matchers (the "before" runs)
    for w in ws:
        groups.setdefault((key(w.fact) or w.fact.value, len(w.candidates)), []).append(w)
    return [[(w, w.candidates[i]) for w in g] for g in groups.values() for i in range(len(g[0].candidates))]
