"""Zero said in words ("없습니다", "none") answers a count of 0; "no information" does not."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView
from kopa_inspect.matching.fact_fields import _get
from kopa_inspect.matching.lexicon import TOPIC_PARTICLES_KO, alternation
from kopa_inspect.matching.numbers import extract_numbers, to_number
from kopa_inspect.matching.refusal import _DECLINE, _raw_figures

# "None" said in words answers a count of 0 ("숙소가 없습니다", "there are no lodgings"). UNCERTAIN:
# a word list. A decline ("확인할 수 없습니다") is not "none".
_NONE = re.compile(
    r"없(?:습니다|어요|음|다|고|으며|네요|는|었|군요|던)|하나도|전혀|\bnone\b|\bno\s+[a-z]+|\bzero\b|\bnot\s+any\b",
    re.IGNORECASE,
)


def _zero_fact(matcher: str, values: Sequence[Any]) -> bool:
    return matcher in ("number", "money") and any(
        not isinstance(v, list) and to_number(v) == 0 for v in values
    )


# "No information" is not "none": the model found nothing, it did not find zero.
_NO_INFO = re.compile(
    rf"(?:정보|자료|데이터|결과|내역|기록|수치|값)\s*(?:{alternation((*TOPIC_PARTICLES_KO, '도'))})?\s*(?:아직|전혀|현재|따로)?\s*없"
    r"|\bno\s+(?:\w+\s+)?(?:information|data|records?|results?|figures?)\b|\bnot\s+(?:available|found|provided)\b",
    re.IGNORECASE,
)


def _says_none(unit: str, question: str | None) -> bool:
    """A unit that says "none" and states no figure of its own (the question's may be repeated)."""
    if not _NONE.search(unit) or _DECLINE.search(unit) or _NO_INFO.search(unit):
        return False
    return not _own_figures(unit, question)


def _own_figures(unit: str, question: str | None) -> list[float]:
    q = unicodedata.normalize("NFKC", question or "")
    asked = {round(n.value, 6) for n in extract_numbers(q, mask_dates=False)} | _raw_figures(q)
    return [n.value for n in extract_numbers(unit) if round(n.value, 6) not in asked and n.value != 0]


def _zero_in_words(fact: Any, view: AnswerView, question: str | None) -> float:
    """A fact without a subject whose value is 0, said as "none": a unit (structured line, free-text
    clause) that names the fact's topic (a word of its description) and says none with no figure
    of its own holds it, unless another unit on that topic states a figure (then the figure is the
    answer, and it is not 0)."""
    topic = [w for w in re.findall(r"[가-힣]{2,}|[A-Za-z]{4,}", str(_get(fact, "description", "") or ""))]
    if not topic:
        return 0.0
    units = [
        u
        for u in dict.fromkeys([*view.sentences, *view.clauses])
        if any(w.lower() in u.lower() for w in topic)
    ]
    if any(_own_figures(u, question) for u in units):
        return 0.0
    return 1.0 if any(_says_none(u, question) for u in units) else 0.0
