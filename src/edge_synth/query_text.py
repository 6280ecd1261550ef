"""The query a person would ask for a composed row, written by a small Korean grammar.

ONE question about what they want ("서울특별시 노원구(11350) 지난달(2026년 11월) 아파트 매매 거래 중
'중계하늘채'와 같은 동네의 병원 중 의사 총수가 가장 큰 병원의 주소는 어떻게 되나요?"): the
intermediate calls are described as things, named with the lexicon's user nouns (never the specs'
operation names), with every value the user must give stated; a COND adds one sentence that
states a condition from conditions.CONDITIONS. ``query_and_problems`` also says why a question is
not one a person asks (validity.py). korean.py picks the particles by 받침.
"""

from __future__ import annotations

import re
from typing import Any

from edge_synth.clock import clock_values, is_clock_value
from edge_synth.conditions import lookup
from edge_synth.describe import row_label
from edge_synth.draft import COUNT, Draft, numeric
from edge_synth.fields import concept, param_format
from edge_synth.filter import time_ko
from edge_synth.korean import date_ko, eul, eun, final_sound, gwa, i_ga, ym_ko
from edge_synth.lexicon import field_label, param_label, region_names, row_word, user_noun
from edge_synth.natural import DETAIL_OF_ROW, PLACE_ROWS, branch_noun, counter, name_says_kind
from edge_synth.phrasing import (
    DATE8,
    PLACE_FILTER,
    asked_label,
    cmp_phrase,
    counted,
    join_words,
    literal_args,
    most,
    producer_row_name,
    relation,
)
from edge_synth.validity import incoming, pick_problems, unrelated_asks
from edge_synth.values import value_kind
from kopa_inspect.apis import get_operation

# --- the query ------------------------------------------------------------------------------------


def render_value(op_id: str, pname: str, value: Any, clock_vals: dict[str, str]) -> str:
    """A literal argument as a person says it: "지난달(2026년 11월)", "2026년 12월 3일", "해운대"."""
    p = get_operation(op_id).param(pname)
    fmt = param_format(p) if p is not None else None
    v = str(value)
    is_clock = is_clock_value(clock_vals, op_id, fmt, v)
    if fmt == "date8" and DATE8.match(v):
        if is_clock and v != clock_vals.get("date8"):
            # the previous day's issuance (초단기실황 at 00:20): the clock gives it, nobody says it
            return f"가장 최근 발표 일자({date_ko(v)})"
        return f"오늘({date_ko(v)})" if is_clock else date_ko(v)
    if fmt == "ym6" and re.fullmatch(r"(19|20)\d{2}(0[1-9]|1[0-2])", v):  # a 6-digit code is no year-month
        return f"지난달({ym_ko(v)})" if is_clock else ym_ko(v)
    if fmt == "year4" and re.fullmatch(r"\d{4}", v):
        return f"올해({v}년)" if is_clock else f"{v}년"
    if fmt == "time4" and re.fullmatch(r"\d{4}", v):
        return f"가장 최근 발표 시각({time_ko(v)})" if is_clock else time_ko(v)
    if fmt == "tm12" and is_clock:
        return f"가장 최근 발표({date_ko(v[:8])} {int(v[8:10])}시)"
    if p is not None and concept(pname, op_id) == "radius":
        return f"{v}미터"  # "2000m" would glue a letter to the number the filter looks for
    return v


_HOP_IN_HOP = re.compile(r"([이가]) 있는 (?:동네|시군구|법정동|시도)[이가] 있는 (시군구|법정동|동네|시도)")
_HOP_ON_HOP = re.compile(r"([이가]) 있는 (?:동네|시군구|법정동|시도)[와과] 같은 (시군구|법정동|동네|시도)의")


