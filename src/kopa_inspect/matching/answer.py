"""The public entry point: every fact of a task against one final answer (:func:`score_answer`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kopa_inspect.matching.answer_view import AnswerView, parse_answer
from kopa_inspect.matching.claimed import _same_value
from kopa_inspect.matching.denials import undenied
from kopa_inspect.matching.fact_fields import _NUMERIC_KINDS, _as_list, _get, _literal
from kopa_inspect.matching.facts import _blanked_view, score_fact
from kopa_inspect.matching.measures import measure_scopes, measure_view, measure_words
from kopa_inspect.matching.names import (
    _NUMERIC,
    _id_digits,
    expand_identifiers,
    expand_short_names,
    normalize_name,
)
from kopa_inspect.matching.repeats import each_equal_value_said
from kopa_inspect.matching.romanized import expand_romanized
from kopa_inspect.matching.winners import infer_competitors

_ORDINAL = re.compile(r"(?<![\d.,])\d+\s*(?:대|회|기|차)(?=\s)")


def _ordinals_left_out(view: AnswerView, fact: Any, blank: Callable[[str], str] | None) -> AnswerView:
    return (
        _blanked_view(view, blank) if blank is not None and _get(fact, "matcher") in _NUMERIC_KINDS else view
    )


def _subject_said_as(subject: Any, holder: str | None) -> list[str | None]:
    """The subject as the answer may name it: itself, and its holder's name for a role."""
    own = str(subject) if subject not in (None, "") else None
    return [own, holder] if holder else [own]


def _role_holders(
    facts: Sequence[Any], resolved: Mapping[str, Mapping[str, Any]], expected: Mapping[str, Any]
) -> dict[str, str]:
    """A role another fact names the holder of ("교육위원회 위원장" -> 오정훈): facts about the role are
    said after the holder's name too ("위원장: 오정훈 의원 (조국혁신당)")."""
    out: dict[str, str] = {}
    for f in facts:
        fid, desc = str(_get(f, "id")), _get(f, "description")
        value = expected.get(fid)
        if (
            _get(f, "matcher") in ("name", "exact")
            and not resolved[fid].get("subject")
            and isinstance(value, str)
            and desc
        ):
            out[normalize_name(desc)] = value
    return out


def _question_ordinals_blanker(facts: Sequence[Any], question: str | None) -> Callable[[str], str] | None:
    """Blanks the question's own ordinals ("22대 국회", "제9회 지방선거") restated in an answer: no figure
    of it. Not those that tell the task's figures apart ("22대 … 21대" label two periods' counts)."""
    descs = [
        normalize_name(_get(f, "description") or "") for f in facts if _get(f, "matcher") in _NUMERIC_KINDS
    ]
    ordinals = sorted(
        {o for o in _ORDINAL.findall(question or "") if len({normalize_name(o) in d for d in descs}) <= 1},
        key=len,
        reverse=True,
    )
    if not ordinals:
        return None
    pattern = re.compile("|".join(re.escape(o) for o in ordinals))
    return lambda text: pattern.sub(lambda m: " " * len(m.group(0)), text)


