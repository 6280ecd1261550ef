"""The facts a composed row's answer must state, read from the executed plan's outputs.

Facts are KOPA-Bench facts (``AnswerFact``: a plan reference, a matcher, a tolerance) plus the value
they resolved to and which row it came from and why (``row``, ``row_reason``). Each row is picked
by a criterion the user states (a superlative, a name, the only result; a list without either is
asked for its count), and only fields a person asks about are read (``edge_synth.askable``).
The sampler (``edge_synth.sample.has_fact``) asks this module whether a draft has a fact at all;
composition (``edge_synth.compose``) builds the facts it writes the query and the answer for.
"""

from __future__ import annotations

import random
import re
from datetime import date
from typing import Any

from edge_synth.askable import WEATHER, askable_fields, picks_by
from edge_synth.describe import row_label
from edge_synth.draft import COUNT, Draft, numeric, numeric_fields, visible_count
from edge_synth.fields import concept
from edge_synth.korean import date_ko, final_sound, i_ga
from edge_synth.lexicon import field_label, param_label, row_word, user_noun
from edge_synth.natural import COUNTABLE, DETAIL_OF_ROW, true_count
from edge_synth.phrasing import (
    DATE8,
    PLACE_FILTER,
    cmp_phrase,
    join_words,
    list_owner,
    literal_args,
    most,
    producer_row_name,
)
from edge_synth.validity import found_by_search, incoming, partial
from edge_synth.values import time_said, typed, unit_of
from kopa_inspect.plans import Plan, PlanRun
from kopa_inspect.world import parse_clock


def matcher_for(value: Any) -> str:
    s = str(value).strip()
    if DATE8.match(s):
        return "date"
    if numeric(s) is not None:
        return "number"
    return "name"


def _usable(v: Any) -> bool:
    return isinstance(v, str | int | float) and not isinstance(v, bool) and str(v).strip() not in ("", "-")


def _opaque(v: Any) -> bool:
    """A long machine token (no spaces, no Hangul, not a number or URL): nothing to tell a person."""
    t = str(v).strip()
    return (
        len(t) >= 20
        and " " not in t
        and not re.search(r"[가-힣]", t)
        and numeric(t) is None
        and not t.startswith("http")
    )


def _pick_fact_field(op_id: str, row: dict[str, Any], rng: random.Random, avoid: set[str]) -> str | None:
    # Only fields a person asks about (askable.py: "의사 수", "전화번호", "정류장 번호"; never a
    # record's edit date, a grid cell, a code or the distance of a station from a point), and of
    # those only values present, not given to the call, and not an opaque token.
    fields = [
        k for k in askable_fields(op_id) if _usable(row.get(k)) and k not in avoid and not _opaque(row.get(k))
    ]
    if not fields:
        return None
    nums = [f for f in fields if numeric(row[f]) is not None]
    return rng.choice(nums) if nums and rng.random() < 0.6 else rng.choice(fields)


def choose_row(
    items: list[dict[str, Any]],
    rng: random.Random,
    op_id: str | None = None,
    named: bool = True,
    ranked: bool = True,
) -> tuple[int, str, str | None]:
    """Which row a fact is read from and why: (index, reason, measure field); (-1, "", None): none.

    reason: only (one row), max / min (the row with the largest / smallest measure, unique),
    named (a row the user names, "'석촌호수'"). Never a position: "the first row" is nothing a
    person asks about."""
    if len(items) == 1:
        return 0, "only", None
    options: list[tuple[int, str, str | None]] = []
    # A row is picked by what a person picks by ("의사가 가장 많은", "가장 가까운"): askable.picks_by.
    # ``ranked=False``: the rows are one page of a longer list, so no largest/smallest (partial_pick)
    for m in (
        f for f in numeric_fields(items, op_id=op_id) if ranked and (op_id is None or picks_by(op_id, f))
    ):
        vals = [numeric(it[m]) for it in items]
        for how, pick in (("max", max), ("min", min)):
            best = pick(v for v in vals if v is not None)
            if sum(v == best for v in vals) == 1:
                options.append((vals.index(best), how, m))
    named_rows = [
        i for i, it in enumerate(items) if named and op_id and row_label(op_id, it, items) is not None
    ]
    if options and (not named_rows or rng.random() < 0.6):
        return rng.choice(options)
    if named_rows:
        return rng.choice(named_rows), "named", None
    return -1, "", None


