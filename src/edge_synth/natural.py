"""The checks that a query/answer reads as a person's (issue 10).

A person asks ONE question about what they want ("지난달 종로구에서 가장 비싸게 팔린 아파트 근처
병원 중 의사가 가장 많은 곳은 어디인가요?"); the intermediate calls appear as descriptions of
things, never as API names ("예보지점 격자", "공통정보", "위치기반 관광정보 목록") or as a chain of
instructions ("…을 찾아 주세요. 그중 …로 …을 조회해 주세요. 마지막으로 …"). What each operation
returns in a person's words (``USER_NOUNS``) is in ``edge_synth.lexicon``; ``naturalness_problems``
is the check every row (grammar- or model-written) must pass.
"""

from __future__ import annotations

import re

from edge_synth.lexicon import USER_NOUNS, row_word, user_noun

# What a person asks "how many" of, and compares by how many (issue 10): hospitals near a place,
# trades in a district, stops near a point, sights near a place, holidays in a month. Not air
# quality stations of a province, meal rows of a school or forecast rows: their number is the
# API's paging, nothing a person wants to know.
COUNTABLE: frozenset[str] = frozenset(
    {
        "hira_getHospBasisList",
        "hira_getDgsbjtInfo2_7",
        "molit_getRTMSDataSvcAptTrade",
        "molit_getRTMSDataSvcAptTradeDev",
        "molit_getRTMSDataSvcAptRent",
        "seoul_tbLnOpendataRtmsV",
        "tago_getSttnNoList",
        "tourapi_locationBasedList2",
        "tourapi_areaBasedList2",
        "tourapi_searchFestival2",
        "kasi_getRestDeInfo",
        "kasi_getHoliDeInfo",
        "seoul_ChildCareInfo",
        "seoul_CrtfcUpsoInfo",
    }
)


def true_count(output: dict) -> int | None:
    """How many rows the query has in all: the result's totalCount (the rows returned are one page:
    "100" is the page size, not the number of meals); None when the output does not say."""
    total = output.get("totalCount")
    try:
        n = int(str(total).replace(",", "").strip())
    except (TypeError, ValueError):
        return None
    return n if n >= len(output.get("items", [])) else None


# Operation names from the specs (lexicon.op_noun) and plan words a person would not say.
INTERNAL_NAMES: tuple[str, ...] = (
    "공통정보",
    "예보지점 격자",
    "기준좌표",
    "위치기반 관광정보",
    "지역코드 목록",
    "병원정보 목록",
    "시도별 실시간 측정정보",
    "근접측정소 목록",
    "의료기관 세부정보",
    "진료과목정보",
    "실거래 신고 내역",
    "법정동코드 10자리",
    "서울시 부동산 실거래가 정보",
    "소개정보",
    "결과 중",
    "번째 항목",
    "마지막 항목",
    "조회해",
    "조회했",
    "요청 좌표로부터",
    "그중",
    "마지막으로",
)
# A request clause: "…해 주세요", "알려 줘", "비교해 주세요", "찾아 주세요" …
_REQUEST = re.compile(r"(?:주세요|주십시오|줘|주라|하세요|바랍니다)(?=[\s.?!]|$)")
_SENTENCE_END = re.compile(r"[가-힣A-Za-z)][.?!](?=\s|$)")
# "2025년 13월", "1100년 25월": a code read as a year-month.
_YEAR_MONTH = re.compile(r"(\d{3,4})년\s*(\d{1,2})월")
_INLINE_DUMP = re.compile(r"\(\s*[A-Za-z_]\w*\s*=")


def requests(query: str) -> int:
    """How many request clauses the query makes (a person asks one thing)."""
    return len(_REQUEST.findall(query))


def sentences(query: str) -> int:
    """Sentences end in . ? ! after a word (not inside "3.1.1." or "(주)." of a quoted name)."""
    text = re.sub(r"'[^']*'", "X", query)
    n = len(_SENTENCE_END.findall(text))
    return n + (1 if text.strip() and not _SENTENCE_END.search(text.strip()[-2:] + " ") else 0)


