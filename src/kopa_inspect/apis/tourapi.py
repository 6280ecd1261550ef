"""한국관광공사 TourAPI 4.0 국문 관광정보 (KorService2), the provider's published API guide

Emulated snapshot: KorService2 as of manual v4.3 (areaCode2 and the areaCode / sigunguCode /
cat1-3 filters still present, lDong* and lclsSystm* fields already present), which keeps the
classic chain areaCode2 -> areaBasedList2 -> detailCommon2 -> locationBasedList2.

Contract points reproduced: MobileOS / MobileApp required on every call (the tool layer fills
them, as every real client does), ``_type=json`` switch (XML by default), OK ``0000``/``OK``,
every item field a string (``contentid``, ``mapx`` ...), the request/response casing trap
(request ``contentId``/``contentTypeId``/``mapX`` vs response ``contentid``/``contenttypeid``/
``mapx``), numOfRows 1..1000, one item as an object in JSON, ``items: ""`` for no rows (also
for an unknown contentId), and parameter errors as a flat JSON object whose message names the
parameter: ``{"resultCode":"10","resultMsg":"INVALID_REQUEST_PARAMETER_ERROR(addrinfoYN)"}``.
"""

from __future__ import annotations

import json
from typing import Any

from kopa_inspect.apis._envelope import (
    JSON_CT,
    XML_CT,
    DataGoKrEnvelope,
    Format,
    HttpResponse,
    Parsed,
    dumps_json,
    dumps_xml,
    render_gateway_error,
)
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result, Rows
from kopa_inspect.world import World
from kopa_inspect.world import tour as tw

BASE = "/B551011/KorService2"


class TourEnvelope(DataGoKrEnvelope):
    """The data.go.kr envelope with TourAPI's own error shape and its always-required app params."""

    def __init__(self) -> None:
        super().__init__(
            ok_code="0000",
            ok_msg="OK",
            format_param="_type",
            empty="empty_string",
            max_size=1000,
            errors={"too_many_rows": ("10", "INVALID_REQUEST_PARAMETER_ERROR")},
        )

    def json_request_params(self) -> dict[str, str]:
        # Every real client sends these two with each call; the tool layer does the same so a
        # model never has to (they are hidden params).
        return {"_type": "json", "MobileOS": "ETC", "MobileApp": "KOPA"}

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        if err.kind in self.gateway_kinds:
            return render_gateway_error(err.kind, fmt)
        code, msg = self.errors.get(err.kind, self.errors["server_error"])
        if err.detail:
            msg = err.detail
        elif err.param and err.kind in ("invalid_param", "missing_param", "too_many_rows"):
            msg = f"{msg}({err.param})"
        if err.kind == "nodata":
            return super().render_error(op, err, fmt)
        # Observed KorService2 parameter errors are a flat JSON object (HTTP 200), not the
        # response/header envelope. UNCERTAIN: the real one also carries "responseTime" (the
        # server time); it is left out because an error rendered here does not see the clock
        # and the bytes must stay deterministic. UNCERTAIN: the XML twin is assumed to be the
        # standard <response><header> shape.
        if fmt == "json":
            return HttpResponse(200, JSON_CT, dumps_json({"resultCode": code, "resultMsg": msg}))
        return HttpResponse(
            200, XML_CT, dumps_xml({"response": {"header": {"resultCode": code, "resultMsg": msg}}})
        )

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        text = resp.text.lstrip("\ufeff").strip()
        if text.startswith("{"):
            try:
                doc = json.loads(text)
            except json.JSONDecodeError:
                doc = None
            if isinstance(doc, dict) and "resultCode" in doc and "response" not in doc:
                code = str(doc.get("resultCode"))
                return Parsed(ok=code in ("0000", "00"), code=code, message=str(doc.get("resultMsg", "")))
        return super().parse(op, resp)


ENVELOPE = TourEnvelope()

PLATFORM = Platform(
    id="tourapi",
    name="한국관광공사 TourAPI 국문 관광정보 (Korea Tourism Organization TourAPI 4.0)",
    domain="tourism",
    live_base_url="https://apis.data.go.kr",
    envelope=ENVELOPE,
    description="관광지·문화시설·축제·숙박·음식점 정보 (tourist attractions, culture, festivals, stays, food)",
)