def _row_ref(sid: str, items: list[dict[str, Any]], idx: int, reason: str, measure: str | None) -> str:
    if reason in ("max", "min"):
        return f"${sid}.{reason}_by(items, &to_number({measure}))"
    if reason == "last":
        return f"${sid}.items[-1]"
    return f"${sid}.items[{idx}]"


def make_facts(
    draft: Draft, run: PlanRun, rng: random.Random, silent: list[str] | None = None, clock: str | None = None
) -> list[dict[str, Any]]:
    """Facts the final answer must state: comparisons, then one fact per leaf from a chosen row.

    A leaf whose row holds no field a person asks (askable.py) gets no fact; its step id is
    appended to ``silent`` (the pipeline names why a row without facts was dropped). A leaf whose
    call was made for a picked row (a DRV: "의사가 가장 적은 병원"'s departments) is asked after the pick
    itself, a fact of its own (``_pick_asked_first``); the facts are numbered f1.. in order."""
    facts = _make_facts(draft, run, rng, silent, clock)
    ids = {f["id"]: f"f{k + 1}" for k, f in enumerate(facts)}
    for f in facts:
        f["id"] = ids[f["id"]]
        if "pick_for" in f:
            f["pick_for"] = ids.get(f["pick_for"], f["pick_for"])
    return facts


def _pick_asked_first(draft: Draft, run: PlanRun, sid: str) -> dict[str, Any] | None:
    """Which row a leaf's call was made for, when a DRV picked it by a measure and it has a name: a
    "which one" fact asked before the leaf ("… 의사가 가장 적은 병원은 어디인가요? 그리고 그 병원의
    진료과목 중 '외과'의 …"), so the pick and a row of its list are not said in one breath and the answer
    names the picked row and why. None for more about the picked row itself (a hospital's hours: "의사가
    가장 적은 병원의 토요일 진료 시작" is one question), a pick without a name or with a tie, or a plan with a
    comparison (it asks "어디" already: a third question is over any budget of one query)."""
    j = incoming(draft, sid)
    items = run.outputs[sid]["items"]
    if (
        j is None
        or j.type != "DRV"
        or "reduce" not in j.detail
        or any(x.type == "CMP" for x in draft.junctions)
    ):
        return None
    if draft.step(sid).tool in DETAIL_OF_ROW and len(items) == 1:
        return None
    p, by = j.producer, j.detail["by"]
    ptool, pitems = draft.step(p).tool, run.outputs[p]["items"]
    how = "max" if j.detail["reduce"] == "max_by" else "min"
    vals = [numeric(it.get(by)) for it in pitems]
    known = [v for v in vals if v is not None]
    if not known:
        return None
    best = max(known) if how == "max" else min(known)
    if vals.count(best) != 1:
        return None
    idx = vals.index(best)
    label = row_label(ptool, pitems[idx], pitems)
    if label is None:
        return None
    fact = _fact(f"p{sid}", p, label[0], run, idx, how, by, _row_phrase(draft, p, how, by), ptool)
    fact.update(
        value=f"{_row_ref(p, pitems, idx, how, by)}.{label[0]}",
        resolved=label[1],
        matcher="name",
        row_label=label[1],
        row_label_field=label[0],
        competitors=_rivals(pitems, idx, label[0]),
    )
    return fact