def _place_hop(rel: str) -> str:
    """A place looked up for a row, then the same place at another level, is one place: "'동아2'가 있는
    동네와 같은 시군구의" -> "'동아2'가 있는 시군구의" (two hops said as places read as stacked nouns)."""
    return _HOP_ON_HOP.sub(r"\1 있는 \2의", _HOP_IN_HOP.sub(r"\1 있는 \2", rel))


# --- the query: each thing said once, then referred back to ---------------------------------------
#
# Long chains used to read as stacked noun phrases: the chain before each asked row was said again
# for every ask ("오늘(2026년 12월 4일) 시간 평균 대기오염도 중 '도봉구'의 권역별 실시간 대기환경의
# 통합대기환경지수 그리고 오늘(2026년 12월 4일) 시간 평균 대기오염도 중 …"). A person says a list once and
# then points back into it: a row named once is later just its name, a list described once is "그
# 병원", a pick from the list just described needs no list ("초미세먼지 농도가 가장 낮은 구"), the
# date is said once ("오늘" after), a radius once ("반경 2km 안의", then "근처"), and a call that only
# gives more about one row (natural.DETAIL_OF_ROW) is left implicit ("'밝은병원'의 토요일 진료 종료").
# The questions are one or two short sentences ("A는 어디인가요? 그리고 B는 언제인가요?"), each asked
# with the word its field takes (question_word). Every literal argument is still said once
# (filter.argument_sources reads the whole query), so nothing the user must give is lost.


def radius_said(value: Any) -> str:
    """A search radius as a person says it: 2000 -> "2km", 1500 -> "1.5km", 500 -> "500미터"
    (filter.argument_sources reads "2km" back as 2000)."""
    n = numeric(value)
    if n is None:
        return f"{value}미터"
    if n >= 1000 and n % 100 == 0:
        return f"{n / 1000:g}km"
    return f"{int(n) if n == int(n) else n}미터"


def _place_said(step: Any) -> str | None:
    """The literal place names a place table was asked with ("서울특별시 종로구"), or None."""
    vals = [str(v) for _, v in literal_args(step)]
    if vals and all(re.fullmatch(r"[가-힣0-9 ]+", v) and re.search(r"[가-힣]", v) for v in vals):
        return " ".join(vals)
    return None


def _person_measure(label: str) -> str:
    """ "의사 수" -> "의사" (a person says "의사가 가장 많은", not "의사 수가 가장 많은")."""
    return label[:-2] if label.endswith(" 수") and counted(label) else label


def question_word(op_id: str, f: dict[str, Any], raw: Any) -> str:
    """What the question asks with for this fact: 언제 for a date or time, 어디 for an address, 얼마 for
    an amount or a figure, 몇 건/곳 for a count, 몇 번 for a phone number, else 어떻게 되 (a name, a state)."""
    if f.get("field") == COUNT:
        return f"모두 몇 {counter(op_id)}"
    if f.get("said_unit") == "도":
        return "몇 도"
    if f.get("said_as"):
        return "얼마"
    kind = value_kind(op_id, f["field"], raw)
    if kind in ("date", "timestamp", "month", "time"):
        return "언제"
    label = field_label(op_id, f["field"])
    if kind == "manwon" or re.search(r"금액|가격|보증금|월세", label):
        return "얼마"
    if re.search(r"주소|소재지|위치", label):
        return "어디"
    if "전화" in label:
        return "몇 번"
    if label == "층":
        return "몇 층"
    if numeric(raw) is not None:
        return "얼마"
    return "어떻게 되"


def _clause(topic: str, q: str, last: bool) -> str:
    """ "A는 얼마이고" (joined to the next) or "A는 얼마인가요?" (the last of its sentence)."""
    if q.endswith("되"):
        return f"{eun(topic)} {q}나요?" if last else f"{eun(topic)} {q}고"
    return f"{eun(topic)} {q}인가요?" if last else f"{eun(topic)} {q}이고"