# --- parameters -----------------------------------------------------------------------------

_CT_DESC = "관광타입 ID: 12 관광지, 14 문화시설, 15 축제공연행사, 25 여행코스, 28 레포츠, 32 숙박, 38 쇼핑, 39 음식점 (content type)"
_COMMON = [
    Param("serviceKey", "인증키 (service key)", hidden=True),
    Param(
        "MobileOS",
        "OS 구분 IOS/AND/WEB/WIN/ETC (client OS)",
        required=True,
        hidden=True,
        enum=("IOS", "AND", "WEB", "WIN", "ETC"),
    ),
    Param("MobileApp", "서비스명 (client app name)", required=True, hidden=True),
    Param("_type", "응답 형식 json (response format; XML if absent)", hidden=True),
    Param(
        "numOfRows", "한 페이지 결과 수, 최대 1000 (rows per page, max 1000)", type="integer", default=None
    ),
    Param("pageNo", "페이지 번호 (page number, from 1)", type="integer"),
]
_AREA = [
    Param(
        "areaCode",
        "지역코드: areaCode2로 조회 (1 서울, 6 부산, 39 제주 ...) (TourAPI area code)",
        pattern=r"\d{1,2}",
    ),
    Param(
        "sigunguCode",
        "시군구코드: areaCode2(areaCode)로 조회, areaCode 필요 (TourAPI district code; needs areaCode)",
        pattern=r"\d{1,3}",
    ),
    Param("lDongRegnCd", "법정동 시도코드 2자리 (legal-dong province code, e.g. 11)", pattern=r"\d{2}"),
    Param(
        "lDongSignguCd",
        "법정동 시군구코드 3자리, lDongRegnCd 필요 (legal-dong district code, 3 digits)",
        pattern=r"\d{3}",
    ),
]
_CAT = [
    Param("cat1", "대분류 (category 1, e.g. A01 자연, A02 인문, A05 음식, B02 숙박)", pattern=r"[A-Z]\d{2}"),
    Param("cat2", "중분류, cat1 필요 (category 2; needs cat1)", pattern=r"[A-Z]\d{4}"),
    Param("cat3", "소분류, cat2 필요 (category 3; needs cat2)", pattern=r"[A-Z]\d{8}"),
    Param("lclsSystm1", "분류체계 대분류 (classification level 1, e.g. NA)", pattern=r"[A-Z]{2}"),
    Param("lclsSystm2", "분류체계 중분류 (classification level 2)", pattern=r"[A-Z]{2}\d{2}"),
    Param("lclsSystm3", "분류체계 소분류 (classification level 3)", pattern=r"[A-Z]{2}\d{6}"),
]
_ARRANGE_LIST = Param(
    "arrange",
    "정렬: A 제목순, C 수정일순, D 생성일순; 대표이미지 있는 것만 O/Q/R (sort: title, modified, created; O/Q/R image only)",
    enum=("A", "C", "D", "O", "Q", "R"),
)
_ARRANGE_LOC = Param(
    "arrange",
    "정렬: A 제목순, C 수정일순, D 생성일순, E 거리순; 대표이미지 있는 것만 O/Q/R/S "
    "(sort: title, modified, created, distance; O/Q/R/S image only)",
    enum=("A", "C", "D", "E", "O", "Q", "R", "S"),
)
_CONTENT_TYPE = Param("contentTypeId", _CT_DESC, enum=tuple(tw.CONTENT_TYPES))
_MODIFIED = Param(
    "modifiedtime", "콘텐츠 수정일 YYYYMMDD (modified on that day)", pattern=r"\d{4}(\d{2}){0,2}"
)
# Legacy detailCommon1 toggles that KorService2 rejects by name (reference §2.7, observed).
_LEGACY_YN = ("defaultYN", "firstImageYN", "areacodeYN", "catcodeYN", "addrinfoYN", "mapinfoYN", "overviewYN")

