"""국토교통부 부동산 실거래가 (RTMSDataSvc*, 1613000): 아파트 매매 / 전월세 신고 자료.

the provider's published API guide (the 2024+ English-tag service). Contract details reproduced:
LAWD_CD (5-digit 시군구 = first five digits of a 법정동코드) + DEAL_YMD (YYYYMM); XML only (no
JSON switch is honoured, as no client uses one); OK is ``000``/``OK`` (three digits) while errors
use the gateway's two-digit codes; item tags in alphabetical order; blank values are a single
space; ``dealAmount``/``deposit`` are 만원 with thousands commas and often leading spaces;
dealMonth/dealDay are not zero-padded; bonbun/bubun 4 digits, road numbers 5 digits; cdealDay and
rgstDate as YY.MM.DD; the rent feed spells its road fields in lower case (``roadnm``...). An empty
month is ``000`` with ``<items></items>`` and totalCount 0 (not 03 NODATA). The trade service is
served on both paths clients use (``RTMSDataSvcAptTrade`` and ``RTMSDataSvcAptTradeDev``).
The officetel services (``RTMSDataSvcOffiTrade``, ``RTMSDataSvcOffiRent``) take the same request
and envelope; their items carry ``offiNm`` and ``sggNm`` instead of the apartment and road fields
(the column lists PublicDataReader reads).

Data: :mod:`kopa_inspect.world.trades` and :mod:`kopa_inspect.world.officetels` (per seed,
LAWD_CD and month; months after the clock's month are empty).
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.apis._envelope import DataGoKrEnvelope, Format, HttpResponse, Page
from kopa_inspect.apis._spec import ApiError, Handler, Operation, Param, Platform, Result
from kopa_inspect.world import World
from kopa_inspect.world.officetels import Officetels
from kopa_inspect.world.trades import Trades

_DECL_STD = b'<?xml version="1.0" encoding="UTF-8"?>'
# The RTMS service's own XML declaration (recorded).
_DECL_RTMS = b'<?xml version="1.0" encoding="utf-8" standalone="yes"?>'


class RtmsEnvelope(DataGoKrEnvelope):
    """The data.go.kr envelope with RTMS's three-digit OK code and its XML declaration."""

    def __init__(self) -> None:
        # UNCERTAIN: the service's own codes for a missing/malformed LAWD_CD or DEAL_YMD were not
        # seen recorded; the data.go.kr standard 11/10 are used.
        super().__init__(ok_code="000", ok_msg="OK", format_param=None, empty="empty_string")

    @staticmethod
    def _redeclare(resp: HttpResponse) -> HttpResponse:
        if resp.body.startswith(_DECL_STD) and b"<response>" in resp.body[:80]:
            resp.body = _DECL_RTMS + resp.body[len(_DECL_STD) :]
        return resp

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        return self._redeclare(super().render_ok(op, page, "xml"))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        return self._redeclare(super().render_error(op, err, "xml"))


ENVELOPE = RtmsEnvelope()

_COMMON_PARAMS = [
    Param(
        "LAWD_CD",
        "지역코드: 법정동코드 앞 5자리 시군구코드, 예 11680 강남구 (5-digit 시군구 code, first 5 digits of a 법정동 code)",
        required=True,
        pattern=r"\d{5}",
    ),
    Param(
        "DEAL_YMD",
        "계약년월 YYYYMM, 예 202609 (contract year-month)",
        required=True,
        pattern=r"\d{4}(0[1-9]|1[0-2])",
    ),
    Param("pageNo", "페이지 번호 (page number)", type="integer"),
    Param("numOfRows", "한 페이지 결과 수, 기본 10 (rows per page, default 10)", type="integer"),
]


def apt_trade(world: World, params: dict[str, Any]) -> Result:
    trades: Trades = world.part("trades")
    return Result(rows=[dict(r) for r in trades.trades(params["LAWD_CD"], params["DEAL_YMD"])])


def apt_rent(world: World, params: dict[str, Any]) -> Result:
    trades: Trades = world.part("trades")
    return Result(rows=[dict(r) for r in trades.rents(params["LAWD_CD"], params["DEAL_YMD"])])


def offi_trade(world: World, params: dict[str, Any]) -> Result:
    officetels: Officetels = world.part("officetels")
    return Result(rows=[dict(r) for r in officetels.trades(params["LAWD_CD"], params["DEAL_YMD"])])


def offi_rent(world: World, params: dict[str, Any]) -> Result:
    officetels: Officetels = world.part("officetels")
    return Result(rows=[dict(r) for r in officetels.rents(params["LAWD_CD"], params["DEAL_YMD"])])


