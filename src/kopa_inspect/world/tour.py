"""Tourist content for TourAPI (한국관광공사 KorService2): attractions, culture, festivals, food, stays.

Real, well-known public places (경복궁, 해운대해수욕장, 성산일출봉 ...) with their real addresses and
approximate real coordinates, plus plausible synthetic places (restaurants, lodgings, parks,
markets, local festivals) around every 시군구 the regions table knows. Places are static per
seed; festival dates follow the world's clock (real festivals on their usual dates in the
clock's year, synthetic ones spread around the clock) so that "this weekend's festival" always
has answers.

TourAPI's own code systems (the provider's published API guide): the legacy areaCode (1 서울, 6 부산,
39 제주 ...) and sigunguCode (1..N in 가나다 order within an area, with historical gaps and names
such as 남제주군), which are NOT 법정동 codes, and the newer lDongRegnCd (2-digit 시도) /
lDongSignguCd (3-digit 시군구) which are. UNCERTAIN: the sigungu lists are from memory of the
real areaCode2 answers (alphabetical with historical entries kept); lDongSignguCd as the 3-digit
part is inferred from the manual's "44 / 44150 공주" example.

The tables are package data: ``data/tour_areas.csv``, ``data/tour_categories.csv``,
``data/tour_places.csv`` and ``data/tour_festivals.csv``.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from operator import itemgetter

from kopa_inspect.world import World, world_part
from kopa_inspect.world import regions as rg
from kopa_inspect.world.tables import read_table

# --- TourAPI area codes ------------------------------------------------------------------


@dataclass(frozen=True)
class TourArea:
    code: str  # TourAPI areaCode
    name: str  # as areaCode2 names it
    sido_cd: str  # 법정동 시도 code (lDongRegnCd)
    sigungu: tuple[str, ...]  # index + 1 = sigunguCode; "" marks a retired code


def _sg(text: str) -> tuple[str, ...]:
    return tuple("" if t == "-" else t for t in text.split())


AREAS: tuple[TourArea, ...] = tuple(
    TourArea(row["code"], row["name"], row["sido_cd"], _sg(row["sigungu"]))
    for row in read_table("tour_areas.csv")
)
AREA_BY_CODE = {a.code: a for a in AREAS}
AREA_BY_SIDO = {a.sido_cd: a for a in AREAS}

CONTENT_TYPES: dict[str, str] = {
    "12": "관광지",
    "14": "문화시설",
    "15": "축제공연행사",
    "25": "여행코스",
    "28": "레포츠",
    "32": "숙박",
    "38": "쇼핑",
    "39": "음식점",
}

Cats = tuple[str, str, str, str, str, str]  # (cat1, cat2, cat3, lclsSystm1, lclsSystm2, lclsSystm3)
_CATEGORIES: dict[str, Cats] = {
    row["key"]: (row["cat1"], row["cat2"], row["cat3"], row["lcls1"], row["lcls2"], row["lcls3"])
    for row in read_table("tour_categories.csv")
}
# Defaults per content type, and the categories of real places by kind (palace, beach ...).
_CATS: dict[str, Cats] = {key: cats for key, cats in _CATEGORIES.items() if key.isdigit()}
_CAT_SPECIAL: dict[str, Cats] = {key: cats for key, cats in _CATEGORIES.items() if not key.isdigit()}

_TEL_PREFIX = rg.SIDO_TEL_PREFIX
_ZIP_RANGE = rg.SIDO_ZIP_RANGE


# --- places ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    contentid: str
    contenttypeid: str
    title: str
    areacode: str
    sigungucode: str
    lawd_cd: str  # 5-digit 법정동 시군구 code of the place (lDongRegnCd + lDongSignguCd)
    addr1: str
    addr2: str
    zipcode: str
    tel: str
    mapx: float  # WGS84 longitude
    mapy: float  # WGS84 latitude
    cats: tuple[str, str, str, str, str, str]
    firstimage: str
    firstimage2: str
    cpyrhtDivCd: str
    createdtime: str
    modifiedtime: str
    overview: str
    homepage: str = ""
    telname: str = ""
    eventstartdate: str = ""
    eventenddate: str = ""
    real: bool = False
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def has_image(self) -> bool:
        return bool(self.firstimage)


# Real places (data/tour_places.csv) and real festivals on their usual dates (data/tour_festivals.csv).
_REAL_PLACE = itemgetter(
    "title", "contenttypeid", "lawd_cd", "lat", "lon", "addr1", "category", "tel", "contentid", "overview"
)
_REAL_FESTIVAL = itemgetter("title", "lawd_cd", "lat", "lon", "addr1", "start", "end", "overview")

FOODS = (
    "국밥",
    "칼국수",
    "한정식",
    "갈비",
    "막국수",
    "순두부",
    "곰탕",
    "돼지국밥",
    "횟집",
    "냉면",
    "해물탕",
    "보리밥",
    "쌈밥",
    "닭갈비",
    "밀면",
    "고기국수",
    "삼계탕",
    "비빔밥",
    "해장국",
    "생선구이",
)
_FOOD_PREFIX = (
    "원조",
    "옛날",
    "고향",
    "할매",
    "명가",
    "본가",
    "소문난",
    "청기와",
    "황금",
    "시골",
    "토담",
    "솔밭",
)
_STAYS = ("호텔", "게스트하우스", "펜션", "한옥스테이", "리조트", "관광호텔")
_STAY_PREFIX = ("더스테이", "그랜드", "라온", "해담", "솔숲", "별빛", "하늘채", "노을", "바람결")
_SIGHTS = ("근린공원", "생태공원", "둘레길", "전망대", "수목원", "호수공원", "역사공원")
_CULTURE = ("문화예술회관", "향토역사관", "시립미술관", "문화원", "생활사박물관")
_SPORTS = ("자전거길", "오토캠핑장", "체육공원", "카누체험장", "짚라인")
_FEST_THEMES = (
    "벚꽃",
    "국화",
    "먹거리",
    "별빛",
    "가을",
    "음악",
    "빛",
    "전통",
    "꽃",
    "야시장",
    "단풍",
    "맥주",
)
_ROADS = (
    "중앙로",
    "시청로",
    "문화로",
    "공원로",
    "역전로",
    "강변로",
    "해안로",
    "번영로",
    "평화로",
    "새마을로",
)


def _local(region: rg.Region) -> str:
    name = region.sgg_name.split()[-1] if region.sgg_name else region.sido_name
    if name.endswith("특별자치시"):
        return name[:2]
    stem = name[:-1]
    return stem if len(stem) >= 2 else name


def _dist_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


distance_m = _dist_m


@dataclass
class TourData:
    places: tuple[Place, ...]
    by_id: dict[str, Place]

    def get(self, contentid: str) -> Place | None:
        return self.by_id.get(str(contentid))


def sigungu_code(area: TourArea, lawd_cd: str) -> str:
    """TourAPI sigunguCode of a 법정동 시군구 (a 구 of a 시 belongs to its 시)."""
    region = rg.by_code(lawd_cd)
    if region is None:
        return ""
    name = region.sgg_name.split()[0] if region.sgg_name else region.sido_name
    return str(area.sigungu.index(name) + 1) if name in area.sigungu else ""


def placement_regions(area: TourArea, sigungu_name: str) -> list[rg.Region]:
    """The 법정동 시군구 regions a TourAPI sigungu covers (a 시 with 구: its 구).

    Retired sigungu (남제주군, 청원군, 마산시 ...) cover nothing: their codes still answer in
    areaCode2 but new content is filed under the current 시.
    """
    out = [
        r
        for r in rg.sggs(area.sido_cd)
        if (r.sgg_name or r.sido_name) == sigungu_name or r.sgg_name.startswith(sigungu_name + " ")
    ]
    children = [r for r in out if " " in r.sgg_name]
    return children or out


def _content_id(title: str) -> str:
    digest = hashlib.blake2b(title.encode("utf-8"), digest_size=4).digest()
    return str(100000 + int.from_bytes(digest, "big") % 900000)


def _fmt_time(d: date, rng_seconds: int) -> str:
    h, rem = divmod(rng_seconds, 3600)
    return f"{d:%Y%m%d}{h:02d}{rem // 60:02d}{rem % 60:02d}"


def _image(rng, with_image: bool) -> tuple[str, str, str]:
    if not with_image:
        return "", "", ""
    n = rng.randint(1000000, 9999999)
    d = rng.randint(10, 99)
    base = f"http://tong.visitkorea.or.kr/cms/resource/{d}/{n}"
    return f"{base}_image2_1.jpg", f"{base}_image3_1.jpg", rng.choice(("Type1", "Type3"))


def _times(rng) -> tuple[str, str]:
    created = date(2006, 1, 1) + timedelta(days=rng.randint(0, 365 * 17))
    modified = created + timedelta(days=rng.randint(30, max(31, (date(2025, 12, 31) - created).days)))
    return _fmt_time(created, rng.randint(0, 86399)), _fmt_time(modified, rng.randint(0, 86399))


def zip_code(rng, sido_cd: str) -> str:
    """A 우편번호 in the 시도's real range."""
    lo, hi = _ZIP_RANGE.get(sido_cd, (1, 63))
    return f"{rng.randint(lo, hi):02d}{rng.randint(0, 999):03d}"