_LIST_FIELDS = {
    "contentid": "콘텐츠 ID (content id; detailCommon2의 contentId)",
    "contenttypeid": "관광타입 ID (content type id)",
    "title": "제목 (name)",
    "addr1": "주소 (address)",
    "addr2": "상세주소 (address detail)",
    "zipcode": "우편번호 (postal code)",
    "tel": "전화번호 (phone)",
    "mapx": "경도 WGS84 (longitude; locationBasedList2의 mapX)",
    "mapy": "위도 WGS84 (latitude; locationBasedList2의 mapY)",
    "areacode": "지역코드 (TourAPI area code)",
    "sigungucode": "시군구코드 (TourAPI district code)",
    "lDongRegnCd": "법정동 시도코드 (legal-dong province code)",
    "lDongSignguCd": "법정동 시군구코드 3자리 (legal-dong district code)",
    "cat1": "대분류 (category 1)",
    "cat2": "중분류 (category 2)",
    "cat3": "소분류 (category 3)",
    "firstimage": "대표이미지 원본 URL (main image)",
    "createdtime": "등록일시 YYYYMMDDHHmmss (created)",
    "modifiedtime": "수정일시 YYYYMMDDHHmmss (modified)",
}


# --- helpers --------------------------------------------------------------------------------


def _require_app(p: dict[str, Any]) -> None:
    for name in ("MobileOS", "MobileApp"):
        if p.get(name) in (None, ""):
            raise ApiError("missing_param", param=name)


def _row(place: tw.Place, *, dist: float | None = None, festival: bool = False) -> dict[str, str]:
    c = place.cats
    row: dict[str, str] = {
        "addr1": place.addr1,
        "addr2": place.addr2,
        "areacode": place.areacode,
        "cat1": c[0],
        "cat2": c[1],
        "cat3": c[2],
        "contentid": place.contentid,
        "contenttypeid": place.contenttypeid,
        "createdtime": place.createdtime,
    }
    # UNCERTAIN: the name "dist" (metres, string) and its position are not confirmed.
    if dist is not None:
        row["dist"] = f"{dist:.6f}"
    if festival:
        row["eventstartdate"] = place.eventstartdate
        row["eventenddate"] = place.eventenddate
    row.update(
        {
            "firstimage": place.firstimage,
            "firstimage2": place.firstimage2,
            "cpyrhtDivCd": place.cpyrhtDivCd,
            "mapx": f"{place.mapx:.10f}",
            "mapy": f"{place.mapy:.10f}",
            "mlevel": "6",
            "modifiedtime": place.modifiedtime,
            "sigungucode": place.sigungucode,
            "tel": place.tel,
            "title": place.title,
            "zipcode": place.zipcode,
            "lDongRegnCd": place.lawd_cd[:2],
            "lDongSignguCd": place.lawd_cd[2:5],
            "lclsSystm1": c[3],
            "lclsSystm2": c[4],
            "lclsSystm3": c[5],
        }
    )
    return row


def _filter(places: list[tw.Place], p: dict[str, Any]) -> list[tw.Place]:
    if p.get("sigunguCode") and not p.get("areaCode"):
        # UNCERTAIN: which parameter the real message names when the parent code is missing.
        raise ApiError("invalid_param", param="areaCode")
    if p.get("lDongSignguCd") and not p.get("lDongRegnCd"):
        raise ApiError("invalid_param", param="lDongRegnCd")
    for child, parent in (
        ("cat2", "cat1"),
        ("cat3", "cat2"),
        ("lclsSystm2", "lclsSystm1"),
        ("lclsSystm3", "lclsSystm2"),
    ):
        if p.get(child) and not p.get(parent):
            raise ApiError("invalid_param", param=parent)
    area = p.get("areaCode")
    if area and area not in tw.AREA_BY_CODE:
        raise ApiError("invalid_param", param="areaCode")
    out = []
    for pl in places:
        if p.get("contentTypeId") and pl.contenttypeid != p["contentTypeId"]:
            continue
        if area and pl.areacode != area:
            continue
        if p.get("sigunguCode") and pl.sigungucode != str(int(p["sigunguCode"])):
            continue
        if p.get("lDongRegnCd") and pl.lawd_cd[:2] != p["lDongRegnCd"]:
            continue
        if p.get("lDongSignguCd") and pl.lawd_cd[2:5] != p["lDongSignguCd"]:
            continue
        if any(p.get(k) and pl.cats[i] != p[k] for i, k in enumerate(("cat1", "cat2", "cat3"))):
            continue
        if any(
            p.get(k) and pl.cats[3 + i] != p[k]
            for i, k in enumerate(("lclsSystm1", "lclsSystm2", "lclsSystm3"))
        ):
            continue
        if p.get("modifiedtime") and not pl.modifiedtime.startswith(p["modifiedtime"]):
            continue
        out.append(pl)
    return out