def score_answer(
    facts: Sequence[Any],
    expected: Mapping[str, Any],
    answer: str,
    *,
    question: str | None = None,
    context: Mapping[str, Mapping[str, Any]] | None = None,
    shown: str | None = None,
) -> dict[str, float]:
    """Score every fact of a task against a final answer: ``{fact_id: score in [0, 1]}``.

    Public API (CONTRACT item 9; GRPO's answer reward calls it; kept stable):

    - ``facts``: :class:`~kopa_inspect.task_data.schema.AnswerFact` objects or their dicts
      (``id``, ``matcher``, ``value`` and the optional ``subject``, ``competitors``, ``accept``,
      ``tolerance``, ``rel_tol``, ``unit``, ``labels``, ``keys``, ``description``; for "which one"
      facts over different measures also ``measure`` / ``winner_value_ref`` (what they rank by) and
      ``scope`` (the owner of the ranked list), see 4b of the module docstring).
    - ``expected``: the resolved value of each fact, by id (``GoldTruth.expected``).
    - ``question``: the task's query; a refusal may repeat its figures and names, and those of
      ``shown`` (the tool outputs the agent read in this run), nothing else.
    - ``context``: per fact id, the resolved ``subject``/``competitors``/``accept``/``keys`` when
      the fact gives them as ``$`` references (``GoldTruth.context``); literal fields are read
      from the fact itself, and an unresolved reference counts as absent. An optional ``aliases``
      list (:func:`with_row_aliases`) holds the value's other names in its own result row.

    A fact scores 1.0 when it holds; ``set``/``dish_set``/``key_facts``/``date_set`` give partial
    credit. A raw dump (:func:`is_raw_dump`) scores 0 on every fact.
    """
    raw_view = parse_answer(answer)
    plain_view: AnswerView | None = None
    context = context or {}
    resolved: dict[str, dict[str, Any]] = {}
    for f in facts:
        fid = str(_get(f, "id"))
        ctx = dict(context.get(fid, {}))
        for key in ("subject", "competitors", "accept", "keys", "scope"):
            if key not in ctx:
                ctx[key] = _literal(_get(f, key))
        if not ctx.get("competitors") and _get(f, "matcher") in ("name", "exact"):
            ctx["competitors"] = infer_competitors(_get(f, "value"), expected.get(fid))
        resolved[fid] = ctx
    # the task's names said in their usual short forms ("매탄고", "서울", "수원") are those names, where the
    # form is no other name's: read as the full names (a refusal is read as written: see below)
    names: list[Any] = []
    by_fid = {str(_get(f, "id")): f for f in facts}
    for fid, ctx in resolved.items():
        matcher = _get(by_fid[fid], "matcher")
        values = [*_as_list(ctx.get("competitors")), *_as_list(ctx.get("accept"))]
        if matcher in ("name", "exact"):
            values.append(expected.get(fid))
        names += [ctx.get("subject"), ctx.get("scope"), *values]
    names = [n for n in names if isinstance(n, str) and n.strip() and not re.search(r"\d", n)]
    answer = expand_short_names(answer or "", names, question) if names else answer
    # and in Latin letters, as an answer to the English gloss writes them ("Jongno-gu", "Haeundae Beach")
    answer = expand_romanized(answer or "", names) if names else answer
    ids = [expected.get(fid) for fid in resolved if _get(by_fid[fid], "matcher") in ("name", "exact")]
    answer = expand_identifiers(answer or "", [v for v in ids if isinstance(v, str | int) and _id_digits(v)])
    view = parse_answer(answer)
    view.dump = raw_view.dump
    # every subject and candidate of the task: where one fact's stretch of text ends
    others: list[str] = []
    for fid, ctx in resolved.items():
        if ctx.get("subject"):
            others.append(str(ctx["subject"]))
        for c in _as_list(ctx.get("competitors")):
            if isinstance(c, str) and not _NUMERIC.fullmatch(c.strip()):
                others.append(c)
        if _get(next(f for f in facts if str(_get(f, "id")) == fid), "matcher") in ("name",) and ctx.get(
            "competitors"
        ):
            exp = expected.get(fid)
            if isinstance(exp, str):
                others.append(exp)
    # which-one facts over different measures read only the units about their own measure
    by_id = {str(_get(f, "id")): f for f in facts}
    which = [
        fid
        for fid, ctx in resolved.items()
        if _as_list(ctx.get("competitors"))
        and not ctx.get("subject")
        and _get(by_id[fid], "matcher") != "refusal"
    ]
    scopes = {fid: str(ctx["scope"]) for fid, ctx in resolved.items() if ctx.get("scope")}
    keys, distinct = measure_scopes(by_id, which, scopes)
    # owners are what a unit is about: not masked like the rows' names
    owners = {normalize_name(o) for o in scopes.values()}
    unmasked = [o for o in dict.fromkeys(others) if normalize_name(o) not in owners]
    # one row's figures over several measures ("가람병원: 의사 12명, 병상 150개"): each is read only where
    # its own measure (or none of the row's others) is named
    # the figures without a subject ("위원 수 4명, 초선 위원 4명") are one such row: the task's own
    by_subject: dict[str, list[str]] = {}
    for fid, ctx in resolved.items():
        if fid in which or _get(by_id[fid], "matcher") not in (*_NUMERIC_KINDS, "time", "date", "month"):
            continue
        by_subject.setdefault(normalize_name(ctx.get("subject") or ""), []).append(fid)
    row_scopes: dict[str, dict[str, frozenset[str]]] = {}
    for fids in by_subject.values():
        subj = str(resolved[fids[0]].get("subject") or "")
        words = {
            fid: measure_words(_get(by_id[fid], "description")) - measure_words(subj) - {normalize_name(subj)}
            for fid in fids
        }
        own_words = {
            fid: frozenset(w - set().union(*(v for o, v in words.items() if o != fid)))
            for fid, w in words.items()
        }
        if len(fids) > 1 and any(own_words.values()):
            row_scopes |= dict.fromkeys(fids, own_words)
    holders = _role_holders(facts, resolved, expected)
    blank_ordinals = _question_ordinals_blanker(facts, question)
    out: dict[str, float] = {}
    for f in facts:
        fid = str(_get(f, "id"))
        ctx = resolved[fid]
        subject = ctx.get("subject")
        # a competitor that is another fact's own value is that fact's claim, not a wrong one here,
        # unless that fact is about another measure whose claims are told apart from this one's
        own = keys.get(fid)
        other_values = [
            v
            for k, v in expected.items()
            if k != fid
            and v is not None
            and not isinstance(v, list)
            and not (own and keys.get(k) not in (None, own) and distinct.get(keys[k]))
        ]
        ctx["competitors"] = [
            c for c in _as_list(ctx.get("competitors")) if not any(_same_value(c, v) for v in other_values)
        ]
        base = view if _get(f, "matcher") != "refusal" else raw_view
        # a denied value is no statement ("21도가 아닙니다"): read without denials where the fact has no
        # competitors, or is bound to a subject (its competitors are other rows' figures, not a which-one
        # pick, which has its own denial rules)
        if (not ctx["competitors"] or subject not in (None, "")) and _get(f, "matcher") != "refusal":
            if plain_view is None:
                plain_view = parse_answer(undenied(answer))
                plain_view.dump = view.dump
            base = plain_view
        # a fact whose value is another pick's owner ("의사가 가장 많은 병원" and "그 병원의 진료과목 중 …"):
        # for it the value is a row's name, so the other pick's clause ("'A병원'의 진료과목 중 가장 많은
        # 진료과목은 …") is not about its measure, and the value said there is not its claim
        exp = expected.get(fid)
        own_names = unmasked
        if (
            own
            and isinstance(exp, str)
            and normalize_name(exp) in owners
            and normalize_name(ctx.get("scope") or "") != normalize_name(exp)
        ):
            own_names = [*unmasked, exp]
        base = _ordinals_left_out(base, f, blank_ordinals)
        holder = holders.get(normalize_name(subject or ""))
        out[fid] = max(
            score_fact(
                f,
                expected.get(fid),
                measure_view(base, own, distinct, own_names)
                if own
                else measure_view(base, fid, row_scopes[fid], unmasked, mask=True)
                if fid in row_scopes
                else base,
                question=question,
                subject=said_as,
                competitors=_as_list(ctx.get("competitors")),
                accept=_as_list(ctx.get("accept")),
                keys=_as_list(ctx.get("keys")) or None,
                others=[o for o in dict.fromkeys(others) if said_as != holder or o != holder],
                siblings=[
                    v
                    for k, v in expected.items()
                    if k != fid
                    and k in resolved
                    and v is not None
                    and not isinstance(v, dict)
                    and normalize_name(resolved[k].get("subject") or "") == normalize_name(subject or "")
                ],
                known=[x for k, v in expected.items() if k != fid for x in _as_list(v)],
                aliases=[
                    a
                    for a in _as_list(ctx.get("aliases"))
                    if not any(_same_value(a, c) for c in _as_list(ctx.get("competitors")))
                ],
                own_measure=row_scopes[fid][fid] if fid in row_scopes else frozenset(),
                rival_measures=frozenset().union(*(w for k, w in row_scopes[fid].items() if k != fid))
                if fid in row_scopes
                else frozenset(),
                ties=_as_list(ctx.get("ties")),
                tie_required=bool(ctx.get("tie_required")),
                shown=shown,
            )
            for said_as in _subject_said_as(subject, holder)
        )
    return each_equal_value_said(
        facts, expected, {k: c.get("subject") for k, c in resolved.items()}, answer, out
    )


def fact_score(matcher: str, expected: Any, answer: str, tolerance: float = 0.0) -> float:
    """One fact without subject or competitors against a whole answer (kept for old callers)."""
    return score_answer(
        [{"id": "_", "matcher": matcher, "value": "$_", "tolerance": tolerance}],
        {"_": expected},
        answer or "",
    )["_"]


def fact_holds(fact: Any, expected: Any, answer: str) -> bool:
    """Does ``answer`` state ``fact`` (an AnswerFact or its dict) with value ``expected``?"""
    fid = str(_get(fact, "id", "_"))
    return (
        score_answer([fact if _get(fact, "id") else {**dict(fact), "id": fid}], {fid: expected}, answer)[fid]
        >= 1.0
    )
