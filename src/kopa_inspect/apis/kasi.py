"""한국천문연구원 특일정보 (SpcdeInfoService): 공휴일 getRestDeInfo, 국경일 getHoliDeInfo.

Contract: the provider's published API guide Static, seed-independent data: the real Korean public
holidays of 2025, 2026 and 2027 (other years answer with no rows; the emulator's world does not
reach them).

Quirks reproduced: the path carries an extra ``/openapi/service/`` segment; the OK message is
literally ``NORMAL SERVICE.``; ``locdate`` and ``seq`` are JSON numbers; one holiday in JSON is
``"item": {...}`` (an object, from the gateway's XML->JSON conversion), none is ``"items": ""``
with ``totalCount: 0`` (not 03 NODATA); ``numOfRows`` defaults to 10, so a whole year needs a
larger page or a second page.

Holiday rules used (공휴일에 관한 법률 and its 2021/2023 amendments): 대체공휴일 for 설날/추석 when a
day of the three overlaps a Sunday (or another holiday); for 삼일절·광복절·개천절·한글날·어린이날·
부처님오신날·기독탄신일 (and, from 2026, 제헌절 and 노동절) when the day falls on a Saturday or
Sunday. Lunar dates (설날, 부처님오신날, 추석) are the KASI lunar calendar dates. Recorded real
responses (public client test fixtures, 2025-2027) confirmed the names and several rows.
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.apis._envelope import DataGoKrEnvelope
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.world import World

BASE = "/B090041/openapi/service/SpcdeInfoService"

# (locdate, dateName, seq). UNCERTAIN items are commented on their line.
# Naming: KASI wrote substitute holidays as plain "대체공휴일" up to 2025 (recorded 2025-03-03) and
# as "대체공휴일(삼일절)" / "대체공휴일(개천절)" / "대체공휴일(노동절)" from 2026 (recorded 2026 and
# 2027 responses). seq is 1 except where a recorded response shows 2 (rows KASI revised).
_REST_DAYS: tuple[tuple[int, str, int], ...] = (
    # 2025
    (20250101, "1월1일", 1),
    (20250127, "임시공휴일", 1),  # 설 연휴 임시공휴일 (designated Jan 2025)
    (20250128, "설날", 1),
    (20250129, "설날", 1),
    (20250130, "설날", 1),
    (20250301, "삼일절", 1),
    (20250303, "대체공휴일", 1),  # 삼일절 on a Saturday (recorded)
    (20250505, "어린이날", 1),
    (20250505, "부처님오신날", 1),  # 음력 4.8 = 5.5, the same day as 어린이날
    (20250506, "대체공휴일", 1),
    (20250603, "임시공휴일(제21대 대통령 선거)", 1),  # UNCERTAIN: exact dateName of the election day
    (20250606, "현충일", 1),
    (20250815, "광복절", 1),
    (20251003, "개천절", 1),
    (20251005, "추석", 1),
    (20251006, "추석", 1),
    (20251007, "추석", 1),
    (20251008, "대체공휴일", 1),  # 추석 연휴 overlaps Sunday 10.5
    (20251009, "한글날", 1),
    (20251225, "기독탄신일", 1),
    # 2026 (a recorded July-2026 response confirms every row except the two marked)
    (20260101, "1월1일", 1),
    (20260216, "설날", 1),
    (20260217, "설날", 1),
    (20260218, "설날", 1),
    (20260301, "삼일절", 1),
    (20260302, "대체공휴일(삼일절)", 1),
    (20260501, "노동절", 2),  # 근로자의 날 became 노동절, a 공휴일, in 2026
    (20260505, "어린이날", 2),
    (20260524, "부처님오신날", 1),
    # UNCERTAIN: absent from the recorded response, but the 2023 rule gives 부처님오신날 on a Sunday
    # a substitute day (and 광복절 on a Saturday since 2021).
    (20260525, "대체공휴일(부처님오신날)", 1),
    (20260603, "전국동시지방선거", 1),
    (20260606, "현충일", 2),
    (20260717, "제헌절", 1),  # 제헌절 restored as a 공휴일 from 2026
    (20260815, "광복절", 1),
    (20260817, "대체공휴일(광복절)", 1),  # UNCERTAIN, see above
    (20260924, "추석", 1),
    (20260925, "추석", 1),
    (20260926, "추석", 1),  # Saturday: no substitute for 설날/추석 on Saturdays
    (20261003, "개천절", 1),
    (20261005, "대체공휴일(개천절)", 1),
    (20261009, "한글날", 1),
    (20261225, "기독탄신일", 1),
    # 2027 (UNCERTAIN except 노동절/대체공휴일(노동절)/어린이날/삼일절, seen in a recorded response;
    # lunar dates for KST, where 설날 2027 is 2.7 — one day after the Chinese new year)
    (20270101, "1월1일", 1),
    (20270206, "설날", 1),
    (20270207, "설날", 1),
    (20270208, "설날", 1),
    (20270209, "대체공휴일(설날)", 1),
    (20270301, "삼일절", 1),
    (20270501, "노동절", 2),
    (20270503, "대체공휴일(노동절)", 1),
    (20270505, "어린이날", 1),
    (20270513, "부처님오신날", 1),
    (20270606, "현충일", 1),
    (20270717, "제헌절", 1),
    (20270719, "대체공휴일(제헌절)", 1),  # UNCERTAIN: substitute rule applied to the restored 제헌절
    (20270815, "광복절", 1),
    (20270816, "대체공휴일(광복절)", 1),
    (20270914, "추석", 1),
    (20270915, "추석", 1),
    (20270916, "추석", 1),
    (20271003, "개천절", 1),
    (20271004, "대체공휴일(개천절)", 1),
    (20271009, "한글날", 1),
    (20271011, "대체공휴일(한글날)", 1),
    (20271225, "기독탄신일", 1),
    (20271227, "대체공휴일(기독탄신일)", 1),
)

YEARS = (2025, 2026, 2027)
# 제헌절 before it was a 공휴일: a 국경일 that getHoliDeInfo lists with isHoliday "N".
# UNCERTAIN: getHoliDeInfo's exact row set; public clients use it like getRestDeInfo, so it
# returns every 공휴일 plus non-holiday 국경일.
_NATIONAL_NOT_REST: tuple[tuple[int, str, int], ...] = ((20250717, "제헌절", 1),)


def _row(locdate: int, name: str, holiday: str, seq: int) -> dict[str, Any]:
    return {"dateKind": "01", "dateName": name, "isHoliday": holiday, "locdate": locdate, "seq": seq}


def _select(rows: list[tuple[int, str, str, int]], args: dict[str, Any]) -> Rows:
    year = args["solYear"]
    month = args.get("solMonth")
    if month is not None and not 1 <= int(month) <= 12:
        raise ApiError("invalid_param", param="solMonth")
    prefix = year + (month or "")
    return [_row(d, n, h, q) for d, n, h, q in sorted(rows, key=lambda r: r[0]) if str(d).startswith(prefix)]


def _rest_de_info(world: World, args: dict[str, Any]) -> Rows:
    return _select([(d, n, "Y", q) for d, n, q in _REST_DAYS], args)


def _holi_de_info(world: World, args: dict[str, Any]) -> Rows:
    rows = [(d, n, "Y", q) for d, n, q in _REST_DAYS] + [(d, n, "N", q) for d, n, q in _NATIONAL_NOT_REST]
    return _select(rows, args)


def holidays(year: int) -> list[tuple[str, str]]:
    """(YYYYMMDD, name) of the 공휴일 of a year, for other modules (e.g. business-day logic)."""
    return [(str(d), n) for d, n, _ in _REST_DAYS if d // 10000 == year]


PLATFORM = Platform(
    id="kasi",
    name="한국천문연구원 특일정보 (KASI special days)",
    domain="calendar",
    live_base_url="http://apis.data.go.kr",
    envelope=DataGoKrEnvelope(
        ok_msg="NORMAL SERVICE.",
        format_param="_type",
        json_value="json",
        empty="empty_string",
    ),
    description="공휴일·국경일을 연도와 월로 조회 (public holidays by year and month).",
)


def _params() -> list[Param]:
    return [
        Param("ServiceKey", "공공데이터포털 인증키 (service key)", required=True, hidden=True),
        Param("solYear", "연도 YYYY (year)", required=True, pattern=r"\d{4}"),
        # UNCERTAIN: the real service wants the month zero-padded ("05"); "5" is refused here.
        Param(
            "solMonth",
            "월 MM, 두 자리(예: 05), 생략하면 연간 (month, two digits; omit for the whole year)",
            pattern=r"\d{2}",
        ),
        Param("pageNo", "페이지 번호, 기본 1 (page number)", type="integer"),
        Param("numOfRows", "한 페이지 결과 수, 기본 10 (rows per page, default 10)", type="integer"),
        Param("_type", "응답 형식 xml/json (response format)", hidden=True),
    ]


_FIELDS = {
    "dateKind": "종류 01 국경일/공휴일 (kind)",
    "dateName": "명칭 (holiday name)",
    "isHoliday": "공휴일 여부 Y/N (is a day off)",
    "locdate": "날짜 YYYYMMDD, 숫자 (date as a number)",
    "seq": "순번 (sequence)",
}

OPERATIONS = [
    Operation(
        platform="kasi",
        name="getRestDeInfo",
        path=f"{BASE}/getRestDeInfo",
        summary="공휴일 정보조회: 해당 연월의 공휴일(설날, 추석, 대체공휴일 등) 날짜와 명칭, 기본 10건씩 "
        "(public holidays of a year/month incl. substitute holidays; 10 rows per page by default).",
        params=_params(),
        handler=_rest_de_info,
        output_fields=_FIELDS,
        tags=("calendar",),
    ),
    Operation(
        platform="kasi",
        name="getHoliDeInfo",
        path=f"{BASE}/getHoliDeInfo",
        summary="국경일 정보조회: 해당 연월의 국경일·공휴일과 쉬는 날 여부(isHoliday) "
        "(national days and holidays of a year/month, with whether each is a day off).",
        params=_params(),
        handler=_holi_de_info,
        output_fields=_FIELDS,
        tags=("calendar",),
    ),
]
