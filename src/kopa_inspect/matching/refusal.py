"""Whether an answer declines without inventing a figure, a name or a guess, and the refusal matcher."""

from __future__ import annotations

import re
import unicodedata

from kopa_inspect.matching.lexicon import (
    ABSENCE_PREDICATES,
    COUNT_UNITS_KO,
    DECLINE_VERBS_KO,
    PLACE_KINDS_KO,
    REFUSAL_PHRASES_EN,
    TOPIC_PARTICLES_KO,
    alternation,
)
from kopa_inspect.matching.names import normalize_name
from kopa_inspect.matching.numbers import extract_numbers
from kopa_inspect.matching.raw_dump import is_raw_dump

_DECLINE = re.compile(
    "|".join(
        [
            rf"(?:{alternation(DECLINE_VERBS_KO)})\s*수\s*(?:가|는|도)?\s*없",
            # 어렵다 is ㅂ-irregular: 어렵습니다, 어려울/어려워/어려운
            r"답(?:변)?(?:하|드리)기\s*(?:가|는)?\s*어(?:려|렵)",
            r"(?:제공|지원|포함)(?:하|되)지\s*않",
            # the data is not out yet: "내년 3월 식단은 아직 공개되지 않았습니다"
            r"(?:공개|등록|게시|공표|발표|신고)(?:되|하)지\s*않았",
            # a question asked back about a place that does not exist: "부산 해운대구를 말씀하신 거라면"
            r"(?:말씀하신|찾으시는|원하시는)\s*(?:게|것이|거|곳이)\s*(?:라면|이라면|맞다면)",
            r"불가능|불가합니다|불가해",
            r"(?:도구|툴|api|API|기능)(?:가|이|는)?\s*없",
            r"(?:도구|api|API)로는?\s*(?:\S+\s*){0,4}없",
            alternation(REFUSAL_PHRASES_EN, False),
            r"not\s+(?:available|possible|supported|provided)",
            r"no\s+(?:tool|api|data\s+source)",
            r"(?:don't|do\s+not|doesn't|does\s+not)\s+(?:have|provide|offer|support)",
        ]
    ),
    re.IGNORECASE,
)
# Names a refusal must not invent (UNCERTAIN: a suffix list, not a named-entity recognizer). A
# quote is a quote, not an English apostrophe ("can't", "month's").
# A figure that says when ("11월", "2026년", "10일", "3시") dates the reason; it is no data point.
_DATE_PART = re.compile(r"\s*(?:년|월|일|시(?!간)|분(?!의))")
# A kind of place said with a common word, no name ("버스정류소", "인근 병원", "해당 아파트").
_GENERIC_PLACE = re.compile(
    r"(?:버스|시내버스|마을버스|해당|인근|근처|주변|가까운|다른|동네|지역|일반|대형|종합|모든|각)"
    rf"(?:{alternation(PLACE_KINDS_KO)})"
)
_ENTITY = re.compile(
    rf"[가-힣]{{2,}}(?:{alternation(PLACE_KINDS_KO)})"
    r"|(?<![A-Za-z])(?:['\"“‘]([^'\"”’\n]{2,30})['\"”’]|[「『]([^」』\n]{1,30})[」』])(?![A-Za-z])"
    # the same kinds of place in English ("Hanbit Elementary School", "Yeoksam Station")
    r"|((?:[A-Z][\w'-]+\s+){1,4}(?:(?:Elementary|Middle|High)\s+School|University|Hospital|Clinic|Pharmacy"
    r"|Apartments?|Station|Bus\s+Stop|Stop|Beach|Terminal))\b"
)
# A guess offered after (or instead of) declining is an answer, not a refusal (UNCERTAIN: a word
# list). Kept narrow on purpose: polite refusals say "어려울 것 같습니다", and "예상치는 제공할 수 없습니다"
# declines, so neither 것 같 nor 예상 alone marks a guess; a guess here is a hedging adverb, an
# estimating verb form, a trend verb in the future/conjecture form, or English likelihood words.
_GUESS = re.compile(
    r"아마(?:도)?|추정(?:컨대|하건대|하면|해\s*보면|됩니다|되며|되는데)|예상(?:컨대|하건대|됩니다|되며)|짐작(?:컨대|하건대|하면|됩니다)"
    r"|가능성이\s*(?:높|크|큽)|전망(?:입니다|됩니다|이에요)"
    r"|(?:오를|내릴|오르는|내리는|상승할|하락할|증가할|감소할|늘어날|줄어들|당선될|올라갈|떨어질)\s*(?:것|거|듯|가능|전망)"
    r"|\b(?:probably|likely|presumably|roughly|approximately|my\s+(?:best\s+)?guess|I\s+(?:would\s+|'d\s+)?(?:guess|estimate|expect|assume))\b",
    re.IGNORECASE,
)
# Figures written in words: Korean Sino numerals with a scale and a unit ("삼억 원", "이십 도") and
# English scale words ("three hundred million"). UNCERTAIN: native numerals ("두 곳") are not read.
_WORD_FIGURE = re.compile(
    # two syllables at least: "만 도구" / "천 개의 API" are words, "삼억 원" / "이십 도" are figures
    r"(?<![가-힣])(?=[일이삼사오육칠팔구십백천만억]{2})[일이삼사오육칠팔구]*[십백천만억][일이삼사오육칠팔구십백천만억]*"
    rf"\s*(?:원|{alternation(COUNT_UNITS_KO)}|도|퍼센트|프로|세대|가구|층|회)"
    r"|\b(?:hundred|thousand|million|billion|trillion)\b"
    r"|\b(?:about|around|roughly|approximately|nearly|some|over|under)\s+(?:a\s+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)\b",
    re.IGNORECASE,
)


