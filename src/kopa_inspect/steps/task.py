"""``inspect eval kopa_inspect/kopa_steps``: the next call or the final answer, one turn per sample.

    inspect eval kopa_inspect/kopa_steps -T data=runs/edge/dataset --model hf/local -M model_path=DIR
    inspect eval kopa_inspect/kopa_steps -T split=bench --model llamacpp/smollm2 --limit 60
    inspect eval kopa_inspect/kopa_steps -T data=runs/edge/dataset -T profile=cpu --model openai/gpt-4o-mini

Task parameters (``-T``):

- ``split``: ``edge`` (default; the held-out trajectories of an EDGE dataset, ``data`` = its
  ``save_to_disk`` folder, never the ones kopa_grpo trains on) or ``bench`` (steps of the
  KOPA-Bench gold plans, built at load time from ``task_file``, default the packaged tasks).
- ``profile``: ``default`` (first-line descriptions cut to 60 characters, results to 400) or
  ``cpu`` (Korean title + English gloss only, no parameter descriptions, one distractor, results
  to 300 characters: prompts a 135M model on a CPU can afford). Individual knobs:
  ``max_result_chars``, ``distractors``, ``english``.
- ``test_percent`` (EDGE held-out share, default 10), ``ids`` (bench task ids), ``seed``.
- ``max_tokens_file``: a JSON object {sample id: tokens}, a generation limit per step that replaces
  ``--max-tokens`` (benchmarks/grpo_cpu_experiment.py sets each from the gold move's length, so no
  gold move is cut while a rambling model stops early).

The samples come in a fixed hashed order (mixed trajectories and kinds), so ``--limit N`` is a
fair sample; ``order=trajectory`` keeps each trajectory's steps together, in order, trajectories in
hashed order (``--limit N`` = whole trajectories, a fair sample of them): an engine that keeps the
previous prompt in its KV cache (llamacpp) then only evaluates each step's new tokens. Each sample's tools are only the tools in play (the trajectory's own plus
distractors). The solver asks the model once with those tools and never executes anything.

Scores per sample (NaN where undefined), each reported with a 95% Wilson interval and a 95%
trajectory-clustered bootstrap interval (steps of one trajectory are not independent):
``parse`` (a parseable call or a non-empty answer), ``kind`` (called when a call was due,
answered when the answer was due), ``tool_name`` (call steps: the gold wave's tool names),
``exact`` (call steps: the exact gold wave, kopa_inspect.steps.scoring.calls_exact), ``answer``
(answer steps: every required fact, subject-bound, no paste).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCall, ToolInfo, ToolParams

from kopa_inspect.stats import cluster_bootstrap_ci, wilson_ci
from kopa_inspect.steps import build, scoring
from kopa_inspect.steps.parsing import ParsedCompletion, from_tool_calls, history_calls, parse_completion
from kopa_inspect.steps.stats import trajectory_of

METRIC_KEYS = ("parse", "kind", "tool_name", "exact", "answer")

PROFILES: dict[str, dict[str, Any]] = {
    "default": {},
    "cpu": {
        "english_descriptions": True,
        "param_description_chars": 0,
        "tool_description_chars": 48,
        "distractors": 1,
        "max_result_chars": 300,
    },
}


def settings_for(profile: str = "default", **overrides: Any) -> build.StepSettings:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {sorted(PROFILES)}, not {profile!r}")
    return build.StepSettings(
        **{**PROFILES[profile], **{k: v for k, v in overrides.items() if v is not None}}
    )


# --- examples -> Inspect ---------------------------------------------------------------------------


def tool_info(schema: dict[str, Any]) -> ToolInfo:
    fn = schema.get("function", schema)
    params = dict(fn.get("parameters") or {"type": "object", "properties": {}})
    params.pop("additionalProperties", None)
    return ToolInfo(
        name=fn["name"],
        description=fn.get("description") or fn["name"],
        parameters=ToolParams.model_validate(params),
    )


def chat_messages(messages: list[dict[str, Any]]) -> list[ChatMessage]:
    """HF chat dicts (build._norm_message form) -> Inspect messages."""
    out: list[ChatMessage] = []
    for m in messages:
        role = m["role"]
        if role == "system":
            out.append(ChatMessageSystem(content=m["content"]))
        elif role == "user":
            out.append(ChatMessageUser(content=m["content"]))
        elif role == "assistant":
            calls = [
                ToolCall(
                    id=tc["id"],
                    function=tc["function"]["name"],
                    arguments=dict(tc["function"].get("arguments") or {}),
                )
                for tc in m.get("tool_calls") or []
            ]
            out.append(ChatMessageAssistant(content=m.get("content") or "", tool_calls=calls or None))
        elif role == "tool":
            out.append(
                ChatMessageTool(
                    content=m["content"], tool_call_id=m.get("tool_call_id"), function=m.get("name")
                )
            )
        else:
            raise ValueError(f"unknown message role {role!r}")
    return out


def to_sample(ex: build.StepExample, max_tokens: int | None = None) -> Sample:
    target = (
        json.dumps([{"name": n, "arguments": a} for n, a in ex.target_calls], ensure_ascii=False)
        if ex.kind == "call"
        else ex.target_answer
    )
    metadata: dict[str, Any] = {"step": ex.model_dump(mode="json")}
    if max_tokens is not None:
        metadata["max_tokens"] = max_tokens
    return Sample(id=ex.id, input=chat_messages(ex.messages), target=target, metadata=metadata)


def load_max_tokens(path: str, ids: list[str]) -> dict[str, int]:
    """Per-step generation limits ({sample id: tokens}, a JSON file): every evaluated id needs one."""
    from pathlib import Path

    try:
        caps = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(
            f"max_tokens_file {path}: not a readable JSON object of sample id -> tokens ({exc})"
        ) from None
    if not isinstance(caps, dict):
        raise ValueError(f"max_tokens_file {path}: expected a JSON object of sample id -> tokens")
    missing = [i for i in ids if i not in caps]
    if missing:
        raise ValueError(f"max_tokens_file {path}: no limit for {len(missing)} step(s), e.g. {missing[0]!r}")
    bad = [i for i in ids if not isinstance(caps[i], int) or isinstance(caps[i], bool) or caps[i] < 1]
    if bad:
        raise ValueError(
            f"max_tokens_file {path}: the limit of {bad[0]!r} is not a positive integer: {caps[bad[0]]!r}"
        )
    return {i: caps[i] for i in ids}


def load_examples(
    split: str = "edge",
    data: str | None = None,
    task_file: str | None = None,
    ids: str | list[str] | None = None,
    test_percent: int = build.TEST_PERCENT,
    seed: int = 0,
    settings: build.StepSettings | None = None,
    dropped: Counter | None = None,
    order: str = "hashed",
) -> list[build.StepExample]:
    if order not in ("hashed", "trajectory"):
        raise ValueError(f"order must be 'hashed' or 'trajectory', not {order!r}")
    if split == "edge":
        if not data:
            raise ValueError(
                "split=edge needs -T data=<EDGE dataset folder> (make one with `kopa synth --out DIR`; "
                "the dataset is DIR/dataset)"
            )
        examples = build.edge_examples(data, "test", settings, test_percent, dropped)
    elif split == "bench":
        wanted = [i.strip() for i in ids.split(",")] if isinstance(ids, str) else ids
        examples = build.bench_examples(task_file, wanted, seed, settings, dropped)
    else:
        raise ValueError(f"split must be 'edge' or 'bench', not {split!r}")
    if not examples:
        raise ValueError(f"no step examples in split {split!r} (dropped: {dict(dropped or {})})")
    return build.interleave(examples) if order == "hashed" else build.by_trajectory(examples)


# --- solver ----------------------------------------------------------------------------------------


@solver
def next_step() -> Solver:
    """One model turn with the step's tools; nothing is executed."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        tools = [tool_info(t) for t in state.metadata["step"]["tools"]]
        # A per-step limit (max_tokens_file) replaces the eval's --max-tokens for this turn.
        cap = state.metadata.get("max_tokens")
        config = GenerateConfig(max_tokens=cap) if cap else GenerateConfig()
        output = await get_model().generate(state.messages, tools=tools, tool_choice="auto", config=config)
        state.output = output
        state.messages.append(output.message)
        return state

    return solve


