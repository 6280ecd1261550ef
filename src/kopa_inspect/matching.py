"""Deterministic matching: answer facts against a final answer, and tool calls against gold calls.

Framework-free (no Inspect imports) so the benchmark scorers, EDGE's answer check and GRPO's
rewards all judge with the same functions. The public entry point for answers is
:func:`score_answer` (CONTRACT item 9); everything below it is how one fact is judged.

How an answer is read
---------------------

1. **Raw dumps score nothing.** :func:`is_raw_dump` flags a pasted tool output: a JSON object or
   array that parses, XML elements (``<item>…</item>``), an envelope field name (``resultCode``,
   ``totalCount``, ``numOfRows`` …) beside ``key: value`` pairs, or three or more API field names
   written as ``aptNm: …`` / ``DDISH_NM: …``. Every fact of such an answer scores 0 (refusals too).
2. **The structured final-answer section** (format defined in :mod:`kopa_inspect.solvers.prompts`:
   a ``[최종 답변]`` / ``[Final answer]`` header followed by ``- <subject or item>: <value>`` lines)
   is parsed by :func:`parse_answer`. Each structured line is one unit ("label: value", however
   many sentences its value has); the free text around it is split into sentences at
   ``. ! ? ;`` and line ends, so an answer without the section is judged by the same rules
   (the free-text fallback).
3. **Facts bound to a subject** (``AnswerFact.subject``): the value must be stated next to the
   subject: in a unit that names the subject (or the subject's last word: "서울특별시 강남구" is
   said "강남구"), in the stretch from the subject to the next *other* subject of the task (the
   other facts' subjects and the candidates of "which one" facts). For numeric kinds, when that
   forward stretch states no number at all, the stretch before the subject (back to the previous
   other subject) is read instead ("120건인 강남구"). A competitor value stated in the bound
   stretch fails the fact. Facts without a subject are read against the whole answer.
4. **"Which one" facts** have competitors: given (``AnswerFact.competitors``), or inferred for an
   old-style name fact whose expression is a ``max_by``/``min_by`` over quoted literals
   (:func:`infer_competitors`), or, in grading, every other candidate of a max/min aggregate
   (:func:`competitor_expr`). Competitors equal to the expected value or to another fact's
   value are dropped, and a competitor counts as stated only when said exactly (no tolerance).
   Only the *claimed* winner counts. Claims are (i) structured lines whose label has a
   superlative marker (가장, 제일, 최고/최대/최다/최저/최소/최근, 1위, 더 …, most, largest …):
   for names the first candidate in the line's value, for figures/dates the value; (ii)
   free-text clauses (sentences split further at commas) with a superlative marker: for names,
   after dropping a leading candidate list ("A, B, C 중 …"), the candidate nearest to the marker;
   for figures/dates the clause. Units whose marker has the opposite direction ("가장 적은" for a
   max fact) are not claims for this fact; "최고기온/최저기온" are field names, not markers. The
   fact holds when some claim is the expected winner and none is a competitor. With no claim at
   all, it holds only when the answer states the winner and no competitor (so mentioning every
   candidate without a claim scores 0); a candidate said only in the list head of a claim ("'X'의
   진료과목 중 가장 …", "X와 같은 시군구의 어린이집 중 가장 …": the list's owner or anchor) is not stated.
   A candidate inside another name of the task ("정형외과" in "365정형외과의원", another row) is not
   said there (that name is masked). A claim that hides the winner in a list fails the fact:
   candidates joined only by a separator (", ", 및, 와/과, 또는, or …) or a marker clause followed
   by bare list items in its sentence ("가장 비싼 곳은 A, B, C입니다"; for figures, a claim unit
   stating the winner's and a competitor's value as a list). A denied claim ("A는 가장 비싼 곳이
   아닙니다", "가장 비싸지 않은 곳은 A", "A is not the most …") about the winner fails it; about a
   competitor it is no claim; "B가 아니라 A" claims A. In a comparison ("A가 B보다 (더) 높습니다",
   "A is higher than B") the claim is A, never the compared-with B however near the marker;
   with the opposite word ("B는 A보다 낮습니다" for a max fact) the claim is A. A unit that offers a
   competitor as an alternative ("A입니다. 아니면 B일 수도 있습니다", "B일 가능성도", "or possibly B")
   fails the fact. UNCERTAIN: word lists (markers, polarity words, separators, negations,
   alternatives), not a parser; kept as heuristics and attacked in tests/test_scoring_adversarial.py
   (h, j).
4b. **A claim is about one measure** (:func:`measure_view`). When a task has "which one" facts over
   different measures (the field a ``max_by``/``max`` ranks, an EDGE pick's ``measure`` or winner's
   ``winner_value_ref``; and the list's owner, ``scope``, for the same pick of two lists), each reads
   only the units about its own measure: a structured line or clause that names another measure's
   words (its description's content words no other measure has, or its owner) and none of its own is
   no claim for it. A clause naming no measure takes one named before it with no claim yet (in its
   sentence, or the sentence before when that one claims nothing: "A의 어린이집은 56건, B는 71건입니다.
   B 쪽이 더 많습니다."), else counts for every measure. Then a competitor that is another measure's
   winner stays a competitor, so swapping two winners ("A has more doctors, B more beds") fails.
   Measure words are found longest first ("진료" of '월요일 진료' is not said inside "진료과목"). A fact
   whose value is another pick's owner (the hospital with the most doctors, then that hospital's
   department with the most specialists) reads its value as a row's name, not as that owner: the other
   pick's clause ("'A병원'의 진료과목 중 … 진료과목은 …") is not about its measure, so the hospital said
   there, in the owner's slot or swapped into the department's, is not its pick.
   UNCERTAIN: measure words are description words, not a parser (tests/test_scoring_adversarial.py i, k).
5. **Refusals** (``matcher="refusal"``): the answer must decline (can't / 할 수 없 / 알 수는 없 /
   제공하지 않 / 불가 / 도구가 없 / 답변드리기 어려… ; a bare "없습니다" is a claim about the data,
   not a refusal), state no invented figure (no number that is not in the question, in digits or
   in words: "삼억 원", "three hundred million"), no quoted name and no school, hospital, pharmacy,
   apartment, station or bus-stop name (Korean suffixes or English "… Elementary School",
   "… Station" …) that is not in the question (grading passes the query and its English gloss), and offer no guess ("아마", "추정컨대",
   "가능성이 높", "오를 것", "probably", "likely" …). UNCERTAIN: phrase and suffix lists, not a
   classifier. "X는 없습니다" beside a decline is read as the reason ("서울에는 해운대구가 없습니다")
   unless X is a thing the question asks to count or read (거래, 급식, 기준금리, 버스 ...) and the
   clause says nothing about the source or its publication: "다음 달 거래는 없습니다" is an invented
   zero (an empty result of a future query is not a count), "다음 달 거래 자료는 아직 없습니다" a reason.
6. **Zero said in words**: a ``number``/``money`` fact whose value is 0 also holds when its
   stretch (subject-bound facts) says "none" (없습니다, 없음, 하나도, none, no …) with no figure of its
   own, or, without a subject, when a unit naming the fact's topic (a word of its description)
   says so and no unit on that topic states another figure ("주변 1km 안에는 숙소가 없습니다").
   "No information" (정보/자료/결과가 없습니다, no data) is not "none": it holds no zero.

Matchers (``AnswerFact.matcher``), each applied to the text a fact is bound to
-------------------------------------------------------------------------------

- ``number``: numbers are read on token boundaries (not after an ASCII letter or digit, not
  followed by a letter or ``.digit``: "PM2.5" states no 2, "PM10" no 10), with Korean formats
  ("790,000", "79억 5,000만", "1.2만", "12.5도", "-3℃"); numbers inside dates and clock times
  ("2026-10-15", "10월 15일", "15:00") are not figures. A number holds within ``tolerance``
  (absolute; a tolerance as large as the value itself is ignored, see :func:`check_tolerance`) or
  ``rel_tol`` (relative), or when it is the value rounded to its stated precision and that
  precision is at most 1% of the value. ``unit="만원"`` (or a number said with 원/억/만 for a
  만원 API value) compares in won. ``unit`` m / km / cm: a length; a figure said with a length unit
  (미터, 킬로미터, km …) is read in it ("3,600미터" holds 3.6 km, "3.6미터" does not).
- ``money``: like ``number`` but in won: the API value times its ``unit`` (원 default, 만원, 천원,
  억원); an amount said with 원 or a Korean scale word is read in won ("8억 2,500만 원"); a bare
  figure is read in the API's unit ("82,500" for 82,500 만원); "82,500원" for 82,500 만원 fails.
- ``date``: YYYYMMDD, YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD, "2026년 10월 15일", "10월 15일" (no
  year: month and day must match), "10/15".
- ``time``: expected HHMM or HH:MM; the answer may say "15:00", "15시", "15시 30분", "오후 3시",
  "낮 3시", "3 PM", "자정", "정오", or bare "1500" (not followed by a unit such as 원/건).
  "3시" without 오전/오후 is read as 03:00, so it does not state 15:00.
- ``month``: expected YYYYMM (or YYYY-MM); "2026년 9월", "2026-09", "2026.9", "202609", or "9월"
  with no year. A full date inside the month is not the month.
- ``date_set``: a list of dates; the answer's dates are read with the month carried over
  ("10월 16일, 19일, 20일", "19~20일"). Score = share of expected dates stated, 0 when the answer
  states more wrong dates than there are expected dates (listing the whole month is no answer).
- ``duration``: the value in ``unit`` (``s`` default, ``min``, ``h``); the answer's durations
  ("3분 20초", "200초", "1시간 5분", "약 3분") are summed per run of units. Holds within the
  tolerance, or when rounded to the stated unit (half a unit) and that unit is under a third of the
  value ("약 3분" for 200 s, not "1분" for 38 s).
- ``code_label``: a code (or a label) of the table ``labels`` (:data:`CODE_TABLES`: ``kma_sky``,
  ``kma_pty``, ``kma_mid_wf``, ``airkorea_grade``); the answer must say the code's Korean label
  or a listed synonym (맑음/맑겠/맑고 …), found longest label first, single-syllable labels (비,
  눈) only as a word (not inside 비교, 진눈깨비), and must not say another label of the table.
- ``name``: spaces and punctuation removed, sido names shortened (서울특별시 = 서울시 = 서울);
  the normalized expected name must occur in the normalized text. A numeric "name" (a route
  number "720") is matched as a number token.
- ``set``: a list; each element as a name (numbers as number tokens). Score = share present.
- ``dish_set``: a NEIS menu (``<br/>``-separated, allergy codes "(5.9.13.)" and markers */#
  dropped) or a list of dishes; each dish as a name. Score = share present.
- ``key_facts``: a long legal/drug text scored by its ``keys`` (phrases that must all appear,
  normalized like names). Score = share present. Without keys: the whole text as a name.
- ``exact``: case- and space-insensitive substring on ASCII token boundaries ("0" is not in "10").
- ``refusal``: see 5 above.

``accept`` lists more acceptable values (BFCL style); a fact holds if any of them holds.

Call matching: tool name equal and every gold argument present with an equal normalized value
("60" == 60, " 11110 " == "11110", lists order-free); arguments that carry no meaning for the
answer (service keys, session tokens, format switches) are ignored, ``pageNo`` absent equals
``pageNo=1``, and a first page at least as large as the gold one holds the gold rows. Whether the
*records* a task needs were retrieved (any page size, filter or order) is judged in
:mod:`kopa_inspect.scorers.grading` from the fingerprints (:func:`record_fingerprint`) that
``tools.call_entry`` stores for every call.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

# --- numbers -------------------------------------------------------------------------------------

_SCALES: dict[str, float] = {"조": 1e12, "억": 1e8, "천만": 1e7, "백만": 1e6, "만": 1e4, "천": 1e3}
# A unit word written against its number ("4.7m/s", "0.059ppm", "856.6Kcal"): models drop the space as
# often as not; other letters glued after digits make a code or a name ("11B00000", "5G").
_GLUED_UNIT = r"(?:(?i:m/s|km/h|kcal|ppm|ppb|mm|cm|km|kg|mg|ml)|m)(?![0-9A-Za-z])"
# A number on a token boundary (not glued to an ASCII letter/digit before it: "PM2.5", "B2"),
# optionally followed by a Korean scale word; chains like "79억 5,000만" are summed.
_NUM_TOKEN = re.compile(
    r"(?<![0-9A-Za-z.])(?P<sign>[-−–])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?!(?!" + _GLUED_UNIT + r")[0-9A-Za-z]|\.\d)(?:[ \t]*(?P<scale>조|억|천만|백만|만|천)(?![가-힣])"
    # a scale word is a word of its own: "26 조국혁신당" is 26, "3만명"/"5억원" are scaled
    r"|[ \t]*(?P<scale2>조|억|천만|백만|만|천)(?=[원명건개회번의에은는이가을를도와과로]))?"
)
# Won or 만원 right after a number: the answer is stating money.
_MONEY_AFTER = re.compile(r"^\s*(?:조|억|만|천)?\s*(?:원|만\s*원|천\s*원)")
# Spans whose digits are not figures: dates and clock times.
_MASKS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\d{4}\s*년\s*\d{1,2}\s*월(?:\s*\d{1,2}\s*일)?"),
    re.compile(r"(?<!\d)\d{4}\s*[-./]\s*\d{1,2}\s*[-./]\s*\d{1,2}(?!\d)"),
    re.compile(r"(?<!\d)\d{1,2}\s*월\s*\d{1,2}\s*일"),
    re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])"),
    # an hour of the day ("21시 기준", "오후 3시 30분"): no figure of a count or a measure (a time fact reads
    # it with parse_times); "3시간", "31개 시군", "3 시도" are not hours ("8시대" is)
    re.compile(r"(?<![\d.,])\d{1,2}\s*시(?![간군도구])(?:\s*\d{1,2}\s*분)?"),
)


@dataclass(frozen=True)
class FoundNumber:
    value: float
    precision: float  # the unit of the last written digit, in the value's own units
    scaled: bool  # written with a Korean scale word (억, 만 ...)
    money: bool  # followed by 원
    start: int = 0
    end: int = 0


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _mask(text: str) -> str:
    for pat in _MASKS:
        text = pat.sub(lambda m: " " * len(m.group(0)), text)
    return text


def extract_numbers(text: str, mask_dates: bool = True) -> list[FoundNumber]:
    """Every figure stated in ``text`` on token boundaries, Korean scale words applied
    ("79억 5,000만" = 7,950,000,000). Digits inside dates and clock times are skipped unless
    ``mask_dates`` is False."""
    out: list[FoundNumber] = []
    text = unicodedata.normalize("NFKC", text)
    if mask_dates:
        text = _mask(text)
    tokens = list(_NUM_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        m = tokens[i]
        sign = -1.0 if m.group("sign") and _sign_is_minus(text, m.start()) else 1.0
        raw = m.group("num")
        value = float(raw.replace(",", ""))
        scale = m.group("scale") or m.group("scale2")
        precision = 10.0 ** -_decimals(raw)
        if scale:
            total = value * _SCALES[scale]
            precision *= _SCALES[scale]
            last_scale = _SCALES[scale]
            end = m.end()
            # "79억 5,000만 원": following tokens with a smaller scale add to the same number.
            j = i + 1
            while j < len(tokens):
                nxt = tokens[j]
                gap = text[end : nxt.start()]
                nscale = nxt.group("scale") or nxt.group("scale2")
                if gap.strip() or nxt.group("sign"):
                    break
                if nscale and _SCALES[nscale] < last_scale:
                    part = float(nxt.group("num").replace(",", ""))
                    total += part * _SCALES[nscale]
                    precision = 10.0 ** -_decimals(nxt.group("num")) * _SCALES[nscale]
                    last_scale = _SCALES[nscale]
                    end = nxt.end()
                    j += 1
                else:  # a plain number after "3억" is its own number (no implied unit)
                    break
            money = bool(_MONEY_AFTER.match(text[end:]))
            out.append(FoundNumber(sign * total, precision, True, money, m.start(), end))
            i = j
            continue
        money = bool(_MONEY_AFTER.match(text[m.end() :]))
        out.append(FoundNumber(sign * value, precision, False, money, m.start(), m.end()))
        i += 1
    return out


def _sign_is_minus(text: str, pos: int) -> bool:
    # "2026-10-15" and ranges like "3-5" are not negative numbers: a minus counts only when it
    # does not directly follow a digit or letter.
    return pos == 0 or not text[pos - 1].isalnum()


def to_number(value: Any) -> float | None:
    """An expected value (API string such as " 82,500", "12.5", or a number) to a float."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(float(value)) else None
    found = extract_numbers(str(value), mask_dates=False)
    if len(found) == 1:
        return found[0].value
    return None


