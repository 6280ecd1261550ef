"""건강보험심사평가원 HIRA: 병원정보서비스 and 의료기관별상세정보 (the provider's published API guide).

- ``hospInfoServicev2/getHospBasisList``: hospitals by HIRA's own 6-digit region codes (sidoCd /
  sgguCd, NOT 법정동), name, 종별 clCd, 진료과목 dgsbjtCd, or a WGS84 point and radius.
- ``MadmDtlInfoService2.7/getDtlInfo2.7`` and ``getDgsbjtInfo2.7``: details of one ``ykiho``
  (the key the list returns; the same institution answers in every operation).

Casing trap reproduced: request ``xPos``/``yPos`` vs response ``XPos``/``YPos``. OK code
``00`` with ``NORMAL SERVICE.``, ``_type=json`` switch (UNCERTAIN: reported to work), ``items: ""``
for no rows, one row as an object in JSON.

UNCERTAIN: HIRA's JSON comes from the gateway's XML->JSON conversion, which (as for KASI and
TAGO) turns digit-only values without a leading zero into JSON numbers (``"XPos":127.0856``,
``"drTotCnt":5``) while ``"postNo":"06351"`` or ``"clCd":"01"`` stay strings. Field lists of
getDtlInfo2.7 beyond the treatment hours, and the ``distance`` field, are best-known values.
"""

from __future__ import annotations

import re
from typing import Any

from kopa_inspect.apis._envelope import DataGoKrEnvelope, Format, HttpResponse, Page
from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result, Rows
from kopa_inspect.world import World
from kopa_inspect.world import hospitals as hw
from kopa_inspect.world.tour import distance_m

_NUMERIC = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?")


def _jsonish(value: Any) -> Any:
    """The gateway converter's typing: digit-only text without a leading zero becomes a number."""
    if (
        isinstance(value, str)
        and _NUMERIC.fullmatch(value)
        and not (len(value) > 1 and value.startswith("0") and value[1] != ".")
    ):
        return float(value) if "." in value else int(value)
    return value


class HiraEnvelope(DataGoKrEnvelope):
    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if fmt == "json":
            rows = [{k: _jsonish(v) for k, v in r.items()} for r in page.rows]
            page = Page(rows, page.total, page.page_no, page.num_rows, page.extra)
        return super().render_ok(op, page, fmt)


ENVELOPE = HiraEnvelope(ok_code="00", ok_msg="NORMAL SERVICE.", format_param="_type", empty="empty_string")

PLATFORM = Platform(
    id="hira",
    name="건강보험심사평가원 병원정보서비스 (HIRA hospital information)",
    domain="health",
    live_base_url="https://apis.data.go.kr",
    envelope=ENVELOPE,
    description="병원·의원 목록과 진료시간·진료과목 상세 (hospitals and clinics, hours and departments)",
)

_COMMON = [
    Param("serviceKey", "인증키 (service key)", hidden=True),
    Param("_type", "응답 형식 json (response format; XML if absent)", hidden=True),
    Param("pageNo", "페이지 번호 (page number, from 1)", type="integer"),
    Param("numOfRows", "한 페이지 결과 수 (rows per page)", type="integer"),
]

_LIST_FIELDS = {
    "ykiho": "암호화된 요양기호 (institution key; getDtlInfo2.7/getDgsbjtInfo2.7의 ykiho)",
    "yadmNm": "요양기관명 (institution name)",
    "clCd": "종별코드 (type code: 01 상급종합, 11 종합병원, 21 병원, 31 의원 ...)",
    "clCdNm": "종별코드명 (type name)",
    "sidoCd": "HIRA 시도코드 6자리 (HIRA province code)",
    "sidoCdNm": "시도명 (province)",
    "sgguCd": "HIRA 시군구코드 6자리 (HIRA district code)",
    "sgguCdNm": "시군구명 (district)",
    "emdongNm": "읍면동명 (neighbourhood)",
    "postNo": "우편번호 (postal code)",
    "addr": "주소 (address)",
    "telno": "전화번호 (phone)",
    "hospUrl": "홈페이지 (homepage)",
    "estbDd": "개설일자 YYYYMMDD (opened)",
    "drTotCnt": "의사 총수 (total doctors)",
    "mdeptSdrCnt": "의과 전문의 수 (medical specialists)",
    "XPos": "경도 WGS84 (longitude; 요청 시 xPos)",
    "YPos": "위도 WGS84 (latitude; 요청 시 yPos)",
    "distance": "요청 좌표로부터 거리 m (distance in metres, geo search only)",
}


