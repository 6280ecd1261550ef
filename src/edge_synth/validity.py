"""Is the question one a person could ask (issue 10, validity before style)?

Three faults the fluency checks (natural.py) do not see, because each reads as grammatical Korean:

- ``named_pick_after_chain``: a row picked by its NAME from a list the chain found by a search around
  another row's place or point ("… 아파트 매매 거래 중 '장항두산위브3차'와 같은 동네의 병원 중
  '365장항재활의학과의원'의 개설일자"). A person who knows that hospital asks about it directly; one
  who does not cannot name it. Rows of a start call (a list the user asked for with words they
  know: their district's apartments, sights) and rows that belong to a named row ("'부산대학교병원'의
  진료과목 중 '외과'", "'서울혜화초등학교'의 학사일정 중 '부처님오신날'") may be named. A searched list's
  row is picked by a stated criterion (the largest/smallest of a measure), counted, or not asked.
- ``named_from_unnarrowed_list``: a row picked by its NAME from one page of a longer list of records
  (trades: ``record_list``; totalCount > rows shown) that the user did not narrow: no place, date/month or name filter of theirs and no row of
  the chain it belongs to ("단독다가구 부동산 거래 중 '온누리아파트'와 같은 시군구의 …": the first page of
  all of Seoul's trades; edge-s0-0004798 of a 2,000-row default run). The user could only know that name because
  the sampler saw it on page 1. The same list narrowed by the user's 시군구 and month, or returned whole,
  may be named.
- ``partial_pick``: "가장 … 병원" over one page of a longer list (the result's totalCount is larger
  than the rows fetched): the largest of the first 100 of 80,000 hospitals is nobody's question.
- ``unrelated_asks``: two or more asks in one query that share no subject (no row named in one is
  named or referred back to in the other, and they are not the same question about two rows):
  "도시 'A'와 'B' 중 정류장이 더 많은 쪽은 …? 그리고 '수원시'의 정류장 중 '광교중앙역'의 번호는?".

``pick_problems`` reads a draft and its facts; the sampler avoids such plans (sample.py) and the
pipeline drops a composed row that still has one, by that name.
"""

from __future__ import annotations

import re
from typing import Any

from edge_synth.describe import row_label
from edge_synth.fields import PLUMBING_PARAMS, concept
from edge_synth.lexicon import USER_NOUNS
from edge_synth.natural import PLACE_ROWS, true_count

# A link through one of these hands on a place or a point: the consumer's rows are what a search
# around that place found ("같은 동네의 병원", "'X' 근처 관광지"), rows nobody knows by name beforehand.
SEARCH_CONCEPTS = frozenset(
    {"lon", "lat", "sidonm", "sido2", "sggnm", "sgg3", "lawd5", "umdnm", "code10", "areacode"}
)
# A literal argument with one of these concepts narrows a list to the user's own (a place, a date/month);
# so does a name filter (a parameter named ...nm/name/keyword/title: "이름에 '…'이 들어간").
NARROWING_CONCEPTS = SEARCH_CONCEPTS | {"date8", "ym6", "year4", "month2"}
_NAME_PARAM = re.compile(r"(nm|name|keyword|word|title)$", re.IGNORECASE)
_ROW_REF = re.compile(r"^\$s\d")
# Lists of records (events), not of things: a trade's row is named by the building it concerns, and no
# one knows which trades are on page 1 of all of Seoul's. A registry of things (hospitals, sights, listed
# companies) is left out on purpose: "병원 중 '삼성서울병원'" names a thing a person knows by itself (the
# broad rule, any unnarrowed page, would touch 695 of the 2,000 rows of a default run; see
# results/edge-default/README.md).
RECORD_NOUNS = frozenset({"거래"})


def record_list(tool: str) -> bool:
    """Are ``tool``'s rows records of events (lexicon.USER_NOUNS' head noun: "거래") rather than things?"""
    nouns = USER_NOUNS.get(tool)
    return nouns is not None and nouns[-1] in RECORD_NOUNS


# Junctions that take a producer row by its name (several rows) rather than by a measure.
NAMED_TAKERS = ("SEQ", "SEM", "FAN", "CMP", "COND")


def incoming(draft: Any, sid: str) -> Any:
    return next((j for j in draft.junctions if sid in j.consumers), None)


def link_fields(draft: Any, j: Any, sid: str) -> list[str]:
    """Every producer field the links from ``j.producer`` into ``sid`` carry (a 시도 code with a 시군구 code)."""
    out = []
    for v in draft.step(sid).args.values():
        if isinstance(v, str) and v.startswith(f"${j.producer}."):
            m = re.search(r"\.([A-Za-z_][\w]*)(\[\d*:\d*\])?$", v)
            if m:
                out.append(m.group(1))
    return out


def users_place(draft: Any, sid: str) -> bool:
    """Is step ``sid`` a place looked up by the words the user says ("창천동", "서울특별시 종로구 세종로"): a
    place table (natural.PLACE_ROWS) called first, with literal arguments only? Its rows are the user's
    own place, so a list found around it is the user's own search, like a start call's list."""
    step = draft.step(sid)
    return (
        step.tool in PLACE_ROWS
        and incoming(draft, sid) is None
        and not any(isinstance(v, str) and v.startswith("$") for v in step.args.values())
    )


