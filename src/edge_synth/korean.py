"""Korean grammar for template composition: particles chosen by 받침, values read aloud.

A Korean particle depends on whether the word before it ends in a consonant (받침): 책을 / 사과를,
서울로 / 부산으로 (ㄹ takes 로), 값이 / 나이가. Templates that write "을(를)" leave the choice to the
reader; this module makes it. Digits and Latin letters are judged by how they are read aloud
(3 = 삼 -> 을; 2 = 이 -> 를; 10 = 십 -> 을; "PM10" ends in 십; "A" = 에이 -> 를).
"""

from __future__ import annotations

import re

_HANGUL_BASE, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # jongseong index of ㄹ

# Final sound of a spelled digit (0-9), and of the place words 십 백 천 만 억.
_DIGIT_JONG = {
    "0": "ㅇ",
    "1": "ㄹ",
    "2": "",
    "3": "ㅁ",
    "4": "",
    "5": "",
    "6": "ㄱ",
    "7": "ㄹ",
    "8": "ㄹ",
    "9": "",
}
_PLACE_JONG = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ", 4: "ㄴ", 8: "ㄱ"}  # 십 백 천 만 억
# Latin letters read as Korean syllables: which end in a consonant (L = 엘, M = 엠, N = 엔, R = 알).
_LATIN_JONG = {"l": "ㄹ", "m": "ㅁ", "n": "ㄴ", "r": "ㄹ"}
# Whole English words: a crude reading by their last letters (code -> 코드, data -> 데이터).
_WORD_CONSONANT_ENDINGS = ("b", "c", "k", "l", "m", "n", "p", "t", "ng")


def final_sound(word: str) -> str | None:
    """The final consonant of ``word``'s last spoken syllable: "" for a vowel, None if unknown."""
    text = re.sub(r"[\s\)\]\"'’”.,!?·]+$", "", str(word))
    if not text:
        return None
    ch = text[-1]
    code = ord(ch)
    if _HANGUL_BASE <= code <= _HANGUL_LAST:
        jong = (code - _HANGUL_BASE) % 28
        return "" if jong == 0 else ("ㄹ" if jong == _RIEUL else "ㅇ")  # any consonant but ㄹ acts alike
    if ch.isdigit():
        m = re.search(r"(\d+)(?:\.(\d+))?$", text)
        assert m is not None
        if m.group(2):  # a decimal is read digit by digit after the point
            return _DIGIT_JONG[m.group(2)[-1]]
        digits = m.group(1).lstrip("0") or "0"
        if digits == "0":
            return _DIGIT_JONG["0"]
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros == 0:
            return _DIGIT_JONG[digits[-1]]
        if zeros >= 8:
            return _PLACE_JONG[8]
        if zeros >= 4:
            return _PLACE_JONG[4]
        return _PLACE_JONG[zeros]
    if ch.isascii() and ch.isalpha():
        m = re.search(r"[A-Za-z]+$", text)
        assert m is not None
        token = m.group(0)
        if len(token) == 1 or token.isupper():  # an acronym or a code letter: spelled out
            return _LATIN_JONG.get(token[-1].lower(), "")
        return "ㅇ" if token.lower().endswith(_WORD_CONSONANT_ENDINGS) else ""
    if ch in "%":
        return ""  # 퍼센트
    if ch in "℃":
        return ""  # 도
    return None


def _pick(word: str, with_batchim: str, without: str) -> str:
    fs = final_sound(word)
    if fs is None:
        fs = "ㅇ"  # unknown symbols: the consonant form reads acceptably more often
    return with_batchim if fs else without


def eul(word: str) -> str:
    """Object particle: 을 / 를."""
    return f"{word}{_pick(word, '을', '를')}"


def i_ga(word: str) -> str:
    """Subject particle: 이 / 가."""
    return f"{word}{_pick(word, '이', '가')}"


def eun(word: str) -> str:
    """Topic particle: 은 / 는."""
    return f"{word}{_pick(word, '은', '는')}"


def gwa(word: str) -> str:
    """'and/with': 과 / 와."""
    return f"{word}{_pick(word, '과', '와')}"


def ro(word: str) -> str:
    """Instrument/direction: 으로 / 로 (a ㄹ ending takes 로)."""
    fs = final_sound(word)
    return f"{word}{'로' if fs in ('', 'ㄹ') else '으로'}"


def ida(word: str) -> str:
    """Copula, polite declarative: 이에요 / 예요."""
    return f"{word}{_pick(word, '이에요', '예요')}"


def inde(word: str) -> str:
    """Copula, connective ('… 인데'): always 인데 after a noun, kept for symmetry."""
    return f"{word}인데"


def quote(value: object) -> str:
    """A value as a person writes it in a sentence: numbers with thousands separators stay raw
    (the answer check normalizes them), names in single quotes if they contain spaces."""
    return str(value)


def ordinal(n: int) -> str:
    """1 -> 첫 번째, 2 -> 두 번째 ..."""
    words = {
        1: "첫",
        2: "두",
        3: "세",
        4: "네",
        5: "다섯",
        6: "여섯",
        7: "일곱",
        8: "여덟",
        9: "아홉",
        10: "열",
    }
    return f"{words.get(n, str(n))} 번째"


def date_ko(yyyymmdd: str) -> str:
    """20251003 -> 2025년 10월 3일."""
    s = str(yyyymmdd)
    return f"{s[:4]}년 {int(s[4:6])}월 {int(s[6:8])}일"


def ym_ko(yyyymm: str) -> str:
    s = str(yyyymm)
    return f"{s[:4]}년 {int(s[4:6])}월"


def irase(word: str) -> str:
    """'because it is …': 이라서 / 라서."""
    return f"{word}{_pick(word, '이라서', '라서')}"