def _unknown_one(draft: Draft, sid: str) -> bool:
    """A list whose one row the user cannot know: found around another row (validity.found_by_search), or
    the user's own list by a place they name ("길음동의 병원": which hospital is there?)."""
    if found_by_search(draft, sid):
        return True
    step = draft.step(sid)
    return incoming(draft, sid) is None and any(
        PLACE_FILTER.search(param_label(step.tool, k))
        or concept(k, step.tool) in ("sidonm", "sggnm", "umdnm")
        for k, _ in literal_args(step)
    )


def _only_row_asked_first(
    draft: Draft, run: PlanRun, sid: str, reason: str, fname: str
) -> dict[str, Any] | None:
    """The one row of a list found around another row ("'X'와 같은 동네의 병원", one hospital): the user cannot
    know there is one, so which it is is asked first ("… 같은 동네의 병원은 어디인가요? 그리고 그 병원의 …"), a
    name fact the answer states. For the leaf's own row (its fact is another field) or for the single row a
    leaf's call was made for (SEQ/SEM: its hours, its departments). None beside a comparison (a third ask)."""
    if any(x.type == "CMP" for x in draft.junctions):
        return None
    items = run.outputs[sid]["items"]
    j = incoming(draft, sid)
    if reason == "only" and len(items) == 1 and _unknown_one(draft, sid):
        target, t_items = sid, items
    elif (
        j is not None
        and j.type in ("SEQ", "SEM")
        and len(run.outputs[j.producer]["items"]) == 1
        and _unknown_one(draft, j.producer)
    ):
        target, t_items = j.producer, run.outputs[j.producer]["items"]
    else:
        return None
    tool = draft.step(target).tool
    label = row_label(tool, t_items[0], t_items)
    if label is None or (target == sid and label[0] == fname) or label[0] not in askable_fields(tool):
        return None  # a place table's row ("'X'가 있는 동네") has nothing to ask: its name is the user's
    fact = _fact(f"o{sid}", target, label[0], run, 0, "only", None, f"{user_noun(tool)}의 이름", tool)
    fact.update(
        value=f"${target}.items[0].{label[0]}",
        resolved=label[1],
        matcher="name",
        row_label=label[1],
        row_label_field=label[0],
    )
    return fact