# Filters that are the thing's own name ("회사명이 LG화학인 상장 회사" -> "'LG화학'이라는 상장 회사"), and kinds
# said before the noun as a person does ("설립명이 공립인 학교" -> "공립 학교").
_OWN_NAME = frozenset(
    {
        "회사명",
        "학교명",
        "기관명",
        "시설명",
        "제품명",
        "역명",
        "전철역명",
        "측정소명",
        "공연/행사명",
        "행사명",
        "업소명",
        "사업장명",
        "주차장명",
        "도서관명",
        "법률안명",
        "회의명",
        "청원명",
        "의원명",
    }
)
_KIND_BEFORE_NOUN = frozenset(
    {
        "설립명",
        "건물용도",
        "학교종류명",
        "학교과정명",
        "주야과정명",
        "호선명",
        "권역명",
        "소분류명",
        "서비스명",
    }
)


def _kind_and_noun(kind: str, noun: str) -> str:
    """A kind said before its noun, once: "초등학교" (not "초등학교 학교"), "공립 학교"."""
    return kind if kind.endswith(noun) else join_words(kind, noun)


def _filter_said(op_id: str, pname: str, said: str) -> str:
    """A filter the user gives, as a person says it: a place is where the things are ("남산동의 병원", not
    "읍면동명이 남산동인 병원"), a part of a name is what the name holds ("이름에 '열린병원'이 들어간 병원",
    not "기관명 일부가 열린병원인 병원"), the thing's own name is its name ("'LG화학'이라는 상장 회사"), a kind goes
    before the noun ("공립 학교"); any other filter keeps "<label>이 <value>인"."""
    label = param_label(op_id, pname)
    if PLACE_FILTER.search(label) or concept(pname, op_id) in ("sidonm", "sggnm", "umdnm"):
        return f"{said}의"
    quoted = f"'{said}'"
    if label.endswith("일부"):
        return f"이름에 {i_ga(quoted)} 들어간"
    if label in _OWN_NAME:
        return f"{quoted}{'이라는' if final_sound(said) else '라는'}"  # "'LG화학'이라는 상장 회사"
    if label in _KIND_BEFORE_NOUN:
        return said  # "공립 학교", "아파트 부동산 거래", "초등학교"
    if label.endswith("명") and len(label) > 1:
        return f"{i_ga(label[:-1])} {quoted}인"  # "업체가 '종근당'인 의약품", not "업체명이 종근당인"
    return f"{i_ga(label)} {said}인"


# Row words that say what the list is ("측정소" of 실시간 대기질, "음식점" of 모범음식점): a pick of such a list is
# said in its place ("'X'와 같은 시도에서 … 가장 높은 측정소"), not "… 같은 시도의 실시간 대기질 중 … 측정소".
_ROW_SAYS_KIND = frozenset(
    {"측정소", "음식점", "주차장", "화장실", "도서관", "대여소", "정류장", "학교", "어린이집", "병원"}
)


