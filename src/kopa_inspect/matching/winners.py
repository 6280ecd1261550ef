"""Which-one facts: the claimed winner among competitors, runner-ups bound to their own rank, denials and alternatives."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView
from kopa_inspect.matching.fact_fields import _get
from kopa_inspect.matching.lexicon import (
    ALTERNATIVE_WORDS_KO,
    COMPARATIVE_STEMS_KO,
    COPULAS_KO,
    COUNT_UNITS_KO,
    DENIAL_WORDS_KO,
    DISJUNCTIONS_KO,
    EN_MAX_WORDS,
    EN_MIN_WORDS,
    EN_RANK_WORDS,
    FIRST_RANK_KO,
    MAX_STEMS_KO,
    MIN_STEMS_KO,
    MIN_SUPERLATIVE_WORDS_KO,
    NOT_AFTER_THAN_KO,
    RUNNER_UP_EN,
    RUNNER_UP_KO,
    SUPERLATIVE_ADVERBS_KO,
    SUPERLATIVE_WORDS_KO,
    TOPIC_PARTICLES_KO,
    alternation,
)
from kopa_inspect.matching.names import _spans, normalize_name

# The claim markers, the polarity and the denied claims are built from the lexicon's lists.
_EN_MARKERS = alternation((*EN_MAX_WORDS, *EN_MIN_WORDS, *EN_RANK_WORDS))
_THAN_STEMS = tuple(s for s in COMPARATIVE_STEMS_KO if s not in NOT_AFTER_THAN_KO)
_MAX_SUPERLATIVES = tuple(w for w in SUPERLATIVE_WORDS_KO if w not in MIN_SUPERLATIVE_WORDS_KO)

_MARKER = re.compile(
    # contracted forms too: 큽니다 (크다), 비쌉니다 (비싸다), 쌉니다, 이릅니다, 빠릅니다
    rf"{alternation(SUPERLATIVE_ADVERBS_KO)}|{alternation(SUPERLATIVE_WORDS_KO)}|{alternation(FIRST_RANK_KO, False)}"
    rf"|더\s*(?:{alternation(COMPARATIVE_STEMS_KO)})"
    # a comparison without 더: "A가 B보다 (칼로리가) 높습니다"
    rf"|보다(?:\s*\S+){{0,2}}?\s*(?:{alternation(_THAN_STEMS)})"
    rf"|\b(?:{_EN_MARKERS})\b",
    re.IGNORECASE,
)
# The other side of a comparison: "B보다", "B(700kcal)보다", "B에 비해", "than B".
_THAN_AFTER = re.compile(rf"^\s*(?:\([^)]*\))?\s*(?:{alternation(TOPIC_PARTICLES_KO)})?\s*(?:보다|에\s*비해)")
_THAN_BEFORE = re.compile(r"\bthan\s+(?:the\s+)?$", re.IGNORECASE)
_FIELD_WORDS = re.compile(r"최(?:고|저)\s*기온|최고\s*가(?=\s*\d)|최(?:고|저)\s*온도")
_MAX_WORDS = re.compile("|".join(map(alternation, (_MAX_SUPERLATIVES, MAX_STEMS_KO, EN_MAX_WORDS))), re.I)
_MIN_WORDS = re.compile(
    "|".join(map(alternation, (MIN_SUPERLATIVE_WORDS_KO, MIN_STEMS_KO, EN_MIN_WORDS))), re.I
)
_LIST_HEAD = re.compile(r"^.*?(?:중에서|중에|가운데|중|among|of)\s+", re.IGNORECASE)


def _polarity(text: str) -> int:
    text = _FIELD_WORDS.sub(" ", text)
    up, down = bool(_MAX_WORDS.search(text)), bool(_MIN_WORDS.search(text))
    return 1 if up and not down else -1 if down and not up else 0


# Claims that hide the winner among others or deny it (UNCERTAIN: word lists, not a parser).
# Two candidates joined by nothing but a separator are a list, not a claim ("래미안, 자이",
# "래미안 또는 자이", "래미안과 자이 중 하나").
_JOIN = rf"(?:[,/·&]|및|와|과|{alternation(DISJUNCTIONS_KO)}|이나|나|아니면|or|and)"
_LIST_GAP = re.compile(rf"\s*(?:{_JOIN}\s*){{0,2}}", re.IGNORECASE)
# What a list item may carry besides the candidate: a figure with its unit, a copula, "중 하나".
_ITEM_FILLER = re.compile(
    rf"[-+]?\d[\d,]*(?:\.\d+)?|조|억|만|천|원|{alternation(COUNT_UNITS_KO)}|도|℃|%|퍼센트|분|초|시간|시|년|월|일|㎡"
    rf"|중\s*하나|{alternation(COPULAS_KO)}|이고|이며|등|중|" + _JOIN[3:-1] + r"|[\s.!?()]",
    re.IGNORECASE,
)
# "X가 아니라 Y" / "not X but Y": the claim is what follows.
_CONTRAST = re.compile(r"아니라|아니고|rather\s+than|instead\s+of", re.IGNORECASE)
# A denied superlative: "가장 비싸지 않은", "가장 비싼 곳이 아닙니다", "is not the most".
_NEGATED = re.compile(
    rf"(?:{alternation(SUPERLATIVE_ADVERBS_KO)}|최고로)\s*\S{{1,6}}?(?:지|진)\s*(?:는|도)?\s*(?:않|못|아니)"
    rf"|{alternation(DENIAL_WORDS_KO)}|\bis\s+not\b|\bisn't\b|\bwas\s+not\b|\bwasn't\b"
    rf"|\bnot\s+the\s+(?:{_EN_MARKERS})\b",
    re.IGNORECASE,
)
AMBIGUOUS = "\x00ambiguous"  # a claim naming several candidates as a list: never the winner
# An alternative offered beside the answer ("A입니다. 아니면 B일 수도 있습니다", "A인데 B일 가능성도",
# "혹시 B일지도", "or possibly B"): a unit with one of these that names a competitor takes the pick back.
# UNCERTAIN: a word list. "B가 아니라 A" (a contrast) and "늦어질 수도" (a caveat on no candidate) are not.
_ALTERNATIVE = re.compile(
    rf"{alternation(ALTERNATIVE_WORDS_KO)}|(?:일|였을|이었을)\s*(?:수도|지도|가능성)|가능성도|\bor\s+(?:possibly|maybe|perhaps)\b"
    r"|\bpossibly\b|\bmaybe\b|\bperhaps\b|\bmight\s+(?:also\s+)?be\b|\bcould\s+(?:also\s+)?be\b",
    re.IGNORECASE,
)


def _alternative_units(view: AnswerView) -> list[str]:
    """Structured line values and free-text sentences that offer an alternative."""
    return [
        u for u in [v for _, v in view.lines] + view.sentences[len(view.lines) :] if _ALTERNATIVE.search(u)
    ]


def _is_list_item(clause: str, names: Sequence[str]) -> bool:
    """A clause that is only a further item of a list (a candidate or a figure, a copula)."""
    rest = clause
    for _, a, b in sorted(_spans(names, clause), key=lambda x: -x[1]):
        rest = rest[:a] + " " + rest[b:]
    return not _ITEM_FILLER.sub(" ", rest).strip()


# a predicate's stem and its connective; a name ending in 고 ("매탄고") closes nothing
_CLOSED_CLAIM = re.compile(
    r"(?:높|많|크|낮|적|작|비싸|싸|길|짧|빠르|늦|이르|덥|춥|따뜻하|하|있|없|였|었|했|이)(?:고|며)\s*$|(?:지만|는데)\s*$"
)


def _parentheses_joined(group: Sequence[str]) -> list[str]:
    """A sentence's clauses with a comma inside parentheses undone: "최고가 거래 단지(A아파트, 37억 원)는
    B동에 있습니다" is one clause, its claim and its candidate together."""
    out: list[str] = []
    for clause in group:
        if out and out[-1].count("(") > out[-1].count(")"):
            out[-1] += ", " + clause
        else:
            out.append(clause)
    return out


