"""One fact against an answer: binding, claims, hedges and zeros combined (:func:`score_fact`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView
from kopa_inspect.matching.binding import (
    _RESPECTIVE,
    _bound_stretches,
    _other_extremes_blanked,
    _respective_item,
    _same_entity,
    _shared_stretch,
    _subject_forms,
)
from kopa_inspect.matching.claimed import _listed_among_others, _same_value, claimed_value_score
from kopa_inspect.matching.fact_fields import _NUMERIC_KINDS, MATCHERS, _get
from kopa_inspect.matching.hedges import _MASK, _ONE_FIGURE, _date_hedged, _hedges, name_hedged
from kopa_inspect.matching.matchers import match_text
from kopa_inspect.matching.measures import measure_words, table_cells
from kopa_inspect.matching.names import _date_like, _spans, accepted_variants, normalize_name
from kopa_inspect.matching.refusal import refusal_score
from kopa_inspect.matching.times import time_windows_blanked
from kopa_inspect.matching.winners import (
    _FIELD_WORDS,
    _LIST_HEAD,
    _MARKER,
    _claim_units,
    _direction,
    other_dimension_markers_blanked,
    winner_score,
)
from kopa_inspect.matching.zeros import _says_none, _zero_fact, _zero_in_words

_ONE_CELL = ("name", "exact", "number", "money", "date", "time", "month", "duration", "code_label")


def _respective_items(
    sentences: Sequence[str],
    forms: Sequence[str],
    other_forms: Sequence[str],
    own: frozenset[str],
    rival: frozenset[str],
) -> dict[str, str]:
    """Per sentence, the value a respective list binds to the subject (:func:`_respective_item`); a
    sentence with a list and no names ("7월에는 각각 75건, 114건, 96건") reads the names of the one before."""
    out: dict[str, str] = {}
    for k, sentence in enumerate(sentences):
        item = _respective_item(sentence, forms, other_forms, own, rival)
        if (
            item is None
            and k
            and _RESPECTIVE.search(sentence)
            and not _spans([*forms, *other_forms], sentence)
        ):
            item = _respective_item(sentences[k - 1] + " " + sentence, forms, other_forms, own, rival)
        if item is not None:
            out[sentence] = item
    return out


def _cells_score(
    fact: Any,
    values: Sequence[Any],
    competitors: Sequence[Any],
    cells: Sequence[str],
    keys: Sequence[Any] | None,
) -> float:
    """A fact read in its own column of the answer's tables: a competitor there is a wrong value."""
    if any(match_text(fact, c, cell, strict=True) >= 1.0 for c in competitors for cell in cells):
        return 0.0
    return max(match_text(fact, v, cell, keys) for v in values for cell in cells)


def _masked_view(view: AnswerView, names: Sequence[str]) -> AnswerView:
    """The view with every name of ``names`` (longest first) blanked to the same length."""

    def mask(text: str) -> str:
        for _, a, b in sorted(_spans(names, text), key=lambda x: -x[1]):
            text = text[:a] + _MASK * (b - a) + text[b:]
        return text

    return _blanked_view(view, mask)


def _blanked_view(view: AnswerView, blank: Callable[[str], str]) -> AnswerView:
    """The view with ``blank`` applied to every unit (it keeps lengths)."""
    return AnswerView(
        blank(view.text),
        view.dump,
        [(blank(lab), blank(val)) for lab, val in view.lines],
        [blank(x) for x in view.sentences],
        [blank(x) for x in view.clauses],
        [[blank(x) for x in g] for g in view.clause_groups],
    )


def _outsider_with_the_tie(view: AnswerView, tied: Sequence[str], outsiders: Sequence[str]) -> bool:
    """A claim unit (a structured line whose label has a superlative marker, or a free-text clause
    with one) that names a tied member and a candidate outside the tie."""
    units = [val for lab, val in view.lines if _MARKER.search(_FIELD_WORDS.sub(" ", lab))]
    units += [
        u for u, _ in _claim_units(view, [*tied, *outsiders]) if _MARKER.search(_FIELD_WORDS.sub(" ", u))
    ]
    # the candidates a claim is picked from ("A, B, C 중 가장 …") are its list head, not claimed
    units = [_LIST_HEAD.sub("", u, count=1) for u in units]
    return any(_spans(tied, u) and _spans(outsiders, u) for u in units)


