"""The hand-written KOPA-Bench task families (imported by build.py, which registers them).

One function per kind of question. Each lists its instances by hand (region, date, entity and
the Korean wording differ per instance) and returns :class:`Spec` records. Gold plans follow the
real contracts (reference/korean-apis.md); facts point into the plan outputs.
"""

from __future__ import annotations

from kopa_inspect.task_data.build import (
    Spec,
    clock,
    fact,
    family,
    mid_tmfc,
    ncst_base,
    refusal,
    step,
    vilage_base,
    ym,
    ymd,
)

# Tool ids ("<platform>_<operationName>").
STAN = "stanregincd_getStanReginCdList"
APT_TRADE = "molit_getRTMSDataSvcAptTrade"
APT_RENT = "molit_getRTMSDataSvcAptRent"
OFFI_TRADE = "molit_getRTMSDataSvcOffiTrade"

MAX_DEAL = "max_by(items, &num(dealAmount))"


# =============================================================================================
# district administration + real estate (stanregincd, molit)
# =============================================================================================


@family
def apt_trade_top() -> list[Spec]:
    """법정동코드 lookup -> 실거래가: the classic code trap (10-digit region_cd -> 5-digit LAWD_CD)."""
    rows = [
        ("서울특별시 마포구", "2026-10-05", "10:05",
         "마포구에서 이번 달 들어 신고된 아파트 거래 중에 제일 비싸게 팔린 곳이 어디예요? 금액도 알려주세요.",
         "Which apartment sold for the most in Mapo-gu so far this month, and for how much?"),
        ("서울특별시 서초구", "2026-11-04", "16:40",
         "서초구 이번 달 아파트 실거래가 중 최고가 거래가 궁금합니다. 단지명이랑 거래금액이요.",
         "Seocho-gu: the highest apartment deal so far this month (complex and price)?"),
        ("경기도 성남시 분당구", "2026-09-03", "09:30",
         "분당구 9월 아파트 매매 신고분에서 최고가로 거래된 단지와 가격을 찾아줘.",
         "Bundang-gu, September so far: the complex with the top apartment sale price, and the price."),
    ]
    out = []
    for region, day, hm, q, qe in rows:
        c = clock(day, hm)
        out.append(Spec(
            "chain2", "real_estate", q, qe, c,
            [step("s1", STAN, {"locatadd_nm": region, "numOfRows": 1}),
             step("s2", APT_TRADE, {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": ym(c), "numOfRows": 50})],
            [fact("apt", "최고가 단지명 (top complex)", f"$s2.{MAX_DEAL}.aptNm", "name"),
             fact("price", "최고 거래금액(만원) (top price, 10k KRW)", "$s2.max(nums(items[].dealAmount))", "number")],
        ))
    return out


@family
def apt_trade_count_compare() -> list[Spec]:
    """Parallel lookups then parallel trade queries: compare districts."""
    rows = [
        (["서울특별시 강남구", "서울특별시 서초구", "서울특별시 송파구"], "2026-10-20", "11:00", -1,
         "강남·서초·송파 세 구 중에 지난달 아파트 매매가 가장 많았던 곳은 어디고 각각 몇 건이었나요?",
         "Gangnam, Seocho, Songpa: which had the most apartment sales last month, with counts?"),
        (["서울특별시 종로구", "서울특별시 마포구"], "2026-11-18", "14:10", -1,
         "종로구랑 마포구 10월 아파트 거래 건수 비교해줘.",
         "Compare October apartment sale counts in Jongno-gu and Mapo-gu."),
        (["경기도 성남시 분당구", "경기도 수원시 영통구", "부산광역시 해운대구"], "2026-09-09", "17:25", -1,
         "분당구, 수원 영통구, 부산 해운대구의 8월 아파트 매매 건수를 각각 알려주시고 제일 많은 곳도 짚어주세요.",
         "Bundang, Yeongtong (Suwon), Haeundae (Busan): August apartment sale counts and the largest."),
    ]
    out = []
    for regions, day, hm, months, q, qe in rows:
        c = clock(day, hm)
        n = len(regions)
        steps = [step(f"a{i}", STAN, {"locatadd_nm": r, "numOfRows": 1}) for i, r in enumerate(regions, 1)]
        steps += [step(f"b{i}", APT_TRADE, {"LAWD_CD": f"$a{i}.items[0].region_cd[:5]", "DEAL_YMD": ym(c, months),
                                           "numOfRows": 10}) for i in range(1, n + 1)]
        facts = [fact(f"n{i}", f"{r} 거래 건수 (deal count)", f"$b{i}.totalCount", "number")
                 for i, r in enumerate(regions, 1)]
        names = ", ".join(f"{{g: '{r.split()[-1]}', n: b{i}.totalCount}}" for i, r in enumerate(regions, 1))
        facts.append(fact("most", "거래가 가장 많은 구 (district with most deals)", f"$_.max_by([{names}], &n).g", "name"))
        out.append(Spec("parallel", "real_estate", q, qe, c, steps, facts))
    return out


@family
def apt_trade_all_pages() -> list[Spec]:
    """Pagination: the default 10-row page hides deals; the answer needs every page."""
    rows = [
        ("11710", "2026-10-05", "13:00", 3,
         "송파구(법정동 앞자리 11710) 이번 달 아파트 매매 신고분 전체에서 가장 싸게 거래된 건의 단지명과 금액은?",
         "Songpa-gu (11710), all apartment sales this month: the cheapest deal's complex and price?"),
        ("41135", "2026-10-05", "08:50", 3,
         "지역코드 41135(분당구) 이번 달 아파트 거래를 전부 훑어서 전용면적이 가장 넓은 거래를 찾아줘. 단지명과 면적이요.",
         "Area code 41135, this month: across all deals, the one with the largest floor area (complex, area)."),
        ("11650", "2026-10-05", "19:15", 2,
         "서초구(11650) 10월 아파트 매매가 지금까지 몇 건이고, 그중 20억 이상 거래는 몇 건인지 세어줘.",
         "Seocho (11650), October so far: how many apartment sales, and how many at 2bn KRW or more?"),
    ]
    out = []
    for i, (lawd, day, hm, n_pages, q, qe) in enumerate(rows):
        c = clock(day, hm)
        base = {"LAWD_CD": lawd, "DEAL_YMD": ym(c)}
        steps = [step("p1", APT_TRADE, base)]
        steps += [step(f"p{k}", APT_TRADE, {**base, "pageNo": k, "numOfRows": "$p1.numOfRows"})
                  for k in range(2, n_pages + 1)]
        allrows = "[" + ", ".join(f"p{k}.items" for k in range(1, n_pages + 1)) + "][]"
        if i == 0:
            facts = [fact("apt", "최저가 단지 (cheapest complex)", f"$_.min_by({allrows}, &num(dealAmount)).aptNm"),
                     fact("price", "최저 거래금액 (lowest price)", f"$_.min(nums({allrows}[].dealAmount))", "number")]
        elif i == 1:
            facts = [fact("apt", "최대 면적 단지 (complex)", f"$_.max_by({allrows}, &num(excluUseAr)).aptNm"),
                     fact("area", "전용면적 (area m2)", f"$_.max(nums({allrows}[].excluUseAr))", "number", 0.01)]
        else:
            facts = [fact("n", "전체 건수 (count)", "$p1.totalCount", "number"),
                     fact("big", "20억 이상 건수 (deals >= 200,000 만원)",
                          f"$_.length({allrows}[?num(dealAmount) >= `200000`])", "number")]
        out.append(Spec("pagination", "real_estate", q, qe, c, steps, facts,
                        state=tuple(f"pages:p{k}" for k in range(2, n_pages + 1))))
    return out


@family
def apt_rent_jeonse() -> list[Spec]:
    """3-call chain: code lookup, then 전월세 + 매매 of the same month (parallel) for a 전세가율 view."""
    rows = [
        ("서울특별시 종로구", "2026-10-05", "12:30",
         "종로구 이번 달 들어 신고된 아파트 전세 평균 보증금이랑 매매 평균가를 비교해서 알려줘.",
         "Jongno-gu this month so far: average jeonse deposit vs average sale price of apartments."),
        ("경기도 수원시 영통구", "2026-10-05", "18:00",
         "수원 영통구 10월 들어 아파트 전세 보증금 평균하고 매매가 평균 좀 뽑아줄래?",
         "Yeongtong-gu (Suwon), October so far: mean apartment jeonse deposit and mean sale price."),
        ("제주특별자치도 제주시", "2026-10-06", "10:45",
         "제주시에서 이번 달에 계약된 아파트 전세 보증금 평균과 같은 기간 매매 평균가격 알려주세요.",
         "Jeju-si, this month so far: mean jeonse deposit and mean apartment sale price."),
    ]
    out = []
    for region, day, hm, q, qe in rows:
        c = clock(day, hm)
        m = ym(c)
        out.append(Spec(
            "chain3", "real_estate", q, qe, c,
            [step("s1", STAN, {"locatadd_nm": region, "numOfRows": 1}),
             step("s2", APT_RENT, {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": m, "numOfRows": 40}),
             step("s3", APT_TRADE, {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": m, "numOfRows": 40})],
            [fact("jeonse", "전세 평균 보증금(만원) (mean jeonse deposit)",
                  "$s2.avg(nums(items[?num(monthlyRent) == `0`].deposit))", "number", 50.0),
             fact("sale", "매매 평균가(만원) (mean sale price)", "$s3.avg(nums(items[].dealAmount))", "number", 50.0)],
        ))
    return out


@family
def district_codes() -> list[Spec]:
    """District administration: 법정동 structure questions a civil servant asks."""
    out = []
    c = clock("2026-10-02", "09:10")
    out.append(Spec(
        "pagination", "district",
        "서울특별시 종로구에 속한 법정동이 모두 몇 개인지, 그리고 마지막 순번의 동 이름이 뭔지 알려주세요.",
        "How many legal dongs belong to Jongno-gu, Seoul, and which is the last one listed?", c,
        [step("s1", STAN, {"locatadd_nm": "서울특별시 종로구", "flag": "Y"}),
         step("s2", STAN, {"locatadd_nm": "서울특별시 종로구", "flag": "Y", "numOfRows": "$s1.totalCount"})],
        [fact("n", "법정동 수 (count incl. the 구 row)", "$s2.totalCount", "number"),
         fact("last", "마지막 동 (last dong)", "$s2.items[-1].locallow_nm")],
        state=("pages:s2",),
    ))
    c = clock("2026-11-05", "15:30")
    out.append(Spec(
        "parallel", "district",
        "제주시와 서귀포시의 법정동코드 10자리를 각각 알려줘. 공문에 써야 해서요.",
        "Give the 10-digit legal-dong codes of Jeju-si and Seogwipo-si (for an official letter).", c,
        [step("s1", STAN, {"locatadd_nm": "제주특별자치도 제주시", "numOfRows": 1}),
         step("s2", STAN, {"locatadd_nm": "제주특별자치도 서귀포시", "numOfRows": 1})],
        [fact("jeju", "제주시 코드", "$s1.items[0].region_cd", "exact"),
         fact("sgp", "서귀포시 코드", "$s2.items[0].region_cd", "exact")],
    ))
    return out