def _claim_units(view: AnswerView, names: Sequence[str]) -> list[tuple[str, bool]]:
    """Free-text claim units: each clause, a clause with a superlative marker joined with the bare
    list items that follow it in its sentence ("가장 비싼 곳은 A, B, C입니다" is one unit). Returns
    (text, is_list): is_list when items were joined."""
    out: list[tuple[str, bool]] = []
    for group in map(_parentheses_joined, view.clause_groups):
        k = 0
        while k < len(group):
            unit, j = group[k], k + 1
            # a claim closed by its connective ("A가 21.0도로 제일 높고, B 20.9도, …") is whole: the
            # items after it are the others with their own figures, not more winners
            if _MARKER.search(_FIELD_WORDS.sub(" ", unit)) and not _CLOSED_CLAIM.search(unit):
                while j < len(group) and not _MARKER.search(group[j]) and _is_list_item(group[j], names):
                    unit += ", " + group[j]
                    j += 1
            out.append((unit, j > k + 1))
            k = j
    return out


# A superlative about another dimension than the fact's is no claim of its winner: the nearest station
# beside the priciest sale's 동 ("가장 가까운 수내동의 지수는 67, 정자동은 68"), the largest increase
# beside the most deals ("증가 폭은 송파구가 가장 컸습니다"). A dimension the fact's own description
# names ("가장 가까운 측정소", "증가 폭이 가장 큰 구") is its own. UNCERTAIN: a word list, not a parser.
_OTHER_DIMENSIONS: tuple[re.Pattern[str], ...] = (
    re.compile(r"가까운|가깝|가까이|먼\s|멀리|거리|\b(?:nearest|closest|farthest|distance)\b", re.IGNORECASE),
    re.compile(
        r"(?:증가|감소|상승|하락|증감|변동)\s*(?:폭|율|률)|늘어난|줄어든|(?:많이|크게|가장)\s*(?:늘|줄|올랐|내렸)"
        r"|\b(?:increase|decrease|rise|drop|growth|change)\b",
        re.IGNORECASE,
    ),
)
_DIMENSION_CLAUSE = re.compile(r"[^,.;\n]+")


