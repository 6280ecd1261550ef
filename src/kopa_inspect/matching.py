"""Deterministic matching: answer facts against free text, and tool calls against gold calls.

Framework-free (no Inspect imports) so the benchmark scorers, EDGE's answer check and GRPO's
rewards all judge with the same functions.

Answer matchers (``AnswerFact.matcher``):

- ``number``: every number in the answer is read with Korean formats ("790,000", "79억",
  "79억 5,000만", "1.2만", "12.5도", "-3℃", "3천") and compared with the expected value within the
  fact's absolute tolerance. An answer that rounds (states fewer decimals, or a 억/만 scale) is
  accepted when its stated precision is at most 1% of the value. Money the API gives in 만원
  (MOLIT dealAmount) also matches when the answer converts it to 원.
- ``date``: YYYYMMDD, YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD, "2026년 10월 15일", "10월 15일" (a date
  without a year matches on month and day), "10/15".
- ``name``: spaces and punctuation removed, administrative suffixes unified (서울특별시 = 서울시 =
  서울, 경기도 = 경기, 충청북도 = 충북 ...); the normalized expected name must occur in the
  normalized answer.
- ``set``: each element is a name; the fact holds when all are present (score = share present).
- ``exact``: case- and space-insensitive substring.
- ``refusal``: the answer says the question cannot be answered with the tools (Korean/English
  phrases), and states no invented figure (UNCERTAIN heuristic: phrase lists, not a classifier).

Call matching: tool name equal and every gold argument present with an equal normalized value
("60" == 60, " 11110 " == "11110", lists order-free); arguments that carry no meaning for the
answer (service keys, session tokens, format switches) are ignored, and ``pageNo`` absent
equals ``pageNo=1``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

# --- numbers -------------------------------------------------------------------------------------

_SCALES: dict[str, float] = {"조": 1e12, "억": 1e8, "천만": 1e7, "백만": 1e6, "만": 1e4, "천": 1e3}
# A number, optionally followed by a Korean scale word; chains like "79억 5,000만" are summed.
_NUM_TOKEN = re.compile(
    r"(?P<sign>[-−–])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?P<scale>조|억|천만|백만|만|천)?"
)
# Won or 만원 right after a number: the answer is stating money.
_MONEY_AFTER = re.compile(r"^\s*(?:조|억|만|천)?\s*(?:원|만원|천원)")


@dataclass(frozen=True)
class FoundNumber:
    value: float
    precision: float  # the unit of the last written digit, in the value's own units
    scaled: bool  # written with a Korean scale word (억, 만 ...)
    money: bool  # followed by 원


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def extract_numbers(text: str) -> list[FoundNumber]:
    """Every number stated in ``text``, Korean scale words applied ("79억 5,000만" = 7,950,000,000)."""
    out: list[FoundNumber] = []
    text = unicodedata.normalize("NFKC", text)
    tokens = list(_NUM_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        m = tokens[i]
        sign = -1.0 if m.group("sign") and _sign_is_minus(text, m.start()) else 1.0
        raw = m.group("num")
        value = float(raw.replace(",", ""))
        scale = m.group("scale")
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
                nscale = nxt.group("scale")
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
            out.append(FoundNumber(sign * total, precision, True, money))
            i = j
            continue
        money = bool(_MONEY_AFTER.match(text[m.end() :]))
        out.append(FoundNumber(sign * value, precision, False, money))
        i += 1
    # Dates also read as numbers ("20261015"); that is harmless: a wrong number never matches.
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
    found = extract_numbers(str(value))
    if len(found) == 1:
        return found[0].value
    return None


def number_score(expected: Any, answer: str, tolerance: float = 0.0) -> float:
    e = to_number(expected)
    if e is None:
        return 0.0
    tol = max(float(tolerance or 0.0), 1e-9 * max(1.0, abs(e)))
    for n in extract_numbers(answer):
        if abs(n.value - e) <= tol:
            return 1.0
        # A rounded statement: its precision (0.5 unit of the last digit) covers the gap, and it
        # is fine enough (<= 1% of the value) to count as stating the number.
        if n.precision > 0 and abs(n.value - e) <= n.precision / 2 + 1e-9 and n.precision <= 0.01 * abs(e):
            return 1.0
        # 만원 amounts (MOLIT dealAmount "82,500") restated in 원 ("8억 2,500만원").
        if (n.scaled or n.money) and abs(n.value - e * 1e4) <= max(tol * 1e4, n.precision / 2 + 1e-9) and (
            n.precision <= 0.01 * abs(e * 1e4)
        ):
            return 1.0
    return 0.0


# --- dates ---------------------------------------------------------------------------------------

_DATE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?P<y>\d{4})\s*년\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일?"),
    re.compile(r"(?P<y>\d{4})\s*[-./]\s*(?P<m>\d{1,2})\s*[-./]\s*(?P<d>\d{1,2})"),
    re.compile(r"(?<!\d)(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})(?!\d)"),
    re.compile(r"(?<![\d년])\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일"),
    re.compile(r"(?<![\d./-])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])"),
)


def parse_dates(text: str) -> list[tuple[int | None, int, int]]:
    """(year or None, month, day) for every date-like span in ``text``."""
    text = unicodedata.normalize("NFKC", text)
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
_PUNCT = re.compile(r"[\s\-_·.,:;!?'\"“”‘’()\[\]{}<>/]+")


def normalize_name(text: Any) -> str:
    """Spaces, punctuation and case dropped; sido names shortened (서울특별시 -> 서울)."""
    s = unicodedata.normalize("NFKC", str(text)).lower()
    for full, short in sorted(_SIDO_SHORT.items(), key=lambda kv: -len(kv[0])):
        s = s.replace(full, short)
    s = _CITY_SUFFIX.sub(r"\1", s)
    return _PUNCT.sub("", s)


def name_score(expected: Any, answer: str) -> float:
    want = normalize_name(expected)
    if not want:
        return 0.0
    return 1.0 if want in normalize_name(answer) else 0.0


def set_score(expected: Any, answer: str) -> float:
    if isinstance(expected, str):
        items: list[Any] = [p for p in re.split(r"[,\n]", expected) if p.strip()]
    elif isinstance(expected, Iterable):
        items = list(expected)
    else:
        items = [expected]
    items = [i for i in dict.fromkeys(str(x) for x in items if x is not None and str(x).strip())]
    if not items:
        return 0.0
    hits = 0
    for item in items:
        if name_score(item, answer) or (to_number(item) is not None and number_score(item, answer)):
            hits += 1
    return hits / len(items)


def exact_score(expected: Any, answer: str) -> float:
    want = re.sub(r"\s+", "", str(expected)).lower()
    return 1.0 if want and want in re.sub(r"\s+", "", answer).lower() else 0.0


# --- refusal -------------------------------------------------------------------------------------

_REFUSAL_PATTERNS = re.compile(
    "|".join(
        [
            r"할\s*수\s*없",
            r"수\s*없습니다",
            r"수\s*없어요",
            r"알\s*수\s*없",
            r"제공하지\s*않",
            r"제공되지\s*않",
            r"지원하지\s*않",
            r"찾을\s*수\s*없",
            r"확인할\s*수\s*없",
            r"답변드리기\s*어렵",
            r"불가능",
            r"불가합니다",
            r"도구가\s*없",
            r"없습니다",
            r"cannot",
            r"can't",
            r"can\s*not",
            r"unable",
            r"not\s+(?:available|possible|supported|provided)",
            r"no\s+(?:tool|api|data)",
            r"don't\s+have",
            r"do\s+not\s+have",
        ]
    ),
    re.IGNORECASE,
)


def is_refusal(answer: str) -> bool:
    return bool(_REFUSAL_PATTERNS.search(unicodedata.normalize("NFKC", answer or "")))


def refusal_score(answer: str) -> float:
    return 1.0 if is_refusal(answer) else 0.0


# --- facts ---------------------------------------------------------------------------------------


def _get(fact: Any, key: str, default: Any = None) -> Any:
    if isinstance(fact, Mapping):
        return fact.get(key, default)
    return getattr(fact, key, default)


def fact_score(matcher: str, expected: Any, answer: str, tolerance: float = 0.0) -> float:
    """Score in [0, 1] for one fact (``set`` gives partial credit; the rest are 0/1)."""
    answer = answer or ""
    if matcher == "refusal":
        return refusal_score(answer)
    if expected is None:
        return 0.0
    if matcher == "number":
        if isinstance(expected, list):
            return set_score(expected, answer)
        return number_score(expected, answer, tolerance)
    if matcher == "date":
        return date_score(expected, answer)
    if matcher == "name":
        if isinstance(expected, list):
            return 1.0 if any(name_score(e, answer) for e in expected) else 0.0
        return name_score(expected, answer)
    if matcher == "set":
        return set_score(expected, answer)
    if matcher == "exact":
        return exact_score(expected, answer)
    raise ValueError(f"unknown matcher {matcher!r}")


def fact_holds(fact: Any, expected: Any, answer: str) -> bool:
    """Does ``answer`` state ``fact`` (an AnswerFact or its dict) with value ``expected``?"""
    return fact_score(_get(fact, "matcher", "exact"), expected, answer, _get(fact, "tolerance", 0.0) or 0.0) >= 1.0


# --- calls ---------------------------------------------------------------------------------------

# Arguments that carry no meaning for the result: keys, tokens and format switches.
IGNORED_ARGS: frozenset[str] = frozenset(
    {"serviceKey", "ServiceKey", "KEY", "key", "apiKey", "crtfc_key", "OC", "dataType", "_type", "returnType",
     "type", "resultType", "Type", "token", "session_token"}
)
# Arguments whose absence equals a default value.
DEFAULT_ARGS: dict[str, str] = {"pageNo": "1", "pIndex": "1"}


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


def arguments_equal(want: Mapping[str, Any], got: Mapping[str, Any], ignore: Iterable[str] = ()) -> bool:
    """Every gold argument present in ``got`` with the same normalized value (extras allowed)."""
    w, g = normalize_args(want, ignore), normalize_args(got, ignore)
    return all(_value_equal(k, v, g.get(k), w, g) for k, v in w.items())


def argument_match_score(want: Mapping[str, Any], got: Mapping[str, Any], ignore: Iterable[str] = ()) -> float:
    """Partial credit: mean of argument-name Jaccard and the share of gold values matched."""
    w, g = normalize_args(want, ignore), normalize_args(got, ignore)
    if not w and not g:
        return 1.0
    names = len(w.keys() & g.keys()) / len(w.keys() | g.keys())
    values = sum(1 for k, v in w.items() if _value_equal(k, v, g.get(k), w, g)) / len(w) if w else 1.0
    return (names + values) / 2


def call_matches(want_name: str, want_args: Mapping[str, Any], got_name: str, got_args: Mapping[str, Any]) -> bool:
    return want_name == got_name and arguments_equal(want_args, got_args)


def match_calls(
    gold: Sequence[tuple[str, Mapping[str, Any]]], made: Sequence[tuple[str, Mapping[str, Any]]]
) -> dict[int, int]:
    """One-to-one matching of gold calls to made calls (gold index -> made index), greedy in order.

    Parallel calls may come in any order; each made call is used at most once.
    """
    used: set[int] = set()
    out: dict[int, int] = {}
    for gi, (gname, gargs) in enumerate(gold):
        for mi, (mname, margs) in enumerate(made):
            if mi not in used and call_matches(gname, gargs, mname, margs):
                out[gi] = mi
                used.add(mi)
                break
    return out


def call_prf(
    gold: Sequence[tuple[str, Mapping[str, Any]]], made: Sequence[tuple[str, Mapping[str, Any]]]
) -> tuple[float, float, float]:
    """Precision, recall and F1 of made calls against gold calls (duplicates count once each)."""
    if not gold and not made:
        return 1.0, 1.0, 1.0
    matched = len(match_calls(gold, made))
    p = matched / len(made) if made else 0.0
    r = matched / len(gold) if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f
