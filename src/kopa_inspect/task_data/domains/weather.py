"""Weather task families: short- and mid-range forecasts (kma, kma_mid) found through the grid
table, and public holidays (kasi).
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import (
    Family,
    Spec,
    clock,
    fact,
    kma_page,
    mid_tmfc,
    step,
    vilage_base,
    ymd,
)
from kopa_inspect.task_data.plan_parts import (
    GRID_LOOKUP,
    MID_LAND,
    MID_TA,
    REST,
    VILAGE,
    cat_value,
    grid,
    grid_step,
    gxy,
    probe_total,
    ranked_others,
)


def tomorrow_rain_window() -> list[Spec]:
    """Pagination over a ~1000-row forecast: a window of tomorrow's slots spans several pages."""
    rows = [
        (
            "서울특별시 마포구",
            "2026-10-15",
            "14:20",
            "0600",
            "1800",
            "TMP",
            "마포구 내일 오전 6시부터 저녁 6시 사이에 기온이 처음으로 가장 높아지는 시각과 그 기온을 알려주세요.",
            "Mapo-gu, tomorrow 06:00-18:00: the first hour the day's highest temperature is reached, and that temperature.",
        ),
        (
            "경기도 성남시 분당구",
            "2026-10-28",
            "17:30",
            "0900",
            "1500",
            "REH",
            "성남 분당구 내일 오전 9시~오후 3시 중 습도가 가장 높은 시각과 습도는?",
            "Bundang-gu (Seongnam), tomorrow 09:00-15:00: the most humid hour and its humidity.",
        ),
        (
            "부산광역시 해운대구",
            "2026-11-12",
            "11:15",
            "1200",
            "2100",
            "WSD",
            "내일 낮 12시부터 밤 9시까지 부산 해운대구에서 바람이 가장 센 시각과 풍속을 찾아주세요.",
            "Haeundae-gu, Busan, tomorrow 12:00-21:00: the windiest hour and its wind speed.",
        ),
    ]
    out = []
    for region, day, hm, start, end, cat, q, qe in rows:
        c = clock(day, hm)
        nx, ny = grid(region)
        vb = vilage_base(c)
        tom = ymd(c, 1)
        first = kma_page(c, vb, nx, ny, tom, start, cat)
        last = kma_page(c, vb, nx, ny, tom, end, cat)
        base = {"base_date": vb[0], "base_time": vb[1], **gxy("g1"), "numOfRows": 50}
        steps = [grid_step("g1", region), step("p1", VILAGE, base)]
        steps += [step(f"p{k}", VILAGE, {**base, "pageNo": k}) for k in range(max(2, first), last + 1)]
        ids = [st["id"] for st in steps[1:] if st["id"] == "p1" and first == 1 or st["id"] != "p1"]
        allrows = "[" + ", ".join(f"{i}.items" for i in ids) + "][]"
        window = (
            f"{allrows} | [?category=='{cat}' && fcstDate=='{tom}' && "
            f"to_number(fcstTime) >= `{int(start)}` && to_number(fcstTime) <= `{int(end)}`]"
        )
        out.append(
            Spec(
                "pagination",
                "weather",
                q,
                qe,
                c,
                steps,
                [
                    fact(
                        "time",
                        "최대 시각 (fcstTime)",
                        f"$_.max_by({window}, &num(fcstValue)).fcstTime",
                        "time",
                    ),
                    fact("value", f"최대 {cat}", f"$_.max(nums({window} | [].fcstValue))", "number", 0.1),
                ],
                state=tuple(f"pages:{st['id']}" for st in steps[2:]),
            )
        )
    return out


