"""Law task families: articles of laws, decrees and rules (lawgo; held-out platform), and the
Assembly's bills on a law.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, step
from kopa_inspect.task_data.plan_parts import BILLS, LAW_SEARCH, LAW_SERVICE, VOTED, VOTES, mst

# law_article_lookup instances whose question also asks how many amendment bills are pending.
AMEND_ASKED = ("근로기준법", "민법", "공직선거법", "주택임대차보호법")

ARTICLE_TEXT = '${s}.items[0].["조문내용", "항"[]."항내용"][] | join(\' \', @)'

# The key facts an answer quoting an article must state (phrases of the article text; validate
# checks that each one is in the text the gold run returns).
LAW_KEYS: dict[tuple[str, str], tuple[str, ...]] = {
    ("주택임대차보호법", "000700"): ("20분의 1",),
    ("근로기준법", "006000"): ("15일",),
    ("도로교통법", "004400"): ("0.03",),
    ("민법", "000400"): ("19세",),
    ("공직선거법", "001500"): ("18세",),
    ("형법", "000900"): ("14세",),
    ("주택임대차보호법", "000300"): ("주민등록", "다음 날"),
    ("도로교통법", "001700"): ("행정안전부령",),
    ("주택임대차보호법 시행령", "001100"): ("1억6천500만원",),
    ("도로교통법 시행규칙", "001900"): ("50킬로미터", "60킬로미터"),
}


def law_article_lookup() -> list[Spec]:
    """Law name -> \"법령일련번호\" (MST) -> one article (JO = 4-digit article + 2-digit branch)."""
    rows = [
        (
            "주택임대차보호법",
            "000700",
            "2026-10-08",
            "20:30",
            "전세 재계약할 때 집주인이 보증금을 얼마까지 올릴 수 있는지 주택임대차보호법 조문으로 확인해 주시고, 22대 국회에 이 법 관련 법률안(개정안·폐지안)이 몇 건 발의됐는지도 알려주세요.",
            "How much may a landlord raise the deposit on renewal? Check the Housing Lease Protection Act article, and "
            "how many bills on it (amendments and repeals) were filed in the 22nd National Assembly.",
        ),
        (
            "근로기준법",
            "006000",
            "2026-11-12",
            "12:40",
            "1년 넘게 일한 직원 연차가 며칠인지 근로기준법 제60조 내용을 찾아봐 주세요. 22대 국회에 근로기준법 관련 법률안(개정안·폐지안)이 몇 건 올라와 있는지도요.",
            "Annual leave for an employee of over a year: look up Article 60 of the Labor Standards Act, and how many "
            "bills on it (amendments and repeals) are pending in the 22nd National Assembly.",
        ),
        (
            "민법",
            "000400",
            "2026-10-27",
            "10:15",
            "민법상 성년 나이가 몇 살부터인지 조문 원문으로 알려주시고, 22대 국회에 발의된 민법 관련 법률안(개정안·폐지안) 건수도 알려주세요.",
            "From what age is one an adult under the Civil Act? Quote the article, and give the number of Civil Act "
            "bills (amendments and repeals) filed in the 22nd National Assembly.",
        ),
        (
            "공직선거법",
            "001500",
            "2026-11-30",
            "16:00",
            "국회의원 선거 투표권이 몇 살부터 생기는지 공직선거법 조문으로 확인하고, 22대 국회 공직선거법 관련 법률안(개정안·폐지안)이 몇 건인지도 부탁드립니다.",
            "From what age may one vote in National Assembly elections? Check the Public Official Election Act, and "
            "how many bills on it (amendments and repeals) the 22nd National Assembly has.",
        ),
    ]
    out = []
    for name, jo, day, hm, q, qe in rows:
        c = clock(day, hm)
        out.append(
            Spec(
                "chain2",
                "law",
                q,
                qe,
                c,
                [
                    step("s1", LAW_SEARCH, {"target": "law", "query": name}),
                    step("s2", LAW_SERVICE, {"target": "law", "MST": mst("s1", name), "JO": jo}),
                    *(
                        [step("b1", BILLS, {"AGE": "22", "BILL_NAME": name, "pSize": 5})]
                        if name in AMEND_ASKED
                        else []
                    ),
                ],
                [
                    *(
                        [fact("bills", "22대 개정안 수 (amendment bills)", "$b1.totalCount", "number")]
                        if name in AMEND_ASKED
                        else []
                    ),
                    # the question asks what the article says, not its title: a title is welcome, not required
                    fact("title", "조문 제목 (article title)", '$s2.items[0]."조문제목"', required=False),
                    fact(
                        "text",
                        "조문 내용 (article text; scored by its key facts)",
                        ARTICLE_TEXT.format(s="s2"),
                        "key_facts",
                        keys=list(LAW_KEYS[(name, jo)]),
                    ),
                ],
            )
        )
    return out


