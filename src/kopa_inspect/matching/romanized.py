"""Korean names as an English answer writes them: Revised Romanization and the usual glosses.

An answer to the English gloss names places and things in Latin letters ("Jongno-gu", "U-dong",
"Haeundae Beach", "Dongmun Market", "Seoul"). Each name of the task gets its romanized forms
(with and without the sound changes RR writes, "Jongno" and "Jongro"; a kind word glossed,
"해수욕장" as "Beach"), and the answer's Latin words that spell one of them, from a word's start to
a word's end, are read as that name. A form two of the task's names share names neither.

The romanization is the Revised Romanization of Korean (2000) with its common sound changes
(liaison, nasalization, ㄹ after ㄴ/ㅇ/ㅁ); UNCERTAIN: a transcription, not a dictionary, so
spellings fixed by use ("Samsung" for 삼성) and translated names ("World Cup Stadium") are not
found, and the kind glossary is a word list.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from kopa_inspect.matching.names import normalize_name, short_forms

_INITIALS = (
    "g",
    "kk",
    "n",
    "d",
    "tt",
    "r",
    "m",
    "b",
    "pp",
    "s",
    "ss",
    "",
    "j",
    "jj",
    "ch",
    "k",
    "t",
    "p",
    "h",
)
_MEDIALS = (
    "a",
    "ae",
    "ya",
    "yae",
    "eo",
    "e",
    "yeo",
    "ye",
    "o",
    "wa",
    "wae",
    "oe",
    "yo",
    "u",
    "wo",
    "we",
    "wi",
    "yu",
    "eu",
    "ui",
    "i",
)
# the final consonant before a pause, and before a vowel (carried over to the next syllable)
_FINALS = (
    "",
    "k",
    "k",
    "k",
    "n",
    "n",
    "n",
    "t",
    "l",
    "k",
    "m",
    "l",
    "l",
    "l",
    "p",
    "l",
    "m",
    "p",
    "p",
    "t",
    "t",
    "ng",
    "t",
    "t",
    "k",
    "t",
    "p",
    "t",
)
_LIAISON = (
    "",
    "g",
    "kk",
    "ks",
    "n",
    "nj",
    "n",
    "d",
    "r",
    "lg",
    "lm",
    "lb",
    "ls",
    "lt",
    "lp",
    "r",
    "m",
    "b",
    "bs",
    "s",
    "ss",
    "ng",
    "j",
    "ch",
    "k",
    "t",
    "p",
    "",
)
_NASAL = {"k": "ng", "t": "n", "p": "m"}  # before ㄴ/ㅁ: 국민 gungmin, 십만 simman

# kind words and how an English answer says them (letters only, lower case)
KIND_GLOSSES: dict[str, tuple[str, ...]] = {
    "해수욕장": ("beach",),
    "시장": ("market",),
    "역": ("station",),
    # a school said as people say it: "Maetan High", "Daechi Elementary"
    "고등학교": ("highschool", "high"),
    "중학교": ("middleschool", "middle"),
    "초등학교": ("elementaryschool", "elementary"),
    "대학교": ("university",),
    "병원": ("hospital",),
    "공원": ("park",),
    "경기장": ("stadium",),
    "터미널": ("terminal",),
    "궁": ("palace",),
    "구": ("gu", "district"),
    "동": ("dong",),
    "시": ("si", "city"),
    "군": ("gun", "county"),
    "도": ("do", "province"),
    "읍": ("eup",),
    "면": ("myeon",),
    "전자": ("electronics",),
}
# names whose English form is fixed by use, not by romanization (parties, companies, landmarks in
# the benchmark's world); letters only, lower case. UNCERTAIN: a word list.
ENGLISH_NAMES: dict[str, tuple[str, ...]] = {
    "더불어민주당": ("democraticparty", "democraticpartyofkorea", "democrats", "democratic"),
    "국민의힘": ("peoplepowerparty", "ppp"),
    "자유한국당": ("libertykoreaparty",),
    "미래통합당": ("unitedfutureparty",),
    "새누리당": ("saenuriparty",),
    "정의당": ("justiceparty",),
    "조국혁신당": ("rebuildingkoreaparty",),
    "진보당": ("progressiveparty",),
    "개혁신당": ("reformparty",),
    "기본소득당": ("basicincomeparty",),
    "국민의당": ("peopleparty",),
    "바른미래당": ("bareunmiraeparty",),
    "무소속": ("independent",),
    "삼성전자": ("samsungelectronics", "samsung"),
    "현대자동차": ("hyundaimotor", "hyundaimotorcompany", "hyundai"),
    "네이버": ("naver",),
    "카카오": ("kakao",),
    "엘지전자": ("lgelectronics",),
    "LG전자": ("lgelectronics",),
    "SK하이닉스": ("skhynix",),
    "충남대학교": ("chungnamnationaluniversity",),
    "수원월드컵경기장": ("suwonworldcupstadium",),
}
_MIN_LETTERS = 4
# how near (characters, within the sentence) a Hangul name makes a Latin one its gloss
_GLOSS_REACH = 40  # a shorter form ("U" of 우동 without its kind) is too common a spelling to be a name


def _syllables(word: str) -> list[tuple[int, int, int] | str]:
    out: list[tuple[int, int, int] | str] = []
    for ch in word:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            out.append((code // 588, (code % 588) // 28, code % 28))
        else:
            out.append(ch)
    return out


def romanize(word: str, sound_changes: bool = True) -> str:
    """``word`` in Revised Romanization, letters only, lower case (non-Hangul characters dropped)."""
    parts = _syllables(unicodedata.normalize("NFC", word))
    out: list[str] = []
    for k, part in enumerate(parts):
        if isinstance(part, str):
            out.append(part.lower() if part.isascii() and part.isalnum() else "")
            continue
        cho, jung, jong = part
        nxt = parts[k + 1] if k + 1 < len(parts) and not isinstance(parts[k + 1], str) else None
        initial = _INITIALS[cho]
        if sound_changes and k > 0 and not isinstance(parts[k - 1], str):
            prev_final = parts[k - 1][2]
            if cho == 5 and prev_final in (4, 21, 16, 1):  # ㄹ after ㄴ ㅇ ㅁ ㄱ: n (ㄴ+ㄹ is ll, below)
                initial = "l" if prev_final == 4 else "n"
            elif cho == 5 and prev_final == 8:  # ㄹㄹ
                initial = "l"
            elif cho == 11 and prev_final:  # ㅇ: the final is carried over (set on the previous syllable)
                initial = ""
        final = _FINALS[jong]
        if sound_changes and nxt is not None and jong:
            ncho = nxt[0]
            if ncho == 11:  # liaison: 한국어 hangugeo
                final = _LIAISON[jong]
            elif ncho in (2, 6) and final in _NASAL:  # nasalization before ㄴ ㅁ
                final = _NASAL[final]
            elif ncho == 5 and jong == 4:  # ㄴ+ㄹ: ll (신라 Silla)
                final = "l"
            elif ncho == 5 and final in _NASAL:  # ㄱ/ㅂ+ㄹ: ng/m + n (백리 baengni)
                final = _NASAL[final]
        out.append(initial + _MEDIALS[jung] + final)
    return "".join(out)


def romanized_forms(name: str) -> set[str]:
    """The Latin spellings of ``name`` and of its short forms: romanized with and without sound
    changes; a trailing kind word glossed ("해운대해수욕장" -> haeundaebeach) or dropped where the
    rest is long enough ("종로구" -> jongno)."""
    out: set[str] = set()
    words = unicodedata.normalize("NFKC", name).split()
    # "서울특별시 종로구" is said "Jongno-gu": the last word of a place's full name is one of its forms
    bases = {name, *short_forms(name), *([words[-1]] if len(words) > 1 and len(words[-1]) >= 2 else [])}
    for base in bases:
        word = re.sub(r"\s+", "", unicodedata.normalize("NFKC", base))
        out.update(ENGLISH_NAMES.get(word, ()))
        if not re.search(r"[가-힣]", word):
            continue
        for changes in (True, False):
            out.add(romanize(word, changes))
            for kind, glosses in KIND_GLOSSES.items():
                stem = word[: -len(kind)]
                if word.endswith(kind) and len(stem) >= 1:
                    roman = romanize(stem, changes)
                    out.update(roman + g for g in glosses)
                    out.update(romanize(word, changes) + g for g in glosses)  # "Gyeongbokgung Palace"
                    if len(roman) >= _MIN_LETTERS and kind in ("구", "동", "시", "군", "도", "시장", "궁"):
                        out.add(roman)
    return {f for f in out if len(f) >= _MIN_LETTERS or f in ENGLISH_NAMES.get(name, ())}


def expand_romanized(text: str, names: Iterable[str]) -> str:
    """``text`` with every run of Latin words that spells one of ``names``' romanized forms (from a
    word's start to a word's end; hyphens, spaces and apostrophes between) replaced by the name.
    A form two names share is left as written; one with the name also written in Hangul close by in
    its sentence ("Seoul (서울) 8", "Suwon, Yongin: 수원시, 용인시 …", "NAVER 또는 네이버") glosses it and is
    left as written, so the name is read once."""
    if not re.search(r"[A-Za-z]", text):
        return text
    owners: dict[str, set[str]] = {}
    for n in dict.fromkeys(n for n in names if isinstance(n, str) and re.search(r"[가-힣]", n)):
        for form in romanized_forms(n):
            owners.setdefault(form, set()).add(n)
    forms = {f: next(iter(o)) for f, o in owners.items() if len(o) == 1}
    if not forms:
        return text
    # the letters of the text, lower case, with the position each came from and where words start/end
    letters: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii() and ch.isalpha():
            letters.append(ch.lower())
            where.append(i)
    flat = "".join(letters)

    def boundary_before(k: int) -> bool:
        return (
            k == 0
            or not (text[where[k] - 1].isascii() and text[where[k] - 1].isalpha())
            and (where[k - 1] < where[k] - 1)
        )

    def boundary_after(k: int) -> bool:  # k: index of the last letter
        end = where[k] + 1
        return end >= len(text) or not (text[end].isascii() and text[end].isalnum())

    spans: list[tuple[int, int, str]] = []
    for form, name in sorted(forms.items(), key=lambda kv: -len(kv[0])):
        start = flat.find(form)
        while start >= 0:
            last = start + len(form) - 1
            joined = text[where[start] : where[last] + 1]
            if (
                boundary_before(start)
                and boundary_after(last)
                and re.fullmatch(r"[A-Za-z'’\- ]+", joined)
                and not any(a <= where[last] and where[start] < b for a, b, _ in spans)
            ):
                spans.append((where[start], where[last] + 1, name))
            start = flat.find(form, start + 1)
    out = text
    for a, b, name in sorted(spans, reverse=True):
        start = max(text.rfind(c, 0, a) for c in ".!?\n") + 1
        ends = [i for i in (text.find(c, b) for c in ".!?\n") if i >= 0]
        near = normalize_name(text[max(start, a - _GLOSS_REACH) : min([*ends, len(text), b + _GLOSS_REACH])])
        glossed = any(
            f and f in near for f in {normalize_name(name), *map(normalize_name, short_forms(name))}
        )
        if not glossed:
            out = out[:a] + name + out[b:]
    return out
