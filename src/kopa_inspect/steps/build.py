"""Step examples from EDGE trajectories and from KOPA-Bench gold plans.

A trajectory (system, user, assistant call waves with their tool results, final answer) gives one
example per assistant turn: the prompt is everything before that turn, the target is the turn.
Prompts are kept short so a small model can be evaluated and trained on a CPU:

- tools: only the tools in play, i.e. the trajectory's tools plus its distractors (EDGE rows carry
  the plan's tools, two distractors and the auth tools of token platforms; KOPA-Bench rows get the
  same: the gold plan's tools, two distractors drawn from the task's tool list or platforms), each
  with its description cut to the first line (the output-field list goes);
- results: earlier tool results without the envelope header, whole items dropped from the end
  until the result fits ``max_result_chars`` (a note says how many were shown), session-token
  results never cut;
- a one-line system prompt with the clock (relative dates need it).

Cutting results can hide what the next move needs; such steps are dropped (``answerable``): every
gold argument value that came from an earlier output must appear in the prompt, and every required
fact of an answer step must be stated by the shown results. Drops are counted, never hidden.

Split: EDGE trajectories are held out by a hash of their id (``split_of``; ``test`` = about
``TEST_PERCENT`` % of trajectories, never seen in training: kopa_grpo.data keeps ``train`` only).
KOPA-Bench steps are built at load time from ``task_data/kopa_bench.jsonl`` (the gold plan
executed on the embedded emulator at the task's clock), so edits to the task file show up at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from kopa_inspect import matching
from kopa_inspect.apis._schema import coerce_call
from kopa_inspect.steps import scoring

TEST_PERCENT = 10
DEFAULT_MAX_RESULT_CHARS = 400
DEFAULT_DESCRIPTION_CHARS = 60
DEFAULT_PARAM_CHARS = 24

Split = Literal["train", "test"]


class StepSettings(BaseModel):
    max_result_chars: int = Field(DEFAULT_MAX_RESULT_CHARS, ge=100)
    compact_tools: bool = True
    # Compact tools: description = the summary line without the platform bracket, cut to this
    # many characters; each parameter description cut likewise (names, types, required kept).
    tool_description_chars: int = Field(DEFAULT_DESCRIPTION_CHARS, ge=0)
    param_description_chars: int = Field(DEFAULT_PARAM_CHARS, ge=0)
    # Descriptions as the Korean title plus the English gloss (far fewer tokens for small models).
    english_descriptions: bool = False
    # Distractor tools kept (None: all the row has; EDGE rows carry two).
    distractors: int | None = Field(None, ge=0)
    # Only steps whose gold move can be read off the prompt (see module docstring).
    answerable_only: bool = True


class StepExample(BaseModel):
    """One step: the messages before it (HF chat dicts, call arguments as dicts), the tools in play
    (JSON schemas), and the gold move."""

    id: str
    trajectory_id: str
    source: Literal["edge", "bench"]
    step: int
    kind: Literal["call", "answer"]
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    target_calls: list[tuple[str, dict[str, Any]]] = Field(default_factory=list)
    target_answer: str = ""
    facts: list[dict[str, Any]] = Field(default_factory=list)
    tool_results: list[str] = Field(default_factory=list)
    session_tokens: dict[str, str] = Field(default_factory=dict)
    clock: str = ""
    seed: int = 0
    category: str = ""


def split_of(trajectory_id: str, test_percent: int = TEST_PERCENT) -> Split:
    h = int(hashlib.sha256(trajectory_id.encode("utf-8")).hexdigest()[:8], 16)
    return "test" if h % 100 < test_percent else "train"


def step_system_prompt(clock: str | None) -> str:
    from kopa_inspect.world import parse_clock

    now = parse_clock(clock or None)
    # English: SmolLM2's tokenizer spends ~3 tokens per Hangul syllable; the query stays Korean.
    return (
        f"You answer with Korean public-data API tools. Now: {now:%Y-%m-%d %H:%M} KST. Make the next "
        "tool call, or, when the results suffice, write the final answer in Korean without a tool call."
    )


# --- compaction ------------------------------------------------------------------------------------

_BRACKET = re.compile(r"^\[[^\]]*\]\s*")
# The English gloss the specs write last, in parentheses: "학교기본정보: ... (School basic info ...)".
_GLOSS = re.compile(r"\(([^()]*[A-Za-z][^()]*)\)\.?\s*$")


def _cut(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n].rstrip() + "…"


def short_description(text: str, n: int, english: bool) -> str:
    """The first line without the platform bracket; with ``english`` the Korean title (before ':')
    and the English gloss only: SmolLM2's tokenizer spends ~3 tokens per Hangul syllable."""
    line = _BRACKET.sub("", (text or "").split("\n", 1)[0]).strip()
    if english:
        gloss = _GLOSS.search(line)
        title = line.split(":", 1)[0].strip() if ":" in line else ""
        if gloss:
            line = f"{title}: {gloss.group(1)}" if title and len(title) <= 20 else gloss.group(1)
    return _cut(line, n)


