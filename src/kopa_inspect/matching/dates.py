"""Dates and months in Korean, ISO and English forms, and the date, date-set and month matchers."""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from typing import Any

from kopa_inspect.matching.lexicon import NEGATION_STEMS_KO, alternation

# English dates and months ("October 2, 2026", "2 October 2026", "Oct. 2", "September 2026") are read in
# their Korean form; a month name beside no day or year is no date ("the October menu"), and "may" in
# lower case is the verb.
_EN_MONTHS = {
    name: k
    for k, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        1,
    )
    for name in names
}
_EN_MON = r"(?P<mon>" + "|".join(sorted(_EN_MONTHS, key=len, reverse=True)) + r")\b\.?"
_EN_DATE_FORMS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\b" + _EN_MON + r"\s+(?P<d>\d{1,2})(?!\d)(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{4})(?!\d))?", re.I
    ),
    re.compile(
        r"(?<![\d.,])(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _EN_MON + r"(?:,?\s+(?P<y>\d{4})(?!\d))?",
        re.I,
    ),
    re.compile(r"\b" + _EN_MON + r",?\s+(?P<y>\d{4})(?!\d)", re.I),
)


def _english_dates(text: str) -> str:
    """``text`` with its English dates and months written the Korean way ("2026년 10월 2일")."""
    if not re.search(r"[A-Za-z]", text):
        return text

    def korean(m: re.Match[str]) -> str:
        if m.group("mon") == "may":
            return m.group(0)
        month = _EN_MONTHS[m.group("mon").lower()]
        d = m.groupdict().get("d")
        y = m.group("y")
        return (f"{y}년 " if y else "") + f"{month}월" + (f" {int(d)}일" if d else "")

    for pat in _EN_DATE_FORMS:
        text = pat.sub(korean, text)
    return text


_DATE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?P<y>\d{4})\s*년\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일?"),
    re.compile(r"(?<!\d)(?P<y>\d{4})\s*[-./]\s*(?P<m>\d{1,2})\s*[-./]\s*(?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?<!\d)(?<!\d,)(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})(?!\d|,\d)"),
    re.compile(r"(?<![\d년])\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일"),
    re.compile(r"(?<![\d./-])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])"),
)


def parse_dates(text: str) -> list[tuple[int | None, int, int]]:
    """(year or None, month, day) for every date-like span in ``text``."""
    text = _english_dates(unicodedata.normalize("NFKC", text))
    found: list[tuple[int | None, int, int]] = []
    taken: list[tuple[int, int]] = []
    for pat in _DATE_PATTERNS:
        for m in pat.finditer(text):
            if any(a <= m.start() < b or a < m.end() <= b for a, b in taken):
                continue
            y = int(m.group("y")) if "y" in pat.groupindex and m.group("y") else None
            mo, d = int(m.group("m")), int(m.group("d"))
            try:
                date(y or 2000, mo, d)
            except ValueError:
                continue
            found.append((y, mo, d))
            taken.append((m.start(), m.end()))
    return found