def other_dimension_markers_blanked(text: str, description: Any, active: bool = True) -> str:
    """``text`` with the superlative markers of clauses about another dimension than ``description``'s
    blanked (their names and figures stay); unchanged when not ``active``."""
    others = [d for d in _OTHER_DIMENSIONS if active and not d.search(str(description or ""))]
    if not others:
        return text

    def blank(m: re.Match[str]) -> str:
        clause = m.group(0)
        if not any(d.search(clause) for d in others):
            return clause
        return _MARKER.sub(lambda x: " " * len(x.group(0)), clause)

    return _DIMENSION_CLAUSE.sub(blank, text)


# A runner-up said with its own rank beside the winner ("A가 가장 높고 B가 그 뒤를 잇습니다", "1위 A / 2위
# B", "A이며 두 번째는 B", "A, followed by B") is no second claim: the part of a claim unit (cut at clause
# joins) that holds a rank word is blanked, from the word on where a superlative marker precedes it in
# the part ("가장 높은 날은 A 다음은 B"), else whole. An unbound or hedged second value ("A 또는 B",
# "856.6 812.4") holds no rank word and stays in the claim. UNCERTAIN: a word list, not a parser.
_RUNNER_UP = re.compile(alternation((*RUNNER_UP_KO, *RUNNER_UP_EN), False), re.IGNORECASE)
_RUNNER_CUT = re.compile(
    r"([,;\n]|(?<!\d)/(?!\d)|\s/|/\s|(?<=[.!?。])\s|(?<=[가-힣)])(?:고|며|면서|지만|는데|으나)\s)"
)
_PAREN = re.compile(r"\([^()]*\)")
# The compared-with side of a figure claim ("10월 23일(812.4 Kcal)보다 높아"): not the claim.
_THAN_FIGURE = re.compile(
    r"(?:\d{1,2}\s*월\s*)?\d[\d,.]*\s*[^\s\d()]{0,5}(?:\s*\([^()]*\))?"
    rf"(?=\s*(?:{alternation(TOPIC_PARTICLES_KO)})?\s*(?:보다|에\s*비해))"
)