def _data(world: World) -> hw.HospitalData:
    return world.part("hospitals")


def _coord(value: float) -> str:
    return f"{value:.7f}".rstrip("0").rstrip(".")


def _list_row(h: hw.Hospital, dist: float | None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "addr": h.addr,
        "clCd": h.clCd,
        "clCdNm": h.clCdNm,
        **{k: str(v) for k, v in sorted(h.counts.items()) if k.startswith("cmdc")},
        **{k: str(v) for k, v in sorted(h.counts.items()) if k.startswith("dety")},
        "drTotCnt": str(h.drTotCnt),
        "emdongNm": h.emdongNm,
        "estbDd": h.estbDd,
        "hospUrl": h.hospUrl,
        **{k: str(v) for k, v in sorted(h.counts.items()) if k.startswith("mdept")},
        "postNo": h.postNo,
        "sgguCd": h.hira.sggu_cd,
        "sgguCdNm": h.hira.sggu_nm,
        "sidoCd": h.hira.sido_cd,
        "sidoCdNm": h.hira.sido_nm,
        "telno": h.telno,
        "XPos": _coord(h.lon),
        "YPos": _coord(h.lat),
        "yadmNm": h.yadmNm,
        "ykiho": h.ykiho,
    }
    if not row["hospUrl"]:
        # Empty XML elements are simply absent in HIRA answers (UNCERTAIN), as in most 2000s services.
        del row["hospUrl"]
    if dist is not None:
        row["distance"] = f"{dist:.0f}"
    return row


def get_hosp_basis_list(world: World, p: dict[str, Any]) -> Rows:
    sido, sggu = p.get("sidoCd"), p.get("sgguCd")
    geo = [p.get(k) for k in ("xPos", "yPos", "radius")]
    if any(v is not None for v in geo) and not all(v is not None for v in geo):
        # UNCERTAIN: the real service may default the radius instead of rejecting.
        missing = next(k for k, v in zip(("xPos", "yPos", "radius"), geo, strict=True) if v is None)
        raise ApiError("invalid_param", param=missing)
    out: list[tuple[float, hw.Hospital]] = []
    for h in _data(world).hospitals:
        if sido and h.hira.sido_cd != sido:
            continue
        if sggu and h.hira.sggu_cd != sggu:
            continue
        if p.get("clCd") and h.clCd != p["clCd"]:
            continue
        if p.get("yadmNm") and "".join(p["yadmNm"].split()) not in h.yadmNm.replace(" ", ""):
            continue
        if p.get("emdongNm") and p["emdongNm"] not in h.emdongNm:
            continue
        if p.get("dgsbjtCd") and not any(d[0] == p["dgsbjtCd"] for d in h.depts):
            continue
        d = -1.0
        if geo[0] is not None:
            d = distance_m(p["yPos"], p["xPos"], h.lat, h.lon)
            if d > p["radius"]:
                continue
        out.append((d, h))
    if geo[0] is not None:
        out.sort(key=lambda t: (t[0], t[1].yadmNm))
        return [_list_row(h, d) for d, h in out]
    # UNCERTAIN: the real default order; larger institutions first, then by name, is assumed.
    out.sort(key=lambda t: (t[1].clCd, t[1].yadmNm, t[1].ykiho))
    return [_list_row(h, None) for _, h in out]


def _hospital(world: World, p: dict[str, Any]) -> hw.Hospital | None:
    return _data(world).by_ykiho.get(p["ykiho"])


def get_dtl_info(world: World, p: dict[str, Any]) -> Result:
    h = _hospital(world, p)
    if h is None:
        return Result(rows=[])
    # Empty elements are absent, as in the list (UNCERTAIN).
    row = {k: v for k, v in sorted(h.hours.items(), key=lambda kv: kv[0].lower()) if v != ""}
    return Result(rows=[row])


def get_dgsbjt_info(world: World, p: dict[str, Any]) -> Result:
    h = _hospital(world, p)
    if h is None:
        return Result(rows=[])
    rows = [
        {"cdiagDrCnt": str(c), "dgsbjtCd": cd, "dgsbjtCdNm": hw.DEPTS[cd], "dgsbjtPrSdrCnt": str(n)}
        for cd, n, c in h.depts
    ]
    return Result(rows=rows)


_YKIHO = Param(
    "ykiho",
    "암호화된 요양기호: getHospBasisList의 ykiho (institution key from getHospBasisList)",
    required=True,
)

