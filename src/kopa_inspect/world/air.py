"""Air-quality monitoring stations and their hourly measurements (AirKorea's world).

Stations are static, seed-independent data: 서울's stations are named after their 구 (as
AirKorea names them: 종로구, 중구, 강남구 ...) plus the real 도로변대기 stations on main roads; other
시도 use the 동/읍 names AirKorea uses (광복동, 수창동, 신흥 ...). Positions are approximate (a few
hundred metres to ~1 km): good for "nearest station" questions, not surveying. Station names
outside 서울 are real-looking, and most are real AirKorea names; UNCERTAIN that every one of them
is still an active station. 부산, 대구 and 인천 hold about as many stations as AirKorea lists there
(20-25 each; the real networks are of that size, UNCERTAIN exact counts), so a 시도-wide query
returns a realistic number of rows; the stations added for that are placed to ~1-2 km (UNCERTAIN).

Measurements are a closed-form function of (seed, station, hour): monthly baselines (spring
dust, summer ozone, winter NO2), a diurnal cycle, a smooth regional anomaly shared by nearby
stations, washout when the world's weather says it rains, and rare instrument faults ("-" with a
flag), so a station's history is consistent however it is queried.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache, lru_cache

from kopa_inspect.world import KST, World, world_part
from kopa_inspect.world.regions import sggs, sidos
from kopa_inspect.world.weather import WeatherModel  # importing registers the "weather" part

# sido(short) sgg name lat lon mang — stations outside 서울's 구 stations.
_STATIONS = """
서울 종로구 종로 37.5720 126.9994 도로변대기
서울 중구 청계천로 37.5690 127.0050 도로변대기
서울 강남구 강남대로 37.4812 127.0359 도로변대기
서울 강남구 도산대로 37.5172 127.0352 도로변대기
서울 서대문구 신촌로 37.5551 126.9372 도로변대기
서울 영등포구 영등포로 37.5194 126.9070 도로변대기
서울 동대문구 홍릉로 37.5803 127.0434 도로변대기
서울 노원구 화랑로 37.6181 127.0754 도로변대기
서울 용산구 한강대로 37.5490 126.9720 도로변대기
서울 강서구 공항대로 37.5620 126.8250 도로변대기
서울 동대문구 천호대로 37.5680 127.0640 도로변대기
서울 동작구 동작대로_중앙차로 37.4810 126.9820 도로변대기
서울 금천구 시흥대로 37.4750 126.8980 도로변대기
부산 중구 광복동 35.0997 129.0307 도시대기
부산 동구 초량동 35.1150 129.0410 도시대기
부산 부산진구 전포동 35.1530 129.0640 도시대기
부산 연제구 연산동 35.1830 129.0830 도시대기
부산 남구 대연동 35.1360 129.0990 도시대기
부산 해운대구 좌동 35.1700 129.1750 도시대기
부산 동래구 명장동 35.2040 129.1040 도시대기
부산 북구 덕천동 35.2110 129.0050 도시대기
부산 사하구 장림동 35.0800 128.9660 도시대기
부산 금정구 부곡동 35.2290 129.0920 도시대기
부산 기장군 기장읍 35.2440 129.2220 도시대기
부산 강서구 녹산동 35.0910 128.8560 도시대기
부산 수영구 광안동 35.1570 129.1130 도시대기
부산 사상구 학장동 35.1480 128.9830 도시대기
부산 영도구 태종대 35.0590 129.0830 교외대기
대구 중구 수창동 35.8700 128.5940 도시대기
대구 동구 신암동 35.8850 128.6240 도시대기
대구 수성구 만촌동 35.8690 128.6460 도시대기
대구 서구 이현동 35.8890 128.5690 도시대기
대구 남구 대명동 35.8450 128.5790 도시대기
대구 수성구 지산동 35.8230 128.6350 도시대기
대구 북구 노원동 35.8940 128.5880 도시대기
대구 달서구 호림동 35.8400 128.5180 도시대기
대구 달성군 현풍읍 35.6940 128.4470 도시대기
대구 북구 태전동 35.9330 128.5540 도시대기
인천 중구 신흥 37.4650 126.6330 도시대기
인천 남동구 구월동 37.4490 126.7050 도시대기
인천 부평구 부평 37.4900 126.7240 도시대기
인천 계양구 계산 37.5390 126.7270 도시대기
인천 서구 연희 37.5500 126.6750 도시대기
인천 연수구 송도 37.3800 126.6600 도시대기
인천 서구 석남 37.5050 126.6760 도시대기
인천 남동구 논현 37.4000 126.7300 도시대기
인천 미추홀구 숭의 37.4610 126.6470 도시대기
인천 동구 송림 37.4760 126.6390 도시대기
인천 강화군 송해 37.7600 126.4700 교외대기
광주 서구 농성동 35.1530 126.8890 도시대기
광주 북구 두암동 35.1710 126.9260 도시대기
광주 북구 건국동 35.2200 126.8990 도시대기
광주 남구 주월동 35.1290 126.9060 도시대기
광주 서구 치평동 35.1520 126.8530 도시대기
광주 광산구 오선동 35.2000 126.8100 도시대기
대전 동구 문창동 36.3180 127.4330 도시대기
대전 유성구 구성동 36.3700 127.3600 도시대기
대전 대덕구 읍내동 36.3700 127.4240 도시대기
대전 서구 둔산동 36.3510 127.3790 도시대기
대전 유성구 노은동 36.3680 127.3200 도시대기
대전 서구 정림동 36.3050 127.3650 도시대기
울산 남구 신정동 35.5380 129.3110 도시대기
울산 남구 무거동 35.5470 129.2600 도시대기
울산 남구 삼산동 35.5390 129.3380 도시대기
울산 남구 야음동 35.5250 129.3270 도시대기
울산 울주군 대송동 35.4960 129.3850 도시대기
울산 울주군 화산리 35.4370 129.3280 도시대기
세종 세종특별자치시 아름동 36.5130 127.2480 도시대기
세종 세종특별자치시 한솔동 36.4800 127.2590 도시대기
세종 세종특별자치시 보람동 36.4790 127.2890 도시대기
세종 세종특별자치시 신흥동 36.5900 127.2960 도시대기
경기 수원시_팔달구 신풍동 37.2830 127.0160 도시대기
경기 수원시_팔달구 인계동 37.2640 127.0300 도시대기
경기 수원시_영통구 광교동 37.2990 127.0390 도시대기
경기 성남시_수정구 단대동 37.4450 127.1570 도시대기
경기 성남시_분당구 수내동 37.3780 127.1140 도시대기
경기 성남시_분당구 정자동 37.3590 127.1120 도시대기
경기 의정부시 의정부동 37.7380 127.0330 도시대기
경기 안산시_단원구 고잔동 37.3160 126.8380 도시대기
경기 안산시_단원구 원시동 37.3030 126.7870 도시대기
경기 광명시 철산동 37.4760 126.8670 도시대기
경기 광명시 소하동 37.4420 126.8850 도시대기
경기 안양시_만안구 부림동 37.3910 126.9570 도시대기
경기 고양시_덕양구 행신동 37.6220 126.8340 도시대기
경기 고양시_일산서구 주엽동 37.6710 126.7590 도시대기
경기 고양시_일산동구 식사동 37.6780 126.8050 도시대기
경기 용인시_처인구 김량장동 37.2380 127.2050 도시대기
경기 용인시_수지구 수지 37.3220 127.0980 도시대기
경기 용인시_기흥구 기흥 37.2750 127.1160 도시대기
경기 부천시_원미구 중동 37.5050 126.7640 도시대기
경기 부천시_오정구 오정동 37.5250 126.7940 도시대기
경기 평택시 비전동 36.9920 127.1050 도시대기
경기 평택시 안중 36.9850 126.9300 도시대기
경기 화성시 남양읍 37.2090 126.8230 도시대기
경기 화성시 동탄 37.2000 127.0960 도시대기
경기 시흥시 정왕동 37.3440 126.7350 도시대기
경기 김포시 사우동 37.6190 126.7160 도시대기
경기 파주시 운정 37.7160 126.7450 도시대기
경기 이천시 창전동 37.2790 127.4410 도시대기
경기 남양주시 금곡동 37.6370 127.2100 도시대기
경기 구리시 교문동 37.5950 127.1330 도시대기
경기 하남시 신장동 37.5400 127.2140 도시대기
경기 오산시 오산동 37.1500 127.0710 도시대기
경기 광주시 경안동 37.4100 127.2580 도시대기
경기 양평군 양평읍 37.4900 127.4930 교외대기
경기 가평군 가평 37.8310 127.5100 교외대기
경기 포천시 선단동 37.8900 127.2000 도시대기
경기 동두천시 보산동 37.9190 127.0620 도시대기
경기 연천군 전곡 38.0240 127.0660 교외대기
경기 여주시 여흥동 37.2980 127.6330 도시대기
경기 안성시 봉산동 37.0060 127.2700 도시대기
경기 군포시 산본동 37.3590 126.9330 도시대기
경기 의왕시 고천동 37.3470 126.9710 도시대기
경기 과천시 별양동 37.4290 126.9920 도시대기
경기 양주시 백석읍 37.7840 126.9840 도시대기
강원 춘천시 중앙로 37.8810 127.7300 도시대기
강원 춘천시 석사동 37.8620 127.7460 도시대기
강원 원주시 명륜동 37.3430 127.9460 도시대기
강원 원주시 반곡동 37.3200 127.9800 도시대기
강원 강릉시 옥천동 37.7570 128.8990 도시대기
강원 동해시 천곡동 37.5240 129.1140 도시대기
충북 청주시_흥덕구 복대동 36.6380 127.4460 도시대기
충북 청주시_상당구 용암동 36.6150 127.5010 도시대기
충북 청주시_청원구 사천동 36.6570 127.4920 도시대기
충북 충주시 호암동 36.9630 127.9330 도시대기
충북 충주시 칠금동 36.9800 127.9230 도시대기
충북 제천시 장락동 37.1440 128.2210 도시대기
충남 천안시_동남구 성황동 36.8140 127.1490 도시대기
충남 천안시_서북구 성성동 36.8410 127.1390 도시대기
충남 아산시 모종동 36.7860 127.0170 도시대기
충남 공주시 신관동 36.4650 127.1280 도시대기
충남 서산시 동문동 36.7830 126.4530 도시대기
충남 서산시 독곶리 36.9870 126.3760 도시대기
전북 전주시_완산구 삼천동 35.8040 127.1160 도시대기
전북 전주시_덕진구 팔복동 35.8540 127.0940 도시대기
전북 전주시_완산구 중앙동 35.8190 127.1440 도시대기
전북 군산시 신풍동(군산) 35.9870 126.7240 도시대기
전북 군산시 소룡동 35.9740 126.6800 도시대기
전북 익산시 남중동 35.9440 126.9560 도시대기
전남 목포시 용당동 34.8010 126.4060 도시대기
전남 순천시 연향동 34.9530 127.5260 도시대기
전남 여수시 문수동 34.7560 127.7370 도시대기
전남 광양시 광양읍 34.9410 127.6960 도시대기
전남 여수시 여천동 34.7630 127.6620 항만
경북 포항시_남구 대도동 36.0150 129.3640 도시대기
경북 포항시_북구 장량동 36.0720 129.3750 도시대기
경북 경주시 성건동 35.8500 129.2100 도시대기
경북 구미시 공단동 36.1030 128.3800 도시대기
경북 구미시 원평동 36.1240 128.3300 도시대기
경북 안동시 명륜동(안동) 36.5680 128.7270 도시대기
경남 창원시_의창구 명서동 35.2460 128.6580 도시대기
경남 창원시_성산구 웅남동 35.2180 128.6970 도시대기
경남 창원시_마산회원구 회원동 35.2150 128.5770 도시대기
경남 창원시_마산합포구 봉암동 35.2280 128.5980 도시대기
경남 진주시 상봉동 35.1940 128.0830 도시대기
경남 김해시 동상동 35.2330 128.8880 도시대기
경남 양산시 북부동 35.3420 129.0350 도시대기
경남 거제시 아주동 34.8690 128.6900 도시대기
제주 제주시 이도동 33.5050 126.5360 도시대기
제주 제주시 연동 33.4880 126.4930 도시대기
제주 서귀포시 동홍동 33.2570 126.5700 도시대기
제주 제주시 고산리 33.2960 126.1640 국가배경농도
# Added later, last so that earlier stations keep their codes: 부산, 대구, 인천 to about their real
# network size (names are AirKorea's; positions to ~1-2 km, UNCERTAIN).
부산 금정구 청룡동 35.2750 129.0900 도시대기
부산 금정구 회동동 35.2180 129.1200 도시대기
부산 동구 수정동 35.1270 129.0480 도시대기
부산 강서구 대저동 35.2100 128.9800 도시대기
부산 동래구 온천동 35.2080 129.0800 도시대기
부산 해운대구 재송동 35.1880 129.1240 도시대기
부산 부산진구 개금동 35.1520 129.0200 도시대기
부산 사하구 당리동 35.1000 128.9800 도시대기
부산 강서구 명지동 35.0950 128.9200 도시대기
부산 북구 화명동 35.2350 129.0110 도시대기
대구 중구 남산1동 35.8600 128.5900 도시대기
대구 서구 평리동 35.8770 128.5560 도시대기
대구 달서구 진천동 35.8150 128.5230 도시대기
대구 수성구 시지동 35.8410 128.7050 도시대기
대구 동구 율하동 35.8660 128.6980 도시대기
대구 달성군 유가읍 35.6900 128.4600 도시대기
대구 달성군 다사읍 35.8600 128.4600 도시대기
대구 동구 서호동 35.8780 128.6400 도시대기
대구 북구 침산동 35.8890 128.5860 도시대기
대구 군위군 군위읍 36.2400 128.5730 교외대기
인천 남동구 고잔 37.3900 126.7100 도시대기
인천 연수구 동춘 37.4000 126.6700 도시대기
인천 서구 검단 37.5950 126.6700 도시대기
인천 중구 운서 37.4950 126.4900 도시대기
인천 중구 영종 37.4900 126.5600 도시대기
인천 옹진군 백령도 37.9660 124.6300 교외대기
인천 서구 청라 37.5350 126.6400 도시대기
인천 서구 원당 37.5900 126.7000 도시대기
인천 미추홀구 석바위 37.4560 126.6810 도로변대기
인천 미추홀구 학익 37.4400 126.6650 도시대기
"""

MANG_NAMES = ("도시대기", "도로변대기", "교외대기", "국가배경농도", "항만")
POLLUTANTS = ("so2", "co", "o3", "no2", "pm10", "pm25")
FLAGS = ("통신장애", "장비점검", "자료이상")  # UNCERTAIN: only 통신장애 is in a recorded body


@dataclass(frozen=True)
class Station:
    name: str  # stationName, unique nationwide
    sido: str  # short 시도 name as AirKorea's sidoName ("서울")
    sido_full: str  # "서울특별시"
    sgg: str  # "종로구", "수원시 팔달구"
    addr: str
    lat: float
    lon: float
    mang: str  # mangName
    code: str  # a stable numeric station code (6 digits)


@cache
def stations() -> tuple[Station, ...]:
    """Every station, grouped by 시도 in AirKorea's order (the later additions last), static across seeds."""
    full = {r.short_sido: r.name for r in sidos()}
    out: list[Station] = []
    # 서울: one 도시대기 station per 구, named by the 구, at the 구's centre.
    for r in sggs("11"):
        out.append(Station(r.sgg_name, "서울", full["서울"], r.sgg_name, f"서울 {r.sgg_name}",
                           r.lat, r.lon, "도시대기", ""))
    for line in _STATIONS.strip().splitlines():
        if line.startswith("#"):
            continue
        sido, sgg, name, lat, lon, mang = line.split()
        sgg = sgg.replace("_", " ")
        name = name.replace("_", " ")
        place = "" if sgg == full.get(sido) else f" {sgg}"
        # AirKorea writes addresses with the short 시도 name: "서울 종로구 ...", "경기 수원시 팔달구 ...".
        addr = f"{sido}{place} {name.split('(')[0]}"
        out.append(Station(name, sido, full.get(sido, sido), sgg, addr, float(lat), float(lon), mang, ""))
    coded = [
        Station(s.name, s.sido, s.sido_full, s.sgg, s.addr, s.lat, s.lon, s.mang, f"{111100 + 10 * i + 1:06d}")
        for i, s in enumerate(out)
    ]
    names = [s.name for s in coded]
    if len(set(names)) != len(names):
        raise ValueError("duplicate AirKorea station names")
    return tuple(coded)


