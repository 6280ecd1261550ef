"""Hedges: two candidate values offered as alternatives ("21도 또는 17도", "A 또는 B")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView, parse_answer
from kopa_inspect.matching.dates import _english_dates, parse_date_list, to_date
from kopa_inspect.matching.lexicon import (
    ALTERNATIVE_WORDS_KO,
    DISJUNCTIONS_KO,
    SCALE_WORDS_KO,
    TOPIC_PARTICLES_KO,
    alternation,
)
from kopa_inspect.matching.names import _name_pattern, normalize_name
from kopa_inspect.matching.winners import _alternative_units

# Two figures joined by "or" ("21도 또는 17도", "197 or 401"): a hedge between candidate values. UNCERTAIN:
# a word list; "내지" is read as a hedge too (it also marks a range, which states no figure either).
_OR_WORD = rf"(?:{alternation(DISJUNCTIONS_KO)}|아니면|내지|\bor\b)"
HEDGE = re.compile(
    rf"\d[\d,.]*[^\s\d]{{0,6}}\s*{_OR_WORD}\s*[^\s\d]{{0,4}}\d[\d,.]*[^\s\d]{{0,6}}", re.IGNORECASE
)
_ONE_FIGURE = frozenset({"number", "money", "duration", "time", "date", "month"})


def _date_hedged(values: Sequence[Any], text: str) -> bool:
    """A date offered beside another with the month said once ("10월 22일 또는 23일")."""
    text = _english_dates(unicodedata.normalize("NFKC", text))
    want = {(d.month, d.day) for d in (to_date(v) for v in values) if d is not None}
    for m in HEDGE.finditer(text):
        month = re.search(r"(\d{1,2})\s*월\s*$", text[max(0, m.start() - 8) : m.start()])
        stated = {(mo, d) for _, mo, d in parse_date_list((month.group(0) if month else "") + m.group(0))}
        if len(stated) > 1 and stated & want:
            return True
    # full dates on both sides of the word ("10월 2일 또는 10월 3일", "October 2 or October 3, 2026")
    for m in re.finditer(_OR_WORD, text, re.IGNORECASE):
        before = parse_date_list(text[max(0, m.start() - 24) : m.start()])
        after = parse_date_list(text[m.end() : m.end() + 24])
        pair = {(mo, d) for _, mo, d in (before[-1:] + after[:1])}
        if len(pair) > 1 and pair & want:
            return True
    return False


def _hedges(text: str) -> list[str]:
    return [m.group(0) for m in HEDGE.finditer(_english_dates(unicodedata.normalize("NFKC", text)))]


# Several like figures joined only by list separators ("21도, 17도, 14도", "21, 17 and 14", "3분 20초, 5분
# 10초", "21도이거나 17도"): a listing, not a statement of one of them. An item is a figure (a compound
# "8억 2,500만 원" / "3분 20초" is one) with a short unit; the items of a run share one unit (or are bare),
# so "8억 원, 12건" (an amount and a count) is no list. UNCERTAIN: a separator list, not a parser.
_LIST_FIG = rf"[-−]?(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?(?:[ \t]*(?:{alternation(SCALE_WORDS_KO)}))*"  # no trailing comma
_LIST_UNIT = r"(?:[가-힣%℃°㎍㎥]{1,4}?|(?!(?:and|or|to)(?![A-Za-z]))[A-Za-z]{1,8}(?![A-Za-z]))"
_LIST_ITEM = rf"{_LIST_FIG}(?:[ \t]*{_LIST_UNIT})?(?:[ \t]+{_LIST_FIG}(?:[ \t]*{_LIST_UNIT})?)*"
_LIST_SEP = rf"[ \t]*(?:[,、/&]|및|와|과|그리고|이거나|거나|이나|나|{alternation(DISJUNCTIONS_KO)}|\band\b|\bor\b)[ \t]*"
_LIST_RUN = re.compile(rf"(?<![\d.,]){_LIST_ITEM}(?:{_LIST_SEP}{_LIST_ITEM})+", re.IGNORECASE)
_LIST_ITEM_RE = re.compile(_LIST_ITEM)
_FIG_ONLY = re.compile(_LIST_FIG)


def _unit_class(item: str) -> str:
    rest = re.sub(r"\s+", "", _FIG_ONLY.sub("", item))
    if "원" in rest:
        return "won"
    if rest and re.fullmatch(r"(?:시간|분|초)+", rest):
        return "duration"
    return rest.lower()


# A name or code offered beside another ("곽노정 또는 김철수", "김철수나 곽노정", "720번 또는 721번", "A의원
# 아니면 B병원", "삼성3 또는 13", "곽노정입니다. 아니면 김철수일 수도 있습니다"): a guess between two, not a
# statement of one. ONE rule (:func:`name_hedged`) for the KOPA-Bench scorer and the step rewards
# (``steps.scoring.name_hedged`` calls it). An alternative is
# - any name-like word joined to the value by an "or" word ("또는", "내지", "or"), a slash or the particle
#   (이)나/거나 with nothing else between (a title such as "대표" may follow either name);
# - any name-like word listed with the value before "중 하나" / "중 한 명" / "가운데 어느 한 곳", or after "one of"
#   ("곽노정, 김철수 중 한 명": one of two is no pick);
# - a name or code of the value's kind joined with one short word between ("720번 버스 또는 721번");
# - in a sentence that offers an alternative ("아니면 … B일 수도", "혹시 B일지도", "or possibly B"), the
#   name said to be possible, or any name of the value's kind (of its shape, where the sentence also
#   holds the value).
# Not alternatives: the task's own names and values (``known``: "720번 또는 721번" for two route facts),
# forms of the value itself, a known name containing "또는" ("흐리고 비 또는 눈", masked), and the
# question's own choice restated before the pick ("서울특별시 또는 경기도 중 서울특별시에 …", where the
# question named both and the value is said again after "중"; "… 중 하나" is no pick).
# UNCERTAIN: word lists (the hedge words, the titles, the kind suffixes, the non-names), not a parser.
_OR_PARTICLE = r"(?:\(이\)나|이나|이거나|거나|나)"
_TITLE = r"(?:님|씨|대표이사|대표자|대표|위원장|의원|시장|도지사|지사|구청장|교수|원장|측정소)"
_WORD = r"[^\s,.;:!?()\[\]]"
_NAME_OR_AFTER = re.compile(
    rf"^(?:[^\s\d,.;:!?()]{{0,6}}?(?:이나|거나)|[^\s\d,.;:!?()]{{0,4}}(?:\s+[^\s\d,.;:!?()]{{1,4}})?\s*,?\s*{_OR_WORD})"
    r"\s*(?P<other>[^\s,.;:!?()]+)",
    re.IGNORECASE,
)
_NAME_OR_BEFORE = re.compile(
    rf"(?P<other>[^\s,.;:!?()]+?)(?:이나|거나|[^\s,.;:!?()]{{0,4}}\s*,?\s*{_OR_WORD})\s*$", re.IGNORECASE
)
_TIGHT_AFTER = re.compile(
    rf"^(?:\s*{_TITLE})?(?:{_OR_PARTICLE}\s+|[\s,(]*{_OR_WORD}\s*|(?P<slash>\s*/\s*))(?P<other>{_WORD}+)",
    re.IGNORECASE,
)
_TIGHT_BEFORE = re.compile(
    rf"(?<!{_WORD})(?P<other>{_WORD}+?)(?P<join>(?:\s*{_TITLE})?(?:{_OR_PARTICLE}\s+|[\s,]*{_OR_WORD}[\s(]*"
    rf"|(?P<slash>\s*/\s*)))$",
    re.IGNORECASE,
)
# A list the value is one item of ("곽노정, 김철수", "김철수와 곽노정", "A and B"), and what makes it a
# guess: "중 하나" / "중 한 명" / "가운데 어느 한 곳" after it, "one of" before it ("중 어디가 …" restates the
# question's choice).
_LIST_JOIN = rf"(?:\s*[,·]\s*|\s*(?:및|{alternation(DISJUNCTIONS_KO)}|내지|and|or)\s+|(?:와|과|이나|나)\s+)"
_ONE_OF = r"(?:어느\s*)?(?:하나|한\s*(?:명|곳|개|분|군데|사람|개소|쪽))"
_ONE_OF_AFTER = re.compile(
    rf"^\s*(?:{alternation(TOPIC_PARTICLES_KO)})?\s*(?:중|가운데)\s*(?:에서\s*)?{_ONE_OF}"
)
_ONE_OF_BEFORE = re.compile(r"\bone\s+of\s+(?:the\s+)?$", re.IGNORECASE)
_KIND_SUFFIX = re.compile(
    r"(초등학교|중학교|고등학교|대학교|병원|의원|약국|아파트|단지|정류장|정류소|역|공원|시장|도서관|센터|마을|해수욕장"
    r"|터미널|호선|위원회|측정소|구|동|시|군|읍|면)$"
)
_PARTICLE_TAIL = re.compile(r"(?:입니다|이에요|예요|일|이|가|은|는|을|를|와|과|으로|로|에|의|도)+$")
# Words a tight join reaches that name nothing: a word ending in 나 before the value ("그러나 곽노정",
# "누구나"), an adverb after (이)나 read as "but" ("곽노정이나 최근 사임"). UNCERTAIN: a word list.
_NOT_NAMES = frozenset(
    {
        "그러나",
        "하나",
        "누구나",
        "언제나",
        "어디나",
        "아무나",
        "무엇이나",
        "뭐나",
        "어쨌거나",
        "최근",
        "현재",
        "지금",
        "실제",
        "실제로",
        "다만",
        "아직",
        "이미",
        "곧",
        "공식",
        "공식적으로",
    }
)
# The question's choice restated ("A 또는 B 중 …", "… 중 어디인지 보니 A"); "중 하나" picks nothing, and the
# value must be said again after it (the pick).
_CHOICE_AFTER = re.compile(rf"^\s*(?:중|가운데|among\b)(?!\s*(?:에서\s*)?{_ONE_OF}|\s*one\b)", re.I)
# A sentence offering an alternative names it: "B일 수도", "B일지도", "B일 가능성", "or possibly B".
_EXPLICIT_ALT = re.compile(rf"{alternation(ALTERNATIVE_WORDS_KO)}|\bor\b", re.IGNORECASE)
_MAYBE_NAME = re.compile(
    rf"(?<!{_WORD})(?P<w>{_WORD}+?)(?:일|였을|이었을)\s*(?:수도|지도|가능성)"
    rf"|\bor\s+(?:possibly|maybe|perhaps)\s+(?P<e>{_WORD}+)",
    re.IGNORECASE,
)
_MASK = "\ue000"


def _same_kind(value: str, other: str) -> bool:
    """Is ``other`` (a word beside the value) a name or code of the value's kind?"""
    other = _PARTICLE_TAIL.sub("", unicodedata.normalize("NFKC", other))
    if not other or normalize_name(other) == normalize_name(value):
        return False
    if re.search(r"\d", value):
        return bool(re.match(r"[-−]?\d|[A-Za-z가-힣]{1,3}\d", other))
    kind = _KIND_SUFFIX.search(re.sub(r"\s+", "", value))
    if kind:
        return other.endswith(kind.group(1)) and len(other) > len(kind.group(1))
    return False