def bad_year_months(text: str) -> list[str]:
    """Year-months no calendar has: a code rendered as a date ("시군구코드 1100년 25월")."""
    return [
        m.group(0)
        for m in _YEAR_MONTH.finditer(text)
        if not (1900 <= int(m.group(1)) <= 2100 and 1 <= int(m.group(2)) <= 12)
    ]


def naturalness_problems(query: str, answer: str) -> list[str]:
    """Why a query/answer does not read as a person's (empty: it does)."""
    out: list[str] = []
    if requests(query) > 1:
        out.append(f"{requests(query)} requests")
    if sentences(query) > 2:
        out.append(f"{sentences(query)} sentences")
    for name in INTERNAL_NAMES:
        if name in query or name in answer:
            out.append(f"internal name {name!r}")
            break
    for text in (query, answer):
        if bad_year_months(text):
            out.append(f"code as a date {bad_year_months(text)[0]!r}")
            break
    for residue in ("을(를)", "값 값"):
        if residue in query or residue in answer:
            out.append(f"residue {residue!r}")
    if _INLINE_DUMP.search(query) or _INLINE_DUMP.search(answer):
        out.append("inline parameter dump")
    return out


# --- fluency: what makes a long-chain question read as a list of noun phrases (issue 10) ----------
#
# Each check is a count a reviewer can redo by hand on one query. They measure what a grammar without
# them does over long chains ("오늘(2026년 12월 4일) 시간 평균 대기오염도 중 '도봉구'의 권역별 실시간
# 대기환경의 통합대기환경지수 그리고 오늘(2026년 12월 4일) 시간 평균 대기오염도 중 …"): a phrase said again
# instead of referred back to, the date said twice, "중 … 중 … 가운데" stacked, "A의 B의 C의 D", dataset
# names a developer would say, 2000미터 for 2km, and several questions run into one sentence.

# Dataset / operation names (lexicon.op_noun and the old USER_NOUNS) a person does not say: the
# thing is called by what it is ("'서울대학교병원'의 주차 가능 대수", not "… 병원 상세 정보의 …").
DEV_NOUNS: tuple[str, ...] = (
    "병원 상세 정보",
    "관광지 상세 정보",
    "관광지 이용 안내",
    "권역별 실시간 대기환경",
    "측정소별 실시간 대기질",
    "시간 평균 대기오염도",
    "날씨 예보 지역",
    "통계 세부 항목",
    "재무제표 주요 계정",
    "버스 정보 도시",
    "회사 개요",
    "등 정보",
    "상세 정보의",
    "이용 안내의",
    # the Seoul price table's rows named by their market: "생필품 가격 '회기동 시장'" is nobody's framing
    "생필품 가격 '",
    "생필품 가격 중 '",
)
# Tables whose rows are named by a name that says what the thing is ("'회기동 시장'"): the row is said
# by its name alone, without the table (compose.Speaker.named, cmp_ask).
NAME_SAYS_KIND: dict[str, tuple[str, ...]] = {
    "seoul_ListNecessariesPricesService": ("시장",),
    "hira_getHospBasisList": ("병원", "의원"),
    "neis_schoolInfo": ("학교",),
}


def name_says_kind(op_id: str, name: str) -> bool:
    """Whether a row of ``op_id`` named ``name`` is said by its name alone ("'회기동 시장'")."""
    return name.strip("'").endswith(NAME_SAYS_KIND.get(op_id, ("\0",)))


_QUOTED_NAME = re.compile(r"'[^']*'")
_DATE_SAID = re.compile(r"\d{4}년 \d{1,2}월(?: \d{1,2}일)?")
_METRES = re.compile(r"(?<![\d.,])(\d{4,}|\d{1,3}(?:,\d{3})+)\s*미터")
_JUNG = re.compile(r"(?:^|\s)(?:그\s?중|중|중에서|가운데|가운데서)(?=[\s,]|$)")
# Ends of a question clause: "…인가요", "…되나요", "…이고" (a question joined to the next).
_ASK_END = re.compile(r"(?:이고|이며|인가요|되나요|[가-힣]나요|까요|습니까)(?=[\s?,.!]|$)")
# An eojeol that closes a noun phrase (a case particle other than 의, a verb/adjective form, 중).
_NP_BREAK = re.compile(r"(?:[은는이가을를에와과도만로]|에서|으로|중|가운데|[가-힣]고|[가-힣]면|요)[?.!,]?$")