# An invented zero beside a decline: "다음 달 거래는 없습니다" says no trade happened, which an empty
# result of a future or impossible query cannot show. The things KOPA-Bench questions ask to count or
# read (a compound ending in one of these nouns: 실거래, 기준금리, 점심 급식 ...), said to be none,
# with no word in the same clause that makes the sentence about the source or its publication
# ("거래 자료는 아직 없습니다", "TAGO에는 서울 시내버스가 없습니다", "신고된 거래가 없습니다").
# UNCERTAIN: word lists, not a parser; "그런 구는 없습니다" (the place does not exist) is a reason and
# is not matched because a place is not a measured thing.
_MEASURED = (
    r"거래|매매|전월세|급식|점심|메뉴|식단|버스|금리|기온|강수|건수|매출|매출액|재고|관리비|수온|대기\s*인원"
)
_NONE_CLAIM = re.compile(
    rf"(?<![가-힣])[가-힣]{{0,4}}?(?:{_MEASURED})\s*(?:{alternation((*TOPIC_PARTICLES_KO, '도'))})\s*"
    rf"(?:(?:한\s*(?:{alternation(COUNT_UNITS_KO)}|번|대)|하나|단\s*한\s*건)도\s*|전혀\s*)?없"
)
_NONE_CLAIM_EN = re.compile(
    r"\bthere\s+(?:are|were|is|was|will\s+be)\s+no\s+(?:[\w-]+\s+){0,3}?"
    r"(?:trades?|transactions?|sales|deals|meals?|lunch(?:es)?|menus?|bus(?:es)?|arrivals?|rates?|rain)\b",
    re.IGNORECASE,
)
# A weather state stated as fact ("비가 오지 않습니다", "맑겠습니다", "it will not rain"): a forecast
# beside a decline is an answer (UNCERTAIN: a word list; "비가 올지는 알 수 없습니다" asks, not states).
_WEATHER_CLAIM = re.compile(
    r"맑(?:겠|습니다|아요|음|을\s*것)|흐리(?:겠|ㅂ니다)|흐립니다|흐려요"
    r"|(?:비|눈)(?:가|이|는)?\s*(?:오지\s*않|안\s*(?:오|와)|내리지\s*않|오겠|내리겠|옵니다|내립니다|와요|올\s*것)"
    r"|(?<!whether\s)(?<!\bif\s)\bit\s+will\s+(?:not\s+|n't\s+)?(?:rain|snow|be\s+(?:sunny|clear|cloudy|dry))\b"
    r"|\bit\s+won't\s+(?:rain|snow)\b",
    re.IGNORECASE,
)
_SOURCE_WORDS = re.compile(
    r"자료|데이터|정보|기록|내역|통계|목록|결과|API|api|도구|서비스|시스템|TAGO|나이스|NEIS|ECOS"
    r"|아직|공개|공표|등록|신고된|제공"
    r"|\b(?:data|records?|information|tools?|service|published|reported|released|yet)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[.!?。\n,;:]|(?:고|며|지만|는데)\s")


_ABSENCE = re.compile(alternation(ABSENCE_PREDICATES, literal=False), re.IGNORECASE)
# between the thing and its absence: its kind after a quoted name ("'서교동' 측정소"), its particle and
# at most two places it is absent from ("NEIS에")
_SUBJECT_OR_OBJECT = alternation((*TOPIC_PARTICLES_KO, "을", "를", "도"))
_ABSENCE_GAP = re.compile(
    rf"\s*(?:[가-힣]{{1,4}}(?={_SUBJECT_OR_OBJECT}))?(?:{_SUBJECT_OR_OBJECT})?"
    r"\s*(?:\S+(?:에서|에는|에도|에|상)\s*){0,2}"
)


def _unchecked_absence(text: str, question: str | None, shown: str | None) -> bool:
    """A refusal that says a thing the question names does not exist or is not registered, in a run
    that read no tool output: a reason no call backs ("서울역삼초등학교는 NEIS에 등록되지 않은 학교라서")."""
    if shown or not question:
        return False
    q = normalize_name(question)
    for m in _ENTITY.finditer(text):
        name = m.group(1) or m.group(2) or m.group(3) or m.group(0)
        if _GENERIC_PLACE.fullmatch(m.group(0)) or normalize_name(name) not in q:
            continue
        clause_end = _CLAUSE_END.search(text, m.end())
        said = _ABSENCE.search(text, m.end(), clause_end.start() if clause_end else len(text))
        # the thing itself said absent ("…초등학교는 NEIS에 등록되지 않은"), not a part of it ("…초등학교
        # 학생의 성적은 조회되지 않습니다": the data, which a refusal may well say)
        if said and _ABSENCE_GAP.fullmatch(text, m.end(), said.start()):
            return True
    return False