# The starting point of a change said in one clause ("117.88에서 매달 올라 9월에 119.3으로"): the figure
# the series rose or fell from, not the one claimed.
_FROM_FIGURE = re.compile(
    r"\d[\d,.]*\s*[^\s\d()]{0,5}(?=\s*에서\s(?=[^,.;\n]*?\d[\d,.]*\s*[^\s\d()]{0,5}?\s*(?:으로|로)(?![가-힣])))"
)


def _runner_up_blanked(text: str, than: bool = False) -> str:
    """``text`` with its runner-up parts (and, with ``than``, a figure's compared-with side and a
    change's starting point) blanked."""
    if than:
        text = _THAN_FIGURE.sub(lambda m: " " * len(m.group(0)), text)
        text = _FROM_FIGURE.sub(lambda m: " " * len(m.group(0)), text)
    if not _RUNNER_UP.search(text):
        return text
    # a runner-up said in parentheses after the claim ("9월에 119.3으로 가장 높았습니다(8월 119.05가 그다음)")
    text = _PAREN.sub(
        lambda m: (
            " " * len(m.group(0))
            if _RUNNER_UP.search(m.group(0)) and not _MARKER.search(_FIELD_WORDS.sub(" ", m.group(0)))
            else m.group(0)
        ),
        text,
    )
    out: list[str] = []
    for part in _RUNNER_CUT.split(text):
        r = _RUNNER_UP.search(part)
        if r and not _MARKER.search(_FIELD_WORDS.sub(" ", part[r.start() :])[: len(r.group(0))]):
            head = part[: r.start()]
            if _MARKER.search(_FIELD_WORDS.sub(" ", head)):
                part = head + " " * (len(part) - r.start())
            else:
                part = " " * len(part)
        out.append(part)
    return "".join(out)


def _listed(spans: Sequence[tuple[str, int, int]], chosen: tuple[str, int, int], text: str) -> bool:
    """Is the chosen candidate joined to another one by a bare separator?"""
    name, a, b = chosen
    for other, a2, b2 in spans:
        if normalize_name(other) == normalize_name(name):
            continue
        gap = text[b:a2] if a2 >= b else text[b2:a] if b2 <= a else None
        if gap is not None and _LIST_GAP.fullmatch(gap):
            return True
    return False


# A candidate said as the clause's subject ("서초구가 세 구 중 가장 많았습니다"): the claim, not a member
# of the list the pick is among.
_SUBJECT_PARTICLE = re.compile(rf"(?:{alternation(TOPIC_PARTICLES_KO)}|께서)(?![가-힣])")


def _list_head_end(clean: str, spans: Sequence[tuple[str, int, int]], marker_start: int) -> int:
    """Where the list head ("A, B 중", "'X'의 진료과목 중") before the marker ends (0 without one, or
    when a candidate in it is the clause's subject)."""
    head = _LIST_HEAD.match(clean)
    if not head or head.end() > marker_start + 1:
        return 0
    if any(b <= head.end() and _SUBJECT_PARTICLE.match(clean, b) for _, _, b in spans):
        return 0
    return head.end()


