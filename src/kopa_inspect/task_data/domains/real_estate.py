"""Real-estate task families: apartment trades and rents (molit) reached through the
법정동코드 lookup (stanregincd), alone or with the weather and air of the top deal's 동.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import (
    Family,
    Spec,
    assert_empty,
    clock,
    fact,
    kma_page,
    month_word,
    probe,
    step,
    vilage_base,
    ym,
    ymd,
)
from kopa_inspect.task_data.plan_parts import (
    APT_RENT,
    APT_TRADE,
    GRID_LOOKUP,
    NEAR,
    RLTM,
    STAN,
    TM,
    VILAGE,
    cat_value,
    probe_total,
    ranked_others,
)

MAX_DEAL = "max_by(items, &num(dealAmount))"

# The other complexes of a trade list, by price (the winner's own other deals are dropped by the
# scorer, which never counts the expected name as a competitor).
OTHER_COMPLEXES = "reverse(sort_by(items, &num(dealAmount)))[1:].aptNm"


def apt_trade_top() -> list[Spec]:
    """법정동코드 lookup -> 실거래가: the classic code trap (10-digit region_cd -> 5-digit LAWD_CD)."""
    rows = [
        (
            "서울특별시 마포구",
            "2026-10-05",
            "10:05",
            "마포구에서 이번 달 들어 신고된 아파트 매매 중에 제일 비싸게 팔린 곳이 어디고 얼마예요? 지난달 매매 신고 건수, 그리고 이번 달 전세 최고 보증금도 알려주세요.",
            "Mapo-gu so far this month: the top apartment sale (complex, price), last month's number of sales, and "
            "this month's highest jeonse deposit.",
        ),
        (
            "서울특별시 서초구",
            "2026-11-04",
            "16:40",
            "서초구 이번 달 아파트 실거래가 중 최고가 거래가 궁금합니다. 단지명이랑 거래금액, 지난달 전체 매매 건수, 그리고 이번 달 전세 중 최고 보증금도요.",
            "Seocho-gu this month: the top apartment deal (complex, price), last month's number of sales, and this "
            "month's highest jeonse deposit.",
        ),
    ]
    out = []
    for region, day, hm, q, qe in rows:
        c = clock(day, hm)
        out.append(
            Spec(
                "chain3",
                "real_estate",
                q,
                qe,
                c,
                [
                    step("s1", STAN, {"locatadd_nm": region, "numOfRows": 100}),
                    step(
                        "s2",
                        APT_TRADE,
                        {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c), "numOfRows": 50},
                    ),
                    step(
                        "s3",
                        APT_RENT,
                        {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c), "numOfRows": 50},
                    ),
                    step(
                        "s4",
                        APT_TRADE,
                        {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c, -1), "numOfRows": 10},
                    ),
                ],
                [
                    fact(
                        "apt",
                        "최고가 단지명 (top complex)",
                        f"$s2.{MAX_DEAL}.aptNm",
                        "name",
                        competitors=f"$s2.{OTHER_COMPLEXES}",
                    ),
                    fact(
                        "price",
                        "최고 거래금액 (top price; API unit 만원)",
                        "$s2.max(nums(items[].dealAmount))",
                        "money",
                        unit="만원",
                    ),
                    fact(
                        "last", "지난달 매매 건수 (last month's number of sales)", "$s4.totalCount", "number"
                    ),
                    fact(
                        "jeonse",
                        "최고 전세 보증금 (top jeonse deposit; API unit 만원)",
                        "$s3.max(nums(items[?num(monthlyRent) == `0`].deposit))",
                        "money",
                        unit="만원",
                    ),
                ],
            )
        )
    return out


def apt_trade_count_compare() -> list[Spec]:
    """Parallel lookups then parallel trade queries: compare districts."""
    rows = [
        (
            ["서울특별시 강남구", "서울특별시 서초구", "서울특별시 송파구"],
            "2026-10-20",
            "11:00",
            -1,
            "강남·서초·송파 세 구 중에 지난달 아파트 매매가 가장 많았던 곳은 어디고 각각 몇 건이었나요? 그 전달 건수와도 비교해 주세요.",
            "Gangnam, Seocho, Songpa: which had the most apartment sales last month, with counts, compared with the "
            "month before?",
        ),
        (
            ["서울특별시 종로구", "서울특별시 마포구", "서울특별시 서초구"],
            "2026-11-18",
            "14:10",
            -1,
            "종로구, 마포구, 서초구 10월 아파트 거래 건수를 9월 건수와 함께 비교해줘.",
            "Compare October apartment sale counts in Jongno-gu, Mapo-gu and Seocho-gu, with their September counts.",
        ),
        (
            ["경기도 성남시 분당구", "경기도 수원시 영통구", "부산광역시 해운대구"],
            "2026-09-09",
            "17:25",
            -1,
            "분당구, 수원 영통구, 부산 해운대구의 8월 아파트 매매 건수를 각각 알려주시고 제일 많은 곳도 짚어주세요. 7월보다 늘었는지도요.",
            "Bundang, Yeongtong (Suwon), Haeundae (Busan): August apartment sale counts, the largest, and the July "
            "counts to see whether they rose.",
        ),
    ]
    out = []
    for regions, day, hm, months, q, qe in rows:
        c = clock(day, hm)
        n = len(regions)
        steps = [step(f"a{i}", STAN, {"locatadd_nm": r, "numOfRows": 100}) for i, r in enumerate(regions, 1)]
        steps += [
            step(
                f"b{i}",
                APT_TRADE,
                {"LAWD_CD": f"$a{i}.items[0].region_cd[:5]", "DEAL_YMD": ym(c, months), "numOfRows": 10},
            )
            for i in range(1, n + 1)
        ]
        # the month before, asked for the comparison
        steps += [
            step(
                f"c{i}",
                APT_TRADE,
                {"LAWD_CD": f"$a{i}.items[0].region_cd[:5]", "DEAL_YMD": ym(c, months - 1), "numOfRows": 10},
            )
            for i in range(1, n + 1)
        ]
        # each count names its month: an answer tells the two months' counts apart by them ("10월 200건(9월 234건)")
        now, before = month_word(ym(c, months)), month_word(ym(c, months - 1))
        facts = [
            fact(
                f"n{i}",
                f"{r} {now} 거래 건수 (deal count)",
                f"$b{i}.totalCount",
                "number",
                subject=r.split()[-1],
            )
            for i, r in enumerate(regions, 1)
        ]
        facts += [
            fact(
                f"p{i}",
                f"{r} 그 전달 {before} 거래 건수 (previous month)",
                f"$c{i}.totalCount",
                "number",
                subject=r.split()[-1],
            )
            for i, r in enumerate(regions, 1)
        ]
        names = ", ".join(f"{{g: '{r.split()[-1]}', n: b{i}.totalCount}}" for i, r in enumerate(regions, 1))
        # asked only where the question asks which district had the most ("가장 많았던", "제일 많은")
        facts.append(
            fact(
                "most",
                "거래가 가장 많은 구 (district with most deals)",
                f"$_.max_by([{names}], &n).g",
                "name",
                required="많" in q,
                competitors=ranked_others(names, "n", "g"),
            )
        )
        out.append(Spec("parallel", "real_estate", q, qe, c, steps, facts))
    return out


def apt_trade_all_pages() -> list[Spec]:
    """Pagination: the default 10-row page hides deals; the answer needs every page."""
    rows = [
        (
            "11710",
            "2026-10-05",
            "13:00",
            3,
            "송파구(법정동 앞자리 11710) 이번 달 아파트 매매 신고분 전체에서 가장 싸게 거래된 건의 단지명과 금액은?",
            "Songpa-gu (11710), all apartment sales this month: the cheapest deal's complex and price?",
        ),
    ]
    out = []
    for i, (lawd, day, hm, n_pages, q, qe) in enumerate(rows):
        c = clock(day, hm)
        base = {"LAWD_CD": lawd, "DEAL_YMD": ym(c)}
        steps = [step("p1", APT_TRADE, base)]
        steps += [
            step(f"p{k}", APT_TRADE, {**base, "pageNo": k, "numOfRows": "$p1.numOfRows"})
            for k in range(2, n_pages + 1)
        ]
        allrows = "[" + ", ".join(f"p{k}.items" for k in range(1, n_pages + 1)) + "][]"
        if i == 0:
            facts = [
                fact(
                    "apt", "최저가 단지 (cheapest complex)", f"$_.min_by({allrows}, &num(dealAmount)).aptNm"
                ),
                fact(
                    "price",
                    "최저 거래금액 (lowest price; API unit 만원)",
                    f"$_.min(nums({allrows}[].dealAmount))",
                    "money",
                    unit="만원",
                ),
            ]
        elif i == 1:
            facts = [
                fact("apt", "최대 면적 단지 (complex)", f"$_.max_by({allrows}, &num(excluUseAr)).aptNm"),
                fact("area", "전용면적 (area m2)", f"$_.max(nums({allrows}[].excluUseAr))", "number", 0.01),
            ]
        else:
            facts = [
                fact("n", "전체 건수 (count)", "$p1.totalCount", "number"),
                fact(
                    "big",
                    "20억 이상 건수 (deals >= 200,000 만원)",
                    f"$_.length({allrows} | [?num(dealAmount) >= `200000`])",
                    "number",
                ),
            ]
        out.append(
            Spec(
                "pagination",
                "real_estate",
                q,
                qe,
                c,
                steps,
                facts,
                state=tuple(f"pages:p{k}" for k in range(2, n_pages + 1)),
            )
        )
    return out


def apt_rent_jeonse() -> list[Spec]:
    """3-call chain: code lookup, then 전월세 + 매매 of the same month (parallel) for a 전세가율 view."""
    rows = [
        (
            "서울특별시 종로구",
            "2026-10-05",
            "12:30",
            "종로구 이번 달 들어 신고된 아파트 전세 평균 보증금이랑 매매 평균가를 비교해서 알려줘. 지난달 매매 신고 건수도 같이 봐 줘.",
            "Jongno-gu this month so far: average jeonse deposit vs average sale price of apartments, and last month's "
            "number of sales.",
        ),
    ]
    out = []
    for region, day, hm, q, qe in rows:
        c = clock(day, hm)
        m = ym(c)
        out.append(
            Spec(
                "chain3",
                "real_estate",
                q,
                qe,
                c,
                [
                    step("s1", STAN, {"locatadd_nm": region, "numOfRows": 100}),
                    step(
                        "s2",
                        APT_RENT,
                        {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": m, "numOfRows": 40},
                    ),
                    step(
                        "s3",
                        APT_TRADE,
                        {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": m, "numOfRows": 40},
                    ),
                    step(
                        "s4",
                        APT_TRADE,
                        {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c, -1), "numOfRows": 10},
                    ),
                ],
                [
                    fact(
                        "jeonse",
                        "전세 평균 보증금 (mean jeonse deposit; API unit 만원)",
                        "$s2.avg(nums(items[?num(monthlyRent) == `0`].deposit))",
                        "money",
                        unit="만원",
                        rel_tol=0.01,
                    ),
                    fact(
                        "sale",
                        "매매 평균가 (mean sale price; API unit 만원)",
                        "$s3.avg(nums(items[].dealAmount))",
                        "money",
                        unit="만원",
                        rel_tol=0.01,
                    ),
                    fact(
                        "last", "지난달 매매 건수 (last month's number of sales)", "$s4.totalCount", "number"
                    ),
                ],
            )
        )
    return out


def latest_month_fallback() -> list[Spec]:
    """Error recovery from the world: on the first day of a month nothing is reported yet for the
    new month (MOLIT answers OK with no rows), so "the latest deals" are last month's."""
    rows = [
        (
            "서울특별시 강남구",
            "2026-10-01",
            "08:20",
            "강남구에서 가장 최근 달에 신고된 아파트 매매 중 최고가 거래 단지와 금액 알려줘요.",
            "Gangnam-gu: in the most recent month with reported apartment sales, the top deal (complex, price).",
        ),
        (
            "서울특별시 마포구",
            "2026-11-01",
            "09:10",
            "마포구 아파트 매매 실거래 중 제일 최근 달 기준으로 가장 싸게 팔린 곳이 어디고 얼마예요?",
            "Mapo-gu: in the latest month with reported apartment sales, the cheapest deal (complex, price).",
        ),
    ]
    out = []
    for i, (region, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        lawd = {"서울특별시 강남구": "11680", "서울특별시 마포구": "11440"}[region]
        assert_empty(c, APT_TRADE, {"LAWD_CD": lawd, "DEAL_YMD": ym(c)})
        # 25 rows a page: a page of 50 trades is longer than what a model is shown of one call.
        n_pages = -(-probe_total(c, APT_TRADE, {"LAWD_CD": lawd, "DEAL_YMD": ym(c, -1)}) // 25)
        last = {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c, -1), "numOfRows": 25}
        steps = [
            step("s1", STAN, {"locatadd_nm": region, "numOfRows": 100}),
            step(
                "e1",
                APT_TRADE,
                {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c)},
                required=False,
                note="nothing reported yet for the new month (OK, no rows): go back one month",
            ),
        ]
        steps += [
            step(f"p{k}", APT_TRADE, {**last, "pageNo": k} if k > 1 else last) for k in range(1, n_pages + 1)
        ]
        allrows = "[" + ", ".join(f"p{k}.items" for k in range(1, n_pages + 1)) + "][]"
        if i == 0:
            ranked = f"reverse(sort_by({allrows}, &num(dealAmount)))"
            facts = [
                fact(
                    "apt",
                    "최고가 단지 (top complex)",
                    f"$_.{ranked}[0].aptNm",
                    competitors=f"$_.{ranked}[1:].aptNm",
                ),
                fact(
                    "price",
                    "최고 거래금액 (API unit 만원)",
                    f"$_.max(nums({allrows}[].dealAmount))",
                    "money",
                    unit="만원",
                ),
            ]
        else:
            ranked = f"sort_by({allrows}, &num(dealAmount))"
            facts = [
                fact(
                    "apt",
                    "최저가 단지 (cheapest complex)",
                    f"$_.{ranked}[0].aptNm",
                    competitors=f"$_.{ranked}[1:].aptNm",
                ),
                fact(
                    "price",
                    "최저 거래금액 (API unit 만원)",
                    f"$_.min(nums({allrows}[].dealAmount))",
                    "money",
                    unit="만원",
                ),
            ]
        facts.append(
            fact("month", "기준 달 (the month used)", "$p1.items[0].dealMonth", "number", required=False)
        )
        out.append(
            Spec(
                "error_recovery",
                "real_estate",
                q,
                qe,
                c,
                steps,
                facts,
                state=tuple(f"pages:p{k}" for k in range(2, n_pages + 1)),
            )
        )
    return out