def _make_facts(
    draft: Draft, run: PlanRun, rng: random.Random, silent: list[str] | None = None, clock: str | None = None
) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    asked_first: set[str] = set()  # producers whose pick is asked as a fact of its own
    plan_graph = Plan(steps=draft.steps).graph()
    leaves = [s for s in draft.steps if plan_graph.out_degree(s.id) == 0]
    cmp_steps = {sid for j in draft.junctions if j.type == "CMP" for sid in j.consumers}
    for j in draft.junctions:
        if j.type == "CMP" and j.detail["compare"] == COUNT:
            # the true totals (natural.true_count; the sampler admits COUNT only where both are known)
            counts = [(true_count(run.outputs[s]), s) for s in j.consumers]
            if any(n is None for n, _ in counts):
                continue
            best = max(counts)[1]
            noun = user_noun(draft.step(j.consumers[0]).tool)
            for n, sid in counts:
                facts.append(
                    _bound(
                        {
                            "id": f"f{len(facts) + 1}",
                            "description": f"{_cmp_name(draft, run, j, sid)}의 {noun} 수",
                            "value": f"${sid}.totalCount",
                            "resolved": n,
                            "matcher": "number",
                            "tolerance": 0.0,
                            "step": sid,
                            "field": COUNT,
                            "row": 0,
                            "row_reason": "compared",
                        },
                        _cmp_label(draft, j, sid),
                    )
                )
            facts.append(
                _winner_fact(
                    draft,
                    run,
                    j,
                    best,
                    f"f{len(facts) + 1}",
                    f"{noun}{'이' if final_sound(noun) else '가'} 더 많은 쪽",
                    f"${best}.totalCount",
                    true_count(run.outputs[best]),
                )
            )
            continue
        if j.type == "CMP":
            f = j.detail["compare"]
            vals = [(numeric(run.outputs[s]["items"][0].get(f)), s) for s in j.consumers]
            best = max(vals, key=lambda t: t[0] if t[0] is not None else float("-inf"))[1]
            for sid in j.consumers:
                facts.append(
                    _bound(
                        _fact(
                            f"f{len(facts) + 1}",
                            sid,
                            f,
                            run,
                            0,
                            "compared",
                            None,
                            f"{_cmp_name(draft, run, j, sid)}의 {field_label(draft.step(sid).tool, f)}",
                            draft.step(sid).tool,
                        ),
                        _cmp_label(draft, j, sid),
                    )
                )
            facts.append(
                _winner_fact(
                    draft,
                    run,
                    j,
                    best,
                    f"f{len(facts) + 1}",
                    f"{cmp_phrase(draft.step(best).tool, f, run.outputs[best]['items'][0].get(f))} 쪽",
                    f"${best}.items[0].{f}",
                    run.outputs[best]["items"][0].get(f),
                )
            )
    for s in leaves:
        items = run.outputs[s.id]["items"]
        if s.id in cmp_steps or not items:
            continue
        if s.tool in WEATHER:
            # a forecast is asked by category at a time ("12시 기온"), never as "the 예보 값"
            wf = _weather_fact(draft, run, s.id, rng, f"f{len(facts) + 1}", clock)
            if wf is not None:
                facts.append(wf)
            elif silent is not None:
                silent.append(s.id)
            if sum(1 for f in facts if "pick_for" not in f) >= 4:
                break
            continue
        shown = visible_count(s.tool, run.args[s.id], run.outputs[s.id])
        # A list found around another row's place or point: its rows are not the user's to name
        # (validity.named_pick_after_chain); one page of a longer list has no largest (partial_pick).
        nameable = not (len(items) > 1 and found_by_search(draft, s.id))
        complete = not partial(run.outputs[s.id])
        if shown < len(items):
            # The model sees only the first rows: a rank would point past them; a named row it sees.
            named = [
                i
                for i, it in enumerate(items[:shown])
                if nameable and row_label(s.tool, it, items) is not None
            ]
            idx, reason, measure = (rng.choice(named), "named", None) if named else (-1, "", None)
        else:
            idx, reason, measure = choose_row(items, rng, s.tool, named=nameable, ranked=complete)
        if idx < 0:
            # No row a person could point at (no name, no unique measure): what a person asks of
            # such a list is how many there are ("지난달 노원구 아파트 매매 거래는 몇 건인가요?"):
            # the true total (totalCount), never the rows of one page; unknown -> no fact.
            total = true_count(run.outputs[s.id]) if s.tool in COUNTABLE else None
            if total is None:
                if silent is not None:
                    silent.append(s.id)  # "how many forecast areas": nothing a person counts
                continue
            facts.append(
                {
                    "id": f"f{len(facts) + 1}",
                    "description": f"{user_noun(s.tool)} 건수",
                    "value": f"${s.id}.totalCount",
                    "resolved": total,
                    "matcher": "number",
                    "tolerance": 0.0,
                    "step": s.id,
                    "field": COUNT,
                    "row": 0,
                    "row_reason": "count",
                }
            )
            if len(facts) >= 4:
                break
            continue
        row = items[idx]
        label = row_label(s.tool, row, items)
        avoid = {measure} if measure else set()
        if reason == "named" and label:
            avoid.add(label[0])  # "what is the name of the row called X" asks nothing
        # Nor a value the call was given (the forecast's issue date is the date the user passed):
        # asking for it back asks nothing.
        given = {str(v) for v in run.args[s.id].values() if not isinstance(v, dict | list)}
        avoid |= {k for k, v in row.items() if str(v) in given}
        fname = _pick_fact_field(s.tool, row, rng, avoid)
        if fname is None and reason == "named" and shown >= len(items):
            # The named row has nothing else a person asks (a station the user named has no
            # other askable field): ask which row is the largest/smallest instead, if any is.
            idx2, reason2, measure2 = choose_row(items, rng, s.tool, named=False, ranked=complete)
            if idx2 >= 0 and (label2 := row_label(s.tool, items[idx2], items)) is not None:
                avoid2 = ({measure2} if measure2 else set()) | {
                    k for k, v in items[idx2].items() if str(v) in given
                }
                f2 = _pick_fact_field(s.tool, items[idx2], rng, avoid2)
                if f2 is not None:
                    idx, reason, measure, row, label, fname = idx2, reason2, measure2, items[idx2], label2, f2
        if fname is None and silent is not None:
            silent.append(s.id)
        if fname:
            first = _pick_asked_first(draft, run, s.id) or _only_row_asked_first(
                draft, run, s.id, reason, fname
            )
            if first is not None and first["step"] not in asked_first:
                asked_first.add(first["step"])
                facts.append(first)
            base = _row_ref(s.id, items, idx, reason, measure)
            fact = _fact(
                f"f{len(facts) + 1}",
                s.id,
                fname,
                run,
                idx,
                reason,
                measure,
                f"{_row_phrase(draft, s.id, reason, measure, label[1] if label else None)}의 "
                f"{field_label(s.tool, fname)}",
                s.tool,
            )
            fact["value"] = f"{base}.{fname}{typed(s.tool, fname, row.get(fname))[2] or ''}"
            fact["row_label"] = label[1] if label else None
            fact["row_label_field"] = label[0] if label else None
            if reason in ("max", "min") and not label and not typed(s.tool, fname, row.get(fname))[2]:
                # An unnamed pick: the grader (scorers.grading.fact_context) takes every other row's
                # value of the field as a competitor; written here so that the pipeline's answer check
                # (filter.answer_holds) reads the answer as the grader will (edge-s1-0000363: "(현원
                # 26)" was another row's 정원 26, a competitor claim, and the row failed its own grader).
                fact["competitors"] = _value_rivals(items, idx, fname)
            facts.append(fact)
            if label:
                rivals = _rivals(items, idx, label[0]) if reason in ("max", "min") else []
                # whose list a pick is of ("'A병원'의 진료과목 중 …"): the same pick of two hospitals' lists
                # has one measure and one description, so only the owner tells the two claims apart
                # (matching 4b reads a pick only in the units naming its scope)
                owner = list_owner(draft, s.id, run.outputs)
                scope = {"scope": owner.strip("'")} if owner and rivals else {}
                if fname == label[0]:
                    if rivals:  # the fact is the pick itself: only the claimed winner counts
                        fact["competitors"] = rivals
                        fact |= scope
                else:
                    fact["subject"] = label[1]  # the value is said next to its row's name
                    if rivals:
                        # which row is the largest/smallest is a fact of its own: an answer that
                        # names another row, or lists every row without a pick, does not hold it
                        facts.append(
                            {
                                "id": f"f{len(facts) + 1}",
                                "description": _row_phrase(draft, s.id, reason, measure),
                                "value": f"{base}.{label[0]}",
                                "resolved": label[1],
                                "matcher": "name",
                                "tolerance": 0.0,
                                "step": s.id,
                                "field": label[0],
                                "row": idx,
                                "row_reason": reason,
                                "measure": measure,
                                "measure_value": row.get(measure),
                                "row_label": label[1],
                                "row_label_field": label[0],
                                "competitors": rivals,
                                "pick_for": fact["id"],
                            }
                            | scope
                        )
        if sum(1 for f in facts if "pick_for" not in f) >= 4:
            break
    return facts


