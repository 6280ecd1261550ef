"""Closed-book leaks: answers a model could give from the query alone (issue 10, trajectory validity).

A trajectory is worth learning only if its answer needs its tool calls. If an answer built from the
query alone (the query echoed, a name the query offers claimed as the answer, a figure or a date the
query states) earns credit from the metric that grades the row (``steps.scoring.answer_score``: the
step task's answer accuracy and the GRPO answer reward; the pipeline checks its own answer with it
too), the row teaches a model that it may skip the calls, and grades a model that skips them as
right. Such rows are dropped (``answer_in_query``).

``closed_book_answers`` is the attack: a small, deterministic set of answers from the query's text
only (never the tool outputs or the gold answer). It is not every answer a closed-book model could
write, but it covers what the query hands over: each name it quotes, each figure and each date it
says, alone and as the claim of a comparison or a pick, and the query itself.

Also ``stated_facts``: facts whose value the query already states (a value the user gave is asked
back). A choice between named rows (a comparison winner, a max/min pick with its competitors) states
its candidates by design; the check excludes those, since the metric demands the right one.

    .venv/bin/python -m edge_synth.leak OUT/dataset   # the attack's figures over a dataset
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

# Names the query offers: quoted spans ('석촌호수', "SK하이닉스").
_QUOTED = re.compile(r"['\"‘’“”]([^'\"‘’“”]{1,60})['\"‘’“”]")
# Figures the query says: a date, a month, a time, a number with or without its unit word.
_DATE = re.compile(r"\d{4}년\s*\d{1,2}월(?:\s*\d{1,2}일)?")
_TIME = re.compile(r"\d{1,2}시(?:\s*\d{1,2}분)?")
_NUMBER = re.compile(
    r"\d[\d,]*(?:\.\d+)?(?:\s*(?:억|만|천)\s*\d[\d,]*)*\s*(?:억|만)?\s*(?:원|미터|m|킬로미터|km|명|건|개|도|퍼센트|%)?"
)
# The claims a comparison or a pick is made with (matching._MARKER reads these).
_CLAIMS = (
    "{n}입니다.",
    "'{n}' 쪽입니다.",
    "'{n}' 쪽이 더 많습니다.",
    "'{n}' 쪽이 더 큽니다.",
    "가장 많은 곳은 '{n}'입니다.",
    "가장 큰 곳은 '{n}'입니다.",
)
MAX_ANSWERS = 48  # the attack stays cheap enough to run on every candidate row


def query_names(query: str) -> list[str]:
    return list(dict.fromkeys(m.strip() for m in _QUOTED.findall(query) if m.strip()))


def query_figures(query: str) -> list[str]:
    """Dates, times and numbers the query says, in its own words, longest first."""
    found: list[str] = []
    for rx in (_DATE, _TIME, _NUMBER):
        for m in rx.finditer(query):
            text = m.group(0).strip().rstrip(",")
            if text and not any(text in f for f in found):
                found.append(text)
    return found


def closed_book_answers(query: str) -> list[str]:
    """Answers built from ``query`` alone: the query, each name claimed, each figure stated (alone
    and of each name). Deterministic; at most ``MAX_ANSWERS``."""
    names = query_names(query)
    figures = query_figures(query)
    out: list[str] = [query.strip(), f"{query.strip().rstrip('?')}입니다."]
    for n in names:
        out += [c.format(n=n) for c in _CLAIMS]
    for fig in figures:
        out.append(f"{fig}입니다.")
        out += [f"'{n}'은(는) {fig}입니다." for n in names[:4]]
    if names and figures:
        # one name claimed with every figure the query says beside it
        out.append(f"'{names[0]}' 쪽입니다. " + ", ".join(figures[:3]) + "입니다.")
    return list(dict.fromkeys(a for a in out if a.strip()))[:MAX_ANSWERS]


def _required(facts: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    from kopa_inspect.steps.scoring import required_facts

    return required_facts(facts)


def credit(text: str, facts: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Per required fact, the credit ``text`` earns by the pipeline's metric: exactly what
    ``steps.scoring.answer_score`` sums (its well-formedness gate, then the matcher per fact)."""
    from kopa_inspect.steps.scoring import answer_well_formed, fact_expected, fact_scores

    req = _required(facts)
    if not req or not answer_well_formed(text, (), [fact_expected(f) for f in req], req):
        return {}
    scores = fact_scores(list(facts), text)
    return {str(f["id"]): min(1.0, scores.get(str(f["id"]), 0.0)) for f in req}


def posed_choice(query: str, fact: Mapping[str, Any]) -> bool:
    """A pick among candidates the query itself names ("'A'와 'B' 가운데 더 많은 쪽"): naming one of
    them is a guess (1 in k), not knowledge the query hands over."""
    from kopa_inspect.matching import normalize_name

    if fact.get("matcher") != "name" or not fact.get("competitors"):
        return False
    q = normalize_name(query)
    named = [
        c for c in [fact.get("resolved"), *fact["competitors"]] if c is not None and normalize_name(c) in q
    ]
    return len(named) >= 2 and any(normalize_name(c) == normalize_name(fact.get("resolved")) for c in named)


