"""Politics task families: the National Assembly (assembly) and election results (nec); both
are held-out platforms.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, step
from kopa_inspect.task_data.plan_parts import (
    BILLS,
    MEMBERS,
    SEATS,
    SG_CODES,
    VOTED,
    VOTES,
    WINNERS,
    probe_total,
    ranked_others,
)


def party_seats() -> list[Spec]:
    """Parallel: count members per party (totalCount), compare."""
    rows = [
        (
            ["더불어민주당", "국민의힘", "조국혁신당", "진보당"],
            "2026-10-02",
            "09:00",
            "지금 국회에서 더불어민주당, 국민의힘, 조국혁신당, 진보당 의원이 각각 몇 명이에요?",
            "How many members do the Democratic, People Power, Rebuilding Korea and Progressive parties have now?",
        ),
        (
            ["조국혁신당", "진보당", "사회민주당", "기본소득당"],
            "2026-11-17",
            "13:30",
            "조국혁신당, 진보당, 사회민주당, 기본소득당 현역 의원 수를 비교해서 가장 많은 당을 알려주세요.",
            "Rebuilding Korea, Progressive, Social Democratic, Basic Income parties: member counts and the largest.",
        ),
    ]
    out = []
    for parties, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps = [step(f"s{i}", MEMBERS, {"POLY_NM": p, "pSize": 5}) for i, p in enumerate(parties, 1)]
        facts = [
            fact(f"n{i}", f"{p} 의원 수", f"$s{i}.totalCount", "number", subject=p)
            for i, p in enumerate(parties, 1)
        ]
        if "가장" in q:
            objs = ", ".join(f"{{p: '{p}', n: s{i}.totalCount}}" for i, p in enumerate(parties, 1))
            facts.append(
                fact(
                    "most",
                    "가장 많은 정당",
                    f"$_.max_by([{objs}], &n).p",
                    competitors=ranked_others(objs, "n", "p"),
                )
            )
        out.append(Spec("parallel", "politics", q, qe, c, steps, facts))
    return out


def committee_roster() -> list[Spec]:
    """A committee's roster (one page holds it) -> its chair and the chair's party -> that party's seats
    in the whole Assembly (a real chain: the party is read off the roster). The world now gives each
    committee exactly one 위원장 (JOB_RES_NM of the representative committee), so "the" chair is defined
    again (kopa-074's old question came back)."""
    rows = [
        (
            "교육위원회",
            "2026-11-26",
            "11:10",
            "교육위원회 위원장이 누구이고 어느 당 소속인지, 그 당 소속 교육위원회 위원은 몇 명인지, 교육위원회 전체 초선 위원 수, "
            "그리고 위원장 소속 정당의 국회 전체 의석수까지 알려 주세요.",
            "Education Committee: who chairs it and from which party, how many of the committee's members belong to "
            "that party, how many of the whole committee are first-term, and that party's seats in the whole Assembly.",
        ),
    ]
    out = []
    chair = "items[?JOB_RES_NM=='위원장'] | [0]"
    for cmit, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps = [
            step("s1", MEMBERS, {"CMIT_NM": cmit, "pSize": 100}),
            step("s2", MEMBERS, {"POLY_NM": f"$s1.{chair}.POLY_NM", "pSize": 5}),
            step("s3", MEMBERS, {"CMIT_NM": cmit, "POLY_NM": f"$s1.{chair}.POLY_NM", "pSize": 100}),
        ]
        facts = [
            fact(
                "chair",
                f"{cmit} 위원장",
                f"$s1.{chair}.HG_NM",
                "name",
                competitors="$s1.items[?JOB_RES_NM!='위원장'].HG_NM",
            ),
            fact("party", "위원장 소속 정당", f"$s1.{chair}.POLY_NM", "name", subject=f"{cmit} 위원장"),
            fact("n", f"{cmit} 위원 중 위원장 소속 정당 위원 수", "$s3.totalCount", "number"),
            fact("first", f"{cmit} 전체 초선 위원 수", "$s1.length(items[?REELE_GBN_NM=='초선'])", "number"),
            fact("seats", "위원장 소속 정당 전체 의석수", "$s2.totalCount", "number"),
        ]
        out.append(Spec("chain2", "politics", q, qe, c, steps, facts))
    return out


def bill_vote_breakdown() -> list[Spec]:
    """Bill name -> BILL_ID -> roll-call votes: 3 calls, a filter at each hop."""
    rows = [
        (
            "도로교통법",
            "2026-11-05",
            "10:40",
            "도로교통법 개정안 가운데 표결이 이뤄진 첫 번째 건의 결과, 반대와 기권이 각각 몇 표인지 알려줘.",
            "The first Road Traffic Act bill that was put to a vote: how many no votes and abstentions?",
        ),
    ]
    out = []
    for name, day, hm, q, qe in rows:
        c = clock(day, hm)
        # Counts come from totalCount of a RESULT_VOTE_MOD-filtered roll call: 300 member rows
        # would not fit in what a model is shown of one call.
        bill = f"$s1.items{VOTED}"
        steps = [step("s1", BILLS, {"AGE": "22", "BILL_NAME": name, "pSize": 100})]
        if "찬성" in q:
            steps.append(
                step("s2", VOTES, {"AGE": "22", "BILL_ID": bill, "RESULT_VOTE_MOD": "찬성", "pSize": 10})
            )
            facts = [
                fact("bill", "법안명", f"$s1.items{VOTED.replace('BILL_ID', 'BILL_NAME')}"),
                fact("yes", "찬성 수", "$s2.totalCount", "number"),
            ]
            category = "chain2"
        else:
            steps += [
                step("s2", VOTES, {"AGE": "22", "BILL_ID": bill, "RESULT_VOTE_MOD": "반대", "pSize": 10}),
                step("s3", VOTES, {"AGE": "22", "BILL_ID": bill, "RESULT_VOTE_MOD": "기권", "pSize": 10}),
            ]
            # "첫 번째 건의 결과" asks the bill's outcome too: naming another bill's outcome is wrong
            facts = [
                fact("result", "표결 결과 (outcome)", f"$s1.items{VOTED.replace('BILL_ID', 'PROC_RESULT')}"),
                fact("no", "반대 수", "$s2.totalCount", "number"),
                fact("abs", "기권 수", "$s3.totalCount", "number"),
            ]
            category = "parallel"
        out.append(Spec(category, "politics", q, qe, c, steps, facts))
    return out


def no_voter_profile() -> list[Spec]:
    """Bill -> roll call -> one dissenting member's profile: 3 hops joined by BILL_ID then HG_NM."""
    rows = [
        (
            "교육기본법",
            "2026-10-07",
            "08:30",
            "교육기본법 개정안 중 표결된 첫 법안에서 반대표를 던진 의원 한 명(명단 첫 번째)의 지역구와 소속 위원회를 알려주세요.",
            "First voted Framework Act on Education bill: the first listed no-voter's constituency and committee.",
        ),
    ]
    out = []
    for name, day, hm, q, qe in rows:
        c = clock(day, hm)
        out.append(
            Spec(
                "chain3",
                "politics",
                q,
                qe,
                c,
                [
                    step("s1", BILLS, {"AGE": "22", "BILL_NAME": name, "pSize": 30}),
                    step(
                        "s2",
                        VOTES,
                        {
                            "AGE": "22",
                            "BILL_ID": f"$s1.items{VOTED}",
                            "RESULT_VOTE_MOD": "반대",
                            "pSize": 100,
                        },
                    ),
                    step("s3", MEMBERS, {"HG_NM": "$s2.items[0].HG_NM"}),
                ],
                [
                    fact("who", "의원", "$s2.items[0].HG_NM"),
                    fact("orig", "지역구", "$s3.items[0].ORIG_NM"),
                    fact("cmit", "소속 위원회", "$s3.items[0].CMIT_NM"),
                ],
            )
        )
    return out


def seats_by_party_in_sido() -> list[Spec]:
    """Pagination: all constituency winners of a 시도 (10 per page), counted by party."""
    rows = [
        (
            "서울특별시",
            "2024",
            "더불어민주당",
            "2026-10-03",
            "12:00",
            "22대 총선 서울 지역구 당선자 중 더불어민주당 소속이 몇 명인지 세어 주세요.",
            "22nd general election, Seoul constituencies: how many winners from the Democratic Party?",
        ),
    ]
    out = []
    for sd, year, party, day, hm, q, qe in rows:
        c = clock(day, hm)
        sel = f"[?sgName=='국회의원선거' && starts_with(sgId, '{year}')]"
        sg_id = f"{year}0410"
        total = probe_total(c, WINNERS, {"sgId": sg_id, "sgTypecode": "2", "sdName": sd, "numOfRows": 1})
        n_pages = -(-total // 10)
        steps = [step("s1", SG_CODES, {"numOfRows": 50})]
        steps += [
            step(
                f"p{k}",
                WINNERS,
                {
                    "sgId": f"$s1.items{sel}.sgId | [0]",
                    "sgTypecode": f"$s1.items{sel}.sgTypecode | [0]",
                    "sdName": sd,
                    "numOfRows": 10,
                    "pageNo": k,
                },
            )
            for k in range(1, n_pages + 1)
        ]
        allrows = "[" + ", ".join(f"p{k}.items" for k in range(1, n_pages + 1)) + "][]"
        out.append(
            Spec(
                "pagination",
                "politics",
                q,
                qe,
                c,
                steps,
                [
                    fact(
                        "total", "지역구 수", "$p1.totalCount", "number", required=False
                    ),  # not asked: only the party's count
                    fact("n", f"{party} 당선자 수", f"$_.length({allrows} | [?jdName=='{party}'])", "number"),
                ],
                state=tuple(f"pages:p{k}" for k in range(2, n_pages + 1)),
                difficulty="hard",
            )
        )
    return out


def governors_compare() -> list[Spec]:
    """Parallel: the same office in two elections (2022 vs 2026) for one 시도."""
    rows = [
        (
            "부산광역시",
            "2026-10-31",
            "20:15",
            "부산시장 선거에서 2018년, 2022년, 올해 당선자가 각각 누구고 정당이 어떻게 바뀌었는지 알려줘.",
            "Busan mayor: the 2018, 2022 and 2026 winners, and how the party changed.",
        ),
    ]
    out = []
    for sd, day, hm, q, qe in rows:
        c = clock(day, hm)
        steps = [step("s1", SG_CODES, {"numOfRows": 50})]
        for k, y in ((2, "2022"), (3, "2026"), (4, "2018")):
            sel = f"[?sgName=='시·도지사선거' && starts_with(sgId, '{y}')]"
            steps.append(
                step(
                    f"s{k}",
                    WINNERS,
                    {
                        "sgId": f"$s1.items{sel}.sgId | [0]",
                        "sgTypecode": f"$s1.items{sel}.sgTypecode | [0]",
                        "sdName": sd,
                    },
                )
            )
        out.append(
            Spec(
                "parallel",
                "politics",
                q,
                qe,
                c,
                steps,
                # each winner and party bound to its year, said as a year or as the question says it
                # ("올해"): without a subject the winners swapped between years scored as right
                [
                    fact(
                        "w2022",
                        "2022 당선자",
                        f"$s2.items[?sdName=='{sd}'] | [0].name",
                        subject="2022년|2022",
                    ),
                    fact(
                        "p2022",
                        "2022 정당",
                        f"$s2.items[?sdName=='{sd}'] | [0].jdName",
                        subject="2022년|2022",
                    ),
                    fact(
                        "w2026",
                        "2026 당선자",
                        f"$s3.items[?sdName=='{sd}'] | [0].name",
                        subject="2026년|2026|올해",
                    ),
                    fact(
                        "p2026",
                        "2026 정당",
                        f"$s3.items[?sdName=='{sd}'] | [0].jdName",
                        subject="2026년|2026|올해",
                    ),
                    fact(
                        "w2018",
                        "2018 당선자",
                        f"$s4.items[?sdName=='{sd}'] | [0].name",
                        subject="2018년|2018",
                    ),
                    fact(
                        "p2018",
                        "2018 정당",
                        f"$s4.items[?sdName=='{sd}'] | [0].jdName",
                        subject="2018년|2018",
                    ),
                ],
            )
        )
    return out


def election_and_assembly() -> list[Spec]:
    """NEC winners of a 시도 (code lookup) + the Assembly's current members from that 시도's party."""
    rows = [
        (
            "부산광역시",
            "국민의힘",
            "2026-10-25",
            "11:45",
            "22대 총선 부산 지역구 당선자 중 국민의힘 당선자가 몇 명이었는지, 그리고 지금 국회 국민의힘 의원 총수가 몇 명인지 같이 알려주세요.",
            "22nd election, Busan constituencies: how many PPP winners, and the PPP's total seats in the Assembly now?",
        ),
    ]
    out = []
    for sd, party, day, hm, q, qe in rows:
        c = clock(day, hm)
        sel = "[?sgName=='국회의원선거' && starts_with(sgId, '2024')]"
        steps = [
            step("s1", SG_CODES, {"numOfRows": 50}),
            step(
                "s2",
                WINNERS,
                {
                    "sgId": f"$s1.items{sel}.sgId | [0]",
                    "sgTypecode": f"$s1.items{sel}.sgTypecode | [0]",
                    "sdName": sd,
                    "numOfRows": 30,
                },
            ),
            step("s3", MEMBERS, {"POLY_NM": party, "pSize": 5}),
            # the portal's seat table gives the same total (its TOTAL_CNT) without counting members
            step("t1", SEATS, {}, required=False),
        ]
        out.append(
            Spec(
                "chain3",
                "politics",
                q,
                qe,
                c,
                steps,
                [
                    fact(
                        "won", f"{sd} {party} 당선자 수", f"$s2.length(items[?jdName=='{party}'])", "number"
                    ),
                    fact(
                        "seats",
                        f"{party} 현 의석",
                        "$s3.totalCount",
                        "number",
                        also_from=[f"$t1.items[?POLY_NM=='{party}'].TOTAL_CNT | [0]"],
                    ),
                ],
            )
        )
    return out


# The National Assembly (대) each general election year elected: answers tell the years apart by it.
ASSEMBLY_AGE = {"2016": 20, "2020": 21, "2024": 22}

# The party each one stood as at the 2020 (21대) general election, where its name changed since.
PREDECESSORS: dict[str, tuple[str, ...]] = {"국민의힘": ("미래통합당",)}


def election_sido_fanout() -> list[Spec]:
    """The election code list, then every asked 시도's constituency winners: each winners call
    reads its sgId/sgTypecode out of the whole code list."""
    rows = [
        (
            "2024",
            ["서울특별시", "부산광역시", "인천광역시", "대전광역시", "경기도"],
            "더불어민주당",
            "2026-10-13",
            "10:10",
            "22대 총선에서 서울, 부산, 인천, 대전, 경기 지역구 당선자 중 더불어민주당 당선자가 시도별로 몇 명이었는지, 21대 총선 때와 비교해 정리해 주세요.",
            "22nd general election: in Seoul, Busan, Incheon, Daejeon and Gyeonggi constituencies, how many Democratic "
            "Party winners per province, compared with the 21st election?",
        ),
        (
            "2024",
            ["서울특별시", "부산광역시", "인천광역시", "경기도"],
            "국민의힘",
            "2026-11-20",
            "15:30",
            "지난 총선 서울·부산·인천·경기 지역구에서 국민의힘이 각각 몇 석을 얻었고, 네 곳 중 국민의힘 당선자가 가장 많은 곳은 어디인가요? 그 전 총선(2020년) 의석수도 같이 알려주세요.",
            "Last general election: People Power Party constituency seats in Seoul, Busan, Incheon and Gyeonggi, where "
            "it won the most, and its seats in each at the election before (2020).",
        ),
        (
            "2020",
            ["서울특별시", "부산광역시", "대구광역시", "광주광역시"],
            "더불어민주당",
            "2026-09-16",
            "11:20",
            "21대 총선 때 서울, 부산, 대구, 광주 지역구에서 더불어민주당 당선자가 각각 몇 명이었는지, 그중 가장 많은 곳은 어디였는지 알려줘.",
            "21st general election: Democratic Party constituency winners in Seoul, Busan, Daegu and Gwangju, and where "
            "it won the most.",
        ),
    ]
    out = []
    for year, sds, party, day, hm, q, qe in rows:
        c = clock(day, hm)
        sel = f"[?sgName=='국회의원선거' && starts_with(sgId, '{year}')]"
        steps = [step("s1", SG_CODES, {"numOfRows": 50})]
        facts, objs = [], []
        for k, sd in enumerate(sds, 1):
            steps.append(
                step(
                    f"w{k}",
                    WINNERS,
                    {
                        "sgId": f"$s1.items{sel}.sgId | [0]",
                        "sgTypecode": f"$s1.items{sel}.sgTypecode | [0]",
                        "sdName": sd,
                        "numOfRows": 100,
                    },
                )
            )
            facts.append(
                fact(
                    f"n{k}",
                    f"{sd} {year}년 {ASSEMBLY_AGE[year]}대 {party} 당선자 수",
                    f"$w{k}.length(items[?jdName=='{party}'])",
                    "number",
                    subject=sd,
                )
            )
            objs.append(f"{{s: '{sd}', n: length(w{k}.items[?jdName=='{party}'])}}")
        if year == "2024":  # the question also asks for the 2020 (21대) figure of each 시도
            prev = "[?sgName=='국회의원선거' && starts_with(sgId, '2020')]"
            for k, sd in enumerate(sds, 1):
                steps.append(
                    step(
                        f"p{k}",
                        WINNERS,
                        {
                            "sgId": f"$s1.items{prev}.sgId | [0]",
                            "sgTypecode": f"$s1.items{prev}.sgTypecode | [0]",
                            "sdName": sd,
                            "numOfRows": 100,
                        },
                    )
                )
                # a party founded after 2020 is counted under the name it stood under then: a person asked
                # for 국민의힘's 2020 seats gives 미래통합당's, not a zero for a party that did not exist
                names = " || ".join(f"jdName=='{p}'" for p in (party, *PREDECESSORS.get(party, ())))
                facts.append(
                    fact(
                        f"p{k}",
                        f"{sd} 2020년 21대 {party} 당선자 수",
                        f"$p{k}.length(items[?{names}])",
                        "number",
                        subject=sd,
                    )
                )
        if "가장" in q:
            joined = ", ".join(objs)
            facts.append(
                fact(
                    "most",
                    f"{party} 당선자가 가장 많은 시도",
                    f"$_.max_by([{joined}], &n).s",
                    competitors=ranked_others(joined, "n", "s"),
                )
            )
        out.append(Spec("parallel", "politics", q, qe, c, steps, facts))
    return out


def governor_fanout() -> list[Spec]:
    """The election code list, then the 시·도지사 winner of each asked 시도 (1 + 5 calls): every
    winners call reads the election's sgId/sgTypecode out of the whole code list."""
    rows = [
        (
            "2026",
            ["서울특별시", "부산광역시", "대구광역시", "인천광역시", "광주광역시"],
            "2026-10-29",
            "09:15",
            "올해 지방선거에서 서울·부산·대구·인천·광주 시장으로 당선된 사람이 각각 누구고 어느 정당인지, 4년 전 당선자 정당과 비교해서 표로 정리해 주세요.",
            "This year's local elections: the elected mayors of Seoul, Busan, Daegu, Incheon and Gwangju, with parties, "
            "beside the party of each city's winner four years earlier.",
        ),
        (
            "2022",
            ["대전광역시", "울산광역시", "세종특별자치시", "경기도", "제주특별자치도"],
            "2026-11-11",
            "16:45",
            "2022년 지방선거 때 대전·울산·세종 시장과 경기·제주 도지사 당선자 이름, 소속 정당을 알려주시고, 2018년 당선자 정당에서 바뀌었는지도 봐 주세요.",
            "2022 local elections: the winners for mayor of Daejeon, Ulsan and Sejong and governor of Gyeonggi and Jeju, "
            "with parties, and each 2018 winner's party to see what changed.",
        ),
    ]
    out = []
    for year, sds, day, hm, q, qe in rows:
        c = clock(day, hm)
        sel = f"[?sgName=='시·도지사선거' && starts_with(sgId, '{year}')]"
        steps = [step("s1", SG_CODES, {"numOfRows": 50})]
        facts = []
        for k, sd in enumerate(sds, 1):
            steps.append(
                step(
                    f"w{k}",
                    WINNERS,
                    {
                        "sgId": f"$s1.items{sel}.sgId | [0]",
                        "sgTypecode": f"$s1.items{sel}.sgTypecode | [0]",
                        "sdName": sd,
                    },
                )
            )
            pick = f"$w{k}.items[?sdName=='{sd}'] | [0]"
            facts.append(fact(f"name{k}", f"{sd} 당선자", f"{pick}.name", subject=sd))
            facts.append(fact(f"party{k}", f"{sd} 당선자 정당", f"{pick}.jdName", subject=sd))
        prev = f"[?sgName=='시·도지사선거' && starts_with(sgId, '{int(year) - 4}')]"
        for k, sd in enumerate(sds, 1):
            steps.append(
                step(
                    f"p{k}",
                    WINNERS,
                    {
                        "sgId": f"$s1.items{prev}.sgId | [0]",
                        "sgTypecode": f"$s1.items{prev}.sgTypecode | [0]",
                        "sdName": sd,
                    },
                )
            )
            # "4년 전" as the questions say it: a table's "4년 전 정당" column is this fact's
            facts.append(
                fact(
                    f"prev{k}",
                    f"{sd} 4년 전 {int(year) - 4}년 당선자 정당",
                    f"$p{k}.items[?sdName=='{sd}'] | [0].jdName",
                    subject=sd,
                )
            )
        out.append(Spec("parallel", "politics", q, qe, c, steps, facts))
    return out


FAMILIES: list[Family] = [
    party_seats,
    committee_roster,
    bill_vote_breakdown,
    no_voter_profile,
    seats_by_party_in_sido,
    governors_compare,
    election_and_assembly,
    election_sido_fanout,
    governor_fanout,
]
