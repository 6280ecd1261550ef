"""The word lists of the matching package, each defined once; the modules build their regexes from them.

Every list is data: a tuple of strings in the order the regexes try them (a longer word before a word
it starts with, e.g. "천만" before "만"). :func:`alternation` joins a list into a regex alternation.
Most lists hold literal words and are escaped; a list whose comment says *regex fragments* holds
small patterns (``1\\s*위``, ``\\bor\\b``) and is joined as it is (``literal=False``).
UNCERTAIN: word lists, not a parser; a form missing here is a form the matcher does not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def alternation(words: Iterable[str], literal: bool = True) -> str:
    """``words`` joined by ``|`` (no group around them); each escaped unless ``literal`` is False
    (a list of regex fragments)."""
    return "|".join(re.escape(w) if literal else w for w in words)


# --- which one: superlatives and comparatives ---

# Degree adverbs that make any predicate a superlative ("가장 높은", "제일 싼").
SUPERLATIVE_ADVERBS_KO = ("가장", "제일")
# Sino-Korean superlative words (최고 "highest", 최저 "lowest" …): a claim marker wherever they stand.
SUPERLATIVE_WORDS_KO = ("최고", "최대", "최다", "최저", "최소", "최근", "최신")
# The superlative words of time (the latest): no extreme of a measure's value.
RECENCY_WORDS_KO = ("최근", "최신")
# The superlative words of the low direction; the others of SUPERLATIVE_WORDS_KO point high.
MIN_SUPERLATIVE_WORDS_KO = ("최저", "최소")
# First rank said as a word (regex fragments: "1위" may be spaced "1 위").
FIRST_RANK_KO = (r"1\s*위", "일등", "으뜸")
# Predicate stems after 더 in a comparison ("더 많", "더 비쌉니다"); contracted forms included.
COMPARATIVE_STEMS_KO = (
    "많",
    "크",
    "큰",
    "큽",
    "높",
    "낮",
    "적",
    "작",
    "늦",
    "이르",
    "이릅",
    "빠르",
    "빠릅",
    "먼저",
    "비싸",
    "비싼",
    "비쌉",
    "싸",
    "싼",
    "쌉",
)
# Stems of COMPARATIVE_STEMS_KO that a "B보다 …" comparison is not read with (contracted forms, 먼저).
NOT_AFTER_THAN_KO = ("큽", "이릅", "빠릅", "먼저", "비쌉", "쌉")
# Stems that point high or low: the polarity of a claim or a fact's description.
MAX_STEMS_KO = ("많", "큰", "크", "큽", "높", "비싸", "비싼", "비쌉", "늦")
MIN_STEMS_KO = ("적", "작", "낮", "싼", "싸", "쌉", "이른", "이릅", "먼저")
# English superlatives and comparatives by direction: the claim markers, the polarity and the denied
# claims are built from them.
EN_MAX_WORDS = (
    "most",
    "largest",
    "highest",
    "biggest",
    "latest",
    "more",
    "higher",
    "warmest",
    "hottest",
    "busiest",
    "strongest",
    "wettest",
    "greatest",
    "longest",
    "heaviest",
)
EN_MIN_WORDS = (
    "least",
    "lowest",
    "smallest",
    "fewest",
    "cheapest",
    "earliest",
    "fewer",
    "lower",
    "coldest",
    "closest",
    "nearest",
    "weakest",
    "driest",
    "shortest",
)
# An English rank word with no direction of its own ("the top one").
EN_RANK_WORDS = ("top",)
# A runner-up said with its own rank beside the winner ("그 다음은 B", "2위 B", "followed by B"):
# regex fragments (spacing, particles and the "2등급" grade that is no rank).
RUNNER_UP_KO = (
    r"(?:그\s*)?다음(?:으로|은|는|이|가|에)",
    r"그\s*다음(?![가-힣])",
    r"그\s*뒤",
    r"뒤를\s*이",
    "뒤이어",
    "차순위",
    r"두\s*번째",
    "둘째",
    r"(?<![\d.])2\s*(?:위|등(?!급))",
)
RUNNER_UP_EN = (
    r"\bsecond\b",
    r"\brunner[- ]up\b",
    r"\bfollowed\s+by\b",
    r"\bnext\s+(?:is|was|comes|came|highest|lowest|largest|most)\b",
)

# --- hedges and alternatives ---

# The plain Korean "or" words: two values joined by one are a hedge or a list, never one pick.
DISJUNCTIONS_KO = ("또는", "혹은")
# Words that offer an alternative beside the answer ("아니면 B일 수도", "혹시 B일지도").
ALTERNATIVE_WORDS_KO = ("아니면", "혹은", "혹시")

# --- denials ---

# A predicate denied ("… 아닙니다"): the sentence-final forms of 아니다.
DENIAL_WORDS_KO = ("아닙니다", "아니에요", "아니예요", "아니다", "아님", "아니었")
# Negation stems anywhere in a clause ("아닙", "않", "없"): a statement turned around.
NEGATION_STEMS_KO = ("아닙", "아니", "않", "없")

# --- refusals ---

# Verbs in "… 수 없습니다" that decline ("확인할 수 없", "답변할 수 없").
DECLINE_VERBS_KO = (
    "할",
    "알",
    "답할",
    "답변할",
    "확인할",
    "조회할",
    "제공할",
    "찾을",
    "드릴",
    "말씀드릴",
    "얻을",
    "가져올",
    "예측할",
)
# English refusal phrases (regex fragments: spacing varies, "can not").
REFUSAL_PHRASES_EN = ("cannot", "can't", r"can\s*not", r"unable\s+to", r"not\s+able\s+to")
# A thing said not to exist or not to be found (regex fragments: spacing varies): in a refusal, a
# claim about the asked thing that only a call can back ("서울역삼초등학교는 NEIS에 등록되지 않은 학교").
ABSENCE_PREDICATES = (
    r"등록되(?:어\s*있)?지\s*않",
    r"존재하지\s*않",
    r"조회되지\s*않",
    r"검색되지\s*않",
    r"찾을\s*수\s*없",
    r"폐교",
    r"\bnot\s+(?:registered|listed|found)\b",
    r"\bdoes\s*n[o']t\s+exist\b",
    r"\bno\s+such\b",
)
# Kinds of place a name ends in ("한빛초등학교", "강남역 정류장"): an invented name in a refusal.
PLACE_KINDS_KO = (
    "초등학교",
    "중학교",
    "고등학교",
    "대학교",
    "병원",
    "의원",
    "약국",
    "아파트",
    "정류장",
    "정류소",
    "해수욕장",
)

# --- particles, copulas, units ---

# Particles and copula endings a name may carry ("강남구는", "매탄고입니다"); longest first when joined.
PARTICLES = (
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "에서",
    "에게",
    "와",
    "과",
    "도",
    "로",
    "으로",
    "만",
    "보다",
    "까지",
    "부터",
    "처럼",
    "쪽",
    "측",
    "이며",
    "이고",
    "이나",
    "나",
    "이라",
    "라",
    "인",
    "이다",
    "다",
    "입니다",
    "이에요",
    "예요",
    "였",
    "이었",
    "였고",
    "였으며",
    "였습니다",
    "이었습니다",
    "이므로",
    "이지만",
    "요",
    "랑",
    "하고",
)
# The topic and subject particles: what a clause is about ("A는", "B가").
TOPIC_PARTICLES_KO = ("은", "는", "이", "가")
# Offices named after a place ("서울시장", "경기도교육청"): said after a short name, they still name it.
OFFICE_WORDS = (
    "시장",
    "도지사",
    "지사",
    "시교육감",
    "도교육감",
    "교육감",
    "시교육청",
    "도교육청",
    "교육청",
    "시청",
    "도청",
    "구청장",
    "구청",
    "군수",
    "군청",
)
# The copula in its statement forms ("… 입니다"): ends a stated value.
COPULAS_KO = ("입니다", "이에요", "예요", "이다", "였습니다", "이었습니다")
# Counters of things (건 trades, 명 people, 개 items, 곳 places): a figure with one is a count, no date.
COUNT_UNITS_KO = ("건", "명", "개", "곳")
# Korean scale words after a figure ("8억 2,500만"); 천만/백만 before 만/천, so the longer is read.
SCALE_WORDS_KO = ("조", "억", "천만", "백만", "만", "천")

# --- time ---

# Parts of the day before a clock time ("오후 3시").
DAY_PARTS_KO = ("오전", "오후", "새벽", "아침", "낮", "저녁", "밤")
# Clock times said as words: midnight and noon.
CLOCK_WORDS_KO = ("자정", "정오")

# --- measures ---

# Words of a fact's description that name no measure (articles, rank and comparison words, "값",
# "목록"): dropped before the measure a description asks for is read. Superlatives are added from
# their own lists in :mod:`.measures`.
MEASURE_STOP_WORDS = (
    "더",
    "그",
    "이",
    "저",
    "중",
    "및",
    "또는",
    "이름",
    "쪽",
    "곳",
    "것",
    "값",
    "목록",
    "종류",
    "해당",
    "기준",
    "전체",
    "모든",
    "같은",
    "날",
    "때",
    "큰",
    "크기",
    "많은",
    "많이",
    "높은",
    "낮은",
    "작은",
    "적은",
    "비싼",
    "비싸게",
    "싼",
    "싸게",
    "늦게",
    "늦은",
    "이른",
    "일찍",
    "빠른",
    "빨리",
    "먼저",
    "끝나는",
    "시작하는",
)