@cache
def station_by_name() -> dict[str, Station]:
    return {s.name: s for s in stations()}


SIDO_ORDER = ("서울", "부산", "대구", "인천", "광주", "대전", "울산", "경기", "강원", "충북", "충남",
              "전북", "전남", "경북", "경남", "제주", "세종")


def latest_hour(clock: datetime) -> datetime:
    """The newest hour with published data: HH:00 is served from ~HH:15."""
    t = clock.astimezone(KST) - timedelta(minutes=15)
    return t.replace(minute=0, second=0, microsecond=0)


def _u01(*keys: object) -> float:
    d = hashlib.blake2b("\x1f".join(map(str, keys)).encode(), digest_size=8).digest()
    return int.from_bytes(d, "big") / 2**64


# Monthly baselines (서울-like urban background).
_PM10 = (48, 52, 58, 52, 44, 32, 23, 22, 24, 32, 42, 45)
_O3 = (0.018, 0.022, 0.030, 0.036, 0.041, 0.040, 0.030, 0.028, 0.028, 0.024, 0.019, 0.016)
_NO2 = (0.026, 0.025, 0.023, 0.021, 0.019, 0.016, 0.014, 0.014, 0.016, 0.020, 0.024, 0.026)


@dataclass(frozen=True)
class Reading:
    """One station-hour: values in their units (None = missing) and flags."""

    values: dict[str, float | None]
    flags: dict[str, str | None]


