"""Phase B.2: execute a sampled plan for real, then write the query and answer from its outputs.

The plan runs through ``kopa_inspect.plans.execute_plan`` on a fresh Session (auth tokens issued
first, in plan order, as the auth tool would), so what the dataset shows is what the backend
said. Facts are KOPA-Bench facts (``AnswerFact``: a plan reference, a matcher, a tolerance) plus
the value they resolved to and which row it came from and why (``row``, ``row_reason``).

Without a model, a small Korean grammar writes the query and the answer as a person would (issue
10): ONE question about what they want, the intermediate calls described as things
("서울특별시 노원구(11350) 지난달(2026년 11월) 아파트 매매 거래 중 '중계하늘채'와 같은 동네의 병원 중
의사 총수가 가장 큰 병원의 주소는 어떻게 되나요?"), named with natural.USER_NOUNS (never the specs'
operation names), with every value the user must give stated; a COND adds one sentence that states
a condition from conditions.CONDITIONS. Each row is picked by a criterion the user states (a
superlative, a name, the only result; a list without either is asked for its count), and the answer
says which row and why ("… 가장 큰 병원은 '열린요양병원'(의사 총수 7)이고, 주소는 …입니다."). korean.py
picks the particles by 받침. With ``--model`` any Inspect model rewrites both from the real outputs;
the rewrite is used only if it passes every check (``model_text_problems``, which includes
natural.naturalness_problems); the filters (filter.py, pipeline.py) then check the row like any other.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from edge_synth.askable import WEATHER, askable_fields, picks_by
from edge_synth.conditions import lookup
from edge_synth.describe import row_label
from edge_synth.fields import concept, field_format, is_plumbing, param_format
from edge_synth.filter import time_ko
from edge_synth.korean import date_ko, eul, eun, final_sound, gwa, i_ga, ordinal, ro, ym_ko
from edge_synth.lexicon import field_label, op_noun, param_label, row_word, user_noun
from edge_synth.natural import (
    COUNTABLE,
    DETAIL_OF_ROW,
    FLUENCY_CHECKS,
    PLACE_ROWS,
    branch_noun,
    counter,
    fluency_problems,
    name_says_kind,
    naturalness_problems,
    true_count,
)
from edge_synth.pool import clock_values
from edge_synth.sample import COUNT, Draft, numeric, numeric_fields, region_names, visible_count
from edge_synth.validity import found_by_search, partial, pick_problems, unrelated_asks
from edge_synth.values import is_clock_kind, later_phrase, say, time_said, typed, unit_of, value_kind
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import Backend
from kopa_inspect.plans import Plan, PlanRun
from kopa_inspect.trajectories import SYSTEM_PROMPT, build_messages, execute, system_prompt, tools_for
from kopa_inspect.trajectories import render_output as render_output
from kopa_inspect.world import parse_clock

_DATE8 = re.compile(r"^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$")


@dataclass
class Composed:
    plan: Plan
    run: PlanRun
    query: str
    answer: str
    facts: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    tokens: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # execute vs write (query/answer/messages)
    system: str = SYSTEM_PROMPT
    # Who wrote query and answer: "grammar", "model", or "grammar (model rejected: <why>)".
    writer: str = "grammar"
    # Leaves that got no fact because nothing in their row is asked by a person (askable.py).
    silent: list[str] = field(default_factory=list)
    # Why the question is not one a person asks (validity.py); the pipeline drops the row by the first.
    invalid: list[str] = field(default_factory=list)


def ko(text: str) -> str:
    """The Korean part of a 'Korean (English gloss)' description."""
    return re.split(r"\s*\(", text, maxsplit=1)[0].strip() or text


def field_desc(op_id: str, fname: str) -> str:  # kept for callers of the old name
    return field_label(op_id, fname)


def op_desc(op_id: str) -> str:  # kept for callers of the old name
    return op_noun(op_id)


def matcher_for(value: Any) -> str:
    s = str(value).strip()
    if _DATE8.match(s):
        return "date"
    if numeric(s) is not None:
        return "number"
    return "name"


def _usable(v: Any) -> bool:
    return isinstance(v, str | int | float) and not isinstance(v, bool) and str(v).strip() not in ("", "-")


def _opaque(v: Any) -> bool:
    """A long machine token (no spaces, no Hangul, not a number or URL): nothing to tell a person."""
    t = str(v).strip()
    return (len(t) >= 20 and " " not in t and not re.search(r"[가-힣]", t) and numeric(t) is None
            and not t.startswith("http"))


def _pick_fact_field(op_id: str, row: dict[str, Any], rng: random.Random, avoid: set[str]) -> str | None:
    # Only fields a person asks about (askable.py: "의사 수", "전화번호", "정류장 번호"; never a
    # record's edit date, a grid cell, a code or the distance of a station from a point), and of
    # those only values present, not given to the call, and not an opaque token.
    fields = [k for k in askable_fields(op_id) if _usable(row.get(k)) and k not in avoid and not _opaque(row.get(k))]
    if not fields:
        return None
    nums = [f for f in fields if numeric(row[f]) is not None]
    return rng.choice(nums) if nums and rng.random() < 0.6 else rng.choice(fields)


def choose_row(items: list[dict[str, Any]], rng: random.Random, op_id: str | None = None,
               named: bool = True, ranked: bool = True) -> tuple[int, str, str | None]:
    """Which row a fact is read from and why: (index, reason, measure field); (-1, "", None): none.

    reason: only (one row), max / min (the row with the largest / smallest measure, unique),
    named (a row the user names, "'석촌호수'"). Never a position: "the first row" is nothing a
    person asks about."""
    if len(items) == 1:
        return 0, "only", None
    options: list[tuple[int, str, str | None]] = []
    # A row is picked by what a person picks by ("의사가 가장 많은", "가장 가까운"): askable.picks_by.
    # ``ranked=False``: the rows are one page of a longer list, so no largest/smallest (partial_pick)
    for m in (f for f in numeric_fields(items, op_id=op_id) if ranked and (op_id is None or picks_by(op_id, f))):
        vals = [numeric(it[m]) for it in items]
        for how, pick in (("max", max), ("min", min)):
            best = pick(v for v in vals if v is not None)
            if sum(v == best for v in vals) == 1:
                options.append((vals.index(best), how, m))
    named_rows = [i for i, it in enumerate(items) if named and op_id and row_label(op_id, it, items) is not None]
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


def make_facts(draft: Draft, run: PlanRun, rng: random.Random, silent: list[str] | None = None,
               clock: str | None = None) -> list[dict[str, Any]]:
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
    j = _incoming(draft, sid)
    items = run.outputs[sid]["items"]
    if j is None or j.type != "DRV" or "reduce" not in j.detail or any(x.type == "CMP" for x in draft.junctions):
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
    fact.update(value=f"{_row_ref(p, pitems, idx, how, by)}.{label[0]}", resolved=label[1], matcher="name",
                row_label=label[1], row_label_field=label[0], competitors=_rivals(pitems, idx, label[0]))
    return fact


def _unknown_one(draft: Draft, sid: str) -> bool:
    """A list whose one row the user cannot know: found around another row (validity.found_by_search), or
    the user's own list by a place they name ("길음동의 병원": which hospital is there?)."""
    if found_by_search(draft, sid):
        return True
    step = draft.step(sid)
    return _incoming(draft, sid) is None and any(
        _PLACE_FILTER.search(param_label(step.tool, k)) or concept(k, step.tool) in ("sidonm", "sggnm", "umdnm")
        for k, _ in literal_args(step))


def _only_row_asked_first(draft: Draft, run: PlanRun, sid: str, reason: str, fname: str) -> dict[str, Any] | None:
    """The one row of a list found around another row ("'X'와 같은 동네의 병원", one hospital): the user cannot
    know there is one, so which it is is asked first ("… 같은 동네의 병원은 어디인가요? 그리고 그 병원의 …"), a
    name fact the answer states. For the leaf's own row (its fact is another field) or for the single row a
    leaf's call was made for (SEQ/SEM: its hours, its departments). None beside a comparison (a third ask)."""
    if any(x.type == "CMP" for x in draft.junctions):
        return None
    items = run.outputs[sid]["items"]
    j = _incoming(draft, sid)
    if reason == "only" and len(items) == 1 and _unknown_one(draft, sid):
        target, t_items = sid, items
    elif (j is not None and j.type in ("SEQ", "SEM") and len(run.outputs[j.producer]["items"]) == 1
          and _unknown_one(draft, j.producer)):
        target, t_items = j.producer, run.outputs[j.producer]["items"]
    else:
        return None
    tool = draft.step(target).tool
    label = row_label(tool, t_items[0], t_items)
    if label is None or (target == sid and label[0] == fname) or label[0] not in askable_fields(tool):
        return None  # a place table's row ("'X'가 있는 동네") has nothing to ask: its name is the user's
    fact = _fact(f"o{sid}", target, label[0], run, 0, "only", None, f"{user_noun(tool)}의 이름", tool)
    fact.update(value=f"${target}.items[0].{label[0]}", resolved=label[1], matcher="name", row_label=label[1],
                row_label_field=label[0])
    return fact


