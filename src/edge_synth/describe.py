"""Korean names for what a query talks about: an operation's result, an output field, a parameter,
a row. Read from the specs' Korean descriptions ("시군구코드(LAWD_CD)와 계약년월(DEAL_YMD)로 아파트
전월세 신고 내역을 조회합니다" -> "아파트 전월세 신고 내역"), without raw parameter names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, TypeGuard

from edge_synth.askable import name_field, word
from edge_synth.fields import concept, is_name_like, norm
from kopa_inspect.apis import get_operation

_ASCII_TOKEN = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_FORMAT_TOKEN = re.compile(r"\b(?:[YMDHhms]{4,}|YYYY|HHMM|HH\d*|MM|DD)\b")


def _ko(text: str) -> str:
    """The Korean head of a 'Korean (English gloss)' description."""
    head = re.split(r"\s*[(\[]", text, maxsplit=1)[0].strip()
    return head or text


def _clean(text: str) -> str:
    text = _FORMAT_TOKEN.sub("", text)
    text = re.sub(r"\s*[:：=|~].*$", "", text)
    text = re.sub(r"\s+(?:또는|및|등|예)$", "", text.strip())
    text = re.sub(r"\s{2,}", " ", text).strip(" ,.;-")
    return text


@lru_cache(maxsize=4096)
def op_noun(op_id: str) -> str:
    """What a call returns, as a noun phrase ("아파트 매매 실거래가", "급식식단정보")."""
    summary = get_operation(op_id).summary
    m = re.search(r"(?:으로|로)\s+([^.。(]+?)(?:을|를)\s*(?:조회|검색|반환|제공|찾)", summary)
    noun = _clean(m.group(1)) if m else _clean(re.split(r"[:;.。]", _ko(summary), maxsplit=1)[0])
    # "…을 조회합니다" as a whole sentence: the object is the noun.
    noun = re.sub(r"\s*(?:을|를)\s*(?:조회|검색|반환|제공)(?:합니다|한다)?$", "", noun)
    noun = re.sub(r"\s*(?:조회|검색)(?:합니다)?$", "", noun).strip()
    if noun.count(",") >= 2:  # "회사의 정식명칭, 대표자, 법인구분, …": name the first and say the rest exist
        noun = noun.split(",")[0].strip() + " 등 정보"
    noun = _ASCII_TOKEN.sub("", noun).strip() if re.search(r"[가-힣]", noun) else noun
    noun = re.sub(r"\s{2,}", " ", noun).strip(" ,")
    return noun or "정보"


@lru_cache(maxsize=16384)
def field_label(op_id: str, fname: str) -> str:
    """An output field's Korean label ("거래금액", "측정소 이름"); never a raw field name. A field of
    the askable table (askable.ASKABLE) is called by the person's word for it ("의사 수", not
    "의사 총수"), in the question, the answer and the row picks alike."""
    if said := word(op_id, fname):
        return said
    desc = get_operation(op_id).output_fields.get(fname, "")
    label = _clean(re.split(r"[,;:(]", desc, maxsplit=1)[0]) if desc else ""
    label = re.sub(r"\s*\bWGS84\b", "", label).strip()  # "경도 WGS84": nobody says the datum
    # "요청 좌표로부터 거리 m" -> "거리", "미세먼지 PM10 농도 ㎍/㎥" -> "미세먼지 PM10 농도": the frame of
    # the request and a trailing unit are not part of what a person calls the field.
    label = re.sub(r"^(?:요청|중심)\s*좌표로부터\s*", "", label)
    label = re.sub(r"\s+[A-Z]\s+[가-힣].*$", "", label)  # "법인구분 Y 유가증권 K 코스닥 …": the code list
    label = re.sub(r"\s*\d[가-힣]+(?:/\d[가-힣]+)+.*$", "", label)  # "등급 1좋음/2보통/3나쁨…": the values
    label = re.sub(r"\s+(?:m|km|㎍/㎥|ppm|㎡|%)$", "", label).strip()
    if not label or not re.search(r"[가-힣]", label):
        label = _GENERIC.get(norm(fname), "")
    return label or "해당 항목"


def param_label(op_id: str, pname: str) -> str:
    """A parameter's Korean label ("계약년월", "측정소 이름")."""
    p = get_operation(op_id).param(pname)
    desc = p.description if p is not None else ""
    label = _clean(re.split(r"[,;:(]", desc, maxsplit=1)[0]) if desc else ""
    label = _ASCII_TOKEN.sub("", label).strip() if re.search(r"[가-힣]", label) else ""
    label = re.sub(r"\s*\d+(?:/\d+)+", "", label)  # "발표시각 0200/0500/…": the allowed values, not a name
    label = re.sub(r"\s*값$", "", re.sub(r"\s{2,}", " ", label)).strip(" ,")
    label = re.sub(r"\s*또는 그 일부$", "", label)  # "회사명 또는 그 일부": the matching rule
    return label or _GENERIC.get(norm(pname), "조건")


_GENERIC = {
    "nx": "격자 X 좌표", "ny": "격자 Y 좌표", "basedate": "발표일자", "basetime": "발표시각", "lawdcd": "지역코드",
    "dealymd": "계약년월", "stationname": "측정소 이름", "sidoname": "시도 이름", "corpcode": "고유번호",
    "bsnsyear": "사업연도", "solyear": "연도", "solmonth": "월",
}


def row_label(op_id: str, row: dict[str, Any], items: list[dict[str, Any]] | None = None) -> tuple[str, str] | None:
    """(field, value) that names ``row`` for a person, or None.

    A name-like field whose value tells this row apart from the others in ``items`` (a school's
    name, not its education office's, which fifty schools share); among several, the one with the
    most distinct values across the rows. An operation of the askable table names its rows by its
    declared name field only (askable.name_field: the station, not the 권역 it belongs to; the
    daycare, not its address): a row whose name another row shares has no name a person can say."""
    fields = get_operation(op_id).output_fields
    own = name_field(op_id)
    if own is not None:
        v = row.get(own)
        if not _sayable(v) or (items and sum(str(it.get(own, "")).strip() == v.strip() for it in items) != 1):
            return None
        return own, v.strip()
    cands = list(dict.fromkeys([f for f in fields if is_name_like(f, fields.get(f, ""))] +
                               [f for f in row if is_name_like(f)]))
    rows = items or [row]

    scored = []
    for pos, f in enumerate(cands):
        v = row.get(f)
        if not _sayable(v):
            continue
        same = sum(1 for it in rows if str(it.get(f, "")).strip() == v.strip())
        if same != 1 and len(rows) > 1:
            continue  # does not single the row out
        distinct = len({str(it.get(f, "")).strip() for it in rows})
        # Among equals, a place at a coarser level names the row last: a one-row result with
        # 시도, 시군구 and 읍면동 is the 읍면동 ("'서울특별시'의 시군구 이름은 성북구" named nothing).
        coarse = _REGION_LEVEL.get(concept(f, op_id) or "", 0)
        scored.append((coarse, -distinct, pos, f, v.strip()))
    if not scored:
        return None
    _, _, _, f, v = min(scored)
    return f, v


def _sayable(v: Any) -> TypeGuard[str]:
    # A masked name ("강*은", privacy masking of an owner) names nobody a person could say.
    return isinstance(v, str) and bool(v.strip()) and not v.strip().isdigit() and len(v) <= 40 and "*" not in v


_REGION_LEVEL = {"sidonm": 3, "sggnm": 2, "umdnm": 1}
