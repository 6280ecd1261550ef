"""Environment task families: air quality near a 동 or across a 시도 (airkorea), and the weather
beside it.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family, Spec, clock, fact, ncst_base, step
from kopa_inspect.task_data.plan_parts import (
    NCST,
    NEAR,
    RLTM,
    SIDO_RLTM,
    TM,
    cat_value,
    grid_step,
    gxy,
    probe_total,
)


def _air_chain(prefix: str, dong: str, sido: str | None = None) -> list[dict]:
    # the 동 search matches substrings (우동 -> 사우동, 창우동, 우동, 망우동): the row of that 동 itself (in
    # the province, where the question names it); the first row only when none is named exactly
    row = (
        f"items[?umdName=='{dong}' && sidoName=='{sido}'] | [0]"
        if sido
        else f"(items[?umdName=='{dong}'] || items) | [0]"
    )
    return [
        step(f"{prefix}1", TM, {"umdName": dong}),
        step(f"{prefix}2", NEAR, {"tmX": f"${prefix}1.{row}.tmX", "tmY": f"${prefix}1.{row}.tmY"}),
        step(
            f"{prefix}3",
            RLTM,
            {
                "stationName": f"${prefix}2.items[0].stationName",
                "dataTerm": "DAILY",
                "ver": "1.3",
                "numOfRows": 1,
            },
        ),
    ]


def dust_near_dong() -> list[Spec]:
    """동 name -> TM coordinates -> nearest station -> its latest measurement."""
    rows = [
        (
            "역삼동",
            "2026-10-15",
            "14:20",
            "역삼동에서 제일 가까운 대기측정소가 어디고 지금 미세먼지(PM10)랑 초미세먼지가 얼마야? 가까운 측정소 세 곳 PM10 평균도 알려줘.",
            "Nearest air station to Yeoksam-dong, its PM10 and PM2.5 now, and the mean PM10 of the three nearest stations.",
        ),
        (
            "정자동",
            "2026-11-03",
            "08:10",
            "분당 정자동 근처 측정소 기준으로 지금 초미세먼지 농도랑 등급 좀 알려주세요. 두 번째로 가까운 측정소 초미세먼지도요. 아이 등원시키려고요.",
            "Near Jeongja-dong (Bundang): current PM2.5 and its grade at the nearest station, and PM2.5 at the "
            "second-nearest station (school run).",
        ),
    ]
    out = []
    for i, (dong, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        facts = [fact("station", "가장 가까운 측정소", "$s2.items[0].stationName")]
        if i == 0:
            facts += [
                fact("pm10", "PM10 (㎍/㎥)", "$s3.items[0].pm10Value", "number"),
                fact("pm25", "PM2.5 (㎍/㎥)", "$s3.items[0].pm25Value", "number"),
            ]
        elif i == 1:
            facts += [
                fact("pm25", "PM2.5 (㎍/㎥)", "$s3.items[0].pm25Value", "number"),
                fact(
                    "grade",
                    "PM2.5 등급 (air-quality grade)",
                    "$s3.items[0].pm25Grade",
                    "code_label",
                    labels="airkorea_grade",
                ),
            ]
        else:
            facts += [
                fact("khai", "통합대기환경지수", "$s3.items[0].khaiValue", "number"),
                fact("o3", "오존 (ppm)", "$s3.items[0].o3Value", "number", 0.001),
            ]
        steps = _air_chain("s", dong)
        if i == 0:  # only this question asks for the three nearest stations' mean
            steps += [
                step(
                    f"s{k}",
                    RLTM,
                    {
                        "stationName": f"$s2.items[{k - 3}].stationName",
                        "dataTerm": "DAILY",
                        "ver": "1.3",
                        "numOfRows": 1,
                    },
                )
                for k in (4, 5)
            ]
            facts.append(
                fact(
                    "avg3",
                    "가까운 3곳 평균 PM10",
                    "$_.avg(nums([s3.items[0].pm10Value, s4.items[0].pm10Value, s5.items[0].pm10Value]))",
                    "number",
                    1.0,
                )
            )
        elif i == 1:  # the second-nearest station too
            steps.append(
                step(
                    "s4",
                    RLTM,
                    {
                        "stationName": "$s2.items[1].stationName",
                        "dataTerm": "DAILY",
                        "ver": "1.3",
                        "numOfRows": 1,
                    },
                )
            )
            facts += [
                fact("station2", "두 번째로 가까운 측정소", "$s2.items[1].stationName"),
                fact(
                    "pm25b",
                    "두 번째 측정소 PM2.5 (㎍/㎥)",
                    "$s4.items[0].pm25Value",
                    "number",
                    subject="$s2.items[1].stationName",
                ),
            ]
        out.append(Spec("chain4plus", "environment", q, qe, c, steps, facts))
    return out


def dust_three_dongs() -> list[Spec]:
    """Fan-out of the 3-hop chain over three 동: 9 calls in three waves."""
    rows = [
        (
            ["역삼동", "서교동", "정자동"],
            None,
            "2026-10-21",
            "07:30",
            "저희 가족이 역삼동, 서교동, 분당 정자동에 흩어져 사는데 지금 세 동네 중 초미세먼지가 제일 심한 곳이 어디예요?",
            "Family in Yeoksam, Seogyo and Jeongja: where is PM2.5 worst right now?",
        ),
        (
            ["청운동", "우동", "연동"],
            ["서울특별시", "부산광역시", "제주특별자치도"],
            "2026-11-25",
            "12:50",
            "서울 청운동, 부산 우동, 제주 연동 세 곳 근처 측정소의 현재 PM10을 비교해 주세요.",
            "Cheongun-dong (Seoul), U-dong (Busan), Yeon-dong (Jeju): compare current PM10 at the nearest stations.",
        ),
    ]
    out = []
    for i, (dongs, sidos, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        steps = []
        for k, d in enumerate(dongs):
            steps += _air_chain("abc"[k], d, sidos[k] if sidos else None)
        key = "pm25Value" if i == 0 else "pm10Value"
        objs = ", ".join(
            f"{{d: '{d}', v: num({p}3.items[0].{key})}}" for d, p in zip(dongs, "abc", strict=True)
        )
        facts = [
            fact(f"v{k}", f"{d} {key}", f"${p}3.items[0].{key}", "number", subject=d)
            for k, (d, p) in enumerate(zip(dongs, "abc", strict=True), 1)
        ]
        facts.append(
            fact(
                "worst",
                "가장 나쁜 동네",
                f"$_.max_by([{objs}] | [?v != null], &v).d",
                competitors=f"$_.reverse(sort_by([{objs}] | [?v != null], &v))[1:].d",
            )
        )
        out.append(Spec("parallel", "environment", q, qe, c, steps, facts, difficulty="hard"))
    return out


def worst_station_in_sido() -> list[Spec]:
    """Pagination: every station of a 시도 (10 per page) to find the worst one."""
    rows = [
        (
            "서울",
            "pm10Value",
            "2026-10-15",
            "14:20",
            "지금 서울 측정소 전체 중에서 미세먼지(PM10)가 가장 높은 곳과 그 수치를 알려줘.",
            "Across all Seoul stations now: the highest PM10 and where.",
        ),
        (
            "부산",
            "pm25Value",
            "2026-11-06",
            "09:30",
            "부산 모든 측정소의 현재 초미세먼지를 훑어서 가장 높은 측정소 이름을 찾아주세요.",
            "Every Busan station: which has the highest PM2.5 now?",
        ),
        (
            "경기",
            "o3Value",
            "2026-09-19",
            "15:10",
            "오존주의보 대비 자료예요. 경기도 전체 측정소의 현재 오존 농도를 다 확인해서 가장 높은 측정소와 값을 알려주세요.",
            "Ozone-alert prep: across all Gyeonggi stations, the highest ozone now and where.",
        ),
    ]
    out = []
    for sido, key, day, hm, q, qe in rows:
        c = clock(day, hm)
        total = probe_total(c, SIDO_RLTM, {"sidoName": sido, "ver": "1.3", "numOfRows": 1})
        n_pages = -(-total // 10)
        steps = [
            step(f"p{k}", SIDO_RLTM, {"sidoName": sido, "ver": "1.3", "numOfRows": 10, "pageNo": k})
            for k in range(1, n_pages + 1)
        ]
        allrows = "[" + ", ".join(f"p{k}.items" for k in range(1, n_pages + 1)) + "][]"
        valid = f"{allrows} | [?num({key}) != null]"
        out.append(
            Spec(
                "pagination",
                "environment",
                q,
                qe,
                c,
                steps,
                [
                    fact(
                        "station",
                        "최고 측정소",
                        f"$_.max_by({valid}, &num({key})).stationName",
                        competitors=f"$_.reverse(sort_by({valid}, &num({key})))[1:].stationName",
                    ),
                    fact(
                        "value",
                        "최고값",
                        f"$_.max(nums({allrows}[].{key}))",
                        "number",
                        0.001 if key == "o3Value" else 0.0,
                    ),
                ],
                state=tuple(f"pages:p{k}" for k in range(2, n_pages + 1)),
            )
        )
    return out


def weather_and_air() -> list[Spec]:
    """Across providers: KMA now-cast and AirKorea's 3-hop chain in parallel (4 calls)."""
    rows = [
        (
            "역삼동",
            "서울특별시 강남구",
            "서울",
            "도산대로",
            "2026-10-09",
            "16:30",
            "퇴근길에 강남 역삼동 걸어가려는데 지금 기온이랑 습도, 그리고 근처 미세먼지 수치까지 한 번에 알려줘.",
            "Walking home in Yeoksam-dong (Gangnam): temperature, humidity and nearby PM10 now.",
        ),
        (
            "우동",
            "부산광역시 해운대구",
            "부산",
            "좌동",
            "2026-11-13",
            "07:10",
            "해운대 우동 아침 조깅 가도 될까? 현재 기온, 풍속, 그리고 가까운 측정소 초미세먼지 알려줘.",
            "Morning run in U-dong, Haeundae? Temperature, wind speed and nearby PM2.5 now.",
        ),
    ]
    out = []
    for i, (dong, region, sido, station, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        nb = ncst_base(c)
        # the province-wide real-time list shows the nearest station's latest hour too (``station``:
        # the world's nearest one; tests/task_data checks each also_from gives the fact's value)
        steps = [
            grid_step("g1", region),
            step("w1", NCST, {"base_date": nb[0], "base_time": nb[1], **gxy("g1", dong)}),
        ] + _air_chain("s", dong)
        steps.append(
            step("a1", SIDO_RLTM, {"sidoName": sido, "ver": "1.3", "numOfRows": 100}, required=False)
        )
        facts = [fact("t1h", "기온", cat_value("w1", "T1H", "obsrValue"), "number", 0.1)]
        key, name = ("pm10Value", "PM10") if i == 0 else ("pm25Value", "PM2.5")
        if i == 0:
            facts.append(fact("reh", "습도", cat_value("w1", "REH", "obsrValue"), "number", 1.0))
        else:
            facts.append(fact("wsd", "풍속", cat_value("w1", "WSD", "obsrValue"), "number", 0.1))
        facts.append(
            fact(
                name.lower().replace(".", ""),
                name,
                f"$s3.items[0].{key}",
                "number",
                also_from=[f"$a1.items[?stationName=='{station}'].{key} | [0]"],
            )
        )
        out.append(Spec("chain4plus", "environment", q, qe, c, steps, facts))
    return out


def station_name_recovery() -> list[Spec]:
    """Error recovery: a 동 name is not a station name; the station search answers nothing."""
    rows = [
        (
            "서교동",
            "2026-10-30",
            "10:00",
            "'서교동' 측정소의 지금 미세먼지 알려줘. 그런 이름의 측정소가 없으면 가장 가까운 측정소 값으로요.",
            "PM10 now at the 'Seogyo-dong' station, or at the nearest station if there is none of that name.",
        ),
        (
            "역삼동",
            "2026-09-11",
            "13:25",
            "역삼동 측정소 실시간 초미세먼지 수치 좀 확인해 줄래? 그 측정소가 없으면 제일 가까운 측정소 걸로 알려줘.",
            "Real-time PM2.5 at the 'Yeoksam-dong' station, or at the nearest one if there is no such station?",
        ),
    ]
    out = []
    for i, (dong, day, hm, q, qe) in enumerate(rows):
        c = clock(day, hm)
        key = "pm10Value" if i == 0 else "pm25Value"
        steps = [
            step(
                "e1",
                RLTM,
                {"stationName": dong, "dataTerm": "DAILY", "ver": "1.3"},
                required=False,
                note="no station of that name: empty result; find the nearest station instead",
            )
        ] + _air_chain("s", dong)
        out.append(
            Spec(
                "error_recovery",
                "environment",
                q,
                qe,
                c,
                steps,
                [
                    fact("station", "실제 측정소", "$s2.items[0].stationName"),
                    fact("value", key, f"$s3.items[0].{key}", "number"),
                ],
                notes="a 동 is not a station: the right answer names the nearest station it used",
            )
        )
    return out


def sido_air_worst_trend() -> list[Spec]:
    """One 시도-wide realtime list (every station), the three worst stations picked from it, then
    each one's last 24 hours (1 + 3 calls; the three junctions read the whole list)."""
    rows = [
        (
            "부산",
            "pm10Value",
            "2026-10-23",
            "15:40",
            "지금 부산에서 미세먼지(PM10)가 가장 높은 측정소 세 곳을 찾고, 각 측정소의 최근 24시간 최고 PM10도 알려주세요.",
            "The three Busan stations with the highest PM10 now, and each one's highest PM10 over the last 24 hours.",
        ),
        (
            "대구",
            "pm25Value",
            "2026-11-18",
            "09:20",
            "대구 측정소 중 현재 초미세먼지가 제일 높은 세 곳, 그리고 그 세 곳의 지난 24시간 초미세먼지 최고치를 정리해 줘.",
            "Daegu: the three stations with the highest PM2.5 now, and their 24-hour PM2.5 maxima.",
        ),
        (
            "인천",
            "o3Value",
            "2026-09-15",
            "16:10",
            "인천 전체 측정소 중 지금 오존이 가장 높은 세 곳과, 세 곳 각각의 오늘 하루(최근 24시간) 오존 최고값을 알려주세요.",
            "Incheon: the three stations with the highest ozone now, and each one's ozone maximum over the last 24 hours.",
        ),
    ]
    out = []
    for sido, key, day, hm, q, qe in rows:
        c = clock(day, hm)
        total = probe_total(c, SIDO_RLTM, {"sidoName": sido, "ver": "1.3", "numOfRows": 1})
        assert total <= 40, f"{sido}: {total} stations would not fit one page shown to a model"
        ranked = f"reverse(sort_by(items[?num({key}) != null], &num({key})))"
        steps = [step("s1", SIDO_RLTM, {"sidoName": sido, "ver": "1.3", "numOfRows": 40})]
        facts = [
            fact(
                "top3",
                "현재 상위 3개 측정소 (three worst stations now)",
                f"$s1.{ranked}[:3].stationName",
                "set",
            )
        ]
        for k in range(1, 4):
            steps.append(
                step(
                    f"d{k}",
                    RLTM,
                    {
                        "stationName": f"$s1.{ranked}[{k - 1}].stationName",
                        "dataTerm": "DAILY",
                        "ver": "1.3",
                        "numOfRows": 24,
                    },
                )
            )
            facts.append(
                fact(
                    f"max{k}",
                    f"{k}위 측정소의 24시간 최고 {key}",
                    f"$d{k}.max(nums(items[].{key}))",
                    "number",
                    0.001 if key == "o3Value" else 0.0,
                    subject=f"$s1.{ranked}[{k - 1}].stationName",
                )
            )
        out.append(Spec("chain3", "environment", q, qe, c, steps, facts, difficulty="hard"))
    return out


FAMILIES: list[Family] = [
    dust_near_dong,
    dust_three_dongs,
    worst_station_in_sido,
    weather_and_air,
    station_name_recovery,
    sido_air_worst_trend,
]
