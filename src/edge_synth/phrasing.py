"""How a draft's rows, links and measures are said: the words the fact builder
(``edge_synth.facts``), the query writer (``edge_synth.query_text``) and the answer writer
(``edge_synth.answer_text``) share, so a row is named, a pick worded and a link told the same way in
a fact's description, the question and the answer.
"""

from __future__ import annotations

import re
from typing import Any

from edge_synth.describe import row_label
from edge_synth.draft import COUNT, Draft, numeric
from edge_synth.fields import concept, field_format, is_plumbing
from edge_synth.korean import gwa, i_ga, ordinal
from edge_synth.lexicon import field_label
from edge_synth.natural import PLACE_ROWS
from edge_synth.validity import incoming
from edge_synth.values import is_clock_kind, later_phrase
from kopa_inspect.apis import get_operation

DATE8 = re.compile(r"^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$")


def cmp_phrase(op_id: str, fname: str, value: Any) -> str:
    """What "wins" a comparison on ``fname``: "토요일 진료가 더 늦게 끝나는" for a clock value (the
    larger HHMM is the later time), "거래금액이 더 큰" for a figure."""
    label = field_label(op_id, fname)
    if is_clock_kind(op_id, fname, value):
        return later_phrase(label)
    if counted(label):
        return f"{i_ga(label)} 더 많은"
    return f"{i_ga(label)} 더 높은" if _LEVEL.search(label) else f"{i_ga(label)} 더 큰"


# A level (a concentration, an index, a temperature, a floor): high or low, not large or small.
_LEVEL = re.compile(r"(?:농도|지수|기온|온도|습도|확률|금리|비율|층)$")


def counted(label: str) -> bool:
    """A count ("의사 수", "주차 가능 대수", "병상 수"): a person says more/most of it, not larger."""
    return (label.endswith("수") and not label.endswith("지수")) or label.split()[-1:] == ["인원"]


def most(op_id: str, fname: str | None, how: str, items: list[dict[str, Any]]) -> str:
    """ "가장 큰"/"가장 작은", or for a clock measure "가장 늦은"/"가장 이른" (a time is not large)."""
    clock = bool(fname and any(is_clock_kind(op_id, fname, it.get(fname)) for it in items[:1]))
    if clock:
        return "가장 늦은" if how in ("max", "max_by") else "가장 이른"
    if fname and counted(field_label(op_id, fname)):
        return "가장 많은" if how in ("max", "max_by") else "가장 적은"
    if fname and _LEVEL.search(field_label(op_id, fname)):
        return "가장 높은" if how in ("max", "max_by") else "가장 낮은"
    return "가장 큰" if how in ("max", "max_by") else "가장 작은"


def literal_args(step: Any) -> list[tuple[str, Any]]:
    """The arguments a step passes as literals (not references, not plumbing, not tokens)."""
    op = get_operation(step.tool)
    out = []
    for k, v in step.args.items():
        if isinstance(v, str) and v.startswith("$"):
            continue
        p = op.param(k)
        if p is not None and is_plumbing(p):
            continue
        out.append((k, v))
    return out


def producer_row_name(draft: Draft, producer: str, j: int, value_field: str | None) -> str:
    """How the query names row ``j`` of a producer: its name, else its position."""
    items = draft.outputs[producer]["items"]
    lab = row_label(draft.step(producer).tool, items[j], items) if j < len(items) else None
    if lab:
        return f"'{lab[1]}'"
    return f"{ordinal(j + 1)} 항목"


# A link's field concept -> the place two rows share when the link hands it on ("같은 시군구의").
_PLACE_OF = {
    "sidonm": "시도",
    "sido2": "시도",
    "sggnm": "시군구",
    "lawd5": "시군구",
    "umdnm": "동네",
    "code10": "법정동",
    "areacode": "지역",
}


def fact_label(op_id: str, fname: str) -> str:
    """What the question asks for: a field's label, or "건수" for a count of rows."""
    return "건수" if fname == COUNT else field_label(op_id, fname)


def asked_label(draft: Draft, f: dict[str, Any]) -> str:
    """What a fact asks for, as the question and the answer say it: a forecast's "12시 기온", else
    the field's word."""
    return f.get("said_as") or fact_label(draft.step(f["step"]).tool, f["field"])


def _consumer_ref(draft: Draft, j: Any, sid: str) -> tuple[str, str]:
    """The producer field the link into ``sid`` carries, and the slice it takes of it (``[0:5]``,
    or "")."""
    for v in draft.step(sid).args.values():
        if isinstance(v, str) and v.startswith(f"${j.producer}."):
            m = re.search(r"\.([A-Za-z_][\w]*)(\[\d*:\d*\])?$", v)
            if m:
                return m.group(1), m.group(2) or ""
    return "", ""