TRADE_FIELDS = {
    "aptDong": "아파트 동 (building number; blank ' ' if unknown)",
    "aptNm": "단지명 (apartment complex name)",
    "aptSeq": "단지 일련번호 '{시군구}-{n}' (complex id)",
    "bonbun": "지번 본번 4자리 (lot main number)",
    "bubun": "지번 부번 4자리 (lot sub number)",
    "buildYear": "건축년도 (year built)",
    "buyerGbn": "매수자 구분 개인/법인 (buyer type)",
    "cdealDay": "해제사유 발생일 YY.MM.DD (cancellation date)",
    "cdealType": "해제여부 'O' (cancelled flag)",
    "dealAmount": "거래금액 만원, 쉼표 포함 문자열 (price in 10,000 KRW, comma-grouped text)",
    "dealDay": "계약일 (day, not zero-padded)",
    "dealMonth": "계약월 (month, not zero-padded)",
    "dealYear": "계약년도 (year)",
    "dealingGbn": "거래유형 중개거래/직거래 (deal type)",
    "estateAgentSggNm": "중개사 소재지 (broker's district)",
    "excluUseAr": "전용면적 ㎡ (exclusive area)",
    "floor": "층 (floor)",
    "jibun": "지번 (lot number)",
    "landCd": "법정동 지번코드 (land code)",
    "landLeaseholdGbn": "토지임대부 여부 Y/N (land-lease flag)",
    "rgstDate": "등기일자 YY.MM.DD (registration date)",
    "roadNm": "도로명 (road name)",
    "roadNmBonbun": "도로명 건물 본번 5자리 (building main number)",
    "roadNmBubun": "도로명 건물 부번 5자리 (building sub number)",
    "roadNmCd": "도로명코드 7자리 (road code)",
    "roadNmSeq": "도로명 일련번호 (road serial)",
    "roadNmSggCd": "도로명 시군구코드 (road district code)",
    "roadNmbCd": "지상지하 구분 0/1 (above/under ground)",
    "sggCd": "법정동 시군구코드 (district code = LAWD_CD)",
    "slerGbn": "매도자 구분 개인/법인 (seller type)",
    "umdCd": "법정동 읍면동코드 5자리 (법정동 code digits 6-10)",
    "umdNm": "법정동명 (legal-dong name)",
}

RENT_FIELDS = {
    "aptNm": "단지명 (apartment complex name)",
    "aptSeq": "단지 일련번호 (complex id)",
    "buildYear": "건축년도 (year built)",
    "contractTerm": "계약기간 YY.MM~YY.MM (lease term)",
    "contractType": "계약구분 신규/갱신 (new/renewal)",
    "dealDay": "계약일 (day)",
    "dealMonth": "계약월 (month)",
    "dealYear": "계약년도 (year)",
    "deposit": "보증금 만원, 쉼표 포함 (deposit in 10,000 KRW)",
    "excluUseAr": "전용면적 ㎡ (exclusive area)",
    "floor": "층 (floor)",
    "jibun": "지번 (lot number)",
    "monthlyRent": "월세 만원, 0이면 전세 (monthly rent in 10,000 KRW; 0 = jeonse)",
    "preDeposit": "종전 보증금 (previous deposit)",
    "preMonthlyRent": "종전 월세 (previous monthly rent)",
    "roadnm": "도로명 (road name; lower-case tag)",
    "roadnmbcd": "지상지하 구분 (above/under ground)",
    "roadnmbonbun": "도로명 건물 본번 (building main number)",
    "roadnmbubun": "도로명 건물 부번 (building sub number)",
    "roadnmcd": "도로명코드 (road code)",
    "roadnmseq": "도로명 일련번호 (road serial)",
    "roadnmsggcd": "도로명 시군구코드 (road district code)",
    "sggCd": "시군구코드 (district code)",
    "umdNm": "법정동명 (legal-dong name)",
    "useRRRight": "계약갱신요구권 사용 여부 (renewal right used)",
}

_OFFI_COMMON = {
    "buildYear": "건축년도 (year built)",
    "dealDay": "계약일 (day, not zero-padded)",
    "dealMonth": "계약월 (month, not zero-padded)",
    "dealYear": "계약년도 (year)",
    "excluUseAr": "전용면적 ㎡ (exclusive area)",
    "floor": "층 (floor)",
    "jibun": "지번 (lot number)",
    "offiNm": "단지명 (officetel building name)",
    "sggCd": "시군구코드 (district code = LAWD_CD)",
    "sggNm": "시군구명 (district name)",
    "umdNm": "법정동명 (legal-dong name)",
}