def forecast_before_publication() -> list[Spec]:
    """Error recovery from the world: a few minutes after an issuance time the issue is not served
    yet (03 NO_DATA); the latest *available* issue is the previous one. The query asks for the
    latest forecast and names no issue time, so the error arises only if the model assumes it."""
    rows = [
        (
            "서울특별시 강남구",
            "2026-10-16",
            "05:04",
            "0500",
            "0200",
            "강남구 오늘 아침 7시 기온 예보 좀 알려줘. 지금 조회되는 가장 최신 단기예보 기준으로.",
            "Gangnam-gu: the forecast temperature at 07:00 today, from the latest short-range forecast available now.",
        ),
        (
            "대전광역시 유성구",
            "2026-11-20",
            "11:03",
            "1100",
            "0800",
            "대전 유성구 오늘 오후 3시 하늘상태가 어떨지, 지금 받아볼 수 있는 제일 최근 단기예보로 확인해 줘요.",
            "Yuseong-gu, Daejeon: the sky at 15:00 today, from the most recent short-range forecast available now.",
        ),
        (
            "경기도 수원시 영통구",
            "2026-09-25",
            "14:06",
            "1400",
            "1100",
            "수원 영통구 오늘 오후 6시 강수확률, 현재 조회 가능한 최신 단기예보로 알려주세요.",
            "Yeongtong-gu, Suwon: the chance of rain at 18:00 today, from the latest short-range forecast available.",
        ),
    ]
    out = []
    for i, (region, day, hm, asked, prev, q, qe) in enumerate(rows):
        c = clock(day, hm)
        assert vilage_base(c) == (ymd(c), prev)  # the issue the gold uses is the latest served
        slot, cat, desc = [("0700", "TMP", "기온"), ("1500", "SKY", "하늘상태"), ("1800", "POP", "강수확률")][
            i
        ]
        steps = [
            grid_step("g1", region),
            step(
                "e1",
                VILAGE,
                {"base_date": ymd(c), "base_time": asked, **gxy("g1"), "numOfRows": 100},
                expect_error=True,
                required=False,
                note="the nominal issue is served from HH:10 -> 03 NO_DATA",
            ),
            step("s2", VILAGE, {"base_date": ymd(c), "base_time": prev, **gxy("g1"), "numOfRows": 100}),
        ]
        value = cat_value("s2", cat, extra=f" && fcstDate=='{ymd(c)}' && fcstTime=='{slot}'")
        main = (
            fact("sky", f"{slot} {desc} ({prev} 발표분)", value, "code_label", labels="kma_sky")
            if cat == "SKY"
            else fact(
                cat.lower(), f"{slot} {desc} ({prev} 발표분)", value, "number", 0.1 if cat == "TMP" else 0.0
            )
        )
        out.append(
            Spec(
                "error_recovery",
                "weather",
                q,
                qe,
                c,
                steps,
                [
                    main,
                    fact(
                        "issue",
                        "실제 사용한 발표시각 (the issue actually used)",
                        "$s2.items[0].baseTime",
                        "time",
                        required=False,
                    ),
                ],
            )
        )
    return out


def three_city_outlook() -> list[Spec]:
    """Parallel: mid-term land + temperature for three cities (6 calls), then a choice."""
    rows = [
        (
            [
                ("서울", "11B00000", "11B10101"),
                ("부산", "11H20000", "11H20201"),
                ("제주", "11G00000", "11G00201"),
            ],
            "2026-09-22",
            "07:10",
            6,
            "6일 뒤 여행지를 서울, 부산, 제주 중에서 고르려고 해요. 그날 세 곳의 오전 강수확률과 최고기온을 비교해서 비 올 확률이 가장 낮은 곳을 알려주세요.",
            "Choosing among Seoul, Busan, Jeju for a trip in six days: morning rain chance and high at each; which is driest?",
        ),
    ]
    out = []
    for cities, day, hm, n, q, qe in rows:
        c = clock(day, hm)
        tm = mid_tmfc(c)
        steps = []
        for k, (_name, land, city) in enumerate(cities, 1):
            steps += [
                step(f"l{k}", MID_LAND, {"regId": land, "tmFc": tm}),
                step(f"t{k}", MID_TA, {"regId": city, "tmFc": tm}),
            ]
        facts = []
        for k, (name, _land, _city) in enumerate(cities, 1):
            facts.append(
                fact(f"pop{k}", f"{name} 오전 강수확률", f"$l{k}.items[0].rnSt{n}Am", "number", subject=name)
            )
            facts.append(
                fact(f"tmax{k}", f"{name} 최고기온", f"$t{k}.items[0].taMax{n}", "number", 0.5, subject=name)
            )
        objs = ", ".join(
            f"{{c: '{name}', p: l{k}.items[0].rnSt{n}Am}}" for k, (name, _l, _c) in enumerate(cities, 1)
        )
        facts.append(
            fact(
                "driest",
                "강수확률 최저 도시",
                f"$_.min_by([{objs}], &p).c",
                competitors=ranked_others(objs, "p", "c", highest=False),
            )
        )
        out.append(Spec("parallel", "weather", q, qe, c, steps, facts))
    return out