def compact_tool(
    tool: dict[str, Any],
    description_chars: int = DEFAULT_DESCRIPTION_CHARS,
    param_chars: int = DEFAULT_PARAM_CHARS,
    english: bool = False,
) -> dict[str, Any]:
    """The schema with a short description (see short_description; the output-field list goes),
    parameter descriptions cut or dropped (``param_chars`` 0); names, types and required kept."""
    fn = dict(tool.get("function", tool))
    fn["description"] = short_description(fn.get("description") or "", description_chars, english)
    params = dict(fn.get("parameters") or {"type": "object", "properties": {}})
    props = {}
    for name, spec in (params.get("properties") or {}).items():
        spec = dict(spec)
        if "description" in spec:
            desc = short_description(str(spec["description"]), param_chars, english) if param_chars else ""
            if desc:
                spec["description"] = desc
            else:
                spec.pop("description")
        props[name] = spec
    params["properties"] = props
    fn["parameters"] = params
    return {"type": "function", "function": fn}


def compact_result(content: str, max_chars: int) -> str:
    """An earlier result, envelope header dropped and whole items dropped from the end to fit."""
    try:
        data = json.loads(content)
    except (TypeError, ValueError):
        return content if len(content) <= max_chars else content[:max_chars] + " ...(생략)"
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        text = json.dumps(data, ensure_ascii=False)
        return text if len(text) <= max_chars else text[:max_chars] + " ...(생략)"
    items = data["items"]
    total = data.get("totalCount", len(items))
    keep = {
        k: v
        for k, v in data.items()
        if k not in ("resultCode", "resultMsg", "numOfRows", "pageNo", "_truncated")
    }
    n = len(items)
    while True:
        keep["items"] = items[:n]
        if n < len(items):
            keep["_shown"] = f"{total}건 중 {n}건"
        text = json.dumps(keep, ensure_ascii=False)
        if len(text) <= max_chars or n <= 1:
            return text if len(text) <= max_chars else text[:max_chars] + " ...(생략)"
        n -= 1


def _norm_message(m: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in m.items() if v is not None}
    calls: list[dict[str, Any]] = []
    for tc in m.get("tool_calls") or []:
        fn = dict(tc.get("function", {}))
        if isinstance(fn.get("arguments"), str):
            fn["arguments"] = json.loads(fn["arguments"])
        if isinstance(fn.get("arguments"), dict):
            # In the schema's types (apis._schema.coerce_call): a gold call as the plan resolved it
            # ("203415.195995" for a number, 12 for a string enum) is one Inspect refuses.
            fn["arguments"] = coerce_call(fn.get("name", ""), fn["arguments"])
        calls.append({"id": tc.get("id") or f"call_{len(calls)}", "type": "function", "function": fn})
    if calls:
        out["tool_calls"] = calls
    if out.get("content") is None:
        out["content"] = ""
    return out


_AUTH_SUFFIX = "_get_api_key"


def _issued_tokens(messages: list[dict[str, Any]]) -> dict[str, str]:
    tokens: dict[str, str] = {}
    for m in messages:
        name = m.get("name") or ""
        if m["role"] == "tool" and name.endswith(_AUTH_SUFFIX):
            try:
                tokens[name[: -len(_AUTH_SUFFIX)]] = json.loads(m["content"])["token"]
            except (ValueError, KeyError, TypeError):
                continue
    return tokens


# --- answerability ---------------------------------------------------------------------------------


def _linked_args(plan: dict[str, Any] | None) -> dict[str, set[str]]:
    """{tool name: argument names whose value is a reference to an earlier output}."""
    out: dict[str, set[str]] = {}
    for s in (plan or {}).get("steps", []):
        for k, v in (s.get("args") or {}).items():
            if isinstance(v, str) and v.startswith("$") and not v.startswith("$session"):
                out.setdefault(s["tool"], set()).add(k)
    return out


def _shown(value: Any, text: str) -> bool:
    if isinstance(value, list | tuple):
        return all(_shown(v, text) for v in value)
    s = str(value)
    if s in text:
        return True
    n = matching.to_number(value)
    return n is not None and any(abs(f.value - n) < 1e-9 for f in matching.extract_numbers(text))