class _Writer:
    """Writes one query, remembering what it has said so that it can refer back to it."""

    def __init__(self, draft: Draft, clock_vals: dict[str, str]):
        self.d = draft
        self.cv = clock_vals
        self.back: dict[str, str] = {}  # step id -> how it is referred back to once said
        self.rows: set[tuple[str, int]] = set()  # (step, row) named already
        self.clock: set[str] = set()  # "오늘(2026년 12월 4일)" said already: later just "오늘"
        self.radius: set[str] = set()
        self.codes: set[str] = set()
        self.nouns: set[str] = set()  # operations whose result was named (one row's own lookup)
        self.where: dict[str, tuple[str, str]] = {}  # step -> (its relation to its row, its modifiers)
        self.listed: set[str] = set()  # operations a row was named in ("'A'의 학사일정 중 '현충일'")
        self.asked_pick: set[str] = (
            set()
        )  # steps whose picked row was asked ("… 가장 적은 병원은 어디"): "그 병원"
        self.cmps = 0

    # what a step returned ------------------------------------------------------------------------

    def mods(self, step: Any) -> str:
        """A step's literal arguments as modifiers ("오늘(2026년 12월 4일)", "서울특별시 노원구(11350)",
        "회사명이 삼성전자인"); what was said before is said short ("오늘", "노원구")."""
        parts = []
        for k, v in literal_args(step):
            p = get_operation(step.tool).param(k)
            if p is not None and p.default is not None and str(p.default) == str(v):
                continue  # the schema's default ("언어구분 kr"): nothing the user says
            c = concept(k, step.tool)
            if c == "radius":
                continue  # said with the place it is around (relation)
            said = render_value(step.tool, k, v, self.cv)
            if c == "lawd5" and str(v) in region_names():
                # the code only the query gives (a start call's LAWD_CD): said once as what it is, as
                # KOPA-Bench's "송파구(법정동 앞자리 11710)", never bare beside the name ("종로구(11110)")
                name = region_names()[str(v)]
                parts.append(name.split()[-1] if str(v) in self.codes else f"{name}(시군구코드 {v})")
                self.codes.add(str(v))
            elif said.startswith("가장 최근 발표"):
                continue  # KMA's latest issue time: the system turn's clock gives it, nobody says it
            elif said.startswith(("오늘(", "지난달(", "올해(")):
                parts.append(said.split("(", 1)[0] if said in self.clock else said)
                self.clock.add(said)
            elif said != str(v):
                parts.append(f"{said} 기준")
            else:
                parts.append(_filter_said(step.tool, k, said))
        return " ".join(parts)

    def _radius(self, step: Any) -> str | None:
        rad = next((v for k, v in literal_args(step) if concept(k, step.tool) == "radius"), None)
        if rad is None:
            return None
        said = radius_said(rad)
        if said in self.radius:
            return None  # "근처": the radius the query already stated
        self.radius.add(said)
        return said

    def np(self, sid: str) -> tuple[str, str]:
        """(what step ``sid`` returned as a noun phrase, the words put before one of its fields)."""
        if sid in self.back:
            t = self.back[sid]
            return t, f"{t}의"
        step = self.d.step(sid)
        j = incoming(self.d, sid)
        noun = user_noun(step.tool)
        one_row = len(self.d.outputs[sid]["items"]) == 1
        if j is None and step.tool in PLACE_ROWS and (names := _place_said(step)):
            # a place looked up by its name is that place: "홍은동과 같은 시군구의 어린이집"
            self.back[sid] = names
            return names, f"{names}의"
        if j is None:
            rad = self._radius(step)
            mods = self.mods(step)
            text = _kind_and_noun(join_words(mods, f"반경 {rad} 안의" if rad else ""), noun)
            self.where[sid] = ("", join_words(mods, "x" if rad else ""))
            self.back[sid] = f"그 {noun}"
            return text, f"{text}의"
        if j.type == "COND":
            if step.tool in DETAIL_OF_ROW and one_row:  # "그 병원의 토요일 진료 시작"
                who = f"그 {row_word(self.d.step(j.producer).tool)}"
                self.back[sid] = who
                return who, join_words(f"{who}의", DETAIL_OF_ROW[step.tool])
            self.back[sid] = f"그 {noun}"
            return f"그 {noun}", f"그 {noun}의"
        who = self.row(j, sid)
        rel = _place_hop(relation(self.d, j, sid, self.cv, who=who))
        if one_row and rel == f"{who}의" and step.tool in self.nouns:
            # the same lookup for another row: "'A'의 위원 직책명 … '남현우'의 사무실 호실" (said once)
            self.back[sid] = who
            return who, f"{who}의"
        self.nouns.add(step.tool)
        if step.tool in DETAIL_OF_ROW and one_row and rel == f"{who}의":
            # more about the row itself: "'밝은병원'의 토요일 진료 종료", never "…의 병원 상세 정보의 …"
            self.back[sid] = who
            return who, join_words(f"{who}의", DETAIL_OF_ROW[step.tool])
        if step.tool in PLACE_ROWS and rel.endswith("의") and rel != f"{who}의":
            # a place table looked up for a row's place: "'X'가 있는 동네", not "'X'와 같은 동네의 날씨 예보 지역"
            place = rel.rsplit(" ", 1)[-1][:-1]
            text = join_words(_place_hop(f"{i_ga(who)} 있는 {place}"), self.mods(step))
            self.back[sid] = f"그 {place}"
            return text, f"{text}의"
        if rel.endswith("근처") and (rad := self._radius(step)):
            rel = f"{who} 반경 {rad} 안의"
        mods = self.mods(step)
        text = _kind_and_noun(join_words(rel, mods), noun)
        self.where[sid] = (rel, mods)
        self.back[sid] = f"그 {noun}"
        return text, f"{text}의"

    def pick_np(self, sid: str, measure: str, how: str, said: tuple[bool, str] | None = None) -> str:
        """The row of step ``sid`` picked as the largest/smallest: "'X' 근처에서 의사가 가장 많은 병원"
        where the row word is the thing itself, else "<what it returned> 중 <pick>". ``said``: whether
        the step was said before this ask, and how this ask said it (when the caller already did)."""
        tool = self.d.step(sid).tool
        if said is None:
            said_before = sid in self.back
            text, _ = self.np(sid)
        else:
            said_before, text = said
        pick = self.pick(tool, measure, how, self.d.outputs[sid]["items"])
        rel, mods = self.where.get(sid, (None, None))
        if (
            not said_before
            and rel is not None
            and not mods
            and (user_noun(tool) == row_word(tool) or row_word(tool) in _ROW_SAYS_KIND)
        ):
            if not rel:
                return pick  # "의사가 가장 적은 병원"
            if rel.endswith("의"):
                return f"{rel[:-1]}에서 {pick}"  # "'X'와 같은 시군구에서", "'A'에서", "'X' 반경 2km 안에서"
            if rel.endswith("근처"):
                return f"{rel}에서 {pick}"
        return f"{text} 중 {pick}"

    def row(self, j: Any, sid: str) -> str:
        """The producer row a junction takes, by the criterion the user states, said once in full."""
        items = self.d.outputs[j.producer]["items"]
        prod_tool = self.d.step(j.producer).tool
        said_before = j.producer in self.back
        if j.type == "DRV" and "reduce" in j.detail:
            if j.producer in self.asked_pick:
                return f"그 {row_word(prod_tool)}"  # the pick was asked as a question of its own
            if said_before:
                return self.pick(
                    prod_tool, j.detail["by"], j.detail["reduce"], items
                )  # the list just described
            return self.pick_np(j.producer, j.detail["by"], j.detail["reduce"])
        idx = (
            j.detail["items"][j.consumers.index(sid)] if j.type in ("FAN", "CMP") else j.detail.get("item", 0)
        )
        lab = row_label(prod_tool, items[idx], items) if idx < len(items) else None
        if len(items) == 1 or lab is None:
            return self.np(j.producer)[0]
        return self.named(j.producer, idx, lab[1])

    def named(self, sid: str, idx: int, name: str) -> str:
        """A named row of step ``sid``: with its list the first time ("공공도서관 중 '청운효자동 도서관'"),
        then just the name; a lookup table's row is its name from the start ("'성남시'")."""
        said = f"'{name}'"
        if (sid, idx) in self.rows or sid in self.back:
            self.rows.add((sid, idx))
            return said
        step = self.d.step(sid)
        self.rows.add((sid, idx))
        if (
            (step.tool in PLACE_ROWS or name_says_kind(step.tool, name))
            and incoming(self.d, sid) is None
            and not literal_args(step)
        ):
            # a lookup table's row, or a row whose name says what it is ("'회기동 시장'", not "생필품 가격 중 …")
            self.back[sid] = f"그 {user_noun(step.tool)}"
            return said
        base, _ = self.np(sid)
        return f"{base} 중 {said}"

    def pick(self, tool: str, measure: str, how: str, items: list[dict[str, Any]]) -> str:
        """ "의사가 가장 많은 병원", "초미세먼지 농도가 가장 낮은 구"."""
        label = _person_measure(field_label(tool, measure))
        return f"{i_ga(label)} {most(tool, measure, how, items)} {row_word(tool)}"

    # the questions -------------------------------------------------------------------------------

    def cmp_ask(self, j: Any) -> tuple[str, str]:
        """(topic, question word) of a comparison: "'A'와 'B' 중 반경 2km 안에 관광지가 더 많은 쪽", "어디"."""
        names = [producer_row_name(self.d, j.producer, i, None) for i in j.detail["items"][:2]]
        prod = self.d.step(j.producer)
        if j.producer in self.back or (
            all(name_says_kind(prod.tool, n) for n in names)
            and incoming(self.d, j.producer) is None
            and not literal_args(prod)
        ):
            self.back.setdefault(j.producer, f"그 {user_noun(prod.tool)}")
            pair = f"{gwa(names[0])} {names[1]}"
        else:
            pair = f"{self.np(j.producer)[0]} {gwa(names[0])} {names[1]}"
        for i in j.detail["items"][:2]:
            self.rows.add((j.producer, i))
        cons = self.d.step(j.consumers[0])
        if j.detail["compare"] == COUNT:
            rel = relation(self.d, j, cons.id, self.cv, who="")
            if rel == "근처":
                rad = self._radius(cons)
                where = f"반경 {rad} 안에" if rad else "근처에"
            elif rel.endswith("의") and rel.startswith("같은"):
                where = rel[:-1] + "에"  # "같은 동네에"
            else:
                where = rel
            for s in j.consumers:
                self.back.setdefault(s, f"그 {user_noun(cons.tool)}")
            what = join_words(self.mods(cons), user_noun(cons.tool))
            return f"{pair} 중 {join_words(where, i_ga(what))} 더 많은 {self._side()}", "어디"
        first = self.d.outputs[cons.id]["items"][0].get(j.detail["compare"])
        phrase = cmp_phrase(cons.tool, j.detail["compare"], first)
        if cons.tool in DETAIL_OF_ROW:
            qual = DETAIL_OF_ROW[cons.tool]
        else:
            qual = join_words(self.mods(cons), user_noun(cons.tool)) + "의"
        return f"{pair} 중 {join_words(qual, phrase)} {self._side()}", "어디"

    def _side(self) -> str:
        """ "쪽", then "곳" for a second comparison (not "… 더 많은 쪽은 어디 … 더 많은 쪽은 어디")."""
        self.cmps += 1
        return "쪽" if self.cmps % 2 else "곳"

    def fact_ask(self, f: dict[str, Any]) -> tuple[str, str, str]:
        """(whose, what, question word) of one fact: ("'X' 근처 병원 중 의사가 가장 많은 병원의", "개설일자", "언제")."""
        sid = f["step"]
        tool = self.d.step(sid).tool
        items = self.d.outputs[sid]["items"]
        said_before = sid in self.back
        text, poss = self.np(sid)
        reason = f["row_reason"]
        raw = (
            items[f["row"]].get(f["field"])
            if f["field"] != COUNT and f["row"] < len(items)
            else f["resolved"]
        )
        q = question_word(tool, f, raw)
        rel, mods = self.where.get(sid, ("", ""))
        own = bool(rel) and not mods and rel.endswith("의") and text == f"{rel} {user_noun(tool)}"
        if reason == "only" and f.get("row_label_field") == f["field"] and not said_before:
            # which one it is (the only row of a list the chain found): "… 같은 동네의 병원은 어디인가요?"
            return "", text, "어디" if counter(tool) == "곳" else "무엇"
        if reason == "count":
            if own and not said_before:
                return rel, user_noun(tool), q  # "'수원시'의" + "버스 정류장": "'수원시'는요?" can follow
            return "", text, q
        if reason in ("max", "min"):
            picked = self.pick_np(sid, f["measure"], reason, (said_before, text))
            if f.get("row_label_field") == f["field"]:
                # which one it is: "전문의가 가장 많은 진료과목은 무엇인가요?", not "…의 과목명은 어떻게 되나요?"
                self.asked_pick.add(sid)
                return "", picked, "어디" if counter(tool) == "곳" else "무엇"
            whose = f"{picked}의"
        elif reason == "named":
            name = f"'{f['row_label']}'"
            if said_before or (sid, f["row"]) in self.rows:
                whose = f"{name}의"  # a row of a list said before is just its name ("'외과'의 전문의 수")
            elif own and tool in self.listed:
                whose = f"{rel} {name}의"  # the same kind of list of another row: "'청운중학교'의 '현충일'의"
            elif (
                name_says_kind(tool, name)
                and incoming(self.d, sid) is None
                and not literal_args(self.d.step(sid))
            ):
                whose = f"{name}의"  # "'경북대학교병원'의 주소", not "병원 중 '경북대학교병원'의 주소"
            else:
                whose = f"{text} 중 {name}의"
            self.rows.add((sid, f["row"]))
            self.listed.add(tool)
        else:
            whose = poss
        return whose, asked_label(self.d, f), q

    def cond_sentence(self, j: Any) -> str:
        d = j.detail
        prod_tool = self.d.step(j.producer).tool
        cond = lookup(prod_tool, d["field"], d["threshold"])
        assert cond is not None, "COND junctions come from conditions.CONDITIONS"
        sid = j.consumers[0]
        who = self.row(j, sid)
        rel = relation(self.d, j, sid, self.cv, who="")
        mods = self.mods(self.d.step(sid))
        then_np = join_words(rel, mods, branch_noun(d["then"]))
        else_np = join_words(rel, mods, branch_noun(d["else"]))
        label = _person_measure(field_label(prod_tool, d["field"]))
        return (
            f"{who}의 {i_ga(label)} {cond.said} 이상이면 {eul(then_np)}, 아니면 {eul(else_np)} 보려고 합니다."
        )