def holidays_count() -> list[Spec]:
    """KASI: several months in parallel (numOfRows default 10 is enough per month)."""
    rows = [
        (
            ["2026", "09"],
            ["2026", "10"],
            ["2026", "11"],
            "2026-08-25",
            "09:40",
            "9월부터 11월까지 공휴일 날짜 전부 알려주세요. 대체공휴일 있으면 그것도요.",
            "All public holidays from September to November, including substitute holidays.",
        ),
    ]
    out = []
    for a, b, cc, day, hm, q, qe in rows:
        c = clock(day, hm)
        months = [m for m in (a, b, cc) if m]
        steps = [step(f"m{i}", REST, {"solYear": y, "solMonth": mo}) for i, (y, mo) in enumerate(months, 1)]
        alld = "[" + ", ".join(f"m{i}.items" for i in range(1, len(months) + 1)) + "][]"
        if "설날" in q:
            facts = [
                fact("n", "공휴일 수 (holiday days)", f"$_.length({alld})", "number"),
                fact(
                    "seollal",
                    "설날 연휴 일수",
                    f"$_.length({alld} | [?contains(dateName, '설날')])",
                    "number",
                ),
            ]
        else:
            facts = [fact("days", "공휴일 날짜 목록", f"$_.{alld}.locdate", "date_set")]
        out.append(Spec("parallel", "weather", q, qe, c, steps, facts))
    return out


def district_weather_fanout() -> list[Spec]:
    """Per 구: the grid-table lookup (the 구 row among its 동 rows), then that cell's forecast;
    compare tomorrow's morning low across the 구 (2 calls per 구, up to 14)."""
    rows = [
        (
            [
                "서울특별시 종로구",
                "서울특별시 노원구",
                "서울특별시 은평구",
                "서울특별시 강서구",
                "서울특별시 관악구",
                "서울특별시 송파구",
                "서울특별시 도봉구",
            ],
            "2026-10-27",
            "18:30",
            "내일 아침 서울 종로·노원·은평·강서·관악·송파·도봉 일곱 개 구의 최저기온을 비교해서 가장 추운 구를 알려주세요. 아침 출근길 옷차림 공지용이에요.",
            "Tomorrow morning's low in seven Seoul districts (Jongno, Nowon, Eunpyeong, Gangseo, Gwanak, Songpa, "
            "Dobong): compare them and name the coldest (for a commute notice).",
        ),
        (
            [
                "경기도 수원시 영통구",
                "경기도 성남시 분당구",
                "경기도 파주시",
                "경기도 양평군",
                "경기도 포천시",
            ],
            "2026-11-24",
            "21:40",
            "경기 남부·북부 비교 자료예요. 수원 영통구, 성남 분당구, 파주시, 양평군, 포천시의 내일 최저기온과 가장 추운 곳을 알려주세요.",
            "Gyeonggi south vs north: tomorrow's low in Yeongtong (Suwon), Bundang (Seongnam), Paju, Yangpyeong and "
            "Pocheon, and the coldest.",
        ),
    ]
    out = []
    for regions, day, hm, q, qe in rows:
        c = clock(day, hm)
        vb, tom = vilage_base(c), ymd(c, 1)
        steps, facts, objs = [], [], []
        for k, region in enumerate(regions, 1):
            nx, ny = grid(region)
            page = kma_page(c, vb, nx, ny, tom, "0600", "TMN", size=100)
            steps.append(grid_step(f"g{k}", region))
            steps.append(
                step(
                    f"w{k}",
                    VILAGE,
                    {
                        "base_date": vb[0],
                        "base_time": vb[1],
                        **gxy(f"g{k}"),
                        "numOfRows": 100,
                        "pageNo": page,
                    },
                )
            )
            name = region.split()[-1]
            tmn = cat_value(f"w{k}", "TMN", extra=f" && fcstDate=='{tom}'")
            facts.append(fact(f"tmn{k}", f"{name} 내일 최저기온 (TMN)", tmn, "number", 0.1, subject=name))
            objs.append(
                f"{{g: '{name}', t: num(w{k}.items[?category=='TMN' && fcstDate=='{tom}'] | [0].fcstValue)}}"
            )
        joined = ", ".join(objs)
        facts.append(
            fact(
                "coldest",
                "가장 추운 구 (coldest)",
                f"$_.min_by([{joined}], &t).g",
                competitors=ranked_others(joined, "t", "g", highest=False),
            )
        )
        out.append(Spec("parallel", "weather", q, qe, c, steps, facts, difficulty="hard"))
    return out