def top_complex_air() -> list[Spec]:
    """MOLIT output (umdNm of the top deal) feeds AirKorea's 동 lookup: a cross-provider junction."""
    rows = [
        (
            "서울특별시 마포구",
            "2026-10-05",
            "15:30",
            "마포구에서 이번 달 최고가로 팔린 아파트가 있는 동네 근처 측정소의 지금 초미세먼지 농도가 궁금해요.",
            "The neighbourhood of Mapo's top apartment deal this month: PM2.5 now at its nearest station.",
        ),
        (
            "서울특별시 송파구",
            "2026-11-05",
            "10:50",
            "송파구 이번 달 최고가 아파트 거래가 나온 동이 어디고, 그 동 근처 측정소의 현재 미세먼지 수치는 얼마예요?",
            "Songpa's top deal this month: which dong, and the PM10 now at the nearest station?",
        ),
        (
            "경기도 성남시 분당구",
            "2026-09-04",
            "17:05",
            "분당구 9월 최고가 거래 단지의 동(법정동) 이름과, 그 동 근처 측정소의 통합대기지수를 알려주세요.",
            "Bundang's top deal in September: its dong, and the CAI at the nearest station.",
        ),
    ]
    out = []
    for i, (region, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", STAN, {"locatadd_nm": region}),
            step(
                "s2", APT_TRADE, {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c), "numOfRows": 50}
            ),
            step("t1", TM, {"umdName": f"$s2.{MAX_DEAL}.umdNm"}),
            step("t2", NEAR, {"tmX": "$t1.items[0].tmX", "tmY": "$t1.items[0].tmY"}),
            step(
                "t3",
                RLTM,
                {
                    "stationName": "$t2.items[0].stationName",
                    "dataTerm": "DAILY",
                    "ver": "1.3",
                    "numOfRows": 1,
                },
            ),
        ]
        key = ["pm25Value", "pm10Value", "khaiValue"][i]
        facts = [
            fact("dong", "최고가 거래 동", f"$s2.{MAX_DEAL}.umdNm"),
            fact("station", "측정소", "$t2.items[0].stationName"),
            fact("value", key, f"$t3.items[0].{key}", "number"),
        ]
        out.append(Spec("chain4plus", "real_estate", q, qe, c, steps, facts, difficulty="hard"))
    return out