def _day_said(yyyymmdd: str, clock: str | None) -> str:
    """A forecast day as a person says it: 오늘 / 내일 / 모레 against the clock, else the date (the
    query already said today's date once; "오늘(…) … 예보의 2026년 12월 4일 6시" said it twice)."""
    if clock is not None and DATE8.match(yyyymmdd):
        today = parse_clock(clock).date()
        days = (date(int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:8])) - today).days
        if days in (0, 1, 2):
            return ("오늘", "내일", "모레")[days]
    return date_ko(yyyymmdd)


def _weather_fact(
    draft: Draft, run: PlanRun, sid: str, rng: random.Random, fid: str, clock: str | None = None
) -> dict[str, Any] | None:
    """The temperature / chance of rain / humidity of a forecast at its first time among the rows the
    model sees (askable.WEATHER), or None (no such category shown)."""
    tool = draft.step(sid).tool
    w = WEATHER[tool]
    out = run.outputs[sid]
    rows = out["items"][: visible_count(tool, run.args[sid], out)]
    ok = [
        i
        for i, it in enumerate(rows)
        if it.get("category") in w.categories and numeric(it.get(w.value)) is not None
    ]
    if not ok:
        return None
    cat = rng.choice(sorted({rows[i]["category"] for i in ok}))
    idx = min(
        (i for i in ok if rows[i]["category"] == cat),
        key=lambda i: (str(rows[i].get("fcstDate", "")), str(rows[i].get("fcstTime", ""))),
    )
    row = rows[idx]
    word, unit = w.categories[cat]
    # an observation is now ("현재 날씨의 기온"); a forecast is for a time ("… 12시 기온")
    day = _day_said(str(row["fcstDate"]), clock) if w.when else ""
    args = {**draft.step(sid).args, **run.args.get(sid, {})}
    if day == "오늘" and str(row["fcstDate"]) in {str(v) for v in args.values()}:
        day = ""  # the query says "오늘(2026년 12월 5일) … 예보" already: "… 예보의 11시 습도", not "의 오늘 11시"
    when = join_words(day, time_said(str(row["fcstTime"]))) + " " if w.when else ""
    if any(numeric(x) == numeric(row[w.value]) for x in re.findall(r"\d+", when)):
        return None  # "3일 …의 기온은 3도": the figure would be read off the time said with it
    fact = _fact(fid, sid, w.value, run, idx, "forecast", None, f"{user_noun(tool)}의 {when}{word}", tool)
    # "said_unit": what the answer says after the figure ("5도"); "unit" is the matcher's API unit
    fact.update({"said_as": f"{when}{word}", "said_unit": unit, "category": cat})
    return fact