def _sort(places: list[tw.Place], arrange: str, dists: dict[str, float] | None = None) -> list[tw.Place]:
    if arrange in ("O", "Q", "R", "S"):
        places = [pl for pl in places if pl.has_image]
        arrange = {"O": "A", "Q": "C", "R": "D", "S": "E"}[arrange]
    if arrange == "A":
        return sorted(places, key=lambda pl: (pl.title, int(pl.contentid)))
    if arrange == "D":
        return sorted(places, key=lambda pl: (pl.createdtime, int(pl.contentid)), reverse=True)
    if arrange == "E" and dists is not None:
        return sorted(places, key=lambda pl: (dists[pl.contentid], int(pl.contentid)))
    return sorted(places, key=lambda pl: (pl.modifiedtime, int(pl.contentid)), reverse=True)


def _data(world: World) -> tw.TourData:
    return world.part("tour")


# --- handlers -------------------------------------------------------------------------------


def area_code(world: World, p: dict[str, Any]) -> Rows:
    _require_app(p)
    code = p.get("areaCode")
    if not code:
        return [{"rnum": i, "code": a.code, "name": a.name} for i, a in enumerate(tw.AREAS, start=1)]
    area = tw.AREA_BY_CODE.get(str(int(code)))
    if area is None:
        return []
    rows = [{"code": str(i), "name": name} for i, name in enumerate(area.sigungu, start=1) if name]
    return [{"rnum": i, **r} for i, r in enumerate(rows, start=1)]


def area_based_list(world: World, p: dict[str, Any]) -> Rows:
    _require_app(p)
    places = _sort(_filter(list(_data(world).places), p), p.get("arrange") or "C")
    return [_row(pl) for pl in places]


def search_keyword(world: World, p: dict[str, Any]) -> Rows:
    _require_app(p)
    needle = "".join(str(p["keyword"]).split())
    hits = [pl for pl in _data(world).places if needle in pl.title.replace(" ", "")]
    return [_row(pl) for pl in _sort(_filter(hits, p), p.get("arrange") or "C")]


def location_based_list(world: World, p: dict[str, Any]) -> Rows:
    _require_app(p)
    lon, lat, radius = p["mapX"], p["mapY"], p["radius"]
    if not (124.0 <= lon <= 132.0):
        raise ApiError("invalid_param", param="mapX")
    if not (33.0 <= lat <= 39.0):
        raise ApiError("invalid_param", param="mapY")
    if radius < 1 or radius > 20000:
        raise ApiError("invalid_param", param="radius")
    dists: dict[str, float] = {}
    near = []
    for pl in _data(world).places:
        d = tw.distance_m(lat, lon, pl.mapy, pl.mapx)
        if d <= radius:
            dists[pl.contentid] = d
            near.append(pl)
    places = _sort(_filter(near, p), p.get("arrange") or "E", dists)
    return [_row(pl, dist=dists[pl.contentid]) for pl in places]


def search_festival(world: World, p: dict[str, Any]) -> Rows:
    _require_app(p)
    start = p["eventStartDate"]
    end = p.get("eventEndDate")
    if end and end < start:
        raise ApiError("invalid_param", param="eventEndDate")
    fests = [
        pl
        for pl in _data(world).places
        if pl.contenttypeid == "15" and pl.eventenddate >= start and (not end or pl.eventstartdate <= end)
    ]
    fests = _filter(fests, {k: v for k, v in p.items() if k != "contentTypeId"})
    return [_row(pl, festival=True) for pl in _sort(fests, p.get("arrange") or "C")]


