"""Finance task families: company filings and accounts (dart), business status (nts) and Bank
of Korea statistics (ecos).
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, step, ymd
from kopa_inspect.task_data.plan_parts import (
    ACCOUNTS,
    COMPANY,
    CORP,
    DISCLOSURES,
    DRUG,
    ECOS_ITEMS,
    ECOS_SEARCH,
    ECOS_TABLES,
    NTS,
    ranked_others,
)


def _corp(step_id: str, name: str) -> str:
    return f"${step_id}.items[?corp_name=='{name}'].corp_code | [0]"


def _acct(step_id: str, account: str) -> str:
    return f"${step_id}.items[?account_nm=='{account}' && fs_div=='CFS'].thstrm_amount | [0]"


def company_profile_and_sales() -> list[Spec]:
    """Company name -> corp_code -> profile, latest filings and annual accounts (4 calls)."""
    rows = [
        (
            "삼성전자",
            "2026-10-15",
            "09:00",
            "삼성전자 대표이사가 누구고, 올해 낸 정기공시 중 가장 최근 보고서 이름, 그리고 2025년 연결 매출액을 알려줘.",
            "Samsung Electronics: CEO, the latest periodic report this year, and 2025 consolidated revenue.",
        ),
        (
            "현대자동차",
            "2026-11-10",
            "17:45",
            "현대자동차 본사 주소랑 2025 사업연도 연결기준 영업이익, 그리고 올해 마지막으로 제출한 정기보고서가 뭔지 정리해 주세요.",
            "Hyundai Motor: head-office address, 2025 consolidated operating profit, and the last periodic report this year.",
        ),
        (
            "카카오",
            "2026-09-08",
            "13:20",
            "카카오 대표자 이름하고 2025년 당기순이익(연결), 올해 제출된 정기공시 건수를 알려주세요.",
            "Kakao: the CEO, 2025 consolidated net income, and the number of periodic reports filed this year.",
        ),
    ]
    out = []
    for i, (name, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", CORP, {"corp_name": name}),
            step("s2", COMPANY, {"corp_code": _corp("s1", name)}),
            step(
                "s3",
                DISCLOSURES,
                {
                    "corp_code": _corp("s1", name),
                    "bgn_de": f"{day[:4]}0101",
                    "end_de": ymd(c),
                    "pblntf_ty": "A",
                },
            ),
            step(
                "s4", ACCOUNTS, {"corp_code": _corp("s1", name), "bsns_year": "2025", "reprt_code": "11011"}
            ),
        ]
        if i == 0:
            facts = [
                fact("ceo", "대표이사", "$s2.items[0].ceo_nm"),
                fact("report", "최근 정기공시", "$s3.max_by(items, &rcept_dt).report_nm"),
                fact(
                    "sales",
                    "2025 연결 매출액 (API unit 원)",
                    _acct("s4", "매출액"),
                    "money",
                    unit="원",
                    rel_tol=0.005,
                ),
            ]
        elif i == 1:
            facts = [
                fact("addr", "본사 주소", "$s2.items[0].adres"),
                fact(
                    "op",
                    "2025 연결 영업이익 (API unit 원)",
                    _acct("s4", "영업이익"),
                    "money",
                    unit="원",
                    rel_tol=0.005,
                ),
                fact("report", "최근 정기공시", "$s3.max_by(items, &rcept_dt).report_nm"),
            ]
        else:
            facts = [
                fact("ceo", "대표자", "$s2.items[0].ceo_nm"),
                fact(
                    "ni",
                    "2025 연결 당기순이익 (API unit 원)",
                    _acct("s4", "당기순이익"),
                    "money",
                    unit="원",
                    rel_tol=0.005,
                ),
                fact("n", "올해 정기공시 건수", "$s3.totalCount", "number"),
            ]
        out.append(Spec("chain4plus", "finance", q, qe, c, steps, facts))
    return out


def revenue_compare() -> list[Spec]:
    """Parallel: several companies' codes, then their accounts; compare (2n calls)."""
    rows = [
        (
            ["삼성전자", "현대자동차", "카카오", "NAVER"],
            "2026-10-26",
            "10:40",
            "삼성전자, 현대자동차, 카카오, 네이버(NAVER)의 2025년 연결 매출액을 비교해서 가장 큰 회사와 금액을 알려주세요.",
            "Samsung, Hyundai Motor, Kakao, NAVER: 2025 consolidated revenue; which is largest, and its amount?",
        ),
        (
            ["NAVER", "카카오", "현대자동차"],
            "2026-11-23",
            "15:00",
            "네이버(NAVER), 카카오, 현대자동차 2025년 영업이익 중 어디가 제일 많이 벌었어요? 세 회사 금액도요.",
            "NAVER, Kakao, Hyundai Motor: whose 2025 operating profit was highest, and all three amounts?",
        ),
    ]
    out = []
    for i, (names, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        acct = "매출액" if i == 0 else "영업이익"
        steps = [step(f"c{k}", CORP, {"corp_name": n}) for k, n in enumerate(names, 1)]
        steps += [
            step(
                f"f{k}",
                ACCOUNTS,
                {"corp_code": _corp(f"c{k}", n), "bsns_year": "2025", "reprt_code": "11011"},
            )
            for k, n in enumerate(names, 1)
        ]
        # row 0 asks the largest company and its amount only (삼성전자, the first named, is the largest);
        # row 1 asks all three amounts
        facts = [
            fact(
                f"v{k}",
                f"{n} {acct} (API unit 원)",
                _acct(f"f{k}", acct),
                "money",
                unit="원",
                rel_tol=0.005,
                required=i == 1 or k == 1,
                subject=n,
            )
            for k, n in enumerate(names, 1)
        ]
        objs = ", ".join(
            f"{{n: '{n}', v: num(f{k}.items[?account_nm=='{acct}' && fs_div=='CFS'].thstrm_amount | [0])}}"
            for k, n in enumerate(names, 1)
        )
        facts.append(
            fact(
                "top", "가장 큰 회사", f"$_.max_by([{objs}], &v).n", competitors=ranked_others(objs, "v", "n")
            )
        )
        out.append(Spec("parallel", "finance", q, qe, c, steps, facts))
    return out


def maker_business_status() -> list[Spec]:
    """MFDS -> NTS across providers: a drug maker's 사업자등록번호, then its tax status."""
    rows = [
        (
            "게보린",
            "2026-10-06",
            "11:30",
            "약국 거래처 등록하려는데 게보린 만드는 제약사 사업자등록번호가 뭐고, 국세청 기준으로 지금 계속사업자인지 확인해 줘.",
            "Registering a supplier: the business number of Geworin's maker and its NTS status (active?).",
        ),
    ]
    out = []
    for i, (drug, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [step("s1", DRUG, {"itemName": drug}), step("s2", NTS, {"b_no": ["$s1.items[0].bizrno"]})]
        facts = [
            fact("maker", "제조사", "$s1.items[0].entpName"),
            fact("bno", "사업자등록번호", "$s1.items[0].bizrno", "exact"),
            fact("status", "사업자 상태", "$s2.items[0].b_stt"),
        ]
        if i == 1:
            facts.append(fact("tax", "과세유형", "$s2.items[0].tax_type"))
        out.append(Spec("chain2", "finance", q, qe, c, steps, facts))
    return out


def base_rate_trend() -> list[Spec]:
    """ECOS code hunt: table list -> item list -> series (3 calls)."""
    rows = [
        (
            "722Y001",
            "한국은행 기준금리",
            "M",
            "202601",
            "202609",
            "2026-10-15",
            "10:00",
            "올해 1월부터 9월까지 한국은행 기준금리가 어떻게 변했는지 월별로 보고, 9월 값이 얼마인지, 작년 9월에는 얼마였는지 알려줘.",
            "Bank of Korea base rate Jan-Sep this year, monthly; what was it in September, and in September last year?",
        ),
        (
            "901Y009",
            "소비자물가지수",
            "M",
            "202601",
            "202609",
            "2026-11-02",
            "09:15",
            "ECOS에서 소비자물가지수 올해 1~9월 월별 수치를 찾아서 가장 높았던 달을 알려주시고, 작년 9월 지수도 같이 알려주세요.",
            "ECOS consumer price index Jan-Sep this year: which month was highest, and the index for September last year?",
        ),
    ]
    out = []
    for i, (_code, name, cycle, a, b, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", ECOS_TABLES, {"lang": "kr", "start": 1, "end": 20}),
            step(
                "s2",
                ECOS_ITEMS,
                {
                    "lang": "kr",
                    "start": 1,
                    "end": 20,
                    "STAT_CODE": f"$s1.items[?contains(STAT_NAME, '{name.split()[-1]}')].STAT_CODE | [0]",
                },
            ),
            step(
                "s3",
                ECOS_SEARCH,
                {
                    "lang": "kr",
                    "start": 1,
                    "end": 20,
                    "STAT_CODE": "$s2.items[0].STAT_CODE",
                    "CYCLE": cycle,
                    "START_TIME": a,
                    "END_TIME": b,
                    "ITEM_CODE1": "$s2.items[0].ITEM_CODE",
                },
            ),
        ]
        last = str(int(b[:4]) - 1) + b[4:]
        steps.append(
            step(
                "s4",
                ECOS_SEARCH,
                {
                    "lang": "kr",
                    "start": 1,
                    "end": 20,
                    "STAT_CODE": "$s2.items[0].STAT_CODE",
                    "CYCLE": cycle,
                    "START_TIME": last,
                    "END_TIME": last,
                    "ITEM_CODE1": "$s2.items[0].ITEM_CODE",
                },
            )
        )
        if i == 0:
            facts = [
                fact("sep", "9월 기준금리", f"$s3.items[?TIME=='{b}'].DATA_VALUE | [0]", "number", 0.001),
                fact("series", "월별 값", "$s3.items[].DATA_VALUE", "set"),
            ]  # asked: 월별로
        else:
            facts = [
                fact("month", "최고 달", "$s3.max_by(items, &num(DATA_VALUE)).TIME", "month"),
                fact("value", "최고 지수", "$s3.max(nums(items[].DATA_VALUE))", "number", 0.01),
            ]
        facts.append(
            fact("last", f"작년 {int(b[4:])}월 값 ({last})", "$s4.items[0].DATA_VALUE", "number", 0.001)
        )
        out.append(Spec("chain3", "finance", q, qe, c, steps, facts))
    return out


def four_company_brief() -> list[Spec]:
    """Investor brief: four companies, each code -> profile and accounts (12 calls)."""
    rows = [
        (
            ["삼성전자", "현대자동차", "카카오", "NAVER"],
            "2026-10-22",
            "08:00",
            "투자 스터디 자료로 삼성전자, 현대자동차, 카카오, NAVER 네 회사의 대표이사와 2025년 연결 매출액을 표로 만들어 주세요.",
            "Study notes: CEO and 2025 consolidated revenue of Samsung Electronics, Hyundai Motor, Kakao and NAVER.",
        ),
    ]
    out = []
    for names, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps = [step(f"c{k}", CORP, {"corp_name": n}) for k, n in enumerate(names, 1)]
        steps += [step(f"p{k}", COMPANY, {"corp_code": _corp(f"c{k}", n)}) for k, n in enumerate(names, 1)]
        steps += [
            step(
                f"f{k}",
                ACCOUNTS,
                {"corp_code": _corp(f"c{k}", n), "bsns_year": "2025", "reprt_code": "11011"},
            )
            for k, n in enumerate(names, 1)
        ]
        facts = []
        for k, n in enumerate(names, 1):
            facts.append(fact(f"ceo{k}", f"{n} 대표", f"$p{k}.items[0].ceo_nm", subject=n))
            facts.append(
                fact(
                    f"rev{k}",
                    f"{n} 매출액 (API unit 원)",
                    _acct(f"f{k}", "매출액"),
                    "money",
                    unit="원",
                    rel_tol=0.005,
                    subject=n,
                )
            )
        out.append(Spec("parallel", "finance", q, qe, c, steps, facts, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    company_profile_and_sales,
    revenue_compare,
    maker_business_status,
    base_rate_trend,
    four_company_brief,
]