# The other rows a "which one" fact names as wrong picks: enough to cover what an answer lists,
# few enough that facts_json stays small (the model sees at most the visible rows anyway).
MAX_COMPETITORS = 30


def _rivals(items: list[dict[str, Any]], idx: int, name_field: str) -> list[str]:
    """The other rows' names (the field that names the picked row), in row order, capped."""
    own = str(items[idx].get(name_field, "")).strip()
    names = (it.get(name_field) for k, it in enumerate(items) if k != idx)
    out = [n.strip() for n in names if isinstance(n, str) and n.strip()]
    return list(dict.fromkeys(n for n in out if n != own))[:MAX_COMPETITORS]


def _value_rivals(items: list[dict[str, Any]], idx: int, fname: str) -> list[str]:
    """The other rows' values of ``fname`` (not the picked row's own value), in row order, capped."""
    own = str(items[idx].get(fname)).strip()
    out = [str(it.get(fname)).strip() for k, it in enumerate(items) if k != idx and _usable(it.get(fname))]
    return list(dict.fromkeys(v for v in out if v != own))[:MAX_COMPETITORS]


def _cmp_label(draft: Draft, j: Any, sid: str) -> tuple[str, str] | None:
    """(field, name) of the producer row a compared call was made for, or None (an unnamed row)."""
    items = draft.outputs[j.producer]["items"]
    i = j.detail["items"][j.consumers.index(sid)]
    return row_label(draft.step(j.producer).tool, items[i], items) if i < len(items) else None