def check_tolerance(fact: Any, expected: Any) -> None:
    """Raise ValueError when a fact's absolute tolerance is as large as its value (then any
    small figure, 0 included, would match: the scorer ignores such a tolerance)."""
    tol = float(_get(fact, "tolerance", 0.0) or 0.0)
    e = to_number(expected)
    if tol and e is not None and tol >= abs(e):
        raise ValueError(f"fact {_get(fact, 'id', '?')}: tolerance {tol} is as large as the value {e}")


def _effective_tol(e: float, tolerance: float, rel_tol: float) -> float:
    tol = float(tolerance or 0.0)
    if tol >= abs(e):  # a tolerance as large as the value would accept anything small
        tol = 0.0
    tol = max(tol, float(rel_tol or 0.0) * abs(e))
    return max(tol, 1e-9 * max(1.0, abs(e)))


def _number_in(e: float, found: Iterable[FoundNumber], tol: float, scale_man: bool = True) -> bool:
    for n in found:
        if abs(n.value - e) <= tol:
            return True
        # A rounded statement: its precision (0.5 unit of the last digit) covers the gap, and it
        # is fine enough (<= 1% of the value) to count as stating the number.
        if n.precision > 0 and abs(n.value - e) <= n.precision / 2 + 1e-9 and n.precision <= 0.01 * abs(e):
            return True
        # 만원 amounts (MOLIT dealAmount "82,500") restated in 원 ("8억 2,500만원").
        if scale_man and (n.scaled or n.money) and abs(n.value - e * 1e4) <= max(tol * 1e4, n.precision / 2 + 1e-9) and (
            n.precision <= 0.01 * abs(e * 1e4)
        ):
            return True
    return False


# Lengths: a figure said with a length unit is read in that unit ("3,600미터" = 3.6 km); a bare one is
# in the fact's unit. Without it the digits alone would hold: "3.6미터" for 3.6 km.
_LENGTH_UNITS: dict[str, float] = {"m": 1.0, "km": 1000.0, "cm": 0.01}
_LENGTH_AFTER = re.compile(r"\s*(킬로미터|킬로|㎞|km|센티미터|센티|㎝|cm|미터|m)(?![A-Za-z])", re.IGNORECASE)
_LENGTH_WORD = {"킬로미터": 1000.0, "킬로": 1000.0, "㎞": 1000.0, "km": 1000.0, "센티미터": 0.01, "센티": 0.01,
                "㎝": 0.01, "cm": 0.01, "미터": 1.0, "m": 1.0}


def length_score(expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str = "m") -> float:
    """A length in ``unit`` (m, km, cm): the answer's figures in the unit said after them."""
    e = to_number(expected)
    if e is None:
        return 0.0
    factor = _LENGTH_UNITS[unit]
    text = unicodedata.normalize("NFKC", answer)
    found: list[FoundNumber] = []
    for n in extract_numbers(text):
        said = _LENGTH_AFTER.match(text[n.end :])
        k = _LENGTH_WORD[said.group(1).lower()] if said else factor
        found.append(FoundNumber(n.value * k, n.precision * k, n.scaled, n.money, n.start, n.end))
    tol = _effective_tol(e, tolerance, rel_tol) * factor
    return 1.0 if _number_in(e * factor, found, tol, scale_man=False) else 0.0


def number_score(expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str | None = None) -> float:
    e = to_number(expected)
    if e is None:
        return 0.0
    if unit in _MONEY_UNITS and unit != "원":
        return money_score(expected, answer, tolerance, rel_tol, unit)
    if unit in _LENGTH_UNITS:
        return length_score(expected, answer, tolerance, rel_tol, unit)
    return 1.0 if _number_in(e, extract_numbers(answer), _effective_tol(e, tolerance, rel_tol)) else 0.0


_MONEY_UNITS: dict[str, float] = {"원": 1.0, "천원": 1e3, "만원": 1e4, "백만원": 1e6, "억원": 1e8}


def money_score(expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str | None = "원") -> float:
    """An amount in won: the API value times its unit; the answer's amounts said with 원 or a scale
    word are in won, bare figures in the API's unit."""
    e = to_number(expected)
    if e is None:
        return 0.0
    factor = _MONEY_UNITS.get(unit or "원")
    if factor is None:
        raise ValueError(f"money unit {unit!r} not in {sorted(_MONEY_UNITS)}")
    want = e * factor
    tol = _effective_tol(e, tolerance, rel_tol) * factor
    for n in extract_numbers(answer):
        won = n.value if (n.money or n.scaled) else n.value * factor
        prec = n.precision if (n.money or n.scaled) else n.precision * factor
        if abs(won - want) <= tol:
            return 1.0
        if abs(won - want) <= prec / 2 + 1e-9 and prec <= 0.01 * abs(want):
            return 1.0
    return 0.0


# --- dates, months, times, durations -------------------------------------------------------------

# English dates and months ("October 2, 2026", "2 October 2026", "Oct. 2", "September 2026") are read in
# their Korean form; a month name beside no day or year is no date ("the October menu"), and "may" in
# lower case is the verb.
_EN_MONTHS = {name: k for k, names in enumerate(
    (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sept", "sep"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")), 1) for name in names}
_EN_MON = r"(?P<mon>" + "|".join(sorted(_EN_MONTHS, key=len, reverse=True)) + r")\b\.?"
_EN_DATE_FORMS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b" + _EN_MON + r"\s+(?P<d>\d{1,2})(?!\d)(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{4})(?!\d))?", re.I),
    re.compile(r"(?<![\d.,])(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _EN_MON + r"(?:,?\s+(?P<y>\d{4})(?!\d))?", re.I),
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


def parse_date_list(text: str) -> list[tuple[int | None, int, int]]:
    """Every date stated, with the month and year of earlier dates carried to bare days."""
    return _date_list(text)[0]


def _date_list(text: str) -> tuple[list[tuple[int | None, int, int]], list[list[tuple[int, int]]]]:
    """:func:`parse_date_list`, and the (month, day)s of each range ("24일~26일") stated."""
    text = _english_dates(unicodedata.normalize("NFKC", text))
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
    stated = set(listed)
    hits = sum(1 for d in want if any((m, dd) == (d.month, d.day) and y in (None, d.year) for y, m, dd in stated))
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


_TIME_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?P<word>자정|정오)"),
    # "2:30 PM" before "2:30": the half of the day said after the clock
    re.compile(r"(?<![\d.])(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<en>[AaPp]\.?\s*[Mm]\.?)(?![A-Za-z])"),
    re.compile(r"(?<![\d:])(?P<h>\d{1,2}):(?P<mi>\d{2})(?![\d:])"),
    re.compile(
        r"(?:(?P<ap>오전|오후|새벽|아침|낮|저녁|밤)\s*)?(?<![\d.])(?P<h>\d{1,2})\s*시(?!간)"
        r"(?:\s*(?P<mi>\d{1,2})\s*분|\s*(?P<half>반))?"
    ),
    re.compile(
        r"(?<![0-9A-Za-z.,])(?P<h>[01]\d|2[0-3])(?P<mi>[0-5]\d)"
        r"(?![0-9A-Za-z]|\s*(?:원|건|명|개|년|만|억|천|%|도|℃|㎍|회|번|호|m|km))"
    ),
)


def parse_times(text: str) -> list[tuple[int, int]]:
    """(hour 0-23, minute) for every clock time stated; "3시" without 오전/오후 is 03:00."""
    text = unicodedata.normalize("NFKC", text)
    out: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    for pat in _TIME_PATTERNS:
        for m in pat.finditer(text):
            if any(a <= m.start() < b or a < m.end() <= b for a, b in taken):
                continue
            gd = m.groupdict()
            if gd.get("word"):
                out.append((0, 0) if gd["word"] == "자정" else (12, 0))
                taken.append(m.span())
                continue
            h = int(gd["h"])
            mi = int(gd["mi"]) if gd.get("mi") else (30 if gd.get("half") else 0)
            ap = gd.get("ap")
            en = (gd.get("en") or "").lower().replace(".", "").replace(" ", "")
            if en == "pm" or ap in ("오후", "저녁", "밤") or (ap == "낮" and h < 6):
                h = h + 12 if h < 12 else h
            elif en == "am" or ap in ("오전", "새벽", "아침"):
                h = 0 if h == 12 else h
            if h == 24:
                h = 0
            if 0 <= h <= 23 and 0 <= mi <= 59:
                out.append((h, mi))
                taken.append(m.span())
    return out


def time_score(expected: Any, answer: str) -> float:
    m = re.fullmatch(r"\s*(\d{1,2}):?(\d{2})\s*", str(expected).zfill(4) if str(expected).isdigit() else str(expected))
    if not m:
        return 0.0
    want = (int(m.group(1)) % 24, int(m.group(2)))
    return 1.0 if want in parse_times(answer) else 0.0


_DURATION_UNITS: dict[str, float] = {"s": 1.0, "sec": 1.0, "초": 1.0, "min": 60.0, "분": 60.0, "h": 3600.0, "시간": 3600.0}
_DURATION_PART = re.compile(
    r"(?<![0-9A-Za-z.])(?P<n>\d+(?:\.\d+)?)\s*(?P<u>시간|hours?|hrs?|h(?![a-z])|분|minutes?|mins?|초|seconds?|secs?|s(?![a-z]))"
)


def _unit_seconds(u: str) -> float:
    u = u.lower()
    if u in ("시간",) or u.startswith("h"):
        return 3600.0
    if u == "분" or u.startswith("min"):
        return 60.0
    return 1.0


def parse_durations(text: str) -> list[tuple[float, float]]:
    """(seconds, precision in seconds) for every duration stated; adjacent parts are summed."""
    text = unicodedata.normalize("NFKC", text)
    out: list[tuple[float, float]] = []
    total, prec, end = None, 0.0, -1
    for m in _DURATION_PART.finditer(text):
        secs = _unit_seconds(m.group("u"))
        value = float(m.group("n")) * secs
        p = secs * 10.0 ** -_decimals(m.group("n"))
        if total is not None and not text[end : m.start()].strip():
            total += value
            prec = p
        else:
            if total is not None:
                out.append((total, prec))
            total, prec = value, p
        end = m.end()
    if total is not None:
        out.append((total, prec))
    return out


def duration_score(expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str | None = None) -> float:
    e = to_number(expected)
    if e is None:
        return 0.0
    factor = _DURATION_UNITS.get(unit or "s")
    if factor is None:
        raise ValueError(f"duration unit {unit!r} not in {sorted(_DURATION_UNITS)}")
    want = e * factor
    tol = _effective_tol(e, tolerance, rel_tol) * factor
    for secs, prec in parse_durations(answer):
        if abs(secs - want) <= tol:
            return 1.0
        if abs(secs - want) <= prec / 2 + 1e-9 and prec < abs(want) / 3:
            return 1.0
    # the API's own figure, said bare ("38")
    if any(abs(n.value - e) <= 1e-9 for n in extract_numbers(answer) if not n.scaled):
        bare = _DURATION_PART.sub(" ", unicodedata.normalize("NFKC", answer))
        if any(abs(n.value - e) <= 1e-9 for n in extract_numbers(bare)):
            return 1.0
    return 0.0


# --- names ---------------------------------------------------------------------------------------

# Full sido names -> the short forms used in speech and by AirKorea/TourAPI.
_SIDO_SHORT: dict[str, str] = {
    "서울특별시": "서울",
    "부산광역시": "부산",
    "대구광역시": "대구",
    "인천광역시": "인천",
    "광주광역시": "광주",
    "대전광역시": "대전",
    "울산광역시": "울산",
    "세종특별자치시": "세종",
    "경기도": "경기",
    "강원특별자치도": "강원",
    "강원도": "강원",
    "충청북도": "충북",
    "충청남도": "충남",
    "전북특별자치도": "전북",
    "전라북도": "전북",
    "전라남도": "전남",
    "경상북도": "경북",
    "경상남도": "경남",
    "제주특별자치도": "제주",
    "제주도": "제주",
}
_CITY_SUFFIX = re.compile(r"(서울|부산|대구|인천|광주|대전|울산|세종)(특별시|광역시|특별자치시|시)")
_TAG = re.compile(r"</?[a-z][a-z0-9]*\s*/?>")
_PUNCT = re.compile(r"[\s\-_·.,:;!?'\"“”‘’()\[\]{}<>/]+")


def normalize_name(text: Any) -> str:
    """Spaces, punctuation and case dropped; sido names shortened (서울특별시 -> 서울)."""
    s = unicodedata.normalize("NFKC", str(text)).lower()
    s = _TAG.sub(" ", s)  # HTML in API texts (<br/>, <p>) is formatting, not content
    for full, short in sorted(_SIDO_SHORT.items(), key=lambda kv: -len(kv[0])):
        s = s.replace(full, short)
    s = _CITY_SUFFIX.sub(r"\1", s)
    return _PUNCT.sub("", s)


_NUMERIC = re.compile(r"[-+]?[\d,]*\d(?:\.\d+)?")

# The usual short forms of a name: schools by their first syllable of kind ("매탄고등학교" -> "매탄고", "영통중",
# "매탄초", "경기여고", "서울대"), a company without 주식회사/(주), a sido by its short name ("서울특별시 강남구" ->
# "서울 강남구"), a city or county without 시/군 ("수원시" -> "수원"; not 구: "김민구" is a person). UNCERTAIN:
# a suffix list.
_SCHOOL_SHORT = (("여자고등학교", "여고"), ("고등학교", "고"), ("여자중학교", "여중"), ("중학교", "중"),
                 ("초등학교", "초"), ("대학교", "대"))
_COMPANY = re.compile(r"\(\s*주\s*\)|㈜|주식회사")
_REGION_TAIL = re.compile(r"^([가-힣]{2,})(?<!특별|광역|자치)(?:시|군)$")


def short_forms(name: Any) -> list[str]:
    """The usual short forms of ``name`` (itself excluded), each at least two characters normalized."""
    n = " ".join(unicodedata.normalize("NFKC", str(name)).split())
    bases = {n}
    company = " ".join(_COMPANY.sub(" ", n).split())
    if company and company != n:
        bases.add(company)
    for b in list(bases):
        for full, short in _SIDO_SHORT.items():
            if re.search(rf"{full}(?=\s|$)", b):
                bases.add(re.sub(rf"{full}(?=\s|$)", short, b))
    out = set(bases)
    for b in bases:
        words = b.split()
        last = words[-1] if words else ""
        for full, short in _SCHOOL_SHORT:
            if last.endswith(full) and len(last) - len(full) >= 2:
                out.add(" ".join([*words[:-1], last[: -len(full)] + short]))
                break
        region = _REGION_TAIL.match(last)
        if region:
            out.add(" ".join([*words[:-1], region.group(1)]))
    out.discard(n)
    return sorted(f for f in out if len(normalize_name(f)) >= 2)


# A short form is a word of its own: a particle or ending may follow, no other syllable ("매탄고개",
# "수원도서관" name other things).
_SHORT_TAIL = (
    r"(?=(?:은|는|이|가|을|를|의|에|에서|에게|와|과|도|로|으로|만|보다|까지|부터|처럼|쪽|측|이며|이고|이나|나|이라|라|인"
    r"|이다|다|입니다|이에요|예요|였|이었|였고|였으며|였습니다|이었습니다|이므로|이지만|요|랑|하고){0,3}(?![가-힣]))"
)


def expand_short_names(text: str, names: Iterable[Any]) -> str:
    """``text`` with each short form (:func:`short_forms`) of the task's ``names`` replaced by the name,
    where no other name of the task has that form (or is normalized to it): "매탄고가" -> "매탄고등학교가".
    A form shared by two names ("광주" of 광주광역시 and 광주시) is left as said: it names neither."""
    full = list(dict.fromkeys(" ".join(unicodedata.normalize("NFKC", str(n)).split()) for n in names
                              if isinstance(n, str) and n.strip()))
    owners: dict[str, set[str]] = {}
    for n in full:
        owners.setdefault(normalize_name(n), set()).add(n)
        for f in short_forms(n):
            owners.setdefault(normalize_name(f), set()).add(n)
    forms = [(f, n) for n in full for f in short_forms(n) if owners[normalize_name(f)] == {n}]
    if not forms:
        return text
    text = unicodedata.normalize("NFKC", text)
    taken = [(a, b) for _, a, b in _spans(full, text)]
    repl: list[tuple[int, int, str]] = []
    for f, n in sorted(forms, key=lambda x: -len(normalize_name(x[0]))):
        pat = re.compile(r"(?<![가-힣A-Za-z0-9])" + _name_pattern(f).pattern + _SHORT_TAIL, re.IGNORECASE)
        for m in pat.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append(m.span())
            repl.append((m.start(), m.end(), n))
    for a, b, n in sorted(repl, reverse=True):
        text = text[:a] + n + text[b:]
    return text



