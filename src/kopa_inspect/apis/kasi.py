"""한국천문연구원 특일정보 (SpcdeInfoService): 공휴일 getRestDeInfo, 국경일 getHoliDeInfo.

Contract: reference/korean-apis.md §2.4. Static, seed-independent data: the real Korean public
holidays of 2025, 2026 and 2027 (other years answer with no rows; the emulator's world does not
reach them).

Quirks reproduced: the path carries an extra ``/openapi/service/`` segment; the OK message is
literally ``NORMAL SERVICE.``; ``locdate`` and ``seq`` are JSON numbers; one holiday in JSON is
``"item": {...}`` (an object, from the gateway's XML->JSON conversion), none is ``"items": ""``
with ``totalCount: 0`` (not 03 NODATA); ``numOfRows`` defaults to 10, so a whole year needs a
larger page or a second page.

Holiday rules used (공휴일에 관한 법률 and its 2021/2023 amendments): 대체공휴일 for 설날/추석 when a
day of the three overlaps a Sunday (or another holiday); for 삼일절·광복절·개천절·한글날·어린이날·
부처님오신날·기독탄신일 when the day falls on a Saturday or Sunday. Lunar dates (설날, 부처님오신날,
추석) are the KASI lunar calendar dates.
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.apis._envelope import DataGoKrEnvelope
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Rows
from kopa_inspect.world import World

BASE = "/B090041/openapi/service/SpcdeInfoService"

# (locdate, dateName, isHoliday). UNCERTAIN items are commented on their line.
# UNCERTAIN (naming): KASI writes substitute holidays as plain "대체공휴일" in the years we have
# seen; some later notes show "대체공휴일(삼일절)" style names.
_REST_DAYS: tuple[tuple[int, str], ...] = (
    # 2025
    (20250101, "1월1일"),
    (20250127, "임시공휴일"),  # 설 연휴 임시공휴일 (designated Jan 2025)
    (20250128, "설날"),
    (20250129, "설날"),
    (20250130, "설날"),
    (20250301, "삼일절"),
    (20250303, "대체공휴일"),  # 삼일절 on a Saturday
    (20250505, "어린이날"),
    (20250505, "부처님오신날"),  # 음력 4.8 = 5.5, the same day as 어린이날
    (20250506, "대체공휴일"),
    (20250603, "임시공휴일(제21대 대통령 선거)"),  # UNCERTAIN: exact dateName of the election day
    (20250606, "현충일"),
    (20250815, "광복절"),
    (20251003, "개천절"),
    (20251005, "추석"),
    (20251006, "추석"),
    (20251007, "추석"),
    (20251008, "대체공휴일"),  # 추석 연휴 overlaps Sunday 10.5
    (20251009, "한글날"),
    (20251225, "기독탄신일"),
    # 2026
    (20260101, "1월1일"),
    (20260216, "설날"),
    (20260217, "설날"),
    (20260218, "설날"),
    (20260301, "삼일절"),
    (20260302, "대체공휴일"),
    (20260505, "어린이날"),
    (20260524, "부처님오신날"),
    (20260525, "대체공휴일"),
    (20260603, "전국동시지방선거"),  # UNCERTAIN: dateName of the 9th local election day
    (20260606, "현충일"),
    (20260717, "제헌절"),  # UNCERTAIN: 제헌절 restored as a 공휴일 from 2026 (reference §2.4)
    (20260815, "광복절"),
    (20260817, "대체공휴일"),
    (20260924, "추석"),
    (20260925, "추석"),
    (20260926, "추석"),  # Saturday: no substitute for 설날/추석 on Saturdays
    (20261003, "개천절"),
    (20261005, "대체공휴일"),
    (20261009, "한글날"),
    (20261225, "기독탄신일"),
    # 2027 (UNCERTAIN as a whole: not yet published by KASI when these notes were written;
    # lunar dates computed for KST, where 설날 2027 is 2.7 — one day after the Chinese new year)
    (20270101, "1월1일"),
    (20270206, "설날"),
    (20270207, "설날"),
    (20270208, "설날"),
    (20270209, "대체공휴일"),
    (20270301, "삼일절"),
    (20270505, "어린이날"),
    (20270513, "부처님오신날"),
    (20270606, "현충일"),
    (20270717, "제헌절"),
    (20270719, "대체공휴일"),  # UNCERTAIN: substitute rule applied to the restored 제헌절
    (20270815, "광복절"),
    (20270816, "대체공휴일"),
    (20270914, "추석"),
    (20270915, "추석"),
    (20270916, "추석"),
    (20271003, "개천절"),
    (20271004, "대체공휴일"),
    (20271009, "한글날"),
    (20271011, "대체공휴일"),
    (20271225, "기독탄신일"),
    (20271227, "대체공휴일"),
)

YEARS = (2025, 2026, 2027)
# 제헌절 before it was a 공휴일: a 국경일 that getHoliDeInfo lists with isHoliday "N".
# UNCERTAIN: getHoliDeInfo's exact row set; public clients use it like getRestDeInfo, so it
# returns every 공휴일 plus non-holiday 국경일.
_NATIONAL_NOT_REST: tuple[tuple[int, str], ...] = ((20250717, "제헌절"),)


def _row(locdate: int, name: str, holiday: str) -> dict[str, Any]:
    return {"dateKind": "01", "dateName": name, "isHoliday": holiday, "locdate": locdate, "seq": 1}


def _select(rows: list[tuple[int, str, str]], args: dict[str, Any]) -> Rows:
    year = args["solYear"]
    month = args.get("solMonth")
    if month is not None and not 1 <= int(month) <= 12:
        raise ApiError("invalid_param", param="solMonth")
    prefix = year + (month or "")
    return [_row(d, n, h) for d, n, h in sorted(rows, key=lambda r: r[0]) if str(d).startswith(prefix)]


def _rest_de_info(world: World, args: dict[str, Any]) -> Rows:
    return _select([(d, n, "Y") for d, n in _REST_DAYS], args)


def _holi_de_info(world: World, args: dict[str, Any]) -> Rows:
    rows = [(d, n, "Y") for d, n in _REST_DAYS] + [(d, n, "N") for d, n in _NATIONAL_NOT_REST]
    return _select(rows, args)


def holidays(year: int) -> list[tuple[str, str]]:
    """(YYYYMMDD, name) of the 공휴일 of a year, for other modules (e.g. business-day logic)."""
    return [(str(d), n) for d, n in _REST_DAYS if d // 10000 == year]


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
        Param("solMonth", "월 MM, 두 자리(예: 05), 생략하면 연간 (month, two digits; omit for the whole year)",
              pattern=r"\d{2}"),
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