def to_date(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    for y, m, d in parse_dates(str(value)):
        if y is not None:
            return date(y, m, d)
    return None


def date_score(expected: Any, answer: str) -> float:
    e = to_date(expected)
    if e is None:
        return 0.0
    for y, m, d in parse_dates(answer):
        if (m, d) == (e.month, e.day) and (y is None or y == e.year):
            return 1.0
    return 0.0


# Dates with the month (and year) carried over: "10월 16일, 19일", "19~20일".
_DATE_SEQ = re.compile(
    r"(?P<ymd>(?<!\d)\d{4}\s*[-./]\s*\d{1,2}\s*[-./]\s*\d{1,2}(?!\d)|(?<!\d)(?<!\d,)\d{8}(?!\d|,\d))"
    r"|(?P<y>\d{4})\s*년"
    r"|(?P<m>\d{1,2})\s*월"
    r"|(?P<d1>\d{1,2})\s*일?\s*(?:~|-|–|부터)\s*(?P<d2>\d{1,2})\s*일"
    r"|(?P<d>\d{1,2})\s*일"
)


_WEEKDAY = re.compile(r"\s*\(\s*[월화수목금토일](?:요일)?\s*\)")


def parse_date_list(text: str) -> list[tuple[int | None, int, int]]:
    """Every date stated, with the month and year of earlier dates carried to bare days."""
    return _date_list(text)[0]


def _date_list(text: str) -> tuple[list[tuple[int | None, int, int]], list[list[tuple[int, int]]]]:
    """:func:`parse_date_list`, and the (month, day)s of each range ("24일~26일") stated."""
    text = _english_dates(unicodedata.normalize("NFKC", text))
    text = _WEEKDAY.sub("", text)  # "24일(목)~26일(토)": the weekday is no part of the range
    out: list[tuple[int | None, int, int]] = []
    ranges: list[list[tuple[int, int]]] = []
    year: int | None = None
    month: int | None = None
    for m in _DATE_SEQ.finditer(text):
        if m.group("ymd"):
            parsed = parse_dates(m.group("ymd"))
            if parsed:
                year, month, d = parsed[0]
                out.append((year, month, d))
        elif m.group("y"):
            year = int(m.group("y"))
        elif m.group("m"):
            month = int(m.group("m"))
        elif m.group("d1") and month:
            days = range(int(m.group("d1")), int(m.group("d2")) + 1)
            out += [(year, month, d) for d in days]
            ranges.append([(month, d) for d in days])
        elif m.group("d") and month:
            out.append((year, month, int(m.group("d"))))
    return [(y, mo, d) for y, mo, d in out if 1 <= mo <= 12 and 1 <= d <= 31], ranges


# what makes a day one of a holiday set (UNCERTAIN: a word list, not a parser), and a denial
_MEMBER_WORDS = re.compile(r"공휴일|휴일|대체|연휴|명절|추석|설날|국경일|기념일|holiday", re.IGNORECASE)
_NEGATION = re.compile(rf"{alternation(NEGATION_STEMS_KO)}|\bnot\b|\bno\b", re.IGNORECASE)


def date_set_score(expected: Any, answer: str) -> float:
    items = expected if isinstance(expected, list | tuple) else [expected]
    want = {d for d in (to_date(x) for x in items) if d is not None}
    if not want:
        return 0.0
    listed, ranges = _date_list(answer)
    # a range states every day in it: one from or to a day of the set reaching past the set claims days
    # that are not in it (one with neither end in the set, the period searched, is left to the count below)
    days = {(d.month, d.day) for d in want}
    if any((r[0] in days or r[-1] in days) and any(x not in days for x in r) for r in ranges if r):
        return 0.0
    # a day inside the set's period said as one of them ("9월 28일 추석 대체공휴일") is an invented member;
    # other days (the period asked, the day of the lookup) and days denied are not
    first, last = min(days), max(days)
    for sentence in re.split(r"(?<=[.!?。])\s+|\n+", answer):
        if _MEMBER_WORDS.search(sentence) and not _NEGATION.search(sentence):
            said, _ = _date_list(sentence)
            if any(first < (m, dd) < last and (m, dd) not in days for _, m, dd in said):
                return 0.0
    stated = set(listed)
    hits = sum(
        1 for d in want if any((m, dd) == (d.month, d.day) and y in (None, d.year) for y, m, dd in stated)
    )
    wrong = {(m, dd) for y, m, dd in stated if not any((m, dd) == (d.month, d.day) for d in want)}
    if len(wrong) > len(want):
        return 0.0
    return hits / len(want)


_MONTH_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?P<y>\d{4})\s*년\s*(?P<m>\d{1,2})\s*월(?!\s*\d{1,2}\s*일)"),
    re.compile(r"(?<!\d)(?P<y>\d{4})\s*[-./]\s*(?P<m>\d{1,2})(?!\s*[-./]?\s*\d)"),
    re.compile(r"(?<!\d)(?<!\d,)(?P<y>20\d{2})(?P<m>0[1-9]|1[0-2])(?!\d|,\d)"),
    re.compile(r"(?<![\d년])(?P<m>\d{1,2})\s*월(?!\s*\d{1,2}\s*일)"),
)


def month_score(expected: Any, answer: str) -> float:
    m = re.fullmatch(r"\s*(\d{4})\s*[-./년]?\s*(\d{1,2})\s*월?\s*", str(expected))
    if not m:
        return 0.0
    want = (int(m.group(1)), int(m.group(2)))
    text = _english_dates(unicodedata.normalize("NFKC", answer))
    taken: list[tuple[int, int]] = []
    for pat in _MONTH_PATTERNS:
        for mm in pat.finditer(text):
            if any(a <= mm.start() < b for a, b in taken):
                continue
            taken.append((mm.start(), mm.end()))
            y = int(mm.group("y")) if "y" in pat.groupindex else None
            if int(mm.group("m")) == want[1] and y in (None, want[0]):
                return 1.0
    return 0.0
