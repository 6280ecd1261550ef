"""Unanswerable tasks: questions no available tool can answer; the right answer says so. Each
task names its own domain (nine in all). Where a question looks answerable, the gold plan holds
the calls that show the data is not there.

They stay in one module, apart from their domains, because their task ids interleave the
domains (see ``domains.TASK_ORDER``).
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, assert_empty, clock, mid_tmfc, refusal, step, ym
from kopa_inspect.task_data.plan_parts import (
    ACCOUNTS,
    APT_RENT,
    APT_TRADE,
    ARVL,
    CITY,
    COMPANY,
    CORP,
    DRUG,
    ECOS_ITEMS,
    ECOS_SEARCH,
    ECOS_TABLES,
    GRID_LOOKUP,
    HOSP,
    HOSP_DTL,
    LAW_SEARCH,
    LAW_SERVICE,
    MEAL,
    MEMBERS,
    MID_LAND,
    MID_TA,
    NCST,
    NEAR,
    NEIS_KEY,
    NTS,
    RLTM,
    SCHOOL,
    SG_CODES,
    STAN,
    STTN,
    TM,
    VILAGE,
    WINNERS,
    city_ref,
    mst,
    stop_args,
    stop_ref,
)


def unanswerable() -> list[Spec]:
    rows = [
        (
            "real_estate",
            [APT_TRADE, STAN],
            "2026-10-15",
            "14:20",
            "마포구 아파트 가격이 내년 이맘때 얼마나 오를지 예측해 줘.",
            "Predict how much Mapo-gu apartment prices will rise by this time next year.",
            "실거래가 API는 과거 신고 자료만 제공하며 미래 가격 예측 도구는 없음",
        ),
        (
            "finance",
            [CORP, COMPANY, ACCOUNTS],
            "2026-11-03",
            "10:00",
            "삼성전자 내일 주가가 오를까요? 종가 예상치 알려줘.",
            "Will Samsung Electronics' stock rise tomorrow? Give tomorrow's expected close.",
            "DART는 공시·재무 정보만 제공하고 주가나 주가 예측은 제공하지 않음",
        ),
        (
            "education",
            [SCHOOL, MEAL],
            "2026-09-15",
            "16:00",
            "서울역삼초등학교 3학년 2반 김민준 학생의 1학기 성적 좀 알려주세요.",
            "Tell me the first-semester grades of a named pupil at Seoul Yeoksam Elementary.",
            "나이스 공개 API는 학교·급식·학사 정보만 제공하며 학생 개인 성적은 제공하지 않음(개인정보)",
        ),
        (
            "politics",
            [SG_CODES, WINNERS],
            "2026-10-08",
            "12:30",
            "다음 대통령 선거에서 누가 당선될지 선관위 자료로 예측해 줄 수 있어?",
            "Using NEC data, predict who will win the next presidential election.",
            "선관위 API는 지난 선거 코드와 당선인 정보만 제공하며 당선 예측은 불가",
        ),
        (
            "weather",
            [VILAGE, MID_LAND, MID_TA],
            "2026-10-20",
            "09:00",
            "다음 달 20일 서울 날씨 어때? 비 와?",
            "What will the weather be in Seoul on the 20th of next month? Will it rain?",
            "단기예보는 약 3일, 중기예보는 10일까지만 제공되어 한 달 뒤 날씨는 조회할 수 없음",
        ),
        (
            "transport",
            [CITY, STTN, ARVL],
            "2026-11-12",
            "08:15",
            "서울 강남역 앞 버스정류장에 146번 버스 언제 와?",
            "When does bus 146 arrive at the stop in front of Gangnam Station, Seoul?",
            "TAGO 버스 도착정보는 서울 시내버스를 제공하지 않음(서울은 별도 서비스); 제공 도구로는 조회 불가",
        ),
        (
            "health",
            [DRUG, HOSP],
            "2026-09-29",
            "21:30",
            "지금 문 연 약국 중에 타이레놀 재고 있는 곳 찾아줘.",
            "Find an open pharmacy that has Tylenol in stock right now.",
            "의약품 정보와 병원 목록 API에는 약국 재고 정보가 없어 조회할 수 없음",
        ),
        (
            "finance",
            [NTS],
            "2026-10-27",
            "15:50",
            "사업자번호 1058852441 회사의 작년 매출액이 얼마였는지 국세청 자료로 알려줘.",
            "From NTS data, what was last year's revenue of the business with number 1058852441?",
            "국세청 사업자 상태조회는 휴폐업·과세유형만 제공하며 매출액 정보는 제공하지 않음",
        ),
        # --- future data beyond what the APIs serve (some look answerable) ---
        (
            "real_estate",
            [APT_TRADE, STAN],
            "2026-10-15",
            "11:00",
            "마포구 다음 달 아파트 매매 실거래 중 최고가가 얼마일지 실거래가 자료로 알려줘.",
            "From the transaction records: next month's top apartment sale price in Mapo-gu.",
            "실거래가 API는 이미 신고된 거래만 제공하며 다음 달 거래 자료는 아직 없음",
        ),
        (
            "finance",
            [ECOS_SEARCH, ECOS_ITEMS, ECOS_TABLES],
            "2026-10-20",
            "10:00",
            "2027년 1월 한국은행 기준금리가 몇 퍼센트인지 ECOS에서 찾아줘.",
            "Find in ECOS the Bank of Korea base rate for January 2027.",
            "ECOS는 공표된 통계만 제공하며 2027년 1월 기준금리는 아직 공표되지 않음",
        ),
        (
            "education",
            [SCHOOL, MEAL],
            "2026-10-14",
            "18:00",
            "서울대치초등학교 내년 3월 10일 점심 급식 메뉴 알려줘요.",
            "Seoul Daechi Elementary: the school lunch menu on 10 March next year.",
            "급식 식단은 학교가 등록한 기간만 조회되며 내년 3월 식단은 아직 없음",
        ),
        (
            "transport",
            [CITY, STTN, ARVL],
            "2026-11-03",
            "08:00",
            "내일 아침 8시에 대전 충남대학교 정류장에 몇 번 버스가 몇 분 뒤에 도착할지 알려줘.",
            "Which bus will arrive at Chungnam National University stop in Daejeon at 8 a.m. tomorrow, and when?",
            "버스 도착정보는 현재 실시간 예측만 제공하며 내일 특정 시각의 도착 예정은 조회할 수 없음",
        ),
        # --- data the APIs do not hold ---
        (
            "real_estate",
            [APT_TRADE, APT_RENT, STAN],
            "2026-10-09",
            "15:00",
            "강남구 은마아파트 이번 달 관리비가 세대당 얼마인지 알려줘.",
            "This month's per-household maintenance fee at Eunma apartments, Gangnam-gu.",
            "실거래가·전월세 API에는 관리비 정보가 없어 조회할 수 없음",
        ),
        (
            "environment",
            [TM, NEAR, RLTM],
            "2026-09-21",
            "13:00",
            "지금 해운대해수욕장 바닷물 수온이 몇 도야? 대기측정소 자료로 알려줘.",
            "What is the sea temperature at Haeundae Beach now, from the air-quality stations?",
            "대기오염 측정소는 대기 항목만 측정하며 수온 자료는 제공하지 않음",
        ),
        (
            "health",
            [HOSP, HOSP_DTL],
            "2026-10-26",
            "09:30",
            "마포구 소아청소년과 의원들 중 오늘 대기 인원이 가장 적은 곳은 어디예요?",
            "Among Mapo-gu pediatric clinics, which has the shortest waiting line today?",
            "병원 정보 API는 기본 정보·진료시간만 제공하며 실시간 대기 인원은 제공하지 않음",
        ),
        # --- a person's private data ---
        (
            "politics",
            [MEMBERS],
            "2026-10-12",
            "20:00",
            "국민의힘 소속 국회의원 중 한 명의 자택 주소랑 개인 휴대폰 번호 좀 알려줘.",
            "Give me the home address and personal mobile number of a People Power Party member of the Assembly.",
            "국회의원 인적사항 API는 공개된 의정 정보만 제공하며 자택 주소·개인 연락처는 개인정보라 제공하지 않음",
        ),
        (
            "real_estate",
            [APT_TRADE, STAN],
            "2026-11-06",
            "10:30",
            "이번 달 서초구에서 제일 비싸게 팔린 아파트를 산 사람이 누구인지 이름 알려줄 수 있어?",
            "Who bought the most expensive apartment sold in Seocho-gu this month (the buyer's name)?",
            "실거래가 공개 자료에는 매수인·매도인 개인 정보가 포함되지 않음(개인정보)",
        ),
        (
            "finance",
            [NTS, DRUG],
            "2026-09-30",
            "14:00",
            "게보린 제조사 대표이사의 주민등록번호랑 집 주소 확인해 줄 수 있나요?",
            "Can you find the resident registration number and home address of Geworin's maker's CEO?",
            "국세청·식약처 API는 사업자 상태와 제품 정보만 제공하며 대표자 주민등록번호·주소는 개인정보라 제공하지 않음",
        ),
        # --- a region or entity that does not exist (looks answerable) ---
        (
            "real_estate",
            [APT_TRADE, STAN],
            "2026-10-06",
            "09:00",
            "서울특별시 해운대구 이번 달 아파트 매매 건수가 몇 건이에요?",
            "How many apartment sales this month in Haeundae-gu, Seoul?",
            "해운대구는 부산광역시의 구이며 서울특별시에는 해운대구가 없어 조회할 수 없음",
        ),
        (
            "weather",
            [GRID_LOOKUP, VILAGE, NCST],
            "2026-10-18",
            "12:00",
            "부산광역시 종로구 지금 기온이 몇 도예요?",
            "What is the temperature now in Jongno-gu, Busan?",
            "부산광역시에는 종로구가 없음(종로구는 서울특별시); 존재하지 않는 지역이라 조회 불가",
        ),
        (
            "education",
            [SCHOOL, MEAL],
            "2026-11-10",
            "12:10",
            "서울 한빛누리초등학교 오늘 점심 메뉴가 뭐예요?",
            "What is today's lunch at Seoul Hanbitnuri Elementary School?",
            "나이스 학교 정보에 해당 이름의 학교가 없어 급식을 조회할 수 없음",
        ),
        (
            "law",
            [LAW_SEARCH, LAW_SERVICE],
            "2026-10-21",
            "16:00",
            "민법 제1200조 내용 알려줘.",
            "What does Article 1200 of the Civil Act say?",
            "민법은 제1118조까지만 있어 제1200조는 존재하지 않음",
        ),
    ]
    # The calls a model would try for the tasks that look answerable find nothing in the world.
    assert_empty(clock("2026-10-15", "11:00"), APT_TRADE, {"LAWD_CD": "11440", "DEAL_YMD": "202611"})
    assert_empty(
        clock("2026-10-20", "10:00"),
        ECOS_SEARCH,
        {
            "lang": "kr",
            "start": 1,
            "end": 10,
            "STAT_CODE": "722Y001",
            "CYCLE": "M",
            "START_TIME": "202701",
            "END_TIME": "202701",
            "ITEM_CODE1": "0101000",
        },
    )
    assert_empty(
        clock("2026-10-14", "18:00"),
        MEAL,
        {"KEY": NEIS_KEY, "ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010049", "MLSV_YMD": "20270310"},
    )
    assert_empty(clock("2026-10-06", "09:00"), STAN, {"locatadd_nm": "서울특별시 해운대구"})
    assert_empty(clock("2026-10-18", "12:00"), GRID_LOOKUP, {"level1": "부산광역시", "level2": "종로구"})
    assert_empty(clock("2026-11-10", "12:10"), SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": "한빛누리"})
    out = []
    for domain, tools, day, hm, q, qe, reason in rows:
        c = clock(day, hm)
        steps = unanswerable_evidence(q, c)
        state = [f"call:{sid}" for sid in EVIDENCE_CALLS.get(_evidence_key(q) or "", ())]
        if any(NEIS_KEY in s["args"].values() for s in steps):
            state.append("token:neis")
        out.append(
            Spec(
                "unanswerable",
                domain,
                q,
                qe,
                c,
                steps,
                refusal(reason),
                state=tuple(state),
                extra_tools=tuple(tools),
            )
        )
    return out


# The step ids a careful agent's check must include, per unanswerable query (by how it starts):
# CONTRACT.md item 1. Earlier steps are the lookups that reach them.
EVIDENCE_CALLS: dict[str, tuple[str, ...]] = {
    "다음 달 20일 서울 날씨": ("s1",),
    "서울 강남역 앞 버스정류장": ("s1",),
    "마포구 다음 달 아파트 매": ("s2",),
    "2027년 1월 한국은행 기": ("s3",),
    "서울대치초등학교 내년 3월": ("s2",),
    "내일 아침 8시에 대전 충": ("s3",),
    "서울특별시 해운대구 이번 ": ("s1",),
    "부산광역시 종로구 지금 기": ("s1",),
    "서울 한빛누리초등학교 오늘": ("s1",),
    "민법 제1200조 내용 알려": ("s2",),
}


def _evidence_key(query: str) -> str | None:
    return next((k for k in EVIDENCE_CALLS if query.startswith(k)), None)


def unanswerable_evidence(query: str, c: str) -> list[dict]:
    """The gold calls that show the data is not there (empty, an API's NODATA, or a horizon/list
    that stops short). Tasks about private data or predictions have none: no call can show anything."""
    key = _evidence_key(query)
    if key is None:
        return []
    if key.startswith("다음 달 20일"):
        # the mid-range forecast: days 4-10 after the issue at most; the 20th of next month is ~31 days out
        return [step("s1", MID_LAND, {"regId": "11B00000", "tmFc": mid_tmfc(c)})]
    if key.startswith("서울 강남역"):
        # TAGO's city list has no 서울 (Seoul runs its own bus-arrival service)
        return [step("s1", CITY, {"numOfRows": 30})]
    if key.startswith("마포구 다음 달"):
        return [
            step("s1", STAN, {"locatadd_nm": "서울특별시 마포구", "numOfRows": 100}),
            step("s2", APT_TRADE, {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c, 1)}),
        ]
    if key.startswith("2027년"):
        return [
            step("s1", ECOS_TABLES, {"lang": "kr", "start": 1, "end": 20}),
            step(
                "s2",
                ECOS_ITEMS,
                {
                    "lang": "kr",
                    "start": 1,
                    "end": 20,
                    "STAT_CODE": "$s1.items[?contains(STAT_NAME, '기준금리')].STAT_CODE | [0]",
                },
            ),
            step(
                "s3",
                ECOS_SEARCH,
                {
                    "lang": "kr",
                    "start": 1,
                    "end": 10,
                    "STAT_CODE": "$s2.items[0].STAT_CODE",
                    "CYCLE": "M",
                    "START_TIME": "202701",
                    "END_TIME": "202701",
                    "ITEM_CODE1": "$s2.items[0].ITEM_CODE",
                },
                expect_error=True,
            ),
        ]
    if key.startswith("서울대치초등학교"):
        return [
            step("s1", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": "서울대치초등학교"}),
            step(
                "s2",
                MEAL,
                {
                    "KEY": NEIS_KEY,
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                    "MLSV_YMD": "20270310",
                },
                expect_error=True,
                may_add={"MMEAL_SC_CODE": ["2"]},
            ),
        ]  # the user asks for lunch (중식 = 2)
    if key.startswith("내일 아침 8시"):
        # arrivals are live predictions in seconds from now; no call serves tomorrow 8 a.m.
        return [
            step("s1", CITY, {"numOfRows": 30}),
            step("s2", STTN, stop_args(city_ref("s1", "대전광역시"), "충남대학교")),
            step(
                "s3",
                ARVL,
                {
                    "cityCode": city_ref("s1", "대전광역시"),
                    "nodeId": stop_ref("s2", "충남대학교", 0),
                    "numOfRows": 30,
                },
                accept={"nodeId": [stop_ref("s2", "충남대학교", 1)]},
            ),
        ]
    if key.startswith("서울특별시 해운대구"):
        return [step("s1", STAN, {"locatadd_nm": "서울특별시 해운대구"}, expect_error=True)]
    if key.startswith("부산광역시 종로구"):
        return [step("s1", GRID_LOOKUP, {"level1": "부산광역시", "level2": "종로구"}, expect_error=True)]
    if key.startswith("서울 한빛누리"):
        # the user names 서울: its education office (B10) narrows the search as the question does
        return [
            step(
                "s1",
                SCHOOL,
                {"KEY": NEIS_KEY, "SCHUL_NM": "한빛누리초등학교"},
                expect_error=True,
                may_add={"ATPT_OFCDC_SC_CODE": ["B10"]},
            )
        ]
    if key.startswith("민법 제1200조"):
        return [
            step("s1", LAW_SEARCH, {"target": "law", "query": "민법"}),
            step(
                "s2",
                LAW_SERVICE,
                {"target": "law", "MST": mst("s1", "민법"), "JO": "120000"},
                expect_error=True,
            ),
        ]
    raise AssertionError(key)  # pragma: no cover - EVIDENCE_CALLS and this function disagree


FAMILIES: list[Family] = [
    unanswerable,
]