# A 10-digit 법정동 code cut to its head names a larger place: its first 5 digits are the 시군구
# (molit's LAWD_CD), its first 2 the 시도.
_CODE10_CUT = {"[0:5]": "시군구", "[:5]": "시군구", "[0:2]": "시도", "[:2]": "시도"}


_SIDO_NAME = re.compile(r"(?:도|특별시|광역시|특별자치시|특별자치도)$")


def _names_the_place(who: str, place: str) -> bool:
    """Whether a quoted row name is itself the place of that level: a 시군구 ("'서울특별시 종로구'", "'수원시'")
    or a 시도 ("'부산광역시'"); a 동 or a building is not ("'서울특별시 종로구 통인동'", "'중구문화원'")."""
    words = who.strip("'").split()
    if not words:
        return False
    if place == "시군구":
        return bool(re.search(r"[가-힣](?:구|군|시)$", words[-1])) and all(
            _SIDO_NAME.search(w) or re.search(r"시$", w) for w in words[:-1]
        )
    if place == "시도":
        return len(words) == 1 and bool(_SIDO_NAME.search(words[0]))
    return False


def join_words(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def relation(draft: Draft, j: Any, sid: str, clock_vals: dict[str, str], who: str | None = None) -> str:
    """How the consumer relates to the row it came from: near it, in the same place, or its own.
    ``who=""`` gives the relation without the row ("같은 시군구의", "근처", "")."""
    who = who or ""
    prod_tool = draft.step(j.producer).tool
    fname, cut = _consumer_ref(draft, j, sid)
    c = concept(fname, prod_tool) or ""
    desc = get_operation(prod_tool).output_fields.get(fname, "")
    if field_format(fname, desc, prod_tool) == "date8" or re.search(
        r"시작일|일자|날짜|locdate", fname + desc
    ):
        # A user's own date handed on (a festival's start, a holiday). A month of it is the month
        # the row falls in ("'원주 벚꽃축제'가 열리는 달의 국경일"), else its day.
        monthly = any(
            "month" in k.lower()
            for k, v in draft.step(sid).args.items()
            if isinstance(v, str) and v.startswith(f"${j.producer}.")
        )
        if monthly:
            verb = "열리는" if prod_tool == "tourapi_searchFestival2" else "있는"
            return f"{i_ga(who)} {verb} 달의" if who else "그 달의"
        if prod_tool.startswith("kasi_") and draft.step(sid).tool == "tourapi_searchFestival2":
            # a holiday is a day the user names: festivals from it ("'어린이날'부터 열리는 축제")
            return f"{who}부터 열리는" if who else "그 날부터 열리는"
        return f"{who}의 날짜에 맞춘".strip() if who else "그 날짜에 맞춘"  # natural.date_hops drops it
    if c in ("lon", "lat"):
        return f"{who} 근처".strip()
    if c in _PLACE_OF:
        place = _CODE10_CUT.get(cut, _PLACE_OF[c]) if c == "code10" else _PLACE_OF[c]
        if who and prod_tool in PLACE_ROWS and _names_the_place(who, place):
            return f"{who}의"  # the row is that place: "'서울특별시 종로구'의", not "…와 같은 시군구의"
        return f"{gwa(who)} 같은 {place}의" if who else f"같은 {place}의"
    return f"{who}의" if who else ""


PLACE_FILTER = re.compile(r"(?:읍면동|법정동|자치구|시군구|시도|소재지)명$")


def list_owner(draft: Draft, sid: str, outputs: dict[str, Any]) -> str | None:
    """The named row a step's call was made for ("'서울대학교병원'"), if the query named one."""
    j = incoming(draft, sid)
    if j is None:
        return None
    items = outputs[j.producer]["items"]
    if j.type == "DRV":
        if "reduce" not in j.detail:
            return None
        vals = [numeric(it.get(j.detail["by"])) for it in items]
        pick = max if j.detail["reduce"] == "max_by" else min
        best = pick(v for v in vals if v is not None)
        row = items[vals.index(best)]
        lab = row_label(draft.step(j.producer).tool, row, items)
        return f"'{lab[1]}'" if lab else None
    idx = j.detail["items"][j.consumers.index(sid)] if j.type in ("FAN", "CMP") else j.detail.get("item", 0)
    lab = row_label(draft.step(j.producer).tool, items[idx], items) if idx < len(items) else None
    return f"'{lab[1]}'" if lab else None