def _claim(text: str, candidates: Sequence[str], direction: int) -> tuple[str, bool] | None:
    """The candidate a clause claims as the winner (``AMBIGUOUS`` for a list of candidates) and
    whether the claim is denied ("가장 비싼 곳이 아닙니다"), or None when the clause claims nothing."""
    clean = _FIELD_WORDS.sub(lambda m: " " * len(m.group(0)), text)
    markers = list(_MARKER.finditer(clean))
    if not markers:
        return None
    pol = _polarity(clean)
    every = _spans(candidates, clean)
    than = [sp for sp in every if _THAN_AFTER.match(clean[sp[2] :]) or _THAN_BEFORE.search(clean[: sp[1]])]
    if direction and pol and pol != direction:
        # "B는 A보다 낮다" for a max fact: A, the one compared with, is the claim
        return (than[0][0], False) if len(than) == 1 else None
    contrast = _CONTRAST.search(clean)
    negated = contrast is None and bool(_NEGATED.search(clean))
    start = _list_head_end(clean, every, markers[0].start())
    if contrast is not None:
        start = max(start, contrast.end())
    # the compared-with side of "A가 B보다 더 높다" is not the claim, however near the marker
    spans = [s for s in every if s[1] >= start and s not in than]
    if not spans:
        return None
    pos = markers[0].start()
    chosen = min(spans, key=lambda s: (min(abs(s[1] - pos), abs(s[2] - pos)), -s[1]))
    if _listed(every, chosen, clean):
        return AMBIGUOUS, negated
    return chosen[0], negated


def _list_heads(view: AnswerView, candidates: Sequence[str]) -> list[str]:
    """The list heads ("A, B 중", "'X'의 진료과목 중") before the first superlative marker of each claim
    unit and marked structured label: the candidates said there are what the pick is among or of."""
    out: list[str] = []
    texts = [lab for lab, _ in view.lines] + [u for u, _ in _claim_units(view, candidates)]
    for text in texts:
        clean = _FIELD_WORDS.sub(lambda m: " " * len(m.group(0)), text)
        marker = _MARKER.search(clean)
        end = _list_head_end(clean, _spans(candidates, clean), marker.start()) if marker else 0
        if end:
            out.append(clean[:end])
    return out


def winner_score(
    expected: Any,
    competitors: Sequence[Any],
    view: AnswerView,
    direction: int = 0,
    role_words: frozenset[str] = frozenset(),
) -> float:
    """1.0 when the answer claims ``expected`` among ``competitors`` (see the package docstring, 4).
    ``role_words``: for a pick by role, not by rank (the committee's chair among its members), the
    words of that role; a clause naming the role and one candidate claims that candidate, so other
    members said as context ("초선은 안민준 1명") are no rival claim."""
    right = str(expected)
    wrong = [str(c) for c in competitors if str(c) and normalize_name(c) != normalize_name(right)]
    candidates = [right, *wrong]
    claims: list[str] = []
    denied: list[str] = []
    for label, value in view.lines:
        lab = _FIELD_WORDS.sub(" ", label)
        if not _MARKER.search(lab):
            continue
        pol = _polarity(lab)
        if direction and pol and pol != direction:
            continue
        value = _runner_up_blanked(value)
        spans = _spans(candidates, value)
        if spans:
            claims.append(AMBIGUOUS if _listed(spans, spans[0], value) else spans[0][0])
    for unit, _ in _claim_units(view, candidates):
        c = _claim(_runner_up_blanked(unit), candidates, direction)
        if c is not None:
            (denied if c[1] else claims).append(c[0])
    if right in denied or AMBIGUOUS in claims:
        return 0.0  # the winner denied, or hidden in a list of candidates
    if any(_spans(wrong, u) for u in _alternative_units(view)):
        return 0.0  # a competitor offered as an alternative ("아니면 B일 수도 있습니다")
    if not claims and role_words and not direction:
        roles = []
        units = [f"{lab}: {val}" for lab, val in view.lines] + [u for u, _ in _claim_units(view, candidates)]
        for unit in units:
            named = {n for n, _, _ in _spans(candidates, unit)}
            if len(named) == 1 and any(w in normalize_name(unit) for w in role_words):
                roles.append(named.pop())
        if roles:
            return 1.0 if all(r == right for r in roles) else 0.0
    if not claims:
        # no superlative claim: the answer holds only if it names the winner and no other candidate; a
        # candidate said only in the list head of a claim ("'X'의 진료과목 중 가장 …", "X과 같은 시군구의
        # 어린이집 중 가장 …") is the list's owner or anchor, not stated as this pick
        heads = _list_heads(view, candidates)
        said = {n for n, _, _ in _spans(candidates, view.text)}
        said = {n for n in said if len(_spans([n], view.text)) > sum(len(_spans([n], h)) for h in heads)}
        return 1.0 if right in said and not (said & set(wrong)) else 0.0
    return 1.0 if right in claims and not any(c in wrong for c in claims) else 0.0