_SAID_NAME = re.compile(r"'[^']*'")
_BARE_NAME = re.compile(r"'[^']+'의")


def _only_other_name(prev: str, cur: str) -> str | None:
    """The one quoted name ``cur`` says where ``prev`` says another, when the two asks are otherwise
    the same words (a date said in full the first time, "지난달(2026년 11월)", and short after); else None."""

    def bare(text: str) -> str:
        return re.sub(r"\([^)]*\)", "", _SAID_NAME.sub("'N'", text)).strip()

    a, b = _SAID_NAME.findall(prev), _SAID_NAME.findall(cur)
    if not prev or bare(prev) != bare(cur) or len(a) != len(b):
        return None
    diff = [y for x, y in zip(a, b, strict=True) if x != y]
    return diff[0] if len(diff) == 1 else None


def _sentences(asks: list[tuple[str, str, str]], room: int) -> str:
    """The asks as at most ``room`` sentences of at most two clauses each; asks about one row's
    fields are merged first ("'X'의 주소와 전화번호는 각각 어떻게 되나요?") when they do not fit."""
    merged: list[tuple[str, str, str]] = []
    for whose, what, q in asks:
        if len(asks) > 2 * room and merged and whose and merged[-1][0] == whose:
            w, prev, _ = merged[-1]
            merged[-1] = (w, f"{gwa(prev)} {what}", "각각 어떻게 되")
        else:
            merged.append((whose, what, q))
    room = max(room, 1)
    if len(merged) <= room:
        sizes = [1] * len(merged)
    else:  # two clauses a sentence ("A는 얼마이고 B는 언제인가요?"); more only when nothing else fits
        base, extra = divmod(len(merged), room)
        sizes = [base + (1 if i < extra else 0) for i in range(room)]
    # the same "어떻게 되나요" twice in a row reads as a form: the second asks "무엇" (unless it is the same ask
    # of another row, said "'B'는요?" below)
    merged = [
        (
            w,
            what,
            "무엇"
            if q == "어떻게 되"
            and i
            and merged[i - 1][2] == "어떻게 되"
            and not (merged[i - 1][1] == what and _BARE_NAME.fullmatch(w))
            else q,
        )
        for i, (w, what, q) in enumerate(merged)
    ]
    out, at = [], 0
    for k, n in enumerate(sizes):
        clauses = []
        for i in range(at, at + n):
            whose, what, q = merged[i]
            last = i == at + n - 1
            before = merged[i - 1] if i else None
            other = (
                _only_other_name(join_words(*before[:2]), join_words(whose, what))
                if last and before and before[2] == q
                else None
            )
            if last and before and (before[1], before[2]) == (what, q) and _BARE_NAME.fullmatch(whose):
                # the same ask of another row whose list was said: "'B'는요?"; a row said with its own
                # scope ("전문의가 가장 적은 병원의 '내과'") is asked in full, not "…의 '내과'는요?"
                clauses.append(f"{eun(whose[:-1])}요?")
            elif other is not None:
                # the same pick of another row's list ("'A'와 같은 시군구의 … 가장 큰 거래는 무엇이고
                # 'B'는요?"): said in full once, not the whole phrase again for each row
                clauses.append(f"{eun(other)}요?")
            else:
                clauses.append(_clause(join_words(whose, what), q, last))
        at += n
        s = " ".join(clauses)
        out.append(s if k == 0 else f"그리고 {s}")
    return " ".join(out)


