"""Names: normalization, the usual short forms (서울 for 서울특별시, 매탄고), identifiers in their standard formats, and the name, set, dish and exact matchers."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from kopa_inspect.matching.dates import date_score, to_date
from kopa_inspect.matching.lexicon import OFFICE_WORDS, PARTICLES, alternation

# Full sido names -> the short forms used in speech and by AirKorea/TourAPI.
_SIDO_SHORT: dict[str, str] = {
    "서울특별시": "서울",
    "부산광역시": "부산",
    "대구광역시": "대구",
    "인천광역시": "인천",
    "광주광역시": "광주",
    "대전광역시": "대전",
    "울산광역시": "울산",
    "세종특별자치시": "세종",
    "경기도": "경기",
    "강원특별자치도": "강원",
    "강원도": "강원",
    "충청북도": "충북",
    "충청남도": "충남",
    "전북특별자치도": "전북",
    "전라북도": "전북",
    "전라남도": "전남",
    "경상북도": "경북",
    "경상남도": "경남",
    "제주특별자치도": "제주",
    "제주도": "제주",
}
_SIDO_SHORT_LONGEST_FIRST = sorted(_SIDO_SHORT.items(), key=lambda kv: -len(kv[0]))
_CITY_SUFFIX = re.compile(r"(서울|부산|대구|인천|광주|대전|울산|세종)(특별시|광역시|특별자치시|시)")
_TAG = re.compile(r"</?[a-z][a-z0-9]*\s*/?>")
_PUNCT = re.compile(r"[\s\-_·.,:;!?'\"“”‘’()\[\]{}<>/]+")


def normalize_name(text: Any) -> str:
    """Spaces, punctuation and case dropped; sido names shortened (서울특별시 -> 서울)."""
    return _normalized(str(text))


# Grading normalizes the same few thousand names of a task's rows hundreds of thousands of times (the
# row aliases of a gold truth): a pure function of its text, cached.
@lru_cache(maxsize=65536)
def _normalized(text: str) -> str:
    s = unicodedata.normalize("NFKC", text).lower()
    s = _TAG.sub(" ", s)  # HTML in API texts (<br/>, <p>) is formatting, not content
    for full, short in _SIDO_SHORT_LONGEST_FIRST:
        s = s.replace(full, short)
    s = _CITY_SUFFIX.sub(r"\1", s)
    return _PUNCT.sub("", s)


_NUMERIC = re.compile(r"[-+]?[\d,]*\d(?:\.\d+)?")

# The usual short forms of a name: schools by their first syllable of kind ("매탄고등학교" -> "매탄고", "영통중",
# "매탄초", "경기여고", "서울대"), a company without 주식회사/(주), a sido by its short name ("서울특별시 강남구" ->
# "서울 강남구"), a city, county or district without 시/군/구 ("수원시" -> "수원", "서울특별시 강남구" -> "강남").
# A district's 구 is dropped only where the name is a place for sure: after its city ("서울특별시 강남구",
# "수원시 영통구"), or, alone, with a stem of three syllables or more ("부산진구") or the short form the
# question itself uses ("서울 종로·노원·은평 …"); "김민구" may be a person. UNCERTAIN: a suffix list.
_SCHOOL_SHORT = (
    ("여자고등학교", "여고"),
    ("고등학교", "고"),
    ("여자중학교", "여중"),
    ("중학교", "중"),
    ("초등학교", "초"),
    ("대학교", "대"),
)
_COMPANY = re.compile(r"\(\s*주\s*\)|㈜|주식회사")
_REGION_TAIL = re.compile(r"^([가-힣]{2,})(?<!특별|광역|자치)(?:시|군)$")
_DISTRICT_TAIL = re.compile(r"^([가-힣]{2,})구$")
_CITY_WORD = re.compile(r"[가-힣]+(?:특별시|광역시|특별자치시|특별자치도|도|시)$")


# Short forms people use that no rule derives (accepted variants as data).
_USUAL_SHORT: dict[str, tuple[str, ...]] = {
    "현대자동차": ("현대차",),
    "기아자동차": ("기아",),
    "엘지전자": ("LG전자",),
}


def short_forms(name: Any, question: str | None = None) -> list[str]:
    """The usual short forms of ``name`` (itself excluded), each at least two characters normalized;
    ``question``: the user's question, whose own short forms of the name count too."""
    n = " ".join(unicodedata.normalize("NFKC", str(name)).split())
    bases = {n}
    company = " ".join(_COMPANY.sub(" ", n).split())
    if company and company != n:
        bases.add(company)
    for b in list(bases):
        for full, short in _SIDO_SHORT.items():
            if re.search(rf"{full}(?=\s|$)", b):
                bases.add(re.sub(rf"{full}(?=\s|$)", short, b))
    out = set(bases)
    for b in bases:
        words = b.split()
        last = words[-1] if words else ""
        for full, short in _SCHOOL_SHORT:
            if last.endswith(full) and len(last) - len(full) >= 2:
                out.add(" ".join([*words[:-1], last[: -len(full)] + short]))
                break
        region = _REGION_TAIL.match(last)
        if region:
            out.add(" ".join([*words[:-1], region.group(1)]))
        district = _DISTRICT_TAIL.match(last)
        if district and (
            (len(words) > 1 and _CITY_WORD.fullmatch(words[-2]))
            or len(district.group(1)) >= 3
            or (question and re.search(rf"(?<![가-힣]){district.group(1)}(?!구)", question))
        ):
            out.add(district.group(1))
    out.update(_USUAL_SHORT.get(n, ()))
    if question:
        # the question's own gloss pairs a name with its other form: "네이버(NAVER)", "NAVER(네이버)"
        for m in re.finditer(rf"([가-힣A-Za-z0-9]{{2,}})\s*\(\s*{re.escape(n)}\s*\)", question):
            out.add(m.group(1))
        for m in re.finditer(
            rf"(?<![가-힣A-Za-z0-9]){re.escape(n)}\s*\(\s*([가-힣A-Za-z0-9]{{2,}})\s*\)", question
        ):
            out.add(m.group(1))
    out.discard(n)
    return sorted(f for f in out if len(normalize_name(f)) >= 2)


