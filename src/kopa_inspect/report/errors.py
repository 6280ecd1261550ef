"""Error analysis: why each failed KOPA-Bench sample failed, counted per model.

Each failed sample gets exactly one kind, the first that applies in this order (earlier kinds
explain later symptoms: a run that never called a tool also has call_f1 = 0):

1. ``sample error``: the sample crashed (no score); ``gold plan failed``: the benchmark's own gold
   plan did not run on this backend (live drift, a recording without its calls): not the model's fault.
2. ``limit reached``: a message/token/time limit ended it.
3. ``answered an unanswerable question``: an unanswerable task not refused.
4. ``hallucinated answer without a call``: answered without calling any tool.
5. ``API error not recovered``: some tool's last result was an error (bad argument, NODATA ...).
6. ``wrong tool``: a required gold tool was never called.
7. ``broken chain``: the gold tools were called but an output was not carried into a later
   input (chain < 1).
8. ``wrong argument value``: gold tools called in a working chain, arguments off (call_f1 < 1,
   or a required gold call not matched).
9. ``required state not reached``: calls right, but a token or page the task needs is missing.
10. ``wrong final answer``: calls and state right, the answer misses a fact.

The trajectory (tool calls, tool errors) comes from the sample's messages, read with
``inspect_ai.log.read_eval_log_samples_by_id``; the axes from the frame load.py built.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pandas as pd
from inspect_ai.log import EvalSample, read_eval_log_samples_by_id
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool

from kopa_inspect.scorers.kopa import axis_values, scorer_name

FAILURE_KINDS = (
    "sample error",
    "gold plan failed",
    "limit reached",
    "answered an unanswerable question",
    "hallucinated answer without a call",
    "API error not recovered",
    "wrong tool",
    "broken chain",
    "wrong argument value",
    "required state not reached",
    "wrong final answer",
)


def _task_record(sample: EvalSample) -> dict[str, Any]:
    task = (sample.metadata or {}).get("task")
    if isinstance(task, str):
        try:
            task = json.loads(task)
        except json.JSONDecodeError:
            task = None
    return task if isinstance(task, dict) else {}


def _steps(sample: EvalSample) -> list[dict[str, Any]]:
    steps = (_task_record(sample).get("plan") or {}).get("steps") or []
    return [s for s in steps if isinstance(s, dict) and s.get("tool")]


def gold_tools(sample: EvalSample) -> set[str]:
    """Tools of the required gold steps (metadata ``task.plan.steps[].tool``)."""
    return {s["tool"] for s in _steps(sample) if s.get("required", True)}


def expected_error_tools(sample: EvalSample) -> set[str]:
    """Tools whose error the gold plan itself expects (error-recovery tasks)."""
    return {s["tool"] for s in _steps(sample) if s.get("expect_error")}


def _num(value: dict[str, Any], key: str, default: float) -> float:
    v = value.get(key)
    try:
        return float(v) if v is not None else default
    except (TypeError, ValueError):
        return default


def classify(sample: EvalSample, value: dict[str, Any] | None = None) -> str | None:
    """The failure kind of one sample, or None when it succeeded.

    ``value`` holds the axis values; by default read from the sample's axis scores (``kopa_success``
    ...), or from the one ``kopa_scorer`` dict of task-version-1 logs.
    """
    scores = sample.scores or {}
    old = scores.get("kopa_scorer")
    if value is None:
        value = {k: v for k, v in axis_values(scores).items() if v is not None}
        if not value and old is not None and isinstance(old.value, dict):
            value = old.value
    if sample.error is not None or not value:
        return "sample error"
    headline = scores.get(scorer_name("success")) or old
    if headline is not None and (headline.metadata or {}).get("gold_error"):
        return "gold plan failed"
    if _num(value, "success", 0.0) >= 1.0:
        return None
    if sample.limit is not None:
        return "limit reached"
    called: list[str] = []
    for m in sample.messages:
        if isinstance(m, ChatMessageAssistant):
            called += [tc.function for tc in m.tool_calls or []]
    category = (sample.metadata or {}).get("category")
    if category == "unanswerable":
        return "answered an unanswerable question"
    if not called:
        return "hallucinated answer without a call"
    # Recovered: the same tool later answered without an error. A tool whose error the gold plan
    # expects (error-recovery tasks) is not counted: that error is the task's design.
    expected = expected_error_tools(sample)
    last_ok: dict[str, bool] = {}
    for m in sample.messages:
        if isinstance(m, ChatMessageTool) and m.function and m.function not in expected:
            last_ok[m.function] = m.error is None
    if any(ok is False for ok in last_ok.values()):
        return "API error not recovered"
    gold = gold_tools(sample)
    if gold and not gold <= set(called):
        return "wrong tool"
    if _num(value, "chain", 1.0) < 1.0:
        return "broken chain"
    if _num(value, "call_f1", 1.0) < 1.0:
        return "wrong argument value"
    if _num(value, "env", 1.0) < 1.0:
        return "required state not reached"
    return "wrong final answer"


def classify_frame(kopa: pd.DataFrame) -> pd.DataFrame:
    """The kopa frame's failed rows with a ``kind`` column (trajectories read from their logs)."""
    failed = kopa[kopa["success"].astype(float) < 1.0]
    rows = []
    for log, sub in failed.groupby("log", sort=True):
        wanted = list(zip(sub["id"], sub["epoch"].astype(int), strict=True))
        samples = read_eval_log_samples_by_id(str(log), wanted)
        by_key = {(str(s.id), int(s.epoch)): s for s in samples}
        for _, row in sub.iterrows():
            sample = by_key.get((row["id"], int(row["epoch"])))
            kind: str | None
            if sample is None:
                kind = "sample error"
            else:
                value = {
                    m: row[m] for m in ("success", "answer", "call_f1", "chain", "env") if pd.notna(row[m])
                }
                kind = classify(sample, value if pd.notna(row.get("answer")) else {})
            rows.append(
                {
                    "model": row["label"],
                    "id": row["id"],
                    "epoch": int(row["epoch"]),
                    "category": row.get("metadata_category"),
                    "kind": kind,
                }
            )
    return pd.DataFrame(rows, columns=["model", "id", "epoch", "category", "kind"])


def error_table(kopa: pd.DataFrame) -> pd.DataFrame:
    """Counts of each failure kind per model (all models of the frame, zero rows included)."""
    kinds = classify_frame(kopa)
    rows = []
    for label in sorted(kopa["label"].unique()):
        c: Counter[str] = Counter(kinds.loc[kinds["model"] == label, "kind"])
        n = int((kopa["label"] == label).sum())
        rows.append(
            {
                "model": label,
                "samples": n,
                "failed": sum(c.values()),
                **{k: c.get(k, 0) for k in FAILURE_KINDS},
            }
        )
    return pd.DataFrame(rows, columns=["model", "samples", "failed", *FAILURE_KINDS])