def law_age_rules() -> list[Spec]:
    """Three laws, each searched for its MST and then one article read (6 calls in two waves): a
    brief that cites several acts side by side."""
    rows = [
        (
            [("민법", "000400"), ("공직선거법", "001500"), ("형법", "000900")],
            "2026-10-19",
            "13:30",
            "청소년 법교육 자료를 만들고 있어요. 민법 성년 나이(제4조), 공직선거법 선거권 나이(제15조), 형법 형사미성년자 나이(제9조)를 조문으로 확인해서 정리해 주세요.",
            "Youth law-class notes: the age of majority (Civil Act Art. 4), the voting age (Public Official Election Act "
            "Art. 15) and the age of criminal responsibility (Criminal Act Art. 9), checked against the articles.",
        ),
        (
            [("근로기준법", "006000"), ("주택임대차보호법", "000700"), ("도로교통법", "004400")],
            "2026-11-13",
            "10:05",
            "생활법률 카드뉴스용으로 근로기준법 제60조 연차 일수, 주택임대차보호법 제7조 증액 한도, 도로교통법 제44조 음주운전 기준을 조문 원문에서 확인해 줘.",
            "Everyday-law cards: annual leave days (Labor Standards Act Art. 60), the rent-increase cap (Housing Lease "
            "Protection Act Art. 7) and the drunk-driving limit (Road Traffic Act Art. 44), from the article texts.",
        ),
    ]
    out = []
    for laws, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps, facts = [], []
        for k, (name, jo) in enumerate(laws, 1):
            steps.append(step(f"q{k}", LAW_SEARCH, {"target": "law", "query": name}))
            steps.append(step(f"a{k}", LAW_SERVICE, {"target": "law", "MST": mst(f"q{k}", name), "JO": jo}))
            keys = list(LAW_KEYS[(name, jo)])
            # UNCERTAIN (matching.binding): a subject-bound stretch is cut at "." so a decimal key ("0.03")
            # is never found next to its subject; such facts are read against the whole answer.
            facts.append(
                fact(
                    f"text{k}",
                    f"{name} 조문 (key facts)",
                    ARTICLE_TEXT.format(s=f"a{k}"),
                    "key_facts",
                    keys=keys,
                    subject=None if any("." in key for key in keys) else name,
                )
            )
        out.append(Spec("parallel", "law", q, qe, c, steps, facts))
    return out


def law_vs_decree() -> list[Spec]:
    """Parallel: the act and its decree in one search, then both articles."""
    rows = [
        (
            "주택임대차보호법",
            "주택임대차보호법 시행령",
            "000300",
            "001100",
            "2026-10-19",
            "11:20",
            "주택임대차보호법의 대항력 조항(제3조)과 시행령의 우선변제 대상 임차인 범위(제11조)를 같이 정리해 주세요.",
            "Summarise the Housing Lease Protection Act's opposability clause (Art. 3) and the decree's Art. 11.",
        ),
    ]
    out = []
    for law, decree, jo1, jo2, day, hm, q, qe in rows:
        c = clock(day, hm)
        out.append(
            Spec(
                "parallel",
                "law",
                q,
                qe,
                c,
                [
                    step("s1", LAW_SEARCH, {"target": "law", "query": law}),
                    step("s2", LAW_SERVICE, {"target": "law", "MST": mst("s1", law), "JO": jo1}),
                    step("s3", LAW_SERVICE, {"target": "law", "MST": mst("s1", decree), "JO": jo2}),
                ],
                [
                    fact(
                        "law",
                        f"{law} 조문",
                        ARTICLE_TEXT.format(s="s2"),
                        "key_facts",
                        keys=list(LAW_KEYS[(law, jo1)]),
                    ),
                    fact(
                        "decree",
                        f"{decree} 조문",
                        ARTICLE_TEXT.format(s="s3"),
                        "key_facts",
                        keys=list(LAW_KEYS[(decree, jo2)]),
                    ),
                ],
            )
        )
    return out


