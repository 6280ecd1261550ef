"""Tourism task families: sights, restaurants and festivals (tourapi), and a day trip with the
mid-range forecast.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, mid_tmfc, step, ymd
from kopa_inspect.task_data.plan_parts import (
    AREA,
    AREA_LIST,
    DETAIL,
    FESTIVAL,
    KW,
    MID_LAND,
    MID_TA,
    NEARBY,
    probe_total,
)


def restaurants_near_sight() -> list[Spec]:
    """Keyword -> coordinates (mapx/mapy -> mapX/mapY casing trap) -> nearby restaurants -> detail."""
    rows = [
        (
            "경복궁",
            1000,
            "2026-10-17",
            "11:30",
            "경복궁 구경하고 점심 먹으려는데, 경복궁에서 1km 안 음식점 중 가까운 세 곳 이름과 제일 가까운 곳 전화번호 알려줘.",
            "Lunch after Gyeongbokgung: the three nearest restaurants within 1 km, and the nearest one's phone.",
        ),
        (
            "불국사",
            2000,
            "2026-11-01",
            "10:00",
            "불국사 근처 2km 이내 식당 세 곳 추천해 주세요. 가까운 순으로, 제일 가까운 곳 주소도 같이요.",
            "Near Bulguksa (2 km): three closest restaurants, and the closest one's address.",
        ),
        (
            "해운대해수욕장",
            1500,
            "2026-09-12",
            "17:45",
            "해운대해수욕장 반경 1.5km 맛집 가까운 순 세 곳이랑, 제일 가까운 데 연락처 알려줘요.",
            "Within 1.5 km of Haeundae Beach: the three closest restaurants and the closest one's contact.",
        ),
    ]
    out = []
    for i, (sight, radius, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", KW, {"keyword": sight, "contentTypeId": 12}),
            step(
                "s2",
                NEARBY,
                {
                    "mapX": "$s1.items[0].mapx",
                    "mapY": "$s1.items[0].mapy",
                    "radius": radius,
                    "contentTypeId": 39,
                    "arrange": "E",
                    "numOfRows": 30,
                },
            ),
            step("s3", DETAIL, {"contentId": "$s2.items[0].contentid"}),
            step("s4", DETAIL, {"contentId": "$s2.items[1].contentid"}),
            step("s5", DETAIL, {"contentId": "$s2.items[2].contentid"}),
        ]
        facts = [
            fact("name", "가장 가까운 음식점 (nearest restaurant)", "$s3.items[0].title"),
            # nearest first: the three in another order state a wrong ranking ("가까운 순")
            fact(
                "top3",
                "가까운 3곳 (three nearest, nearest first)",
                "$_.[s3.items[0].title, s4.items[0].title, s5.items[0].title]",
                "ranked_set",
            ),
        ]
        if i == 1:
            facts.append(fact("addr", "주소 (address)", "$s3.items[0].addr1"))
        else:
            facts.append(fact("tel", "전화번호 (phone)", "$s3.items[0].tel", "exact"))
        out.append(Spec("chain4plus", "tourism", q, qe, c, steps, facts))
    return out


def district_sights_tour() -> list[Spec]:
    """Area code -> 시군구 code -> list -> detail -> nearby: a 5-call chain through TourAPI's code system."""
    rows = [
        (
            "부산",
            "해운대구",
            "2026-10-09",
            "09:00",
            "부산 해운대구 관광지 목록에서 첫 번째로 나오는 곳의 주소를 확인하고, 그 주변 1km 안 숙소와 음식점이 각각 몇 개인지 알려주세요.",
            "Haeundae-gu sights: the first listed sight's address, and how many lodgings and restaurants within 1 km of it.",
        ),
        (
            "서울",
            "종로구",
            "2026-11-21",
            "14:30",
            "서울 종로구 관광지 중 목록 맨 앞에 나오는 곳이 어딘지, 그리고 거기서 500m 안에 있는 문화시설 수와 음식점 수를 알아봐줘.",
            "Jongno-gu: the first sight in the list, and the numbers of cultural facilities and restaurants within 500 m.",
        ),
    ]
    out = []
    for i, (sido, sgg, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        ctype, radius = (32, 1000) if i == 0 else (14, 500)
        steps = [
            step("s1", AREA, {"numOfRows": 20}),
            step("s2", AREA, {"areaCode": f"$s1.items[?name=='{sido}'].code | [0]", "numOfRows": 30}),
            step(
                "s3",
                AREA_LIST,
                {
                    "areaCode": f"$s1.items[?name=='{sido}'].code | [0]",
                    "sigunguCode": f"$s2.items[?name=='{sgg}'].code | [0]",
                    "contentTypeId": 12,
                    "arrange": "A",
                },
            ),
            step("s4", DETAIL, {"contentId": "$s3.items[0].contentid"}),
            step(
                "s5",
                NEARBY,
                {
                    "mapX": "$s4.items[0].mapx",
                    "mapY": "$s4.items[0].mapy",
                    "radius": radius,
                    "contentTypeId": ctype,
                },
            ),
            step(
                "s6",
                NEARBY,
                {
                    "mapX": "$s4.items[0].mapx",
                    "mapY": "$s4.items[0].mapy",
                    "radius": radius,
                    "contentTypeId": 39,
                },
            ),
        ]
        facts = [
            fact("sight", "첫 관광지 (first sight)", "$s4.items[0].title"),
            fact("n", "주변 시설 수 (facilities nearby)", "$s5.totalCount", "number"),
            fact("food", "주변 음식점 수 (restaurants nearby)", "$s6.totalCount", "number"),
        ]
        if i == 0:
            facts.insert(1, fact("addr", "주소", "$s4.items[0].addr1"))
        out.append(Spec("chain4plus", "tourism", q, qe, c, steps, facts))
    return out


def festivals_weekend() -> list[Spec]:
    """Pagination: festivals running from a date; the filtered answer needs every page."""
    rows = [
        (
            "1",
            "20261017",
            "2026-10-15",
            "10:20",
            "이번 주 토요일(10월 17일)에 서울에서 열리고 있는 축제가 몇 개인지, 이름도 다 알려줘.",
            "Festivals in Seoul running on Saturday 17 October: how many, and their names.",
        ),
    ]
    out = []
    for area, day8, day, hm, q, qe in rows:
        c = clock(day, hm)
        # Running on a day: any festival that started this year and has not ended (the world has
        # none longer than that); starting from today: eventStartDate is today.
        start = f"{day[:4]}0101" if area == "1" else ymd(c)
        pages = -(-probe_total(c, FESTIVAL, {"eventStartDate": start, "areaCode": area}) // 10)
        steps = [step("f1", FESTIVAL, {"eventStartDate": start, "areaCode": area})]
        steps += [
            step(f"f{k}", FESTIVAL, {"eventStartDate": start, "areaCode": area, "pageNo": k})
            for k in range(2, pages + 1)
        ]
        allrows = "[" + ", ".join(f"f{k}.items" for k in range(1, pages + 1)) + "][]"
        cond = (
            f"to_number(eventstartdate) <= `{day8}` && to_number(eventenddate) >= `{day8}`"
            if area == "1"
            else f"to_number(eventstartdate) >= `{ymd(c)}` && to_number(eventstartdate) <= `{day8}`"
        )
        out.append(
            Spec(
                "pagination",
                "tourism",
                q,
                qe,
                c,
                steps,
                [
                    fact(
                        "names", "해당 축제 이름 (festival names)", f"$_.{allrows} | [?{cond}].title", "set"
                    ),  # asked: 이름도 다
                    fact("n", "개수 (count)", f"$_.length({allrows} | [?{cond}])", "number"),
                ],
                state=tuple(f"pages:f{k}" for k in range(2, pages + 1)),
            )
        )
    return out


def day_trip_planner() -> list[Spec]:
    """Sight -> detail -> nearby food and lodging (parallel) + the mid-term forecast (6 calls)."""
    rows = [
        # five days on: the short-range forecast issued the same evening reaches only four days ahead, so
        # the mid-term forecast is the one forecast of that day (four days on, both covered it and differed)
        (
            "경복궁",
            "11B00000",
            "11B10101",
            "2026-10-14",
            "20:00",
            5,
            "닷새 뒤 경복궁 가족 나들이 계획 중이에요. 그날 서울 날씨(오후 하늘, 최고기온), 경복궁 주소, 근처 1km 식당 수와 숙소 수를 알려주세요.",
            "Family outing to Gyeongbokgung in five days: Seoul's afternoon sky and high that day, the address, restaurants and lodgings within 1 km.",
        ),
        (
            "불국사",
            "11H10000",
            "11H10201",
            "2026-11-02",
            "07:30",
            5,
            "5일 뒤에 경주 불국사 가려고 해요. 그날 오전 강수확률과 최저기온, 불국사 전화번호, 주변 2km 음식점·숙박 개수까지 정리해 줘.",
            "Bulguksa in five days: morning chance of rain and low that day, its phone, eateries and lodgings within 2 km.",
        ),
        (
            "성산일출봉",
            "11G00000",
            "11G00201",
            "2026-09-20",
            "18:10",
            6,
            "엿새 뒤 성산일출봉 일출 보러 가요. 그날 제주 오전 하늘 상태, 성산일출봉 개요, 3km 안 숙소가 몇 곳인지 알려줘.",
            "Sunrise at Seongsan Ilchulbong in six days: Jeju's morning sky that day, the site's overview, lodgings within 3 km.",
        ),
    ]
    out = []
    for i, (sight, land, city, day, hm, n, q, qe) in enumerate(rows):
        c = clock(day, hm)
        tm = mid_tmfc(c)
        radius = [1000, 2000, 3000][i]
        steps = [
            step("s1", KW, {"keyword": sight, "contentTypeId": 12}),
            step("s2", DETAIL, {"contentId": "$s1.items[0].contentid"}),
            step(
                "n1",
                NEARBY,
                {
                    "mapX": "$s2.items[0].mapx",
                    "mapY": "$s2.items[0].mapy",
                    "radius": radius,
                    "contentTypeId": 39,
                },
            ),
            step(
                "n2",
                NEARBY,
                {
                    "mapX": "$s2.items[0].mapx",
                    "mapY": "$s2.items[0].mapy",
                    "radius": radius,
                    "contentTypeId": 32,
                },
            ),
            step("w1", MID_LAND, {"regId": land, "tmFc": tm}),
            step("w2", MID_TA, {"regId": city, "tmFc": tm}),
        ]
        if i == 0:
            facts = [
                fact("sky", "오후 하늘", f"$w1.items[0].wf{n}Pm", "code_label", labels="kma_mid_wf"),
                fact("tmax", "최고기온", f"$w2.items[0].taMax{n}", "number", 0.5),
                fact("addr", "주소", "$s2.items[0].addr1"),
                fact("food", "식당 수", "$n1.totalCount", "number"),
                fact("stay", "숙소 수", "$n2.totalCount", "number"),
            ]
        elif i == 1:
            facts = [
                fact("pop", "오전 강수확률", f"$w1.items[0].rnSt{n}Am", "number"),
                fact("tmin", "최저기온", f"$w2.items[0].taMin{n}", "number", 0.5),
                fact("tel", "전화", "$s2.items[0].tel", "exact"),
                fact("food", "식당 수", "$n1.totalCount", "number"),
                fact("stay", "숙소 수", "$n2.totalCount", "number"),
            ]
        else:
            facts = [
                fact("sky", "오전 하늘", f"$w1.items[0].wf{n}Am", "code_label", labels="kma_mid_wf"),
                fact("overview", "개요", "$s2.items[0].overview", required=False),
                fact("stay", "숙소 수", "$n2.totalCount", "number"),
            ]
        out.append(Spec("chain4plus", "tourism", q, qe, c, steps, facts, difficulty="hard"))
    return out


def festival_details() -> list[Spec]:
    """A 시도's festival list, then the detail of the three that start first (4 calls): each detail
    call picks its contentid out of the whole list."""
    rows = [
        (
            "6",
            "부산",
            "2026-10-01",
            "09:30",
            "부산에서 이번 달 1일 이후 시작하는 축제 중 가장 먼저 시작하는 세 곳의 이름, 주소, 전화번호를 알려주세요.",
            "Busan festivals starting from the 1st of this month: the three that start first, with address and phone.",
        ),
        (
            "1",
            "서울",
            "2026-09-20",
            "14:40",
            "서울에서 오늘 이후 시작하는 축제·행사 중 제일 먼저 열리는 세 개의 주소와 문의 전화번호를 정리해 줘.",
            "Seoul festivals and events starting from today: the first three to open, with address and phone.",
        ),
        (
            "31",
            "경기",
            "2026-10-16",
            "20:20",
            "이번 주말부터 경기도 축제를 다녀보려고요. 오늘 이후에 시작하는 경기도 축제 중 가장 빨리 열리는 세 개의 이름과 주소, 연락처를 알려주세요.",
            "Gyeonggi festivals starting from today: the three that open first, with name, address and contact.",
        ),
        (
            "39",
            "제주",
            "2026-09-08",
            "10:50",
            "제주 여행 일정 짜는 중이에요. 오늘부터 시작하는 제주 축제 가운데 제일 먼저 시작하는 세 곳 주소와 전화번호 부탁해요.",
            "Planning a Jeju trip: of the Jeju festivals starting from today, the first three to start, with address and "
            "phone.",
        ),
    ]
    out = []
    for area, _name, day, hm, q, qe in rows:
        c = clock(day, hm)
        start = f"{day[:4]}{day[5:7]}01" if "1일" in q else ymd(c)
        total = probe_total(c, FESTIVAL, {"eventStartDate": start, "areaCode": area})
        assert 3 <= total <= 30, total
        # the list holds festivals still running on that date too; the question asks for ones
        # starting on or after it
        first = f"sort_by(items[?to_number(eventstartdate) >= `{start}`], &eventstartdate)"
        steps = [step("f1", FESTIVAL, {"eventStartDate": start, "areaCode": area, "numOfRows": 30})]
        steps += [
            step(f"d{k}", DETAIL, {"contentId": f"$f1.{first}[{k - 1}].contentid"}) for k in range(1, 4)
        ]
        # the later ones are competitors: a pasted list of every festival picks no three
        facts = [
            fact(
                "names",
                "가장 먼저 시작하는 세 축제",
                f"$f1.{first}[:3].title",
                "set",
                competitors=f"$f1.{first}[3:].title",
            )
        ]
        for k in range(1, 4):
            facts.append(
                fact(
                    f"addr{k}", f"{k}번째 축제 주소", f"$d{k}.items[0].addr1", subject=f"$d{k}.items[0].title"
                )
            )
            # every question asks the phone too ("전화번호", "연락처"): an answer without it is short
            facts.append(
                fact(
                    f"tel{k}",
                    f"{k}번째 축제 전화",
                    f"$d{k}.items[0].tel",
                    "exact",
                    subject=f"$d{k}.items[0].title",
                )
            )
        out.append(Spec("chain3", "tourism", q, qe, c, steps, facts))
    return out


FAMILIES: list[Family] = [
    restaurants_near_sight,
    district_sights_tour,
    festivals_weekend,
    day_trip_planner,
    festival_details,
]