def _token_present(value: str, answer: str) -> bool:
    """``value`` as a whole token: not glued to ASCII letters/digits ("0" is not in "10" or "PM10")."""
    v = re.sub(r"\s+", r"\\s*", re.escape(value.strip()))
    return bool(re.search(rf"(?<![0-9A-Za-z.]){v}(?![0-9A-Za-z]|\.\d)", unicodedata.normalize("NFKC", answer), re.I))


def name_score(expected: Any, answer: str) -> float:
    text = str(expected).strip()
    if re.search(r"<br\s*/?>", text, re.I):  # a NEIS menu given to the name matcher: dish by dish
        return 1.0 if dish_set_score(text, answer) >= 1.0 else 0.0
    if _NUMERIC.fullmatch(text) or (len(text) <= 3 and re.fullmatch(r"[0-9A-Za-z-]+", text)):
        # numbers, route numbers and short codes: as tokens, never inside other figures
        return 1.0 if _token_present(text, answer) else 0.0
    want = normalize_name(expected)
    if not want:
        return 0.0
    return 1.0 if want in normalize_name(answer) else 0.0


def _items_of(expected: Any) -> list[str]:
    if isinstance(expected, str):
        items: list[Any] = [p for p in re.split(r"[,\n]", expected) if p.strip()]
    elif isinstance(expected, Iterable):
        items = list(expected)
    else:
        items = [expected]
    return list(dict.fromkeys(str(x) for x in items if x is not None and str(x).strip()))


def set_score(expected: Any, answer: str) -> float:
    items = _items_of(expected)
    if not items:
        return 0.0
    return sum(name_score(item, answer) for item in items) / len(items)


_ALLERGY = re.compile(r"\s*[(\[]?\s*\d+(?:\s*\.\s*\d+)*\s*\.?\s*[)\]]?\s*$")


def dishes(menu: Any) -> list[str]:
    """A NEIS DDISH_NM ("김치찌개(5.9.13.)<br/>쌀밥") or a list to clean dish names."""
    parts = menu if isinstance(menu, list | tuple) else re.split(r"<br\s*/?>|\n|,", str(menu))
    out = []
    for p in parts:
        name = re.sub(r"[*#@ⓢ]+", "", str(p)).strip()
        name = _ALLERGY.sub("", name).strip()
        if name:
            out.append(name)
    return list(dict.fromkeys(out))


def dish_set_score(expected: Any, answer: str) -> float:
    items = dishes(expected)
    if not items:
        return 0.0
    norm = normalize_name(re.sub(r"\(\s*[\d.\s]+\)", " ", answer))
    return sum(1 for d in items if normalize_name(d) in norm) / len(items)


def key_facts_score(keys: Sequence[Any] | None, expected: Any, answer: str) -> float:
    if not keys:
        return name_score(expected, answer)
    wanted = [str(k) for k in keys if str(k).strip()]
    if not wanted:
        return 0.0
    return sum(name_score(k, answer) for k in wanted) / len(wanted)


def exact_score(expected: Any, answer: str) -> float:
    want = re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(expected))).lower()
    if not want:
        return 0.0
    # spaces inside are free ("105 88" for "10588"); the text's own spaces still end a token ("is 105")
    text = unicodedata.normalize("NFKC", answer).lower()
    body = r"\s*".join(re.escape(c) for c in want)
    head = r"(?<![0-9a-z.])" if want[0].isascii() and want[0].isalnum() else ""
    tail = r"(?![0-9a-z])" if want[-1].isascii() and want[-1].isalnum() else ""
    if re.search(head + body + tail, text):
        return 1.0
    if _date_like(expected):
        return date_score(expected, answer)
    return 0.0


# Identifiers in their standard written forms: a number of 7 digits or more (business registration,
# phone, item codes) written with or without hyphens, dots or spaces between its digits ("105-88-52441" ==
# "1058852441", "02)123-4567"); a date value also in any date form (see :func:`date_score`).
_ID_VALUE = re.compile(r"[\d\s\-.()]+")


def _id_digits(value: Any) -> str | None:
    raw = unicodedata.normalize("NFKC", str(value)).strip()
    digits = re.sub(r"\D", "", raw)
    return digits if _ID_VALUE.fullmatch(raw) and len(digits) >= 7 else None


def _date_like(value: Any) -> bool:
    raw = unicodedata.normalize("NFKC", str(value)).strip()
    return bool(re.fullmatch(r"(?:19|20)\d{2}(?:\d{4}|[-.]\d{2}[-.]\d{2})", raw)) and to_date(raw) is not None


def expand_identifiers(text: str, values: Iterable[Any]) -> str:
    """``text`` with each written form of an identifier value (:func:`_id_digits`) replaced by the value as
    the API writes it, so hedges and denials read it like any other value."""
    text = unicodedata.normalize("NFKC", text)
    for value in values:
        digits = _id_digits(value)
        if not digits:
            continue
        raw = unicodedata.normalize("NFKC", str(value)).strip()
        pat = r"(?<![0-9A-Za-z])(?<!\d[-.])" + r"[ \t\-.)]{0,2}".join(digits) + r"(?![0-9A-Za-z])(?![-.]\d)"
        text = re.sub(pat, raw.replace("\\", r"\\"), text)
    return text


# --- code tables ---------------------------------------------------------------------------------

# code -> (label, synonyms). Labels are the KMA/AirKorea Korean terms (reference/korean-apis.md).
CODE_TABLES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    # 단기예보 SKY: 1 맑음, 3 구름많음, 4 흐림 (2 retired in 2019).
    "kma_sky": {
        "1": ("맑음", ("맑음", "맑겠", "맑고", "맑아", "맑은", "맑습니다", "clear", "sunny")),
        "3": ("구름많음", ("구름많음", "구름 많음", "구름이 많", "구름 많", "구름많", "mostly cloudy")),
        "4": ("흐림", ("흐림", "흐리겠", "흐리고", "흐린", "흐립니다", "overcast", "cloudy")),
    },
    # 단기예보/초단기 PTY: 0 없음, 1 비, 2 비/눈, 3 눈, 4 소나기, 5 빗방울, 6 빗방울눈날림, 7 눈날림.
    "kma_pty": {
        "0": ("없음", ("강수 없음", "강수없음", "비 소식 없", "비가 오지 않", "비 안", "없음", "no precipitation")),
        "1": ("비", ("비", "rain")),
        "2": ("비/눈", ("비/눈", "비 또는 눈", "비나 눈", "눈비", "진눈깨비", "sleet", "rain/snow")),
        "3": ("눈", ("눈", "snow")),
        "4": ("소나기", ("소나기", "shower")),
        "5": ("빗방울", ("빗방울", "drizzle")),
        "6": ("빗방울눈날림", ("빗방울눈날림", "빗방울/눈날림", "빗방울과 눈날림")),
        "7": ("눈날림", ("눈날림", "flurr")),
    },
    # 중기육상예보 wf*: the label itself is the value.
    "kma_mid_wf": {
        w: (w, (w, w.replace("많고", " 많고 ").replace("흐리고", "흐리고 ")))
        for w in (
            "맑음", "구름많음", "구름많고 비", "구름많고 눈", "구름많고 비/눈", "구름많고 소나기",
            "흐림", "흐리고 비", "흐리고 눈", "흐리고 비/눈", "흐리고 소나기",
        )
    },
    # AirKorea 등급 (khaiGrade, pm10Grade, pm25Grade ...): 1 좋음, 2 보통, 3 나쁨, 4 매우나쁨.
    "airkorea_grade": {
        "1": ("좋음", ("좋음", "좋습니다", "좋아요", "good")),
        "2": ("보통", ("보통", "moderate")),
        "3": ("나쁨", ("나쁨", "나쁩니다", "나빠요", "unhealthy")),
        "4": ("매우나쁨", ("매우나쁨", "매우 나쁨", "매우 나쁩니다", "very unhealthy")),
    },
}
# kma_mid_wf: "맑음" also as a predicate.
CODE_TABLES["kma_mid_wf"]["맑음"] = ("맑음", ("맑음", "맑겠", "맑고", "맑아", "맑은", "맑습니다"))
CODE_TABLES["kma_mid_wf"]["흐림"] = ("흐림", ("흐림", "흐리겠", "흐린", "흐립니다"))
CODE_TABLES["kma_mid_wf"]["구름많음"] = ("구름많음", ("구름많음", "구름 많음", "구름이 많", "구름많겠"))

_HANGUL = re.compile(r"[가-힣]")
# particles and endings that may follow a one-syllable label ("비가", "눈이", "비 소식")
_PARTICLE_AFTER = re.compile(r"^(?:[가이는은를을와과도로만요]|$|[^가-힣])")


def _label_spans(table: dict[str, tuple[str, tuple[str, ...]]], text: str) -> list[tuple[str, int, int]]:
    """(code, start, end) of every label of ``table`` in ``text``, longest synonym first."""
    text = unicodedata.normalize("NFKC", text).lower()
    syns = sorted(((s.lower(), code) for code, (_, ss) in table.items() for s in ss), key=lambda x: -len(x[0]))
    taken: list[tuple[int, int]] = []
    out: list[tuple[str, int, int]] = []
    for syn, code in syns:
        pat = re.escape(syn).replace(r"\ ", r"\s*")
        for m in re.finditer(pat, text):
            a, b = m.span()
            if any(x < b and a < y for x, y in taken):
                continue
            short = len(syn.replace(" ", "")) == 1
            if short and (
                (a > 0 and _HANGUL.match(text[a - 1])) or not _PARTICLE_AFTER.match(text[b : b + 1])
                or (b < len(text) and _HANGUL.match(text[b]) and b + 1 < len(text) and _HANGUL.match(text[b + 1]))
            ):
                continue
            if syn.isascii() and ((a > 0 and text[a - 1].isalpha()) or (b < len(text) and text[b].isalpha() and syn != "flurr")):
                continue
            taken.append((a, b))
            out.append((code, a, b))
    return out


def code_label_score(expected: Any, answer: str, labels: str | None) -> float:
    if labels is None:
        return name_score(expected, answer)
    table = CODE_TABLES.get(labels)
    if table is None:
        raise ValueError(f"unknown code table {labels!r}; known: {sorted(CODE_TABLES)}")
    key = str(expected).strip()
    if key not in table:
        num = to_number(key)
        if num is not None and float(num).is_integer() and str(int(num)) in table:
            key = str(int(num))
        else:
            by_label = {normalize_name(lab): code for code, (lab, _) in table.items()}
            key = by_label.get(normalize_name(key), "")
    if not key:
        return name_score(expected, answer)
    label = table[key][0]
    stated = {table[c][0] for c, _, _ in _label_spans(table, answer)}
    return 1.0 if label in stated and stated <= {label} else 0.0


# --- raw dumps -----------------------------------------------------------------------------------

_ENVELOPE_FIELDS = re.compile(
    r"\b(?:resultCode|resultMsg|totalCount|numOfRows|pageNo|_truncated|list_total_count|RESULT|CODE|MESSAGE)\b"
)
_KEY_VALUE = re.compile(r"(?<![\w])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*[:=]")
_XML_ELEMENT = re.compile(r"<([A-Za-z_][\w.-]*)(?:\s[^<>]*)?>[^<>]*</\1>")
_XML_ENVELOPE = re.compile(r"</?(?:response|header|body|items|item|row|head)\b[^>]*>", re.I)


def is_raw_dump(answer: str) -> bool:
    """Whether ``answer`` pastes tool output (JSON, XML, or API ``field: value`` listings)."""
    text = answer or ""
    if len(_XML_ELEMENT.findall(text)) >= 2 or len(_XML_ENVELOPE.findall(text)) >= 2:
        return True
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:
            obj, _ = decoder.raw_decode(text, m.start())
        except ValueError:
            continue
        if (isinstance(obj, dict) and obj) or (isinstance(obj, list) and any(isinstance(x, dict | list) for x in obj)):
            return True
    if re.search(r'"[^"\n]{1,40}"\s*:\s*["\d\[{]', text) and len(re.findall(r'"[^"\n]{1,40}"\s*:', text)) >= 2:
        return True
    pairs = len(_KEY_VALUE.findall(text))
    return pairs >= 3 or (pairs >= 1 and bool(_ENVELOPE_FIELDS.search(text)) and pairs + len(_ENVELOPE_FIELDS.findall(text)) >= 2)


# --- refusal -------------------------------------------------------------------------------------

_DECLINE = re.compile(
    "|".join(
        [
            r"(?:할|알|답할|답변할|확인할|조회할|제공할|찾을|드릴|말씀드릴|얻을|가져올|예측할)\s*수\s*(?:가|는|도)?\s*없",
            # 어렵다 is ㅂ-irregular: 어렵습니다, 어려울/어려워/어려운
            r"답(?:변)?(?:하|드리)기\s*(?:가|는)?\s*어(?:려|렵)",
            r"(?:제공|지원|포함)(?:하|되)지\s*않",
            r"불가능|불가합니다|불가해",
            r"(?:도구|툴|api|API|기능)(?:가|이|는)?\s*없",
            r"(?:도구|api|API)로는?\s*(?:\S+\s*){0,4}없",
            r"cannot|can't|can\s*not|unable\s+to|not\s+able\s+to",
            r"not\s+(?:available|possible|supported|provided)",
            r"no\s+(?:tool|api|data\s+source)",
            r"(?:don't|do\s+not|doesn't|does\s+not)\s+(?:have|provide|offer|support)",
        ]
    ),
    re.IGNORECASE,
)
# Names a refusal must not invent (UNCERTAIN: a suffix list, not a named-entity recognizer). A
# quote is a quote, not an English apostrophe ("can't", "month's").
_ENTITY = re.compile(
    r"[가-힣]{2,}(?:초등학교|중학교|고등학교|대학교|병원|의원|약국|아파트|정류장|정류소|해수욕장)"
    r"|(?<![A-Za-z])(?:['\"“‘]([^'\"”’\n]{2,30})['\"”’]|[「『]([^」』\n]{1,30})[」』])(?![A-Za-z])"
    # the same kinds of place in English ("Hanbit Elementary School", "Yeoksam Station")
    r"|((?:[A-Z][\w'-]+\s+){1,4}(?:(?:Elementary|Middle|High)\s+School|University|Hospital|Clinic|Pharmacy"
    r"|Apartments?|Station|Bus\s+Stop|Stop|Beach|Terminal))\b"
)
# A guess offered after (or instead of) declining is an answer, not a refusal (UNCERTAIN: a word
# list). Kept narrow on purpose: polite refusals say "어려울 것 같습니다", and "예상치는 제공할 수 없습니다"
# declines, so neither 것 같 nor 예상 alone marks a guess; a guess here is a hedging adverb, an
# estimating verb form, a trend verb in the future/conjecture form, or English likelihood words.
_GUESS = re.compile(
    r"아마(?:도)?|추정(?:컨대|하건대|하면|해\s*보면|됩니다|되며|되는데)|예상(?:컨대|하건대|됩니다|되며)|짐작(?:컨대|하건대|하면|됩니다)"
    r"|가능성이\s*(?:높|크|큽)|전망(?:입니다|됩니다|이에요)"
    r"|(?:오를|내릴|오르는|내리는|상승할|하락할|증가할|감소할|늘어날|줄어들|당선될|올라갈|떨어질)\s*(?:것|거|듯|가능|전망)"
    r"|\b(?:probably|likely|presumably|roughly|approximately|my\s+(?:best\s+)?guess|I\s+(?:would\s+|'d\s+)?(?:guess|estimate|expect|assume))\b",
    re.IGNORECASE,
)
# Figures written in words: Korean Sino numerals with a scale and a unit ("삼억 원", "이십 도") and
# English scale words ("three hundred million"). UNCERTAIN: native numerals ("두 곳") are not read.
_WORD_FIGURE = re.compile(
    # two syllables at least: "만 도구" / "천 개의 API" are words, "삼억 원" / "이십 도" are figures
    r"(?<![가-힣])(?=[일이삼사오육칠팔구십백천만억]{2})[일이삼사오육칠팔구]*[십백천만억][일이삼사오육칠팔구십백천만억]*"
    r"\s*(?:원|명|건|곳|개|도|퍼센트|프로|세대|가구|층|회)"
    r"|\b(?:hundred|thousand|million|billion|trillion)\b"
    r"|\b(?:about|around|roughly|approximately|nearly|some|over|under)\s+(?:a\s+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)\b",
    re.IGNORECASE,
)


