"""Which measure a claim is about, when a task has several "which one" facts over different fields."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView
from kopa_inspect.matching.fact_fields import _get
from kopa_inspect.matching.lexicon import (
    MEASURE_STOP_WORDS,
    RECENCY_WORDS_KO,
    SUPERLATIVE_ADVERBS_KO,
    SUPERLATIVE_WORDS_KO,
    alternation,
)
from kopa_inspect.matching.names import _spans, normalize_name
from kopa_inspect.matching.winners import _FIELD_WORDS, _MARKER

# Two "which one" facts over different measures (the most doctors, the most beds; the top sale price,
# the top jeonse deposit) must not be answerable by each other's claims: "B 쪽이 의사가 더 많고, A 쪽이
# 병상이 더 많습니다" with both winners swapped names every candidate in some claim. A which-one fact
# therefore reads only the units (structured lines, free-text clauses) about its own measure: a unit
# that names another fact's measure (a word of that fact's description no other measure has) and
# none of its own is no claim for it. A clause naming no measure takes the one named before it in its
# sentence until a claim is made ("의사 수는 A 10명, B 5명으로 A가 더 많고"), and otherwise counts for
# every measure (a neutral claim is read as a claim about each, so it cannot serve two swapped facts).
# UNCERTAIN: measure words are the description's content words (a word list, not a parser).

# What a description says besides its measure: superlatives, polarity words, generic nouns.
_EXTREME_WORDS = tuple(w for w in SUPERLATIVE_WORDS_KO if w not in RECENCY_WORDS_KO)
_MEASURE_STOP = re.compile(
    rf"^(?:{alternation((*SUPERLATIVE_ADVERBS_KO, *MEASURE_STOP_WORDS, *SUPERLATIVE_WORDS_KO))}|[0-9]+위|api|unit)$",
    re.IGNORECASE,
)
# Names of one measure a description and an answer may use in turn (normalized like names): a fact on
# "PM2.5" is answered "초미세먼지는 15"; longest first in :func:`_mentions`, so 초미세먼지 is no 미세먼지.
_MEASURE_SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"pm25", "초미세먼지"}),
    frozenset({"pm10", "미세먼지"}),
)
# A superlative of value leading a compound ("최고기온" names 기온); one of time ("최근") does not.
_EXTREME_PREFIX = re.compile(rf"^(?:{alternation(_EXTREME_WORDS)})(?=[가-힣]{{2}})")
_MEASURE_PARTICLE = re.compile(r"(?:으로|에서|에게|까지|부터|의|이|가|은|는|을|를|에|로|과|와|도|만)$")
_MEASURE_FUNCS = frozenset(
    {
        "num",
        "nums",
        "to_number",
        "length",
        "items",
        "max",
        "min",
        "max_by",
        "min_by",
        "abs",
        "sum",
        "avg",
        "sort_by",
        "reverse",
        "to_string",
    }
)
# A connective between two claims of one clause: "의사는 A가 더 많고 병상은 B가 더 많습니다".
# Only after a predicate's stem (많고, 크고, 빠르고, 비싸고, 이고): "최고 전세 보증금" is no connective.
_CONNECTIVE = re.compile(
    r"(?<=[많크큽높낮적작늦르싸이하되있없같])(?:고|며)\s+|(?<=[가-힣])(?:으며|지만|는데|으나)\s+"
)


def measure_words(description: Any) -> frozenset[str]:
    """The content words of a fact's description that name what is measured ("최고 전세 보증금 (top
    jeonse deposit; API unit 만원)" -> 전세, 보증금): the English gloss in parentheses and quoted row
    names dropped, particles cut, superlatives and generic words left out; normalized like names."""
    text = re.sub(
        r"\([^)]*\)|'[^']*'|\"[^\"]*\"|‘[^’]*’", " ", unicodedata.normalize("NFKC", str(description or ""))
    )
    out: set[str] = {
        normalize_name(w)
        for w in re.findall(r"[A-Za-z][A-Za-z0-9]{2,}(?:\.\d+)?", text)
        if not _MEASURE_STOP.match(w)
    }
    # a period names what is measured too: "10월 거래 건수" against "그 전달 9월", "2020년 21대" against "22대"
    out |= {normalize_name(p) for p in re.findall(r"(?<!\d)\d{1,4}\s*(?:년|월|대)(?![가-힣])", text)}
    for word in re.findall(r"[가-힣]+", text):
        if len(word) >= 3:
            word = _MEASURE_PARTICLE.sub("", word)
        word = _EXTREME_PREFIX.sub("", word)
        if len(word) >= 2 and not _MEASURE_STOP.match(word):
            out.add(normalize_name(word))
            if len(word) >= 3 and word.endswith("수"):  # "의석수" is said "의석은 33석"
                out.add(normalize_name(word[:-1]))
    for names in _MEASURE_SYNONYMS:
        if out & names:
            out |= names
    return frozenset(out)


def measure_key(fact: Any) -> str | None:
    """What a which-one fact ranks by, as (step, field): an EDGE pick's ``measure``, the field a
    ``max_by``/``min_by``/``max``/``min`` ranks in its value, or an EDGE winner's ``winner_value_ref``.
    None when the fact does not say (it is then read against every unit, as before)."""
    value = str(_get(fact, "value", "") or "")
    step = re.match(r"\$(\w+)", value)
    sid = step.group(1) if step else ""
    if _get(fact, "measure"):
        return f"{sid}:{_get(fact, 'measure')}"
    m = re.search(r"\b(?:max_by|min_by)\s*\(.*?,\s*&(.+?)\)\s*\.\s*\"?[\w]+\"?\s*$", value, re.S)
    if not m:
        m = re.search(r"\b(?:max|min)\s*\((.+)\)\s*$", value, re.S)
    if not m:
        ref = _get(fact, "winner_value_ref")
        if isinstance(ref, str) and ref.startswith("$"):
            ref_step = re.match(r"\$(\w+)", ref)
            body = ref[ref_step.end() :] if ref_step else ref
            fields = [w for w in re.findall(r"[A-Za-z_]\w*", body) if w not in _MEASURE_FUNCS]
            return f"{ref_step.group(1) if ref_step else ''}:{fields[-1]}" if fields else None
        return None
    fields = [w for w in re.findall(r"[A-Za-z_]\w*", m.group(1)) if w not in _MEASURE_FUNCS]
    return f"{sid}:{fields[-1]}" if fields else None


def _mentions(unit: str, distinct: Mapping[str, frozenset[str]], names: Sequence[str] = ()) -> set[str]:
    """The measures a unit names; a row's own name is no measure ("서울대학교병원" says no 병원)."""
    for _, a, b in sorted(_spans(names, unit), key=lambda x: -x[1]):
        unit = unit[:a] + " " + unit[b:]
    flat = normalize_name(unit)
    # longest word first, no overlaps: 진료 (월요일 진료) inside 진료과목 is not said
    found: set[str] = set()
    taken: list[tuple[int, int]] = []
    for key, word in sorted(
        ((k, w) for k, ws in distinct.items() for w in ws if w), key=lambda x: -len(x[1])
    ):
        for m in re.finditer(re.escape(word), flat):
            if not any(a < m.end() and m.start() < b for a, b in taken):
                taken.append((m.start(), m.end()))
                found.add(key)
    return found