# A short form is a word of its own: a particle or ending may follow, no other syllable ("매탄고개",
# "수원도서관" name other things), except the place's own offices ("대전시장", "경기도지사", "서울시교육청").
# the particles and endings that may follow a word, as one group (longest first, so "에서" before "에")
PARTICLE_RUN = rf"(?:{alternation(sorted(PARTICLES, key=len, reverse=True))}){{0,3}}"
_SHORT_TAIL = rf"(?=(?:{alternation(OFFICE_WORDS)})?{PARTICLE_RUN}(?![가-힣]))"


def expand_short_names(text: str, names: Iterable[Any], question: str | None = None) -> str:
    """``text`` with each short form (:func:`short_forms`) of the task's ``names`` replaced by the name,
    where no other name of the task has that form (or is normalized to it): "매탄고가" -> "매탄고등학교가".
    A form shared by two names ("광주" of 광주광역시 and 광주시) is left as said: it names neither."""
    full = list(
        dict.fromkeys(
            " ".join(unicodedata.normalize("NFKC", str(n)).split())
            for n in names
            if isinstance(n, str) and n.strip()
        )
    )
    owners: dict[str, set[str]] = {}
    for n in full:
        owners.setdefault(normalize_name(n), set()).add(n)
        for f in short_forms(n, question):
            owners.setdefault(normalize_name(f), set()).add(n)
    forms = [(f, n) for n in full for f in short_forms(n, question) if owners[normalize_name(f)] == {n}]
    if not forms:
        return text
    text = unicodedata.normalize("NFKC", text)
    taken = [(a, b) for _, a, b in _spans(full, text)]
    repl: list[tuple[int, int, str]] = []
    for f, n in sorted(forms, key=lambda x: -len(normalize_name(x[0]))):
        pat = re.compile(r"(?<![가-힣A-Za-z0-9])" + _name_pattern(f).pattern + _SHORT_TAIL, re.IGNORECASE)
        for m in pat.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append(m.span())
            repl.append((m.start(), m.end(), n))
    for a, b, n in sorted(repl, reverse=True):
        text = text[:a] + n + text[b:]
    return text