def _person_like(word: str) -> bool:
    return bool(re.fullmatch(r"[가-힣]{2,4}", word)) and not _KIND_SUFFIX.search(word)


def _shaped_like(value: str, other: str) -> bool:
    """A name of the value's shape: its kind, a place or institution beside one (a 의원 beside a 병원),
    a person's name beside one."""
    v = re.sub(r"\s+", "", value)
    return (
        _same_kind(value, other)
        or (bool(_KIND_SUFFIX.search(v)) and bool(_KIND_SUFFIX.search(other)) and len(other) > 2)
        or (_person_like(v) and _person_like(other))
    )


def _list_run(text: str, start: int, end: int) -> tuple[list[str], int, int]:
    """The words listed with ``text[start:end]`` by list joins ("A, B", "A와 B", "A and B"): the words,
    and where the run starts and ends."""
    words: list[str] = []
    j = end
    while m := re.match(rf"{_LIST_JOIN}(?P<w>{_WORD}+)", text[j : j + 60], re.IGNORECASE):
        words.append(m.group("w"))
        j += m.end()
    i = start
    while m := re.search(
        rf"(?<!{_WORD})(?P<w>{_WORD}+?){_LIST_JOIN}$", text[max(0, i - 60) : i], re.IGNORECASE
    ):
        words.append(m.group("w"))
        i -= len(m.group(0))
    return words, i, j