def _split_claims(clause: str, about: Any = None) -> list[str]:
    """A clause holding two claims joined by a connective ("…더 많고 …더 많습니다"), or two statements
    about different measures ("병상이 150개이고 나래병원은 의사가 7명": ``about`` gives a text's measures),
    cut between them; a connective with neither on both sides ("최고 거래금액") leaves it whole."""
    parts: list[str] = []
    rest = clause
    for m in _CONNECTIVE.finditer(clause):
        head, tail = clause[len(clause) - len(rest) : m.end()], clause[m.end() :]
        claims = _MARKER.search(_FIELD_WORDS.sub(" ", head)) and _MARKER.search(_FIELD_WORDS.sub(" ", tail))
        # a head naming no measure but stating a figure continues a list whose measure came before
        # ("…, 제주 20%이고 최고기온은 …"): the tail's measure is not its own
        stated = about is not None and (about(head) or re.search(r"\d", head))
        if claims or (stated and about(tail) and about(head) != about(tail)):
            parts.append(head.strip())
            rest = tail
    return [*parts, rest.strip()] if rest.strip() else parts


# a topic word before a clause's first figure ("초미세먼지는 19", "pm10Value은 35"); a task name masked
_TOPIC = re.compile(r"[가-힣A-Za-z0-9_)]+(?:은|는)(?=[\s(])")


def _own_topic(clause: str, names: Sequence[str]) -> bool:
    """Does the clause say what its figures are of, in a word that is no task name?"""
    for _, a, b in sorted(_spans(names, clause), key=lambda x: -x[1]):
        clause = clause[:a] + " " * (b - a) + clause[b:]
    head = re.split(r"(?<![A-Za-z\d.])\d", clause, maxsplit=1)[0]  # "PM10" is a word, not a figure
    return bool(_TOPIC.search(head))


def _blank_figures(text: str) -> str:
    return re.sub(r"\d", " ", text)


