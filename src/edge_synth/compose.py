"""Phase B.2: execute a sampled plan for real, then write the query and answer from its outputs.

The plan runs on a fresh Session (``kopa_inspect.trajectories.execute``: auth tokens issued first,
in plan order, as the auth tool would), so what the dataset shows is what the backend said. Then,
each in its own module:

- ``edge_synth.facts``: the facts the answer must state, each from a row picked by a criterion the
  user states (a superlative, a name, the only result; a list without either is asked for its
  count);
- ``edge_synth.query_text``: ONE question a person would ask, the intermediate calls described as
  things in the lexicon's words (never the specs' operation names), every value the user must
  give stated;
- ``edge_synth.answer_text``: the answer, saying which row and why;
- ``edge_synth.phrasing``: how rows, picks and links are said, shared by the three;
- ``kopa_inspect.trajectories``: the chat messages and the tool schemas of the row.

This module drives them (``compose``), removes the calls the question never asks about
(``prune_unasked``) and, with ``--model``, lets any Inspect model rewrite the query and the answer
from the real outputs; the rewrite is used only if it passes every check
(``model_text_problems``, which includes natural.naturalness_problems); the filters (filter.py,
pipeline.py) then check the row like any other.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from edge_synth.answer_text import template_answer as template_answer
from edge_synth.draft import Draft
from edge_synth.facts import _pick_fact_field as _pick_fact_field
from edge_synth.facts import make_facts as make_facts
from edge_synth.filter import answer_holds, answer_ok, argument_sources, artefacts
from edge_synth.natural import FLUENCY_CHECKS, fluency_problems, naturalness_problems
from edge_synth.phrasing import _names_the_place as _names_the_place
from edge_synth.phrasing import cmp_phrase as cmp_phrase
from edge_synth.phrasing import fact_label as fact_label
from edge_synth.phrasing import most as most
from edge_synth.query_text import _filter_said as _filter_said
from edge_synth.query_text import _kind_and_noun as _kind_and_noun
from edge_synth.query_text import _place_hop as _place_hop
from edge_synth.query_text import _sentences as _sentences
from edge_synth.query_text import query_and_problems as query_and_problems
from edge_synth.query_text import render_value as render_value
from edge_synth.query_text import template_query as template_query
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import Backend
from kopa_inspect.plans import Plan, PlanRun
from kopa_inspect.trajectories import SYSTEM_PROMPT, build_messages, execute, system_prompt, tools_for
from kopa_inspect.trajectories import render_output as render_output

# The names above marked "as" are re-exported: the tests and older callers import the grammar's
# parts from this module.


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
        used = {
            m.group(1)
            for st in draft.steps
            for v in st.args.values()
            if isinstance(v, str) and (m := _STEP_REF.match(v)) and m.group(1) in ids
        }
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


async def compose(
    draft: Draft,
    backend: Backend,
    *,
    seed: int,
    clock: str | None,
    model: str | Any | None = None,
    distractors: int = 2,
    all_ops: list[str] | None = None,
) -> Composed:
    t0 = time.perf_counter()
    plan = Plan(steps=[s.model_copy(deep=True) for s in draft.steps])
    run, tokens = await execute(plan, backend, seed=seed, clock=clock)
    t1 = time.perf_counter()
    rng = random.Random(f"{seed}|compose|{draft.index}")
    silent: list[str] = []
    facts = make_facts(draft, run, rng, silent, clock)
    if facts and (removed := prune_unasked(draft, run, facts)):
        plan = Plan(steps=[st for st in plan.steps if st.id not in removed])
        tokens = {
            p: t for p, t in tokens.items() if any(get_operation(st.tool).platform == p for st in plan.steps)
        }
    query, invalid = query_and_problems(draft, facts, clock, run.outputs)
    if len(plan.steps) < 2:
        invalid = ["too_short_after_pruning", *invalid]  # one call asked about: not a multi-step row
    answer = template_answer(draft, facts, run)
    writer = "grammar"
    if model:
        written = await model_compose(model, draft, run, facts, query, answer)
        mq, ma = written if written is not None else ("", "")
        bad = (
            ["no output"]
            if written is None
            else model_text_problems(
                mq, ma, plan=plan, run=run, facts=facts, template_query=query, clock=clock
            )
        )
        if bad:
            writer = f"grammar (model rejected: {bad[0]})"  # a botched rewrite never reaches the data
        else:
            query, answer, writer = mq, ma, "model"
    extra: list[str] = []
    if all_ops and distractors:
        pool = [o for o in all_ops if o not in plan.tools()]
        extra = rng.sample(pool, min(distractors, len(pool)))
    system = system_prompt(clock)
    comp = Composed(
        plan,
        run,
        query,
        answer,
        facts,
        build_messages(plan, run, tokens, query, answer, system),
        tools_for(plan, tokens, extra),
        tokens,
        system=system,
    )
    comp.seconds = {"execute": t1 - t0, "write": time.perf_counter() - t1}
    comp.writer = writer
    comp.silent = silent
    comp.invalid = invalid
    return comp


# Enough for a query and an answer of a few sentences in JSON.
MODEL_MAX_TOKENS = 800
_QUOTED = re.compile(r"'([^']+)'")
_GRID_CELL = re.compile(r"격자(?:\s*[XY])?(?:\s*좌표)?\s*\d|(?<![A-Za-z])n[xy]\s*[=:]?\s*\d")


def model_text_problems(
    query: str,
    answer: str,
    *,
    plan: Plan,
    run: PlanRun,
    facts: list[dict[str, Any]],
    template_query: str,
    clock: str | None,
) -> list[str]:
    """Why a model-written query/answer may not replace the grammar's (empty: it may).

    The same bar as the grammar's rows, plus what a model botches and the later filters would
    not see: every argument the plan passes literally is said in the query (else the row teaches
    invention), every row the grammar's query names by name is still named (a query that drops
    "'해운대'" asks another question), no parameter names or grid cells, no template residue, and
    the answer states every fact."""
    if not query.strip() or not answer.strip():
        return ["empty"]
    values = [
        v
        for out in run.outputs.values()
        for it in out.get("items", [])
        for v in it.values()
        if not isinstance(v, dict | list)
    ]
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


async def model_compose(
    model: str | Any, draft: Draft, run: PlanRun, facts: list[dict[str, Any]], query: str, answer: str
) -> tuple[str, str] | None:
    """Rewrite the template query/answer with an Inspect model (a name or a ``Model``); None if it
    fails or writes no JSON. ``compose`` then checks the rewrite (``model_text_problems``)."""
    from inspect_ai.model import GenerateConfig, get_model

    payload = {
        "steps": [
            {"id": s.id, "tool": s.tool, "args": run.args[s.id], "first_rows": run.outputs[s.id]["items"][:2]}
            for s in draft.steps
        ],
        "junctions": [j.type for j in draft.junctions],
        "facts": [{"description": f["description"], "value": f["resolved"]} for f in facts],
        "template_query": query,
        "template_answer": answer,
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