def detail_common(world: World, p: dict[str, Any]) -> Result:
    _require_app(p)
    for legacy in (*_LEGACY_YN, "contentTypeId"):
        if p.get(legacy) not in (None, ""):
            raise ApiError("invalid_param", param=legacy)
    place = _data(world).get(p["contentId"])
    if place is None:
        # Recorded: an unknown contentId answers 0000 OK with items "" (not 03 NODATA).
        return Result(rows=[])
    c = place.cats
    row = {
        "contentid": place.contentid,
        "contenttypeid": place.contenttypeid,
        "title": place.title,
        "createdtime": place.createdtime,
        "modifiedtime": place.modifiedtime,
        "tel": place.tel,
        "telname": place.telname,
        "homepage": place.homepage,
        "firstimage": place.firstimage,
        "firstimage2": place.firstimage2,
        "cpyrhtDivCd": place.cpyrhtDivCd,
        "areacode": place.areacode,
        "sigungucode": place.sigungucode,
        "lDongRegnCd": place.lawd_cd[:2],
        "lDongSignguCd": place.lawd_cd[2:5],
        "lclsSystm1": c[3],
        "lclsSystm2": c[4],
        "lclsSystm3": c[5],
        "cat1": c[0],
        "cat2": c[1],
        "cat3": c[2],
        "addr1": place.addr1,
        "addr2": place.addr2,
        "zipcode": place.zipcode,
        "mapx": f"{place.mapx:.10f}",
        "mapy": f"{place.mapy:.10f}",
        "mlevel": "6",
        "overview": place.overview,
    }
    return Result(rows=[row])


# detailIntro2: per-type fields (reference §2.7 subsets; the full per-type lists are best-known
# values, UNCERTAIN). A few real sights carry their real closing days.
_REAL_INTRO = {
    "경복궁": {
        "restdate": "매주 화요일",
        "usetime": "09:00~18:00 (입장마감 17:00)<br>※ 계절별로 상이",
        "parking": "가능 (승용차 240대, 버스 50대)",
        "infocenter": "02-3700-3900~1",
    },
    "창덕궁": {"restdate": "매주 월요일", "usetime": "09:00~18:00 (입장마감 17:00)<br>※ 계절별로 상이"},
    "덕수궁": {"restdate": "매주 월요일", "usetime": "09:00~21:00 (입장마감 20:00)"},
    "국립중앙박물관": {
        "restdateculture": "1월 1일, 설날 당일, 추석 당일",
        "usetimeculture": "10:00~18:00 (수·토요일 10:00~21:00)",
        "usefee": "무료",
    },
    "불국사": {"restdate": "연중무휴", "usetime": "09:00~18:00 (계절별 상이)"},
}
_RESTDAYS = (
    "연중무휴",
    "매주 월요일",
    "매주 화요일",
    "매주 월요일 (공휴일인 경우 다음날)",
    "1월 1일, 설날·추석 당일",
)
_AVAIL = ("가능", "불가", "없음")


