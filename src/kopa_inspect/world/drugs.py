"""Over-the-counter medicines for 식약처 e약은요 (DrbEasyDrugInfoService, reference §2.11).

Real, common OTC product names and their real makers (타이레놀정500밀리그람, 게보린정, 판콜에이내복액 ...);
the texts are written per therapeutic class in e약은요's own style (HTML ``<p>`` fragments, plain
patient language) and are plausible, not copied labels. UNCERTAIN / synthetic: ``itemSeq``
(9 digits, first four = year of approval, as real ones read) and the dates. ``bizrno`` is the
maker's 사업자등록번호 from the businesses part, so MFDS -> NTS chains work.

The products are package data (``data/drugs.csv``), and so are the texts of each class
(``data/drug_texts.json``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from kopa_inspect.world import World, world_part
from kopa_inspect.world.businesses import build_businesses
from kopa_inspect.world.tables import read_json, read_table, record_fields

DrugText = tuple[str, str, str | None, str, str | None, str]
TEXTS_FILE = "drug_texts.json"
_TEXT_KEYS = ("class", "efcy", "use_method", "atpn_warn", "atpn", "intrc", "se")


def _texts() -> dict[str, DrugText]:
    """class -> (효능, 사용법, 경고, 주의사항, 상호작용, 부작용); None = not given (JSON null)."""
    texts: dict[str, DrugText] = {}
    for i, record in enumerate(read_json(TEXTS_FILE)):
        cls, efcy, use, warn, atpn, intrc, se = record_fields(TEXTS_FILE, i, record, _TEXT_KEYS)
        texts[cls] = (efcy, use, warn, atpn, intrc, se)
    return texts


_TEXT = _texts()
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
    for row in read_table("drugs.csv"):
        name, entp, cls, year = row["item_name"], row["company"], row["class"], row["approval_year"]
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