def _token_present(value: str, answer: str) -> bool:
    """``value`` as a whole token: not glued to ASCII letters/digits ("0" is not in "10" or "PM10")."""
    v = re.sub(r"\s+", r"\\s*", re.escape(value.strip()))
    return bool(
        re.search(rf"(?<![0-9A-Za-z.]){v}(?![0-9A-Za-z]|\.\d)", unicodedata.normalize("NFKC", answer), re.I)
    )


# A web address, said with or without its scheme, "www." or a closing slash ("hyehwa-h.b10.kr" for
# "https://hyehwa-h.b10.kr"); compared whole, so a longer host or another path is another address.
_WEB_ADDRESS = re.compile(
    r"(?:https?://)?(?:www\.)?((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::\d+)?(?:/[^\s<>\"')\]]*)?)", re.IGNORECASE
)


def _web_address(text: str) -> str | None:
    m = _WEB_ADDRESS.fullmatch(text.strip())
    return m.group(1).rstrip("/.").lower() if m and ("/" in text or "." in text) else None


def web_address_score(expected: str, answer: str) -> float:
    want = _web_address(expected)
    said = {m.group(1).rstrip("/.,").lower() for m in _WEB_ADDRESS.finditer(answer)}
    return 1.0 if want is not None and want in said else 0.0


_PERSON = re.compile(r"[가-힣]{2,4}")


def accepted_variants(text: Any) -> list[str]:
    """The forms a value with accepted variants may be said in ("2026년|2026|올해", "술|음주|alcohol"),
    first the one to write; a value without "|" is its own single form."""
    return [part.strip() for part in str(text or "").split("|") if part.strip()]


def name_score(expected: Any, answer: str) -> float:
    text = str(expected).strip()
    if re.match(r"(?:https?://|www\.)", text, re.IGNORECASE) and _web_address(text):
        return web_address_score(text, answer)
    if re.search(r"<br\s*/?>", text, re.I):  # a NEIS menu given to the name matcher: dish by dish
        return 1.0 if dish_set_score(text, answer) >= 1.0 else 0.0
    if _NUMERIC.fullmatch(text) or (len(text) <= 3 and re.fullmatch(r"[0-9A-Za-z-]+", text)):
        # numbers, route numbers and short codes: as tokens, never inside other figures
        return 1.0 if _token_present(text, answer) else 0.0
    # several people in one field ("전영현, 노태문": a company's CEOs): each said, in any order or join
    people = [p.strip() for p in text.split(",")]
    if len(people) > 1 and all(_PERSON.fullmatch(p) for p in people):
        return 1.0 if all(normalize_name(p) in normalize_name(answer) for p in people) else 0.0
    want = normalize_name(expected)
    if not want:
        return 0.0
    return 1.0 if want in normalize_name(answer) else 0.0


def _items_of(expected: Any) -> list[str]:
    if isinstance(expected, str):
        items: list[Any] = [p for p in re.split(r"[,\n]", expected) if p.strip()]
    elif isinstance(expected, Iterable):
        items = list(expected)
    else:
        items = [expected]
    return list(dict.fromkeys(str(x) for x in items if x is not None and str(x).strip()))


def ranked_set_score(expected: Any, answer: str) -> float:
    """A set asked in its order ("가까운 순 세 곳"): every item said, each first said in that order; the
    right items in another order state a wrong ranking (0)."""
    items = _items_of(expected)
    found = set_score(items, answer)
    if found < 1.0:
        return found
    text = normalize_name(answer)
    firsts = [text.find(normalize_name(item)) for item in items]
    return 1.0 if all(a < b for a, b in zip(firsts, firsts[1:], strict=False)) else 0.0


def set_score(expected: Any, answer: str) -> float:
    items = _items_of(expected)
    if not items:
        return 0.0
    return sum(name_score(item, answer) for item in items) / len(items)


_ALLERGY = re.compile(r"\s*[(\[]?\s*\d+(?:\s*\.\s*\d+)*\s*\.?\s*[)\]]?\s*$")


def dishes(menu: Any) -> list[str]:
    """A NEIS DDISH_NM ("김치찌개(5.9.13.)<br/>쌀밥") or a list to clean dish names."""
    parts = menu if isinstance(menu, list | tuple) else re.split(r"<br\s*/?>|\n|,", str(menu))
    out = []
    for p in parts:
        name = re.sub(r"[*#@ⓢ]+", "", str(p)).strip()
        name = _ALLERGY.sub("", name).strip()
        if name:
            out.append(name)
    return list(dict.fromkeys(out))