def found_by_search(draft: Any, sid: str) -> bool:
    """Were step ``sid``'s rows found by a search around another result row's place or point (not the
    user's own place: ``users_place``)? Any of the link's fields counts, whatever the argument order."""
    j = incoming(draft, sid)
    if j is None or j.type == "COND" or users_place(draft, j.producer):
        return False
    prod_tool = draft.step(j.producer).tool
    return any((concept(f, prod_tool) or "") in SEARCH_CONCEPTS for f in link_fields(draft, j, sid))


def partial(output: dict[str, Any]) -> bool:
    """One page of a longer list: the result says it has more rows than were fetched."""
    n = true_count(output)
    return n is not None and n > len(output.get("items", []))


def narrowed(draft: Any, sid: str) -> bool:
    """Did the user narrow step ``sid``'s list: a literal place, date/month or name filter of theirs, or a
    reference to a row of the chain (the list belongs to that row: "'…병원'의 진료과목")?"""
    step = draft.step(sid)
    for k, v in step.args.items():
        if isinstance(v, str) and _ROW_REF.match(v):
            return True
        if k.lower() in PLUMBING_PARAMS:
            continue
        if (concept(k, step.tool) or "") in NARROWING_CONCEPTS or _NAME_PARAM.search(k):
            return True
    return False


def unnarrowed_page(draft: Any, sid: str, outputs: dict[str, Any] | None = None) -> bool:
    """Is step ``sid``'s result one page of a longer list of records (several rows; ``record_list``) the
    user did not narrow? Its rows cannot be named (``named_from_unnarrowed_list``)."""
    out = (outputs if outputs is not None else draft.outputs)[sid]
    return (
        record_list(draft.step(sid).tool)
        and len(out.get("items", [])) > 1
        and partial(out)
        and not narrowed(draft, sid)
    )


def _named_takes(draft: Any, j: Any) -> bool:
    """Does junction ``j`` take its producer's row(s) by name (several rows to choose from, a label)?"""
    items = draft.outputs[j.producer]["items"]
    if j.type not in NAMED_TAKERS or len(items) <= 1:
        return False
    idxs = j.detail.get("items") if j.type in ("FAN", "CMP") else [j.detail.get("item", 0)]
    tool = draft.step(j.producer).tool
    return any(i < len(items) and row_label(tool, items[i], items) is not None for i in idxs or [])


def pick_problems(
    draft: Any, facts: list[dict[str, Any]], outputs: dict[str, Any] | None = None
) -> list[str]:
    """``named_pick_after_chain`` / ``named_from_unnarrowed_list`` / ``partial_pick`` for the draft's junctions and facts (empty: none)."""
    outputs = outputs if outputs is not None else draft.outputs
    out: list[str] = []
    for j in draft.junctions:
        if _named_takes(draft, j) and found_by_search(draft, j.producer):
            out.append("named_pick_after_chain")
        if _named_takes(draft, j) and unnarrowed_page(draft, j.producer, outputs):
            out.append("named_from_unnarrowed_list")
        if j.type == "DRV" and "reduce" in j.detail and partial(outputs[j.producer]):
            out.append("partial_pick")
    for f in facts:
        sid, reason = f.get("step"), f.get("row_reason")
        if sid is None or sid not in outputs:
            continue
        many = len(outputs[sid].get("items", [])) > 1
        if reason == "named" and many and found_by_search(draft, sid):
            out.append("named_pick_after_chain")
        if reason == "named" and unnarrowed_page(draft, sid, outputs):
            out.append("named_from_unnarrowed_list")
        if reason in ("max", "min") and partial(outputs[sid]):
            out.append("partial_pick")
    return list(dict.fromkeys(out))


_NAME = re.compile(r"'[^']*'")
_BACK = re.compile(r"(?:^|\s)그 ")


def _bare(text: str) -> str:
    return re.sub(r"\([^)]*\)", "", _NAME.sub("'N'", text)).strip()


def unrelated_asks(lead: list[str], asks: list[tuple[str, str, str]]) -> bool:
    """Do the asks (whose, what, question word) share no subject? An ask after the first (or after a
    condition sentence) must name a row said before, refer back ("그 병원"), or be the same question
    about another row ("'A'의 주소는 … 'B'의 주소는"); otherwise it is another question glued on."""
    said = set(_NAME.findall(" ".join(lead)))
    prev: list[str] = [" ".join(lead)] if lead else []
    asked: set[tuple[str, str]] = set()  # (what, question word) asked before
    for whose, what, q in asks:
        text = f"{whose} {what}".strip()
        names = set(_NAME.findall(text))
        if prev:
            # the same question of another row counts ("'A'의 '현충일'의 날짜 … '온천고등학교'의 '체육대회'의
            # 날짜"); a pick over the rows of a list said before names its row
            related = (
                bool(names & said)
                or bool(_BACK.search(text))
                or (what, q) in asked
                or any(_bare(text) == _bare(p) for p in prev)
            )
            if not related:
                return True
        said |= names
        prev.append(text)
        if whose:
            asked.add((what, q))
    return False