def _make_facts(draft: Draft, run: PlanRun, rng: random.Random, silent: list[str] | None = None,
                clock: str | None = None) -> list[dict[str, Any]]:
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
                facts.append(_bound({"id": f"f{len(facts) + 1}", "description": f"{_cmp_name(draft, run, j, sid)}의 {noun} 수",
                                     "value": f"${sid}.totalCount", "resolved": n, "matcher": "number",
                                     "tolerance": 0.0, "step": sid, "field": COUNT, "row": 0, "row_reason": "compared"},
                                    _cmp_label(draft, j, sid)))
            facts.append(_winner_fact(draft, run, j, best, f"f{len(facts) + 1}",
                                      f"{noun}{'이' if final_sound(noun) else '가'} 더 많은 쪽",
                                      f"${best}.totalCount", true_count(run.outputs[best])))
            continue
        if j.type == "CMP":
            f = j.detail["compare"]
            vals = [(numeric(run.outputs[s]["items"][0].get(f)), s) for s in j.consumers]
            best = max(vals, key=lambda t: (t[0] if t[0] is not None else float("-inf")))[1]
            for sid in j.consumers:
                facts.append(_bound(_fact(f"f{len(facts) + 1}", sid, f, run, 0, "compared", None,
                                          f"{_cmp_name(draft, run, j, sid)}의 {field_label(draft.step(sid).tool, f)}",
                                          draft.step(sid).tool),
                                    _cmp_label(draft, j, sid)))
            facts.append(_winner_fact(draft, run, j, best, f"f{len(facts) + 1}",
                                      f"{cmp_phrase(draft.step(best).tool, f, run.outputs[best]['items'][0].get(f))} 쪽",
                                      f"${best}.items[0].{f}", run.outputs[best]["items"][0].get(f)))
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
            named = [i for i, it in enumerate(items[:shown]) if nameable and row_label(s.tool, it, items) is not None]
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
            facts.append({"id": f"f{len(facts) + 1}", "description": f"{user_noun(s.tool)} 건수",
                          "value": f"${s.id}.totalCount", "resolved": total, "matcher": "number",
                          "tolerance": 0.0, "step": s.id, "field": COUNT, "row": 0, "row_reason": "count"})
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
                avoid2 = ({measure2} if measure2 else set()) | {k for k, v in items[idx2].items() if str(v) in given}
                f2 = _pick_fact_field(s.tool, items[idx2], rng, avoid2)
                if f2 is not None:
                    idx, reason, measure, row, label, fname = idx2, reason2, measure2, items[idx2], label2, f2
        if fname is None and silent is not None:
            silent.append(s.id)
        if fname:
            first = _pick_asked_first(draft, run, s.id) or _only_row_asked_first(draft, run, s.id, reason, fname)
            if first is not None and first["step"] not in asked_first:
                asked_first.add(first["step"])
                facts.append(first)
            base = _row_ref(s.id, items, idx, reason, measure)
            fact = _fact(f"f{len(facts) + 1}", s.id, fname, run, idx, reason, measure,
                         f"{_row_phrase(draft, s.id, reason, measure, label[1] if label else None)}의 "
                         f"{field_label(s.tool, fname)}", s.tool)
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
                owner = _owner(draft, s.id, run.outputs)
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
                        facts.append({"id": f"f{len(facts) + 1}", "description": _row_phrase(
                                          draft, s.id, reason, measure),
                                      "value": f"{base}.{label[0]}", "resolved": label[1], "matcher": "name",
                                      "tolerance": 0.0, "step": s.id, "field": label[0], "row": idx,
                                      "row_reason": reason, "measure": measure,
                                      "measure_value": row.get(measure), "row_label": label[1],
                                      "row_label_field": label[0], "competitors": rivals,
                                      "pick_for": fact["id"]} | scope)
        if sum(1 for f in facts if "pick_for" not in f) >= 4:
            break
    return facts


def _day_said(yyyymmdd: str, clock: str | None) -> str:
    """A forecast day as a person says it: 오늘 / 내일 / 모레 against the clock, else the date (the
    query already said today's date once; "오늘(…) … 예보의 2026년 12월 4일 6시" said it twice)."""
    if clock is not None and _DATE8.match(yyyymmdd):
        today = parse_clock(clock).date()
        days = (date(int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:8])) - today).days
        if days in (0, 1, 2):
            return ("오늘", "내일", "모레")[days]
    return date_ko(yyyymmdd)


def _weather_fact(draft: Draft, run: PlanRun, sid: str, rng: random.Random, fid: str,
                  clock: str | None = None) -> dict[str, Any] | None:
    """The temperature / chance of rain / humidity of a forecast at its first time among the rows the
    model sees (askable.WEATHER), or None (no such category shown)."""
    tool = draft.step(sid).tool
    w = WEATHER[tool]
    out = run.outputs[sid]
    rows = out["items"][:visible_count(tool, run.args[sid], out)]
    ok = [i for i, it in enumerate(rows) if it.get("category") in w.categories and numeric(it.get(w.value)) is not None]
    if not ok:
        return None
    cat = rng.choice(sorted({rows[i]["category"] for i in ok}))
    idx = min((i for i in ok if rows[i]["category"] == cat),
              key=lambda i: (str(rows[i].get("fcstDate", "")), str(rows[i].get("fcstTime", ""))))
    row = rows[idx]
    word, unit = w.categories[cat]
    # an observation is now ("현재 날씨의 기온"); a forecast is for a time ("… 12시 기온")
    day = _day_said(str(row['fcstDate']), clock) if w.when else ""
    args = {**draft.step(sid).args, **run.args.get(sid, {})}
    if day == "오늘" and str(row['fcstDate']) in {str(v) for v in args.values()}:
        day = ""  # the query says "오늘(2026년 12월 5일) … 예보" already: "… 예보의 11시 습도", not "의 오늘 11시"
    when = _join(day, time_said(str(row['fcstTime']))) + " " if w.when else ""
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


def _said_by_rival(value: Any, rivals: list[Any] | None) -> bool:
    """Would saying ``value`` read as naming another row's answer (a number among the competitors)?"""
    n = numeric(value)
    return n is not None and any(numeric(c) == n for c in rivals or [])


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


def _winner_fact(draft: Draft, run: PlanRun, j: Any, best: str, fid: str, desc: str, figure_ref: str,
                 figure: Any) -> dict[str, Any]:
    """Which compared row wins: a "name" fact (the winner's name, the other rows as competitors), so
    only an answer that claims the right winner holds it; the winner's figure is its own
    subject-bound fact. Unnamed rows (not sampled; kept for safety) fall back to the figure."""
    labels = {s: _cmp_label(draft, j, s) for s in j.consumers}
    names = [lab[1] for lab in labels.values() if lab]
    base = {"id": fid, "tolerance": 0.0, "winner_step": best, "row": 0, "row_reason": "compared",
            "winner_label": _cmp_name(draft, run, j, best)}
    win = labels[best]
    if win is None or len(set(names)) != len(j.consumers):
        matcher, resolved, sl = typed(draft.step(best).tool, j.detail["compare"], figure)
        unit = unit_of(draft.step(best).tool, j.detail["compare"], figure)
        return {**base, "description": f"{desc}의 값", "value": figure_ref + (sl or ""), "resolved": resolved,
                "matcher": matcher or "number", **({"unit": unit} if unit else {})}
    i = j.detail["items"][j.consumers.index(best)]
    return {**base, "description": f"{desc}의 이름", "value": f"${j.producer}.items[{i}].{win[0]}",
            "resolved": win[1], "matcher": "name", "competitors": [n for n in names if n != win[1]],
            "winner_value": figure, "winner_value_ref": figure_ref}


def _fact(fid: str, step: str, fname: str, run: PlanRun, idx: int, reason: str, measure: str | None,
          desc: str, tool: str) -> dict[str, Any]:
    row = run.outputs[step]["items"][idx]
    value = row.get(fname)
    # A date, a timestamp or a clock time is said as a person says it and scored by the matcher
    # that reads that form (values.typed: date / time; a timestamp by its date, the reference
    # sliced to it); everything else by its shape.
    matcher, resolved, sl = typed(tool, fname, value)
    fact = {"id": fid, "description": desc, "value": f"${step}.items[{idx}].{fname}{sl or ''}",
            "resolved": resolved, "matcher": matcher or matcher_for(value), "tolerance": 0.0, "step": step,
            "field": fname, "row": idx, "row_reason": reason}
    if unit := unit_of(tool, fname, value):
        fact["unit"] = unit  # a 만원 amount, said in won ("12억 3,000만 원")

    if measure:
        fact["measure"] = measure
        fact["measure_value"] = row.get(measure)
    return fact