def _invents_none(text: str) -> bool:
    for m in [*_NONE_CLAIM.finditer(text), *_NONE_CLAIM_EN.finditer(text)]:
        start = max((e.end() for e in _CLAUSE_END.finditer(text, 0, m.start())), default=0)
        clause_end = _CLAUSE_END.search(text, m.end())
        clause = text[start : clause_end.start() if clause_end else len(text)]
        # the decline itself ("… 제공할 수 없습니다") may share the clause; only the claim's own words count
        if not _SOURCE_WORDS.search(_DECLINE.split(clause)[0]):
            return True
    return False


# The API's own message quoted in a refusal ('해당하는 데이터가 없습니다', "NODATA_ERROR", 「해당 자료 없음」,
# 'INFO-200: …'): what the tool said, not a name or claim the model made up. A quote is such a message
# when it is an API code (capitals with _ or -, digits allowed there) and/or a text with no digit that
# names data and its absence or an error (the law API's data is 법령/법률/조문: '일치하는 법령이 없습니다').
# UNCERTAIN: a word list.
_QUOTE = re.compile(
    r"(?<![A-Za-z])['\"“‘]([^'\"”’\n]{2,80})['\"”’](?![A-Za-z])|[「『]([^」』\n]{1,80})[」』]"
)
_API_CODE = re.compile(r"\s*(?:[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+|[A-Z]{4,})\s*(?:[:\-]\s*)?")
_MESSAGE_DATA = re.compile(
    r"데이터|자료|결과|정보|내역|조회|레코드|법령|법률|조문|\b(?:data|records?|results?|service)\b", re.I
)
_MESSAGE_NONE = re.compile(r"없|않|실패|오류|에러|\b(?:no|not|error|invalid|expired|found)\b", re.I)


def _api_message(quote: str) -> bool:
    code = _API_CODE.match(quote)
    rest = quote[code.end() :] if code else quote
    if code and not rest.strip(" .!"):
        return True
    return (
        not re.search(r"\d", rest) and bool(_MESSAGE_DATA.search(rest)) and bool(_MESSAGE_NONE.search(rest))
    )


def _api_messages_blanked(text: str) -> str:
    return _QUOTE.sub(
        lambda m: " " * len(m.group(0)) if _api_message(m.group(1) or m.group(2) or "") else m.group(0), text
    )


def is_refusal(answer: str, question: str | None = None, shown: str | None = None) -> bool:
    """The answer declines and states no figure or name that is not in the question, claims none of
    the asked-for thing (:func:`_invents_none`), and offers no guess (:data:`_GUESS`); a quoted API
    message (:func:`_api_message`) is read as no part of it. ``shown``: the tool outputs the agent
    read in this run; a figure or name they hold is cited, not invented ("지난달 거래는 197건이지만 다음
    달 가격은 알 수 없습니다"). Heuristic word lists, UNCERTAIN (see the module docstring)."""
    text = _api_messages_blanked(unicodedata.normalize("NFKC", answer or ""))
    if not _DECLINE.search(text) or is_raw_dump(text) or _invents_none(text):
        return False
    if _unchecked_absence(text, question, shown):
        return False
    q = unicodedata.normalize("NFKC", "\n".join(x for x in (question, shown) if x))
    if any(m.group(0) not in q for m in _WEATHER_CLAIM.finditer(text)):
        return False
    if _GUESS.search(text) or any(m.group(0) not in q for m in _WORD_FIGURE.finditer(text)):
        return False
    # figures compared as written (digits) too: "제1200조" is an article number, not 1,200조 won
    asked = {round(n.value, 6) for n in extract_numbers(q, mask_dates=False)} | _raw_figures(q)
    for n in extract_numbers(text, mask_dates=False):
        if _DATE_PART.match(text, n.end):  # "다음 달(11월)", "2026년 9월 기준": when, not what
            continue
        if round(n.value, 6) not in asked and not _raw_figures(text[n.start : n.end]) <= asked:
            return False
    qn = normalize_name(q)
    for m in _ENTITY.finditer(text):
        if _GENERIC_PLACE.fullmatch(m.group(0)):
            continue
        name = m.group(1) or m.group(2) or m.group(3) or m.group(0)
        if normalize_name(name).lower() not in qn.lower():
            return False
    return True


def _raw_figures(text: str) -> set[float]:
    return {
        round(float(x.replace(",", "")), 6)
        for x in re.findall(r"\d[\d,]*(?:\.\d+)?", text)
        if x.replace(",", "")
    }


def refusal_score(answer: str, question: str | None = None, shown: str | None = None) -> float:
    return 1.0 if is_refusal(answer, question, shown) else 0.0