def _tel(rng, sido_cd: str) -> str:
    return f"{_TEL_PREFIX.get(sido_cd, '02')}-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"


def _stable_id(world: World, *keys: object) -> int:
    return world.rng("tour.id", *keys).randint(2_000_000, 3_999_999)


@world_part("tour")
def build_tour(world: World) -> TourData:
    places: list[Place] = []
    used: set[str] = set()

    def new_id(*keys: object) -> str:
        n = _stable_id(world, *keys)
        while str(n) in used:
            n += 1
        used.add(str(n))
        return str(n)

    def area_of(lawd: str) -> TourArea:
        return AREA_BY_SIDO[lawd[:2]]

    # real attractions, culture, markets ---------------------------------------------------
    for row in read_table("tour_places.csv"):
        title, ctype, lawd, lat_s, lon_s, addr, cat, tel, cid, overview = _REAL_PLACE(row)
        area = area_of(lawd)
        rng = world.rng("tour.real", title)
        contentid = cid or _content_id(title)
        while contentid in used:
            contentid = str(int(contentid) + 1)
        used.add(contentid)
        img = _image(rng, True)
        created, modified = _times(rng)
        places.append(
            Place(
                contentid,
                ctype,
                title,
                area.code,
                sigungu_code(area, lawd),
                lawd,
                addr,
                "",
                zip_code(rng, lawd[:2]),
                tel,
                float(lon_s),
                float(lat_s),
                _CAT_SPECIAL.get(cat, _CATS[ctype]),
                *img,
                created,
                modified,
                overview,
                homepage='<a href="https://korean.visitkorea.or.kr" target="_blank">visitkorea</a>',
                telname=title,
                real=True,
            )
        )

    # food and stays near each real sight, so "맛집 near X" (locationBasedList2) has answers
    for anchor in [p for p in places if p.contenttypeid in ("12", "14")]:
        area = AREA_BY_CODE[anchor.areacode]
        reg = rg.by_code(anchor.lawd_cd)
        if reg is None:
            continue
        rng = world.rng("tour.near", anchor.contentid)
        for k, ctype in enumerate(["39"] * rng.randint(2, 4) + ["32"] * rng.randint(0, 2)):
            bearing = rng.uniform(0, 2 * math.pi)
            dist = rng.uniform(150, 1500)
            lat = anchor.mapy + dist * math.cos(bearing) / 111_000
            lon = anchor.mapx + dist * math.sin(bearing) / (111_000 * math.cos(math.radians(anchor.mapy)))
            short = anchor.title.split()[-1]
            if ctype == "39":
                title = f"{rng.choice(_FOOD_PREFIX)}{rng.choice(FOODS)} {short}점"
            else:
                title = f"{short} {rng.choice(_STAY_PREFIX)} {rng.choice(_STAYS)}"
            created, modified = _times(rng)
            places.append(
                Place(
                    new_id("near", anchor.contentid, k),
                    ctype,
                    title,
                    area.code,
                    anchor.sigungucode,
                    anchor.lawd_cd,
                    f"{reg.name} {rng.choice(_ROADS)} {rng.randint(1, 300)}",
                    "",
                    zip_code(rng, reg.sido_cd),
                    _tel(rng, reg.sido_cd),
                    round(lon, 10),
                    round(lat, 10),
                    _CATS[ctype],
                    *_image(rng, rng.random() < 0.7),
                    created,
                    modified,
                    _overview(ctype, title, short, rng),
                    telname=title if rng.random() < 0.5 else "",
                )
            )

    # real festivals, dated in the clock's year --------------------------------------------
    year = world.clock.year
    for row in read_table("tour_festivals.csv"):
        title, lawd, lat_s, lon_s, addr, start, end, overview = _REAL_FESTIVAL(row)
        area = area_of(lawd)
        rng = world.rng("tour.fest", title)
        contentid = _content_id(title)
        while contentid in used:
            contentid = str(int(contentid) + 1)
        used.add(contentid)
        created, modified = _times(rng)
        places.append(
            Place(
                contentid,
                "15",
                title,
                area.code,
                sigungu_code(area, lawd),
                lawd,
                addr,
                "",
                zip_code(rng, lawd[:2]),
                _tel(rng, lawd[:2]),
                float(lon_s),
                float(lat_s),
                _CATS["15"],
                *_image(rng, True),
                created,
                modified,
                overview,
                telname=f"{title} 사무국",
                eventstartdate=f"{year}{start}",
                eventenddate=f"{year}{end}",
                real=True,
            )
        )

    # synthetic content around every covered sigungu --------------------------------------
    today = world.clock.date()
    for area in AREAS:
        for idx, sg_name in enumerate(area.sigungu, start=1):
            if not sg_name:
                continue
            regs = placement_regions(area, sg_name)
            if not regs:
                continue
            for ctype, lo, hi in (
                ("39", 4, 7),
                ("32", 2, 4),
                ("12", 1, 3),
                ("14", 1, 2),
                ("38", 1, 1),
                ("28", 0, 2),
                ("15", 0, 2),
            ):
                rng = world.rng("tour.syn", area.code, idx, ctype)
                for k in range(rng.randint(lo, hi)):
                    reg = rng.choice(regs)
                    umds = rg.umds(reg.lawd_cd)
                    spot = rng.choice(umds) if umds else reg
                    lat = spot.lat + rng.uniform(-0.012, 0.012)
                    lon = spot.lon + rng.uniform(-0.015, 0.015)
                    local = _local(reg)
                    if ctype == "39":
                        title = f"{rng.choice(_FOOD_PREFIX)}{rng.choice(FOODS)} {spot.umd_name or local}점"
                    elif ctype == "32":
                        title = f"{local} {rng.choice(_STAY_PREFIX)} {rng.choice(_STAYS)}"
                    elif ctype == "12":
                        title = f"{local} {rng.choice(_SIGHTS)}"
                    elif ctype == "14":
                        title = f"{local} {rng.choice(_CULTURE)}"
                    elif ctype == "38":
                        title = f"{local}중앙시장"
                    elif ctype == "28":
                        title = f"{local} {rng.choice(_SPORTS)}"
                    else:
                        title = f"{local} {rng.choice(_FEST_THEMES)}축제"
                    if any(p.title == title for p in places[-40:]):
                        title = f"{title} {k + 2}"
                    road = f"{rng.choice(_ROADS)} {rng.randint(1, 300)}"
                    if spot.umd_name:
                        addr1 = f"{reg.name} {spot.umd_name} {rng.randint(1, 999)}-{rng.randint(1, 30)}"
                    else:
                        addr1 = f"{reg.name} {road}"
                    addr2 = f"({spot.umd_name})" if spot.umd_name and rng.random() < 0.4 else ""
                    created, modified = _times(rng)
                    start = end = ""
                    if ctype == "15":
                        s = today + timedelta(days=rng.randint(-45, 120))
                        e = s + timedelta(days=rng.randint(0, 9))
                        start, end = f"{s:%Y%m%d}", f"{e:%Y%m%d}"
                    overview = _overview(ctype, title, local, rng)
                    places.append(
                        Place(
                            new_id(area.code, idx, ctype, k),
                            ctype,
                            title,
                            area.code,
                            str(idx),
                            reg.lawd_cd,
                            addr1,
                            addr2,
                            zip_code(rng, reg.sido_cd),
                            _tel(rng, reg.sido_cd) if rng.random() < 0.85 else "",
                            round(lon, 10),
                            round(lat, 10),
                            _CATS[ctype],
                            *_image(rng, rng.random() < 0.7),
                            created,
                            modified,
                            overview,
                            eventstartdate=start,
                            eventenddate=end,
                            telname=title if rng.random() < 0.5 else "",
                        )
                    )
    places.sort(key=lambda p: int(p.contentid))
    return TourData(tuple(places), {p.contentid: p for p in places})


def _overview(ctype: str, title: str, local: str, rng) -> str:
    if ctype == "39":
        return f"{title}은(는) {local} 주민들이 즐겨 찾는 식당이다.<br>대표 메뉴는 매일 아침 직접 준비한다."
    if ctype == "32":
        return f"{local}에 자리한 숙소로 객실 {rng.randint(6, 120)}실을 갖추고 있다.<br>주변 관광지와 가깝다."
    if ctype == "15":
        return f"{local}에서 열리는 지역 축제로 공연, 체험, 먹거리 장터가 마련된다."
    if ctype == "14":
        return f"{local}의 문화 공간으로 상설 전시와 교육 프로그램을 운영한다."
    if ctype == "38":
        return f"{local}의 대표 전통시장으로 제철 농수산물과 먹거리가 풍부하다."
    if ctype == "28":
        return f"{local}에서 즐길 수 있는 야외 레포츠 시설이다."
    return f"{title}은(는) 산책과 휴식을 즐기기 좋은 {local}의 명소이다."


def with_dist(place: Place, dist: float) -> Place:
    return replace(place, extra={"dist": f"{dist:.6f}"})
