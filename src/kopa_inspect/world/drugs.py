"""Over-the-counter medicines for 식약처 e약은요 (DrbEasyDrugInfoService, reference §2.11).

Real, common OTC product names and their real makers (타이레놀정500밀리그람, 게보린정, 판콜에이내복액 ...);
the texts are written per therapeutic class in e약은요's own style (HTML ``<p>`` fragments, plain
patient language) and are plausible, not copied labels. UNCERTAIN / synthetic: ``itemSeq``
(9 digits, first four = year of approval, as real ones read) and the dates. ``bizrno`` is the
maker's 사업자등록번호 from the businesses part, so MFDS -> NTS chains work.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from kopa_inspect.world import World, world_part
from kopa_inspect.world.businesses import build_businesses

# itemName | entpName | class | approval year
_DRUGS = """
타이레놀정500밀리그람(아세트아미노펜)|한국존슨앤드존슨판매(유)|antipyretic|1983
타이레놀8시간이알서방정(아세트아미노펜)|한국존슨앤드존슨판매(유)|antipyretic|1999
어린이타이레놀현탁액(아세트아미노펜)|한국존슨앤드존슨판매(유)|antipyretic_child|1996
게보린정|삼진제약(주)|headache|1979
펜잘큐정|(주)종근당|headache|2002
부루펜정200밀리그램(이부프로펜)|삼일제약(주)|nsaid|1984
이지엔6애니연질캡슐(이부프로펜)|(주)대웅제약|nsaid|2008
탁센연질캡슐(나프록센)|(주)녹십자|nsaid|2011
판콜에이내복액|동화약품(주)|cold_liquid|1991
판피린티정|동아제약(주)|cold|2004
판피린큐액|동아제약(주)|cold_liquid|2005
베아제정|(주)대웅제약|digestion|1995
훼스탈플러스정|(주)한독|digestion|1989
까스활명수큐액|동화약품(주)|digestion_liquid|1992
겔포스엠현탁액|보령(주)|antacid|1988
개비스콘더블액션현탁액|(유)옥시레킷벤키저|antacid|2013
스멕타현탁액(디오스멕타이트)|(주)대웅제약|antidiarrheal|2010
둘코락스에스장용정|사노피-아벤티스코리아(주)|laxative|1997
마데카솔케어연고|동국제약(주)|wound|2004
복합마데카솔연고|동국제약(주)|wound|1991
후시딘연고(퓨시드산나트륨)|동화약품(주)|antibiotic_ointment|1980
지르텍정(세티리진염산염)|한국유씨비제약(주)|allergy|1993
우루사정100밀리그램(우르소데옥시콜산)|(주)대웅제약|liver|1977
인사돌플러스정|동국제약(주)|gum|2013
이가탄에프캡슐|명인제약(주)|gum|2006
센시아정|동국제약(주)|vein|2015
아로나민골드정|일동제약(주)|vitamin|1988
비맥스메타정|(주)녹십자|vitamin|2014
임팩타민프리미엄정|(주)대웅제약|vitamin|2012
케토톱플라스타(케토프로펜)|(주)한독|patch|1994
신신파스아렉스|신신제약(주)|patch|2000
안티푸라민연고|(주)유한양행|patch_ointment|1975
쌍화탕|광동제약(주)|herbal_cold|1990
"""

# class -> (효능, 사용법, 경고, 주의사항, 상호작용, 부작용); None = not given (JSON null).
_TEXT: dict[str, tuple[str, str, str | None, str, str | None, str]] = {
    "antipyretic": (
        "이 약은 감기로 인한 발열 및 동통(통증), 두통, 신경통, 근육통, 월경통, 염좌통(삔 통증), 치통, 관절통, 류마티양 동통(통증)에 사용합니다.",
        "만 12세 이상 소아 및 성인은 1회 1~2정씩 1일 3~4회(4~6시간 마다) 필요시 복용합니다. 1일 최대 4그램(8정)을 초과하여 복용하지 마십시오.",
        "매일 세 잔 이상 정기적으로 술을 마시는 사람이 이 약이나 다른 해열진통제를 복용해야 할 경우 반드시 의사 또는 약사와 상의하십시오. 간손상이 유발될 수 있습니다.",
        "이 약에 과민증 환자, 소화성궤양 환자, 심한 혈액 이상 환자, 심한 간장애 환자, 심한 신장(콩팥) 장애 환자는 이 약을 복용하지 마십시오.",
        "아세트아미노펜을 함유한 다른 해열진통제, 감기약과 함께 복용하지 마십시오.",
        "쇼크 증상(호흡곤란, 온몸이 붉어짐, 혈관부기, 두드러기 등), 발진, 가려움, 구역, 구토, 식욕부진이 나타나는 경우 복용을 즉각 중지하고 의사 또는 약사와 상의하십시오.",
    ),
    "antipyretic_child": (
        "이 약은 감기로 인한 발열 및 동통(통증), 두통, 치통, 귀의 통증, 인후통에 사용합니다.",
        "용기를 잘 흔든 후 동봉된 계량컵으로 연령(체중)에 맞추어 1회 정해진 양을 4~6시간 마다 필요시 복용합니다. 1일 5회를 넘지 마십시오.",
        None,
        "3개월 미만의 영아는 의사의 진료를 받으십시오. 정해진 용량을 초과하여 복용하지 마십시오.",
        "아세트아미노펜을 함유한 다른 의약품과 함께 복용하지 마십시오.",
        "발진, 가려움, 구역, 구토가 나타나는 경우 복용을 즉각 중지하고 의사 또는 약사와 상의하십시오.",
    ),
    "headache": (
        "이 약은 두통, 치통, 발치(이를 뽑음)후 통증, 인후(목구멍)통, 귀의 통증, 관절통, 신경통, 요통(허리통증), 근육통, 월경통, 오한(춥고 떨리는 증상) 및 발열 시의 해열에 사용합니다.",
        "성인은 1회 1정, 1일 3회까지 공복을 피하여 복용하며, 복용간격은 4시간 이상으로 합니다.",
        "매일 세 잔 이상 정기적으로 술을 마시는 사람이 이 약이나 다른 해열진통제를 복용해야 할 경우 반드시 의사 또는 약사와 상의하십시오.",
        "15세 미만의 소아, 이 약에 과민증 환자는 이 약을 복용하지 마십시오. 장기간 계속 복용하지 마십시오.",
        "다른 해열진통제, 감기약, 진정제와 함께 복용하지 마십시오.",
        "발진, 발적, 가려움, 구역, 구토, 식욕부진, 위부불쾌감이 나타날 수 있습니다.",
    ),
    "nsaid": (
        "이 약은 두통, 치통, 생리통, 근육통, 관절통, 요통(허리통증), 신경통 및 감기로 인한 발열과 통증의 완화에 사용합니다.",
        "성인은 1회 1캡슐(정), 1일 3회까지 필요시 식후에 복용합니다. 복용간격은 4시간 이상으로 합니다.",
        "매일 세 잔 이상 정기적으로 술을 마시는 사람은 위장 출혈이 유발될 수 있으므로 의사 또는 약사와 상의하십시오.",
        "위궤양 환자, 심한 심장·간·신장 장애 환자, 임신 말기의 여성, 아스피린 천식 환자는 이 약을 복용하지 마십시오.",
        "다른 비스테로이드성 소염진통제, 와파린 등 항응고제와 함께 복용하지 마십시오.",
        "속쓰림, 구역, 구토, 복통, 발진, 어지러움이 나타날 수 있습니다.",
    ),
    "cold": (
        "이 약은 감기의 여러 증상(콧물, 코막힘, 재채기, 인후(목구멍)통, 기침, 가래, 오한(춥고 떨리는 증상), 발열, 두통, 관절통, 근육통)의 완화에 사용합니다.",
        "만 15세 이상 및 성인은 1회 2정, 1일 3회 식후 30분에 복용합니다.",
        "매일 세 잔 이상 정기적으로 술을 마시는 사람은 이 약을 복용하기 전에 의사 또는 약사와 상의하십시오.",
        "이 약을 복용한 후 졸음이 올 수 있으므로 운전이나 기계 조작을 하지 마십시오.",
        "다른 감기약, 해열진통제, 진해거담제, 항히스타민제와 함께 복용하지 마십시오.",
        "졸음, 입마름, 발진, 구역, 변비가 나타날 수 있습니다.",
    ),
    "cold_liquid": (
        "이 약은 감기의 여러 증상(콧물, 코막힘, 재채기, 인후통, 기침, 가래, 오한, 발열, 두통, 관절통, 근육통)의 완화에 사용합니다.",
        "만 15세 이상 및 성인은 1회 1병(20mL), 1일 3회 식후 30분에 복용하며, 복용간격은 4시간 이상으로 합니다.",
        None,
        "이 약을 복용한 후 졸음이 올 수 있으므로 운전이나 기계 조작을 하지 마십시오. 카페인이 함유되어 있습니다.",
        "다른 감기약, 해열진통제와 함께 복용하지 마십시오.",
        "졸음, 두근거림, 발진, 구역이 나타날 수 있습니다.",
    ),
    "herbal_cold": (
        "이 약은 피로회복, 감기 초기의 오한, 발열, 전신권태에 사용합니다.",
        "성인은 1회 1병(100mL)을 1일 2~3회 식전 또는 식간에 복용합니다.",
        None,
        "임부, 고령자, 위장이 약한 사람은 복용 전 의사 또는 약사와 상의하십시오.",
        None,
        "식욕부진, 위부불쾌감, 설사가 나타날 수 있습니다.",
    ),
    "digestion": (
        "이 약은 소화불량, 식욕감퇴(식욕부진), 과식, 체함, 소화촉진, 소화불량으로 인한 위부팽만감에 사용합니다.",
        "성인은 1회 1~2정, 1일 3회 식후에 복용합니다.",
        None,
        "이 약에 과민증 환자, 급성 췌장염 환자는 이 약을 복용하지 마십시오.",
        None,
        "설사, 변비, 복부팽만, 발진이 나타날 수 있습니다.",
    ),
    "digestion_liquid": (
        "이 약은 식욕감퇴(식욕부진), 위부팽만감, 소화불량, 과식, 체함, 구역, 구토에 사용합니다.",
        "성인은 1회 1병(75mL)을 1일 3회 식후에 복용합니다. 복용간격은 4시간 이상으로 합니다.",
        None,
        "3개월 미만의 영아는 복용하지 마십시오. 정해진 용법과 용량을 잘 지키십시오.",
        None,
        "드물게 발진, 가려움이 나타날 수 있습니다.",
    ),
    "antacid": (
        "이 약은 위산과다, 속쓰림, 위부불쾌감, 위부팽만감, 체함, 구역, 구토, 위통, 신트림에 사용합니다.",
        "성인은 1회 1포씩 1일 3회 식간(식사와 식사 사이) 및 취침시에 복용합니다.",
        None,
        "투석요법을 받고 있는 사람, 신장(콩팥) 장애 환자는 이 약을 복용하기 전에 의사 또는 약사와 상의하십시오.",
        "테트라사이클린계 항생제, 철분제와 함께 복용하는 경우 2시간 이상 간격을 두십시오.",
        "변비, 설사가 나타날 수 있습니다.",
    ),
    "antidiarrheal": (
        "이 약은 성인 및 소아의 급·만성 설사에 사용합니다.",
        "성인은 1회 1포, 1일 3회 복용합니다. 소아는 연령에 맞게 감량합니다.",
        None,
        "다른 약과 함께 복용하는 경우 1~2시간 간격을 두십시오.",
        "다른 약물의 흡수를 방해할 수 있습니다.",
        "변비가 나타날 수 있습니다.",
    ),
    "laxative": (
        "이 약은 변비, 수술 전후 또는 검사 전 장관 내용물의 제거에 사용합니다.",
        "성인은 1회 2~4정을 1일 1회 취침 전에 복용합니다. 씹거나 부수지 말고 그대로 삼킵니다.",
        None,
        "급성 복부 질환, 장폐색 환자는 이 약을 복용하지 마십시오. 장기간 연용하지 마십시오.",
        "제산제, 우유와 함께 복용하는 경우 1시간 이상 간격을 두십시오.",
        "복통, 설사, 구역이 나타날 수 있습니다.",
    ),
    "wound": (
        "이 약은 상처, 화상, 궤양 등의 피부 손상 및 이차 감염의 치료에 사용합니다.",
        "1일 1~2회 적당량을 환부에 바릅니다.",
        None,
        "눈 주위에는 사용하지 마십시오. 장기간 넓은 범위에 사용하지 마십시오.",
        None,
        "발진, 발적, 가려움, 자극감이 나타날 수 있습니다.",
    ),
    "antibiotic_ointment": (
        "이 약은 포도구균, 연쇄구균 등에 의한 피부 감염증(농가진, 모낭염, 감염성 습진 등)에 사용합니다.",
        "1일 2~3회 환부에 적당량을 바릅니다.",
        None,
        "이 약에 과민증 환자는 사용하지 마십시오. 장기간 사용하지 마십시오.",
        None,
        "국소 자극, 가려움, 발진이 나타날 수 있습니다.",
    ),
    "allergy": (
        "이 약은 알레르기성 비염, 두드러기, 피부 가려움증의 완화에 사용합니다.",
        "성인 및 만 12세 이상은 1회 1정, 1일 1회 복용합니다.",
        None,
        "이 약을 복용한 후 졸음이 올 수 있으므로 운전이나 기계 조작에 주의하십시오.",
        "진정제, 술과 함께 복용하면 졸음이 심해질 수 있습니다.",
        "졸음, 피로, 입마름, 두통이 나타날 수 있습니다.",
    ),
    "liver": (
        "이 약은 만성 간질환의 간기능 개선, 소화불량, 식욕부진, 피로에 사용합니다.",
        "성인은 1회 1정, 1일 3회 복용합니다.",
        None,
        "완전 담도폐쇄 환자, 급성 췌장염 환자는 이 약을 복용하지 마십시오.",
        "콜레스티라민, 제산제와 함께 복용하지 마십시오.",
        "설사, 변비, 가려움이 나타날 수 있습니다.",
    ),
    "gum": (
        "이 약은 치주질환(잇몸염, 치주염)의 보조치료에 사용합니다.",
        "성인은 1회 1~2정(캡슐), 1일 2~3회 복용합니다.",
        None,
        "3개월 이상 복용하여도 증상의 개선이 없을 경우 치과의사와 상의하십시오.",
        None,
        "구역, 위부불쾌감, 발진이 나타날 수 있습니다.",
    ),
    "vein": (
        "이 약은 정맥림프 기능부전(다리의 무거움, 부종, 통증)의 증상 완화에 사용합니다.",
        "성인은 1회 1정, 1일 2회 식사와 함께 복용합니다.",
        None,
        "임부 또는 임신하고 있을 가능성이 있는 여성은 복용 전 의사와 상의하십시오.",
        None,
        "위장장애, 두통이 나타날 수 있습니다.",
    ),
    "vitamin": (
        "이 약은 육체피로, 눈의 피로, 신경통, 근육통, 관절통의 완화와 비타민 B군의 보급에 사용합니다.",
        "만 15세 이상 및 성인은 1회 1정, 1일 1회 식후에 복용합니다.",
        None,
        "1개월 정도 복용하여도 증상의 개선이 없을 경우 복용을 중지하고 의사 또는 약사와 상의하십시오.",
        None,
        "소변이 노랗게 변할 수 있으며, 구역, 설사가 나타날 수 있습니다.",
    ),
    "patch": (
        "이 약은 요통, 근육통, 관절통, 타박상, 염좌(삠)의 진통·소염에 사용합니다.",
        "1일 1~2회 환부에 붙입니다.",
        "이 약을 붙인 부위를 자외선에 노출하지 마십시오. 광과민 반응이 나타날 수 있습니다.",
        "상처, 습진이 있는 부위에는 사용하지 마십시오.",
        None,
        "발진, 가려움, 발적, 자극감이 나타날 수 있습니다.",
    ),
    "patch_ointment": (
        "이 약은 근육통, 관절통, 타박상, 삠, 벌레 물린 데의 완화에 사용합니다.",
        "1일 수회 적당량을 환부에 바릅니다.",
        None,
        "눈 및 점막 주위에는 사용하지 마십시오.",
        None,
        "발진, 발적, 자극감이 나타날 수 있습니다.",
    ),
}
_DEPOSIT = {
    "liquid": "실온에서 보관하십시오. 어린이의 손이 닿지 않는 곳에 보관하십시오.",
    "solid": "습기와 빛을 피해 실온에서 보관하십시오. 어린이의 손이 닿지 않는 곳에 보관하십시오.",
}


@dataclass(frozen=True)
class Drug:
    itemSeq: str
    itemName: str
    entpName: str
    efcy: str
    useMethod: str
    atpnWarn: str | None
    atpn: str
    intrc: str | None
    se: str
    deposit: str
    openDe: str
    updateDe: str
    itemImage: str | None
    bizrno: str | None


def _p(text: str | None) -> str | None:
    return None if text is None else f"<p>{text}</p>"


@dataclass
class DrugData:
    drugs: list[Drug]
    by_seq: dict[str, Drug]


@world_part("drugs")
def build_drugs(world: World) -> DrugData:
    # Built directly, not through world.part(): World.part holds a non-reentrant lock while a
    # part is built, so a part must not ask for another part. Same seed, same clock, same data.
    biz = build_businesses(world)
    by_name = biz.by_name
    drugs: list[Drug] = []
    for line in _DRUGS.strip().splitlines():
        name, entp, cls, year = line.split("|")
        # itemSeq is a static fact about a product: derived from its name, not the seed.
        h = int.from_bytes(hashlib.blake2b(name.encode(), digest_size=4).digest(), "big")
        seq = f"{year}{h % 100000:05d}"
        efcy, use, warn, atpn, intrc, se = _TEXT[cls]
        liquid = any(k in name for k in ("액", "현탁", "탕", "시럽"))
        rng = world.rng("mfds", name)
        open_year = rng.randint(2019, 2024)
        open_de = f"{open_year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} 00:00:00"
        upd = f"{rng.randint(open_year, 2025)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
        image = (
            f"https://nedrug.mfds.go.kr/pbp/cmn/itemImageDownload/{rng.randint(10**17, 10**18 - 1)}"
            if rng.random() < 0.7
            else None
        )
        company = by_name.get(entp)
        drugs.append(
            Drug(
                seq,
                name,
                entp,
                _p(efcy) or "",
                _p(use) or "",
                _p(warn),
                _p(atpn) or "",
                _p(intrc),
                _p(se) or "",
                _p(_DEPOSIT["liquid" if liquid else "solid"]) or "",
                open_de,
                max(upd, open_de[:10].replace("-", "")),
                image,
                company.b_no if company else None,
            )
        )
    drugs.sort(key=lambda d: d.itemSeq)
    return DrugData(drugs, {d.itemSeq: d for d in drugs})