# An invented zero beside a decline: "다음 달 거래는 없습니다" says no trade happened, which an empty
# result of a future or impossible query cannot show. The things KOPA-Bench questions ask to count or
# read (a compound ending in one of these nouns: 실거래, 기준금리, 점심 급식 ...), said to be none,
# with no word in the same clause that makes the sentence about the source or its publication
# ("거래 자료는 아직 없습니다", "TAGO에는 서울 시내버스가 없습니다", "신고된 거래가 없습니다").
# UNCERTAIN: word lists, not a parser; "그런 구는 없습니다" (the place does not exist) is a reason and
# is not matched because a place is not a measured thing.
_MEASURED = (
    r"거래|매매|전월세|급식|점심|메뉴|식단|버스|금리|기온|강수|건수|매출|매출액|재고|관리비|수온|대기\s*인원"
)
_NONE_CLAIM = re.compile(
    rf"(?<![가-힣])[가-힣]{{0,4}}?(?:{_MEASURED})\s*(?:은|는|이|가|도)\s*"
    r"(?:(?:한\s*(?:건|명|곳|개|번|대)|하나|단\s*한\s*건)도\s*|전혀\s*)?없"
)
_NONE_CLAIM_EN = re.compile(
    r"\bthere\s+(?:are|were|is|was|will\s+be)\s+no\s+(?:[\w-]+\s+){0,3}?"
    r"(?:trades?|transactions?|sales|deals|meals?|lunch(?:es)?|menus?|bus(?:es)?|arrivals?|rates?|rain)\b",
    re.IGNORECASE,
)
# A weather state stated as fact ("비가 오지 않습니다", "맑겠습니다", "it will not rain"): a forecast
# beside a decline is an answer (UNCERTAIN: a word list; "비가 올지는 알 수 없습니다" asks, not states).
_WEATHER_CLAIM = re.compile(
    r"맑(?:겠|습니다|아요|음|을\s*것)|흐리(?:겠|ㅂ니다)|흐립니다|흐려요"
    r"|(?:비|눈)(?:가|이|는)?\s*(?:오지\s*않|안\s*(?:오|와)|내리지\s*않|오겠|내리겠|옵니다|내립니다|와요|올\s*것)"
    r"|(?<!whether\s)(?<!\bif\s)\bit\s+will\s+(?:not\s+|n't\s+)?(?:rain|snow|be\s+(?:sunny|clear|cloudy|dry))\b"
    r"|\bit\s+won't\s+(?:rain|snow)\b",
    re.IGNORECASE,
)
_SOURCE_WORDS = re.compile(
    r"자료|데이터|정보|기록|내역|통계|목록|결과|API|api|도구|서비스|시스템|TAGO|나이스|NEIS|ECOS"
    r"|아직|공개|공표|등록|신고된|제공"
    r"|\b(?:data|records?|information|tools?|service|published|reported|released|yet)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[.!?。\n,;:]|(?:고|며|지만|는데)\s")


def _invents_none(text: str) -> bool:
    for m in [*_NONE_CLAIM.finditer(text), *_NONE_CLAIM_EN.finditer(text)]:
        start = max((e.end() for e in _CLAUSE_END.finditer(text, 0, m.start())), default=0)
        clause_end = _CLAUSE_END.search(text, m.end())
        clause = text[start : clause_end.start() if clause_end else len(text)]
        # the decline itself ("… 제공할 수 없습니다") may share the clause; only the claim's own words count
        if not _SOURCE_WORDS.search(_DECLINE.split(clause)[0]):
            return True
    return False


# The API's own message quoted in a refusal ('해당하는 데이터가 없습니다', "NODATA_ERROR", 「해당 자료 없음」,
# 'INFO-200: …'): what the tool said, not a name or claim the model made up. A quote is such a message
# when it is an API code (capitals with _ or -, digits allowed there) and/or a text with no digit that
# names data and its absence or an error (the law API's data is 법령/법률/조문: '일치하는 법령이 없습니다').
# UNCERTAIN: a word list.
_QUOTE = re.compile(r"(?<![A-Za-z])['\"“‘]([^'\"”’\n]{2,80})['\"”’](?![A-Za-z])|[「『]([^」』\n]{1,80})[」』]")
_API_CODE = re.compile(r"\s*(?:[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+|[A-Z]{4,})\s*(?:[:\-]\s*)?")
_MESSAGE_DATA = re.compile(r"데이터|자료|결과|정보|내역|조회|레코드|법령|법률|조문|\b(?:data|records?|results?|service)\b", re.I)
_MESSAGE_NONE = re.compile(r"없|않|실패|오류|에러|\b(?:no|not|error|invalid|expired|found)\b", re.I)


def _api_message(quote: str) -> bool:
    code = _API_CODE.match(quote)
    rest = quote[code.end() :] if code else quote
    if code and not rest.strip(" .!"):
        return True
    return not re.search(r"\d", rest) and bool(_MESSAGE_DATA.search(rest)) and bool(_MESSAGE_NONE.search(rest))


def _api_messages_blanked(text: str) -> str:
    return _QUOTE.sub(lambda m: " " * len(m.group(0)) if _api_message(m.group(1) or m.group(2) or "") else m.group(0), text)


def is_refusal(answer: str, question: str | None = None) -> bool:
    """The answer declines and states no figure or name that is not in the question, claims none of
    the asked-for thing (:func:`_invents_none`), and offers no guess (:data:`_GUESS`); a quoted API
    message (:func:`_api_message`) is read as no part of it. Heuristic word lists, UNCERTAIN (see the
    module docstring)."""
    text = _api_messages_blanked(unicodedata.normalize("NFKC", answer or ""))
    if not _DECLINE.search(text) or is_raw_dump(text) or _invents_none(text):
        return False
    q0 = unicodedata.normalize("NFKC", question or "")
    if any(m.group(0) not in q0 for m in _WEATHER_CLAIM.finditer(text)):
        return False
    q = unicodedata.normalize("NFKC", question or "")
    if _GUESS.search(text) or any(m.group(0) not in q for m in _WORD_FIGURE.finditer(text)):
        return False
    # figures compared as written (digits) too: "제1200조" is an article number, not 1,200조 won
    asked = {round(n.value, 6) for n in extract_numbers(q, mask_dates=False)} | _raw_figures(q)
    for n in extract_numbers(text, mask_dates=False):
        if round(n.value, 6) not in asked and not _raw_figures(text[n.start : n.end]) <= asked:
            return False
    qn = normalize_name(q)
    for m in _ENTITY.finditer(text):
        name = m.group(1) or m.group(2) or m.group(3) or m.group(0)
        if normalize_name(name).lower() not in qn.lower():
            return False
    return True


def _raw_figures(text: str) -> set[float]:
    return {round(float(x.replace(",", "")), 6) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", text) if x.replace(",", "")}


def refusal_score(answer: str, question: str | None = None) -> float:
    return 1.0 if is_refusal(answer, question) else 0.0


# --- the structured section and sentences ----------------------------------------------------------

_HEADER = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*)?\s*[\[【]?\s*(?:최종\s*답변|final\s*answer)\s*[\]】]?\s*(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s*(?P<label>[^:：\n]+?)\s*[:：]\s*(?P<value>.*?)\s*$")


@dataclass
class AnswerView:
    """An answer read once: its text, structured lines, sentences and clauses."""

    text: str
    dump: bool
    lines: list[tuple[str, str]] = field(default_factory=list)  # (label, value) of the section
    sentences: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)  # free-text clauses outside the section
    # the same clauses grouped by free-text sentence (a claim may continue as a list: "A, B, C입니다")
    clause_groups: list[list[str]] = field(default_factory=list)


def parse_answer(answer: str) -> AnswerView:
    text = unicodedata.normalize("NFKC", answer or "")
    lines: list[tuple[str, str]] = []
    rest: list[str] = []
    in_section = False
    for raw in text.splitlines():
        if _HEADER.match(raw):
            in_section = True
            continue
        m = _BULLET.match(raw) if in_section else None
        if m:
            lines.append((m.group("label").strip("* "), m.group("value").strip("* ")))
            continue
        if in_section and raw.strip() and lines:
            in_section = False
        rest.append(raw)
    free = "\n".join(rest)
    # a structured line is one unit however long its value (a law text has many sentences)
    sentences = [f"{label}: {value}" for label, value in lines]
    sentences += [s.strip() for s in re.split(r"(?<=[.!?。])\s+|\n+|;", free) if s and s.strip()]
    clauses = [c.strip() for c in re.split(r"(?<=[.!?。])\s+|\n+|;|,(?!\d{3})", free) if c and c.strip()]
    groups = [
        [c.strip() for c in re.split(r",(?!\d{3})", sent) if c.strip()]
        for sent in re.split(r"(?<=[.!?。])\s+|\n+|;", free)
        if sent and sent.strip()
    ]
    return AnswerView(text, is_raw_dump(text), lines, sentences, clauses, groups)


# --- which-one facts -----------------------------------------------------------------------------

_MARKER = re.compile(
    # contracted forms too: 큽니다 (크다), 비쌉니다 (비싸다), 쌉니다, 이릅니다, 빠릅니다
    r"가장|제일|최고|최대|최다|최저|최소|최근|최신|1\s*위|일등|으뜸"
    r"|더\s*(?:많|크|큰|큽|높|낮|적|작|늦|이르|이릅|빠르|빠릅|먼저|비싸|비싼|비쌉|싸|싼|쌉)"
    # a comparison without 더: "A가 B보다 (칼로리가) 높습니다"
    r"|보다(?:\s*\S+){0,2}?\s*(?:많|크|큰|높|낮|적|작|늦|이르|빠르|비싸|비싼|싸|싼)"
    r"|\b(?:most|largest|highest|lowest|least|latest|earliest|biggest|smallest|fewest|top|more|fewer|higher|lower)\b",
    re.IGNORECASE,
)
# The other side of a comparison: "B보다", "B(700kcal)보다", "B에 비해", "than B".
_THAN_AFTER = re.compile(r"^\s*(?:\([^)]*\))?\s*(?:은|는|이|가)?\s*(?:보다|에\s*비해)")
_THAN_BEFORE = re.compile(r"\bthan\s+(?:the\s+)?$", re.IGNORECASE)
_FIELD_WORDS = re.compile(r"최(?:고|저)\s*기온|최고\s*가(?=\s*\d)|최(?:고|저)\s*온도")
_MAX_WORDS = re.compile(r"최고|최대|최다|최근|최신|많|큰|크|큽|높|비싸|비싼|비쌉|늦|most|largest|highest|biggest|latest|more|higher", re.I)
_MIN_WORDS = re.compile(r"최저|최소|적|작|낮|싼|싸|쌉|이른|이릅|먼저|least|lowest|smallest|fewest|cheapest|earliest|fewer|lower", re.I)
_LIST_HEAD = re.compile(r"^.*?(?:중에서|중에|가운데|중|among|of)\s+", re.IGNORECASE)


def _polarity(text: str) -> int:
    text = _FIELD_WORDS.sub(" ", text)
    up, down = bool(_MAX_WORDS.search(text)), bool(_MIN_WORDS.search(text))
    return 1 if up and not down else -1 if down and not up else 0


def _name_pattern(name: str) -> re.Pattern[str]:
    raw = [c for c in unicodedata.normalize("NFKC", str(name)) if not c.isspace()]
    body = r"\s*".join(re.escape(c) for c in raw)
    # route numbers and codes ("5", "720-1") only as tokens: "5" is not in "35초"
    if raw and raw[0].isascii() and raw[0].isalnum():
        body = r"(?<![0-9A-Za-z.])" + body
    if raw and raw[-1].isascii() and raw[-1].isalnum():
        body += r"(?![0-9A-Za-z]|\.\d)"
    return re.compile(body, re.IGNORECASE)


def _spans(names: Sequence[str], text: str) -> list[tuple[str, int, int]]:
    """(name, start, end) of each name, longest first, no overlaps."""
    out: list[tuple[str, int, int]] = []
    for name in sorted(dict.fromkeys(n for n in names if n), key=lambda n: -len(normalize_name(n))):
        for m in _name_pattern(name).finditer(text):
            if any(a < m.end() and m.start() < b for _, a, b in out):
                continue
            out.append((name, m.start(), m.end()))
    return sorted(out, key=lambda x: x[1])


# Claims that hide the winner among others or deny it (UNCERTAIN: word lists, not a parser).
# Two candidates joined by nothing but a separator are a list, not a claim ("래미안, 자이",
# "래미안 또는 자이", "래미안과 자이 중 하나").
_JOIN = r"(?:[,/·&]|및|와|과|또는|혹은|이나|나|아니면|or|and)"
_LIST_GAP = re.compile(rf"\s*(?:{_JOIN}\s*){{0,2}}", re.IGNORECASE)
# What a list item may carry besides the candidate: a figure with its unit, a copula, "중 하나".
_ITEM_FILLER = re.compile(
    r"[-+]?\d[\d,]*(?:\.\d+)?|조|억|만|천|원|건|명|개|곳|도|℃|%|퍼센트|분|초|시간|시|년|월|일|㎡"
    r"|중\s*하나|입니다|이에요|예요|이다|이고|이며|였습니다|이었습니다|등|중|" + _JOIN[3:-1] + r"|[\s.!?()]",
    re.IGNORECASE,
)
# "X가 아니라 Y" / "not X but Y": the claim is what follows.
_CONTRAST = re.compile(r"아니라|아니고|rather\s+than|instead\s+of", re.IGNORECASE)
# A denied superlative: "가장 비싸지 않은", "가장 비싼 곳이 아닙니다", "is not the most".
_NEGATED = re.compile(
    r"(?:가장|제일|최고로)\s*\S{1,6}?(?:지|진)\s*(?:는|도)?\s*(?:않|못|아니)"
    r"|아닙니다|아니에요|아니예요|아니다|아님|아니었|\bis\s+not\b|\bisn't\b|\bwas\s+not\b|\bwasn't\b"
    r"|\bnot\s+the\s+(?:most|largest|highest|biggest|latest|least|lowest|smallest|cheapest|top)\b",
    re.IGNORECASE,
)
AMBIGUOUS = "\x00ambiguous"  # a claim naming several candidates as a list: never the winner
# An alternative offered beside the answer ("A입니다. 아니면 B일 수도 있습니다", "A인데 B일 가능성도",
# "혹시 B일지도", "or possibly B"): a unit with one of these that names a competitor takes the pick back.
# UNCERTAIN: a word list. "B가 아니라 A" (a contrast) and "늦어질 수도" (a caveat on no candidate) are not.
_ALTERNATIVE = re.compile(
    r"아니면|혹은|혹시|(?:일|였을|이었을)\s*(?:수도|지도|가능성)|가능성도|\bor\s+(?:possibly|maybe|perhaps)\b"
    r"|\bpossibly\b|\bmaybe\b|\bperhaps\b|\bmight\s+(?:also\s+)?be\b|\bcould\s+(?:also\s+)?be\b",
    re.IGNORECASE,
)


def _alternative_units(view: AnswerView) -> list[str]:
    """Structured line values and free-text sentences that offer an alternative."""
    return [u for u in [v for _, v in view.lines] + view.sentences[len(view.lines) :] if _ALTERNATIVE.search(u)]


def _is_list_item(clause: str, names: Sequence[str]) -> bool:
    """A clause that is only a further item of a list (a candidate or a figure, a copula)."""
    rest = clause
    for _, a, b in sorted(_spans(names, clause), key=lambda x: -x[1]):
        rest = rest[:a] + " " + rest[b:]
    return not _ITEM_FILLER.sub(" ", rest).strip()