def template_query(draft: Draft, facts: list[dict[str, Any]], clock: str | None = None) -> str:
    """One or two short questions a person asks (after, for a condition, the sentence that states it)."""
    return query_and_problems(draft, facts, clock)[0]


def query_and_problems(
    draft: Draft, facts: list[dict[str, Any]], clock: str | None = None, outputs: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    """The grammar's query and why it is not a question a person asks (validity.py:
    ``named_pick_after_chain``, ``partial_pick``, ``unrelated_asks``; empty: it is)."""
    problems = pick_problems(draft, facts, outputs)
    query, asks, lead = _query(draft, facts, clock)
    if unrelated_asks(lead, asks):
        problems.append("unrelated_asks")
    return query, problems


def _query(draft: Draft, facts: list[dict[str, Any]], clock: str | None) -> tuple[str, list[Any], list[str]]:
    w = _Writer(draft, clock_values(clock))
    lead = [w.cond_sentence(j) for j in draft.junctions if j.type == "COND"]
    asks: list[tuple[str, str, str]] = []
    for j in draft.junctions:
        if j.type == "CMP":
            topic, q = w.cmp_ask(j)
            asks.append(("", topic, q))
    seen: set[tuple[str, str]] = set()
    for f in facts:
        if f.get("row_reason") == "compared" or "pick_for" in f:
            continue
        whose, what, q = w.fact_ask(f)
        if (whose, what) not in seen:
            seen.add((whose, what))
            asks.append((whose, what, q))
    if not asks:
        return " ".join(lead), asks, list(lead)
    said = list(lead)
    if lead and len(asks) > 2:
        # more asks than one sentence holds: the condition leads into the first question ("… 보려고
        # 하는데, 그 병원의 … 언제인가요?"), two sentences in all, as without a condition
        lead[-1] = lead[-1].removesuffix("보려고 합니다.") + "보려고 하는데,"
        return " ".join(lead + [_sentences(asks, 2)]).strip(), asks, said
    return " ".join(lead + [_sentences(asks, 2 - len(lead))]).strip(), asks, said
