"""Korean laws for the law.go.kr DRF emulator (static data, independent of the seed).

Real: the law names and their kinds (법률 / 대통령령 / 부령), the ministries in charge, the
shape of the identifiers (법령ID 6 digits, 법령일련번호 MST 6 digits, 공포번호) and the way articles
are numbered and titled. The 법령ID values of 민법 001706, 형법 001692 and 근로기준법 001872 are
believed real; every other ID, every MST, 공포일자/공포번호/시행일자 and all article texts are
SYNTHETIC: the texts paraphrase the gist of well-known articles and MUST NOT be cited as law.

The laws are package data: ``data/laws.json`` (laws with their articles) and
``data/laws_index.csv`` (laws a name search finds, without articles).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kopa_inspect.world.tables import read_json, read_table, record_fields

# (조문번호, 가지번호 "" or "2", 조문제목, 조문 본문 (without paragraphs) or "", [항 ...])
Article = tuple[str, str, str, str, tuple[str, ...]]


@dataclass(frozen=True)
class Law:
    law_id: str  # 법령ID
    mst: str  # 법령일련번호
    name: str  # 법령명한글
    abbrev: str  # 법령약칭명
    hanja: str
    kind: str  # 법령구분명
    kind_code: str  # 법종구분코드
    ministry: str  # 소관부처명
    ministry_code: str  # 소관부처코드
    promulgated: str  # 공포일자
    promulgation_no: str  # 공포번호
    amendment: str  # 제개정구분명
    effective: str  # 시행일자
    articles: tuple[Article, ...]


LAWS_FILE = "laws.json"
_LAW_KEYS = (
    "law_id",
    "mst",
    "name",
    "abbrev",
    "hanja",
    "kind",
    "kind_code",
    "ministry",
    "ministry_code",
    "promulgated",
    "promulgation_no",
    "amendment",
    "effective",
    "articles",
)
_ARTICLE_KEYS = ("no", "branch", "title", "body", "paragraphs")


def _article(index: int, record: Any) -> Article:
    no, branch, title, body, paragraphs = record_fields(LAWS_FILE, index, record, _ARTICLE_KEYS)
    return (no, branch, title, body, tuple(paragraphs))


def _law(index: int, record: Any) -> Law:
    fields = record_fields(LAWS_FILE, index, record, _LAW_KEYS)
    fields[-1] = tuple(_article(index, a) for a in fields[-1])
    return Law(*fields)


def _index_law(i: int, row: dict[str, str]) -> Law:
    # Identifiers and dates of an index-only law follow its row number (SYNTHETIC).
    return Law(
        law_id=f"{20101 + 7 * i:06d}",
        mst=f"{270011 + 13 * i:06d}",
        name=row["name"],
        abbrev="",
        hanja="",
        kind=row["kind"],
        kind_code=row["kind_code"],
        ministry=row["ministry"],
        ministry_code=row["ministry_code"],
        promulgated=f"2024{1 + i % 12:02d}{10 + i % 18:02d}",
        promulgation_no=f"{30100 + 37 * i:05d}",
        amendment="일부개정",
        effective=f"2025{1 + i % 12:02d}01",
        articles=(),
    )


# The laws with article texts (data/laws.json), then the index-only neighbours a name search also
# finds (data/laws_index.csv).
LAWS: tuple[Law, ...] = (
    *(_law(i, record) for i, record in enumerate(read_json(LAWS_FILE))),
    *(_index_law(i, row) for i, row in enumerate(read_table("laws_index.csv"))),
)

BY_ID: dict[str, Law] = {law.law_id: law for law in LAWS}
BY_MST: dict[str, Law] = {law.mst: law for law in LAWS}
assert len(BY_ID) == len(BY_MST) == len({law.name for law in LAWS}) == len(LAWS), (
    "law ids, MSTs and names are unique"
)


def norm(text: str) -> str:
    """law.go.kr name search ignores spaces and the middle dot (개인정보보호법 finds 개인정보 보호법)."""
    return text.replace(" ", "").replace("ㆍ", "").replace("·", "").lower()


def article_text(law: Law, art: Article) -> str:
    num, branch, title, body, _ = art
    label = f"제{num}조" + (f"의{branch}" if branch else "")
    return f"{label}({title}) {body}".rstrip()


def article_key(art: Article) -> str:
    """DRF 조문키 / JO form: 4-digit article + 2-digit branch (001002 = 제10조의2)."""
    return f"{int(art[0]):04d}{int(art[1] or 0):02d}"