def _claim_units(view: AnswerView, names: Sequence[str]) -> list[tuple[str, bool]]:
    """Free-text claim units: each clause, a clause with a superlative marker joined with the bare
    list items that follow it in its sentence ("가장 비싼 곳은 A, B, C입니다" is one unit). Returns
    (text, is_list): is_list when items were joined."""
    out: list[tuple[str, bool]] = []
    for group in view.clause_groups:
        k = 0
        while k < len(group):
            unit, j = group[k], k + 1
            if _MARKER.search(_FIELD_WORDS.sub(" ", unit)):
                while j < len(group) and not _MARKER.search(group[j]) and _is_list_item(group[j], names):
                    unit += ", " + group[j]
                    j += 1
            out.append((unit, j > k + 1))
            k = j
    return out


# A runner-up said with its own rank beside the winner ("A가 가장 높고 B가 그 뒤를 잇습니다", "1위 A / 2위
# B", "A이며 두 번째는 B", "A, followed by B") is no second claim: the part of a claim unit (cut at clause
# joins) that holds a rank word is blanked, from the word on where a superlative marker precedes it in
# the part ("가장 높은 날은 A 다음은 B"), else whole. An unbound or hedged second value ("A 또는 B",
# "856.6 812.4") holds no rank word and stays in the claim. UNCERTAIN: a word list, not a parser.
_RUNNER_UP = re.compile(
    r"(?:그\s*)?다음(?:으로|은|는|이|가|에)|그\s*뒤|뒤를\s*이|뒤이어|차순위|두\s*번째|둘째|(?<![\d.])2\s*(?:위|등(?!급))"
    r"|\bsecond\b|\brunner[- ]up\b|\bfollowed\s+by\b|\bnext\s+(?:is|was|comes|came|highest|lowest|largest|most)\b",
    re.IGNORECASE,
)
_RUNNER_CUT = re.compile(r"([,;\n]|(?<!\d)/(?!\d)|\s/|/\s|(?<=[.!?。])\s|(?<=[가-힣)])(?:고|며|면서|지만|는데|으나)\s)")
# The compared-with side of a figure claim ("10월 23일(812.4 Kcal)보다 높아"): not the claim.
_THAN_FIGURE = re.compile(
    r"(?:\d{1,2}\s*월\s*)?\d[\d,.]*\s*[^\s\d()]{0,5}(?:\s*\([^()]*\))?(?=\s*(?:은|는|이|가)?\s*(?:보다|에\s*비해))"
)


def _runner_up_blanked(text: str, than: bool = False) -> str:
    """``text`` with its runner-up parts (and, with ``than``, a figure's compared-with side) blanked."""
    if than:
        text = _THAN_FIGURE.sub(lambda m: " " * len(m.group(0)), text)
    if not _RUNNER_UP.search(text):
        return text
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
    head = _LIST_HEAD.match(clean)
    start = head.end() if head and head.end() <= markers[0].start() + 1 else 0
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
        head = _LIST_HEAD.match(clean)
        if marker and head and head.end() <= marker.start() + 1:
            out.append(clean[: head.end()])
    return out


def winner_score(expected: Any, competitors: Sequence[Any], view: AnswerView, direction: int = 0) -> float:
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


def _direction(fact: Any) -> int:
    expr = str(_get(fact, "value", ""))
    if re.search(r"\bmax_by\s*\(|\bmax\s*\(", expr):
        return 1
    if re.search(r"\bmin_by\s*\(|\bmin\s*\(", expr):
        return -1
    return _polarity(str(_get(fact, "description", "")))


# --- measures: a "which one" claim is about one measure ------------------------------------------
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
_MEASURE_STOP = re.compile(
    r"^(?:가장|제일|더|그|이|저|중|및|또는|이름|쪽|곳|것|값|목록|종류|해당|기준|전체|모든|같은|날|때"
    r"|큰|크기|많은|많이|높은|낮은|작은|적은|비싼|비싸게|싼|싸게|늦게|늦은|이른|일찍|빠른|빨리|먼저|끝나는|시작하는"
    r"|최고|최저|최대|최소|최다|최근|최신|[0-9]+위|api|unit)$",
    re.IGNORECASE,
)
_MEASURE_PARTICLE = re.compile(r"(?:으로|에서|에게|까지|부터|의|이|가|은|는|을|를|에|로|과|와|도|만)$")
_MEASURE_FUNCS = frozenset({"num", "nums", "to_number", "length", "items", "max", "min", "max_by", "min_by", "abs",
                            "sum", "avg", "sort_by", "reverse", "to_string"})
# A connective between two claims of one clause: "의사는 A가 더 많고 병상은 B가 더 많습니다".
# Only after a predicate's stem (많고, 크고, 빠르고, 비싸고, 이고): "최고 전세 보증금" is no connective.
_CONNECTIVE = re.compile(r"(?<=[많크큽높낮적작늦르싸이하되있없같])(?:고|며)\s+|(?<=[가-힣])(?:으며|지만|는데|으나)\s+")


def measure_words(description: Any) -> frozenset[str]:
    """The content words of a fact's description that name what is measured ("최고 전세 보증금 (top
    jeonse deposit; API unit 만원)" -> 전세, 보증금): the English gloss in parentheses and quoted row
    names dropped, particles cut, superlatives and generic words left out; normalized like names."""
    text = re.sub(r"\([^)]*\)|'[^']*'|\"[^\"]*\"|‘[^’]*’", " ", unicodedata.normalize("NFKC", str(description or "")))
    out: set[str] = {normalize_name(w) for w in re.findall(r"[A-Za-z][A-Za-z0-9]{2,}", text)
                     if not _MEASURE_STOP.match(w)}
    for word in re.findall(r"[가-힣]+", text):
        if len(word) >= 3:
            word = _MEASURE_PARTICLE.sub("", word)
        word = re.sub(r"^(?:최고|최저|최대|최소|최다)(?=[가-힣]{2})", "", word)
        if len(word) >= 2 and not _MEASURE_STOP.match(word):
            out.add(normalize_name(word))
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
    for key, word in sorted(((k, w) for k, ws in distinct.items() for w in ws if w), key=lambda x: -len(x[1])):
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
        if claims or (about is not None and about(head) and about(tail) and about(head) != about(tail)):
            parts.append(head.strip())
            rest = tail
    return [*parts, rest.strip()] if rest.strip() else parts


def _blank_figures(text: str) -> str:
    return re.sub(r"\d", " ", text)


def measure_view(
    view: AnswerView, own: str, distinct: Mapping[str, frozenset[str]], names: Sequence[str] = (),
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

    lines = []
    for lab, val in view.lines:
        if keep(about(f"{lab}: {val}")):
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
            ctx = said or (intro if marker else set() if mask else last)
            if marker:
                intro, claimed = set(), True
            elif said:
                intro = said
            last = ctx
            if keep(ctx):
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
        "\n".join([*structured, *free]), view.dump, lines, [*structured, *free], [c for g in groups for c in g], groups
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
    distinct = {k: frozenset(w - set().union(*(v for o, v in words.items() if o != k))) for k, w in words.items()}
    if sum(1 for w in distinct.values() if w) < 1 or len(distinct) < 2:
        return {}, {}
    return keys, distinct


# --- facts ---------------------------------------------------------------------------------------

MATCHERS: tuple[str, ...] = (
    "number", "money", "date", "time", "month", "date_set", "duration", "code_label", "name", "set",
    "dish_set", "key_facts", "exact", "refusal",
)
_NUMERIC_KINDS = frozenset({"number", "money", "duration"})


def _get(fact: Any, key: str, default: Any = None) -> Any:
    if isinstance(fact, Mapping):
        return fact.get(key, default)
    return getattr(fact, key, default)


def _literal(value: Any) -> Any:
    """A fact field's value unless it is an unresolved ``$`` reference."""
    if isinstance(value, str) and value.startswith("$"):
        return None
    return value


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list | tuple | set):
        return list(value)
    return [value]


# A range or a bound states no figure: "197~394건", "98.5에서 197 사이", "197건 이상", "at least 197".
# UNCERTAIN: word lists. "약 3분" (an approximation) is a figure; "10명 이상이어서" beside 832 leaves 832.
_FIG = r"[-−]?\d[\d,]*(?:\.\d+)?(?:\s*(?:조|억|천만|백만|만|천))*"
_FIG_UNIT = r"\s*[가-힣A-Za-z%℃°㎍㎥/]{0,4}"
_RANGE = re.compile(
    rf"{_FIG}{_FIG_UNIT}\s*[~∼〜]\s*{_FIG}"
    rf"|{_FIG}{_FIG_UNIT}\s*(?:에서|부터)\s*{_FIG}{_FIG_UNIT}\s*(?:사이|까지)"
    rf"|{_FIG}{_FIG_UNIT}\s*(?:와|과|및)\s*{_FIG}{_FIG_UNIT}\s*사이"
    rf"|{_FIG}\s*[가-힣%℃°㎍㎥/]{{0,3}}?\s*(?:이상|이하|미만|초과|넘게|넘는|남짓)"
    rf"|\bbetween\s+{_FIG}\S*\s+and\s+{_FIG}|\bfrom\s+{_FIG}\S*\s+to\s+{_FIG}"
    rf"|\b(?:at\s+least|at\s+most|more\s+than|less\s+than|fewer\s+than|over|under|up\s+to)\s+{_FIG}",
    re.IGNORECASE,
)


