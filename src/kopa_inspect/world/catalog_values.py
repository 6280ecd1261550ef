"""Value generators shared by the catalog portals (서울 열린데이터광장, 열린국회정보).

Catalog datasets are declared as columns with a *generator spec* (``"tel"``, ``"int:1:50"``,
``"choice:운영|휴관"`` ...). One small interpreter turns a spec into a plausible string value, so
several hundred datasets need no code of their own. Values are strings, as both portals send
them (numbers included). Every value is drawn from a :class:`random.Random` the caller fixes
from (seed, dataset, row), so the same world gives the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

# The 25 자치구 of Seoul: real 시군구 codes (LAWD_CD), approximate centre (WGS84), a short
# roman code used in generated per-district dataset ids, a few real 행정동 and road names.
# Centres are rounded city-hall-area coordinates; dong and road lists are a sample, not complete.


@dataclass(frozen=True)
class Gu:
    name: str
    code: str  # 5-digit 시군구 code (법정동코드 prefix)
    abbr: str  # short roman code for generated ids (not an official code)
    lat: float
    lon: float
    dongs: tuple[str, ...]
    roads: tuple[str, ...]
    region: str  # 서울시 대기 권역 (도심권, 서북권, 동북권, 서남권, 동남권)


SEOUL_GU: tuple[Gu, ...] = (
    Gu("종로구", "11110", "JR", 37.5735, 126.9790, ("청운효자동", "사직동", "삼청동", "혜화동", "이화동"),
       ("종로", "율곡로", "자하문로", "대학로"), "도심권"),
    Gu("중구", "11140", "JG", 37.5641, 126.9979, ("소공동", "명동", "필동", "신당동", "회현동"),
       ("세종대로", "을지로", "퇴계로", "다산로"), "도심권"),
    Gu("용산구", "11170", "YS", 37.5326, 126.9905, ("후암동", "용산2가동", "이태원1동", "한남동", "서빙고동"),
       ("한강대로", "이태원로", "녹사평대로"), "도심권"),
    Gu("성동구", "11200", "SD", 37.5634, 127.0369, ("왕십리도선동", "마장동", "성수1가1동", "금호1가동", "옥수동"),
       ("왕십리로", "성수이로", "고산자로"), "동북권"),
    Gu("광진구", "11215", "GJ", 37.5385, 127.0823, ("화양동", "군자동", "중곡1동", "자양1동", "구의1동"),
       ("능동로", "자양로", "천호대로"), "동북권"),
    Gu("동대문구", "11230", "DD", 37.5744, 127.0400, ("회기동", "휘경1동", "청량리동", "용신동", "전농1동"),
       ("왕산로", "회기로", "답십리로"), "동북권"),
    Gu("중랑구", "11260", "JN", 37.6066, 127.0927, ("면목본동", "상봉1동", "중화1동", "묵1동", "망우본동"),
       ("망우로", "면목로", "동일로"), "동북권"),
    Gu("성북구", "11290", "SB", 37.5894, 127.0167, ("성북동", "돈암1동", "안암동", "정릉1동", "길음1동"),
       ("보문로", "정릉로", "동소문로"), "동북권"),
    Gu("강북구", "11305", "GB", 37.6396, 127.0257, ("미아동", "번1동", "수유1동", "우이동", "삼양동"),
       ("도봉로", "삼양로", "솔매로"), "동북권"),
    Gu("도봉구", "11320", "DB", 37.6688, 127.0471, ("쌍문1동", "방학1동", "창1동", "도봉1동"),
       ("도봉로", "방학로", "노해로"), "동북권"),
    Gu("노원구", "11350", "NW", 37.6542, 127.0568, ("월계1동", "공릉1동", "하계1동", "중계본동", "상계1동"),
       ("동일로", "노원로", "화랑로"), "동북권"),
    Gu("은평구", "11380", "EP", 37.6027, 126.9291, ("녹번동", "불광1동", "갈현1동", "응암1동", "진관동"),
       ("통일로", "연서로", "은평로"), "서북권"),
    Gu("서대문구", "11410", "SM", 37.5791, 126.9368, ("충현동", "신촌동", "연희동", "홍제1동", "남가좌1동"),
       ("연세로", "신촌로", "통일로"), "서북권"),
    Gu("마포구", "11440", "MP", 37.5663, 126.9019, ("공덕동", "아현동", "서교동", "합정동", "망원1동", "상암동"),
       ("월드컵로", "양화로", "독막로", "마포대로"), "서북권"),
    Gu("양천구", "11470", "YC", 37.5170, 126.8664, ("목1동", "신월1동", "신정1동"),
       ("목동서로", "오목로", "신월로"), "서남권"),
    Gu("강서구", "11500", "GS", 37.5509, 126.8495, ("염창동", "등촌1동", "화곡1동", "가양1동", "발산1동"),
       ("공항대로", "화곡로", "강서로"), "서남권"),
    Gu("구로구", "11530", "GR", 37.4954, 126.8874, ("신도림동", "구로1동", "고척1동", "개봉1동", "오류1동"),
       ("구로중앙로", "경인로", "디지털로"), "서남권"),
    Gu("금천구", "11545", "GC", 37.4569, 126.8955, ("가산동", "독산1동", "시흥1동"),
       ("가산디지털1로", "시흥대로", "독산로"), "서남권"),
    Gu("영등포구", "11560", "YD", 37.5264, 126.8962, ("영등포동", "여의동", "당산1동", "문래동", "신길1동"),
       ("여의대로", "영등포로", "당산로"), "서남권"),
    Gu("동작구", "11590", "DJ", 37.5124, 126.9393, ("노량진1동", "상도1동", "흑석동", "사당1동", "대방동"),
       ("상도로", "노량진로", "사당로"), "서남권"),
    Gu("관악구", "11620", "GA", 37.4784, 126.9516, ("보라매동", "청림동", "서원동", "신림동", "낙성대동"),
       ("관악로", "남부순환로", "봉천로"), "서남권"),
    Gu("서초구", "11650", "SC", 37.4837, 127.0324, ("서초1동", "잠원동", "반포1동", "방배1동", "양재1동"),
       ("서초대로", "반포대로", "강남대로"), "동남권"),
    Gu("강남구", "11680", "GN", 37.5172, 127.0473, ("신사동", "논현1동", "압구정동", "청담동", "삼성1동", "역삼1동", "대치1동"),
       ("테헤란로", "도산대로", "압구정로", "선릉로"), "동남권"),
    Gu("송파구", "11710", "SP", 37.5145, 127.1059, ("풍납1동", "잠실본동", "가락본동", "문정1동", "석촌동"),
       ("올림픽로", "송파대로", "위례성대로"), "동남권"),
    Gu("강동구", "11740", "GD", 37.5301, 127.1238, ("강일동", "상일동", "명일1동", "고덕1동", "암사1동", "천호1동"),
       ("천호대로", "양재대로", "고덕로"), "동남권"),
)
GU_BY_NAME = {g.name: g for g in SEOUL_GU}

SURNAMES = "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민"
GIVEN = ("민준", "서연", "지호", "하은", "도윤", "지우", "현우", "수빈", "준서", "예린", "성민", "은지", "태현",
         "지민", "영수", "미경", "정훈", "혜진", "상철", "유진", "동현", "소영", "재원", "나연", "승우", "가은")
NAME_PREFIX = ("한빛", "푸른", "새봄", "다온", "늘봄", "행복", "미래", "해오름", "솔빛", "가온", "온누리", "별빛", "청솔",
               "우리", "하늘", "초록", "다솜", "한울", "바른", "으뜸", "참좋은", "누리", "은하수", "사랑")


def person(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + rng.choice(GIVEN)


def business_name(rng: random.Random, suffix: str) -> str:
    return f"{rng.choice(NAME_PREFIX)}{suffix}"


def tel(rng: random.Random) -> str:
    return f"02-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"


def road_address(rng: random.Random, gu: Gu) -> str:
    return f"서울특별시 {gu.name} {rng.choice(gu.roads)} {rng.randint(1, 320)}"


def jibun_address(rng: random.Random, gu: Gu, dong: str) -> str:
    return f"서울특별시 {gu.name} {dong.rstrip('0123456789본가동') or dong}동 {rng.randint(1, 900)}-{rng.randint(1, 40)}"


def coord(rng: random.Random, gu: Gu) -> tuple[float, float]:
    return gu.lat + rng.uniform(-0.018, 0.018), gu.lon + rng.uniform(-0.022, 0.022)


def day_before(end: date, rng: random.Random, max_days: int) -> date:
    return end - timedelta(days=rng.randint(0, max_days))


@dataclass
class RowContext:
    """What the columns of one row share, so that address, 자치구 and coordinates agree."""

    index: int
    gu: Gu
    dong: str
    lat: float
    lon: float
    today: date
    key: str | None = None  # the value of the dataset's key filter (a date, a 대수 ...)
    extra: dict[str, Any] | None = None


def make_context(rng: random.Random, index: int, today: date, gu: Gu | None = None, key: str | None = None) -> RowContext:
    g = gu or rng.choice(SEOUL_GU)
    lat, lon = coord(rng, g)
    return RowContext(index=index, gu=g, dong=rng.choice(g.dongs), lat=lat, lon=lon, today=today, key=key)


def _int(rng: random.Random, args: list[str], _: RowContext) -> str:
    return str(rng.randint(int(args[0]), int(args[1])))


def _float(rng: random.Random, args: list[str], _: RowContext) -> str:
    dec = int(args[2]) if len(args) > 2 else 1
    return f"{rng.uniform(float(args[0]), float(args[1])):.{dec}f}"


def _date(rng: random.Random, args: list[str], ctx: RowContext, fmt: str = "%Y%m%d") -> str:
    days = int(args[0]) if args else 3650
    return day_before(ctx.today, rng, days).strftime(fmt)


def _future_date(rng: random.Random, args: list[str], ctx: RowContext) -> str:
    days = int(args[0]) if args else 90
    return (ctx.today + timedelta(days=rng.randint(0, days))).strftime("%Y-%m-%d")


def _id(rng: random.Random, args: list[str], ctx: RowContext) -> str:
    prefix = args[0] if args else ""
    width = int(args[1]) if len(args) > 1 else 6
    return f"{prefix}{ctx.index + 1:0{width}d}"


GENERATORS: dict[str, Callable[[random.Random, list[str], RowContext], str]] = {
    "seq": lambda rng, a, c: str(c.index + 1),
    "id": _id,
    "int": _int,
    "float": _float,
    "choice": lambda rng, a, c: rng.choice(":".join(a).split("|")),
    "const": lambda rng, a, c: ":".join(a),
    "gu": lambda rng, a, c: c.gu.name,
    "gu_code": lambda rng, a, c: c.gu.code,
    "region": lambda rng, a, c: c.gu.region,
    "dong": lambda rng, a, c: c.dong,
    "addr": lambda rng, a, c: road_address(rng, c.gu),
    "jibun": lambda rng, a, c: jibun_address(rng, c.gu, c.dong),
    "lat": lambda rng, a, c: f"{c.lat:.{int(a[0]) if a else 6}f}",
    "lon": lambda rng, a, c: f"{c.lon:.{int(a[0]) if a else 6}f}",
    # 중부원점 TM (EPSG:2097-like metres), roughly consistent with lat/lon around Seoul.
    "tm_x": lambda rng, a, c: f"{200000 + (c.lon - 127.0) * 88_800:.4f}",
    "tm_y": lambda rng, a, c: f"{500000 + (c.lat - 38.0) * 111_000:.4f}",
    "tel": lambda rng, a, c: tel(rng),
    "person": lambda rng, a, c: person(rng),
    "masked_person": lambda rng, a, c: person(rng)[0] + "*" + person(rng)[-1],
    "name": lambda rng, a, c: business_name(rng, a[0] if a else ""),
    "place": lambda rng, a, c: f"{c.dong.rstrip('0123456789')} {a[0] if a else ''}".strip(),
    "date": _date,
    "date_dash": lambda rng, a, c: _date(rng, a, c, "%Y-%m-%d"),
    "datetime": lambda rng, a, c: _date(rng, a, c, "%Y-%m-%d") + f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00",
    "future": _future_date,
    "ym": lambda rng, a, c: _date(rng, a, c, "%Y%m"),
    "year": lambda rng, a, c: str(c.today.year - rng.randint(0, int(a[0]) if a else 30)),
    "yn": lambda rng, a, c: rng.choice(("Y", "N")),
    "url": lambda rng, a, c: f"https://{a[0] if a else 'www.seoul.go.kr'}/{rng.randint(1000, 99999)}",
    "key": lambda rng, a, c: c.key or "",
    "money": lambda rng, a, c: str(rng.randint(int(a[0]), int(a[1])) * (int(a[2]) if len(a) > 2 else 1)),
    "text": lambda rng, a, c: rng.choice(":".join(a).split("|")) if a else "",
}


@lru_cache(maxsize=4096)
def _parse(spec: str) -> tuple[Callable[[random.Random, list[str], RowContext], str], list[str]]:
    kind, *args = spec.split(":")
    try:
        return GENERATORS[kind], args
    except KeyError:
        raise ValueError(f"unknown column generator {spec!r}") from None


def generate_value(spec: str, rng: random.Random, ctx: RowContext) -> str:
    fn, args = _parse(spec)
    return fn(rng, args, ctx)
