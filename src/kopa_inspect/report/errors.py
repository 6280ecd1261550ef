"""Error analysis: the most common failure kind per model, counted from the trajectories."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.log import EvalSample, list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool

from kopa_inspect.report.load import run_label

FAILURE_KINDS = (
    "limit reached",
    "hallucinated answer without a call",
    "API error not recovered",
    "wrong tool",
    "broken chain",
    "wrong argument value",
    "wrong final answer",
)


def _gold_tools(sample: EvalSample) -> set[str]:
    plan = (sample.metadata or {}).get("plan")
    if isinstance(plan, str):
        try:
            plan = json.loads(plan)
        except json.JSONDecodeError:
            plan = None
    if isinstance(plan, dict):
        return {s.get("tool") for s in plan.get("steps", []) if s.get("required", True)}
    return set()


def _score_value(sample: EvalSample) -> dict[str, Any]:
    for score in (sample.scores or {}).values():
        if isinstance(score.value, dict):
            return score.value
    return {}


def classify(sample: EvalSample) -> str | None:
    """The failure kind of one sample, or None when it succeeded."""
    value = _score_value(sample)
    if float(value.get("success", 0) or 0) >= 1.0:
        return None
    if sample.limit is not None:
        return "limit reached"
    called: list[str] = []
    for m in sample.messages:
        if isinstance(m, ChatMessageAssistant):
            called += [tc.function for tc in m.tool_calls or []]
    category = (sample.metadata or {}).get("category")
    if not called and category != "unanswerable":
        return "hallucinated answer without a call"
    # An API error is recovered when the same tool later answers without an error.
    last_ok: dict[str, bool] = {}
    for m in sample.messages:
        if isinstance(m, ChatMessageTool) and m.function:
            last_ok[m.function] = m.error is None
    if any(ok is False for ok in last_ok.values()):
        return "API error not recovered"
    gold = _gold_tools(sample)
    if gold and not gold <= set(called):
        return "wrong tool"
    chain = value.get("chain")
    if chain is not None and float(chain) < 1.0 and float(value.get("call_f1", 0) or 0) > 0:
        return "broken chain"
    if float(value.get("call_f1", 1) or 0) < 1.0:
        return "wrong argument value"
    return "wrong final answer"


def error_table(log_dir: str | Path) -> pd.DataFrame:
    counts: dict[str, Counter[str]] = {}
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info)
        if not log.eval.task.endswith("kopa_bench") or not log.samples:
            continue
        label = run_label(pd.Series({"model": log.eval.model, "model_args_json": log.eval.model_args,
                                     "eval_metadata_label": (log.eval.metadata or {}).get("kopa_label")}))
        c = counts.setdefault(label, Counter())
        for sample in log.samples:
            kind = classify(sample)
            if kind:
                c[kind] += 1
    rows = [{"model": label, **{k: c.get(k, 0) for k in FAILURE_KINDS}} for label, c in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["model", *FAILURE_KINDS])
