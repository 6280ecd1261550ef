"""Transport task families: bus stops and arrivals (tago) and Seoul subway ridership (seoul)."""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, month_word, step, ym
from kopa_inspect.task_data.plan_parts import (
    ARVL,
    CITY,
    STN,
    STTN,
    SUBWAY_TIME,
    city_ref,
    ranked_others,
    stop_args,
    stop_ref,
)


def next_bus() -> list[Spec]:
    """City code -> stop id -> arrivals: three chained code lookups."""
    rows = [
        (
            "대전광역시",
            "충남대학교",
            "2026-10-15",
            "08:10",
            "대전 충남대학교 정류장(길 양쪽 다)에 지금 제일 먼저 도착하는 버스 번호랑 몇 분 뒤에 오는지 알려줘.",
            "Daejeon, Chungnam National University stop: which bus arrives first and in how many minutes?",
        ),
        (
            "제주도",
            "동문시장",
            "2026-11-07",
            "13:40",
            "제주 동문시장 버스정류장 양방향 통틀어서 곧 들어오는 버스 중 가장 빨리 오는 건 몇 번이에요?",
            "Jeju Dongmun Market stop: the soonest arriving bus number?",
        ),
        (
            "수원시",
            "팔달문",
            "2026-09-16",
            "17:55",
            "수원 팔달문 정류장(양쪽 방향 모두), 지금 오는 버스 중에 제일 빨리 오는 거 번호와 남은 정류장 수 알려주세요.",
            "Suwon, Paldalmun stop: the first arriving bus and how many stops away.",
        ),
    ]
    out = []
    for i, (city, stop, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        both = "[s3.items, s4.items][]"
        facts = [
            fact(
                "route",
                "가장 먼저 오는 노선 번호 (first route no., either side)",
                f"$_.min_by({both}, &arrtime).routeno",
            )
        ]
        if i == 2:
            facts.append(
                fact(
                    "cnt",
                    "남은 정류장 수 (stops away)",
                    f"$_.min_by({both}, &arrtime).arrprevstationcnt",
                    "number",
                )
            )
        else:
            facts.append(
                fact(
                    "min",
                    "도착까지 남은 시간 (arrival in; API seconds)",
                    f"$_.min({both}[].arrtime)",
                    "duration",
                    60.0,
                    unit="s",
                )
            )
        out.append(
            Spec(
                "chain4plus",
                "transport",
                q,
                qe,
                c,
                [
                    step("s1", CITY, {"numOfRows": 30}),
                    step("s2", STTN, stop_args(city_ref("s1", city), stop)),
                    step(
                        "s3",
                        ARVL,
                        {
                            "cityCode": city_ref("s1", city),
                            "nodeId": stop_ref("s2", stop, 0),
                            "numOfRows": 30,
                        },
                    ),
                    step(
                        "s4",
                        ARVL,
                        {
                            "cityCode": city_ref("s1", city),
                            "nodeId": stop_ref("s2", stop, 1),
                            "numOfRows": 30,
                        },
                    ),
                ],
                facts,
                notes="the stop name has a stop on each side of the road: both must be checked",
            )
        )
    return out


def bus_both_directions() -> list[Spec]:
    """A stop name has one stop per direction: fan out to both."""
    rows = [
        (
            21,
            "센텀시티",
            "2026-10-21",
            "07:45",
            "부산 센텀시티 정류장이 길 양쪽에 있던데, 두 정류장 모두 지금 도착 예정 버스가 몇 대씩 있는지 알려줘.",
            "Busan Centum City has a stop on each side: how many buses are due at each?",
        ),
        (
            25,
            "북대전농협",
            "2026-11-10",
            "18:20",
            "대전(도시코드 25) 북대전농협 정류장 양방향 도착정보를 다 보고 가장 빨리 오는 버스를 찾아줘.",
            "Daejeon (city 25) Bukdaejeon Nonghyup stops, both directions: the soonest bus overall.",
        ),
        (
            31010,
            "수원시청",
            "2026-09-30",
            "12:05",
            "수원시청 정류장 두 곳 도착 버스 목록 비교해서, 노선이 더 많은 쪽 정류장 번호를 알려주세요.",
            "Suwon City Hall stops: which of the two stops has more routes (stop number)?",
        ),
    ]
    out = []
    for i, (code, stop, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", STTN, stop_args(code, stop)),
            step("a1", ARVL, {"cityCode": code, "nodeId": stop_ref("s1", stop, 0), "numOfRows": 30}),
            step("a2", ARVL, {"cityCode": code, "nodeId": stop_ref("s1", stop, 1), "numOfRows": 30}),
        ]
        if i == 0:
            facts = [
                fact("n1", "첫 정류장 도착 예정 수", "$a1.totalCount", "number"),
                fact("n2", "둘째 정류장 도착 예정 수", "$a2.totalCount", "number"),
            ]
        elif i == 1:
            facts = [
                fact("route", "가장 빨리 오는 노선", "$_.min_by([a1.items, a2.items][], &arrtime).routeno"),
                fact(
                    "sec",
                    "도착까지 남은 시간 (API seconds)",
                    "$_.min([a1.items, a2.items][].arrtime)",
                    "duration",
                    60.0,
                    unit="s",
                ),
            ]
        else:
            facts = [
                fact(
                    "stop",
                    "노선이 더 많은 정류장 번호 (nodeno)",
                    f"$_.max_by([{{no: {stop_ref('s1', stop, 0, 'nodeno', '')}, n: length(a1.items[].routeid)}},"
                    f" {{no: {stop_ref('s1', stop, 1, 'nodeno', '')}, n: length(a2.items[].routeid)}}], &n).no",
                    "exact",
                )
            ]
        out.append(Spec("parallel", "transport", q, qe, c, steps, facts))
    return out


def subway_rush_hour() -> list[Spec]:
    """Station -> line -> monthly ridership by hour; several stations in parallel."""
    rows = [
        (
            ["강남", "잠실", "홍대입구", "삼성"],
            "2026-10-12",
            "09:30",
            "강남역, 잠실역, 홍대입구역, 삼성역 중 지난달 아침 8시대 승차 인원이 가장 많은 역은 어디고 몇 명이었어요? 역마다 그 전달 인원도 같이 알려줘요.",
            "Gangnam, Jamsil, Hongik Univ., Samseong: which had the most 8 a.m. boardings last month, and how many? "
            "Give each station's figure for the month before too.",
        ),
        (
            ["서울역", "시청", "광화문"],
            "2026-11-04",
            "18:10",
            "서울역, 시청역, 광화문역 지난달 저녁 6시대 하차 인원 비교해 줘. 퇴근 인파가 어디가 제일 많은지, 그 전달보다 늘었는지도 궁금해요.",
            "Seoul Station, City Hall, Gwanghwamun: last month's 6 p.m. alightings; where is the evening crowd biggest, "
            "and each station's figure the month before?",
        ),
    ]
    out = []
    for i, (stations, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        names = stations
        steps = [
            step(f"a{k}", STN, {"START_INDEX": 1, "END_INDEX": 5, "STATION_NM": n})
            for k, n in enumerate(names, 1)
        ]
        key = "EIGHT_RIDE_NUM" if i == 0 else "EIGHTEEN_ALIGHT_NUM"
        steps += [
            step(
                f"b{k}",
                SUBWAY_TIME,
                {
                    "START_INDEX": 1,
                    "END_INDEX": 5,
                    "USE_MON": ym(c, -1),
                    "SUB_STA_NM": f"$a{k}.items[0].STATION_NM",
                },
            )
            for k in range(1, len(names) + 1)
        ]
        steps += [
            step(
                f"c{k}",
                SUBWAY_TIME,
                {
                    "START_INDEX": 1,
                    "END_INDEX": 5,
                    "USE_MON": ym(c, -2),
                    "SUB_STA_NM": f"$a{k}.items[0].STATION_NM",
                },
            )
            for k in range(1, len(names) + 1)
        ]
        # row 0 asks last month's count of the top station only (삼성, the fourth named) and every
        # station's month before; row 1 compares all stations
        # a station on several lines (서울역: 1호선 and 4호선) has a row per line: its count is their sum
        now, before = month_word(ym(c, -1)), month_word(ym(c, -2))
        facts = [
            fact(
                f"n{k}",
                f"{n} {now} {key}",
                f"$b{k}.sum(nums(items[].{key}))",
                "number",
                required=i == 1 or k == 4,
                subject=n,
            )
            for k, n in enumerate(names, 1)
        ]
        facts += [
            fact(
                f"p{k}", f"{n} 그 전달 {before} {key}", f"$c{k}.sum(nums(items[].{key}))", "number", subject=n
            )
            for k, n in enumerate(names, 1)
        ]
        objs = ", ".join(f"{{s: '{n}', v: sum(nums(b{k}.items[].{key}))}}" for k, n in enumerate(names, 1))
        facts.append(
            fact(
                "top", "가장 많은 역", f"$_.max_by([{objs}], &v).s", competitors=ranked_others(objs, "v", "s")
            )
        )
        out.append(Spec("parallel", "transport", q, qe, c, steps, facts))
    return out


def bus_trip_both_cities() -> list[Spec]:
    """Two cities' stops and arrivals in parallel, after one city-code lookup (5 calls)."""
    rows = [
        (
            ("대전광역시", "북대전농협"),
            ("수원시", "수원월드컵경기장"),
            "2026-10-30",
            "07:40",
            "출장 일정 때문에 그래요. 대전 북대전농협 정류장과 수원월드컵경기장 정류장(둘 다 길 양쪽)에 지금 가장 빨리 오는 버스가 각각 몇 번이고 몇 초 뒤인지 알려주세요.",
            "Business trip: the soonest bus (number, seconds) at Daejeon Bukdaejeon Nonghyup stop and at Suwon World Cup "
            "Stadium stop, either side of the road.",
        ),
        (
            ("부산광역시", "해운대해수욕장"),
            ("제주도", "동문시장"),
            "2026-11-21",
            "16:20",
            "부산 해운대해수욕장 정류장이랑 제주 동문시장 정류장의 도착 예정 버스 수를 양방향 합쳐서 비교해 줘.",
            "Busan Haeundae Beach stop vs Jeju Dongmun Market stop: how many buses are due at each, both directions together?",
        ),
    ]
    out = []
    for i, ((ca, sa), (cb, sb), day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [
            step("s1", CITY, {"numOfRows": 30}),
            step("a1", STTN, stop_args(city_ref("s1", ca), sa)),
            step("b1", STTN, stop_args(city_ref("s1", cb), sb)),
            step(
                "a2", ARVL, {"cityCode": city_ref("s1", ca), "nodeId": stop_ref("a1", sa, 0), "numOfRows": 30}
            ),
            step(
                "b2", ARVL, {"cityCode": city_ref("s1", cb), "nodeId": stop_ref("b1", sb, 0), "numOfRows": 30}
            ),
            step(
                "a3", ARVL, {"cityCode": city_ref("s1", ca), "nodeId": stop_ref("a1", sa, 1), "numOfRows": 30}
            ),
            step(
                "b3", ARVL, {"cityCode": city_ref("s1", cb), "nodeId": stop_ref("b1", sb, 1), "numOfRows": 30}
            ),
        ]
        ab, bb = "[a2.items, a3.items][]", "[b2.items, b3.items][]"
        if i == 0:
            facts = [
                fact("ra", f"{sa} 첫 버스", f"$_.min_by({ab}, &arrtime).routeno", subject=sa),
                fact(
                    "ta",
                    f"{sa} 도착까지 (API seconds)",
                    f"$_.min({ab}[].arrtime)",
                    "duration",
                    60.0,
                    unit="s",
                    subject=sa,
                ),
                fact("rb", f"{sb} 첫 버스", f"$_.min_by({bb}, &arrtime).routeno", subject=sb),
                fact(
                    "tb",
                    f"{sb} 도착까지 (API seconds)",
                    f"$_.min({bb}[].arrtime)",
                    "duration",
                    60.0,
                    unit="s",
                    subject=sb,
                ),
            ]
        else:
            facts = [
                fact(
                    "na",
                    f"{sa} 도착 예정 수 (both sides)",
                    "$_.sum([a2.totalCount, a3.totalCount])",
                    "number",
                    subject=sa,
                ),
                fact(
                    "nb",
                    f"{sb} 도착 예정 수 (both sides)",
                    "$_.sum([b2.totalCount, b3.totalCount])",
                    "number",
                    subject=sb,
                ),
            ]
        out.append(Spec("chain3", "transport", q, qe, c, steps, facts))
    return out


def bus_three_cities() -> list[Spec]:
    """One city-code list, then a stop search and its arrivals in three cities (7 calls): every
    stop and arrival call reads its cityCode out of the whole list."""
    rows = [
        (
            [("대전광역시", "충남대학교"), ("제주도", "동문시장"), ("수원시", "팔달문")],
            "2026-10-28",
            "08:05",
            "대전 충남대학교, 제주 동문시장, 수원 팔달문 정류장(길 양쪽 다)에 지금 가장 먼저 오는 버스 번호와 남은 시간을 각각 알려줘요.",
            "Chungnam National University (Daejeon), Dongmun Market (Jeju), Paldalmun (Suwon) stops, both sides of the "
            "road: the first bus at each and how long until it arrives.",
        ),
        (
            [("부산광역시", "센텀시티"), ("대전광역시", "북대전농협"), ("수원시", "수원시청")],
            "2026-11-19",
            "18:25",
            "부산 센텀시티, 대전 북대전농협, 수원시청 정류장 세 곳의 도착 예정 버스가 양방향 합쳐 각각 몇 대인지, 제일 많은 곳이 어딘지 알려주세요.",
            "Centum City (Busan), Bukdaejeon Nonghyup (Daejeon), Suwon City Hall stops: how many buses are due at each "
            "(both directions together), and which has the most?",
        ),
        (
            [
                ("부산광역시", "해운대해수욕장"),
                ("제주도", "동문시장"),
                ("대전광역시", "충남대학교"),
                ("수원시", "수원월드컵경기장"),
            ],
            "2026-09-23",
            "12:35",
            "출장 동선 점검용이에요. 부산 해운대해수욕장, 제주 동문시장, 대전 충남대학교, 수원월드컵경기장 정류장에 지금 도착 예정인 버스가 (길 양쪽 정류장 합쳐서) 각각 몇 대고 어디가 제일 많은지 알려주세요.",
            "Trip check: buses due now at Haeundae Beach (Busan), Dongmun Market (Jeju), Chungnam National University "
            "(Daejeon) and Suwon World Cup Stadium stops, both sides of the road together, and which has the most.",
        ),
        (
            [("수원시", "수원월드컵경기장"), ("부산광역시", "센텀시티"), ("제주도", "동문시장")],
            "2026-10-10",
            "19:05",
            "경기 끝나고 이동하려고요. 수원월드컵경기장, 부산 센텀시티, 제주 동문시장 정류장 중 지금 들어올 버스가 양방향 합쳐 제일 많이 잡힌 곳이 어디고 각각 몇 대인가요?",
            "After the match: at Suwon World Cup Stadium, Centum City (Busan) and Dongmun Market (Jeju) stops, how many "
            "buses are due at each (both directions together) and where are the most?",
        ),
        (
            [
                ("대전광역시", "북대전농협"),
                ("수원시", "팔달문"),
                ("부산광역시", "해운대해수욕장"),
                ("대전광역시", "충남대학교"),
            ],
            "2026-11-05",
            "07:25",
            "아침 배차 모니터링 중입니다. 북대전농협, 수원 팔달문, 해운대해수욕장, 충남대학교 정류장별로 양방향 도착 예정 버스 대수를 합쳐 세고 가장 붐비는 정류장을 알려주세요.",
            "Morning dispatch monitoring: the number of buses due at Bukdaejeon Nonghyup, Paldalmun (Suwon), Haeundae "
            "Beach and Chungnam National University stops (both directions together), and the busiest one.",
        ),
    ]
    out = []
    for i, (pairs, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = [step("s1", CITY, {"numOfRows": 30})]
        facts, objs = [], []
        for k, (city, stop) in enumerate(pairs, 1):
            steps.append(step(f"n{k}", STTN, stop_args(city_ref("s1", city), stop)))
            # a stop name has a stop on each side of the road: both are asked for
            steps.append(
                step(
                    f"a{k}",
                    ARVL,
                    {"cityCode": city_ref("s1", city), "nodeId": stop_ref(f"n{k}", stop, 0), "numOfRows": 30},
                )
            )
            steps.append(
                step(
                    f"b{k}",
                    ARVL,
                    {"cityCode": city_ref("s1", city), "nodeId": stop_ref(f"n{k}", stop, 1), "numOfRows": 30},
                )
            )
            both = f"[a{k}.items, b{k}.items][]"
            if i == 0:
                facts.append(
                    fact(
                        f"r{k}",
                        f"{stop} 첫 버스 (first route, either side)",
                        f"$_.min_by({both}, &arrtime).routeno",
                        subject=stop,
                    )
                )
                facts.append(
                    fact(
                        f"t{k}",
                        f"{stop} 도착까지 (API seconds)",
                        f"$_.min({both}[].arrtime)",
                        "duration",
                        60.0,
                        unit="s",
                        subject=stop,
                    )
                )
            else:
                facts.append(
                    fact(
                        f"c{k}",
                        f"{stop} 도착 예정 버스 수 (both sides)",
                        f"$_.sum([a{k}.totalCount, b{k}.totalCount])",
                        "number",
                        subject=stop,
                    )
                )
                objs.append(f"{{s: '{stop}', n: sum([a{k}.totalCount, b{k}.totalCount])}}")
        if objs:
            joined = ", ".join(objs)
            facts.append(
                fact(
                    "most",
                    "도착 예정이 가장 많은 정류장",
                    f"$_.max_by([{joined}], &n).s",
                    competitors=ranked_others(joined, "n", "s"),
                )
            )
        out.append(Spec("chain4plus", "transport", q, qe, c, steps, facts, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    next_bus,
    bus_both_directions,
    subway_rush_hour,
    bus_trip_both_cities,
    bus_three_cities,
]