def cmp_phrase(op_id: str, fname: str, value: Any) -> str:
    """What "wins" a comparison on ``fname``: "토요일 진료가 더 늦게 끝나는" for a clock value (the
    larger HHMM is the later time), "거래금액이 더 큰" for a figure."""
    label = field_label(op_id, fname)
    if is_clock_kind(op_id, fname, value):
        return later_phrase(label)
    if _counted(label):
        return f"{i_ga(label)} 더 많은"
    return f"{i_ga(label)} 더 높은" if _LEVEL.search(label) else f"{i_ga(label)} 더 큰"


# A level (a concentration, an index, a temperature, a floor): high or low, not large or small.
_LEVEL = re.compile(r"(?:농도|지수|기온|온도|습도|확률|금리|비율|층)$")


def _counted(label: str) -> bool:
    """A count ("의사 수", "주차 가능 대수", "병상 수"): a person says more/most of it, not larger."""
    return (label.endswith("수") and not label.endswith("지수")) or label.split()[-1:] == ["인원"]


def most(op_id: str, fname: str | None, how: str, items: list[dict[str, Any]]) -> str:
    """"가장 큰"/"가장 작은", or for a clock measure "가장 늦은"/"가장 이른" (a time is not large)."""
    clock = bool(fname and any(is_clock_kind(op_id, fname, it.get(fname)) for it in items[:1]))
    if clock:
        return "가장 늦은" if how in ("max", "max_by") else "가장 이른"
    if fname and _counted(field_label(op_id, fname)):
        return "가장 많은" if how in ("max", "max_by") else "가장 적은"
    if fname and _LEVEL.search(field_label(op_id, fname)):
        return "가장 높은" if how in ("max", "max_by") else "가장 낮은"
    return "가장 큰" if how in ("max", "max_by") else "가장 작은"


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


def as_list(name: str) -> str:
    """"병원정보 목록" stays as it is; "단기예보" -> "단기예보 목록" (never "목록 목록")."""
    return name if name.endswith("목록") else f"{name} 목록"


# --- the query ------------------------------------------------------------------------------------


def render_value(op_id: str, pname: str, value: Any, clock_vals: dict[str, str]) -> str:
    """A literal argument as a person says it: "지난달(2026년 11월)", "2026년 12월 3일", "해운대"."""
    p = get_operation(op_id).param(pname)
    fmt = param_format(p) if p is not None else None
    v = str(value)
    is_clock = fmt is not None and clock_vals.get(fmt) == v
    if fmt == "date8" and _DATE8.match(v):
        return f"오늘({date_ko(v)})" if is_clock else date_ko(v)
    if fmt == "ym6" and re.fullmatch(r"(19|20)\d{2}(0[1-9]|1[0-2])", v):  # a 6-digit code is no year-month
        return f"지난달({ym_ko(v)})" if is_clock else ym_ko(v)
    if fmt == "year4" and re.fullmatch(r"\d{4}", v):
        return f"올해({v}년)" if is_clock else f"{v}년"
    if fmt == "time4" and re.fullmatch(r"\d{4}", v):
        return f"가장 최근 발표 시각({time_ko(v)})" if is_clock else time_ko(v)
    if fmt == "tm12" and is_clock:
        return f"가장 최근 발표({date_ko(v[:8])} {int(v[8:10])}시)"
    if p is not None and concept(pname, op_id) == "radius":
        return f"{v}미터"  # "2000m" would glue a letter to the number the filter looks for
    return v


def literal_args(step: Any) -> list[tuple[str, Any]]:
    """The arguments a step passes as literals (not references, not plumbing, not tokens)."""
    op = get_operation(step.tool)
    out = []
    for k, v in step.args.items():
        if isinstance(v, str) and v.startswith("$"):
            continue
        p = op.param(k)
        if p is not None and is_plumbing(p):
            continue
        out.append((k, v))
    return out


def _arg_phrase(step: Any, clock_vals: dict[str, str]) -> str:
    parts = [f"{param_label(step.tool, k)} {render_value(step.tool, k, v, clock_vals)}" for k, v in literal_args(step)]
    return (", ".join(parts) + " 기준으로 ") if parts else ""


def _producer_row_name(draft: Draft, producer: str, j: int, value_field: str | None) -> str:
    """How the query names row ``j`` of a producer: its name, else its position."""
    items = draft.outputs[producer]["items"]
    lab = row_label(draft.step(producer).tool, items[j], items) if j < len(items) else None
    if lab:
        return f"'{lab[1]}'"
    return f"{ordinal(j + 1)} 항목"


def _cmp_name(draft: Draft, run: PlanRun, j: Any, sid: str) -> str:
    k = j.consumers.index(sid)
    item = j.detail["items"][k]
    return _producer_row_name(draft, j.producer, item, None)


def step_name(draft: Draft, sid: str) -> str:
    """A step's result as the query names it: "'해운대'의 측정소별 실시간 대기질" for a call made per row."""
    tool = draft.step(sid).tool
    for j in draft.junctions:
        if sid in j.consumers and j.type in ("FAN", "CMP", "SEQ", "SEM"):
            if j.type in ("FAN", "CMP"):
                row = j.detail["items"][j.consumers.index(sid)]
            else:
                row = j.detail.get("item", 0)
            return f"{_producer_row_name(draft, j.producer, row, None)}의 {op_noun(tool)}"
    return op_noun(tool)


def _from(draft: Draft, producer: str, previous: str | None) -> str:
    """'그중' when the sentence before produced the rows; else the producer named."""
    return "그중" if producer == previous else f"{op_noun(draft.step(producer).tool)} 결과 중"


def _link_field(draft: Draft, j: Any) -> str:
    """The producer field a junction's link carries (read from the consumer's reference)."""
    for v in draft.step(j.consumers[0]).args.values():
        if isinstance(v, str) and v.startswith(f"${j.producer}."):
            m = re.search(r"\.([A-Za-z_][\w]*)(\[\d*:\d*\])?$", v)
            if m:
                return m.group(1)
    return ""


def link_label(op_id: str, fname: str) -> str:
    """What a link hands on, as a person says it: a grid cell or a point is one thing ("격자 좌표",
    "위치") though it travels as two values (nx with ny, longitude with latitude)."""
    c = concept(fname, op_id)
    if c in ("nx", "ny"):
        return "예보 격자 좌표"
    if c in ("lon", "lat"):
        return "위치(경위도)"
    return field_label(op_id, fname)


# A link's field concept -> the place two rows share when the link hands it on ("같은 시군구의").
_PLACE_OF = {"sidonm": "시도", "sido2": "시도", "sggnm": "시군구", "lawd5": "시군구", "umdnm": "동네",
             "code10": "법정동", "areacode": "지역"}


def fact_label(op_id: str, fname: str) -> str:
    """What the question asks for: a field's label, or "건수" for a count of rows."""
    return "건수" if fname == COUNT else field_label(op_id, fname)


def asked_label(draft: Draft, f: dict[str, Any]) -> str:
    """What a fact asks for, as the question and the answer say it: a forecast's "12시 기온", else
    the field's word."""
    return f.get("said_as") or fact_label(draft.step(f["step"]).tool, f["field"])


def _incoming(draft: Draft, sid: str) -> Any:
    return next((j for j in draft.junctions if sid in j.consumers), None)


def _consumer_ref(draft: Draft, j: Any, sid: str) -> tuple[str, str]:
    """The producer field the link into ``sid`` carries, and the slice it takes of it (``[0:5]``,
    or "")."""
    for v in draft.step(sid).args.values():
        if isinstance(v, str) and v.startswith(f"${j.producer}."):
            m = re.search(r"\.([A-Za-z_][\w]*)(\[\d*:\d*\])?$", v)
            if m:
                return m.group(1), m.group(2) or ""
    return "", ""


# A 10-digit 법정동 code cut to its head names a larger place: its first 5 digits are the 시군구
# (molit's LAWD_CD), its first 2 the 시도.
_CODE10_CUT = {"[0:5]": "시군구", "[:5]": "시군구", "[0:2]": "시도", "[:2]": "시도"}


_SIDO_NAME = re.compile(r"(?:도|특별시|광역시|특별자치시|특별자치도)$")


def _names_the_place(who: str, place: str) -> bool:
    """Whether a quoted row name is itself the place of that level: a 시군구 ("'서울특별시 종로구'", "'수원시'")
    or a 시도 ("'부산광역시'"); a 동 or a building is not ("'서울특별시 종로구 통인동'", "'중구문화원'")."""
    words = who.strip("'").split()
    if not words:
        return False
    if place == "시군구":
        return bool(re.search(r"[가-힣](?:구|군|시)$", words[-1])) and all(_SIDO_NAME.search(w) or
                                                                      re.search(r"시$", w) for w in words[:-1])
    if place == "시도":
        return len(words) == 1 and bool(_SIDO_NAME.search(words[0]))
    return False


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


_HOP_IN_HOP = re.compile(r"([이가]) 있는 (?:동네|시군구|법정동|시도)[이가] 있는 (시군구|법정동|동네|시도)")
_HOP_ON_HOP = re.compile(r"([이가]) 있는 (?:동네|시군구|법정동|시도)[와과] 같은 (시군구|법정동|동네|시도)의")