def measure_view(
    view: AnswerView,
    own: str,
    distinct: Mapping[str, frozenset[str]],
    names: Sequence[str] = (),
    mask: bool = False,
) -> AnswerView:
    """The answer as a fact over measure ``own`` reads it: structured lines and free-text clauses
    about another measure (and not this one) left out (see the comment above), or with ``mask`` kept
    with their figures blanked (a row's name stays where it is: "가람병원은 의사 150명, 병상 12개" states
    no bed count of 150 for a fact on beds). ``names``: the task's subjects and candidates, masked
    before measure words are looked for."""

    def keep(ctx: set[str]) -> bool:
        return not ctx or own in ctx

    def about(text: str) -> set[str]:
        return _mentions(text, distinct, names)

    def by_parts(text: str) -> str | None:
        """A unit whose bracketed part names a measure the rest does not ("10월 234건(9월 200건)", "50건 (7월
        75건)"): each part's figures kept only where it is about this measure or none; None otherwise."""
        parts = re.split(r"(\([^()]*\))", text)
        if len(parts) < 3 or not any(about(x) for x in parts[1::2]):
            return None
        return "".join(x if keep(about(x)) else _blank_figures(x) for x in parts)

    lines = []
    for lab, val in view.lines:
        split = by_parts(val) if mask and not about(lab) else None
        if split is not None:
            lines.append((lab, split))
        elif keep(about(f"{lab}: {val}")):
            lines.append((lab, val))
        elif mask:
            lines.append((lab, _blank_figures(val)))
    groups: list[list[str]] = []
    # a measure named with no claim yet ("A의 어린이집은 56건, B는 71건입니다."): the next claim is about
    # it, in this sentence or, when this sentence claims nothing, the next ("B 쪽이 더 많습니다."); a
    # field said after a claim ("…가장 작은 곳은 A이고, 일산화탄소 농도는 0.4입니다.") introduces nothing
    intro: set[str] = set()
    for group in view.clause_groups:
        kept: list[str] = []
        last: set[str] = set()
        claimed = False
        for clause in (p for c in group for p in _split_claims(c, about if mask else None)):
            said = about(clause)
            marker = bool(_MARKER.search(_FIELD_WORDS.sub(" ", clause)))
            # (a figure statement naming no measure is about none: "강남구 pm10Value은 35" after a count)
            # (in a sentence, a figure naming no measure continues the list before it: "강수확률은 서울 30%,
            # 부산 10%" states 부산's rain chance; one with a topic of its own is about none: "강남구
            # pm10Value은 35", "초미세먼지는 각각 19, 18" after a count)
            ctx = said or (intro if marker else set() if mask and _own_topic(clause, names) else last)
            if marker:
                intro, claimed = set(), True
            elif said:
                intro = said
            last = ctx
            split = by_parts(clause) if mask else None
            if split is not None:
                kept.append(split)
            elif keep(ctx):
                kept.append(clause)
            elif mask:
                kept.append(_blank_figures(clause))
        if claimed:
            intro = set()
        if kept:
            groups.append(kept)
    structured = [f"{lab}: {val}" for lab, val in lines]
    free = [", ".join(g) for g in groups]
    return AnswerView(
        "\n".join([*structured, *free]),
        view.dump,
        lines,
        [*structured, *free],
        [c for g in groups for c in g],
        groups,
    )


def measure_scopes(
    facts: Mapping[str, Any], which: Sequence[str], scopes: Mapping[str, str] | None = None
) -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """For the which-one facts ``which`` (ids into ``facts``): each one's measure key (facts ranking by
    the same field of the same owner's list share it) and each key's distinctive words (its
    descriptions' measure words and its owner, ``scopes[id]``, that no other key has). Empty when
    fewer than two measures can be told apart."""
    scopes = scopes or {}
    keys: dict[str, str] = {}
    words: dict[str, set[str]] = {}
    for fid in which:
        # a pick of one owner's list ("'A병원'의 진료과목 중 …"): the owner scopes it like a measure
        scope = scopes.get(fid)
        k = (measure_key(facts[fid]) or "") + (f"@{normalize_name(scope)}" if scope else "")
        if not k:
            continue
        keys[fid] = k
        words.setdefault(k, set()).update(measure_words(_get(facts[fid], "description")))
        if scope:
            words[k].add(normalize_name(scope))
    distinct = {
        k: frozenset(w - set().union(*(v for o, v in words.items() if o != k))) for k, w in words.items()
    }
    if sum(1 for w in distinct.values() if w) < 1 or len(distinct) < 2:
        return {}, {}
    return keys, distinct


# A markdown table ("| 지역 | 올해 당선자 | 정당 | 4년 전 정당 |"): its header and data rows as cells.
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_cells(text: str, forms: Sequence[str], description: Any) -> list[str]:
    """The cells a fact about a subject reads in the answer's tables: in each row naming the subject
    (one of ``forms``), the cell under the one header that shares the most measure words with the
    fact's description ("4년 전 정당" for "광주광역시 4년 전 2022년 당선자 정당"); none where no header
    is the single best, and the row is then read whole as before."""
    words = measure_words(description)
    lines = text.splitlines()
    out: list[str] = []
    for k in range(len(lines) - 1):
        if "|" not in lines[k] or not _TABLE_SEP.match(lines[k + 1]):
            continue
        header = _cells(lines[k])
        overlap = [len(words & measure_words(h)) for h in header]
        best = max(overlap, default=0)
        if best == 0 or overlap.count(best) > 1:
            continue
        col = overlap.index(best)
        for row in lines[k + 2 :]:
            if "|" not in row:
                break
            cells = _cells(row)
            if col < len(cells) and _spans(forms, row) and not _spans(forms, cells[col]):
                out.append(cells[col])
    return out
