"""Binding a value to its subject: the stretch of the answer that speaks of one subject, per-group lists ("각각"), shared values."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView
from kopa_inspect.matching.lexicon import COPULAS_KO, OFFICE_WORDS, TOPIC_PARTICLES_KO, alternation
from kopa_inspect.matching.measures import _blank_figures
from kopa_inspect.matching.names import PARTICLE_RUN, _spans, accepted_variants, normalize_name
from kopa_inspect.matching.numbers import extract_numbers
from kopa_inspect.matching.zeros import _NONE

# what may follow a subject with nothing said of it: its office and particles ("대전시장은", "경기도의")
_BARE_TAIL = re.compile(rf"(?:{alternation(OFFICE_WORDS)})?{PARTICLE_RUN}")


def _bound_stretches(subject: str, others: Sequence[str], sentence: str, numeric: bool) -> list[str]:
    spans = _spans([subject, *others], sentence)
    out: list[str] = []
    for k, (name, a, b) in enumerate(spans):
        if name != subject:
            continue
        nxt = next((s[1] for s in spans[k + 1 :] if s[0] != subject), len(sentence))
        prev = next((s[2] for s in reversed(spans[:k]) if s[0] != subject), 0)
        # a figure inside the subject's own name ("동아1", "우성3") is no value of it: masked for numbers
        own = " " * (b - a) if numeric else sentence[a:b]
        forward = own + sentence[b:nxt]
        out.append(forward)
        # the stretch before the subject ("120건인 강남구", "송서은 대전시장") only when the one after it
        # states nothing: no figure and no "none" ("서초구는 거래가 없습니다" is a statement about 서초구);
        # for a name, no word but particles ("대전: 조우준, 경기: 송서은" binds 조우준 to 대전 alone)
        rest = forward[b - a :]
        said = (
            bool(extract_numbers(rest) or _NONE.search(rest))
            if numeric
            else not _BARE_TAIL.fullmatch(re.sub(r"[\W_]+", "", rest))
        )
        # a list of names ("부산·대구·광주는 각각 2명씩") is said of after it, never before
        in_list = nxt < len(sentence) and bool(_NAME_JOIN.fullmatch(rest))
        if not said and not in_list:
            out.append(sentence[prev:a] + own)
    return out


def _same_entity(short: str, long: str) -> bool:
    """ "강남구" and "서울특별시 강남구" name one place: the longer ends with the shorter as a whole word.
    "서울대학교병원" in "분당서울대학교병원", "계동" in "상계동" are other entities, and so is a name that
    begins another: "북촌한옥마을 더스테이 펜션" is a guesthouse named after the sight "북촌한옥마을"."""
    s, ln = (
        unicodedata.normalize("NFKC", str(short)).strip(),
        unicodedata.normalize("NFKC", str(long)).strip(),
    )
    return ln == s or ln.endswith(" " + s)


def _subject_forms(subject: str, others: Sequence[str] = ()) -> list[str]:
    """The subject, and its last word ("서울특별시 강남구" is said "강남구") unless another subject
    or candidate of the task has that word too ("문래동 공공와이파이" / "양재1동 공공와이파이": the
    shared "공공와이파이" would bind either). A subject "2026년|올해" is said in any of its forms
    (accepted variants as data: the question's "올해" and the year itself)."""
    if "|" in subject:
        return list(
            dict.fromkeys(f for part in accepted_variants(subject) for f in _subject_forms(part, others))
        )
    forms = [subject]
    parts = str(subject).split()
    if len(parts) > 1 and len(parts[-1]) >= 2:
        last, own = normalize_name(parts[-1]), normalize_name(subject)
        if not any(normalize_name(o) != own and last in normalize_name(o) for o in others):
            forms.append(parts[-1])
    return forms


# Per-group values after a list of names: "수원, 용인, 화성의 건수는 각각 75건, 114건, 96건입니다", "A와 B는 각각
# X, Y", "A, B and C had X, Y and Z respectively" bind the values to the names in order. A list whose count
# differs from the names' binds nothing. UNCERTAIN: separator lists, not a parser.
_NAME_JOIN = re.compile(r"\s*(?:,|、|·|ㆍ|및|그리고|\band\b|&)\s*|(?:와|과|랑|하고)\s+", re.IGNORECASE)
# a slash after a unit's letter is the unit's own ("㎍/㎥", "m/s"), no item separator
_ITEM_SPLIT = re.compile(
    r"\s*(?:,(?!\d{3})|、|(?<![A-Za-z㎍㎎μ])/|및|그리고|\band\b)\s*|(?<=[\d가-힣%])(?:와|과)\s+",
    re.IGNORECASE,
)
# (a decimal point is no end: "각각 약 18.5조 원, 약 1.07조 원")
_ITEMS_END = re.compile(
    r"(?:입니다|이었습니다|였습니다|이었고|였고|이며|이고|이에요|예요|이다|으로|로\s)|[!?;]|\.(?!\d)"
)


def _respective_item(
    sentence: str,
    forms: Sequence[str],
    others: Sequence[str],
    own: frozenset[str] = frozenset(),
    rival: frozenset[str] = frozenset(),
) -> str | None:
    """The value a respective list binds to the subject (said as one of ``forms``) in ``sentence``: its
    item at the subject's place in the names' list; "" when the counts differ (nothing is bound); None
    when the sentence binds no respective list to the subject. Several lists after the names ("각각 133건,
    195건, 170건이었고, 그 전달인 8월에는 각각 67건, …") are told apart by what is said before each: the
    lists whose lead-in names one of the fact's ``own`` measure words; else, when the first list's names
    a ``rival`` word (another fact's own measure), the first later list whose lead-in names none; else
    the first list (a fact with no word of its own cannot tell a swapped list from its own)."""
    after = _names_after_figures(sentence, forms, others)
    if after is not None:
        return after
    marks = list(_RESPECTIVE.finditer(sentence))
    if not marks:
        return None
    runs = _name_runs(sentence, [*forms, *others])
    run = next((r for r in runs if len(r) > 1 and any(n in forms for n, _, _ in r)), None)
    if run is None:
        return None
    at = [k for k, (n, _, _) in enumerate(run) if n in forms]
    end = run[-1][2]
    mark = marks[0]
    if mark.group(0).lower() == "respectively" and mark.start() >= end:
        lists = [(sentence[: mark.start()], sentence[end : mark.start()])]
    elif mark.start() >= end:
        lists, lead = [], 0
        for mk in marks:
            if mk.start() < lead or mk.group(0).lower() == "respectively":
                continue
            seg = sentence[mk.end() :]
            cut = _ITEMS_END.search(seg)
            seg = seg[: cut.start()] if cut else seg
            named = _spans([*forms, *others], seg)  # the list ends where another place is named
            seg = seg[: min(a for _, a, _ in named)] if named else seg
            lists.append((sentence[lead : mk.start()], seg))
            lead = mk.end() + len(seg)
    else:
        return None

    def names(lead: str, words: frozenset[str]) -> bool:
        text = normalize_name(lead)
        return any(w and w in text for w in words)

    chosen = [k for k, (lead, _) in enumerate(lists) if own and names(lead, own)]
    if not chosen and rival and len(lists) > 1 and names(lists[0][0], rival):
        chosen = [k for k, (lead, _) in enumerate(lists) if k and not names(lead, rival)][:1]
    seg = lists[chosen[0] if chosen else 0][1]
    items = [x for x in _ITEM_SPLIT.split(seg) if x and x.strip()]
    if len(items) == 1 and len(lists) == 1:  # "A, B, C는 각각 2명씩": one value for each, a shared one
        return None
    if len(at) != 1 or len(items) != len(run):
        return ""
    return items[at[0]]


# The names after their figures, said to be their order: "각각 83명, 73명, 33명, 16명입니다(A, B, C, D 순)".
_ORDER_AFTER = re.compile(r"^\s*(?:의\s*)?순(?:서(?:대로)?|으로)?\s*[)\]]")
_FIGURES_BEFORE = re.compile(
    r"(?P<items>\d[\d,.]*\s*[^\s\d,()]{0,3}(?:\s*(?:,(?!\d{3})|、|및|와|과)\s*\d[\d,.]*\s*[^\s\d,()]{0,3})+)"
    rf"\s*(?:{alternation(COPULAS_KO)})?\s*[(\[]\s*$"
)


def _names_after_figures(sentence: str, forms: Sequence[str], others: Sequence[str]) -> str | None:
    """The subject's figure where the names follow their figures in brackets with "순" ("" when the
    counts differ); None when the sentence has no such list."""
    for run in _name_runs(sentence, [*forms, *others]):
        if (
            len(run) < 2
            or not any(n in forms for n, _, _ in run)
            or not _ORDER_AFTER.match(sentence[run[-1][2] :])
        ):
            continue
        figures = _FIGURES_BEFORE.search(sentence[: run[0][1]])
        if figures is None:
            return ""
        items = [x for x in _ITEM_SPLIT.split(figures.group("items")) if x and x.strip()]
        at = [k for k, (n, _, _) in enumerate(run) if n in forms]
        return items[at[0]] if len(at) == 1 and len(items) == len(run) else ""
    return None


# One value said of a whole list of names ("A, B, C 세 곳 모두 일요일은 휴진이에요", "A와 B는 둘 다 12시 30분에
# 마감합니다", "A and B both close at 12:30") is each name's: the names one list right before the word, a
# count said with it the list's own. UNCERTAIN: a word list, not a parser.
_COUNT_WORDS = {
    "두": 2,
    "둘": 2,
    "세": 3,
    "셋": 3,
    "네": 4,
    "넷": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
}
_SHARED = re.compile(
    rf"^\s*(?:{alternation((*TOPIC_PARTICLES_KO, '의', '도'))})?\s*(?:"
    r"(?:(?P<n>두|세|네|다섯|여섯|일곱|\d+)\s*(?:곳|개\s*구|개|군데|구|명|의원|병원|기관|군|시)\s*"
    rf"(?:{alternation(TOPIC_PARTICLES_KO)})?\s*|(?P<k>둘|셋|넷)\s*(?=다))?"
    r"(?:모두|다|전부)(?![가-힣])"
    r"|(?:are\s+|were\s+)?(?:both|all)(?:\s+(?P<e>two|three|four|five|six))?\b"
    # "부산·대구·광주는 각각 2명(씩)": one figure for each
    r"|각각(?=\s*\d[\d,.]*\s*[가-힣A-Za-z%℃°]{0,4}\s*(?:씩|[,.;]|$|이|입|으로|로|였|이었)))",
    re.IGNORECASE,
)
_SHARED_END = re.compile(r"[,;.!?\n]|(?:이고|이며|지만|인데|으며)\s")


# a list word, then the next name's city or region ("A, 부산 B, 제주 C")
_NAME_JOIN_QUALIFIED = re.compile(rf"(?:{_NAME_JOIN.pattern})(?:[가-힣]{{1,4}}\s+)?", re.IGNORECASE)


def _name_runs(sentence: str, names: Sequence[str]) -> list[list[tuple[str, int, int]]]:
    """The names found in ``sentence``, grouped into runs joined only by list words (``_NAME_JOIN``:
    commas, 및, 그리고, and, 와/과/랑/하고; "수원, 용인과 화성"): each run is one list of subjects."""
    runs: list[list[tuple[str, int, int]]] = []
    for sp in _spans(names, sentence):
        if runs and _NAME_JOIN_QUALIFIED.fullmatch(sentence[runs[-1][-1][2] : sp[1]]):
            runs[-1].append(sp)
        else:
            runs.append([sp])
    return runs


# A value stated before the list of names it holds for, as a label: "9.8℃: 종로, 노원, 송파, 도봉"
_LABEL_BEFORE = re.compile(r"(?P<head>[^:：\n]*\d[^:：\n]*)[:：]\s*$")


def _shared_stretch(sentence: str, forms: Sequence[str], others: Sequence[str]) -> str | None:
    """What ``sentence`` says of a list of names holding the subject as one ("…둘 다 X", "X: A, B"),
    or None."""
    runs = _name_runs(sentence, [*forms, *others])
    for run in runs:
        if len(run) < 2 or not any(n in forms for n, _, _ in run):
            continue
        label = _LABEL_BEFORE.search(sentence[: run[0][1]])
        if label and not _name_runs(label.group("head"), [*forms, *others]):
            return label.group("head")
        mark = _SHARED.match(sentence[run[-1][2] :])
        if not mark:
            continue
        said = next((x for x in (mark.group("n"), mark.group("k"), mark.group("e")) if x), None)
        if said is not None and (int(said) if said.isdigit() else _COUNT_WORDS[said.lower()]) != len(run):
            return None
        rest = sentence[run[-1][2] + mark.end() :]
        cut = _SHARED_END.search(rest)
        return rest[: cut.start()] if cut else rest
    return None


# A figure said as the opposite extreme of the fact's measure ("최고기온은 19도, 최저기온은 21도" for the
# high): another role, not the value. Clauses (commas, sentences, "…이고/이며/지만") that name the other
# extreme and not the fact's own have their figures blanked. UNCERTAIN: a word pair list, not a parser.
_EXTREME = re.compile(r"최(?:고|저|대|소)")
_OPPOSITE = {"최고": "최저", "최저": "최고", "최대": "최소", "최소": "최대"}
_ROLE_CUT = re.compile(
    r"([,;\n]|(?<=[.!?。])\s|(?:이고|이며|이지만|인데|으며|지만)\s|(?<=[도다])(?:고|며)\s)"
)


def _other_extremes_blanked(view: AnswerView, description: Any) -> AnswerView:
    """The view with the figures of every clause about the other extreme blanked (same lengths)."""
    own = set(
        _EXTREME.findall(re.sub(r"\([^)]*\)", " ", unicodedata.normalize("NFKC", str(description or ""))))
    )
    if len(own) != 1:
        return view
    mine = own.pop()
    other = _OPPOSITE[mine]

    def cut(text: str) -> str:
        # cut where the text (brackets masked: "(top price; API unit 만원)" is one gloss) has a cut
        masked = re.sub(r"\([^()]*\)", lambda m: "(" + "x" * (len(m.group(0)) - 2) + ")", text)
        out, pos = [], 0
        for piece in _ROLE_CUT.split(masked):
            part = text[pos : pos + len(piece)]
            pos += len(piece)
            out.append(_blank_figures(part) if other in part and mine not in part else part)
        return "".join(out)

    if other not in view.text:
        return view
    lines = [
        (lab, _blank_figures(val) if other in lab and mine not in lab else cut(val))
        for lab, val in view.lines
    ]
    return AnswerView(
        cut(view.text),
        view.dump,
        lines,
        [cut(x) for x in view.sentences],
        [cut(x) for x in view.clauses],
        [[cut(x) for x in g] for g in view.clause_groups],
    )


# A list said to be respective ("최고기온과 최저기온은 각각 21도, 14도") may hold other facts' values.
_RESPECTIVE = re.compile(r"각각|차례로|순서대로|\brespectively\b", re.IGNORECASE)
