"""Registered businesses for the 국세청 사업자등록 상태조회 (the provider's published API guide).

Every 사업자등록번호 carries the real check digit (weights 1,3,7,1,3,7,1,3,5; the ninth digit's
×5 carry added; check = (10 - sum % 10) % 10), a plausible 세무서 prefix and the real meaning of
the middle two digits (01-79 individual, 81/86/87/88 corporation head office, 85 branch, 82
non-profit, 90-99 tax-exempt individual). The pharmaceutical companies that MFDS names
(``entpName``) are here too, so MFDS ``bizrno`` -> NTS ``b_no`` chains meet a real record.
Closures (폐업) and suspensions (휴업) are dated before the world's clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from kopa_inspect.world import World, world_part
from kopa_inspect.world.tables import read_table

WEIGHTS = (1, 3, 7, 1, 3, 7, 1, 3, 5)


def check_digit(first9: str) -> int:
    digits = [int(c) for c in first9]
    total = sum(d * w for d, w in zip(digits, WEIGHTS, strict=True)) + (digits[8] * 5) // 10
    return (10 - total % 10) % 10


def is_valid_bno(b_no: str) -> bool:
    """The checksum test every Korean invoicing client runs on a 사업자등록번호."""
    return len(b_no) == 10 and b_no.isdigit() and check_digit(b_no[:9]) == int(b_no[9])


def make_bno(office: int, kind: int, serial: int) -> str:
    first9 = f"{office:03d}{kind:02d}{serial:04d}"
    return first9 + str(check_digit(first9))


STATUS = {"01": "계속사업자", "02": "휴업자", "03": "폐업자"}
# UNCERTAIN beyond 01/02 (reference §2.13: from memory).
TAX_TYPES = {
    "01": "부가가치세 일반과세자",
    "02": "부가가치세 간이과세자",
    "03": "부가가치세 과세특례자",
    "04": "부가가치세 면세사업자",
    "05": "수익사업을 영위하지 않는 비영리법인이거나 고유번호가 부여된 단체,국가기관 등",
    "06": "고유번호가 부여된 단체",
    "07": "부가가치세 간이과세자(세금계산서 발급사업자)",
}
NOT_REGISTERED = "국세청에 등록되지 않은 사업자등록번호입니다."


@dataclass(frozen=True)
class Business:
    b_no: str
    b_nm: str  # 상호
    p_nm: str  # 대표자 성명
    start_dt: str  # 개업일자 YYYYMMDD
    corp_no: str  # 법인등록번호 13자리 ("" for individuals)
    b_sector: str  # 업태
    b_type: str  # 종목
    b_adr: str
    b_stt_cd: str
    tax_type_cd: str
    end_dt: str = ""
    utcc_yn: str = "N"
    tax_type_change_dt: str = ""
    invoice_apply_dt: str = ""
    rbf_tax_type_cd: str = ""


# Pharmaceutical companies (MFDS entpName spelling) with their head-office addresses.
PHARMA: tuple[tuple[str, str], ...] = tuple(
    (row["name"], row["address"]) for row in read_table("pharma_companies.csv")
)

_SURNAMES = "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용"
_GIVEN = (
    "민준",
    "서연",
    "도윤",
    "지우",
    "하준",
    "서윤",
    "시우",
    "지민",
    "주원",
    "수아",
    "현우",
    "예은",
    "지호",
    "하은",
    "준서",
    "민서",
    "영수",
    "영희",
    "정훈",
    "미경",
    "성민",
    "은정",
    "상철",
    "혜진",
    "동현",
    "수진",
)
# (업태, 종목, name word) of shops and (업태, 종목) of corporations, data/business_kinds.csv.
_KINDS = read_table("business_kinds.csv")
_SHOPS = tuple((row["sector"], row["type"], row["name_word"]) for row in _KINDS if row["owner"] == "shop")
_CORP_SECTORS = tuple((row["sector"], row["type"]) for row in _KINDS if row["owner"] == "corp")
_NAME_PARTS = (
    "한빛",
    "새봄",
    "다온",
    "온누리",
    "푸른솔",
    "해오름",
    "미래",
    "동방",
    "대한",
    "한결",
    "나래",
    "초록",
)
_CITIES = (
    "서울특별시 마포구 양화로",
    "서울특별시 강남구 테헤란로",
    "부산광역시 해운대구 센텀중앙로",
    "대구광역시 중구 동성로",
    "경기도 성남시 분당구 판교역로",
    "인천광역시 연수구 송도과학로",
    "제주특별자치도 제주시 중앙로",
    "대전광역시 유성구 대학로",
)
# 세무서 codes (the first three digits of a 사업자등록번호), data/tax_offices.csv.
_OFFICES = tuple(int(row["code"]) for row in read_table("tax_offices.csv"))


@dataclass
class BusinessData:
    businesses: list[Business]
    by_bno: dict[str, Business]
    by_name: dict[str, Business]


@world_part("businesses")
def build_businesses(world: World) -> BusinessData:
    today = world.clock.date()
    out: list[Business] = []
    used: set[str] = set()

    def unique_bno(rng, kind: int) -> str:
        while True:
            b = make_bno(rng.choice(_OFFICES), kind, rng.randint(1, 9999))
            if b not in used:
                used.add(b)
                return b

    def person(rng) -> str:
        return rng.choice(_SURNAMES) + rng.choice(_GIVEN)

    def date_before(rng, lo_days: int, hi_days: int) -> str:
        return f"{today - timedelta(days=rng.randint(lo_days, hi_days)):%Y%m%d}"

    for name, addr in PHARMA:
        rng = world.rng("nts.pharma", name)
        kind = rng.choice((81, 86, 87, 88))
        out.append(
            Business(
                unique_bno(rng, kind),
                name,
                person(rng),
                date_before(rng, 365 * 20, 365 * 60),
                f"{rng.randint(110111, 285011)}{rng.randint(0, 9999999):07d}",
                "제조업",
                "의약품 제조업",
                addr,
                "01",
                "01",
                invoice_apply_dt="",
            )
        )

    rng = world.rng("nts.synthetic")
    for _ in range(400):
        corp = rng.random() < 0.3
        if corp:
            kind = rng.choice((81, 86, 87, 88))
            sector, btype = rng.choice(_CORP_SECTORS)
            b_nm = f"{rng.choice(('(주)', '주식회사 '))}{rng.choice(_NAME_PARTS)}{rng.choice(('테크', '산업', '물산', '건설', '바이오', '로지스'))}"
            tax = "01"
            corp_no = f"{rng.randint(110111, 285011)}{rng.randint(0, 9999999):07d}"
        else:
            sector, btype, suffix = rng.choice(_SHOPS)
            exempt = btype in ("일반 교습 학원",)
            kind = rng.randint(90, 99) if exempt else rng.randint(1, 79)
            b_nm = f"{rng.choice(_NAME_PARTS)}{suffix}"
            tax = "04" if exempt else rng.choice(("01", "01", "02", "07"))
            corp_no = ""
        b_no = unique_bno(rng, kind)
        start = date_before(rng, 200, 365 * 25)
        roll = rng.random()
        stt, end_dt = "01", ""
        if roll < 0.12:
            stt, end_dt = "03", date_before(rng, 1, 365 * 3)
            end_dt = max(end_dt, start)
        elif roll < 0.17:
            stt = "02"
        change_dt = rbf = ""
        if tax in ("01", "07") and not corp and rng.random() < 0.2:
            change_dt = date_before(rng, 30, 365 * 5)
            rbf = "02"
        out.append(
            Business(
                b_no,
                b_nm,
                person(rng),
                start,
                corp_no,
                sector,
                btype,
                f"{rng.choice(_CITIES)} {rng.randint(1, 300)}",
                stt,
                tax,
                end_dt=end_dt,
                tax_type_change_dt=change_dt,
                rbf_tax_type_cd=rbf,
                invoice_apply_dt=change_dt if tax == "07" else "",
            )
        )
    return BusinessData(out, {b.b_no: b for b in out}, {b.b_nm: b for b in out})