OFFI_TRADE_FIELDS = {
    **_OFFI_COMMON,
    "buyerGbn": "매수자 구분 개인/법인 (buyer type)",
    "cdealDay": "해제사유 발생일 YY.MM.DD (cancellation date)",
    "cdealType": "해제여부 'O' (cancelled flag)",
    "dealAmount": "거래금액 만원, 쉼표 포함 문자열 (price in 10,000 KRW, comma-grouped text)",
    "dealingGbn": "거래유형 중개거래/직거래 (deal type)",
    "estateAgentSggNm": "중개사 소재지 (broker's district)",
    "slerGbn": "매도자 구분 개인/법인 (seller type)",
}

OFFI_RENT_FIELDS = {
    **_OFFI_COMMON,
    "contractTerm": "계약기간 YY.MM~YY.MM (lease term)",
    "contractType": "계약구분 신규/갱신 (new/renewal)",
    "deposit": "보증금 만원, 쉼표 포함 (deposit in 10,000 KRW)",
    "monthlyRent": "월세 만원, 0이면 전세 (monthly rent in 10,000 KRW; 0 = jeonse)",
    "preDeposit": "종전 보증금 (previous deposit)",
    "preMonthlyRent": "종전 월세 (previous monthly rent)",
    "useRRRight": "계약갱신요구권 사용 여부 (renewal right used)",
}

_TRADE_SUMMARY = (
    "시군구코드(LAWD_CD 5자리)와 계약년월(DEAL_YMD)로 아파트 매매 실거래 신고 내역을 조회합니다. 금액 단위 만원. "
    "(Apartment sale transactions reported in a district for a month; prices in 10,000 KRW.)"
)

PLATFORM = Platform(
    id="molit",
    name="국토교통부 부동산 실거래가 (MOLIT real-estate transaction prices)",
    domain="district",
    live_base_url="http://apis.data.go.kr",
    envelope=ENVELOPE,
    description="아파트·오피스텔 매매·전월세 실거래 신고 자료 (apartment and officetel sale and lease transactions)",
)


def _rtms_operation(
    service: str,
    summary: str,
    handler: Handler,
    output_fields: dict[str, str],
    uncertain: str | None = None,
) -> Operation:
    """One RTMS monthly-report service: every one takes LAWD_CD + DEAL_YMD at
    ``/1613000/<service>/get<service>`` and differs only in what its rows hold."""
    return Operation(
        platform="molit",
        name=f"get{service}",
        path=f"/1613000/{service}/get{service}",
        summary=summary,
        params=list(_COMMON_PARAMS),
        handler=handler,
        output_fields=output_fields,
        uncertain=uncertain,
        tags=("real-estate",),
    )


# PublicDataReader's column lists are the only source for the officetel items.
_OFFI_UNCERTAIN = (
    "the item's tag set is the column list PublicDataReader reads; no recorded officetel response"
)

OPERATIONS = [
    _rtms_operation("RTMSDataSvcAptTrade", _TRADE_SUMMARY, apt_trade, TRADE_FIELDS),
    _rtms_operation(
        "RTMSDataSvcAptTradeDev",
        _TRADE_SUMMARY.replace("조회합니다.", "조회합니다(상세 Dev 경로).").replace(
            "(Apartment", "(Detailed 'Dev' path of the same service: apartment"
        ),
        apt_trade,
        TRADE_FIELDS,
        uncertain="clients alternate between the Dev and plain paths; both serve the same rows here",
    ),
    _rtms_operation(
        "RTMSDataSvcAptRent",
        "시군구코드(LAWD_CD)와 계약년월(DEAL_YMD)로 아파트 전월세 신고 내역을 조회합니다. 월세 0은 전세. "
        "(Apartment jeonse/monthly-rent contracts in a district for a month; monthlyRent 0 means jeonse.)",
        apt_rent,
        RENT_FIELDS,
    ),
    _rtms_operation(
        "RTMSDataSvcOffiTrade",
        "시군구코드(LAWD_CD 5자리)와 계약년월(DEAL_YMD)로 오피스텔 매매 실거래 신고 내역을 조회합니다. 금액 단위 만원. "
        "(Officetel sale transactions reported in a district for a month; prices in 10,000 KRW.)",
        offi_trade,
        OFFI_TRADE_FIELDS,
        uncertain=_OFFI_UNCERTAIN,
    ),
    _rtms_operation(
        "RTMSDataSvcOffiRent",
        "시군구코드(LAWD_CD)와 계약년월(DEAL_YMD)로 오피스텔 전월세 신고 내역을 조회합니다. 월세 0은 전세. "
        "(Officetel jeonse/monthly-rent contracts in a district for a month; monthlyRent 0 means jeonse.)",
        offi_rent,
        OFFI_RENT_FIELDS,
        uncertain=_OFFI_UNCERTAIN,
    ),
]
