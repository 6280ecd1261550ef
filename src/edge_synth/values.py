"""Field values as a person says them, and the matcher that scores them said that way (issue 10).

APIs send dates as 20260505, timestamps as 20120528064023, clock times as 1730 and distances
without a unit ("2.3", the unit is in the spec's field description: "거리 km"). A person writes
"2026년 5월 5일", "2012년 5월 28일 6시 40분", "17시 30분", "2.3킬로미터". What kind a value is comes
from the field's spec description (and name) together with the value's shape, never from the
shape alone: a 4-digit number is a time only where the field is a time, an 8-digit one a date only
where it is a valid calendar day. Each kind has the matcher (kopa_inspect.matching) that reads the
said form: date -> ``date``, a year-month of a date/period field ("202611") -> ``month``, timestamp -> ``date`` on its first 8 digits (the fact's reference gets
a ``[0:8]`` slice), time -> ``time``, a 만원 amount ("123,000", said "12억 3,000만 원") -> ``money`` with unit 만원, distance -> ``number`` ("2.3킬로미터": a Hangul unit after the
figure keeps it a figure; "2.3km" would glue a letter to it).
"""

from __future__ import annotations

import re
from typing import Any

from edge_synth.korean import date_ko, ym_ko
from kopa_inspect.apis import get_operation

_DATE8 = re.compile(r"(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])")
_YM6 = re.compile(r"(19|20)\d{2}(0[1-9]|1[0-2])")
_MONTH_CUE = re.compile(r"일자|연월|년월|시점|YYYYMM|period|month", re.I)
_HHMM = re.compile(r"([01]\d|2[0-4])([0-5]\d)")
_TIME_CUE = re.compile(
    r"HHMM|HH:MM|시각|(?:진료|운영|이용|영업)\s*(?:시작|종료)|(?:시작|종료)\s*시간|\btime\b", re.I
)
_STAMP_CUE = re.compile(r"일시|YYYYMMDDHH|시각|time|dtm|dt$|ts$", re.I)
_MANWON_CUE = re.compile(r"만원|만 원|10,000 KRW|10k KRW")
_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_KM = re.compile(r"거리.*\bkm\b|distance.*\bkm\b", re.I)
_M = re.compile(r"거리.*(?:\bm\b|미터)|distance in met", re.I)


def _desc(op_id: str, fname: str) -> str:
    try:
        return get_operation(op_id).output_fields.get(fname, "")
    except KeyError:
        return ""


def value_kind(op_id: str, fname: str, value: Any) -> str | None:
    """ "date" | "timestamp" | "month" | "time" | "km" | "m" | "manwon" | None (say the value as it is)."""
    v = str(value).strip()
    desc = _desc(op_id, fname)
    if _MANWON_CUE.search(desc) and _AMOUNT.fullmatch(v):
        return "manwon"  # an amount in 만원 ("123,000" is 12억 3,000만 원), never a date or a time
    if _DATE8.fullmatch(v):
        return "date"
    if (
        re.fullmatch(r"\d{12}|\d{14}", v)
        and _DATE8.fullmatch(v[:8])
        and _HHMM.fullmatch(v[8:12])
        and _STAMP_CUE.search(f"{fname} {desc}")
    ):
        return "timestamp"
    if _YM6.fullmatch(v) and _MONTH_CUE.search(desc):
        return "month"
    if _HHMM.fullmatch(v) and _TIME_CUE.search(desc):
        return "time"
    if re.fullmatch(r"-?\d+(?:\.\d+)?", v):
        if _KM.search(desc):
            return "km"
        if _M.search(desc):
            return "m"
    return None


def won_said(manwon: str) -> str:
    """A 만원 amount as a person says it: "123,000" -> "12억 3,000만 원", "100,000" -> "10억 원",
    "8,500" -> "8,500만 원", "0" -> "0원"."""
    n = int(manwon.replace(",", "").strip())
    eok, man = divmod(n, 10000)
    parts = ([f"{eok:,}억"] if eok else []) + ([f"{man:,}만"] if man else [])
    return " ".join(parts) + " 원" if parts else "0원"


def time_said(hhmm: str) -> str:
    """ "1730" -> "17시 30분", "0900" -> "9시", "2400" -> "24시"."""
    h, m = int(hhmm[:2]), int(hhmm[2:4])
    return f"{h}시 {m}분" if m else f"{h}시"


def say(op_id: str, fname: str, value: Any) -> str:
    """The value as a person writes it in an answer."""
    v = str(value).strip()
    kind = value_kind(op_id, fname, value)
    if kind == "date":
        return date_ko(v)
    if kind == "month":
        return ym_ko(v)
    if kind == "timestamp":
        return f"{date_ko(v[:8])} {time_said(v[8:12])}"
    if kind == "time":
        return time_said(v)
    if kind == "km":
        return f"{v}킬로미터"
    if kind == "m":
        return f"{v}미터"
    if kind == "manwon":
        return won_said(v)
    return v


def typed(op_id: str, fname: str, value: Any) -> tuple[str | None, Any, str | None]:
    """(matcher, resolved value, reference slice) for a fact on this field; None: keep the default."""
    kind = value_kind(op_id, fname, value)
    if kind == "date":
        return "date", value, None
    if kind == "timestamp":
        return "date", str(value).strip()[:8], "[0:8]"
    if kind == "time":
        return "time", str(value).strip(), None
    if kind == "month":
        return "month", str(value).strip(), None
    if kind == "manwon":
        return "money", value, None  # read in won with unit 만원 (unit_of): "12억 3,000만 원"
    return None, value, None


def unit_of(op_id: str, fname: str, value: Any) -> str | None:
    """The API unit a fact on this field carries for the matcher ("만원"), or None."""
    return "만원" if value_kind(op_id, fname, value) == "manwon" else None


def is_clock_kind(op_id: str, fname: str, value: Any) -> bool:
    """A date, timestamp or time: compared by later/earlier, not larger/smaller."""
    return value_kind(op_id, fname, value) in ("date", "timestamp", "month", "time")


def later_phrase(label: str, how: str = "max") -> str:
    """ "월요일 진료 종료" -> ("월요일 진료가 더 늦게 끝나는"): what the larger clock value means.

    ``how`` "max" is the later one, "min" the earlier one."""
    late = how == "max"
    m = re.fullmatch(r"(.+?)\s*(종료|시작)", label)
    if m:
        verb = "끝나는" if m.group(2) == "종료" else "시작하는"
        subj = m.group(1).strip()
        josa = "가" if not _final(subj) else "이"
        return f"{subj}{josa} {'더 늦게' if late else '더 일찍'} {verb}"
    josa = "이" if _final(label) else "가"
    return f"{label}{josa} {'더 늦은' if late else '더 이른'}"


def _final(word: str) -> bool:
    ch = word[-1] if word else ""
    return "가" <= ch <= "힣" and (ord(ch) - 0xAC00) % 28 != 0