def name_hedged(
    value: Any,
    answer: str | AnswerView,
    known: Sequence[Any] = (),
    question: str | None = None,
    aliases: Sequence[Any] = (),
) -> bool:
    """Is ``value`` (a name, a code) offered beside an alternative in ``answer`` (see the rule above)?
    ``known``: the task's other names and values (no alternative); ``question``: the query, whose choice
    the answer may restate before its pick; ``aliases``: the value's other names in its own result row
    (:func:`row_aliases`; a word of one is no alternative: "삼성전자 또는 SAMSUNG ELECTRONICS")."""
    if value is None or isinstance(value, list | tuple | dict | set):
        return False
    v = unicodedata.normalize("NFKC", str(value)).strip()
    if not v:
        return False
    view = answer if isinstance(answer, AnswerView) else parse_answer(str(answer or ""))
    digits = bool(re.search(r"\d", v))
    v_n = normalize_name(v)
    known_s = [
        unicodedata.normalize("NFKC", str(k)).strip()
        for k in known
        if k is not None and not isinstance(k, dict | list | tuple | set)
    ]
    known_n = {normalize_name(k) for k in known_s}
    q_n = normalize_name(question) if question else ""
    # an alias and each of its words as the hedge patterns cut words ("SAMSUNG", "LTD" of "SAMSUNG
    # ELECTRONICS CO,.LTD", "카카오" of "(주)카카오")
    alias_n = {
        n
        for a in aliases
        if a is not None and not isinstance(a, dict | list | tuple | set)
        for n in (normalize_name(a), *(normalize_name(x) for x in re.split(r"[\s,.;:!?()\[\]/]+", str(a))))
        if len(n) > 1
    }

    def alt(word: str, loose: bool) -> bool:
        w = _PARTICLE_TAIL.sub("", unicodedata.normalize("NFKC", word))
        w_n = normalize_name(w)
        if not w_n or _MASK in w or w_n == v_n or w_n in v_n or v_n in w_n or w_n in known_n:
            return False
        if w_n in alias_n or normalize_name(word) in alias_n:
            return False  # the value's own row names it so too: the same thing, no alternative
        if any(kn and (kn in w_n or w_n in kn) for kn in known_n if len(kn) > 1):
            return False
        if _same_kind(v, w):
            return True
        # any name-like word, for a name (a figure or code has its own kind: digits)
        return (
            loose
            and not digits
            and len(w) >= 2
            and bool(re.search(r"[A-Za-z가-힣]", w))
            and (w.lower() not in _NOT_NAMES and word.lower() not in _NOT_NAMES)
        )

    def choice(end: int, other: str, text: str) -> bool:
        """The question's own choice, restated before the pick said after it."""
        o = normalize_name(_PARTICLE_TAIL.sub("", other))
        return bool(
            q_n and o and o in q_n and _CHOICE_AFTER.match(text[end:]) and _name_pattern(v).search(text, end)
        )

    text = unicodedata.normalize("NFKC", view.text)
    for k in sorted(known_s, key=len, reverse=True):  # a known name that contains "또는" joins nothing
        if (
            re.search(_OR_WORD, k, re.IGNORECASE)
            and normalize_name(k) != v_n
            and v_n not in normalize_name(k)
        ):
            text = _name_pattern(k).sub(lambda m: _MASK * len(m.group(0)), text)
    pat = _name_pattern(v)
    found = False
    for m in pat.finditer(text):
        found = True
        tail, head = text[m.end() : m.end() + 40], text[max(0, m.start() - 40) : m.start()]
        for rx, loose in ((_NAME_OR_AFTER, False), (_TIGHT_AFTER, True)):
            a = rx.match(tail)
            if (
                a
                and not (digits and a.groupdict().get("slash"))
                and alt(a.group("other"), loose)
                and not choice(m.end() + a.end(), a.group("other"), text)
            ):
                return True
        for rx, loose in ((_NAME_OR_BEFORE, False), (_TIGHT_BEFORE, True)):
            b = rx.search(head)
            if (
                b
                and not (digits and b.groupdict().get("slash"))
                and alt(b.group("other"), loose)
                and not (
                    rx is _TIGHT_BEFORE and (b.group("other") + b.group("join").strip()).lower() in _NOT_NAMES
                )
                and not choice(m.end(), b.group("other"), text)
            ):
                return True
        words, i, j = _list_run(text, m.start(), m.end())
        if (
            words
            and (_ONE_OF_AFTER.match(text[j:]) or _ONE_OF_BEFORE.search(text[:i]))
            and any(alt(w, True) for w in words)
        ):
            return True  # "곽노정, 김철수 중 한 명": one of a list is no pick
    if not found:
        return False
    for unit in _alternative_units(view):
        unit = unicodedata.normalize("NFKC", unit)
        has_value = bool(pat.search(unit))
        rest = pat.sub(" ", unit)
        if any(alt(w, False) for w in re.findall(r"[^\s,.;:!?()]+", rest) if digits or _same_kind(v, w)):
            return True
        explicit = bool(_EXPLICIT_ALT.search(rest))
        for mm in _MAYBE_NAME.finditer(rest):
            w = mm.group("w") or mm.group("e")
            if alt(w, True) and (explicit or (has_value and _shaped_like(v, _PARTICLE_TAIL.sub("", w)))):
                return True
    return False