def _intro_row(place: tw.Place, world: World) -> dict[str, str]:
    rng = world.rng("tour.intro", place.contentid)
    real = _REAL_INTRO.get(place.title, {})
    rest = rng.choice(_RESTDAYS)
    open_h, close_h = rng.choice((9, 10, 11)), rng.choice((18, 20, 21, 22))
    hours = f"{open_h:02d}:00~{close_h:02d}:00"
    tel = place.tel
    row: dict[str, str] = {"contentid": place.contentid, "contenttypeid": place.contenttypeid}
    t = place.contenttypeid
    if t == "12":
        row.update(
            {
                "accomcount": "",
                "chkbabycarriage": rng.choice(_AVAIL),
                "chkcreditcard": rng.choice(_AVAIL),
                "chkpet": rng.choice(("불가", "가능 (목줄 착용)")),
                "expagerange": "",
                "expguide": "",
                "heritage1": "1" if place.cats[1] == "A0201" else "0",
                "heritage2": "0",
                "heritage3": "0",
                "infocenter": tel,
                "opendate": "",
                "parking": rng.choice(("가능", "불가", "가능 (유료)")),
                "restdate": rest,
                "useseason": "상시",
                "usetime": hours,
            }
        )
    elif t == "14":
        row.update(
            {
                "accomcountculture": f"{rng.randint(50, 2000)}명",
                "chkbabycarriageculture": rng.choice(_AVAIL),
                "chkcreditcardculture": rng.choice(_AVAIL),
                "chkpetculture": "불가",
                "discountinfo": "",
                "infocenterculture": tel,
                "parkingculture": rng.choice(("가능", "불가")),
                "parkingfee": "",
                "restdateculture": rest,
                "usefee": rng.choice(("무료", "성인 3,000원", "성인 5,000원")),
                "usetimeculture": hours,
                "scale": "",
                "spendtime": f"{rng.randint(1, 3)}시간",
            }
        )
    elif t == "15":
        row.update(
            {
                "agelimit": "전연령",
                "bookingplace": "",
                "discountinfofestival": "",
                "eventenddate": place.eventenddate,
                "eventhomepage": "",
                "eventplace": place.addr1.split(" ", 2)[-1],
                "eventstartdate": place.eventstartdate,
                "festivalgrade": "",
                "placeinfo": "",
                "playtime": f"{open_h:02d}:00~{close_h:02d}:00",
                "program": "개막식, 공연, 체험 부스, 먹거리 장터",
                "spendtimefestival": "",
                "sponsor1": f"{place.title} 추진위원회",
                "sponsor1tel": tel,
                "sponsor2": "",
                "sponsor2tel": "",
                "subevent": "",
                "usetimefestival": rng.choice(("무료", "유료")),
            }
        )
    elif t == "28":
        row.update(
            {
                "accomcountleports": "",
                "chkbabycarriageleports": "불가",
                "chkcreditcardleports": "가능",
                "chkpetleports": "불가",
                "expagerangeleports": "",
                "infocenterleports": tel,
                "openperiod": "연중",
                "parkingfeeleports": "",
                "parkingleports": "가능",
                "reservation": tel,
                "restdateleports": rest,
                "scaleleports": "",
                "usefeeleports": "",
                "usetimeleports": hours,
            }
        )
    elif t == "32":
        row.update(
            {
                "accomcountlodging": f"{rng.randint(2, 6)}명",
                "checkintime": rng.choice(("14:00", "15:00")),
                "checkouttime": rng.choice(("11:00", "12:00")),
                "chkcooking": rng.choice(("가능", "불가")),
                "foodplace": "",
                "infocenterlodging": tel,
                "parkinglodging": rng.choice(("가능", "불가")),
                "pickup": "불가",
                "roomcount": str(rng.randint(6, 120)),
                "reservationlodging": tel,
                "reservationurl": "",
                "roomtype": rng.choice(("온돌, 침대", "스탠다드, 디럭스")),
                "scalelodging": "",
                "subfacility": "",
                "barbecue": "0",
                "beauty": "0",
                "beverage": "0",
                "bicycle": "0",
                "campfire": "0",
                "fitness": "0",
                "karaoke": "0",
                "publicbath": "0",
                "publicpc": "0",
                "sauna": "0",
                "seminar": "0",
                "sports": "0",
                "refundregulation": "",
            }
        )
    elif t == "38":
        row.update(
            {
                "chkbabycarriageshopping": "불가",
                "chkcreditcardshopping": "가능",
                "chkpetshopping": "불가",
                "culturecenter": "",
                "fairday": rng.choice(("", "2일, 7일")),
                "infocentershopping": tel,
                "opendateshopping": "",
                "opentime": hours,
                "parkingshopping": rng.choice(("가능", "불가")),
                "restdateshopping": rest,
                "restroom": "있음",
                "saleitem": "농수산물, 먹거리",
                "saleitemcost": "",
                "scaleshopping": "",
                "shopguide": "",
            }
        )
    elif t == "39":
        menu = next((f for f in tw.FOODS if f in place.title), "한식")
        row.update(
            {
                "chkcreditcardfood": "가능",
                "discountinfofood": "",
                "firstmenu": menu,
                "infocenterfood": tel,
                "kidsfacility": rng.choice(("0", "1")),
                "lcnsno": "",
                "opendatefood": "",
                "opentimefood": f"{open_h:02d}:00~{close_h:02d}:00",
                "packing": rng.choice(_AVAIL),
                "parkingfood": rng.choice(("가능", "불가")),
                "reservationfood": rng.choice(("가능", "불가")),
                "restdatefood": rest,
                "scalefood": f"{rng.randint(20, 120)}석",
                "seat": "",
                "smoking": "불가",
                "treatmenu": f"{menu}, 공기밥, 음료",
            }
        )
    row.update({k: v for k, v in real.items() if k in row})
    return row