def top_deal_dong_weather() -> list[Spec]:
    """Across four providers: the month's top deal (MOLIT) -> its 동 in the grid table (KMA) ->
    tomorrow's forecast there, and the same 동's air station (AirKorea): 8 calls."""
    rows = [
        (
            "서울특별시 송파구",
            "2026-10-07",
            "19:30",
            "송파구에서 이번 달 최고가로 팔린 아파트가 있는 동네에 내일 가보려고 해요. 그 단지와 동 이름, 그 동네 내일 낮 최고기온, 지금 근처 미세먼지(PM10)를 알려줘.",
            "Visiting the neighbourhood of Songpa's top apartment deal this month tomorrow: the complex and its dong, "
            "tomorrow's high there, and the PM10 nearby now.",
        ),
        (
            "서울특별시 마포구",
            "2026-11-06",
            "08:40",
            "마포구 이번 달 최고가 아파트 거래가 나온 동의 내일 최고기온과 현재 근처 측정소 초미세먼지 농도를 알려주세요. 단지 이름도요.",
            "Mapo-gu's top deal this month: the complex, tomorrow's high in its dong and the PM2.5 at the nearest station now.",
        ),
    ]
    out = []
    for i, (region, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        lawd = {"서울특별시 송파구": "11710", "서울특별시 마포구": "11440"}[region]
        assert probe_total(c, APT_TRADE, {"LAWD_CD": lawd, "DEAL_YMD": ym(c)}) <= 50, (
            "the month must fit one page"
        )
        top = probe(c, APT_TRADE, {"LAWD_CD": lawd, "DEAL_YMD": ym(c), "numOfRows": 50})["items"]
        dong = max(top, key=lambda r: float(str(r["dealAmount"]).replace(",", "")))["umdNm"]
        vb, tom = vilage_base(c), ymd(c, 1)
        hits = [r for r in probe(c, GRID_LOOKUP, {"level2": region.split()[-1], "level3": dong})["items"]]
        page = kma_page(c, vb, hits[0]["nx"], hits[0]["ny"], tom, "1500", "TMX", size=100)
        key = "pm10Value" if i == 0 else "pm25Value"
        umd = f"$s2.{MAX_DEAL}.umdNm"
        gu = region.split()[-1]
        steps = [
            step("s1", STAN, {"locatadd_nm": region, "numOfRows": 100}),
            step(
                "s2", APT_TRADE, {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c), "numOfRows": 50}
            ),
            step("g1", GRID_LOOKUP, {"level1": "서울특별시", "level2": region.split()[-1], "level3": umd}),
            step(
                "w1",
                VILAGE,
                {
                    "base_date": vb[0],
                    "base_time": vb[1],
                    "nx": "$g1.items[0].nx",
                    "ny": "$g1.items[0].ny",
                    "numOfRows": 100,
                    "pageNo": page,
                },
            ),
            step("t1", TM, {"umdName": umd}),
            # the 동 name search answers every 동 of that name (창전동: 이천시 first, then 마포구):
            # take the row of the asked 구
            step(
                "t2",
                NEAR,
                {
                    "tmX": f"$t1.items[?sggName=='{gu}'] | [0].tmX",
                    "tmY": f"$t1.items[?sggName=='{gu}'] | [0].tmY",
                },
            ),
            step(
                "t3",
                RLTM,
                {
                    "stationName": "$t2.items[0].stationName",
                    "dataTerm": "DAILY",
                    "ver": "1.3",
                    "numOfRows": 1,
                },
            ),
        ]
        facts = [
            fact("apt", "최고가 단지", f"$s2.{MAX_DEAL}.aptNm", competitors=f"$s2.{OTHER_COMPLEXES}"),
            fact("dong", "그 단지의 동", umd),
            fact(
                "tmx",
                "그 동의 내일 최고기온 (TMX)",
                cat_value("w1", "TMX", extra=f" && fcstDate=='{tom}'"),
                "number",
                0.1,
            ),
            fact("air", f"근처 측정소 {key}", f"$t3.items[0].{key}", "number"),
        ]
        out.append(Spec("chain4plus", "real_estate", q, qe, c, steps, facts, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    apt_trade_top,
    apt_trade_count_compare,
    apt_trade_all_pages,
    apt_rent_jeonse,
    latest_month_fallback,
    top_complex_air,
    top_deal_dong_weather,
]