def _tied_pick_score(
    fact: Any,
    values: list[Any],
    competitors: Sequence[Any],
    ties: Sequence[Any],
    required: bool,
    view: AnswerView,
) -> float:
    """A "which one" fact whose winner is tied with ``ties``: every tied member named (when
    ``required``), and the claim read with the tied members as no competitors, so "A, B, C가 공동 1위"
    claims the winner and a member outside the tie claimed beside them still fails."""
    matcher = _get(fact, "matcher", "exact")
    named = [t for t in ties if match_text(fact, t, view.text, strict=True) >= 1.0]
    if required and len(named) < len(ties):
        return 0.0
    rest = [c for c in competitors if not any(_same_value(c, t) for t in ties)]
    if matcher in ("name", "exact") and _outsider_with_the_tie(
        view, [str(v) for v in [*values, *ties]], [str(c) for c in rest]
    ):
        return 0.0  # "가장 추운 구: 종로구, 노원구, 은평구 …": a candidate outside the tie claimed with it
    if matcher in ("name", "exact", "code_label"):
        masked = _masked_view(view, [str(t) for t in ties]) if matcher != "code_label" else view
        return max(winner_score(v, rest, masked, _direction(fact)) for v in values)
    if matcher in ("number", "money", "duration", "date", "time", "month"):
        return claimed_value_score(fact, [*values, *named], rest, view, _direction(fact))
    return 0.0


