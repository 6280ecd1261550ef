"""Education task families: schools, meals and school calendars (neis, whose key the agent must
fetch), and a school day with its weather.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import (
    Family,
    Spec,
    clock,
    fact,
    kma_page,
    probe,
    step,
    vilage_base,
    ymd,
)
from kopa_inspect.task_data.plan_parts import (
    MEAL,
    NEIS_KEY,
    REST,
    SCHED,
    SCHOOL,
    VILAGE,
    cat_value,
    grid,
    grid_step,
    gxy,
    ranked_others,
)

TOKEN = ("token:neis",)


def lunch_calorie_compare() -> list[Spec]:
    """Parallel: two schools' lookups, then two menus, compared."""
    rows = [
        (
            "대치중학교",
            "개포중학교",
            "역삼중학교",
            "2026-10-20",
            "10:00",
            "대치중, 개포중, 역삼중 이번 주 금요일 점심 중에 어느 학교가 칼로리가 제일 높아요? 세 학교 열량도요.",
            "Daechi, Gaepo and Yeoksam Middle School, this Friday's lunch: which has the most calories, and each one's?",
            3,
        ),
        (
            "매탄고등학교",
            "영통고등학교",
            "정자고등학교",
            "2026-11-16",
            "16:30",
            "수원 매탄고와 영통고, 분당 정자고 내일 점심 급식 메뉴 세 개 비교해줘. 열량도 각각 알려주고.",
            "Suwon Maetan High and Yeongtong High, and Bundang Jeongja High, tomorrow's lunch: the three menus and each "
            "one's calories.",
            1,
        ),
        (
            "범어초등학교",
            "만촌초등학교",
            "상인초등학교",
            "2026-09-08",
            "08:40",
            "대구 범어초, 만촌초, 상인초 오늘 점심 메뉴 각각 뭔지 알려주세요.",
            "Daegu Beomeo, Manchon and Sangin Elementary: today's lunch at each.",
            0,
        ),
    ]
    out = []
    for a, b, e, day, hm, q, qe, plus in rows:
        c = clock(day, hm)
        d = ymd(c, plus)
        steps = [
            step("s1", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": a}),
            step("s2", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": b}),
            step("s5", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": e}),
        ]
        for k, sid in ((3, "s1"), (4, "s2"), (6, "s5")):
            steps.append(
                step(
                    f"s{k}",
                    MEAL,
                    {
                        "KEY": NEIS_KEY,
                        "ATPT_OFCDC_SC_CODE": f"${sid}.items[0].ATPT_OFCDC_SC_CODE",
                        "SD_SCHUL_CODE": f"${sid}.items[0].SD_SCHUL_CODE",
                        "MMEAL_SC_CODE": "2",
                        "MLSV_YMD": d,
                    },
                )
            )
        asks_menus = "메뉴" in q  # a question about calories alone does not ask for the dishes
        facts = [
            fact("menu_a", f"{a} 메뉴", "$s3.items[0].DDISH_NM", "dish_set", required=asks_menus, subject=a),
            fact("menu_b", f"{b} 메뉴", "$s4.items[0].DDISH_NM", "dish_set", required=asks_menus, subject=b),
            fact("menu_c", f"{e} 메뉴", "$s6.items[0].DDISH_NM", "dish_set", required=asks_menus, subject=e),
        ]
        if plus:
            facts.append(fact("cal_a", f"{a} 열량", "$s3.items[0].CAL_INFO", "number", 0.5, subject=a))
            facts.append(fact("cal_b", f"{b} 열량", "$s4.items[0].CAL_INFO", "number", 0.5, subject=b))
            facts.append(fact("cal_c", f"{e} 열량", "$s6.items[0].CAL_INFO", "number", 0.5, subject=e))
            objs = (
                f"{{s: '{a}', k: num(s3.items[0].CAL_INFO)}}, {{s: '{b}', k: num(s4.items[0].CAL_INFO)}}, "
                f"{{s: '{e}', k: num(s6.items[0].CAL_INFO)}}"
            )
            if "제일 높" in q:
                facts.append(
                    fact(
                        "higher",
                        "열량이 가장 높은 학교 (the school with the most calories)",
                        f"$_.max_by([{objs}], &k).s",
                        competitors=ranked_others(objs, "k", "s"),
                    )
                )

        out.append(Spec("parallel", "education", q, qe, c, steps, facts, state=TOKEN))
    return out


def exam_schedule() -> list[Spec]:
    """School schedule over a range: filter events (시험/고사) after a code lookup."""
    rows = [
        (
            "대치고등학교",
            "2026-10-01",
            "19:00",
            "20261001",
            "20261031",
            "대치고 10월 학사일정 중에 시험(고사)이 있는 날짜를 모두 알려줘.",
            "Daechi High, October calendar: which days are exams?",
        ),
    ]
    out = []
    for i, (school, day, hm, a, b, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": school}),
            step(
                "s2",
                SCHED,
                {
                    "KEY": NEIS_KEY,
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                    "AA_FROM_YMD": a,
                    "AA_TO_YMD": b,
                },
            ),
        ]
        if i == 0:
            facts = [
                fact(
                    "days",
                    "시험 날짜 (exam days)",
                    "$s2.items[?contains(EVENT_NM, '고사')].AA_YMD",
                    "date_set",
                )
            ]
        elif i == 1:
            facts = [
                fact("events", "주요 일정 (events)", "$s2.items[?EVENT_NM != '토요휴업일'].EVENT_NM", "set")
            ]
        else:
            facts = [
                fact(
                    "events",
                    "행사 (events except 토요휴업일)",
                    "$s2.items[?EVENT_NM != '토요휴업일'].EVENT_NM",
                    "set",
                )
            ]
        out.append(Spec("chain2", "education", q, qe, c, steps, facts, state=TOKEN))
    return out


def neis_without_key() -> list[Spec]:
    """Error recovery: the NEIS call without the session key fails; get the key, then retry."""
    rows = [
        (
            "혜화고등학교",
            "2026-10-13",
            "11:50",
            "혜화고등학교 전화번호랑 홈페이지 주소 알려줘. 나이스 조회로요.",
            "Hyehwa High School's phone number and homepage (via NEIS).",
        ),
    ]
    out = []
    for i, (school, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step(
                "e1",
                SCHOOL,
                {"SCHUL_NM": school},
                expect_error=True,
                required=False,
                note="no KEY: the auth tool must be called first",
            ),
            step("s1", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": school}),
        ]
        facts = (
            [
                fact("tel", "전화번호", "$s1.items[0].ORG_TELNO", "exact"),
                fact("home", "홈페이지", "$s1.items[0].HMPG_ADRES"),
            ]
            if i == 0
            else [
                fact("addr", "주소", "$s1.items[0].ORG_RDNMA"),
                fact("fond", "설립구분", "$s1.items[0].FOND_SC_NM"),
            ]
        )
        out.append(Spec("error_recovery", "education", q, qe, c, steps, facts, state=TOKEN))
    return out


def monthly_meals() -> list[Spec]:
    """A month of meals in one range query (NEIS serves up to 100 rows a page by default), then
    an extreme over the month."""
    rows = [
        (
            "청운중학교",
            "2026-10-30",
            "17:00",
            "20261001",
            "20261031",
            "청운중학교 10월 점심 급식 중 열량이 가장 높았던 날과 그 칼로리를 찾아줘.",
            "Cheongun Middle School, October lunches: the highest-calorie day and its calories.",
        ),
    ]
    out = []
    for i, (school, day, hm, a, b, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": school}),
            step(
                "m1",
                MEAL,
                {
                    "KEY": NEIS_KEY,
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                    "MMEAL_SC_CODE": "2",
                    "MLSV_FROM_YMD": a,
                    "MLSV_TO_YMD": b,
                },
            ),
        ]
        if i == 0:
            facts = [
                fact("day", "최고 열량 날짜", "$m1.max_by(items, &num(CAL_INFO)).MLSV_YMD", "date"),
                fact("cal", "그 열량", "$m1.max(nums(items[].CAL_INFO))", "number", 0.5),
            ]
        else:
            facts = [
                fact("n", "중식 횟수", "$m1.totalCount", "number"),
                fact("day", "최저 열량 날짜", "$m1.min_by(items, &num(CAL_INFO)).MLSV_YMD", "date"),
            ]
        out.append(Spec("chain2", "education", q, qe, c, steps, facts, state=TOKEN))
    return out


# the 동 each school of :func:`school_day_check` stands in (its NEIS address)
SCHOOL_DONG = {"서울대치초등학교": "대치동", "우동초등학교": "우동"}


def school_day_check() -> list[Spec]:
    """NEIS (key trap) + KMA + KASI: is tomorrow a school day, what is for lunch, will it rain."""
    rows = [
        (
            "서울대치초등학교",
            "서울특별시 강남구",
            "2026-10-15",
            "20:40",
            "내일 서울대치초등학교(강남구) 정상 등교하는 날인지(공휴일·학사일정 확인), 점심 메뉴, 그리고 등교 시간(8시) 강수확률을 알려주세요.",
            "Tomorrow at Seoul Daechi Elementary (Gangnam-gu): a school day (holidays, calendar)? Lunch menu, and chance of rain at 08:00.",
        ),
        (
            "우동초등학교",
            "부산광역시 해운대구",
            "2026-11-11",
            "19:15",
            "부산 해운대구 우동초 내일 학사일정이랑 급식, 그리고 아침 8시 기온을 같이 알려줄래요?",
            "Busan Udong Elementary (Haeundae-gu) tomorrow: calendar events, lunch, and the 08:00 temperature.",
        ),
    ]
    out = []
    for i, (school, region, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        nx, ny = grid(region)
        vb = vilage_base(c)
        tom = ymd(c, 1)
        cat = "POP" if i == 0 else "TMP"
        page = kma_page(c, vb, nx, ny, tom, "0800", cat)
        steps = [
            step("s1", SCHOOL, {"KEY": NEIS_KEY, "SCHUL_NM": school}),
            step(
                "s2",
                MEAL,
                {
                    "KEY": NEIS_KEY,
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                    "MLSV_YMD": tom,
                    "MMEAL_SC_CODE": "2",
                },
            ),
            step(
                "s3",
                SCHED,
                {
                    "KEY": NEIS_KEY,
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                    "AA_FROM_YMD": ymd(c),
                    "AA_TO_YMD": ymd(c, 7),
                },
            ),
            step("h1", REST, {"solYear": tom[:4], "solMonth": tom[4:6]}),
            grid_step("g1", region),
            # the school's own 동 grid is as good a place for its 8 o'clock forecast as the 구's
            step(
                "w1",
                VILAGE,
                {"base_date": vb[0], "base_time": vb[1], **gxy("g1"), "numOfRows": 50, "pageNo": page},
                accept={k: [v] for k, v in gxy("g1", SCHOOL_DONG[school]).items()},
            ),
        ]
        facts = [
            fact("menu", "내일 급식", "$s2.items[0].DDISH_NM", "dish_set"),
            fact(
                cat.lower(),
                f"내일 08시 {cat}",
                cat_value("w1", cat, extra=f" && fcstDate=='{tom}' && fcstTime=='0800'"),
                "number",
                0.1,
            ),
            # asked only where the question asks whether it is a school day (공휴일·학사일정 확인)
            fact(
                "holiday",
                "내일 공휴일 여부 (tomorrow a holiday?)",
                f"$h1.items[?to_string(locdate)=='{tom}'].dateName | [0] || '평일'",
                "name",
                required="공휴일" in q,
                # KASI's calendar is the real one, seed-independent: tomorrow is no holiday here,
                # so the natural ways of saying "a normal school day" are accepted too.
                accept=[
                    "정상 등교",
                    "등교하는 날",
                    "공휴일이 아",
                    "공휴일 아님",
                    "휴일이 아",
                    "normal school day",
                    "regular school day",
                    "no public holiday",
                    "not a public holiday",
                    "not a holiday",
                ],
            ),
        ]
        assert not probe(c, REST, {"solYear": tom[:4], "solMonth": tom[4:6]}).get("items") or tom not in {
            str(r["locdate"]) for r in probe(c, REST, {"solYear": tom[:4], "solMonth": tom[4:6]})["items"]
        }
        facts.append(
            fact(
                "events",
                "이번 주 학사일정 (this week's calendar)",
                "$s3.items[].EVENT_NM",
                "set",
                required=False,
            )
        )
        out.append(Spec("chain4plus", "education", q, qe, c, steps, facts, state=TOKEN, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    lunch_calorie_compare,
    exam_schedule,
    neis_without_key,
    monthly_meals,
    school_day_check,
]