def _value_said(query: str, figures: Sequence[str], fact: Mapping[str, Any]) -> bool:
    """Could a text made of the query's words state this fact's value at all? The fact's own matcher
    on the value alone (``matching.match_text``: no subject, no competitors, no well-formedness; the
    scorer applies the same matcher to the stretches it binds, so this is the looser test), over the
    query and each figure it says. Cheap, so the attack runs only where it can succeed."""
    from kopa_inspect.matching import match_text
    from kopa_inspect.steps.scoring import fact_expected

    expected = fact_expected(fact)
    if expected is None:
        return False
    return any(match_text(fact, expected, text, fact.get("keys")) > 0 for text in (query, *figures))


def leaked_facts(query: str, facts: Sequence[Mapping[str, Any]]) -> tuple[set[str], str | None, float]:
    """(ids of facts a closed-book answer earns credit on, that answer, the best closed-book score).

    Posed choices credited by a guess are not counted (see ``posed_choice``); every other fact is."""
    figures = query_figures(query)
    open_facts = [f for f in _required(facts) if not posed_choice(query, f)]
    if not any(_value_said(query, figures, f) for f in open_facts):
        return set(), None, 0.0  # no value a closed-book text could state: nothing to try
    open_ids = {str(f["id"]) for f in open_facts}
    leaked: set[str] = set()
    which: str | None = None
    best = 0.0
    for text in closed_book_answers(query):
        got = credit(text, facts)
        hit = {k for k, v in got.items() if v > 0 and k in open_ids}
        score = sum(got.values()) / len(got) if got else 0.0  # = answer_score(text, facts)
        if hit - leaked or score > best:
            which = text  # the answer that first earned a new fact or the best score
        leaked |= hit
        best = max(best, score)
    return leaked, which, best


def answer_in_query(query: str, facts: Sequence[Mapping[str, Any]]) -> str | None:
    """Why the row's answer does not need its calls, or None: a closed-book answer (built from the
    query alone) earns credit on a fact the query does not pose as a choice, or full credit. Any
    credit counts: a fact the query gives away teaches nothing about the calls, and the answer
    reward would pay a model that never made them."""
    leaked, which, best = leaked_facts(query, facts)
    if leaked or best >= 1.0:
        return which
    return None


def _is_choice(f: Mapping[str, Any]) -> bool:
    """A fact that picks one of candidates (its competitors are listed)."""
    return f.get("matcher") == "name" and bool(f.get("competitors"))


def stated_facts(query: str, facts: Sequence[Mapping[str, Any]]) -> list[str]:
    """Ids of facts (choices aside) whose value the query itself states, read by the fact's own
    matcher with its subject (the query as if it were the answer, without the well-formedness gate)."""
    from kopa_inspect.steps.scoring import fact_scores

    plain = [f for f in facts if not _is_choice(f)]
    if not plain:
        return []
    scores = fact_scores(plain, query)
    return [str(f["id"]) for f in plain if scores.get(str(f["id"]), 0.0) > 0]


def measure(path: str, exhaustive: bool = False) -> dict[str, Any]:
    """The attack over a saved dataset. ``exhaustive`` also runs every closed-book answer on every
    row (no ``_value_said`` shortcut) and counts posed choices credited, to check the shortcut and
    to measure what the metric pays an echo of the question."""
    import datasets

    rows = datasets.load_from_disk(path)
    leaky = full = stated = echo_choice = guess_choice = shortcut_missed = 0
    by_junction: Counter[str] = Counter()
    examples: list[dict[str, Any]] = []
    for r in rows:
        facts = json.loads(r["facts_json"])
        leaked, which, best = leaked_facts(r["query"], facts)
        bad = bool(leaked) or best >= 1.0
        leaky += bad
        full += best >= 1.0
        stated += bool(stated_facts(r["query"], facts))
        if bad:
            by_junction.update(set(r["junctions"]))
            if len(examples) < 6:
                examples.append(
                    {
                        "id": r["id"],
                        "query": r["query"],
                        "closed_book": which,
                        "facts": sorted(leaked),
                        "score": round(best, 3),
                        "answer": r["answer"],
                    }
                )
        if exhaustive:
            choices = {str(f["id"]) for f in facts if posed_choice(r["query"], f)}
            got_all: dict[str, set[str]] = {}
            for text in closed_book_answers(r["query"]):
                got_all[text] = {k for k, v in credit(text, facts).items() if v > 0}
            echo = got_all.get(r["query"].strip(), set())
            echo_choice += bool(echo & choices)
            guess_choice += any(g & choices for g in got_all.values())
            open_hit = any(g - choices for g in got_all.values())
            shortcut_missed += open_hit and not leaked
    n = len(rows)
    out = {
        "rows": n,
        "answer_in_query": leaky,
        "closed_book_full_credit": full,
        "rows_with_stated_fact": stated,
        "leaky_junctions": dict(sorted(by_junction.items())),
        "examples": examples,
    }
    if exhaustive:
        out |= {
            "echo_credits_a_posed_choice": echo_choice,
            "a_guess_credits_a_posed_choice": guess_choice,
            "leaks_the_shortcut_missed": shortcut_missed,
        }
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], "--exhaustive" in sys.argv), ensure_ascii=False, indent=1))