def _bound(fact: dict[str, Any], label: tuple[str, str] | None) -> dict[str, Any]:
    """A compared row's figure is bound to that row's name (matching: the value must be said next
    to it), so the two rows' figures cannot be swapped."""
    if label:
        fact["subject"] = label[1]
    return fact


def _winner_fact(
    draft: Draft, run: PlanRun, j: Any, best: str, fid: str, desc: str, figure_ref: str, figure: Any
) -> dict[str, Any]:
    """Which compared row wins: a "name" fact (the winner's name, the other rows as competitors), so
    only an answer that claims the right winner holds it; the winner's figure is its own
    subject-bound fact. Unnamed rows (not sampled; kept for safety) fall back to the figure."""
    labels = {s: _cmp_label(draft, j, s) for s in j.consumers}
    names = [lab[1] for lab in labels.values() if lab]
    base = {
        "id": fid,
        "tolerance": 0.0,
        "winner_step": best,
        "row": 0,
        "row_reason": "compared",
        "winner_label": _cmp_name(draft, run, j, best),
    }
    win = labels[best]
    if win is None or len(set(names)) != len(j.consumers):
        matcher, resolved, sl = typed(draft.step(best).tool, j.detail["compare"], figure)
        unit = unit_of(draft.step(best).tool, j.detail["compare"], figure)
        return {
            **base,
            "description": f"{desc}의 값",
            "value": figure_ref + (sl or ""),
            "resolved": resolved,
            "matcher": matcher or "number",
            **({"unit": unit} if unit else {}),
        }
    i = j.detail["items"][j.consumers.index(best)]
    return {
        **base,
        "description": f"{desc}의 이름",
        "value": f"${j.producer}.items[{i}].{win[0]}",
        "resolved": win[1],
        "matcher": "name",
        "competitors": [n for n in names if n != win[1]],
        "winner_value": figure,
        "winner_value_ref": figure_ref,
    }


def _fact(
    fid: str,
    step: str,
    fname: str,
    run: PlanRun,
    idx: int,
    reason: str,
    measure: str | None,
    desc: str,
    tool: str,
) -> dict[str, Any]:
    row = run.outputs[step]["items"][idx]
    value = row.get(fname)
    # A date, a timestamp or a clock time is said as a person says it and scored by the matcher
    # that reads that form (values.typed: date / time; a timestamp by its date, the reference
    # sliced to it); everything else by its shape.
    matcher, resolved, sl = typed(tool, fname, value)
    fact = {
        "id": fid,
        "description": desc,
        "value": f"${step}.items[{idx}].{fname}{sl or ''}",
        "resolved": resolved,
        "matcher": matcher or matcher_for(value),
        "tolerance": 0.0,
        "step": step,
        "field": fname,
        "row": idx,
        "row_reason": reason,
    }
    if unit := unit_of(tool, fname, value):
        fact["unit"] = unit  # a 만원 amount, said in won ("12억 3,000만 원")

    if measure:
        fact["measure"] = measure
        fact["measure_value"] = row.get(measure)
    return fact


def _row_phrase(draft: Draft, sid: str, reason: str, measure: str | None, label: str | None = None) -> str:
    """The row a fact is read from, for the fact's description (facts_json)."""
    op_id = draft.step(sid).tool
    noun = user_noun(op_id)
    if reason in ("max", "min"):
        how = most(op_id, measure, reason, draft.outputs[sid]["items"])
        return f"{noun} 중 {i_ga(field_label(op_id, measure or ''))} {how} {row_word(op_id)}"
    if reason == "named" and label:
        return f"{noun} 중 '{label}'"
    return noun


def _cmp_name(draft: Draft, run: PlanRun, j: Any, sid: str) -> str:
    k = j.consumers.index(sid)
    item = j.detail["items"][k]
    return producer_row_name(draft, j.producer, item, None)