def _mask_ranges(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return _RANGE.sub(lambda m: " " * len(m.group(0)), text)


# A value denied is not stated: "197건이 아닙니다", "서울 중구 다동길 5가 아닙니다", "33억 7,000만 원이 아닙니다",
# "is not 197" (the figures and the word before the negation blanked); "150건이 아니라 197건" leaves 197.
# Read so only for facts without competitors or bound to a subject (a which-one fact has its own denial
# rules).
_DENIED_KO = re.compile(rf"(?:{_FIG}\s+)*\S+(?<!뿐만)(?<!뿐)(?=\s*(?:아닙|아닌|아니(?!면)))")  # "A뿐만 아니라 B": A holds
_DENIED_EN = re.compile(r"\b(?:is|was|are|were)\s+not\s+([^.,;:()\n]+)|\b(?:isn't|wasn't|aren't|weren't)\s+([^.,;:()\n]+)",
                        re.IGNORECASE)  # not past a bracket: a label's gloss ("the 구's own row is not one")


def undenied(text: str) -> str:
    """``text`` with every denied value blanked (same length)."""
    text = _DENIED_KO.sub(lambda m: " " * len(m.group(0)), unicodedata.normalize("NFKC", text or ""))
    def blank(m: re.Match[str]) -> str:
        g = 1 if m.group(1) is not None else 2
        a, b = m.start(g) - m.start(), m.end(g) - m.start()
        return m.group(0)[:a] + " " * (b - a) + m.group(0)[b:]
    return _DENIED_EN.sub(blank, text)


def match_text(
    fact: Any, expected: Any, text: str, keys: Sequence[Any] | None = None, strict: bool = False
) -> float:
    """One fact's matcher applied to a stretch of text (no binding, no dump check). ``strict``
    drops the fact's tolerances: a competitor counts as stated only when it is said as such."""
    matcher = _get(fact, "matcher", "exact")
    tol = 0.0 if strict else float(_get(fact, "tolerance", 0.0) or 0.0)
    rel = 0.0 if strict else float(_get(fact, "rel_tol", 0.0) or 0.0)
    unit = _get(fact, "unit")
    if expected is None:
        return 0.0
    if matcher in _NUMERIC_KINDS:
        text = _mask_ranges(text)
    if matcher == "number":
        if isinstance(expected, list):
            return set_score(expected, text)
        return number_score(expected, text, tol, rel, unit)
    if matcher == "money":
        return money_score(expected, text, tol, rel, unit or "원")
    if matcher == "date":
        return date_score(expected, text)
    if matcher == "time":
        return time_score(expected, text)
    if matcher == "month":
        return month_score(expected, text)
    if matcher == "date_set":
        return date_set_score(expected, text)
    if matcher == "duration":
        return duration_score(expected, text, tol, rel, unit)
    if matcher == "code_label":
        return code_label_score(expected, text, _get(fact, "labels"))
    if matcher == "name":
        if isinstance(expected, list):
            return 1.0 if any(name_score(e, text) for e in expected) else 0.0
        return name_score(expected, text)
    if matcher == "set":
        return set_score(expected, text)
    if matcher == "dish_set":
        return dish_set_score(expected, text)
    if matcher == "key_facts":
        return key_facts_score(keys, expected, text)
    if matcher == "exact":
        return exact_score(expected, text)
    raise ValueError(f"unknown matcher {matcher!r}")


def _bound_stretches(subject: str, others: Sequence[str], sentence: str, numeric: bool) -> list[str]:
    spans = _spans([subject, *others], sentence)
    out: list[str] = []
    for k, (name, a, b) in enumerate(spans):
        if name != subject:
            continue
        nxt = next((s[1] for s in spans[k + 1 :] if s[0] != subject), len(sentence))
        prev = next((s[2] for s in reversed(spans[:k]) if s[0] != subject), 0)
        # a figure inside the subject's own name ("동아1", "우성3") is no value of it: masked for numbers
        own = " " * (b - a) if numeric else sentence[a:b]
        forward = own + sentence[b:nxt]
        out.append(forward)
        # the stretch before the subject ("120건인 강남구") only when the one after it states nothing:
        # no figure and no "none" ("서초구는 거래가 없습니다" is a statement about 서초구)
        rest = forward[b - a :]
        if not numeric or not (extract_numbers(rest) or _NONE.search(rest)):
            out.append(sentence[prev:a] + own)
    return out


def _same_entity(short: str, long: str) -> bool:
    """"강남구" and "서울특별시 강남구" name one place: the longer ends with the shorter as a whole word.
    "서울대학교병원" in "분당서울대학교병원", "계동" in "상계동" are other entities, and so is a name that
    begins another: "북촌한옥마을 더스테이 펜션" is a guesthouse named after the sight "북촌한옥마을"."""
    s, ln = unicodedata.normalize("NFKC", str(short)).strip(), unicodedata.normalize("NFKC", str(long)).strip()
    return ln == s or ln.endswith(" " + s)


def _subject_forms(subject: str, others: Sequence[str] = ()) -> list[str]:
    """The subject, and its last word ("서울특별시 강남구" is said "강남구") unless another subject
    or candidate of the task has that word too ("문래동 공공와이파이" / "양재1동 공공와이파이": the
    shared "공공와이파이" would bind either)."""
    forms = [subject]
    parts = str(subject).split()
    if len(parts) > 1 and len(parts[-1]) >= 2:
        last, own = normalize_name(parts[-1]), normalize_name(subject)
        if not any(normalize_name(o) != own and last in normalize_name(o) for o in others):
            forms.append(parts[-1])
    return forms


# Per-group values after a list of names: "수원, 용인, 화성의 건수는 각각 75건, 114건, 96건입니다", "A와 B는 각각
# X, Y", "A, B and C had X, Y and Z respectively" bind the values to the names in order. A list whose count
# differs from the names' binds nothing. UNCERTAIN: separator lists, not a parser.
_NAME_JOIN = re.compile(r"\s*(?:,|、|및|그리고|\band\b|&)\s*|(?:와|과|랑|하고)\s+", re.IGNORECASE)
# a slash after a unit's letter is the unit's own ("㎍/㎥", "m/s"), no item separator
_ITEM_SPLIT = re.compile(r"\s*(?:,(?!\d{3})|、|(?<![A-Za-z㎍㎎μ])/|및|그리고|\band\b)\s*|(?<=[\d가-힣%])(?:와|과)\s+",
                         re.IGNORECASE)
_ITEMS_END = re.compile(r"(?:입니다|이었습니다|였습니다|이었고|였고|이며|이고|이에요|예요|이다|으로|로\s)|[.!?;]")


def _respective_item(sentence: str, forms: Sequence[str], others: Sequence[str],
                     own: frozenset[str] = frozenset(), rival: frozenset[str] = frozenset()) -> str | None:
    """The value a respective list binds to the subject (said as one of ``forms``) in ``sentence``: its
    item at the subject's place in the names' list; "" when the counts differ (nothing is bound); None
    when the sentence binds no respective list to the subject. Several lists after the names ("각각 133건,
    195건, 170건이었고, 그 전달인 8월에는 각각 67건, …") are told apart by what is said before each: the
    lists whose lead-in names one of the fact's ``own`` measure words; else, when the first list's names
    a ``rival`` word (another fact's own measure), the first later list whose lead-in names none; else
    the first list (a fact with no word of its own cannot tell a swapped list from its own)."""
    marks = list(_RESPECTIVE.finditer(sentence))
    if not marks:
        return None
    runs = _name_runs(sentence, [*forms, *others])
    run = next((r for r in runs if len(r) > 1 and any(n in forms for n, _, _ in r)), None)
    if run is None:
        return None
    at = [k for k, (n, _, _) in enumerate(run) if n in forms]
    end = run[-1][2]
    mark = marks[0]
    if mark.group(0).lower() == "respectively" and mark.start() >= end:
        lists = [(sentence[: mark.start()], sentence[end : mark.start()])]
    elif mark.start() >= end:
        lists, lead = [], 0
        for mk in marks:
            if mk.start() < lead or mk.group(0).lower() == "respectively":
                continue
            seg = sentence[mk.end() :]
            cut = _ITEMS_END.search(seg)
            seg = seg[: cut.start()] if cut else seg
            lists.append((sentence[lead : mk.start()], seg))
            lead = mk.end() + len(seg)
    else:
        return None

    def names(lead: str, words: frozenset[str]) -> bool:
        text = normalize_name(lead)
        return any(w and w in text for w in words)

    chosen = [k for k, (lead, _) in enumerate(lists) if own and names(lead, own)]
    if not chosen and rival and len(lists) > 1 and names(lists[0][0], rival):
        chosen = [k for k, (lead, _) in enumerate(lists) if k and not names(lead, rival)][:1]
    seg = lists[chosen[0] if chosen else 0][1]
    items = [x for x in _ITEM_SPLIT.split(seg) if x and x.strip()]
    if len(at) != 1 or len(items) != len(run):
        return ""
    return items[at[0]]


# One value said of a whole list of names ("A, B, C 세 곳 모두 일요일은 휴진이에요", "A와 B는 둘 다 12시 30분에
# 마감합니다", "A and B both close at 12:30") is each name's: the names one list right before the word, a
# count said with it the list's own. UNCERTAIN: a word list, not a parser.
_COUNT_WORDS = {"두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7,
                "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_SHARED = re.compile(
    r"^\s*(?:은|는|이|가|의|도)?\s*(?:"
    r"(?:(?P<n>두|세|네|다섯|여섯|일곱|\d+)\s*(?:곳|개\s*구|개|군데|구|명|의원|병원|기관|군|시)\s*(?:이|가|은|는)?\s*|(?P<k>둘|셋|넷)\s*(?=다))?"
    r"(?:모두|다|전부)(?![가-힣])"
    r"|(?:are\s+|were\s+)?(?:both|all)(?:\s+(?P<e>two|three|four|five|six))?\b)",
    re.IGNORECASE,
)
_SHARED_END = re.compile(r"[,;.!?\n]|(?:이고|이며|지만|인데|으며)\s")


def _name_runs(sentence: str, names: Sequence[str]) -> list[list[tuple[str, int, int]]]:
    """The names found in ``sentence``, grouped into runs joined only by list words (``_NAME_JOIN``:
    commas, 및, 그리고, and, 와/과/랑/하고; "수원, 용인과 화성"): each run is one list of subjects."""
    runs: list[list[tuple[str, int, int]]] = []
    for sp in _spans(names, sentence):
        if runs and _NAME_JOIN.fullmatch(sentence[runs[-1][-1][2] : sp[1]]):
            runs[-1].append(sp)
        else:
            runs.append([sp])
    return runs


def _shared_stretch(sentence: str, forms: Sequence[str], others: Sequence[str]) -> str | None:
    """What ``sentence`` says of a list of names holding the subject as one ("…둘 다 X"), or None."""
    runs = _name_runs(sentence, [*forms, *others])
    for run in runs:
        if len(run) < 2 or not any(n in forms for n, _, _ in run):
            continue
        mark = _SHARED.match(sentence[run[-1][2] :])
        if not mark:
            continue
        said = next((x for x in (mark.group("n"), mark.group("k"), mark.group("e")) if x), None)
        if said is not None and (int(said) if said.isdigit() else _COUNT_WORDS[said.lower()]) != len(run):
            return None
        rest = sentence[run[-1][2] + mark.end() :]
        cut = _SHARED_END.search(rest)
        return rest[: cut.start()] if cut else rest
    return None


# A figure said as the opposite extreme of the fact's measure ("최고기온은 19도, 최저기온은 21도" for the
# high): another role, not the value. Clauses (commas, sentences, "…이고/이며/지만") that name the other
# extreme and not the fact's own have their figures blanked. UNCERTAIN: a word pair list, not a parser.
_EXTREME = re.compile(r"최(?:고|저|대|소)")
_OPPOSITE = {"최고": "최저", "최저": "최고", "최대": "최소", "최소": "최대"}
_ROLE_CUT = re.compile(r"([,;\n]|(?<=[.!?。])\s|(?:이고|이며|이지만|인데|으며|지만)\s|(?<=[도다])(?:고|며)\s)")


def _other_extremes_blanked(view: AnswerView, description: Any) -> AnswerView:
    """The view with the figures of every clause about the other extreme blanked (same lengths)."""
    own = set(_EXTREME.findall(re.sub(r"\([^)]*\)", " ", unicodedata.normalize("NFKC", str(description or "")))))
    if len(own) != 1:
        return view
    mine = own.pop()
    other = _OPPOSITE[mine]

    def cut(text: str) -> str:
        # cut where the text (brackets masked: "(top price; API unit 만원)" is one gloss) has a cut
        masked = re.sub(r"\([^()]*\)", lambda m: "(" + "x" * (len(m.group(0)) - 2) + ")", text)
        out, pos = [], 0
        for piece in _ROLE_CUT.split(masked):
            part = text[pos : pos + len(piece)]
            pos += len(piece)
            out.append(_blank_figures(part) if other in part and mine not in part else part)
        return "".join(out)

    if other not in view.text:
        return view
    lines = [(lab, _blank_figures(val) if other in lab and mine not in lab else cut(val)) for lab, val in view.lines]
    return AnswerView(cut(view.text), view.dump, lines, [cut(x) for x in view.sentences], [cut(x) for x in view.clauses],
                      [[cut(x) for x in g] for g in view.clause_groups])


def _masked_view(view: AnswerView, names: Sequence[str]) -> AnswerView:
    """The view with every name of ``names`` (longest first) blanked to the same length."""
    def mask(text: str) -> str:
        for _, a, b in sorted(_spans(names, text), key=lambda x: -x[1]):
            text = text[:a] + _MASK * (b - a) + text[b:]
        return text

    return AnswerView(mask(view.text), view.dump, [(mask(lab), mask(val)) for lab, val in view.lines],
                      [mask(x) for x in view.sentences], [mask(x) for x in view.clauses],
                      [[mask(x) for x in g] for g in view.clause_groups])


def score_fact(
    fact: Any,
    expected: Any,
    view: AnswerView,
    *,
    question: str | None = None,
    subject: str | None = None,
    competitors: Sequence[Any] = (),
    accept: Sequence[Any] = (),
    keys: Sequence[Any] | None = None,
    others: Sequence[str] = (),
    siblings: Sequence[Any] = (),
    known: Sequence[Any] = (),
    aliases: Sequence[Any] = (),
    own_measure: frozenset[str] = frozenset(),
    rival_measures: frozenset[str] = frozenset(),
) -> float:
    """Score in [0, 1] for one fact against a parsed answer (sets give partial credit). ``own_measure``
    / ``rival_measures``: the measure words only this fact / only another fact of its subject has, which
    tell its respective list from theirs (:func:`_respective_item`). ``siblings``:
    the values of the task's other facts about the same subject (or, without one, of the other facts
    without one), which a listing may hold beside this value; ``known``: every other fact's value, which
    a name may be said beside; ``aliases``: the value's other names in its own result row
    (:func:`row_aliases`)."""
    matcher = _get(fact, "matcher", "exact")
    if matcher not in MATCHERS:
        raise ValueError(f"unknown matcher {matcher!r}")
    if view.dump:
        return 0.0
    if matcher == "refusal":
        # the gold reason's own figures and names are true facts an honest refusal may cite
        # ("중기예보는 10일까지만", "민법은 제1118조까지", "해운대구는 부산광역시의 구")
        reason = _get(fact, "value", None)
        allowed = "\n".join(x for x in (question, reason if isinstance(reason, str) else None) if x)
        return refusal_score(view.text, allowed or None)
    values = [v for v in [expected, *accept] if v is not None]
    if not values:
        return 0.0
    if matcher in _NUMERIC_KINDS:  # a figure said as the opposite extreme ("최저기온은 21도" for the high)
        view = _other_extremes_blanked(view, _get(fact, "description"))
    if matcher in _ONE_FIGURE and any(match_text(fact, v, h) >= 1.0 for h in _hedges(view.text) for v in values):
        return 0.0  # the value offered beside another ("21도 또는 17도"): a guess between two, not a statement
    if (matcher == "date" or (matcher == "exact" and any(_date_like(v) for v in values))) and _date_hedged(values, view.text):
        return 0.0  # "10월 22일 또는 23일": the month carried to the second day
    if matcher in ("name", "exact") and any(
        name_hedged(v, view, [*known, *siblings], question, aliases) for v in values
        if not isinstance(v, list | tuple | dict)
    ):
        return 0.0  # the name offered beside another of its kind ("720번 또는 721번"): a guess between two
    # a respective list binds one of its values to the subject ("A, B는 각각 X, Y"): read as that value
    respective: dict[str, str] = {}
    if subject:
        forms = _subject_forms(subject, others)
        other_names = [o for o in others if normalize_name(o) not in {normalize_name(f) for f in forms}
                       and not any(_same_entity(o, f) or _same_entity(f, o) for f in forms)]
        other_forms = list(dict.fromkeys(f for o in other_names for f in _subject_forms(o, [*other_names, subject])))
        for sentence in view.sentences:
            item = _respective_item(sentence, forms, other_forms, own_measure, rival_measures)
            if item is not None:
                respective[sentence] = item
    listing_text = view.text
    for sentence, item in respective.items():
        listing_text = listing_text.replace(sentence, item)
    if matcher in _NUMERIC_KINDS and not competitors and _listed_among_others(fact, values, siblings, listing_text):
        return 0.0  # the value listed among others ("21도, 17도, 14도"): every row's figure is no answer
    # a competitor list may hold the winner itself (every candidate's figure): not a competitor
    competitors = [c for c in competitors if c is not None and not any(_same_value(c, v) for v in values)]
    # figures said after the subject bind to it: times, dates and months too ("A는 12시 30분, B는 13시")
    numeric = matcher in _NUMERIC_KINDS or matcher in ("time", "date", "month")
    if subject:
        # another subject that is a form of this one ("강남구" for "서울특별시 강남구") is no other entity;
        # a name inside another ("서울대학교병원" in "분당서울대학교병원", "계동" in "상계동") is: each
        # ends the other's stretch (the spans take the longest name first); forms and other_names above
        zero = _zero_fact(matcher, values)
        best = 0.0
        for sentence in view.sentences:
            for form in forms:
                bound = [respective[sentence]] if sentence in respective else None
                stretches = bound if bound is not None else _bound_stretches(form, other_names, sentence, numeric)
                shared = _shared_stretch(sentence, forms, other_forms) if bound is None else None
                for stretch in [*stretches, *([shared] if shared else [])]:
                    if any(match_text(fact, c, stretch, strict=True) >= 1.0 for c in competitors):
                        return 0.0
                    best = max(best, max(match_text(fact, v, stretch, keys) for v in values))
                    if zero and _says_none(stretch, question):
                        best = 1.0
        return best
    if competitors:
        if matcher in ("name", "exact"):
            # another entity whose name holds a candidate ("365정형외과의원" holds the department 정형외과;
            # "해맑은내과의원" the department 내과) states no candidate: the row's name is masked
            cands = [str(c) for c in [*values, *competitors] if not isinstance(c, list | tuple | dict)]
            shields = [o for o in dict.fromkeys([*others, *(k for k in known if isinstance(k, str))])
                       if normalize_name(o) not in {normalize_name(c) for c in cands}
                       and any(normalize_name(c) and normalize_name(c) in normalize_name(o) and not _same_entity(c, o)
                               for c in cands)]
            shielded = _masked_view(view, shields) if shields else view
            return max(winner_score(v, competitors, shielded, _direction(fact)) for v in values)
        if matcher == "code_label":
            return max(winner_score(v, competitors, view, _direction(fact)) for v in values)
        if matcher in ("number", "money", "duration", "date", "time", "month"):
            return claimed_value_score(fact, values, competitors, view, _direction(fact))
        # a list (set, dish_set, date_set, key_facts): a competitor element stated is a wrong element
        if any(match_text(fact, c, view.text, strict=True) >= 1.0 for c in competitors):
            return 0.0
    plain = max(match_text(fact, v, view.text, keys) for v in values)
    if plain < 1.0 and _zero_fact(matcher, values):
        return _zero_in_words(fact, view, question)
    return plain


# "None" said in words answers a count of 0 ("숙소가 없습니다", "there are no lodgings"). UNCERTAIN:
# a word list. A decline ("확인할 수 없습니다") is not "none".
_NONE = re.compile(
    r"없(?:습니다|어요|음|다|고|으며|네요|는|었|군요|던)|하나도|전혀|\bnone\b|\bno\s+[a-z]+|\bzero\b|\bnot\s+any\b",
    re.IGNORECASE,
)


# Two figures joined by "or" ("21도 또는 17도", "197 or 401"): a hedge between candidate values. UNCERTAIN:
# a word list; "내지" is read as a hedge too (it also marks a range, which states no figure either).
HEDGE = re.compile(
    r"\d[\d,.]*[^\s\d]{0,6}\s*(?:또는|혹은|아니면|내지|\bor\b)\s*[^\s\d]{0,4}\d[\d,.]*[^\s\d]{0,6}", re.IGNORECASE
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
_LIST_FIG = r"[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[ \t]*(?:조|억|천만|백만|만|천))*"  # no trailing comma
_LIST_UNIT = r"(?:[가-힣%℃°㎍㎥]{1,4}?|(?!(?:and|or|to)(?![A-Za-z]))[A-Za-z]{1,8}(?![A-Za-z]))"
_LIST_ITEM = rf"{_LIST_FIG}(?:[ \t]*{_LIST_UNIT})?(?:[ \t]+{_LIST_FIG}(?:[ \t]*{_LIST_UNIT})?)*"
_LIST_SEP = r"[ \t]*(?:[,、/&]|및|와|과|그리고|이거나|거나|이나|나|또는|혹은|\band\b|\bor\b)[ \t]*"
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
_OR_WORD = r"(?:또는|혹은|아니면|내지|\bor\b)"
_OR_PARTICLE = r"(?:\(이\)나|이나|이거나|거나|나)"
_TITLE = r"(?:님|씨|대표이사|대표자|대표|위원장|의원|시장|도지사|지사|구청장|교수|원장|측정소)"
_WORD = r"[^\s,.;:!?()\[\]]"
_NAME_OR_AFTER = re.compile(
    rf"^(?:[^\s\d,.;:!?()]{{0,6}}?(?:이나|거나)|[^\s\d,.;:!?()]{{0,4}}(?:\s+[^\s\d,.;:!?()]{{1,4}})?\s*,?\s*{_OR_WORD})"
    r"\s*(?P<other>[^\s,.;:!?()]+)", re.IGNORECASE)
_NAME_OR_BEFORE = re.compile(
    rf"(?P<other>[^\s,.;:!?()]+?)(?:이나|거나|[^\s,.;:!?()]{{0,4}}\s*,?\s*{_OR_WORD})\s*$", re.IGNORECASE)
_TIGHT_AFTER = re.compile(
    rf"^(?:\s*{_TITLE})?(?:{_OR_PARTICLE}\s+|[\s,(]*{_OR_WORD}\s*|(?P<slash>\s*/\s*))(?P<other>{_WORD}+)",
    re.IGNORECASE)
_TIGHT_BEFORE = re.compile(
    rf"(?<!{_WORD})(?P<other>{_WORD}+?)(?P<join>(?:\s*{_TITLE})?(?:{_OR_PARTICLE}\s+|[\s,]*{_OR_WORD}[\s(]*"
    rf"|(?P<slash>\s*/\s*)))$", re.IGNORECASE)
# A list the value is one item of ("곽노정, 김철수", "김철수와 곽노정", "A and B"), and what makes it a
# guess: "중 하나" / "중 한 명" / "가운데 어느 한 곳" after it, "one of" before it ("중 어디가 …" restates the
# question's choice).
_LIST_JOIN = r"(?:\s*[,·]\s*|\s*(?:및|또는|혹은|내지|and|or)\s+|(?:와|과|이나|나)\s+)"
_ONE_OF = r"(?:어느\s*)?(?:하나|한\s*(?:명|곳|개|분|군데|사람|개소|쪽))"
_ONE_OF_AFTER = re.compile(rf"^\s*(?:이|가|은|는)?\s*(?:중|가운데)\s*(?:에서\s*)?{_ONE_OF}")
_ONE_OF_BEFORE = re.compile(r"\bone\s+of\s+(?:the\s+)?$", re.IGNORECASE)
_KIND_SUFFIX = re.compile(
    r"(초등학교|중학교|고등학교|대학교|병원|의원|약국|아파트|단지|정류장|정류소|역|공원|시장|도서관|센터|마을|해수욕장"
    r"|터미널|호선|위원회|측정소|구|동|시|군|읍|면)$")
_PARTICLE_TAIL = re.compile(r"(?:입니다|이에요|예요|일|이|가|은|는|을|를|와|과|으로|로|에|의|도)+$")
# Words a tight join reaches that name nothing: a word ending in 나 before the value ("그러나 곽노정",
# "누구나"), an adverb after (이)나 read as "but" ("곽노정이나 최근 사임"). UNCERTAIN: a word list.
_NOT_NAMES = frozenset({
    "그러나", "하나", "누구나", "언제나", "어디나", "아무나", "무엇이나", "뭐나", "어쨌거나", "최근", "현재", "지금", "실제", "실제로",
    "다만", "아직", "이미", "곧", "공식", "공식적으로",
})
# The question's choice restated ("A 또는 B 중 …", "… 중 어디인지 보니 A"); "중 하나" picks nothing, and the
# value must be said again after it (the pick).
_CHOICE_AFTER = re.compile(rf"^\s*(?:중|가운데|among\b)(?!\s*(?:에서\s*)?{_ONE_OF}|\s*one\b)", re.I)
# A sentence offering an alternative names it: "B일 수도", "B일지도", "B일 가능성", "or possibly B".
_EXPLICIT_ALT = re.compile(r"아니면|혹은|혹시|\bor\b", re.IGNORECASE)
_MAYBE_NAME = re.compile(
    rf"(?<!{_WORD})(?P<w>{_WORD}+?)(?:일|였을|이었을)\s*(?:수도|지도|가능성)"
    rf"|\bor\s+(?:possibly|maybe|perhaps)\s+(?P<e>{_WORD}+)", re.IGNORECASE)
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
    return _same_kind(value, other) or (bool(_KIND_SUFFIX.search(v)) and bool(_KIND_SUFFIX.search(other))
                                        and len(other) > 2) or (_person_like(v) and _person_like(other))


def _list_run(text: str, start: int, end: int) -> tuple[list[str], int, int]:
    """The words listed with ``text[start:end]`` by list joins ("A, B", "A와 B", "A and B"): the words,
    and where the run starts and ends."""
    words: list[str] = []
    j = end
    while m := re.match(rf"{_LIST_JOIN}(?P<w>{_WORD}+)", text[j : j + 60], re.IGNORECASE):
        words.append(m.group("w"))
        j += m.end()
    i = start
    while m := re.search(rf"(?<!{_WORD})(?P<w>{_WORD}+?){_LIST_JOIN}$", text[max(0, i - 60) : i], re.IGNORECASE):
        words.append(m.group("w"))
        i -= len(m.group(0))
    return words, i, j


def name_hedged(value: Any, answer: str | AnswerView, known: Sequence[Any] = (), question: str | None = None,
                aliases: Sequence[Any] = ()) -> bool:
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
    known_s = [unicodedata.normalize("NFKC", str(k)).strip() for k in known
               if k is not None and not isinstance(k, dict | list | tuple | set)]
    known_n = {normalize_name(k) for k in known_s}
    q_n = normalize_name(question) if question else ""
    # an alias and each of its words as the hedge patterns cut words ("SAMSUNG", "LTD" of "SAMSUNG
    # ELECTRONICS CO,.LTD", "카카오" of "(주)카카오")
    alias_n = {n for a in aliases if a is not None and not isinstance(a, dict | list | tuple | set)
               for n in (normalize_name(a), *(normalize_name(x) for x in re.split(r"[\s,.;:!?()\[\]/]+", str(a))))
               if len(n) > 1}

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
        return loose and not digits and len(w) >= 2 and bool(re.search(r"[A-Za-z가-힣]", w)) and (
            w.lower() not in _NOT_NAMES and word.lower() not in _NOT_NAMES)

    def choice(end: int, other: str, text: str) -> bool:
        """The question's own choice, restated before the pick said after it."""
        o = normalize_name(_PARTICLE_TAIL.sub("", other))
        return bool(q_n and o and o in q_n and _CHOICE_AFTER.match(text[end:])
                    and _name_pattern(v).search(text, end))

    text = unicodedata.normalize("NFKC", view.text)
    for k in sorted(known_s, key=len, reverse=True):  # a known name that contains "또는" joins nothing
        if re.search(_OR_WORD, k, re.IGNORECASE) and normalize_name(k) != v_n and v_n not in normalize_name(k):
            text = _name_pattern(k).sub(lambda m: _MASK * len(m.group(0)), text)
    pat = _name_pattern(v)
    found = False
    for m in pat.finditer(text):
        found = True
        tail, head = text[m.end() : m.end() + 40], text[max(0, m.start() - 40) : m.start()]
        for rx, loose in ((_NAME_OR_AFTER, False), (_TIGHT_AFTER, True)):
            a = rx.match(tail)
            if a and not (digits and a.groupdict().get("slash")) and alt(a.group("other"), loose) \
                    and not choice(m.end() + a.end(), a.group("other"), text):
                return True
        for rx, loose in ((_NAME_OR_BEFORE, False), (_TIGHT_BEFORE, True)):
            b = rx.search(head)
            if b and not (digits and b.groupdict().get("slash")) and alt(b.group("other"), loose) and not (
                    rx is _TIGHT_BEFORE and (b.group("other") + b.group("join").strip()).lower() in _NOT_NAMES) \
                    and not choice(m.end(), b.group("other"), text):
                return True
        words, i, j = _list_run(text, m.start(), m.end())
        if words and (_ONE_OF_AFTER.match(text[j:]) or _ONE_OF_BEFORE.search(text[:i])) \
                and any(alt(w, True) for w in words):
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


# A list said to be respective ("최고기온과 최저기온은 각각 21도, 14도") may hold other facts' values.
_RESPECTIVE = re.compile(r"각각|차례로|순서대로|\brespectively\b", re.IGNORECASE)


def _listings(text: str) -> list[tuple[list[str], bool]]:
    """The items of every run of like figures joined only by list separators (dates, clock times and
    ranges are no figures here), and whether the run is said to be respective."""
    text = _mask_ranges(_mask(unicodedata.normalize("NFKC", text)))
    out: list[tuple[list[str], bool]] = []
    for m in _LIST_RUN.finditer(text):
        items = [x.group(0).strip(" ,") for x in _LIST_ITEM_RE.finditer(m.group(0))]
        units = {u for u in map(_unit_class, items) if u}
        if len(items) > 1 and len(units) <= 1:
            around = text[max(0, m.start() - 40) : m.end() + 16]
            out.append((items, bool(_RESPECTIVE.search(around))))
    return out


def _listed_among_others(fact: Any, values: Sequence[Any], siblings: Sequence[Any], text: str) -> bool:
    """Is the value stated as one item of a listing beside a figure that is not the value restated,
    nor an element of a sibling fact's list (that list's own answer: "월별 값: 2.5, 2.25, 2"), nor, in a
    list said to be respective, a sibling fact's value ("최고기온과 최저기온은 각각 21도, 14도")? Siblings
    are the task's other facts about the same subject (or, without one, the other facts without one)."""
    scalars = [x for x in siblings if not isinstance(x, list | tuple)]
    elements = [y for x in siblings if isinstance(x, list | tuple) for y in x if not isinstance(y, dict | list)]
    for items, respective in _listings(text):
        if not any(match_text(fact, v, item) >= 1.0 for item in items for v in values):
            continue
        allowed = [*values, *elements, *(scalars if respective else ())]
        if any(not any(match_text(fact, a, item, strict=a not in values) >= 1.0 for a in allowed) for item in items):
            return True
    return False


def _zero_fact(matcher: str, values: Sequence[Any]) -> bool:
    return matcher in ("number", "money") and any(
        not isinstance(v, list) and to_number(v) == 0 for v in values
    )


# "No information" is not "none": the model found nothing, it did not find zero.
_NO_INFO = re.compile(
    r"(?:정보|자료|데이터|결과|내역|기록|수치|값)\s*(?:은|는|이|가|도)?\s*(?:아직|전혀|현재|따로)?\s*없"
    r"|\bno\s+(?:\w+\s+)?(?:information|data|records?|results?|figures?)\b|\bnot\s+(?:available|found|provided)\b",
    re.IGNORECASE,
)


def _says_none(unit: str, question: str | None) -> bool:
    """A unit that says "none" and states no figure of its own (the question's may be repeated)."""
    if not _NONE.search(unit) or _DECLINE.search(unit) or _NO_INFO.search(unit):
        return False
    return not _own_figures(unit, question)


def _own_figures(unit: str, question: str | None) -> list[float]:
    q = unicodedata.normalize("NFKC", question or "")
    asked = {round(n.value, 6) for n in extract_numbers(q, mask_dates=False)} | _raw_figures(q)
    return [n.value for n in extract_numbers(unit) if round(n.value, 6) not in asked and n.value != 0]


def _zero_in_words(fact: Any, view: AnswerView, question: str | None) -> float:
    """A fact without a subject whose value is 0, said as "none": a unit (structured line, free-text
    clause) that names the fact's topic (a word of its description) and says none with no figure
    of its own holds it, unless another unit on that topic states a figure (then the figure is the
    answer, and it is not 0)."""
    topic = [w for w in re.findall(r"[가-힣]{2,}|[A-Za-z]{4,}", str(_get(fact, "description", "") or ""))]
    if not topic:
        return 0.0
    units = [u for u in dict.fromkeys([*view.sentences, *view.clauses]) if any(w.lower() in u.lower() for w in topic)]
    if any(_own_figures(u, question) for u in units):
        return 0.0
    return 1.0 if any(_says_none(u, question) for u in units) else 0.0


def _same_value(a: Any, b: Any) -> bool:
    if normalize_name(a) == normalize_name(b):
        return True
    # a name holding one figure ("우성1", "중랑 향토역사관 3") is not that figure: else a competitor
    # name would be dropped as "another fact's value" whenever a count of 1 or 3 is also asked
    if any(isinstance(v, str) and not _NUMERIC.fullmatch(v.strip()) for v in (a, b)):
        return False
    x, y = to_number(a), to_number(b)
    return x is not None and y is not None and abs(x - y) <= 1e-9 * max(1.0, abs(x))


def claimed_value_score(
    fact: Any, values: Sequence[Any], competitors: Sequence[Any], view: AnswerView, direction: int = 0
) -> float:
    """A "which one" figure or date: the value of each claim (a structured line whose label has a
    superlative marker, or a free-text clause with one) must be the expected value, not a
    competitor's; a claim stating both is no claim. No claim at all scores 0."""
    units: list[tuple[str, bool]] = []
    for label, value in view.lines:
        lab = _FIELD_WORDS.sub(" ", label)
        if _MARKER.search(lab) and not (direction and _polarity(lab) and _polarity(lab) != direction):
            value = _runner_up_blanked(value, than=True)
            items = [x for x in re.split(rf"\s*{_JOIN}\s*(?!\d{{3}})", value, flags=re.IGNORECASE) if x.strip()]
            units.append((value, len(items) > 1 and all(_is_list_item(x, []) for x in items)))
    for clause, is_list in _claim_units(view, []):
        clean = _runner_up_blanked(_FIELD_WORDS.sub(" ", clause), than=True)
        if _MARKER.search(clean) and not (direction and _polarity(clean) and _polarity(clean) != direction):
            units.append((clean, is_list or bool(re.search(r"\d\s*\S{0,6}\s+(?:또는|혹은|아니면|or)\s", clean))))
    if any(match_text(fact, c, u, strict=True) >= 1.0 for u in _alternative_units(view) for c in competitors):
        return 0.0  # a competitor's figure offered as an alternative ("아니면 8억 8,500만 원일 수도")
    right = wrong = 0
    for unit, is_list in units:
        r = any(match_text(fact, v, unit) >= 1.0 for v in values)
        w = any(match_text(fact, c, unit, strict=True) >= 1.0 for c in competitors)
        negated = _CONTRAST.search(unit) is None and bool(_NEGATED.search(unit))
        if negated:  # "가장 비싼 거래는 25억 원이 아닙니다": wrong if it denies the right value
            wrong += r
            continue
        right += r and not w
        wrong += (w and not r) or (w and r and is_list)  # a list of candidates' values is no claim
    if not right and not wrong:
        # no claim: the answer holds only if it states the value and no competitor's
        r = any(match_text(fact, v, view.text) >= 1.0 for v in values)
        w = any(match_text(fact, c, view.text, strict=True) >= 1.0 for c in competitors)
        return 1.0 if r and not w else 0.0
    return 1.0 if right and not wrong else 0.0


def score_answer(
    facts: Sequence[Any],
    expected: Mapping[str, Any],
    answer: str,
    *,
    question: str | None = None,
    context: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, float]:
    """Score every fact of a task against a final answer: ``{fact_id: score in [0, 1]}``.

    Public API (CONTRACT item 9; GRPO's answer reward calls it; kept stable):

    - ``facts``: :class:`~kopa_inspect.task_data.schema.AnswerFact` objects or their dicts
      (``id``, ``matcher``, ``value`` and the optional ``subject``, ``competitors``, ``accept``,
      ``tolerance``, ``rel_tol``, ``unit``, ``labels``, ``keys``, ``description``; for "which one"
      facts over different measures also ``measure`` / ``winner_value_ref`` (what they rank by) and
      ``scope`` (the owner of the ranked list), see 4b of the module docstring).
    - ``expected``: the resolved value of each fact, by id (``GoldTruth.expected``).
    - ``question``: the task's query; a refusal may repeat its figures and names, nothing else.
    - ``context``: per fact id, the resolved ``subject``/``competitors``/``accept``/``keys`` when
      the fact gives them as ``$`` references (``GoldTruth.context``); literal fields are read
      from the fact itself, and an unresolved reference counts as absent. An optional ``aliases``
      list (:func:`with_row_aliases`) holds the value's other names in its own result row.

    A fact scores 1.0 when it holds; ``set``/``dish_set``/``key_facts``/``date_set`` give partial
    credit. A raw dump (:func:`is_raw_dump`) scores 0 on every fact.
    """
    raw_view = parse_answer(answer)
    plain_view: AnswerView | None = None
    context = context or {}
    resolved: dict[str, dict[str, Any]] = {}
    for f in facts:
        fid = str(_get(f, "id"))
        ctx = dict(context.get(fid, {}))
        for key in ("subject", "competitors", "accept", "keys", "scope"):
            if key not in ctx:
                ctx[key] = _literal(_get(f, key))
        if not ctx.get("competitors") and _get(f, "matcher") in ("name", "exact"):
            ctx["competitors"] = infer_competitors(_get(f, "value"), expected.get(fid))
        resolved[fid] = ctx
    # the task's names said in their usual short forms ("매탄고", "서울", "수원") are those names, where the
    # form is no other name's: read as the full names (a refusal is read as written: see below)
    names: list[Any] = []
    by_fid = {str(_get(f, "id")): f for f in facts}
    for fid, ctx in resolved.items():
        matcher = _get(by_fid[fid], "matcher")
        values = [*_as_list(ctx.get("competitors")), *_as_list(ctx.get("accept"))]
        if matcher in ("name", "exact"):
            values.append(expected.get(fid))
        names += [ctx.get("subject"), ctx.get("scope"), *values]
    names = [n for n in names if isinstance(n, str) and n.strip() and not re.search(r"\d", n)]
    answer = expand_short_names(answer or "", names) if names else answer
    ids = [expected.get(fid) for fid in resolved if _get(by_fid[fid], "matcher") in ("name", "exact")]
    answer = expand_identifiers(answer or "", [v for v in ids if isinstance(v, str | int) and _id_digits(v)])
    view = parse_answer(answer)
    view.dump = raw_view.dump
    # every subject and candidate of the task: where one fact's stretch of text ends
    others: list[str] = []
    for fid, ctx in resolved.items():
        if ctx.get("subject"):
            others.append(str(ctx["subject"]))
        for c in _as_list(ctx.get("competitors")):
            if isinstance(c, str) and not _NUMERIC.fullmatch(c.strip()):
                others.append(c)
        if _get(next(f for f in facts if str(_get(f, "id")) == fid), "matcher") in ("name",) and ctx.get("competitors"):
            exp = expected.get(fid)
            if isinstance(exp, str):
                others.append(exp)
    # which-one facts over different measures read only the units about their own measure
    by_id = {str(_get(f, "id")): f for f in facts}
    which = [fid for fid, ctx in resolved.items()
             if _as_list(ctx.get("competitors")) and not ctx.get("subject") and _get(by_id[fid], "matcher") != "refusal"]
    scopes = {fid: str(ctx["scope"]) for fid, ctx in resolved.items() if ctx.get("scope")}
    keys, distinct = measure_scopes(by_id, which, scopes)
    # owners are what a unit is about: not masked like the rows' names
    owners = {normalize_name(o) for o in scopes.values()}
    unmasked = [o for o in dict.fromkeys(others) if normalize_name(o) not in owners]
    # one row's figures over several measures ("가람병원: 의사 12명, 병상 150개"): each is read only where
    # its own measure (or none of the row's others) is named
    by_subject: dict[str, list[str]] = {}
    for fid, ctx in resolved.items():
        if ctx.get("subject") and (_get(by_id[fid], "matcher") in _NUMERIC_KINDS
                                   or _get(by_id[fid], "matcher") in ("time", "date", "month")):
            by_subject.setdefault(normalize_name(ctx["subject"]), []).append(fid)
    row_scopes: dict[str, dict[str, frozenset[str]]] = {}
    for fids in by_subject.values():
        subj = str(resolved[fids[0]]["subject"])
        words = {fid: measure_words(_get(by_id[fid], "description")) - measure_words(subj) - {normalize_name(subj)}
                 for fid in fids}
        own_words = {fid: frozenset(w - set().union(*(v for o, v in words.items() if o != fid)))
                     for fid, w in words.items()}
        if len(fids) > 1 and any(own_words.values()):
            row_scopes |= dict.fromkeys(fids, own_words)
    out: dict[str, float] = {}
    for f in facts:
        fid = str(_get(f, "id"))
        ctx = resolved[fid]
        subject = ctx.get("subject")
        # a competitor that is another fact's own value is that fact's claim, not a wrong one here,
        # unless that fact is about another measure whose claims are told apart from this one's
        own = keys.get(fid)
        other_values = [v for k, v in expected.items() if k != fid and v is not None and not isinstance(v, list)
                        and not (own and keys.get(k) not in (None, own) and distinct.get(keys[k]))]
        ctx["competitors"] = [
            c for c in _as_list(ctx.get("competitors")) if not any(_same_value(c, v) for v in other_values)
        ]
        base = view if _get(f, "matcher") != "refusal" else raw_view
        # a denied value is no statement ("21도가 아닙니다"): read without denials where the fact has no
        # competitors, or is bound to a subject (its competitors are other rows' figures, not a which-one
        # pick, which has its own denial rules)
        if (not ctx["competitors"] or subject not in (None, "")) and _get(f, "matcher") != "refusal":
            if plain_view is None:
                plain_view = parse_answer(undenied(answer))
                plain_view.dump = view.dump
            base = plain_view
        # a fact whose value is another pick's owner ("의사가 가장 많은 병원" and "그 병원의 진료과목 중 …"):
        # for it the value is a row's name, so the other pick's clause ("'A병원'의 진료과목 중 가장 많은
        # 진료과목은 …") is not about its measure, and the value said there is not its claim
        exp = expected.get(fid)
        own_names = unmasked
        if own and isinstance(exp, str) and normalize_name(exp) in owners and normalize_name(ctx.get("scope") or "") != normalize_name(exp):
            own_names = [*unmasked, exp]
        out[fid] = score_fact(
            f,
            expected.get(fid),
            measure_view(base, own, distinct, own_names) if own
            else measure_view(base, fid, row_scopes[fid], unmasked, mask=True) if fid in row_scopes else base,
            question=question,
            subject=str(subject) if subject not in (None, "") else None,
            competitors=_as_list(ctx.get("competitors")),
            accept=_as_list(ctx.get("accept")),
            keys=_as_list(ctx.get("keys")) or None,
            others=list(dict.fromkeys(others)),
            siblings=[v for k, v in expected.items() if k != fid and k in resolved and v is not None
                      and not isinstance(v, dict)
                      and normalize_name(resolved[k].get("subject") or "") == normalize_name(subject or "")],
            known=[x for k, v in expected.items() if k != fid for x in _as_list(v)],
            aliases=[a for a in _as_list(ctx.get("aliases"))
                     if not any(_same_value(a, c) for c in _as_list(ctx.get("competitors")))],
            own_measure=row_scopes[fid][fid] if fid in row_scopes else frozenset(),
            rival_measures=frozenset().union(*(w for k, w in row_scopes[fid].items() if k != fid))
            if fid in row_scopes else frozenset(),
        )
    return out


def _row_dicts(node: Any) -> Iterable[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for x in node.values():
            yield from _row_dicts(x)
    elif isinstance(node, list | tuple):
        for x in node:
            yield from _row_dicts(x)


def _scalar(x: Any) -> bool:
    return isinstance(x, str | int | float) and not isinstance(x, bool)


# An alias longer than this is a text (a description, an overview), not another name of the value.
_ALIAS_MAX_CHARS = 60
# Fields named as the two ends of one thing (a route's start and end stop, the previous and next
# station, the high and the low): each is a candidate the question may mean, never the other's alias.
# UNCERTAIN: a word list over field names.
_ENDS = (("start", "end"), ("prev", "next"), ("from", "to"), ("dep", "arr"), ("orig", "dest"), ("first", "last"),
         ("min", "max"), ("high", "low"), ("up", "down"), ("begin", "end"), ("출발", "도착"), ("시작", "종료"),
         ("상행", "하행"), ("이전", "다음"), ("최고", "최저"), ("기점", "종점"))


def _other_ends(key: str) -> set[str]:
    """The field names of the other end of ``key`` ("startnodenm" -> "endnodenm"), lower-cased."""
    k = key.lower()
    out = set()
    for a, b in _ENDS:
        for x, y in ((a, b), (b, a)):
            if x in k:
                out.add(k.replace(x, y))
    return out


def row_aliases(value: Any, data: Any, exclude: Iterable[Any] = ()) -> list[Any]:
    """The value's other names in its own result row: the scalar fields that EVERY row (JSON object)
    of ``data`` holding ``value`` (a field equal to it, names normalized) also holds, e.g. a corpCode
    row's ``corp_eng_name`` beside its ``corp_name``, a station's code beside its name. Not aliases:
    a field of the value's own kind (a 역 beside a 역: the row's other stop is a candidate the
    question may mean), a second person beside a person, a text longer than 60 characters, anything in
    ``exclude`` (the fact's competitors), the field of the other end ("endnodenm" beside "startnodenm",
    :data:`_ENDS`). A value found in no row, or in rows of different things
    (a party in every candidate's row), has none (their common fields only). UNCERTAIN: a row's
    field is taken for another name of the same thing; only an exact field value finds the row."""
    if not _scalar(value):
        return []
    v = unicodedata.normalize("NFKC", str(value)).strip()
    v_n = normalize_name(v)
    if not v_n:
        return []
    common: dict[str, Any] | None = None
    for row in _row_dicts(data):
        own = [k for k, x in row.items() if _scalar(x) and normalize_name(x) == v_n]
        if not own:
            continue
        ends = {e for k in own for e in _other_ends(str(k))}
        here = {normalize_name(x): x for k, x in row.items()
                if _scalar(x) and normalize_name(x) not in ("", v_n) and str(k).lower() not in ends}
        common = here if common is None else {k: common[k] for k in common if k in here}
    if not common:
        return []
    ex = {normalize_name(e) for e in exclude if _scalar(e)}
    return [x for k, x in common.items()
            if k not in ex and len(str(x)) <= _ALIAS_MAX_CHARS and not _same_kind(v, str(x))
            and not (_person_like(v) and _person_like(str(x).strip()))]


def with_row_aliases(context: Mapping[str, Mapping[str, Any]], expected: Mapping[str, Any],
                     outputs: Any) -> dict[str, dict[str, Any]]:
    """``context`` (per fact id, as :func:`score_answer` takes it) with each single value's
    :func:`row_aliases` in the gold outputs added as ``aliases`` (competitors excluded)."""
    out = {k: dict(v) for k, v in context.items()}
    for fid, value in expected.items():
        ctx = out.setdefault(fid, {})
        found = row_aliases(value, outputs, _as_list(ctx.get("competitors")))
        if found:
            ctx["aliases"] = found
    return out


def fact_score(matcher: str, expected: Any, answer: str, tolerance: float = 0.0) -> float:
    """One fact without subject or competitors against a whole answer (kept for old callers)."""
    return score_answer(
        [{"id": "_", "matcher": matcher, "value": "$_", "tolerance": tolerance}], {"_": expected}, answer or ""
    )["_"]


def fact_holds(fact: Any, expected: Any, answer: str) -> bool:
    """Does ``answer`` state ``fact`` (an AnswerFact or its dict) with value ``expected``?"""
    fid = str(_get(fact, "id", "_"))
    return score_answer([fact if _get(fact, "id") else {**dict(fact), "id": fid}], {fid: expected}, answer)[fid] >= 1.0


# --- calls ---------------------------------------------------------------------------------------

# Arguments that carry no meaning for the result: keys, tokens and format switches.
IGNORED_ARGS: frozenset[str] = frozenset(
    {"serviceKey", "ServiceKey", "KEY", "key", "apiKey", "crtfc_key", "OC", "dataType", "_type", "returnType",
     "type", "resultType", "Type", "token", "session_token"}
)
# Arguments whose absence equals a default value.
DEFAULT_ARGS: dict[str, str] = {"pageNo": "1", "pIndex": "1"}
# Paging arguments: they choose which rows come back, not which query is asked. Row ranges count
# too: ECOS start/end, Seoul START_INDEX/END_INDEX, law.go.kr display/page.
PAGING_ARGS: frozenset[str] = frozenset(
    {"numOfRows", "pageNo", "pSize", "pIndex", "page_no", "page_count", "start", "end", "START_INDEX", "END_INDEX",
     "display", "page"}
)


def normalize_value(value: Any) -> Any:
    """Canonical form for comparing argument values: numbers and numeric strings alike."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return tuple(sorted(str(normalize_value(v)) for v in value))
    if isinstance(value, int | float):
        f = float(value)
        return str(int(f)) if f.is_integer() else repr(f)
    s = unicodedata.normalize("NFKC", str(value)).strip()
    if re.fullmatch(r"-?\d+(\.\d+)?", s) and not (len(s) > 1 and s.startswith("0") and "." not in s):
        f = float(s)
        return str(int(f)) if f.is_integer() else repr(f)
    if "," in s and not re.fullmatch(r"[\d,]+", s):
        parts = [p.strip() for p in s.split(",") if p.strip()]
        if len(parts) > 1:
            return tuple(sorted(parts))
    return s


def normalize_args(args: Mapping[str, Any], ignore: Iterable[str] = ()) -> dict[str, Any]:
    skip = IGNORED_ARGS | set(ignore)
    out = {k: normalize_value(v) for k, v in args.items() if k not in skip and v is not None and v != ""}
    for k, v in DEFAULT_ARGS.items():
        if out.get(k) == v:
            out.pop(k)
    return out


# Page-size arguments: a first page at least as large as the gold one holds the gold rows.
PAGE_SIZE_ARGS: dict[str, str] = {"numOfRows": "pageNo", "pSize": "pIndex"}


def _value_equal(key: str, want: Any, got: Any, w: Mapping[str, Any], g: Mapping[str, Any]) -> bool:
    if got == want:
        return True
    page = PAGE_SIZE_ARGS.get(key)
    if page is not None and page not in w and page not in g:
        try:
            return float(got) >= float(want)
        except (TypeError, ValueError):
            return False
    return False


def arguments_equal(
    want: Mapping[str, Any],
    got: Mapping[str, Any],
    ignore: Iterable[str] = (),
    accept: Mapping[str, Sequence[Any]] | None = None,
) -> bool:
    """Every gold argument present in ``got`` with the same normalized value (extras allowed).

    ``accept`` (BFCL style): per argument, further values that are right too (a step's
    :attr:`~kopa_inspect.plans.PlanStep.accept` lists, resolved against the gold run); they are
    normalized like the arguments."""
    w, g = normalize_args(want, ignore), normalize_args(got, ignore)
    for k, v in w.items():
        if _value_equal(k, v, g.get(k), w, g):
            continue
        if accept and k in accept and g.get(k) is not None and any(
            _value_equal(k, normalize_value(a), g.get(k), w, g) for a in accept[k]
        ):
            continue
        return False
    return True


def same_query(want: Mapping[str, Any], got: Mapping[str, Any], accept: Mapping[str, Sequence[Any]] | None = None) -> bool:
    """The same question to the API whatever the paging: equal arguments apart from page args."""
    w = {k: v for k, v in normalize_args(want).items() if k not in PAGING_ARGS}
    g = {k: v for k, v in normalize_args(got).items() if k not in PAGING_ARGS}
    if set(w) != set(g):
        return False
    return arguments_equal(w, g, accept=accept)


def argument_match_score(want: Mapping[str, Any], got: Mapping[str, Any], ignore: Iterable[str] = ()) -> float:
    """Partial credit: mean of argument-name Jaccard and the share of gold values matched."""
    w, g = normalize_args(want, ignore), normalize_args(got, ignore)
    if not w and not g:
        return 1.0
    names = len(w.keys() & g.keys()) / len(w.keys() | g.keys())
    values = sum(1 for k, v in w.items() if _value_equal(k, v, g.get(k), w, g)) / len(w) if w else 1.0
    return (names + values) / 2


def call_matches(
    want_name: str,
    want_args: Mapping[str, Any],
    got_name: str,
    got_args: Mapping[str, Any],
    accept: Mapping[str, Sequence[Any]] | None = None,
) -> bool:
    return want_name == got_name and arguments_equal(want_args, got_args, accept=accept)


# Per gold call, its step's resolved accept lists (PlanStep.resolve_accept), or None.
Accepts = Sequence[Mapping[str, Sequence[Any]] | None]


def match_calls(
    gold: Sequence[tuple[str, Mapping[str, Any]]],
    made: Sequence[tuple[str, Mapping[str, Any]]],
    accepts: Accepts | None = None,
) -> dict[int, int]:
    """One-to-one matching of gold calls to made calls (gold index -> made index), greedy in order.

    Parallel calls may come in any order; each made call is used at most once. ``accepts``: per
    gold call, further acceptable argument values (the step's ``accept`` lists, resolved).
    """
    used: set[int] = set()
    out: dict[int, int] = {}
    for gi, (gname, gargs) in enumerate(gold):
        accept = accepts[gi] if accepts is not None and gi < len(accepts) else None
        for mi, (mname, margs) in enumerate(made):
            if mi not in used and call_matches(gname, gargs, mname, margs, accept):
                out[gi] = mi
                used.add(mi)
                break
    return out


def call_prf(
    gold: Sequence[tuple[str, Mapping[str, Any]]],
    made: Sequence[tuple[str, Mapping[str, Any]]],
    accepts: Accepts | None = None,
) -> tuple[float, float, float]:
    """Precision, recall and F1 of made calls against gold calls (duplicates count once each)."""
    if not gold and not made:
        return 1.0, 1.0, 1.0
    matched = len(match_calls(gold, made, accepts))
    p = matched / len(made) if made else 0.0
    r = matched / len(gold) if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


# --- record fingerprints -------------------------------------------------------------------------

# Fields that number a row within one response, not the record itself (they change with the
# query's filter or page): left out of the fingerprint.
ROW_NUMBER_FIELDS: frozenset[str] = frozenset({"rnum", "rowNum", "ROW_NUM", "rn", "RNUM", "num", "NUM"})


def record_fingerprint(item: Mapping[str, Any]) -> str:
    """A short stable id of one output record: the same record from any page, page size,
    filter or order has the same fingerprint."""
    body = {k: v for k, v in item.items() if k not in ROW_NUMBER_FIELDS}
    raw = json.dumps(body, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(raw.encode("utf-8"), digest_size=8).hexdigest()