def law_ministry_compare() -> list[Spec]:
    """Parallel searches: which ministry owns which law, and when each was last promulgated."""
    rows = [
        (
            ["개인정보 보호법", "소득세법", "상법"],
            "2026-11-09",
            "10:30",
            "개인정보 보호법, 소득세법, 상법 세 법의 시행일자를 비교해서 가장 최근에 시행된 법이 뭔지 알려줘.",
            "Privacy Act, Income Tax Act, Commercial Act: compare enforcement dates; which took effect most recently?",
        ),
    ]
    out = []
    for names, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps = [step(f"s{i}", LAW_SEARCH, {"target": "law", "query": n}) for i, n in enumerate(names, 1)]
        row = [f"s{i}.items[?\"법령명한글\"=='{n}'] | [0]" for i, n in enumerate(names, 1)]
        if len(names) == 2:
            facts = []
            for i, n in enumerate(names, 1):
                facts.append(
                    fact(
                        f"org{i}", f"{n} 소관부처", f'$s{i}.items[?"법령명한글"==\'{n}\']."소관부처명" | [0]'
                    )
                )
                facts.append(
                    fact(
                        f"date{i}",
                        f"{n} 공포일자",
                        f'$s{i}.items[?"법령명한글"==\'{n}\']."공포일자" | [0]',
                        "date",
                    )
                )
        else:
            facts = [
                fact(
                    f"eff{i}",
                    f"{n} 시행일자",
                    f'$s{i}.items[?"법령명한글"==\'{n}\']."시행일자" | [0]',
                    "date",
                )
                for i, n in enumerate(names, 1)
            ]
            ranked = f'reverse(sort_by([{", ".join(row)}], &to_number("시행일자")))'
            facts.append(
                fact(
                    "latest",
                    "가장 최근 시행 법령",
                    f'$_.{ranked}[0]."법령명한글"',
                    competitors=f'$_.{ranked}[1:]."법령명한글"',
                )
            )
        out.append(Spec("parallel", "law", q, qe, c, steps, facts))
    return out


def law_and_bills() -> list[Spec]:
    """law.go.kr article + the Assembly's amendment bills of that law and one roll call (4 calls)."""
    rows = [
        (
            "주택임대차보호법",
            "000700",
            "2026-10-16",
            "14:10",
            "주택임대차보호법 제7조(차임 증액 한도)가 지금 어떻게 돼 있는지 보고, 22대 국회에 이 법 관련 법률안(개정안·폐지안)이 몇 건 발의됐는지, 표결된 첫 법률안의 찬성 수도 알려주세요.",
            "Housing Lease Protection Act Art. 7 as it stands, how many bills on it (amendments and repeals) in the 22nd Assembly, and the yes votes on the first one voted.",
        ),
        (
            "도로교통법",
            "004400",
            "2026-11-26",
            "09:55",
            "음주운전 기준(도로교통법 제44조) 원문을 확인하고, 22대 국회에 올라온 도로교통법 관련 법률안(개정안·폐지안) 수와 표결된 첫 법안 이름을 알려줘.",
            "Road Traffic Act Art. 44 text, the number of bills on it (amendments and repeals) in the 22nd Assembly, and the first one voted on.",
        ),
    ]
    out = []
    for i, (name, jo, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", LAW_SEARCH, {"target": "law", "query": name}),
            step("s2", LAW_SERVICE, {"target": "law", "MST": mst("s1", name), "JO": jo}),
            step("b1", BILLS, {"AGE": "22", "BILL_NAME": name, "pSize": 100}),
        ]
        if i == 0:  # the yes count needs the roll call; the first voted bill's name does not
            steps.append(
                step(
                    "b2",
                    VOTES,
                    {"AGE": "22", "BILL_ID": f"$b1.items{VOTED}", "RESULT_VOTE_MOD": "찬성", "pSize": 10},
                )
            )
        facts = [
            fact(
                "article",
                "조문 내용",
                ARTICLE_TEXT.format(s="s2"),
                "key_facts",
                keys=list(LAW_KEYS[(name, jo)]),
            ),
            fact("bills", "개정안 수", "$b1.totalCount", "number"),
        ]
        if i == 0:
            facts.append(fact("yes", "찬성 수", "$b2.totalCount", "number"))
        else:
            facts.append(fact("bill", "표결된 첫 법안", f"$b1.items{VOTED.replace('BILL_ID', 'BILL_NAME')}"))
        out.append(
            Spec(
                "chain4plus" if len(steps) >= 4 else "chain3",
                "law",
                q,
                qe,
                c,
                steps,
                facts,
                difficulty="hard",
            )
        )
    return out


FAMILIES: list[Family] = [
    law_article_lookup,
    law_age_rules,
    law_vs_decree,
    law_ministry_compare,
    law_and_bills,
]
