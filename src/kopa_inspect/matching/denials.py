"""Figures that are not stated: a range or bound ("197~394건", "at least 197") and a denied value ("197건이 아닙니다")."""

from __future__ import annotations

import re
import unicodedata

from kopa_inspect.matching.lexicon import SCALE_WORDS_KO, alternation

# A range or a bound states no figure: "197~394건", "98.5에서 197 사이", "197건 이상", "at least 197".
# UNCERTAIN: word lists. "약 3분" (an approximation) is a figure; "10명 이상이어서" beside 832 leaves 832.
_FIG = rf"[-−]?\d[\d,]*(?:\.\d+)?(?:\s*(?:{alternation(SCALE_WORDS_KO)}))*"
_FIG_UNIT = r"\s*[가-힣A-Za-z%℃°㎍㎥/]{0,4}"
_RANGE = re.compile(
    rf"{_FIG}{_FIG_UNIT}\s*[~∼〜]\s*{_FIG}"
    rf"|{_FIG}{_FIG_UNIT}\s*(?:에서|부터)\s*{_FIG}{_FIG_UNIT}\s*(?:사이|까지)"
    rf"|{_FIG}{_FIG_UNIT}\s*(?:와|과|및)\s*{_FIG}{_FIG_UNIT}\s*사이"
    rf"|{_FIG}\s*[가-힣%℃°㎍㎥/]{{0,3}}?\s*(?:이상|이하|미만|초과|넘게|넘는|남짓)"
    rf"|\bbetween\s+{_FIG}\S*\s+and\s+{_FIG}|\bfrom\s+{_FIG}\S*\s+to\s+{_FIG}"
    rf"|\b(?:at\s+least|at\s+most|more\s+than|less\s+than|fewer\s+than|over|under|up\s+to)\s+{_FIG}",
    re.IGNORECASE,
)


def _mask_ranges(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return _RANGE.sub(lambda m: " " * len(m.group(0)), text)


# A value denied is not stated: "197건이 아닙니다", "서울 중구 다동길 5가 아닙니다", "33억 7,000만 원이 아닙니다",
# "is not 197" (the figures and the word before the negation blanked); "150건이 아니라 197건" leaves 197.
# Read so only for facts without competitors or bound to a subject (a which-one fact has its own denial
# rules).
_DENIED_KO = re.compile(
    rf"(?:{_FIG}\s+)*\S+(?<!뿐만)(?<!뿐)(?=\s*(?:아닙|아닌|아니(?!면)))"
)  # "A뿐만 아니라 B": A holds
_DENIED_EN = re.compile(
    r"\b(?:is|was|are|were)\s+not\s+([^.,;:()\n]+)|\b(?:isn't|wasn't|aren't|weren't)\s+([^.,;:()\n]+)",
    re.IGNORECASE,
)  # not past a bracket: a label's gloss ("the 구's own row is not one")


def undenied(text: str) -> str:
    """``text`` with every denied value blanked (same length)."""
    text = _DENIED_KO.sub(lambda m: " " * len(m.group(0)), unicodedata.normalize("NFKC", text or ""))

    def blank(m: re.Match[str]) -> str:
        g = 1 if m.group(1) is not None else 2
        a, b = m.start(g) - m.start(), m.end(g) - m.start()
        return m.group(0)[:a] + " " * (b - a) + m.group(0)[b:]

    return _DENIED_EN.sub(blank, text)