def dish_set_score(expected: Any, answer: str) -> float:
    items = dishes(expected)
    if not items:
        return 0.0
    norm = normalize_name(re.sub(r"\(\s*[\d.\s]+\)", " ", answer))
    return sum(1 for d in items if normalize_name(d) in norm) / len(items)


def key_facts_score(keys: Sequence[Any] | None, expected: Any, answer: str) -> float:
    if not keys:
        return name_score(expected, answer)
    wanted = [str(k) for k in keys if str(k).strip()]
    if not wanted:
        return 0.0
    # a key "술|음주|alcohol" holds when any of its forms is said (accepted variants as data)
    return sum(max(name_score(form, answer) for form in accepted_variants(k)) for k in wanted) / len(wanted)


def exact_score(expected: Any, answer: str) -> float:
    want = re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(expected))).lower()
    if not want:
        return 0.0
    # spaces inside are free ("105 88" for "10588"); the text's own spaces still end a token ("is 105")
    text = unicodedata.normalize("NFKC", answer).lower()
    body = r"\s*".join(re.escape(c) for c in want)
    head = r"(?<![0-9a-z.])" if want[0].isascii() and want[0].isalnum() else ""
    tail = r"(?![0-9a-z])" if want[-1].isascii() and want[-1].isalnum() else ""
    if re.search(head + body + tail, text):
        return 1.0
    if _date_like(expected):
        return date_score(expected, answer)
    return 0.0


# Identifiers in their standard written forms: a number of 7 digits or more (business registration,
# phone, item codes) written with or without hyphens, dots or spaces between its digits ("105-88-52441" ==
# "1058852441", "02)123-4567"); a date value also in any date form (see :func:`date_score`).
_ID_VALUE = re.compile(r"[\d\s\-.()]+")


def _id_digits(value: Any) -> str | None:
    raw = unicodedata.normalize("NFKC", str(value)).strip()
    digits = re.sub(r"\D", "", raw)
    return digits if _ID_VALUE.fullmatch(raw) and len(digits) >= 7 else None


def _date_like(value: Any) -> bool:
    raw = unicodedata.normalize("NFKC", str(value)).strip()
    return bool(re.fullmatch(r"(?:19|20)\d{2}(?:\d{4}|[-.]\d{2}[-.]\d{2})", raw)) and to_date(raw) is not None


def expand_identifiers(text: str, values: Iterable[Any]) -> str:
    """``text`` with each written form of an identifier value (:func:`_id_digits`) replaced by the value as
    the API writes it, so hedges and denials read it like any other value."""
    text = unicodedata.normalize("NFKC", text)
    for value in values:
        digits = _id_digits(value)
        if not digits:
            continue
        raw = unicodedata.normalize("NFKC", str(value)).strip()
        pat = r"(?<![0-9A-Za-z])(?<!\d[-.])" + r"[ \t\-.)]{0,2}".join(digits) + r"(?![0-9A-Za-z])(?![-.]\d)"
        text = re.sub(pat, raw.replace("\\", r"\\"), text)
    return text


def _name_pattern(name: str) -> re.Pattern[str]:
    raw = [c for c in unicodedata.normalize("NFKC", str(name)) if not c.isspace()]
    body = r"\s*".join(re.escape(c) for c in raw)
    # route numbers and codes ("5", "720-1") only as tokens: "5" is not in "35초"
    if raw and raw[0].isascii() and raw[0].isalnum():
        body = r"(?<![0-9A-Za-z.])" + body
    if raw and raw[-1].isascii() and raw[-1].isalnum():
        body += r"(?![0-9A-Za-z]|\.\d)"
    return re.compile(body, re.IGNORECASE)


def _spans(names: Sequence[str], text: str) -> list[tuple[str, int, int]]:
    """(name, start, end) of each name, longest first, no overlaps."""
    out: list[tuple[str, int, int]] = []
    for name in sorted(dict.fromkeys(n for n in names if n), key=lambda n: -len(normalize_name(n))):
        for m in _name_pattern(name).finditer(text):
            if any(a < m.end() and m.start() < b for _, a, b in out):
                continue
            out.append((name, m.start(), m.end()))
    return sorted(out, key=lambda x: x[1])