class AirModel:
    def __init__(self, world: World) -> None:
        self.seed = world.seed
        self.world = world
        rng = random.Random(f"air|{world.seed}")
        self.waves = [
            (rng.uniform(0.004, 0.012), rng.uniform(0, 2 * math.pi), rng.uniform(-0.01, 0.01),
             2 * math.pi / rng.uniform(30, 140), rng.uniform(0, 2 * math.pi))
            for _ in range(4)
        ]

    def _anomaly(self, s: Station, th: float) -> float:
        x, y = (s.lon - 127.0) * 88.8, (s.lat - 36.0) * 111.0
        total = 0.0
        for k, direction, _drift, omega, phase in self.waves:
            total += math.sin(k * (x * math.cos(direction) + y * math.sin(direction)) - omega * th + phase)
        return 0.28 * total  # std ≈ 0.4 in log space

    @lru_cache(maxsize=65536)  # noqa: B019 - one model per world
    def reading(self, name: str, hour: datetime) -> Reading:
        s = station_by_name()[name]
        th = (hour - datetime(2020, 1, 1, tzinfo=KST)).total_seconds() / 3600.0
        m = hour.month - 1
        h = hour.hour
        local = 0.8 + 0.4 * _u01(self.seed, "air-site", name)
        anomaly = math.exp(self._anomaly(s, th))
        model: WeatherModel = self.world.part("weather")
        weather = model.truth(s.lat, s.lon, hour)
        washout = 0.55 if weather.pty else 1.0
        wind = 1.0 / (1.0 + 0.08 * weather.wsd)
        road = s.mang == "도로변대기"
        rural = s.mang in ("교외대기", "국가배경농도")
        jitter = 0.9 + 0.2 * _u01(self.seed, "air-h", name, th)
        pm10 = _PM10[m] * local * anomaly * washout * (1 + 0.12 * math.cos(2 * math.pi * (h - 10) / 24)) * jitter
        pm10 *= 1.15 if road else 0.8 if rural else 1.0
        pm25 = pm10 * (0.45 + 0.15 * _u01(self.seed, "air-ratio", name)) * (0.95 + 0.1 * jitter)
        o3 = _O3[m] * (1 + 0.65 * math.cos(2 * math.pi * (h - 15) / 24)) * (0.8 + 0.3 * local) * (
            0.7 if road else 1.15 if rural else 1.0) * (0.8 if weather.pty else 1.0)
        traffic = 1 + 0.3 * math.cos(2 * math.pi * (h - 8) / 12)
        no2 = _NO2[m] * traffic * local * wind * (1.6 if road else 0.45 if rural else 1.0) * jitter
        co = 0.22 + 9.0 * no2 + 0.05 * local
        so2 = 0.0022 + 0.0015 * local * (1.8 if s.mang == "항만" or s.sido in ("울산",) else 1.0)
        values: dict[str, float | None] = {
            "so2": round(so2, 3), "co": round(co, 1), "o3": round(max(0.002, o3), 3),
            "no2": round(no2, 3), "pm10": float(max(3, round(pm10 * wind))), "pm25": float(max(1, round(pm25 * wind))),
        }
        flags: dict[str, str | None] = dict.fromkeys(POLLUTANTS)
        for p in POLLUTANTS:
            u = _u01(self.seed, "air-fault", name, p, th)
            if u < 0.012:  # ~1 % of station-hours lose a pollutant
                values[p] = None
                flags[p] = FLAGS[int(u * 1000) % len(FLAGS)]
        return Reading(values, flags)

    def mean24(self, name: str, hour: datetime, pollutant: str) -> float | None:
        """24-hour moving average ending at ``hour`` (missing hours skipped)."""
        vals = [v for i in range(24)
                if (v := self.reading(name, hour - timedelta(hours=i)).values[pollutant]) is not None]
        return sum(vals) / len(vals) if len(vals) >= 12 else None


@world_part("air")
def _build(world: World) -> AirModel:
    return AirModel(world)
