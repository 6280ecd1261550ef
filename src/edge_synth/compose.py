"""Phase B.2: execute a sampled plan for real, then write the query and answer from its outputs.

The plan runs through ``kopa_inspect.plans.execute_plan`` on a fresh Session (auth tokens issued
first, in plan order, as the auth tool would), so what the dataset shows is what the backend
said. Facts are KOPA-Bench facts (``AnswerFact``: a plan reference, a matcher, a tolerance) plus
the value they resolved to. The user query and the final answer come from deterministic Korean
templates, or from any Inspect model (``--model``), which gets the plan and the real outputs and
must keep every fact value (the filter checks it).
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from edge_synth.sample import Draft, numeric
from kopa_inspect.apis import get_operation
from kopa_inspect.apis._envelope import Parsed
from kopa_inspect.apis._schema import auth_tool_name, auth_tool_schema, tool_schema
from kopa_inspect.backends import Backend
from kopa_inspect.execution import CallResult, Session
from kopa_inspect.plans import Plan, PlanRun, execute_plan

SYSTEM_PROMPT = (
    "당신은 한국 공공데이터 API 도구를 사용해 질문에 답하는 도우미입니다. 필요한 도구를 순서대로 호출하고, "
    "앞선 결과의 값을 다음 호출의 인자로 사용하세요. 답은 도구 결과에 근거해 한국어로 하세요. "
    "(You answer with Korean public-data API tools; chain calls, and answer only from tool results.)"
)

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


def ko(text: str) -> str:
    """The Korean part of a 'Korean (English gloss)' description."""
    return re.split(r"\s*\(", text, maxsplit=1)[0].strip() or text


def field_desc(op_id: str, fname: str) -> str:
    return re.split(r"[,;:]", ko(get_operation(op_id).output_fields.get(fname, fname)), maxsplit=1)[0].strip() or fname


def op_desc(op_id: str) -> str:
    return re.split(r"[:;]", ko(get_operation(op_id).summary), maxsplit=1)[0].strip()


def matcher_for(value: Any) -> str:
    s = str(value).strip()
    if _DATE8.match(s):
        return "date"
    if numeric(s) is not None:
        return "number"
    return "name"


async def execute(plan: Plan, backend: Backend, *, seed: int, clock: str | None) -> tuple[PlanRun, dict[str, str]]:
    """Run a plan from scratch on a fresh session; execute_plan obtains session tokens first."""
    session = Session(backend, clock=clock, seed=seed)
    run = await execute_plan(plan, session)
    return run, dict(session.tokens)


def _pick_fact_field(op_id: str, row: dict[str, Any], rng: random.Random) -> str | None:
    def usable(v: Any) -> bool:
        return isinstance(v, str | int | float) and not isinstance(v, bool) and str(v).strip() not in ("", "-")

    fields = [k for k in get_operation(op_id).output_fields if usable(row.get(k))]
    fields = fields or [k for k, v in row.items() if usable(v)]
    if not fields:
        return None
    nums = [f for f in fields if numeric(row[f]) is not None]
    return rng.choice(nums) if nums and rng.random() < 0.6 else rng.choice(fields)


def make_facts(draft: Draft, run: PlanRun, rng: random.Random) -> list[dict[str, Any]]:
    """Facts the final answer must state: leaf results, comparisons, reductions."""
    facts: list[dict[str, Any]] = []
    plan_graph = Plan(steps=draft.steps).graph()
    leaves = [s for s in draft.steps if plan_graph.out_degree(s.id) == 0]
    cmp_steps = {sid for j in draft.junctions if j.type == "CMP" for sid in j.consumers}
    for j in draft.junctions:
        if j.type == "CMP":
            f = j.detail["compare"]
            vals = [(numeric(run.outputs[s]["items"][0].get(f)), s) for s in j.consumers]
            best = max(vals, key=lambda t: (t[0] if t[0] is not None else float("-inf")))[1]
            for n, s in enumerate(j.consumers, 1):
                facts.append(_fact(f"f{len(facts) + 1}", s, f, run, f"{n}번째 조회의 {field_desc(draft.step(s).tool, f)}"))
            facts.append({
                "id": f"f{len(facts) + 1}", "description": f"{field_desc(draft.step(best).tool, f)} 값이 더 큰 쪽 (the larger)",
                "value": f"${best}.items[0].{f}", "resolved": run.outputs[best]["items"][0].get(f),
                "matcher": "number", "tolerance": 0.0, "winner_step": best,
            })
    for s in leaves:
        if s.id in cmp_steps or not run.outputs[s.id]["items"]:
            continue
        row = run.outputs[s.id]["items"][0]
        fname = _pick_fact_field(s.tool, row, rng)
        if fname:
            facts.append(_fact(f"f{len(facts) + 1}", s.id, fname, run, field_desc(s.tool, fname)))
        if len(facts) >= 4:
            break
    return facts


def _fact(fid: str, step: str, fname: str, run: PlanRun, desc: str) -> dict[str, Any]:
    value = run.outputs[step]["items"][0].get(fname)
    return {"id": fid, "description": desc, "value": f"${step}.items[0].{fname}", "resolved": value,
            "matcher": matcher_for(value), "tolerance": 0.0}


def _args_text(args: dict[str, Any]) -> str:
    shown = {k: v for k, v in args.items() if not (isinstance(v, str) and v.startswith("$"))}
    return ", ".join(f"{k}={v}" for k, v in shown.items())


def template_query(draft: Draft, facts: list[dict[str, Any]]) -> str:
    first = draft.steps[0]
    shown = _args_text(first.args)
    parts = [f"{op_desc(first.tool)}{f'({shown})' if shown else ''}을(를) 먼저 조회해 주세요."]
    for j in draft.junctions:
        prod_tool = draft.step(j.producer).tool
        cons_tool = draft.step(j.consumers[0]).tool
        edge_field = _edge_field(draft, j)
        fd = field_desc(prod_tool, edge_field)
        cd = op_desc(cons_tool)
        if j.type == "SEQ":
            parts.append(f"그 결과 {j.detail.get('item', 0) + 1}번째 항목의 {fd} 값으로 {cd}을(를) 조회하세요.")
        elif j.type == "SEM":
            parts.append(f"그 결과 {j.detail.get('item', 0) + 1}번째 항목의 이름({fd})으로 {cd}을(를) 찾아 주세요.")
        elif j.type == "FAN":
            parts.append(f"그 결과 상위 {len(j.consumers)}개 항목 각각의 {fd}에 대해 {cd}을(를) 모두 조회하세요.")
        elif j.type == "DRV":
            if "reduce" in j.detail:
                how = "가장 큰" if j.detail["reduce"] == "max_by" else "가장 작은"
                parts.append(f"그 중 {field_desc(prod_tool, j.detail['by'])} 값이 {how} 항목의 {fd}(으)로 {cd}을(를) 조회하세요.")
            else:
                a, b = j.detail["slice"]
                parts.append(f"그 결과의 {fd} 앞 {b - a}자리를 써서 {cd}을(를) 조회하세요.")
        elif j.type == "CMP":
            parts.append(f"그 결과 처음 두 항목의 {fd} 각각으로 {cd}을(를) 조회하고, "
                         f"{field_desc(cons_tool, j.detail['compare'])} 값이 어느 쪽이 더 큰지 비교해 주세요.")
        elif j.type == "COND":
            d = j.detail
            then_d = op_desc(d["then"])
            else_d = op_desc(d["else"]) if d.get("else") else "그대로 답"
            parts.append(f"첫 항목의 {field_desc(prod_tool, d['field'])} 값이 {_num(d['threshold'])} 이상이면 {then_d}을(를), "
                         f"아니면 {else_d}을(를) 조회하세요.")
    asked = [f["description"] for f in facts if "winner_step" not in f]
    if asked:
        parts.append("마지막으로 " + ", ".join(dict.fromkeys(asked)) + " 값을 알려 주세요.")
    return " ".join(parts)


def template_answer(draft: Draft, facts: list[dict[str, Any]]) -> str:
    lines = ["조회 결과를 정리하면 다음과 같습니다."]
    for j in draft.junctions:
        if j.type == "COND":
            d = j.detail
            lines.append(f"- 조건 확인: 기준값 {_num(d['threshold'])} {'이상' if d['holds'] else '미만'}이므로 "
                         f"{op_desc(draft.step(j.consumers[0]).tool)}을(를) 조회했습니다.")
    for f in facts:
        if "winner_step" in f:
            lines.append(f"- 비교: {_ordinal(draft, f['winner_step'])}번째 조회 쪽이 {_num(f['resolved'])}(으)로 더 큽니다.")
        else:
            lines.append(f"- {f['description']}: {f['resolved']}")
    return "\n".join(lines)


def _ordinal(draft: Draft, step_id: str) -> int:
    for j in draft.junctions:
        if step_id in j.consumers:
            return j.consumers.index(step_id) + 1
    return 1


def _num(v: Any) -> str:
    n = numeric(v)
    if n is not None and n == int(n):
        return str(int(n))
    return str(v)


def _edge_field(draft: Draft, j) -> str:
    arg = next(iter(draft.step(j.consumers[0]).args.values()))
    for v in draft.step(j.consumers[0]).args.values():
        if isinstance(v, str) and v.startswith(f"${j.producer}."):
            arg = v
            break
    m = re.search(r"\.([A-Za-z_][\w]*)(\[\d*:\d*\])?$", str(arg))
    return m.group(1) if m else str(arg)


def build_messages(plan: Plan, run: PlanRun, tokens: dict[str, str], query: str, answer: str) -> list[dict[str, Any]]:
    """OpenAI/HF chat format: system, user, assistant tool calls per wave, tool results, answer."""
    msgs: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": query}]
    auth_done: set[str] = set()
    for wave in plan.levels():
        need = []
        for s in wave:
            pid = get_operation(s.tool).platform
            if pid in tokens and pid not in auth_done:
                need.append(pid)
                auth_done.add(pid)
        if need:
            msgs.append({"role": "assistant", "content": "", "tool_calls": [
                _tool_call(f"call_auth_{p}", auth_tool_name(p), {}) for p in need]})
            for p in need:
                msgs.append({"role": "tool", "tool_call_id": f"call_auth_{p}", "name": auth_tool_name(p),
                             "content": json.dumps({"token": tokens[p]}, ensure_ascii=False)})
        msgs.append({"role": "assistant", "content": "", "tool_calls": [
            _tool_call(f"call_{s.id}", s.tool, run.args[s.id]) for s in wave]})
        for s in wave:
            msgs.append({"role": "tool", "tool_call_id": f"call_{s.id}", "name": s.tool,
                         "content": render_output(s.tool, run.args[s.id], run.outputs[s.id])})
    msgs.append({"role": "assistant", "content": answer})
    return msgs


def _tool_call(cid: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False, sort_keys=True)}}


def render_output(op_id: str, args: dict[str, Any], output: dict[str, Any]) -> str:
    """The tool result as the model sees it (CallResult.for_model over the normalized output)."""
    known = {"resultCode", "resultMsg", "totalCount", "pageNo", "numOfRows", "items"}
    parsed = Parsed(
        ok=True, code=str(output.get("resultCode", "")), message=str(output.get("resultMsg", "")),
        items=list(output.get("items", [])), total_count=output.get("totalCount"), page_no=output.get("pageNo"),
        num_rows=output.get("numOfRows"), extra={k: v for k, v in output.items() if k not in known},
    )
    return CallResult(op_id, args, parsed, 200).for_model()


def tools_for(plan: Plan, tokens: dict[str, str], extra_tools: list[str] = ()) -> list[dict[str, Any]]:
    names = sorted(set(plan.tools()) | set(extra_tools))
    tools = [auth_tool_schema(p) for p in sorted(tokens)]
    return tools + [tool_schema(get_operation(n)) for n in names]


async def compose(draft: Draft, backend: Backend, *, seed: int, clock: str | None, model: str | None = None,
                  distractors: int = 2, all_ops: list[str] | None = None) -> Composed:
    t0 = time.perf_counter()
    plan = Plan(steps=[s.model_copy(deep=True) for s in draft.steps])
    run, tokens = await execute(plan, backend, seed=seed, clock=clock)
    t1 = time.perf_counter()
    rng = random.Random(f"{seed}|compose|{draft.index}")
    facts = make_facts(draft, run, rng)
    query = template_query(draft, facts)
    answer = template_answer(draft, facts)
    if model:
        query, answer = await model_compose(model, draft, run, facts, query, answer)
    extra: list[str] = []
    if all_ops and distractors:
        pool = [o for o in all_ops if o not in plan.tools()]
        extra = rng.sample(pool, min(distractors, len(pool)))
    comp = Composed(plan, run, query, answer, facts, build_messages(plan, run, tokens, query, answer),
                    tools_for(plan, tokens, extra), tokens)
    comp.seconds = {"execute": t1 - t0, "write": time.perf_counter() - t1}
    return comp


async def model_compose(model: str, draft: Draft, run: PlanRun, facts: list[dict[str, Any]],
                        query: str, answer: str) -> tuple[str, str]:
    """Rewrite the template query/answer with an Inspect model; keep the templates if it fails."""
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
        "결과에 근거한 최종 답변을 쓰세요. 답변에는 facts의 값을 그대로 모두 포함해야 합니다. "
        'JSON {"query": ..., "answer": ...} 하나만 출력하세요.\n'
        + json.dumps(payload, ensure_ascii=False, default=str)
    )
    try:
        out = await get_model(model).generate(prompt, config=GenerateConfig(temperature=0.7, max_tokens=800))
        text = out.completion
        m = re.search(r"\{.*\}", text, re.S)
        data = json.loads(m.group(0)) if m else {}
        q, a = str(data.get("query", "")).strip(), str(data.get("answer", "")).strip()
        if q and a:
            return q, a
    except Exception:  # a model failure falls back to the template (counted by the filter's answer check)
        pass
    return query, answer