def score_fact(
    fact: Any,
    expected: Any,
    view: AnswerView,
    *,
    question: str | None = None,
    subject: str | None = None,
    competitors: Sequence[Any] = (),
    accept: Sequence[Any] = (),
    keys: Sequence[Any] | None = None,
    others: Sequence[str] = (),
    siblings: Sequence[Any] = (),
    known: Sequence[Any] = (),
    aliases: Sequence[Any] = (),
    own_measure: frozenset[str] = frozenset(),
    rival_measures: frozenset[str] = frozenset(),
    ties: Sequence[Any] = (),
    tie_required: bool = False,
    shown: str | None = None,
) -> float:
    """Score in [0, 1] for one fact against a parsed answer (sets give partial credit). ``own_measure``
    / ``rival_measures``: the measure words only this fact / only another fact of its subject has, which
    tell its respective list from theirs (:func:`_respective_item`). ``siblings``:
    the values of the task's other facts about the same subject (or, without one, of the other facts
    without one), which a listing may hold beside this value; ``known``: every other fact's value, which
    a name may be said beside; ``aliases``: the value's other names in its own result row
    (:func:`row_aliases`). ``ties``: the other candidates tied with the winner of a "which one" fact;
    with ``tie_required`` the answer must name each of them (the truth is the tied set), else (the
    question breaks the tie by order) they may be named beside the winner. ``shown``: the tool outputs
    the agent read, whose figures and names a refusal may cite."""
    matcher = _get(fact, "matcher", "exact")
    if matcher not in MATCHERS:
        raise ValueError(f"unknown matcher {matcher!r}")
    if view.dump:
        return 0.0
    if matcher == "refusal":
        # the gold reason's own figures and names are true facts an honest refusal may cite
        # ("중기예보는 10일까지만", "민법은 제1118조까지", "해운대구는 부산광역시의 구")
        reason = _get(fact, "value", None)
        allowed = "\n".join(x for x in (question, reason if isinstance(reason, str) else None) if x)
        return refusal_score(view.text, allowed or None, shown)
    values = [v for v in [expected, *accept] if v is not None]
    if not values:
        return 0.0
    if matcher in _NUMERIC_KINDS:  # a figure said as the opposite extreme ("최저기온은 21도" for the high)
        view = _other_extremes_blanked(view, _get(fact, "description"))
    if matcher in _ONE_FIGURE and any(
        match_text(fact, v, h) >= 1.0 for h in _hedges(view.text) for v in values
    ):
        return (
            0.0  # the value offered beside another ("21도 또는 17도"): a guess between two, not a statement
        )
    if (matcher == "date" or (matcher == "exact" and any(_date_like(v) for v in values))) and _date_hedged(
        values, view.text
    ):
        return 0.0  # "10월 22일 또는 23일": the month carried to the second day
    if matcher in ("name", "exact") and any(
        name_hedged(v, view, [*known, *siblings], question, aliases)
        for v in values
        if not isinstance(v, list | tuple | dict)
    ):
        return 0.0  # the name offered beside another of its kind ("720번 또는 721번"): a guess between two
    # a respective list binds one of its values to the subject ("A, B는 각각 X, Y"): read as that value
    respective: dict[str, str] = {}
    if subject:
        forms = _subject_forms(subject, others)
        # the fact's own value is no other subject, though another fact may be about it ("2018년 홍정상
        # (국민의힘)": 홍정상 is the 2018 winner and the subject of the 2018 party)
        own_values = {normalize_name(v) for v in values if isinstance(v, str)}
        other_names = [
            o
            for o in others
            if o != subject
            and normalize_name(o) not in own_values
            and normalize_name(o) not in {normalize_name(f) for f in forms}
            and not any(_same_entity(o, f) or _same_entity(f, o) for f in forms)
        ]
        other_forms = list(
            dict.fromkeys(f for o in other_names for f in _subject_forms(o, [*other_names, subject]))
        )
        # the other names as said: each form of one given with its variants ("2022년|2022")
        other_said = [p for o in other_names for p in accepted_variants(o)]
        respective = _respective_items(view.sentences, forms, other_forms, own_measure, rival_measures)
    listing_text = view.text
    for sentence, item in respective.items():
        listing_text = listing_text.replace(sentence, item)
    if (
        matcher in _NUMERIC_KINDS
        and not competitors
        and _listed_among_others(fact, values, siblings, listing_text)
    ):
        return 0.0  # the value listed among others ("21도, 17도, 14도"): every row's figure is no answer
    # a competitor list may hold the winner itself (every candidate's figure): not a competitor
    competitors = [c for c in competitors if c is not None and not any(_same_value(c, v) for v in values)]
    # figures said after the subject bind to it: times, dates and months too ("A는 12시 30분, B는 13시")
    numeric = matcher in _NUMERIC_KINDS or matcher in ("time", "date", "month")
    if subject:
        # another subject that is a form of this one ("강남구" for "서울특별시 강남구") is no other entity;
        # a name inside another ("서울대학교병원" in "분당서울대학교병원", "계동" in "상계동") is: each
        # ends the other's stretch (the spans take the longest name first); forms and other_names above
        zero = _zero_fact(matcher, values)
        # a table row naming the subject, read in the column its header says is this fact's
        # (one value per cell: a long text or a list spans the row's cells)
        cells = table_cells(view.text, forms, _get(fact, "description")) if matcher in _ONE_CELL else []
        if cells:
            return _cells_score(fact, values, competitors, cells, keys)
        best = 0.0
        for sentence in view.sentences:
            for form in forms:
                bound = [respective[sentence]] if sentence in respective else None
                stretches = (
                    bound if bound is not None else _bound_stretches(form, other_said, sentence, numeric)
                )
                shared = _shared_stretch(sentence, forms, other_forms) if bound is None else None
                for stretch in [*stretches, *([shared] if shared else [])]:
                    if any(match_text(fact, c, stretch, strict=True) >= 1.0 for c in competitors):
                        return 0.0
                    best = max(best, max(match_text(fact, v, stretch, keys) for v in values))
                    if zero and _says_none(stretch, question):
                        best = 1.0
        return best
    # (a which-one fact's claims only: a plain figure has none)
    view = _blanked_view(
        view,
        partial(
            other_dimension_markers_blanked, description=_get(fact, "description"), active=bool(competitors)
        ),
    )
    if matcher == "time" and competitors:  # "09시~15시 중 … 오전 9시": the window's ends are not claimed
        view = _blanked_view(view, time_windows_blanked)
    ties = [t for t in ties if t is not None and not any(_same_value(t, v) for v in values)]
    if ties and competitors:
        return _tied_pick_score(fact, values, competitors, ties, tie_required, view)
    if competitors:
        if matcher in ("name", "exact"):
            # another entity whose name holds a candidate ("365정형외과의원" holds the department 정형외과;
            # "해맑은내과의원" the department 내과) states no candidate: the row's name is masked
            cands = [str(c) for c in [*values, *competitors] if not isinstance(c, list | tuple | dict)]
            shields = [
                o
                for o in dict.fromkeys([*others, *(k for k in known if isinstance(k, str))])
                if normalize_name(o) not in {normalize_name(c) for c in cands}
                and any(
                    normalize_name(c) and normalize_name(c) in normalize_name(o) and not _same_entity(c, o)
                    for c in cands
                )
            ]
            shielded = _masked_view(view, shields) if shields else view
            # the role is the description's head noun, its last word ("교육위원회 위원장": 위원장); the
            # words before it name the body the members share ("초선 위원: 교육위원회 … 한혜진" is no pick)
            head = re.sub(r"\([^)]*\)", " ", str(_get(fact, "description") or "")).split()
            roles = measure_words(head[-1]) if head and not _direction(fact) else frozenset()
            return max(winner_score(v, competitors, shielded, _direction(fact), roles) for v in values)
        if matcher == "code_label":
            return max(winner_score(v, competitors, view, _direction(fact)) for v in values)
        if matcher in ("number", "money", "duration", "date", "time", "month"):
            return claimed_value_score(fact, values, competitors, view, _direction(fact))
        # a list (set, dish_set, date_set, key_facts): a competitor element stated is a wrong element
        if any(match_text(fact, c, view.text, strict=True) >= 1.0 for c in competitors):
            return 0.0
    plain = max(match_text(fact, v, view.text, keys) for v in values)
    if plain < 1.0 and _zero_fact(matcher, values):
        return _zero_in_words(fact, view, question)
    return plain
