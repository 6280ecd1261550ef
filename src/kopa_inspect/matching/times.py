"""Clock times ("15:00", "오후 3시", "정오") and durations ("3분 20초"), and their matchers."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from kopa_inspect.matching.lexicon import CLOCK_WORDS_KO, DAY_PARTS_KO, alternation
from kopa_inspect.matching.numbers import _decimals, _effective_tol, extract_numbers, to_number

_TIME_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"(?P<word>{alternation(CLOCK_WORDS_KO)})"),
    # "2:30 PM" before "2:30": the half of the day said after the clock
    re.compile(r"(?<![\d.])(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<en>[AaPp]\.?\s*[Mm]\.?)(?![A-Za-z])"),
    re.compile(r"(?<![\d:])(?P<h>\d{1,2}):(?P<mi>\d{2})(?![\d:])"),
    re.compile(
        rf"(?:(?P<ap>{alternation(DAY_PARTS_KO)})\s*)?(?<![\d.])(?P<h>\d{{1,2}})\s*시(?!간)"
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
    m = re.fullmatch(
        r"\s*(\d{1,2}):?(\d{2})\s*", str(expected).zfill(4) if str(expected).isdigit() else str(expected)
    )
    if not m:
        return 0.0
    want = (int(m.group(1)) % 24, int(m.group(2)))
    return 1.0 if want in parse_times(answer) else 0.0


_DURATION_UNITS: dict[str, float] = {
    "s": 1.0,
    "sec": 1.0,
    "초": 1.0,
    "min": 60.0,
    "분": 60.0,
    "h": 3600.0,
    "시간": 3600.0,
}
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


def duration_score(
    expected: Any, answer: str, tolerance: float = 0.0, rel_tol: float = 0.0, unit: str | None = None
) -> float:
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


# A window of hours ("09시~15시", "오전 9시부터 오후 3시까지", "between noon and 9 p.m.") is the question's
# range, not a claim of either end. UNCERTAIN: a pattern list.
_HOUR = (
    rf"(?:(?:{alternation(DAY_PARTS_KO)})\s*)?\d{{1,2}}\s*시(?:\s*\d{{1,2}}\s*분)?|\d{{1,2}}:\d{{2}}"
    rf"|\d{{1,2}}\s*[AaPp]\.?\s*[Mm]\.?|{alternation(CLOCK_WORDS_KO)}|noon|midnight"
)
TIME_WINDOW = re.compile(
    rf"(?:{_HOUR})\s*(?:~|∼|〜|–|—|-)\s*(?:{_HOUR})(?!\s*(?:입니다|이에요|예요|이고|이며|였))"
    r"|(?<![\d:])\d{1,2}\s*(?:~|∼|〜|–|-)\s*\d{1,2}\s*시(?!간)(?:\s*(?:중|사이|까지))"
    rf"|(?:{_HOUR})\s*(?:부터|에서)\s*(?:{_HOUR})\s*(?:까지|사이)"
    rf"|\bbetween\s+(?:{_HOUR})\s+and\s+(?:{_HOUR})|\bfrom\s+(?:{_HOUR})\s+(?:to|until|till)\s+(?:{_HOUR})",
    re.IGNORECASE,
)


def time_windows_blanked(text: str) -> str:
    """``text`` with every window of hours blanked (same length)."""
    return TIME_WINDOW.sub(lambda m: " " * len(m.group(0)), text)