# --- scorer ----------------------------------------------------------------------------------------


def parsed_output(output: ModelOutput) -> ParsedCompletion:
    """Inspect's parsed tool calls when the provider made them, else our parser on the text."""
    msg = output.message if output.choices else None
    if msg is not None and msg.tool_calls:
        calls = [(tc.function, dict(tc.arguments or {})) for tc in msg.tool_calls if not tc.parse_error]
        # prose beside the calls makes the move ill-formed, as on the text path (steps.parsing)
        return from_tool_calls(calls, len(msg.tool_calls), msg.text)
    return parse_completion(output.completion or "")


def step_values(parsed: ParsedCompletion, step: dict[str, Any]) -> dict[str, float]:
    kind = step["kind"]
    targets = [(n, a) for n, a in step["target_calls"]]
    nan = float("nan")
    parse = parsed.well_formed and bool(parsed.calls or parsed.answer)
    right_kind = bool(parsed.calls) if kind == "call" else bool(parsed.answer and not parsed.calls)
    return {
        "parse": float(parse),
        "kind": float(parse and right_kind),
        # a replay of a history call or a keyed call is no right tool (the GRPO reward's rule)
        "tool_name": float(
            parse
            and scoring.tool_names_right(parsed.calls, targets, history_calls(step.get("messages") or []))
        )
        if kind == "call"
        else nan,
        "exact": float(scoring.outcome(parsed, "call", targets, [])) if kind == "call" else nan,
        "answer": float(scoring.answer_right(parsed, step["facts"], step["tool_results"]))
        if kind == "answer"
        else nan,
    }