def answerable(ex: StepExample, linked: dict[str, set[str]]) -> bool:
    shown = "\n".join(str(m.get("content") or "") for m in ex.messages)
    if ex.kind == "call":
        for name, args in ex.target_calls:
            for k in linked.get(name, ()):
                if k in args and not _shown(args[k], shown):
                    return False
        return True
    results = "\n".join(ex.tool_results)
    for f in scoring.required_facts(ex.facts):
        if f.get("matcher") == "refusal":
            continue
        # Presence of the value in the shown results (the answer matchers treat raw JSON as a dump,
        # so they cannot be asked here).
        exp = scoring.fact_expected(f)
        if exp is None or not _shown(exp, results):
            return False
    return True


# --- trajectories -> steps -------------------------------------------------------------------------


def steps_from_trajectory(
    *,
    trajectory_id: str,
    source: Literal["edge", "bench"],
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    facts: list[dict[str, Any]],
    clock: str,
    seed: int,
    plan: dict[str, Any] | None = None,
    category: str = "",
    settings: StepSettings | None = None,
    dropped: Counter | None = None,
) -> list[StepExample]:
    settings = settings or StepSettings()
    raw = [_norm_message(m) for m in messages]
    shown: list[dict[str, Any]] = []
    for m in raw:
        m = dict(m)
        if m["role"] == "system":
            m["content"] = step_system_prompt(clock)
        elif m["role"] == "tool" and not (m.get("name") or "").endswith(_AUTH_SUFFIX):
            m["content"] = compact_result(m["content"], settings.max_result_chars)
        shown.append(m)
    if settings.distractors is not None:
        called = {tc["function"]["name"] for m in raw for tc in m.get("tool_calls", [])}
        extra = [t for t in tools if t.get("function", t)["name"] not in called]
        tools = [
            t for t in tools if t.get("function", t)["name"] in called or t in extra[: settings.distractors]
        ]
    tools = (
        [
            compact_tool(
                t,
                settings.tool_description_chars,
                settings.param_description_chars,
                settings.english_descriptions,
            )
            for t in tools
        ]
        if settings.compact_tools
        else list(tools)
    )
    linked = _linked_args(plan)
    out = []
    for k, m in enumerate(shown):
        if m["role"] != "assistant" or k == 0:
            continue
        calls = [
            (tc["function"]["name"], tc["function"].get("arguments") or {}) for tc in m.get("tool_calls", [])
        ]
        ex = StepExample(
            id=f"{trajectory_id}#{k}",
            trajectory_id=trajectory_id,
            source=source,
            step=k,
            kind="call" if calls else "answer",
            messages=shown[:k],
            tools=tools,
            target_calls=calls,
            target_answer="" if calls else m.get("content", ""),
            facts=facts,
            tool_results=[x["content"] for x in shown[:k] if x["role"] == "tool"],
            session_tokens=_issued_tokens(raw[:k]),
            clock=clock or "",
            seed=int(seed),
            category=category,
        )
        if settings.answerable_only and not answerable(ex, linked):
            if dropped is not None:
                dropped[f"unanswerable_{ex.kind}"] += 1
            continue
        out.append(ex)
    return out


def edge_steps(
    row: dict[str, Any], settings: StepSettings | None = None, dropped: Counter | None = None
) -> list[StepExample]:
    """Steps of one EDGE row (columns of edge_synth's dataset)."""
    return steps_from_trajectory(
        trajectory_id=row["id"],
        source="edge",
        messages=json.loads(row["messages_json"]),
        tools=json.loads(row["tools_json"]),
        facts=json.loads(row["facts_json"]),
        clock=row.get("clock") or "",
        seed=int(row.get("seed") or 0),
        plan=json.loads(row.get("plan_json") or "{}"),
        category="+".join(row.get("junctions") or []),
        settings=settings,
        dropped=dropped,
    )


def load_edge_rows(
    path: str | Path, split: Split | None = None, test_percent: int = TEST_PERCENT
) -> list[dict[str, Any]]:
    """EDGE rows from a ``save_to_disk`` folder, optionally only one side of the held-out split."""
    from datasets import DatasetDict, load_from_disk

    ds = load_from_disk(str(path))
    if isinstance(ds, DatasetDict):
        ds = ds["train"] if "train" in ds else ds[next(iter(ds))]
    missing = {"id", "messages_json", "tools_json", "facts_json", "clock", "seed"} - set(ds.column_names)
    if missing:
        raise ValueError(f"{path} is not an EDGE dataset: missing columns {sorted(missing)}")
    rows = [dict(r) for r in ds]
    if split is not None:
        rows = [r for r in rows if split_of(r["id"], test_percent) == split]
    return rows