def _place_hop(rel: str) -> str:
    """A place looked up for a row, then the same place at another level, is one place: "'동아2'가 있는
    동네와 같은 시군구의" -> "'동아2'가 있는 시군구의" (two hops said as places read as stacked nouns)."""
    return _HOP_ON_HOP.sub(r"\1 있는 \2의", _HOP_IN_HOP.sub(r"\1 있는 \2", rel))


def _relation(draft: Draft, j: Any, sid: str, clock_vals: dict[str, str], who: str | None = None) -> str:
    """How the consumer relates to the row it came from: near it, in the same place, or its own.
    ``who=""`` gives the relation without the row ("같은 시군구의", "근처", "")."""
    who = who or ""
    prod_tool = draft.step(j.producer).tool
    fname, cut = _consumer_ref(draft, j, sid)
    c = concept(fname, prod_tool) or ""
    desc = get_operation(prod_tool).output_fields.get(fname, "")
    if field_format(fname, desc, prod_tool) == "date8" or re.search(r"시작일|일자|날짜|locdate", fname + desc):
        # A user's own date handed on (a festival's start, a holiday). A month of it is the month
        # the row falls in ("'원주 벚꽃축제'가 열리는 달의 국경일"), else its day.
        monthly = any("month" in k.lower() for k, v in draft.step(sid).args.items()
                      if isinstance(v, str) and v.startswith(f"${j.producer}."))
        if monthly:
            verb = "열리는" if prod_tool == "tourapi_searchFestival2" else "있는"
            return f"{i_ga(who)} {verb} 달의" if who else "그 달의"
        if prod_tool.startswith("kasi_") and draft.step(sid).tool == "tourapi_searchFestival2":
            # a holiday is a day the user names: festivals from it ("'어린이날'부터 열리는 축제")
            return f"{who}부터 열리는" if who else "그 날부터 열리는"
        return f"{who}의 날짜에 맞춘".strip() if who else "그 날짜에 맞춘"  # natural.date_hops drops it
    if c in ("lon", "lat"):
        return f"{who} 근처".strip()
    if c in _PLACE_OF:
        place = _CODE10_CUT.get(cut, _PLACE_OF[c]) if c == "code10" else _PLACE_OF[c]
        if who and prod_tool in PLACE_ROWS and _names_the_place(who, place):
            return f"{who}의"  # the row is that place: "'서울특별시 종로구'의", not "…와 같은 시군구의"
        return f"{gwa(who)} 같은 {place}의" if who else f"같은 {place}의"
    return f"{who}의" if who else ""


# --- the query: each thing said once, then referred back to ---------------------------------------
#
# Long chains used to read as stacked noun phrases: the chain before each asked row was said again
# for every ask ("오늘(2026년 12월 4일) 시간 평균 대기오염도 중 '도봉구'의 권역별 실시간 대기환경의
# 통합대기환경지수 그리고 오늘(2026년 12월 4일) 시간 평균 대기오염도 중 …"). A person says a list once and
# then points back into it: a row named once is later just its name, a list described once is "그
# 병원", a pick from the list just described needs no list ("초미세먼지 농도가 가장 낮은 구"), the
# date is said once ("오늘" after), a radius once ("반경 2km 안의", then "근처"), and a call that only
# gives more about one row (natural.DETAIL_OF_ROW) is left implicit ("'밝은병원'의 토요일 진료 종료").
# The questions are one or two short sentences ("A는 어디인가요? 그리고 B는 언제인가요?"), each asked
# with the word its field takes (question_word). Every literal argument is still said once
# (filter.argument_sources reads the whole query), so nothing the user must give is lost.


def radius_said(value: Any) -> str:
    """A search radius as a person says it: 2000 -> "2km", 1500 -> "1.5km", 500 -> "500미터"
    (filter.argument_sources reads "2km" back as 2000)."""
    n = numeric(value)
    if n is None:
        return f"{value}미터"
    if n >= 1000 and n % 100 == 0:
        return f"{n / 1000:g}km"
    return f"{int(n) if n == int(n) else n}미터"


def _place_said(step: Any) -> str | None:
    """The literal place names a place table was asked with ("서울특별시 종로구"), or None."""
    vals = [str(v) for _, v in literal_args(step)]
    if vals and all(re.fullmatch(r"[가-힣0-9 ]+", v) and re.search(r"[가-힣]", v) for v in vals):
        return " ".join(vals)
    return None


def _person_measure(label: str) -> str:
    """"의사 수" -> "의사" (a person says "의사가 가장 많은", not "의사 수가 가장 많은")."""
    return label[:-2] if label.endswith(" 수") and _counted(label) else label


def question_word(op_id: str, f: dict[str, Any], raw: Any) -> str:
    """What the question asks with for this fact: 언제 for a date or time, 어디 for an address, 얼마 for
    an amount or a figure, 몇 건/곳 for a count, 몇 번 for a phone number, else 어떻게 되 (a name, a state)."""
    if f.get("field") == COUNT:
        return f"모두 몇 {counter(op_id)}"
    if f.get("said_unit") == "도":
        return "몇 도"
    if f.get("said_as"):
        return "얼마"
    kind = value_kind(op_id, f["field"], raw)
    if kind in ("date", "timestamp", "month", "time"):
        return "언제"
    label = field_label(op_id, f["field"])
    if kind == "manwon" or re.search(r"금액|가격|보증금|월세", label):
        return "얼마"
    if re.search(r"주소|소재지|위치", label):
        return "어디"
    if "전화" in label:
        return "몇 번"
    if label == "층":
        return "몇 층"
    if numeric(raw) is not None:
        return "얼마"
    return "어떻게 되"


def _clause(topic: str, q: str, last: bool) -> str:
    """"A는 얼마이고" (joined to the next) or "A는 얼마인가요?" (the last of its sentence)."""
    if q.endswith("되"):
        return f"{eun(topic)} {q}나요?" if last else f"{eun(topic)} {q}고"
    return f"{eun(topic)} {q}인가요?" if last else f"{eun(topic)} {q}이고"


_PLACE_FILTER = re.compile(r"(?:읍면동|법정동|자치구|시군구|시도|소재지)명$")
# Filters that are the thing's own name ("회사명이 LG화학인 상장 회사" -> "'LG화학'이라는 상장 회사"), and kinds
# said before the noun as a person does ("설립명이 공립인 학교" -> "공립 학교").
_OWN_NAME = frozenset({"회사명", "학교명", "기관명", "시설명", "제품명", "역명", "전철역명", "측정소명", "공연/행사명",
                       "행사명", "업소명", "사업장명", "주차장명", "도서관명", "법률안명", "회의명", "청원명", "의원명"})
_KIND_BEFORE_NOUN = frozenset({"설립명", "건물용도", "학교종류명", "학교과정명", "주야과정명", "호선명", "권역명", "소분류명",
                               "서비스명"})


def _kind_and_noun(kind: str, noun: str) -> str:
    """A kind said before its noun, once: "초등학교" (not "초등학교 학교"), "공립 학교"."""
    return kind if kind.endswith(noun) else _join(kind, noun)


def _filter_said(op_id: str, pname: str, said: str) -> str:
    """A filter the user gives, as a person says it: a place is where the things are ("남산동의 병원", not
    "읍면동명이 남산동인 병원"), a part of a name is what the name holds ("이름에 '열린병원'이 들어간 병원",
    not "기관명 일부가 열린병원인 병원"), the thing's own name is its name ("'LG화학'이라는 상장 회사"), a kind goes
    before the noun ("공립 학교"); any other filter keeps "<label>이 <value>인"."""
    label = param_label(op_id, pname)
    if _PLACE_FILTER.search(label) or concept(pname, op_id) in ("sidonm", "sggnm", "umdnm"):
        return f"{said}의"
    quoted = f"'{said}'"
    if label.endswith("일부"):
        return f"이름에 {i_ga(quoted)} 들어간"
    if label in _OWN_NAME:
        return f"{quoted}{'이라는' if final_sound(said) else '라는'}"  # "'LG화학'이라는 상장 회사"
    if label in _KIND_BEFORE_NOUN:
        return said  # "공립 학교", "아파트 부동산 거래", "초등학교"
    if label.endswith("명") and len(label) > 1:
        return f"{i_ga(label[:-1])} {quoted}인"  # "업체가 '종근당'인 의약품", not "업체명이 종근당인"
    return f"{i_ga(label)} {said}인"


# Row words that say what the list is ("측정소" of 실시간 대기질, "음식점" of 모범음식점): a pick of such a list is
# said in its place ("'X'와 같은 시도에서 … 가장 높은 측정소"), not "… 같은 시도의 실시간 대기질 중 … 측정소".
_ROW_SAYS_KIND = frozenset({"측정소", "음식점", "주차장", "화장실", "도서관", "대여소", "정류장", "학교", "어린이집", "병원"})