def sido_weather_fanout() -> list[Spec]:
    """One 시도-wide grid-table lookup (every 구 and 동 row of a metropolitan city), then the
    forecast of each asked 구: every forecast call reads its cell from the whole table."""
    rows = [
        (
            "부산광역시",
            ["해운대구", "부산진구", "사하구", "금정구", "기장군"],
            "2026-10-22",
            "20:30",
            "부산 해운대구, 부산진구, 사하구, 금정구, 기장군 중에서 내일 낮 최고기온이 가장 높은 곳은 어디예요? 다섯 곳 최고기온도 각각 알려주세요.",
            "Busan's Haeundae-gu, Busanjin-gu, Saha-gu, Geumjeong-gu and Gijang-gun: tomorrow's high in each, and the "
            "warmest.",
        ),
        (
            "인천광역시",
            ["연수구", "남동구", "부평구", "계양구"],
            "2026-11-09",
            "21:15",
            "인천 연수구·남동구·부평구·계양구 내일 최고기온을 비교해서 제일 따뜻한 구를 알려줘.",
            "Incheon's Yeonsu, Namdong, Bupyeong and Gyeyang districts: compare tomorrow's highs; which is warmest?",
        ),
        (
            "대전광역시",
            ["동구", "중구", "서구", "유성구", "대덕구"],
            "2026-09-29",
            "19:50",
            "대전 다섯 개 구(동구, 중구, 서구, 유성구, 대덕구) 내일 최고기온이 각각 몇 도인지, 가장 더운 구는 어디인지 알려주세요.",
            "Daejeon's five districts (Dong, Jung, Seo, Yuseong, Daedeok): tomorrow's high in each, and the hottest.",
        ),
        (
            "대구광역시",
            ["수성구", "달서구", "중구", "북구"],
            "2026-10-08",
            "17:45",
            "대구 수성구, 달서구, 중구, 북구 가운데 내일 한낮 기온이 제일 높게 예보된 곳과 네 구의 예상 최고기온을 알려주세요.",
            "Daegu's Suseong, Dalseo, Jung and Buk districts: tomorrow's forecast highs and where it is hottest.",
        ),
        (
            "부산광역시",
            ["동래구", "남구", "수영구", "연제구", "영도구"],
            "2026-11-27",
            "18:55",
            "주말 나들이 계획 중이라 그래요. 부산 동래구·남구·수영구·연제구·영도구 내일 최고기온 예보를 비교하고 가장 포근한 곳을 골라 주세요.",
            "Planning an outing: compare tomorrow's forecast highs in Busan's Dongnae, Nam, Suyeong, Yeonje and Yeongdo "
            "districts and pick the mildest.",
        ),
    ]
    out = []
    for sido, gus, day, hm, q, qe in rows:
        c = clock(day, hm)
        vb, tom = vilage_base(c), ymd(c, 1)
        assert probe_total(c, GRID_LOOKUP, {"level1": sido}) <= 60, sido  # one page shown whole to a model
        steps = [step("g1", GRID_LOOKUP, {"level1": sido, "numOfRows": 100})]
        facts, objs = [], []
        for k, gu in enumerate(gus, 1):
            nx, ny = grid(f"{sido} {gu}")
            page = kma_page(c, vb, nx, ny, tom, "1500", "TMX", size=100)
            cell = f"$g1.items[?level2=='{gu}' && level3==''] | [0]"
            steps.append(
                step(
                    f"w{k}",
                    VILAGE,
                    {
                        "base_date": vb[0],
                        "base_time": vb[1],
                        "nx": f"{cell}.nx",
                        "ny": f"{cell}.ny",
                        "numOfRows": 100,
                        "pageNo": page,
                    },
                )
            )
            facts.append(
                fact(
                    f"tmx{k}",
                    f"{gu} 내일 최고기온 (TMX)",
                    cat_value(f"w{k}", "TMX", extra=f" && fcstDate=='{tom}'"),
                    "number",
                    0.1,
                    subject=gu,
                )
            )
            objs.append(
                f"{{g: '{gu}', t: num(w{k}.items[?category=='TMX' && fcstDate=='{tom}'] | [0].fcstValue)}}"
            )
        joined = ", ".join(objs)
        facts.append(
            fact(
                "warmest",
                "가장 따뜻한 구 (warmest)",
                f"$_.max_by([{joined}], &t).g",
                competitors=ranked_others(joined, "t", "g"),
            )
        )
        out.append(Spec("parallel", "weather", q, qe, c, steps, facts, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    tomorrow_rain_window,
    forecast_before_publication,
    three_city_outlook,
    holidays_count,
    district_weather_fanout,
    sido_weather_fanout,
]