def edge_examples(
    path: str | Path,
    split: Split | None = "test",
    settings: StepSettings | None = None,
    test_percent: int = TEST_PERCENT,
    dropped: Counter | None = None,
) -> list[StepExample]:
    return [ex for r in load_edge_rows(path, split, test_percent) for ex in edge_steps(r, settings, dropped)]


# --- KOPA-Bench gold plans -> steps ------------------------------------------------------------------


def _distractors(task: Any, n: int = 2) -> list[str]:
    from kopa_inspect.apis import operations

    used = set(task.plan.tools())
    pool = sorted(set(task.tools) - used) or sorted(
        o.id for o in operations().values() if o.platform in set(task.platforms) and o.id not in used
    )
    return random.Random(f"steps|{task.id}").sample(pool, min(n, len(pool)))


async def _bench_trajectory(task: Any, backend: Any, seed: int) -> dict[str, Any] | None:
    from kopa_inspect.plans import PlanError
    from kopa_inspect.scorers.grading import oracle_answer
    from kopa_inspect.trajectories import build_messages, execute, tools_for

    if any(s.expect_error for s in task.plan.steps):
        return None  # error-recovery tasks: the step after an error needs the error turn, not modelled here
    try:
        run, tokens = await execute(task.plan, backend, seed=seed, clock=task.clock)
    except PlanError:
        return None
    expected = {f.id: f.resolve(run.outputs) for f in task.facts}
    context = {f.id: f.resolve_context(run.outputs) for f in task.facts}
    answer = oracle_answer(task, expected, context=context)
    messages = build_messages(task.plan, run, tokens, task.query, answer)
    # Each fact carries what it resolved to and its resolved subject/competitors (the scorer's
    # subject-bound matching needs them) and the question (a refusal may repeat its figures).
    facts = [
        {
            **f.model_dump(mode="json"),
            "resolved": expected[f.id],
            "context": context[f.id],
            "question": task.query,
        }
        for f in task.facts
    ]
    return {"messages": messages, "tools": tools_for(task.plan, tokens, _distractors(task)), "facts": facts}


def bench_examples(
    task_file: str | Path | None = None,
    ids: Iterable[str] | None = None,
    seed: int = 0,
    settings: StepSettings | None = None,
    dropped: Counter | None = None,
) -> list[StepExample]:
    """Steps of the KOPA-Bench gold plans, executed now on the embedded emulator's world of ``seed``
    (the steps carry that seed, so their results must come from that world)."""
    from kopa_inspect.backends import BackendConfig, make_backend
    from kopa_inspect.task_data.schema import load_tasks

    tasks = load_tasks(task_file)
    if ids is not None:
        wanted = set(ids)
        tasks = [t for t in tasks if t.id in wanted]
    backend = make_backend(BackendConfig(), seed=seed)

    async def all_rows() -> list[dict[str, Any] | None]:
        return [await _bench_trajectory(t, backend, seed) for t in tasks]

    out: list[StepExample] = []
    for task, traj in zip(tasks, _run_sync(all_rows), strict=True):
        if traj is None:
            if dropped is not None:
                dropped["bench_task_skipped"] += 1
            continue
        out += steps_from_trajectory(
            trajectory_id=task.id,
            source="bench",
            messages=traj["messages"],
            tools=traj["tools"],
            facts=traj["facts"],
            clock=task.clock,
            seed=seed,
            plan=task.plan.model_dump(mode="json"),
            category=task.category,
            settings=settings,
            dropped=dropped,
        )
    return out


def _run_sync(factory: Any) -> Any:
    """Run a coroutine from sync code, also when an event loop is already running (Inspect builds
    its tasks inside one): then it runs on a private loop in a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(factory())
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(factory())).result()


def interleave(examples: list[StepExample]) -> list[StepExample]:
    """A deterministic order that mixes trajectories and kinds, so ``--limit N`` takes a fair sample
    instead of the first few trajectories."""
    return sorted(examples, key=lambda e: hashlib.sha256(e.id.encode("utf-8")).hexdigest())


def by_trajectory(examples: list[StepExample]) -> list[StepExample]:
    """Trajectories in hashed order, each one's steps together and in order (shared prompt prefixes)."""
    return sorted(
        examples, key=lambda e: (hashlib.sha256(e.trajectory_id.encode("utf-8")).hexdigest(), e.step)
    )