class _Writer:
    """Writes one query, remembering what it has said so that it can refer back to it."""

    def __init__(self, draft: Draft, clock_vals: dict[str, str]):
        self.d = draft
        self.cv = clock_vals
        self.back: dict[str, str] = {}  # step id -> how it is referred back to once said
        self.rows: set[tuple[str, int]] = set()  # (step, row) named already
        self.clock: set[str] = set()  # "오늘(2026년 12월 4일)" said already: later just "오늘"
        self.radius: set[str] = set()
        self.codes: set[str] = set()
        self.nouns: set[str] = set()  # operations whose result was named (one row's own lookup)
        self.where: dict[str, tuple[str, str]] = {}  # step -> (its relation to its row, its modifiers)
        self.listed: set[str] = set()  # operations a row was named in ("'A'의 학사일정 중 '현충일'")
        self.asked_pick: set[str] = set()  # steps whose picked row was asked ("… 가장 적은 병원은 어디"): "그 병원"
        self.cmps = 0

    # what a step returned ------------------------------------------------------------------------

    def mods(self, step: Any) -> str:
        """A step's literal arguments as modifiers ("오늘(2026년 12월 4일)", "서울특별시 노원구(11350)",
        "회사명이 삼성전자인"); what was said before is said short ("오늘", "노원구")."""
        parts = []
        for k, v in literal_args(step):
            p = get_operation(step.tool).param(k)
            if p is not None and p.default is not None and str(p.default) == str(v):
                continue  # the schema's default ("언어구분 kr"): nothing the user says
            c = concept(k, step.tool)
            if c == "radius":
                continue  # said with the place it is around (relation)
            said = render_value(step.tool, k, v, self.cv)
            if c == "lawd5" and str(v) in region_names():
                # the code only the query gives (a start call's LAWD_CD): said once as what it is, as
                # KOPA-Bench's "송파구(법정동 앞자리 11710)", never bare beside the name ("종로구(11110)")
                name = region_names()[str(v)]
                parts.append(name.split()[-1] if str(v) in self.codes else f"{name}(시군구코드 {v})")
                self.codes.add(str(v))
            elif said.startswith("가장 최근 발표"):
                continue  # KMA's latest issue time: the system turn's clock gives it, nobody says it
            elif said.startswith(("오늘(", "지난달(", "올해(")):
                parts.append(said.split("(", 1)[0] if said in self.clock else said)
                self.clock.add(said)
            elif said != str(v):
                parts.append(f"{said} 기준")
            else:
                parts.append(_filter_said(step.tool, k, said))
        return " ".join(parts)

    def _radius(self, step: Any) -> str | None:
        rad = next((v for k, v in literal_args(step) if concept(k, step.tool) == "radius"), None)
        if rad is None:
            return None
        said = radius_said(rad)
        if said in self.radius:
            return None  # "근처": the radius the query already stated
        self.radius.add(said)
        return said

    def np(self, sid: str) -> tuple[str, str]:
        """(what step ``sid`` returned as a noun phrase, the words put before one of its fields)."""
        if sid in self.back:
            t = self.back[sid]
            return t, f"{t}의"
        step = self.d.step(sid)
        j = _incoming(self.d, sid)
        noun = user_noun(step.tool)
        one_row = len(self.d.outputs[sid]["items"]) == 1
        if j is None and step.tool in PLACE_ROWS and (names := _place_said(step)):
            # a place looked up by its name is that place: "홍은동과 같은 시군구의 어린이집"
            self.back[sid] = names
            return names, f"{names}의"
        if j is None:
            rad = self._radius(step)
            mods = self.mods(step)
            text = _kind_and_noun(_join(mods, f"반경 {rad} 안의" if rad else ""), noun)
            self.where[sid] = ("", _join(mods, "x" if rad else ""))
            self.back[sid] = f"그 {noun}"
            return text, f"{text}의"
        if j.type == "COND":
            if step.tool in DETAIL_OF_ROW and one_row:  # "그 병원의 토요일 진료 시작"
                who = f"그 {row_word(self.d.step(j.producer).tool)}"
                self.back[sid] = who
                return who, _join(f"{who}의", DETAIL_OF_ROW[step.tool])
            self.back[sid] = f"그 {noun}"
            return f"그 {noun}", f"그 {noun}의"
        who = self.row(j, sid)
        rel = _place_hop(_relation(self.d, j, sid, self.cv, who=who))
        if one_row and rel == f"{who}의" and step.tool in self.nouns:
            # the same lookup for another row: "'A'의 위원 직책명 … '남현우'의 사무실 호실" (said once)
            self.back[sid] = who
            return who, f"{who}의"
        self.nouns.add(step.tool)
        if step.tool in DETAIL_OF_ROW and one_row and rel == f"{who}의":
            # more about the row itself: "'밝은병원'의 토요일 진료 종료", never "…의 병원 상세 정보의 …"
            self.back[sid] = who
            return who, _join(f"{who}의", DETAIL_OF_ROW[step.tool])
        if step.tool in PLACE_ROWS and rel.endswith("의") and rel != f"{who}의":
            # a place table looked up for a row's place: "'X'가 있는 동네", not "'X'와 같은 동네의 날씨 예보 지역"
            place = rel.rsplit(" ", 1)[-1][:-1]
            text = _join(_place_hop(f"{i_ga(who)} 있는 {place}"), self.mods(step))
            self.back[sid] = f"그 {place}"
            return text, f"{text}의"
        if rel.endswith("근처") and (rad := self._radius(step)):
            rel = f"{who} 반경 {rad} 안의"
        mods = self.mods(step)
        text = _kind_and_noun(_join(rel, mods), noun)
        self.where[sid] = (rel, mods)
        self.back[sid] = f"그 {noun}"
        return text, f"{text}의"

    def pick_np(self, sid: str, measure: str, how: str, said: tuple[bool, str] | None = None) -> str:
        """The row of step ``sid`` picked as the largest/smallest: "'X' 근처에서 의사가 가장 많은 병원"
        where the row word is the thing itself, else "<what it returned> 중 <pick>". ``said``: whether
        the step was said before this ask, and how this ask said it (when the caller already did)."""
        tool = self.d.step(sid).tool
        if said is None:
            said_before = sid in self.back
            text, _ = self.np(sid)
        else:
            said_before, text = said
        pick = self.pick(tool, measure, how, self.d.outputs[sid]["items"])
        rel, mods = self.where.get(sid, (None, None))
        if not said_before and rel is not None and not mods and (user_noun(tool) == row_word(tool)
                                                                  or row_word(tool) in _ROW_SAYS_KIND):
            if not rel:
                return pick  # "의사가 가장 적은 병원"
            if rel.endswith("의"):
                return f"{rel[:-1]}에서 {pick}"  # "'X'와 같은 시군구에서", "'A'에서", "'X' 반경 2km 안에서"
            if rel.endswith("근처"):
                return f"{rel}에서 {pick}"
        return f"{text} 중 {pick}"

    def row(self, j: Any, sid: str) -> str:
        """The producer row a junction takes, by the criterion the user states, said once in full."""
        items = self.d.outputs[j.producer]["items"]
        prod_tool = self.d.step(j.producer).tool
        said_before = j.producer in self.back
        if j.type == "DRV" and "reduce" in j.detail:
            if j.producer in self.asked_pick:
                return f"그 {row_word(prod_tool)}"  # the pick was asked as a question of its own
            if said_before:
                return self.pick(prod_tool, j.detail["by"], j.detail["reduce"], items)  # the list just described
            return self.pick_np(j.producer, j.detail["by"], j.detail["reduce"])
        idx = j.detail["items"][j.consumers.index(sid)] if j.type in ("FAN", "CMP") else j.detail.get("item", 0)
        lab = row_label(prod_tool, items[idx], items) if idx < len(items) else None
        if len(items) == 1 or lab is None:
            return self.np(j.producer)[0]
        return self.named(j.producer, idx, lab[1])

    def named(self, sid: str, idx: int, name: str) -> str:
        """A named row of step ``sid``: with its list the first time ("공공도서관 중 '청운효자동 도서관'"),
        then just the name; a lookup table's row is its name from the start ("'성남시'")."""
        said = f"'{name}'"
        if (sid, idx) in self.rows or sid in self.back:
            self.rows.add((sid, idx))
            return said
        step = self.d.step(sid)
        self.rows.add((sid, idx))
        if (step.tool in PLACE_ROWS or name_says_kind(step.tool, name)) and _incoming(self.d, sid) is None \
                and not literal_args(step):
            # a lookup table's row, or a row whose name says what it is ("'회기동 시장'", not "생필품 가격 중 …")
            self.back[sid] = f"그 {user_noun(step.tool)}"
            return said
        base, _ = self.np(sid)
        return f"{base} 중 {said}"

    def pick(self, tool: str, measure: str, how: str, items: list[dict[str, Any]]) -> str:
        """"의사가 가장 많은 병원", "초미세먼지 농도가 가장 낮은 구"."""
        label = _person_measure(field_label(tool, measure))
        return f"{i_ga(label)} {most(tool, measure, how, items)} {row_word(tool)}"

    # the questions -------------------------------------------------------------------------------

    def cmp_ask(self, j: Any) -> tuple[str, str]:
        """(topic, question word) of a comparison: "'A'와 'B' 중 반경 2km 안에 관광지가 더 많은 쪽", "어디"."""
        names = [_producer_row_name(self.d, j.producer, i, None) for i in j.detail["items"][:2]]
        prod = self.d.step(j.producer)
        if j.producer in self.back or (all(name_says_kind(prod.tool, n) for n in names)
                                       and _incoming(self.d, j.producer) is None and not literal_args(prod)):
            self.back.setdefault(j.producer, f"그 {user_noun(prod.tool)}")
            pair = f"{gwa(names[0])} {names[1]}"
        else:
            pair = f"{self.np(j.producer)[0]} {gwa(names[0])} {names[1]}"
        for i in j.detail["items"][:2]:
            self.rows.add((j.producer, i))
        cons = self.d.step(j.consumers[0])
        if j.detail["compare"] == COUNT:
            rel = _relation(self.d, j, cons.id, self.cv, who="")
            if rel == "근처":
                rad = self._radius(cons)
                where = f"반경 {rad} 안에" if rad else "근처에"
            elif rel.endswith("의") and rel.startswith("같은"):
                where = rel[:-1] + "에"  # "같은 동네에"
            else:
                where = rel
            for s in j.consumers:
                self.back.setdefault(s, f"그 {user_noun(cons.tool)}")
            what = _join(self.mods(cons), user_noun(cons.tool))
            return f"{pair} 중 {_join(where, i_ga(what))} 더 많은 {self._side()}", "어디"
        first = self.d.outputs[cons.id]["items"][0].get(j.detail["compare"])
        phrase = cmp_phrase(cons.tool, j.detail["compare"], first)
        if cons.tool in DETAIL_OF_ROW:
            qual = DETAIL_OF_ROW[cons.tool]
        else:
            qual = _join(self.mods(cons), user_noun(cons.tool)) + "의"
        return f"{pair} 중 {_join(qual, phrase)} {self._side()}", "어디"

    def _side(self) -> str:
        """"쪽", then "곳" for a second comparison (not "… 더 많은 쪽은 어디 … 더 많은 쪽은 어디")."""
        self.cmps += 1
        return "쪽" if self.cmps % 2 else "곳"

    def fact_ask(self, f: dict[str, Any]) -> tuple[str, str, str]:
        """(whose, what, question word) of one fact: ("'X' 근처 병원 중 의사가 가장 많은 병원의", "개설일자", "언제")."""
        sid = f["step"]
        tool = self.d.step(sid).tool
        items = self.d.outputs[sid]["items"]
        said_before = sid in self.back
        text, poss = self.np(sid)
        reason = f["row_reason"]
        raw = items[f["row"]].get(f["field"]) if f["field"] != COUNT and f["row"] < len(items) else f["resolved"]
        q = question_word(tool, f, raw)
        rel, mods = self.where.get(sid, ("", ""))
        own = bool(rel) and not mods and rel.endswith("의") and text == f"{rel} {user_noun(tool)}"
        if reason == "only" and f.get("row_label_field") == f["field"] and not said_before:
            # which one it is (the only row of a list the chain found): "… 같은 동네의 병원은 어디인가요?"
            return "", text, "어디" if counter(tool) == "곳" else "무엇"
        if reason == "count":
            if own and not said_before:
                return rel, user_noun(tool), q  # "'수원시'의" + "버스 정류장": "'수원시'는요?" can follow
            return "", text, q
        if reason in ("max", "min"):
            picked = self.pick_np(sid, f["measure"], reason, (said_before, text))
            if f.get("row_label_field") == f["field"]:
                # which one it is: "전문의가 가장 많은 진료과목은 무엇인가요?", not "…의 과목명은 어떻게 되나요?"
                self.asked_pick.add(sid)
                return "", picked, "어디" if counter(tool) == "곳" else "무엇"
            whose = f"{picked}의"
        elif reason == "named":
            name = f"'{f['row_label']}'"
            if said_before or (sid, f["row"]) in self.rows:
                whose = f"{name}의"  # a row of a list said before is just its name ("'외과'의 전문의 수")
            elif own and tool in self.listed:
                whose = f"{rel} {name}의"  # the same kind of list of another row: "'청운중학교'의 '현충일'의"
            elif name_says_kind(tool, name) and _incoming(self.d, sid) is None and not literal_args(self.d.step(sid)):
                whose = f"{name}의"  # "'경북대학교병원'의 주소", not "병원 중 '경북대학교병원'의 주소"
            else:
                whose = f"{text} 중 {name}의"
            self.rows.add((sid, f["row"]))
            self.listed.add(tool)
        else:
            whose = poss
        return whose, asked_label(self.d, f), q

    def cond_sentence(self, j: Any) -> str:
        d = j.detail
        prod_tool = self.d.step(j.producer).tool
        cond = lookup(prod_tool, d["field"], d["threshold"])
        assert cond is not None, "COND junctions come from conditions.CONDITIONS"
        sid = j.consumers[0]
        who = self.row(j, sid)
        rel = _relation(self.d, j, sid, self.cv, who="")
        mods = self.mods(self.d.step(sid))
        then_np = _join(rel, mods, branch_noun(d["then"]))
        else_np = _join(rel, mods, branch_noun(d["else"]))
        label = _person_measure(field_label(prod_tool, d["field"]))
        return (f"{who}의 {i_ga(label)} {cond.said} 이상이면 {eul(then_np)}, 아니면 {eul(else_np)} "
                "보려고 합니다.")