OPERATIONS: list[Operation] = [
    Operation(
        platform="hira",
        name="getHospBasisList",
        path="/B551182/hospInfoServicev2/getHospBasisList",
        summary="병원정보 목록: HIRA 지역코드(sidoCd/sgguCd, 법정동코드 아님)·기관명·종별·진료과목 또는 좌표 반경으로 "
        "병원·의원 검색 (search hospitals by HIRA region code, name, type, department or a point and radius)",
        params=[
            *_COMMON,
            Param(
                "sidoCd",
                "HIRA 시도코드 6자리: 서울 110000, 부산 210000, 경기 310000 ... (HIRA province code)",
                pattern=r"\d{6}",
            ),
            Param(
                "sgguCd",
                "HIRA 시군구코드 6자리: 강남구 110001, 종로구 110016, 성남분당구 310403 ... "
                "(HIRA district code, not a 법정동 code)",
                pattern=r"\d{6}",
            ),
            Param("emdongNm", "읍면동명 (neighbourhood name)"),
            Param("yadmNm", "기관명 일부 (part of the institution name)"),
            Param(
                "clCd",
                "종별코드: 01 상급종합, 11 종합병원, 21 병원, 28 요양병원, 31 의원, 51 치과의원, 93 한의원 "
                "(institution type)",
                pattern=r"\d{2}",
            ),
            Param(
                "dgsbjtCd",
                "진료과목코드: 01 내과, 05 정형외과, 11 소아청소년과, 12 안과, 13 이비인후과, 14 피부과, "
                "23 가정의학과, 49 치과 ... (department code)",
                pattern=r"\d{2}",
            ),
            Param("xPos", "경도 WGS84, yPos·radius와 함께 (longitude; with yPos and radius)", type="number"),
            Param("yPos", "위도 WGS84 (latitude)", type="number"),
            Param("radius", "반경 m (radius in metres)", type="integer"),
        ],
        handler=get_hosp_basis_list,
        output_fields=_LIST_FIELDS,
        uncertain="default sort order; 'distance' field; geo params all required together",
    ),
    Operation(
        platform="hira",
        name="getDtlInfo2.7",
        path="/B551182/MadmDtlInfoService2.7/getDtlInfo2.7",
        summary="의료기관 세부정보: ykiho 하나의 요일별 진료시간·점심시간·접수시간·휴진·주차·응급실 운영 "
        "(one institution's treatment hours, lunch, reception, closed days, parking, emergency room)",
        params=[*_COMMON, _YKIHO],
        handler=get_dtl_info,
        tool_name="hira_getDtlInfo2_7",
        output_fields={
            "trmtMonStart": "월요일 진료 시작 HHMM (Monday opening)",
            "trmtMonEnd": "월요일 진료 종료 (Monday closing)",
            "trmtSatStart": "토요일 진료 시작 (Saturday opening)",
            "trmtSatEnd": "토요일 진료 종료 (Saturday closing)",
            "lunchWeek": "평일 점심시간 (weekday lunch break)",
            "rcvWeek": "평일 접수시간 (weekday reception)",
            "rcvSat": "토요일 접수시간 (Saturday reception)",
            "noTrmtSun": "일요일 휴진 안내 (Sunday)",
            "noTrmtHoli": "공휴일 휴진 안내 (holidays)",
            "parkQty": "주차 가능 대수 (parking spaces)",
            "parkXpnsYn": "주차 비용 유무 Y/N (parking fee)",
            "emyDayYn": "주간 응급실 운영 Y/N (day ER)",
            "emyNgtYn": "야간 응급실 운영 Y/N (night ER)",
        },
        uncertain="field list from memory of the 2.7 manual",
    ),
    Operation(
        platform="hira",
        name="getDgsbjtInfo2.7",
        path="/B551182/MadmDtlInfoService2.7/getDgsbjtInfo2.7",
        summary="진료과목정보: ykiho 하나의 진료과목과 과목별 전문의 수 (one institution's departments and "
        "specialists per department)",
        params=[*_COMMON, _YKIHO],
        handler=get_dgsbjt_info,
        tool_name="hira_getDgsbjtInfo2_7",
        output_fields={
            "dgsbjtCd": "진료과목코드 (department code)",
            "dgsbjtCdNm": "진료과목명 (department name)",
            "dgsbjtPrSdrCnt": "과목별 전문의 수 (specialists in the department)",
            "cdiagDrCnt": "협진 의사 수 (consulting doctors)",
        },
        uncertain="cdiagDrCnt name",
    ),
]