@metric
def step_accuracy() -> Metric:
    """Mean of each step score over the samples where it is defined, with a 95% Wilson interval
    (``<key>``, ``<key>_lo``, ``<key>_hi``, ``<key>_n``) and, beside it, a 95% trajectory-clustered
    bootstrap interval (``<key>_clu_lo``, ``<key>_clu_hi``, over ``<key>_clusters`` trajectories):
    steps of one trajectory are correlated, so Wilson's interval, which counts them as independent
    trials, is too narrow (kopa_inspect.stats)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        clusters = []
        for s in scores:
            meta = s.sample_metadata or {}
            if not isinstance(meta.get("step"), dict) and s.score.metadata:
                meta = {"trajectory_id": s.score.metadata.get("trajectory_id")}
            clusters.append(trajectory_of(s.sample_id, meta))
        for key in METRIC_KEYS:
            vals, cl = [], []
            for s, c in zip(scores, clusters, strict=True):
                v = s.score.value.get(key) if isinstance(s.score.value, dict) else None
                if isinstance(v, int | float) and not math.isnan(float(v)):
                    vals.append(float(v))
                    cl.append(c)
            n = len(vals)
            lo, hi = wilson_ci(sum(vals), n)
            out[key] = sum(vals) / n if n else float("nan")
            out[f"{key}_lo"], out[f"{key}_hi"], out[f"{key}_n"] = lo, hi, float(n)
            out[f"{key}_clu_lo"], out[f"{key}_clu_hi"] = cluster_bootstrap_ci(vals, cl)
            out[f"{key}_clusters"] = float(len(set(cl)))
        return out

    return compute


@scorer(metrics=[step_accuracy()])
def step_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        step = state.metadata["step"]
        parsed = parsed_output(state.output)
        values = step_values(parsed, step)
        made = [{"name": n, "arguments": a} for n, a in parsed.calls]
        answer = json.dumps(made, ensure_ascii=False) if parsed.calls else (parsed.answer or "")
        return Score(
            value=values,
            answer=answer[:2000],
            explanation=f"{step['kind']} step; gold: {target.text[:500]}",
            metadata={
                "kind": step["kind"],
                "source": step["source"],
                "trajectory_id": step.get("trajectory_id"),
            },
        )

    return score


# Step scoring changes, so that step metrics of two logs are compared only at one version (Inspect
# records it as eval.task_version); KOPA-Bench has its own (task_version.TASK_VERSION).
# 1: the first scoring.
# 2: call blocks are read with the evaluation's decoder (a key beside name/arguments is ill-formed);
#    one name-hedge rule with KOPA-Bench (a name beside any invented one), an alias from a shown row is
#    no hedge; a clock hour is no figure, a denied or opposite-extreme figure is not stated.
STEPS_TASK_VERSION = 2


@task
def kopa_steps(
    split: str = "edge",
    data: str | None = None,
    task_file: str | None = None,
    ids: str | list[str] | None = None,
    profile: str = "default",
    max_result_chars: int | None = None,
    distractors: int | None = None,
    english: bool | None = None,
    test_percent: int = build.TEST_PERCENT,
    seed: int = 0,
    order: str = "hashed",
    max_tokens_file: str | None = None,
) -> Task:
    settings = settings_for(
        profile, max_result_chars=max_result_chars, distractors=distractors, english_descriptions=english
    )
    dropped: Counter = Counter()
    examples = load_examples(split, data, task_file, ids, test_percent, seed, settings, dropped, order)
    caps = load_max_tokens(max_tokens_file, [e.id for e in examples]) if max_tokens_file else {}
    dataset = MemoryDataset(
        [to_sample(e, caps.get(e.id)) for e in examples],
        name=f"kopa_steps_{split}",
        location=str(data or task_file or "kopa_inspect/task_data/kopa_bench.jsonl"),
    )
    return Task(
        dataset=dataset,
        solver=next_step(),
        scorer=step_scorer(),
        version=STEPS_TASK_VERSION,
        metadata={
            "split": split,
            "profile": profile,
            "settings": settings.model_dump(),
            "dropped_unanswerable": dict(dropped),
        },
    )