def _eojeol(text: str) -> list[str]:
    """Words of ``text`` with each quoted name one word ("'청운효자동 도서관'과" is one)."""
    return _QUOTED_NAME.sub(lambda m: m.group(0).replace(" ", "\u00a0"), text).split()


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (a "." inside a quoted name or a number does not end one)."""
    masked = _QUOTED_NAME.sub(lambda m: "x" * len(m.group(0)), text)
    out, start = [], 0
    for m in _SENTENCE_END.finditer(masked):
        out.append(text[start : m.end()].strip())
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def repeated_phrase(text: str, n: int = 3) -> str | None:
    """The first phrase of ``n`` or more words said twice ("오늘(2026년 12월 4일) 시간 평균"), or None."""
    words = [w.strip(",?.!") for w in _eojeol(text)]
    seen: set[tuple[str, ...]] = set()
    for i in range(len(words) - n + 1):
        gram = tuple(words[i : i + n])
        if gram in seen:
            return " ".join(gram).replace("\u00a0", " ")
        seen.add(gram)
    return None


def repeated_dates(text: str) -> list[str]:
    """Dates or months said more than once ("오늘(2026년 12월 4일) … 오늘(2026년 12월 4일)"), and
    "오늘" said twice ("오늘(2026년 12월 5일) 초단기 날씨 예보의 오늘 11시")."""
    said = [m.group(0) for m in _DATE_SAID.finditer(text)]
    out = {d for d in said if said.count(d) > 1}
    bare = _QUOTED_NAME.sub("N", text)
    if len(_TODAY.findall(bare)) > 1 and re.search(r"오늘(?!\()", bare):
        out.add("오늘")
    return sorted(out)


_TODAY = re.compile(r"오늘")
# A hop from a row to a place: "'X'와 같은 시군구", "'X'가 있는 동네", "'X' 반경 2km 안".
_PLACE_HOP = re.compile(
    r"(?:같은 (?:시군구|법정동|동네|시도|구)|있는 (?:동네|시군구|법정동|시도|구)(?=[의와과에이가\s])|반경 \S+ 안)"
)
_HOP_PLACES = ("동네", "시군구", "법정동", "시도", "구")


def _row_nouns() -> set[str]:
    return {w for pair in USER_NOUNS.values() for w in pair} | set(_HOP_PLACES)


def chained_hops(text: str) -> int:
    """Place hops taken from something that is not a named row or the user's own place: from another
    hop ("'진흥'이 있는 동네와 같은 시군구", "사직동이 있는 시도 반경 2km") or from an unnamed row or list
    ("… 가장 큰 거래와 같은 시군구", "'X'와 같은 동네의 병원과 같은 시도", "정원이 가장 작은 어린이집 반경
    2km"). A person says one place and refers back to it; hops chained read as stacked noun phrases.
    The same hop twice in a sentence ("X와 같은 시군구의 … 'Y'와 같은 시군구의") is chained too.
    A hop from a quoted name, from a row referred back to ("그 병원"), or of a comparison ("… 중 반경
    2km 안에 병원이 더 많은 쪽") is not chained."""
    nouns = _row_nouns()
    n = 0
    for sentence in split_sentences(text):
        same = [m.group(0) for m in _PLACE_HOP.finditer(sentence) if m.group(0).startswith("같은")]
        n += len(same) - len(
            set(same)
        )  # "이촌동과 같은 시군구의 … '새봄식당'과 같은 시군구의": one place twice
    masked = _QUOTED_NAME.sub("'N'", text)
    for m in _PLACE_HOP.finditer(masked):
        before = masked[: m.start()].split()
        w = before[-1].rstrip(",") if before else ""
        if not w or w.startswith("'") or (len(before) > 1 and before[-2] == "그"):
            continue  # a named row, the sentence's first place, or one referred back to ("그 병원과 같은 시도")
        stem = re.sub(r"(?:와|과|이|가)$", "", w)
        n += stem in nouns
    return n


def names_said_twice(text: str) -> list[str]:
    """Quoted names also said unquoted ("서울특별시 종로구 중 '서울특별시 종로구'와 같은 법정동": a place
    named as a row of its own list)."""
    bare = _QUOTED_NAME.sub(" ", text)
    return [
        n
        for n in dict.fromkeys(m.group(0).strip("'") for m in _QUOTED_NAME.finditer(text))
        if len(n) >= 2 and re.search(rf"(?:^|\s){re.escape(n)}(?=\s|[의와과이가은는을를에]|$)", bare)
    ]


_MORE_OF = re.compile(r"(\S+?)[이가] 더 (?:많은|적은) (?:쪽|곳)")


def unclear_back_refs(text: str) -> list[str]:
    """ "그 X" after a comparison of how many X each has ("같은 동네에 병원이 더 많은 쪽은 어디인가요?
    그리고 그 병원에서 …"): many X, no one of them to refer back to."""
    return [f"그 {m.group(1)}" for m in _MORE_OF.finditer(text) if f"그 {m.group(1)}" in text[m.end() :]]


def picks_in_a_clause(text: str) -> int:
    """The most superlatives ("가장") in one question clause: "의사가 가장 많은 병원에서 전문의가 가장 적은
    진료과목" chains two picks (2); "A의 가장 큰 거래는 무엇이고 B의 가장 작은 거래는 …" asks two (1 each)."""
    best = 0
    for s in split_sentences(text):
        for clause in _ASK_END.split(_QUOTED_NAME.sub("N", s)):
            best = max(best, len(re.findall(r"가장", clause)))
    return best


def most_jung(text: str) -> int:
    """The most '중' / '가운데' ("among") of one sentence."""
    return max((len(_JUNG.findall(s)) for s in split_sentences(text)), default=0)


# Nouns that end in 의 without it being the particle ("공동발의", "위원회 회의").
_NOUNS_IN_UI = (
    "발의",
    "회의",
    "동의",
    "합의",
    "논의",
    "강의",
    "협의",
    "심의",
    "건의",
    "정의",
    "주의",
    "민의",
    "전문의",
    "한의",
)


def longest_ui_chain(text: str) -> int:
    """The longest run of '의' linking nouns ("'X'의 권역별 실시간 대기환경의 통합대기환경지수" is 2);
    a particle other than 의 or a verb form ends the run."""
    best = run = 0
    for w in _eojeol(text):
        bare = w.rstrip("?.!,")
        noun = bare.endswith(_NOUNS_IN_UI) and not (
            bare.endswith("동의") and len(bare) > 2
        )  # "길음동의": 동 + 의
        if bare.endswith("의") and not noun:
            run += 1
            best = max(best, run)
        elif _NP_BREAK.search(w):
            run = 0
    return best


def long_metres(text: str) -> list[str]:
    """Distances of 1,000 metres or more said in metres ("반경 2000미터"): a person says 2km."""
    return [m.group(0) for m in _METRES.finditer(text) if int(m.group(1).replace(",", "")) >= 1000]


def asks_per_sentence(sentence: str) -> int:
    """Question clauses in one sentence ("A는 얼마이고 B는 언제인가요?" is 2); "A, B 그리고 C는 각각 …"
    counts each thing listed."""
    asks = len(_ASK_END.findall(sentence))
    if "각각" in sentence:
        head = sentence.split("각각", 1)[0]
        asks += len(re.findall(r",\s|\s그리고\s", _QUOTED_NAME.sub("N", head)))
    return asks


# --- what a reviewer's reading of 30 rows marked as not fluent --------------------------------------------
# A budget of characters for one query: the longest rows read as fluent are ~105 characters; the
# rows over 130 are two long questions glued together or a condition hung on a chain (28 of 2,000; the
# issue's own rewrite of a two-question chain, tests/test_edge_fluency.PERSON, is 125).
MAX_QUERY_CHARS = 130
_CODE_BESIDE = re.compile(r"[가-힣]\(\d{4,}\)")  # "종로구(11110)": a person does not write the code bare
# A radius around a whole 시/군/구/도 ("군산시 반경 2km"): a city has no radius; a 동 ("휘경동 반경 2km") has.
_AREA_RADIUS = re.compile(r"(?:^|\s)[가-힣]+(?:시|군|구|도)(?:의)? 반경")
# "그 달의 국경일이 더 많은 쪽": the count is the month's, the same for any row of that month.
_MONTH_CMP = re.compile(r"그 달의 \S+?[이가] 더 (?:많은|적은)")
_FORM_FILTER = re.compile(r"(?:^|\s)\S+ 일부가 \S+인(?=\s)|(?:^|\s)[가-힣/]+명이 \S+인(?=\s)")

# --- what a second reading of 30 rows marked as not fluent ---------------------------------------------
# A row's date or month as the next call's date ("'순천 빛축제'의 날짜에 맞춘 축제", "'종로 국화축제'가 열리는 달의
# 국경일"): a hop nobody makes; a date is the user's own when they name it (a holiday: "'어린이날'부터 열리는 축제").
_DATE_HOP = re.compile(r"(?:'N'의|그) 날짜에 맞춘|열리는 달의")


def date_hops(text: str) -> list[str]:
    return [m.group(0) for m in _DATE_HOP.finditer(_QUOTED_NAME.sub("'N'", text))]


def unnamed_filtered_rows(text: str) -> list[str]:
    """A list the user asked by their own filter, then a list of its rows with no row named ("운중동의 병원의
    진료과목 중 '침구과'": which hospital?). "운중동의 병원 중 'A'의 진료과목" names it."""
    nouns = {w for pair in USER_NOUNS.values() for w in pair}
    out = []
    for m in re.finditer(
        r"(?:^|\s)([가-힣0-9]+(?:동|읍|면|리|가|로)의 ([가-힣]+)의)(?=\s)", _QUOTED_NAME.sub("'N'", text)
    ):
        if m.group(2) in nouns:
            out.append(m.group(1))
    return out


_HOP_PICK = re.compile(r"같은 (?:시군구|법정동|동네|시도|구)|있는 (?:동네|시군구|법정동|시도|구)|반경 \S+ 안")


def two_jung_hop_pick(text: str) -> int:
    """Question clauses with two '중', a place hop and a pick ("어린이집 중 '푸른어린이집'과 같은 시군구의 부동산 거래 중
    건물면적이 가장 작은 거래"): three layers in one breath."""
    n = 0
    for s in split_sentences(text):
        for clause in _ASK_END.split(_QUOTED_NAME.sub("'N'", s)):
            n += len(_JUNG.findall(clause)) >= 2 and bool(_HOP_PICK.search(clause)) and "가장" in clause
    return n


_DISTRICT_SAID = re.compile(r"시군구코드 \d+|[가-힣]\(\d{5}\)|같은 시군구|있는 시군구")


def districts_said_twice(text: str) -> int:
    """Question clauses that say the 시군구 twice: a district the user names (with its code) or a row's
    시군구, then the 시군구 of a row of that list ("관악구(시군구코드 11620) … 거래 중 '신림더샵센트럴'이 있는
    시군구에서"): the same place again, a hop the user would not make."""
    n = 0
    for s in split_sentences(text):
        for clause in _ASK_END.split(_QUOTED_NAME.sub("'N'", s)):
            n += len(_DISTRICT_SAID.findall(clause)) > 1
    return n


_LAYER = re.compile(
    r"(?:^|\s)(?:중|가운데)(?=\s)|같은 (?:시군구|법정동|동네|시도|구)|있는 (?:동네|시군구|법정동|시도|구)"
    r"|반경 \S+ 안|가장"
)


def two_chained_questions(text: str) -> bool:
    """Two sentences, each a question with its own chain (two or more of: '중', a place hop, a radius, a pick):
    "… 병원 중 'A'의 진료과목 중 'B'의 전문의 수는 얼마인가요? 그리고 'A'와 같은 시도의 실시간 대기질 중 … 가장
    낮은 측정소의 …": two long questions glued into one query. One chain beside a short question passes."""
    sents = split_sentences(text)
    return len(sents) >= 2 and all(len(_LAYER.findall(_QUOTED_NAME.sub("'N'", s))) >= 2 for s in sents)


_PLACE_THEN_ROW = re.compile(r"(?:^|\s)((?:[가-힣0-9]+ )*?[가-힣0-9]+(?:시|도|구|군|동|읍|면|가|로)) 중 '")


def place_picked_from_lookup(text: str) -> str | None:
    """A place said, then a row picked "among" it ("서울특별시 중 '서울특별시 종로구 통인동'", "부암동 중 '종로구'"):
    a place table looked up by one place and read at another, the place said twice, once as a list. A list
    named by its noun ("서울 구별 대기오염도 중 '광진구'", "도시 중 '성남시'") is not a place."""
    nouns = {w for pair in USER_NOUNS.values() for w in pair}
    for m in _PLACE_THEN_ROW.finditer(text):
        last = m.group(1).split()[-1]
        if not any(n.endswith(last) for n in nouns):
            return m.group(1)
    return None


def rows_of_a_picks_list(text: str) -> int:
    """Clauses that name a row of a list found for a picked row ("전문의가 가장 많은 병원의 진료과목 중
    '정형외과'"): the pick, then a row of its list, in one breath. Asked as two clauses ("… 가장 많은 병원은
    어디인가요? 그리고 그 병원의 진료과목 중 '정형외과'…") it is not counted."""
    n = 0
    for s in split_sentences(text):
        for clause in _ASK_END.split(_QUOTED_NAME.sub("'N'", s)):
            n += bool(re.search(r"가장[^']*'N'", clause))
    return n


def fluency_problems(query: str) -> list[str]:
    """Why a query reads as stacked noun phrases rather than as a person's question (empty: it
    does not). The thresholds: no phrase of 3+ words said twice, a date said once, at most two
    '중'/'가운데' in a sentence, at most two '의' in a row, no developer's dataset name, no 1,000+
    metres, at most two sentences, each with at most two question clauses ("A는 얼마이고 B는
    언제인가요?"), a question sentence ending in '?', no place hop taken from another hop or an unnamed row
    ("'X'가 있는 동네와 같은 시군구") at most one superlative in a question clause (two picks chained), no quoted name also said unquoted,
    and no "그 X" after a comparison of how many X each has."""
    out: list[str] = []
    if (p := repeated_phrase(query)) is not None:
        out.append(f"repeated phrase {p!r}")
    if d := repeated_dates(query):
        out.append(f"date said twice {d[0]!r}")
    if (j := most_jung(query)) > 2:
        out.append(f"{j} '중/가운데' in a sentence")
    if (u := longest_ui_chain(query)) > 2:
        out.append(f"{u} '의' in a row")
    if dev := [n for n in DEV_NOUNS if n in query]:
        out.append(f"dataset name {dev[0]!r}")
    if m := long_metres(query):
        out.append(f"metres {m[0]!r}")
    sents = split_sentences(query)
    if len(sents) > 2:
        out.append(f"{len(sents)} sentences")
    for s in sents:
        if asks_per_sentence(s) > 2:
            out.append(f"{asks_per_sentence(s)} questions in one sentence")
            break
    if sents and not sents[-1].endswith("?"):
        out.append("no question mark")
    if h := chained_hops(query):
        out.append(f"{h} chained place hops")
    if (k := picks_in_a_clause(query)) > 1:
        out.append(f"{k} picks in one sentence")
    if twice := names_said_twice(query):
        out.append(f"name said twice {twice[0]!r}")
    if unclear := unclear_back_refs(query):
        out.append(f"unclear back-reference {unclear[0]!r}")
    if districts_said_twice(query):
        out.append("district said twice in a clause")
    if (place := place_picked_from_lookup(query)) is not None:
        out.append(f"place picked from its lookup {place!r}")
    if rows_of_a_picks_list(query):
        out.append("row of a pick's list in one clause")
    if two_chained_questions(query):
        out.append("two chained questions")
    if len(query) > MAX_QUERY_CHARS:
        out.append(f"long query ({len(query)} characters)")
    masked = _QUOTED_NAME.sub("'N'", query)
    if found := _CODE_BESIDE.search(masked):
        out.append(f"code beside a name {found.group(0)!r}")
    if found := _AREA_RADIUS.search(masked):
        out.append(f"radius around an area {found.group(0).strip()!r}")
    if _MONTH_CMP.search(masked):
        out.append("comparison of a month's count")
    if found := _FORM_FILTER.search(masked):
        out.append(f"form-like filter {found.group(0).strip()!r}")
    if d := date_hops(query):
        out.append(f"date of a row as a hop {d[0]!r}")
    if unnamed := unnamed_filtered_rows(query):
        out.append(f"list of the user's filter names no row {unnamed[0]!r}")
    if two_jung_hop_pick(query):
        out.append("two '중' with a hop and a pick in a clause")
    return out


FLUENCY_CHECKS = (
    "repeated phrase",
    "date said twice",
    "'중/가운데'",
    "'의' in a row",
    "dataset name",
    "metres",
    "sentences",
    "questions in one sentence",
    "no question mark",
    "chained place hops",
    "picks in one sentence",
    "name said twice",
    "unclear back-reference",
    "row of a pick's list",
    "long query",
    "code beside a name",
    "radius around an area",
    "comparison of a month",
    "form-like filter",
    "district said twice",
    "two chained questions",
    "place picked from its lookup",
    "date of a row as a hop",
    "list of the user's filter names no row",
    "two '중' with a hop and a pick",
)


def fluency_figures(queries: list[str]) -> dict[str, int | float]:
    """Per check, how many of ``queries`` fail it; plus the rows failing any, mean length and sentences
    (the before/after table of issue 10)."""
    counts = {c: 0 for c in FLUENCY_CHECKS}
    any_bad = 0
    for q in queries:
        probs = fluency_problems(q)
        any_bad += bool(probs)
        for c in FLUENCY_CHECKS:
            counts[c] += any(c in p for p in probs)
    n = max(len(queries), 1)
    return {
        "rows": len(queries),
        "failing any": any_bad,
        **counts,
        "mean chars": round(sum(len(q) for q in queries) / n, 1),
        "mean sentences": round(sum(len(split_sentences(q)) for q in queries) / n, 2),
    }


# Calls that give more about ONE row of the call before (a hospital's hours and parking, a sight's
# introduction, a company's overview, a 구's real-time air): a person asks the row's field
# directly ("'밝은병원'의 토요일 진료 종료"), so the query leaves the call implicit; the value is
# what is put before the field, if anything ("'도봉구'의 실시간 통합대기환경지수").
DETAIL_OF_ROW: dict[str, str] = {
    "hira_getDtlInfo2_7": "",
    "tourapi_detailCommon2": "",
    "tourapi_detailIntro2": "",
    "dart_company": "",
    "seoul_RealtimeCityAir": "실시간",
    "seoul_TimeAverageAirQuality": "시간 평균",
}
# Tables whose rows are places or things a person names directly (a city, a 동, a forecast area):
# looked up for a row's place they are "'X'가 있는 동네", and a row of such a table needs no list
# before its name ("'성남시'의 버스 정류장", not "버스 정보 도시 중 '성남시'의 …").
# (A set, not a frozenset: tests/edge_toyapi.py adds its test platform's region table while registered.)
PLACE_ROWS: set[str] = {
    "kma_getGridPointList",
    "stanregincd_getStanReginCdList",
    "airkorea_getTMStdrCrdnt",
    "tourapi_areaCode2",
    "tago_getCtyCodeList",
}
# What a person looks at when a condition sends them to a call ("진료 시간과 주차 정보를 보려고 합니다").
_BRANCH_NOUNS: dict[str, str] = {"hira_getDtlInfo2_7": "진료 시간과 주차 정보"}
# Counts of places are said in 곳, of departments in 개, of anything else in 건 ("병원은 모두 14곳").
_PLACE_COUNTED = frozenset(
    {
        "병원",
        "곳",
        "정류장",
        "어린이집",
        "음식점",
        "주차장",
        "화장실",
        "도서관",
        "대여소",
        "와이파이",
        "학교",
        "측정소",
    }
)


def branch_noun(op_id: str) -> str:
    return _BRANCH_NOUNS.get(op_id) or user_noun(op_id)


def counter(op_id: str) -> str:
    """The counter word for rows of this call: 곳 for places, 개 for departments, else 건."""
    w = row_word(op_id)
    if w in _PLACE_COUNTED:
        return "곳"
    return "개" if w == "진료과목" else "건"
