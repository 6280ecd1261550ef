"""An answer split into units: the structured final-answer section's lines and the free-text sentences around it."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from kopa_inspect.matching.raw_dump import is_raw_dump

# The answer format, declared once: the solver's prompt asks for this header, the oracle writes it, and
# the matcher reads the section under it (``_HEADER`` also takes the forms models write: "**최종 답변:**").
ANSWER_HEADER_KO = "[최종 답변]"
ANSWER_HEADER_EN = "[Final answer]"
_HEADER = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*)?\s*[\[【]?\s*(?:최종\s*답변|final\s*answer)\s*[\]】]?\s*(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s*(?P<label>[^:：\n]+?)\s*[:：]\s*(?P<value>.*?)\s*$")


@dataclass
class AnswerView:
    """An answer read once: its text, structured lines, sentences and clauses."""

    text: str
    dump: bool
    lines: list[tuple[str, str]] = field(default_factory=list)  # (label, value) of the section
    sentences: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)  # free-text clauses outside the section
    # the same clauses grouped by free-text sentence (a claim may continue as a list: "A, B, C입니다")
    clause_groups: list[list[str]] = field(default_factory=list)


_SUB_BULLET = re.compile(r"^(?:\s{2,}|\t+)(?:[-*•·]|\d+[.)])\s")


def parse_answer(answer: str) -> AnswerView:
    text = unicodedata.normalize("NFKC", answer or "")
    lines: list[tuple[str, str]] = []
    rest: list[str] = []
    in_section = False
    for raw in text.splitlines():
        if _HEADER.match(raw):
            in_section = True
            continue
        m = _BULLET.match(raw) if in_section else None
        if m:
            lines.append((m.group("label").strip("* "), m.group("value").strip("* ")))
            continue
        if in_section and raw.strip() and lines:
            in_section = False
        rest.append(raw)
    free = "\n".join(rest)
    # a structured line is one unit however long its value (a law text has many sentences)
    sentences = [f"{label}: {value}" for label, value in lines]
    sentences += [s.strip() for s in re.split(r"(?<=[.!?。])\s+|\n+|;", free) if s and s.strip()]
    clauses = [c.strip() for c in re.split(r"(?<=[.!?。])\s+|\n+|;|,(?!\d{3})", free) if c and c.strip()]
    # an item with indented sub-bullets ("1. 기장 먹거리축제" then "   - 주소: …") is one unit too: the
    # sub-bullets speak of the item named above them
    blocks: list[list[str]] = []
    for raw in rest:
        if _SUB_BULLET.match(raw) and blocks:
            blocks[-1].append(raw.strip())
        elif raw.strip():
            blocks.append([raw.strip()])
    sentences += [" ".join(b) for b in blocks if len(b) > 1]
    groups = [
        [c.strip() for c in re.split(r",(?!\d{3})", sent) if c.strip()]
        for sent in re.split(r"(?<=[.!?。])\s+|\n+|;", free)
        if sent and sent.strip()
    ]
    return AnswerView(text, is_raw_dump(text), lines, sentences, clauses, groups)
