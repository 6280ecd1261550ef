"""Numbers as people write them ("790,000", "79억 5,000만", "1.2만", "-3℃"), and the number, money and length matchers."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kopa_inspect.matching.fact_fields import _get
from kopa_inspect.matching.lexicon import SCALE_WORDS_KO, alternation

_SCALES: dict[str, float] = {"조": 1e12, "억": 1e8, "천만": 1e7, "백만": 1e6, "만": 1e4, "천": 1e3}
# A unit word written against its number ("4.7m/s", "0.059ppm", "856.6Kcal"): models drop the space as
# often as not; other letters glued after digits make a code or a name ("11B00000", "5G").
_GLUED_UNIT = r"(?:(?i:m/s|km/h|kcal|ppm|ppb|mm|cm|km|kg|mg|ml)|m)(?![0-9A-Za-z])"
# A number on a token boundary (not glued to an ASCII letter/digit before it: "PM2.5", "B2"),
# optionally followed by a Korean scale word; chains like "79억 5,000만" are summed.
_NUM_TOKEN = re.compile(
    r"(?<![0-9A-Za-z.])(?P<sign>[-−–])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?!(?!"
    + _GLUED_UNIT
    + rf")[0-9A-Za-z]|\.\d)(?:[ \t]*(?P<scale>{alternation(SCALE_WORDS_KO)})(?![가-힣])"
    # a scale word is a word of its own: "26 조국혁신당" is 26, "3만명"/"5억원" are scaled
    rf"|[ \t]*(?P<scale2>{alternation(SCALE_WORDS_KO)})(?=[원명건개회번의에은는이가을를도와과로]))?"
)
# Won or 만원 right after a number: the answer is stating money.
_MONEY_AFTER = re.compile(r"^\s*(?:조|억|만|천)?\s*(?:원|만\s*원|천\s*원)")
# Spans whose digits are not figures: dates, clock times and fractions in words.
_MASKS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\d{4}\s*년\s*\d{1,2}\s*월(?:\s*\d{1,2}\s*일)?"),
    re.compile(r"(?<!\d)\d{4}\s*[-./]\s*\d{1,2}\s*[-./]\s*\d{1,2}(?!\d)"),
    re.compile(r"(?<!\d)\d{1,2}\s*월\s*\d{1,2}\s*일"),
    re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])"),
    # an hour of the day ("21시 기준", "오후 3시 30분"): no figure of a count or a measure (a time fact reads
    # it with parse_times); "3시간", "31개 시군", "3 시도" are not hours ("8시대" is)
    re.compile(r"(?<![\d.,])\d{1,2}\s*시(?![간군도구])(?:\s*\d{1,2}\s*분)?"),
    # a fraction said in words ("20분의 1", a law's share): neither part is a count
    re.compile(r"(?<![\d.,])\d+\s*분의\s*\d+"),
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
        if (
            scale_man
            and (n.scaled or n.money)
            and abs(n.value - e * 1e4) <= max(tol * 1e4, n.precision / 2 + 1e-9)
            and (n.precision <= 0.01 * abs(e * 1e4))
        ):
            return True
    return False


# Lengths: a figure said with a length unit is read in that unit ("3,600미터" = 3.6 km); a bare one is
# in the fact's unit. Without it the digits alone would hold: "3.6미터" for 3.6 km.
_LENGTH_UNITS: dict[str, float] = {"m": 1.0, "km": 1000.0, "cm": 0.01}
_LENGTH_AFTER = re.compile(r"\s*(킬로미터|킬로|㎞|km|센티미터|센티|㎝|cm|미터|m)(?![A-Za-z])", re.IGNORECASE)
_LENGTH_WORD = {
    "킬로미터": 1000.0,
    "킬로": 1000.0,
    "㎞": 1000.0,
    "km": 1000.0,
    "센티미터": 0.01,
    "센티": 0.01,
    "㎝": 0.01,
    "cm": 0.01,
    "미터": 1.0,
    "m": 1.0,
}


def length_score(
    expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str = "m"
) -> float:
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


def number_score(
    expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str | None = None
) -> float:
    e = to_number(expected)
    if e is None:
        return 0.0
    if unit in _MONEY_UNITS and unit != "원":
        return money_score(expected, answer, tolerance, rel_tol, unit)
    if unit in _LENGTH_UNITS:
        return length_score(expected, answer, tolerance, rel_tol, unit)
    return 1.0 if _number_in(e, extract_numbers(answer), _effective_tol(e, tolerance, rel_tol)) else 0.0


_MONEY_UNITS: dict[str, float] = {"원": 1.0, "천원": 1e3, "만원": 1e4, "백만원": 1e6, "억원": 1e8}


def money_score(
    expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str | None = "원"
) -> float:
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