_SAID_NAME = re.compile(r"'[^']*'")
_BARE_NAME = re.compile(r"'[^']+'의")


def _only_other_name(prev: str, cur: str) -> str | None:
    """The one quoted name ``cur`` says where ``prev`` says another, when the two asks are otherwise
    the same words (a date said in full the first time, "지난달(2026년 11월)", and short after); else None."""
    def bare(text: str) -> str:
        return re.sub(r"\([^)]*\)", "", _SAID_NAME.sub("'N'", text)).strip()

    a, b = _SAID_NAME.findall(prev), _SAID_NAME.findall(cur)
    if not prev or bare(prev) != bare(cur) or len(a) != len(b):
        return None
    diff = [y for x, y in zip(a, b, strict=True) if x != y]
    return diff[0] if len(diff) == 1 else None


def _sentences(asks: list[tuple[str, str, str]], room: int) -> str:
    """The asks as at most ``room`` sentences of at most two clauses each; asks about one row's
    fields are merged first ("'X'의 주소와 전화번호는 각각 어떻게 되나요?") when they do not fit."""
    merged: list[tuple[str, str, str]] = []
    for whose, what, q in asks:
        if len(asks) > 2 * room and merged and whose and merged[-1][0] == whose:
            w, prev, _ = merged[-1]
            merged[-1] = (w, f"{gwa(prev)} {what}", "각각 어떻게 되")
        else:
            merged.append((whose, what, q))
    room = max(room, 1)
    if len(merged) <= room:
        sizes = [1] * len(merged)
    else:  # two clauses a sentence ("A는 얼마이고 B는 언제인가요?"); more only when nothing else fits
        base, extra = divmod(len(merged), room)
        sizes = [base + (1 if i < extra else 0) for i in range(room)]
    # the same "어떻게 되나요" twice in a row reads as a form: the second asks "무엇" (unless it is the same ask
    # of another row, said "'B'는요?" below)
    merged = [(w, what, "무엇" if q == "어떻게 되" and i and merged[i - 1][2] == "어떻게 되"
               and not (merged[i - 1][1] == what and _BARE_NAME.fullmatch(w)) else q)
              for i, (w, what, q) in enumerate(merged)]
    out, at = [], 0
    for k, n in enumerate(sizes):
        clauses = []
        for i in range(at, at + n):
            whose, what, q = merged[i]
            last = i == at + n - 1
            before = merged[i - 1] if i else None
            other = _only_other_name(_join(*before[:2]), _join(whose, what)) if last and before and before[2] == q else None
            if last and before and (before[1], before[2]) == (what, q) and _BARE_NAME.fullmatch(whose):
                # the same ask of another row whose list was said: "'B'는요?"; a row said with its own
                # scope ("전문의가 가장 적은 병원의 '내과'") is asked in full, not "…의 '내과'는요?"
                clauses.append(f"{eun(whose[:-1])}요?")
            elif other is not None:
                # the same pick of another row's list ("'A'와 같은 시군구의 … 가장 큰 거래는 무엇이고
                # 'B'는요?"): said in full once, not the whole phrase again for each row
                clauses.append(f"{eun(other)}요?")
            else:
                clauses.append(_clause(_join(whose, what), q, last))
        at += n
        s = " ".join(clauses)
        out.append(s if k == 0 else f"그리고 {s}")
    return " ".join(out)


