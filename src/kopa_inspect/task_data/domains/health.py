"""Health task families: hospitals and their hours (hira) and drug leaflets (mfds)."""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, step
from kopa_inspect.task_data.plan_parts import DRUG, HOSP, HOSP_DTL, HOSP_SUBJ, KW


def clinic_near_sight() -> list[Spec]:
    """TourAPI coordinates -> HIRA radius search -> clinic details (hours, specialists) in parallel."""
    rows = [
        (
            "경복궁",
            "11",
            2000,
            "2026-10-24",
            "10:20",
            "경복궁 구경 중인데 아이가 열이 나요. 2km 안 소아청소년과 중 목록 첫 번째 병원의 토요일 진료 마감 시간과 전문의 수를 알려주세요.",
            "At Gyeongbokgung with a feverish child: the first pediatric clinic within 2 km, its Saturday closing time and specialists.",
        ),
        (
            "해운대해수욕장",
            "12",
            5000,
            "2026-11-07",
            "15:40",
            "해운대해수욕장에서 5km 이내 안과 한 곳(목록 첫 번째) 찾아서 토요일 몇 시까지 하는지, 전화번호도 알려줘.",
            "An eye clinic within 5 km of Haeundae Beach (first listed): Saturday hours and phone.",
        ),
    ]
    out = []
    for i, (sight, subj, radius, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", KW, {"keyword": sight, "contentTypeId": 12}),
            step(
                "s2",
                HOSP,
                {
                    "xPos": "$s1.items[0].mapx",
                    "yPos": "$s1.items[0].mapy",
                    "radius": radius,
                    "dgsbjtCd": subj,
                },
            ),
            step("s3", HOSP_DTL, {"ykiho": "$s2.items[0].ykiho"}),
            step("s4", HOSP_SUBJ, {"ykiho": "$s2.items[0].ykiho"}),
        ]
        facts = [
            fact("hosp", "병원명", "$s2.items[0].yadmNm"),
            fact("sat", "토요일 진료 종료", "$s3.items[0].trmtSatEnd", "time"),
        ]
        if i == 0:
            # the question asks the clinic's 전문의 수: the list's own count of its (의과) specialists
            # answers it as well as the department call does
            facts.append(
                fact(
                    "sdr",
                    "소아청소년과 전문의 수",
                    f"$s4.items[?to_string(dgsbjtCd)=='{subj}'].dgsbjtPrSdrCnt | [0]",
                    "number",
                    also_from=["$s2.items[0].mdeptSdrCnt"],
                )
            )
        else:
            facts.append(fact("tel", "전화번호", "$s2.items[0].telno", "exact"))
        out.append(Spec("chain4plus", "health", q, qe, c, steps, facts))
    return out


def saturday_hospitals() -> list[Spec]:
    """Fan-out: the first three hospitals of a list, each detail in parallel (1 + 3 calls)."""
    rows = [
        (
            "110000",
            "110009",
            "31",
            "2026-10-16",
            "19:30",
            "마포구(심평원 지역코드 110009) 의원 목록 앞의 세 곳 중 토요일에 진료하는 곳과 마감 시간을 알려주세요.",
            "Mapo-gu (HIRA code 110009), first three clinics: which open on Saturday, and until when?",
        ),
        (
            "110000",
            "110001",
            "31",
            "2026-11-20",
            "21:00",
            "강남구(HIRA 110001) 의원 목록 상위 3곳의 일요일 휴진 여부를 비교해 줘.",
            "Gangnam (HIRA 110001), first three clinics: closed on Sundays?",
        ),
    ]
    out = []
    for i, (sido, sggu, cl, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [step("s1", HOSP, {"sidoCd": sido, "sgguCd": sggu, "clCd": cl})]
        steps += [step(f"d{k}", HOSP_DTL, {"ykiho": f"$s1.items[{k - 1}].ykiho"}) for k in range(1, 4)]
        if i == 0:
            facts = [
                fact(
                    f"sat{k}",
                    f"{k}번째 병원 토요일 마감",
                    f"$d{k}.items[0].trmtSatEnd",
                    "time",
                    subject=f"$s1.items[{k - 1}].yadmNm",
                )
                for k in range(1, 4)
            ]
            facts.insert(0, fact("names", "병원 3곳", "$s1.items[:3].yadmNm", "set"))
        else:
            facts = [fact("names", "병원 3곳", "$s1.items[:3].yadmNm", "set")]
            facts += [
                fact(
                    f"sun{k}",
                    f"{k}번째 병원 일요일 휴진",
                    f"$d{k}.items[0].noTrmtSun",
                    "exact",
                    subject=f"$s1.items[{k - 1}].yadmNm",
                )
                for k in range(1, 4)
            ]
        out.append(Spec("parallel", "health", q, qe, c, steps, facts))
    return out


# Key facts of leaflet texts (phrases of the text; validate checks each is in the gold output). A key
# "A|B" holds when any of its forms is said: the text's own word first, then the words an answer to the
# English gloss uses.
DRUG_KEYS: dict[tuple[str, str], tuple[str, ...]] = {
    ("타이레놀정500밀리그람(아세트아미노펜)", "intrcQesitm"): (
        "아세트아미노펜|acetaminophen|paracetamol",
        "감기약|cold medicine|cold remed",
    ),
    ("타이레놀정500밀리그람(아세트아미노펜)", "atpnWarnQesitm"): ("술|음주|alcohol",),
    ("어린이타이레놀현탁액(아세트아미노펜)", "useMethodQesitm"): ("4~6시간", "5회"),
    ("타이레놀정500밀리그람", "efcyQesitm"): ("발열", "두통"),
    ("타이레놀8시간이알서방정", "efcyQesitm"): ("발열", "두통"),
}


def drug_info() -> list[Spec]:
    """e약은요: product search -> itemSeq -> the exact product's leaflet."""
    rows = [
        # "약이나 음식": the interactions field names the medicines, the warning field the drink (술)
        (
            "타이레놀",
            ("intrcQesitm", "atpnWarnQesitm"),
            "2026-10-12",
            "22:40",
            "타이레놀정500밀리그람 먹을 때 같이 먹으면 안 되는 약이나 음식이 있는지 공식 정보로 알려줘.",
            "Tylenol 500 mg: which medicines or foods and drinks must not be taken with it (official leaflet)?",
            "타이레놀정500밀리그람(아세트아미노펜)",
        ),
    ]
    out = []
    for kw, fields, day, hm, q, qe, exact in rows:
        c = clock(day, hm)
        out.append(
            Spec(
                "chain2",
                "health",
                q,
                qe,
                c,
                [
                    step("s1", DRUG, {"itemName": kw}),
                    step("s2", DRUG, {"itemSeq": f"$s1.items[?itemName=='{exact}'].itemSeq | [0]"}),
                ],
                [
                    fact("item", "품목 기준코드", "$s2.items[0].itemSeq", "exact", required=False),
                    *(
                        fact(
                            "text" if k == 0 else f"text{k + 1}",
                            "해당 항목 내용 (scored by its key facts)",
                            f"$s2.items[0].{field}",
                            "key_facts",
                            keys=list(DRUG_KEYS[(exact, field)]),
                        )
                        for k, field in enumerate(fields)
                    ),
                ],
            )
        )
    return out


FAMILIES: list[Family] = [
    clinic_near_sight,
    saturday_hospitals,
    drug_info,
]