def infer_competitors(value_expr: Any, expected: Any) -> list[str]:
    """Candidates of an old-style "which one" fact: the quoted literals bound to the key the
    expression returns (``max_by([{g: '강남구', ...}, ...], &n).g`` -> 강남구, 서초구 ...)."""
    if not isinstance(value_expr, str) or not re.search(r"\b(?:max_by|min_by)\s*\(", value_expr):
        return []
    m = re.search(r'\.\s*"?([^".\s()\[\]]+)"?\s*$', value_expr)
    if not m:
        return []
    key = re.escape(m.group(1))
    lits = re.findall(rf"(?:\b{key}\s*:\s*|\"?{key}\"?\s*==\s*)'([^']+)'", value_expr)
    return [x for x in dict.fromkeys(lits) if normalize_name(x) != normalize_name(expected)]


def competitor_expr(value_expr: Any) -> str | None:
    """For an aggregate fact value, the expression of all its candidates (the winner included):
    ``$s2.max(nums(items[].x))`` -> ``$s2.nums(items[].x)``; ``$s2.max_by(items, &k).name`` ->
    ``$s2.items[].name``; ``$_.min_by(LIST, &k).f`` -> ``$_.LIST[].f``. None for other values."""
    if not isinstance(value_expr, str):
        return None
    m = re.fullmatch(r"\$(\w+)\.(?:max|min)\((.+)\)", value_expr.strip(), re.S)
    if m:
        return f"${m.group(1)}.{m.group(2)}"
    m = re.fullmatch(r"\$(\w+)\.(?:max_by|min_by)\((.+)\)\.(\"[^\"]+\"|[\w]+)", value_expr.strip(), re.S)
    if m:
        body = m.group(2)
        cut = body.rfind(", &")
        if cut > 0:
            return f"${m.group(1)}.({body[:cut]})[].{m.group(3)}"
    return None


@dataclass(frozen=True)
class TieExprs:
    """For a ``max_by``/``min_by`` pick, the expressions of every candidate's ranking key and named
    field, aligned (``map`` keeps nulls), to tell which candidates tie with the winner."""

    keys: str
    values: str
    largest: bool


def tie_exprs(value_expr: Any) -> TieExprs | None:
    """``$s.max_by(LIST, &KEY).F`` -> ``$s.map(&KEY, (LIST))`` and ``$s.map(&F, (LIST))``; None for
    any other value."""
    if not isinstance(value_expr, str):
        return None
    m = re.fullmatch(r"\$(\w+)\.(max_by|min_by)\((.+)\)\.(\"[^\"]+\"|[\w]+)", value_expr.strip(), re.S)
    if not m:
        return None
    body = m.group(3)
    cut = body.rfind(", &")
    if cut <= 0:
        return None
    head, items, key = m.group(1), body[:cut], body[cut + 3 :]
    return TieExprs(
        f"${head}.map(&{key}, ({items}))", f"${head}.map(&{m.group(4)}, ({items}))", m.group(2) == "max_by"
    )


# A question that asks for the first of equal maxima ("처음으로 가장 높아지는 시각", "the first hour") breaks
# a tie by order: the gold's first member alone answers it. UNCERTAIN: a word list.
ORDER_BREAKS_TIE = re.compile(r"처음|맨\s*먼저|가장\s*먼저|가장\s*이른|\bfirst\b|\bearliest\b", re.IGNORECASE)


def _direction(fact: Any) -> int:
    expr = str(_get(fact, "value", ""))
    if re.search(r"\bmax_by\s*\(|\bmax\s*\(", expr):
        return 1
    if re.search(r"\bmin_by\s*\(|\bmin\s*\(", expr):
        return -1
    return _polarity(str(_get(fact, "description", "")))
