"""What a clock implies for a call: today's date, last month, and each API's latest issuance.

KMA publishes on its own schedule per operation, so "the latest base_date/base_time" differs by
operation at the same clock (at 13:17 the latest 초단기실황 is 1200, the latest 단기예보 1100).
This module owns those schedules (facts from reference korean-apis.md §2.1 "base_time rules" and
§2.2); every place EDGE fills or recognises a clock value asks :func:`clock_value` for one
operation's value, and the truth scan (``truth.py``) checks exported rows against the same facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from kopa_inspect.world import parse_clock

# Formats an issuance schedule decides (base_date, base_time, tmFc).
SCHEDULED_FORMATS = ("date8", "time4", "tm12")
# Issue times exist only on a schedule: an operation without one has no "latest" time to give.
ISSUE_FORMATS = ("time4", "tm12")


@dataclass(frozen=True)
class Schedule:
    """Issuances at ``times`` (HHMM, KST) every day, each served from ``delay`` after its time."""

    times: tuple[str, ...]
    delay: timedelta
    formats: tuple[str, ...]  # the parameters it decides: base_date+base_time, or tmFc
    note: str = ""


_MID = Schedule(
    ("0600", "1800"),
    timedelta(minutes=10),
    ("tm12",),
    "tmFc YYYYMMDD0600/1800 only; latest available about 10 minutes after issue (digitie "
    "latest_mid_fcst_time); before 06:10 the latest is the previous day's 1800",
)

_BASE = ("date8", "time4")  # base_date, base_time

SCHEDULES: dict[str, Schedule] = {
    "kma_getVilageFcst": Schedule(
        ("0200", "0500", "0800", "1100", "1400", "1700", "2000", "2300"),
        timedelta(minutes=10),
        _BASE,
        "단기예보: API 제공 HH:10; before 02:10 the latest is the previous day's 2300",
    ),
    "kma_getUltraSrtNcst": Schedule(
        tuple(f"{h:02d}00" for h in range(24)),
        timedelta(minutes=40),
        _BASE,
        "초단기실황: every hour HH00, available after about HH:40 (cutoff = now - 40 min)",
    ),
    "kma_getUltraSrtFcst": Schedule(
        tuple(f"{h:02d}30" for h in range(24)),
        timedelta(minutes=15),
        _BASE,
        "초단기예보: every hour HH30, available after about HH:45. UNCERTAIN: the service echoes a "
        "30-minute base_time as the hour (observed on apihub, not confirmed on data.go.kr)",
    ),
    "kma_mid_getMidFcst": _MID,
    "kma_mid_getMidLandFcst": _MID,
    "kma_mid_getMidTa": _MID,
    "kma_mid_getMidSeaFcst": _MID,
}


def latest_issue(op_id: str, now: datetime) -> datetime | None:
    """The newest issuance of ``op_id`` already served at ``now`` (KST); None without a schedule."""
    sched = SCHEDULES.get(op_id)
    if sched is None:
        return None
    ready = parse_clock(now) - sched.delay  # an issuance at or before this is served
    for back in (0, 1):
        day = ready - timedelta(days=back)
        served = [
            day.replace(hour=int(t[:2]), minute=int(t[2:]), second=0, microsecond=0) for t in sched.times
        ]
        served = [t for t in served if t <= ready]
        if served:
            return max(served)
    raise AssertionError(f"{op_id}: a schedule issues at least once a day")


def issue_values(op_id: str, now: datetime) -> dict[str, str]:
    """The latest issuance of ``op_id`` as each format: base_date, base_time, tmFc."""
    issued = latest_issue(op_id, now)
    if issued is None:
        return {}
    as_text = {"date8": "%Y%m%d", "time4": "%H%M", "tm12": "%Y%m%d%H%M"}
    return {fmt: issued.strftime(as_text[fmt]) for fmt in SCHEDULES[op_id].formats}


def _key(op_id: str, fmt: str) -> str:
    return f"{op_id}:{fmt}"


def clock_values(clock: str | datetime | None) -> dict[str, str]:
    """Every value the clock gives, by format ("date8": today) and, for each scheduled operation,
    by ``"<op_id>:<format>"`` (its latest issuance). Plain text, so that it travels in pool.json.

    ``time4``/``tm12`` alone are the 단기예보/중기예보 issuance: kept as a shorthand for tests
    and callers that name one of those; :func:`clock_value` never reads them for another operation.
    """
    now = parse_clock(clock)
    prev_month = now.replace(day=1) - timedelta(days=1)
    out = {
        "date8": now.strftime("%Y%m%d"),
        "ym6": prev_month.strftime("%Y%m"),
        "year4": now.strftime("%Y"),
        "time4": issue_values("kma_getVilageFcst", now)["time4"],
        "tm12": issue_values("kma_mid_getMidLandFcst", now)["tm12"],
    }
    for op_id in SCHEDULES:
        for fmt, value in issue_values(op_id, now).items():
            out[_key(op_id, fmt)] = value
    return out


def clock_value(clock_vals: dict[str, str], op_id: str, fmt: str | None) -> str | None:
    """The value ``op_id``'s parameter of format ``fmt`` takes from the clock, or None.

    A scheduled operation's date and time are its own latest issuance (초단기실황 at 00:20 is the
    previous day's 2300, not today); an issue time on an operation without a schedule is None."""
    if fmt is None:
        return None
    if op_id in SCHEDULES and fmt in SCHEDULED_FORMATS:
        value = clock_vals.get(_key(op_id, fmt))
        return None if value is None else str(value)
    if fmt in ISSUE_FORMATS:
        return None
    value = clock_vals.get(fmt)
    return None if value is None else str(value)


def is_clock_value(clock_vals: dict[str, str], op_id: str, fmt: str | None, value: object) -> bool:
    """Is ``value`` what the clock gives ``op_id``'s parameter of format ``fmt``?"""
    given = clock_value(clock_vals, op_id, fmt)
    return given is not None and str(value) == given