def detail_intro(world: World, p: dict[str, Any]) -> Result:
    _require_app(p)
    place = _data(world).get(p["contentId"])
    if place is None or place.contenttypeid != p["contentTypeId"]:
        # UNCERTAIN: a content id with the wrong type is assumed to answer like an unknown id.
        return Result(rows=[])
    return Result(rows=[_intro_row(place, world)])


# --- operations -----------------------------------------------------------------------------

OPERATIONS: list[Operation] = [
    Operation(
        platform="tourapi",
        name="areaCode2",
        path=f"{BASE}/areaCode2",
        summary="지역코드 조회: areaCode 없이 부르면 17개 시도, areaCode를 주면 그 시도의 시군구 코드 목록 "
        "(TourAPI area codes; with areaCode, its district codes)",
        params=[
            *_COMMON,
            Param("areaCode", "지역코드 (area code; omit for the 17 areas)", pattern=r"\d{1,2}"),
        ],
        handler=area_code,
        output_fields={
            "rnum": "일련번호 (row number)",
            "code": "지역코드 또는 시군구코드 (area / district code)",
            "name": "지역명 (name)",
        },
        uncertain="areaCode2 was removed in manual v4.4; this emulates v4.3. Sigungu lists are from memory.",
    ),
    Operation(
        platform="tourapi",
        name="areaBasedList2",
        path=f"{BASE}/areaBasedList2",
        summary="지역기반 관광정보 목록: 지역·시군구·관광타입·분류로 관광지/음식점/숙박 등을 조회 "
        "(list tourist content by area, district, content type and category)",
        params=[*_COMMON, _ARRANGE_LIST, _CONTENT_TYPE, *_AREA, *_CAT, _MODIFIED],
        handler=area_based_list,
        output_fields=_LIST_FIELDS,
        uncertain="default arrange (C, 수정일순) assumed",
    ),
    Operation(
        platform="tourapi",
        name="searchKeyword2",
        path=f"{BASE}/searchKeyword2",
        summary="키워드 검색: 제목에 키워드가 들어간 관광정보 목록 (search tourist content by keyword in the title)",
        params=[
            *_COMMON,
            Param("keyword", "검색어 (keyword, UTF-8)", required=True),
            _ARRANGE_LIST,
            _CONTENT_TYPE,
            *_AREA,
            *_CAT,
        ],
        handler=search_keyword,
        output_fields=_LIST_FIELDS,
    ),
    Operation(
        platform="tourapi",
        name="locationBasedList2",
        path=f"{BASE}/locationBasedList2",
        summary="위치기반 관광정보 목록: 경도 mapX·위도 mapY 반경 radius(m, 최대 20000) 안의 관광정보, dist=거리(m) "
        "(tourist content within radius metres of a WGS84 point; dist = distance in metres)",
        params=[
            *_COMMON,
            Param("mapX", "경도 WGS84 (longitude; a list's mapx)", type="number", required=True),
            Param("mapY", "위도 WGS84 (latitude; a list's mapy)", type="number", required=True),
            Param(
                "radius",
                "거리 반경 m, 최대 20000 (radius in metres, max 20000)",
                type="integer",
                required=True,
            ),
            _ARRANGE_LOC,
            _CONTENT_TYPE,
            *_AREA,
            *_CAT,
            _MODIFIED,
        ],
        handler=location_based_list,
        output_fields={**_LIST_FIELDS, "dist": "중심 좌표로부터 거리 m (distance in metres)"},
        uncertain="response field 'dist' name; default arrange E assumed",
    ),
    Operation(
        platform="tourapi",
        name="searchFestival2",
        path=f"{BASE}/searchFestival2",
        summary="행사정보 조회: eventStartDate(YYYYMMDD) 이후 진행 중이거나 시작하는 축제·공연·행사 "
        "(festivals and events running on or after eventStartDate)",
        params=[
            *_COMMON,
            Param(
                "eventStartDate",
                "행사 시작일 YYYYMMDD, 필수 (event start date, required)",
                required=True,
                pattern=r"\d{8}",
            ),
            Param("eventEndDate", "행사 종료일 YYYYMMDD (event end date)", pattern=r"\d{8}"),
            _ARRANGE_LIST,
            *_AREA,
            *_CAT,
            _MODIFIED,
        ],
        handler=search_festival,
        output_fields={
            **_LIST_FIELDS,
            "eventstartdate": "행사 시작일 YYYYMMDD (event start)",
            "eventenddate": "행사 종료일 YYYYMMDD (event end)",
        },
        uncertain="missing eventStartDate message suffix '(eventStartDate)' assumed",
    ),
    Operation(
        platform="tourapi",
        name="detailCommon2",
        path=f"{BASE}/detailCommon2",
        summary="공통정보 조회: contentId 하나의 제목·주소·좌표·전화·홈페이지·개요 (common details of one content id; "
        "send contentId only)",
        params=[
            *_COMMON,
            Param(
                "contentId",
                "콘텐츠 ID, 목록의 contentid (content id from a list's contentid)",
                required=True,
                pattern=r"\d{1,10}",
            ),
            *(
                Param(n, "구버전 파라미터: KorService2에서 오류 (legacy toggle, rejected)", hidden=True)
                for n in _LEGACY_YN
            ),
            Param("contentTypeId", "보내지 마세요 (do not send)", hidden=True),
        ],
        handler=detail_common,
        output_fields={
            **{k: v for k, v in _LIST_FIELDS.items() if k not in ("createdtime",)},
            "overview": "개요, <br> 포함 가능 (overview, may contain <br>)",
            "homepage": "홈페이지 HTML <a> (homepage link)",
            "telname": "전화번호명 (phone contact name)",
        },
    ),
    Operation(
        platform="tourapi",
        name="detailIntro2",
        path=f"{BASE}/detailIntro2",
        summary="소개정보 조회: contentId와 contentTypeId(둘 다 필수)로 휴무일·이용시간·주차·체크인·대표메뉴 등 "
        "타입별 정보 (type-specific details: closing days, hours, parking, check-in, menu)",
        params=[
            *_COMMON,
            Param(
                "contentId", "콘텐츠 ID, 목록의 contentid (content id)", required=True, pattern=r"\d{1,10}"
            ),
            Param(
                "contentTypeId",
                _CT_DESC + "; 목록의 contenttypeid",
                required=True,
                enum=tuple(tw.CONTENT_TYPES),
            ),
        ],
        handler=detail_intro,
        output_fields={
            "restdate": "쉬는날, 관광지 (closing days, sights)",
            "usetime": "이용시간, 관광지 (hours, sights)",
            "restdateculture": "쉬는날, 문화시설 (closing days, culture)",
            "usetimeculture": "이용시간, 문화시설 (hours)",
            "usefee": "이용요금, 문화시설 (fee)",
            "eventplace": "행사장소 (event venue)",
            "playtime": "공연시간 (event hours)",
            "checkintime": "입실시간 (check-in)",
            "checkouttime": "퇴실시간 (check-out)",
            "roomcount": "객실수 (rooms)",
            "firstmenu": "대표메뉴 (signature dish)",
            "opentimefood": "영업시간 (opening hours)",
            "restdatefood": "쉬는날, 음식점 (closing days, food)",
            "parking": "주차시설 (parking)",
            "infocenter": "문의 및 안내 (contact)",
        },
        uncertain="per-type field lists beyond the manual-derived subsets",
    ),
]
