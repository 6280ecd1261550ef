"""District-administration task families: 법정동코드 lookups (stanregincd), Seoul open data
(prices, childcare, libraries) and a 구 dashboard across providers.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, step, ym
from kopa_inspect.task_data.plan_parts import (
    APT_TRADE,
    CHILDCARE,
    PRICES,
    RLTM,
    STAN,
    probe_total,
    ranked_others,
)


def district_codes() -> list[Spec]:
    """District administration: 법정동 structure questions a civil servant asks."""
    out = []
    c = clock("2026-10-02", "09:10")
    out.append(
        Spec(
            "pagination",
            "district",
            "서울특별시 종로구에 속한 법정동이 모두 몇 개인지, 그리고 마지막 순번의 동 이름이 뭔지 알려주세요.",
            "How many legal dongs belong to Jongno-gu, Seoul, and which is the last one listed?",
            c,
            [
                step("s1", STAN, {"locatadd_nm": "서울특별시 종로구", "flag": "Y"}),
                step(
                    "s2",
                    STAN,
                    {"locatadd_nm": "서울특별시 종로구", "flag": "Y", "numOfRows": "$s1.totalCount"},
                ),
            ],
            [
                fact(
                    "n",
                    "법정동 수 (legal dongs; the 구's own row is not one)",
                    "$s2.length(items[?umd_cd != '000'])",
                    "number",
                ),
                fact(
                    "last",
                    "마지막 순번의 동 (the last dong in 법정동 order)",
                    "$s2.max_by(items[?umd_cd != '000'], &locat_order).locallow_nm",
                ),
            ],
            state=("pages:s2",),
        )
    )
    return out


def cabbage_prices() -> list[Spec]:
    """Pagination over START_INDEX/END_INDEX: every market's price of one item."""
    rows = [
        (
            "배추",
            "2026-10-19",
            "07:50",
            "서울 시장·마트 전체에서 배추 가격이 가장 싼 곳이 어디고 얼마인지 알려줘.",
            "Across all Seoul markets: where is cabbage cheapest, and the price?",
        ),
    ]
    out = []
    for item, day, hm, q, qe in rows:
        c = clock(day, hm)
        total = probe_total(c, PRICES, {"START_INDEX": 1, "END_INDEX": 1, "A_NAME": item})
        n_pages = -(-total // 40)
        steps = [
            step(f"p{k}", PRICES, {"START_INDEX": (k - 1) * 40 + 1, "END_INDEX": k * 40, "A_NAME": item})
            for k in range(1, n_pages + 1)
        ]
        allrows = "[" + ", ".join(f"p{k}.items" for k in range(1, n_pages + 1)) + "][]"
        out.append(
            Spec(
                "pagination",
                "district",
                q,
                qe,
                c,
                steps,
                [
                    fact(
                        "market",
                        "최저가 시장",
                        f"$_.min_by({allrows}, &num(A_PRICE)).M_NAME",
                        competitors=f"$_.sort_by({allrows}, &num(A_PRICE))[1:].M_NAME",
                    ),
                    fact(
                        "price",
                        "최저가 (API unit 원)",
                        f"$_.min(nums({allrows}[].A_PRICE))",
                        "money",
                        unit="원",
                    ),
                ],
                state=tuple(f"pages:p{k}" for k in range(2, n_pages + 1)),
                difficulty="hard",
            )
        )
    return out


def childcare_by_district() -> list[Spec]:
    """District administration: 국공립 어린이집 counts per 구 in parallel (filter, then count)."""
    rows = [
        (
            ["강남구", "송파구", "노원구", "마포구", "종로구"],
            "2026-10-23",
            "10:10",
            "강남구, 송파구, 노원구, 마포구, 종로구 어린이집 현황에서 각 구 어린이집 수를 비교해 주세요. 구청 보육정책 자료로 쓰려고요.",
            "Gangnam, Songpa, Nowon, Mapo, Jongno: number of daycare centres per district (for a policy brief).",
        ),
    ]
    out = []
    for gus, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps = [
            step(f"s{k}", CHILDCARE, {"START_INDEX": 1, "END_INDEX": 5, "SIGUNNAME": g})
            for k, g in enumerate(gus, 1)
        ]
        facts = [
            fact(f"n{k}", f"{g} 어린이집 수", f"$s{k}.totalCount", "number", subject=g)
            for k, g in enumerate(gus, 1)
        ]
        out.append(Spec("parallel", "district", q, qe, c, steps, facts))
    return out


def district_libraries() -> list[Spec]:
    """Per-구 catalog services (JR, SP ...): pick the right tool per district, then compare."""
    rows = [
        (
            ["seoul_JRLibraryInfo", "seoul_SPLibraryInfo", "seoul_MPLibraryInfo", "seoul_GNLibraryInfo"],
            ["종로구", "송파구", "마포구", "강남구"],
            "2026-11-08",
            "13:00",
            "종로구, 송파구, 마포구, 강남구 구립도서관 수를 각각 알려주고, 네 구를 통틀어 좌석이 가장 많은 도서관을 찾아줘.",
            "Jongno, Songpa, Mapo, Gangnam: number of district libraries each, and the library with the most seats overall.",
        ),
    ]
    out = []
    for tools, gus, day, hm, q, qe in rows:
        c = clock(day, hm)
        for t in tools:  # one page of 50 holds every library of a 구
            assert probe_total(c, t, {"START_INDEX": 1, "END_INDEX": 1}) <= 50, t
        steps = [step(f"s{k}", t, {"START_INDEX": 1, "END_INDEX": 50}) for k, t in enumerate(tools, 1)]
        facts = [
            fact(f"n{k}", f"{g} 도서관 수", f"$s{k}.totalCount", "number", subject=g)
            for k, g in enumerate(gus, 1)
        ]
        allrows = "[" + ", ".join(f"s{k}.items" for k in range(1, len(tools) + 1)) + "][]"
        facts.append(
            fact(
                "top",
                "좌석 최다 도서관",
                f"$_.max_by({allrows}, &num(SEAT_CO)).LBRRY_NM",
                competitors=f"$_.reverse(sort_by({allrows}, &num(SEAT_CO)))[1:].LBRRY_NM",
            )
        )
        out.append(Spec("parallel", "district", q, qe, c, steps, facts))
    return out


def district_dashboard() -> list[Spec]:
    """A civil servant's weekly brief: per 구, the LAWD_CD lookup, this month's deals and the
    구's air station, for four 구 at once (12 calls in three waves)."""
    rows = [
        (
            ["강남구", "서초구", "송파구", "마포구"],
            "2026-10-05",
            "09:00",
            "주간 브리핑 자료예요. 강남·서초·송파·마포 네 구의 이번 달 아파트 매매 신고 건수와 각 구 도시대기측정소의 현재 미세먼지(PM10)를 표로 정리해 주세요.",
            "Weekly brief: for Gangnam, Seocho, Songpa, Mapo, this month's apartment sale count and each district station's PM10 now.",
        ),
        (
            ["서초구", "송파구", "종로구", "마포구"],
            "2026-09-04",
            "18:20",
            "서초·송파·종로·마포구 9월 들어 아파트 매매 신고 건수와 각 구 측정소 미세먼지(PM10)를 비교해서, 거래는 가장 많고 공기는 어떤지 한눈에 보여줘.",
            "Seocho, Songpa, Jongno, Mapo: September deals so far and each district station's PM10 side by side, and "
            "which district has the most deals.",
        ),
        (
            ["종로구", "마포구", "강남구"],
            "2026-11-04",
            "08:30",
            "종로구, 마포구, 강남구 세 곳 이번 달 들어 아파트 거래 건수랑 구청 근처 측정소 초미세먼지를 같이 비교해 줘. 법정동코드 조회부터 해야 할 거야.",
            "Jongno, Mapo, Gangnam: apartment deals so far this month and each district station's PM2.5 (start from the legal-dong codes).",
        ),
    ]
    out = []
    for gus, day, hm, q, qe in rows:
        c = clock(day, hm)
        key = "pm25Value" if len(gus) == 3 else "pm10Value"
        steps = []
        for k, g in enumerate(gus, 1):
            steps.append(step(f"a{k}", STAN, {"locatadd_nm": f"서울특별시 {g}"}))
        for k, _g in enumerate(gus, 1):
            steps.append(
                step(
                    f"b{k}",
                    APT_TRADE,
                    {"LAWD_CD": f"$a{k}.items[0].region_cd[:5]", "DEAL_YMD": ym(c), "numOfRows": 1},
                )
            )
        for k, g in enumerate(gus, 1):
            steps.append(
                step(f"c{k}", RLTM, {"stationName": g, "dataTerm": "DAILY", "ver": "1.3", "numOfRows": 1})
            )
        facts = []
        for k, g in enumerate(gus, 1):
            facts.append(fact(f"deals{k}", f"{g} 거래 건수", f"$b{k}.totalCount", "number", subject=g))
            facts.append(fact(f"air{k}", f"{g} {key}", f"$c{k}.items[0].{key}", "number", subject=g))
        if "가장 많" in q:
            objs = ", ".join(f"{{g: '{g}', n: b{k}.totalCount}}" for k, g in enumerate(gus, 1))
            facts.append(
                fact(
                    "most",
                    "거래가 가장 많은 구",
                    f"$_.max_by([{objs}], &n).g",
                    competitors=ranked_others(objs, "n", "g"),
                )
            )
        out.append(Spec("chain4plus", "district", q, qe, c, steps, facts, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    district_codes,
    cabbage_prices,
    childcare_by_district,
    district_libraries,
    district_dashboard,
]