def template_query(draft: Draft, facts: list[dict[str, Any]], clock: str | None = None) -> str:
    """One or two short questions a person asks (after, for a condition, the sentence that states it)."""
    return query_and_problems(draft, facts, clock)[0]


def query_and_problems(draft: Draft, facts: list[dict[str, Any]], clock: str | None = None,
                       outputs: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """The grammar's query and why it is not a question a person asks (validity.py:
    ``named_pick_after_chain``, ``partial_pick``, ``unrelated_asks``; empty: it is)."""
    problems = pick_problems(draft, facts, outputs)
    query, asks, lead = _query(draft, facts, clock)
    if unrelated_asks(lead, asks):
        problems.append("unrelated_asks")
    return query, problems


def _query(draft: Draft, facts: list[dict[str, Any]], clock: str | None) -> tuple[str, list[Any], list[str]]:
    w = _Writer(draft, clock_values(clock))
    lead = [w.cond_sentence(j) for j in draft.junctions if j.type == "COND"]
    asks: list[tuple[str, str, str]] = []
    for j in draft.junctions:
        if j.type == "CMP":
            topic, q = w.cmp_ask(j)
            asks.append(("", topic, q))
    seen: set[tuple[str, str]] = set()
    for f in facts:
        if f.get("row_reason") == "compared" or "pick_for" in f:
            continue
        whose, what, q = w.fact_ask(f)
        if (whose, what) not in seen:
            seen.add((whose, what))
            asks.append((whose, what, q))
    if not asks:
        return " ".join(lead), asks, list(lead)
    said = list(lead)
    if lead and len(asks) > 2:
        # more asks than one sentence holds: the condition leads into the first question ("… 보려고
        # 하는데, 그 병원의 … 언제인가요?"), two sentences in all, as without a condition
        lead[-1] = lead[-1].removesuffix("보려고 합니다.") + "보려고 하는데,"
        return " ".join(lead + [_sentences(asks, 2)]).strip(), asks, said
    return " ".join(lead + [_sentences(asks, 2 - len(lead))]).strip(), asks, said


# --- the answer -----------------------------------------------------------------------------------


def _v(value: Any) -> str:
    return str(value).strip()


def _owner(draft: Draft, sid: str, outputs: dict[str, Any]) -> str | None:
    """The named row a step's call was made for ("'서울대학교병원'"), if the query named one."""
    j = _incoming(draft, sid)
    if j is None:
        return None
    items = outputs[j.producer]["items"]
    if j.type == "DRV":
        if "reduce" not in j.detail:
            return None
        vals = [numeric(it.get(j.detail["by"])) for it in items]
        pick = max if j.detail["reduce"] == "max_by" else min
        best = pick(v for v in vals if v is not None)
        row = items[vals.index(best)]
        lab = row_label(draft.step(j.producer).tool, row, items)
        return f"'{lab[1]}'" if lab else None
    idx = j.detail["items"][j.consumers.index(sid)] if j.type in ("FAN", "CMP") else j.detail.get("item", 0)
    lab = row_label(draft.step(j.producer).tool, items[idx], items) if idx < len(items) else None
    return f"'{lab[1]}'" if lab else None


def template_answer(draft: Draft, facts: list[dict[str, Any]], run: PlanRun | None = None) -> str:
    """Which row each fact comes from and why, then the fact: "의사가 가장 많은 병원은 '열린요양병원'
    (의사 총수 7)이고, 주소는 …입니다."."""
    out: list[str] = []
    outputs = run.outputs if run is not None else draft.outputs
    for j in draft.junctions:
        if j.type == "COND":
            d = j.detail
            prod_tool = draft.step(j.producer).tool
            cond = lookup(prod_tool, d["field"], d["threshold"])
            assert cond is not None
            items = outputs[j.producer]["items"]
            row = items[d.get("item", 0)]
            lab = row_label(prod_tool, row, items)
            who = f"'{lab[1]}'" if lab else user_noun(prod_tool)
            label = field_label(prod_tool, d["field"])
            side = cond.holds_means if d["holds"] else cond.fails_means
            taken = branch_noun(draft.step(j.consumers[0]).tool)
            said = say(prod_tool, d["field"], row.get(d["field"]))  # "9억 4,600만 원", never "94,600"
            out.append(f"{who}의 {eun(label)} {ro(said)} {side}이어서 {eul(taken)} 살펴봤습니다.")
        if j.type == "CMP" and j.detail["compare"] == COUNT:
            cons_tool = draft.step(j.consumers[0]).tool
            counts = [(_producer_row_name(draft, j.producer, i, None), true_count(outputs[s]))
                     for i, s in zip(j.detail["items"], j.consumers, strict=False)]
            win = next((x for x in facts if x.get("winner_step") in j.consumers), None)
            # "'A' 근처 병원은 8곳, 'B' 근처 병원은 14곳": each count next to its own row
            said = ", ".join(f"{eun(_join(_relation(draft, j, j.consumers[0], {}, who=n), user_noun(cons_tool)))} "
                             f"{c}{counter(cons_tool)}" for n, c in counts)
            if win is not None:
                out.append(f"{said}입니다. {win['winner_label']} 쪽이 더 많습니다.")
            continue
        if j.type == "CMP":
            f = j.detail["compare"]
            cons_tool = draft.step(j.consumers[0]).tool
            label = field_label(cons_tool, f)
            pairs = [(_producer_row_name(draft, j.producer, i, None), say(cons_tool, f, outputs[s]["items"][0].get(f)))
                     for i, s in zip(j.detail["items"], j.consumers, strict=False)]
            win = next((x for x in facts if x.get("winner_step") in j.consumers), None)
            said = ", ".join(f"{n}의 {eun(label)} {v}" for n, v in pairs)
            if win is not None:
                # the question's own words ("…이 더 큰 쪽은 어디인가요?", "…가 더 늦게 끝나는 쪽")
                first = outputs[j.consumers[0]]["items"][0].get(f)
                out.append(f"{said}입니다. {cmp_phrase(cons_tool, f, first)} 쪽은 {win['winner_label']} 쪽입니다.")
    for f in facts:
        if f.get("row_reason") == "compared" or "pick_for" in f:
            continue  # a pick's name is said with the fact it was picked for
        tool = draft.step(f["step"]).tool
        picked_label = f.get("row_label")
        name = f"'{picked_label}'" if picked_label else None
        flabel = asked_label(draft, f)
        reason = f["row_reason"]
        items = outputs[f["step"]]["items"]
        raw = items[f["row"]].get(f["field"]) if f["field"] != COUNT and f["row"] < len(items) else f["resolved"]
        value = say(tool, f["field"], raw) + f.get("said_unit", "") if f["field"] != COUNT else _v(f["resolved"])
        noun, unit = user_noun(tool), row_word(tool)
        owner = _owner(draft, f["step"], outputs)
        j_in = _incoming(draft, f["step"])
        if owner and tool in DETAIL_OF_ROW and len(items) == 1:
            noun = _join(f"{owner}의", DETAIL_OF_ROW[tool]) if DETAIL_OF_ROW[tool] else owner  # "'밝은병원'의 …"
        elif owner and j_in is not None:
            # whose result it is, as the query says it: "'X' 근처 병원", "'서울대학교병원'의 진료과목"
            noun = _join(_relation(draft, j_in, f["step"], {}, who=owner), noun)
        elif owner:
            noun = f"{owner}의 {noun}"
        said_name = f.get("row_label_field") == f["field"]
        if reason in ("max", "min"):
            mlabel = field_label(tool, f["measure"])
            how = most(tool, f["measure"], reason, items)
            head = f"{noun} 중 {i_ga(mlabel)} {how} {unit}"
            mval = say(tool, f["measure"], f["measure_value"])
            if name and said_name:
                out.append(f"{eun(head)} {name}({mlabel} {mval})입니다.")  # "… 가장 많은 진료과목은 '외과'(…)"
            elif name:
                out.append(f"{eun(head)} {name}({mlabel} {mval})이고, {eun(flabel)} {value}입니다.")
            elif _said_by_rival(f["measure_value"], f.get("competitors")):
                # the measure's figure equals another row's answer: said, it reads as claiming that row
                out.append(f"{head}의 {eun(flabel)} {value}입니다.")
            else:
                out.append(f"{head}({mlabel} {mval})의 {eun(flabel)} {value}입니다.")
        elif reason == "named":
            out.append(f"{name}의 {eun(flabel)} {value}입니다.")
        elif reason == "count":
            out.append(f"{eun(noun)} 모두 {value}{counter(tool)}입니다.")
        else:  # the only row
            if name and said_name:
                out.append(f"{noun}의 {eun(flabel)} {name}입니다.")
            elif name:
                out.append(f"{name}의 {eun(flabel)} {value}입니다.")
            else:
                out.append(f"{noun}의 {eun(flabel)} {value}입니다.")
    return " ".join(out)


def _num(v: Any) -> str:
    n = numeric(v)
    if n is not None and n == int(n):
        return str(int(n))
    return str(v)


_STEP_REF = re.compile(r"^\$([A-Za-z_]\w*?)[.\[]")


def prune_unasked(draft: Draft, run: PlanRun, facts: list[dict[str, Any]]) -> list[str]:
    """Remove the calls the question never asks about: leaves without a fact (a grid lookup, three schools'
    meal menus beside the one schedule asked; 368 of 2,000 default rows before this pruning), then any producer left as such
    a leaf; a condition's branch and a comparison's calls stay (the query states them). A FAN left with one
    call is a SEQ. Changes ``draft`` and ``run`` in place; returns the step ids removed."""
    asked = {f.get("step") for f in facts} | {f.get("winner_step") for f in facts}
    stated = {c for j in draft.junctions if j.type in ("COND", "CMP") for c in j.consumers}
    removed: list[str] = []
    while True:
        ids = {st.id for st in draft.steps}
        used = {m.group(1) for st in draft.steps for v in st.args.values()
                if isinstance(v, str) and (m := _STEP_REF.match(v)) and m.group(1) in ids}
        gone = [st.id for st in draft.steps if st.id not in used | asked | stated]
        if not gone or len(gone) == len(draft.steps):
            break
        removed += gone
        draft.steps = [st for st in draft.steps if st.id not in gone]
        for d in (draft.outputs, draft.args, draft.call_keys, run.outputs, run.args):
            for sid in gone:
                d.pop(sid, None)
    if not removed:
        return removed
    kept = []
    for j in draft.junctions:
        keep = [k for k, c in enumerate(j.consumers) if c not in removed]
        if not keep:
            continue
        if len(keep) < len(j.consumers):
            items = j.detail.get("items")
            j.consumers = [j.consumers[k] for k in keep]
            if isinstance(items, list):
                j.detail = {**j.detail, "items": [items[k] for k in keep]}
            if j.type == "FAN" and len(j.consumers) == 1:
                j.type, j.detail = "SEQ", {"item": j.detail["items"][0]}
        kept.append(j)
    draft.junctions = kept
    return removed


async def compose(draft: Draft, backend: Backend, *, seed: int, clock: str | None, model: str | Any | None = None,
                  distractors: int = 2, all_ops: list[str] | None = None) -> Composed:
    t0 = time.perf_counter()
    plan = Plan(steps=[s.model_copy(deep=True) for s in draft.steps])
    run, tokens = await execute(plan, backend, seed=seed, clock=clock)
    t1 = time.perf_counter()
    rng = random.Random(f"{seed}|compose|{draft.index}")
    silent: list[str] = []
    facts = make_facts(draft, run, rng, silent, clock)
    if facts and (removed := prune_unasked(draft, run, facts)):
        plan = Plan(steps=[st for st in plan.steps if st.id not in removed])
        tokens = {p: t for p, t in tokens.items() if any(get_operation(st.tool).platform == p for st in plan.steps)}
    query, invalid = query_and_problems(draft, facts, clock, run.outputs)
    if len(plan.steps) < 2:
        invalid = ["too_short_after_pruning", *invalid]  # one call asked about: not a multi-step row
    answer = template_answer(draft, facts, run)
    writer = "grammar"
    if model:
        written = await model_compose(model, draft, run, facts, query, answer)
        mq, ma = written if written is not None else ("", "")
        bad = (["no output"] if written is None else
               model_text_problems(mq, ma, plan=plan, run=run, facts=facts, template_query=query, clock=clock))
        if bad:
            writer = f"grammar (model rejected: {bad[0]})"  # a botched rewrite never reaches the data
        else:
            query, answer, writer = mq, ma, "model"
    extra: list[str] = []
    if all_ops and distractors:
        pool = [o for o in all_ops if o not in plan.tools()]
        extra = rng.sample(pool, min(distractors, len(pool)))
    system = system_prompt(clock)
    comp = Composed(plan, run, query, answer, facts, build_messages(plan, run, tokens, query, answer, system),
                    tools_for(plan, tokens, extra), tokens, system=system)
    comp.seconds = {"execute": t1 - t0, "write": time.perf_counter() - t1}
    comp.writer = writer
    comp.silent = silent
    comp.invalid = invalid
    return comp


# Enough for a query and an answer of a few sentences in JSON.
MODEL_MAX_TOKENS = 800
_QUOTED = re.compile(r"'([^']+)'")
_GRID_CELL = re.compile(r"격자(?:\s*[XY])?(?:\s*좌표)?\s*\d|(?<![A-Za-z])n[xy]\s*[=:]?\s*\d")


def model_text_problems(query: str, answer: str, *, plan: Plan, run: PlanRun, facts: list[dict[str, Any]],
                        template_query: str, clock: str | None) -> list[str]:
    """Why a model-written query/answer may not replace the grammar's (empty: it may).

    The same bar as the grammar's rows, plus what a model botches and the later filters would
    not see: every argument the plan passes literally is said in the query (else the row teaches
    invention), every row the grammar's query names by name is still named (a query that drops
    "'해운대'" asks another question), no parameter names or grid cells, no template residue, and
    the answer states every fact."""
    from edge_synth.filter import answer_holds, answer_ok, argument_sources, artefacts

    if not query.strip() or not answer.strip():
        return ["empty"]
    values = [v for out in run.outputs.values() for it in out.get("items", []) for v in it.values()
              if not isinstance(v, dict | list)]
    values += [v for a in run.args.values() for v in a.values() if not isinstance(v, dict | list)]
    problems = [f"artefact {a}" for a in artefacts(query, values) + artefacts(answer, values)]
    if answer_ok(answer, facts) and not answer_holds(answer, facts):
        problems.append("the scorer does not read every fact next to its row")
    if not answer_ok(answer, facts):
        problems.append("answer misses a fact")
    if any(a["source"] is None for a in argument_sources(plan, query, clock)):
        problems.append("query misses an argument")
    missing = [n for n in _QUOTED.findall(template_query) if n not in query]
    if missing:
        problems.append(f"query drops {missing[0]!r}")
    params = {p.name for st in plan.steps for p in get_operation(st.tool).visible_params if len(p.name) >= 2}
    raw = [n for n in sorted(params) if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", query)]
    if raw:
        problems.append(f"parameter name {raw[0]}")
    if _GRID_CELL.search(query):
        problems.append("grid cell")
    problems += naturalness_problems(query, answer)  # one question, no API names, no codes as dates
    # no less fluent than the grammar's: a rewrite that stacks what the grammar said once (the date
    # twice, "병원 상세 정보의", 2000미터, three questions in a sentence) does not replace it
    had = {_check_of(p) for p in fluency_problems(template_query)}
    problems += [f"less fluent: {p}" for p in fluency_problems(query) if _check_of(p) not in had]
    return problems


def _check_of(problem: str) -> str:
    """Which fluency check a problem comes from (natural.FLUENCY_CHECKS)."""
    return next((c for c in FLUENCY_CHECKS if c in problem), problem)


async def model_compose(model: str | Any, draft: Draft, run: PlanRun, facts: list[dict[str, Any]],
                        query: str, answer: str) -> tuple[str, str] | None:
    """Rewrite the template query/answer with an Inspect model (a name or a ``Model``); None if it
    fails or writes no JSON. ``compose`` then checks the rewrite (``model_text_problems``)."""
    from inspect_ai.model import GenerateConfig, get_model

    payload = {
        "steps": [{"id": s.id, "tool": s.tool, "args": run.args[s.id],
                   "first_rows": run.outputs[s.id]["items"][:2]} for s in draft.steps],
        "junctions": [j.type for j in draft.junctions],
        "facts": [{"description": f["description"], "value": f["resolved"]} for f in facts],
        "template_query": query, "template_answer": answer,
    }
    prompt = (
        "아래는 실제로 실행된 API 호출 계획과 결과입니다. 이 계획을 그대로 필요로 하는 자연스러운 한국어 사용자 질문과, "
        "결과에 근거한 최종 답변을 쓰세요. 질문에는 template_query에 나온 값(날짜, 이름, 코드, 기준값)을 모두 그대로 "
        "넣고, 어느 항목을 고르는지(이름, 순위, 위치)도 밝히세요. 매개변수 이름(영문)이나 '을(를)' 같은 표기는 쓰지 마세요. "
        "답변에는 facts의 값을 그대로 모두 포함하고, 각 값이 어느 항목에서 왜 나왔는지 밝혀야 합니다. "
        'JSON {"query": ..., "answer": ...} 하나만 출력하세요.\n'
        + json.dumps(payload, ensure_ascii=False, default=str)
    )
    try:
        m_ = get_model(model) if isinstance(model, str) else model
        out = await m_.generate(prompt, config=GenerateConfig(temperature=0.7, max_tokens=MODEL_MAX_TOKENS))
        text = out.completion
        m = re.search(r"\{.*\}", text, re.S)
        data = json.loads(m.group(0)) if m else {}
        q, a = str(data.get("query", "")).strip(), str(data.get("answer", "")).strip()
        if q and a:
            return q, a
    except Exception:  # a model failure falls back to the grammar (compose records it)
        pass
    return None
