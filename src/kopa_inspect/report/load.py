"""Read Inspect logs into one tidy frame: a row per (run label, task, sample id, epoch).

Only ``inspect_ai.analysis`` / ``inspect_ai.log`` read the logs. What the logs hold (checked
against real KOPA-Bench logs of inspect-ai 0.3.285):

- KOPA-Bench runs have task name ``kopa_bench``; one scorer per axis, ``kopa_success``,
  ``kopa_answer``, ``kopa_call_f1`` ... (samples_df columns ``score_kopa_<axis>``, NaN where an
  axis is undefined for a task); logs of task version 1 hold one ``kopa_scorer`` dict instead
  (samples_df hands it over as a JSON string), still read. An optional ``kopa_judge`` score is
  ``C``/``I``.
- Sample metadata: ``category``, ``domain``, ``difficulty``, ``held_out`` (bool), ``n_calls``
  (gold API calls) and ``task`` (the whole task record, gold plan included).
- A run's display label is the eval metadata ``kopa_label`` (``kopa grid`` sets it), else the
  model name plus its checkpoint folder.

BFCL runs (``inspect eval inspect_evals/bfcl ...``; any task whose name starts with ``bfcl``)
in the same folder become BFCL columns beside KOPA-Bench. Their single score (``C``/``I`` or a
number) is the sample's ``score_value``; they are given the KOPA-Bench label of the same model
(same model name and args, else the same model name when only one KOPA run uses it).

Runs with one label but different settings (model, task version, task arguments, epochs) are
not pooled: report.settings splits them into one label each and says so in a note.

Resumed or repeated runs leave several logs holding the same samples; the most recent finished
copy of each (label, task, sample, epoch) is kept, so nothing is counted twice.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import EvalColumn, EvalModel, EvalTask, SampleColumn, SampleSummary, samples_df

from kopa_inspect.report.settings import mixed_across_rows, split_mixed_labels

# The KOPA-Bench axes (kopa_inspect.scorers.grading.AXES; "parallel" may be absent from older
# logs); "judge" is the optional model-graded check (1 = C).
METRICS = ("success", "answer", "call_f1", "chain", "env", "efficiency", "calls", "errors", "parallel")
AXIS_PREFIX = "score_kopa_"  # one column per axis: score_kopa_success ...
KOPA_SCORER = "score_kopa_scorer"  # task version 1: one dict-valued score
JUDGE_SCORER = "score_kopa_judge"

_COLUMNS = [
    *SampleSummary,
    *EvalModel,
    *EvalTask,
    EvalColumn("model_args_json", path="eval.model_args"),
    EvalColumn("task_args_json", path="eval.task_args"),
    EvalColumn("run_epochs", path="eval.config.epochs"),
    EvalColumn("eval_metadata_label", path="eval.metadata.kopa_label"),
    EvalColumn("run_id", path="eval.run_id"),
    EvalColumn("eval_created", path="eval.created"),
    EvalColumn("log_status", path="status"),
    SampleColumn("sample_error", path="error"),
    SampleColumn("sample_limit", path="limit"),
]


def _json(value: Any) -> Any:
    """samples_df hands dicts over as JSON strings; parse those, keep everything else."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _present(value: Any) -> bool:
    if value is None:
        return False
    try:
        return not bool(pd.isna(value))
    except (TypeError, ValueError):  # lists, dicts
        return True


def model_key(model: Any, args: Any) -> str:
    """A model's identity for matching runs of different benchmarks: name plus sorted args."""
    args = _json(args)
    args = args if isinstance(args, dict) else {}
    return f"{model}|{json.dumps(args, sort_keys=True, default=str)}"


def run_label(row: pd.Series) -> str:
    """A run's display name: the grid label, else the model plus its checkpoint folder."""
    label = row.get("eval_metadata_label")
    if isinstance(label, str) and label:
        return label
    model = str(row.get("model", "?"))
    args = _json(row.get("model_args_json"))
    if isinstance(args, dict) and args.get("model_path"):
        path = Path(str(args["model_path"]))
        name = path.name if path.name not in ("merged", "") else f"{path.parent.name}/{path.name}"
        return f"{model} ({name})"
    return model


def as_float(v: Any) -> float | None:
    """A score value as a number: C/I (and P for partial) as Inspect's value_to_float reads them."""
    if not _present(v):
        return None
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, str):
        letter = v.strip().upper()
        if letter in ("C", "Y", "YES", "TRUE", "CORRECT"):
            return 1.0
        if letter in ("I", "N", "NO", "FALSE", "INCORRECT"):
            return 0.0
        if letter == "P":
            return 0.5
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _first_score(row: pd.Series, columns: list[str]) -> float | None:
    for col in columns:
        value = _json(row[col])
        if isinstance(value, dict):
            continue
        f = as_float(value)
        if f is not None:
            return f
    return None


def load_samples(log_dir: str | Path) -> pd.DataFrame:
    """All samples of all runs under ``log_dir`` (recursively), KOPA-Bench and BFCL alike."""
    log_dir = Path(log_dir)
    if not log_dir.exists():
        raise FileNotFoundError(f"log dir {log_dir} does not exist")
    df = samples_df(str(log_dir), columns=_COLUMNS, quiet=True)
    if df.empty:
        raise ValueError(f"no Inspect logs with samples under {log_dir}")
    # pyarrow-backed columns to plain objects: values are mixed (JSON strings, NA, numbers).
    df = df.astype(object).where(df.notna(), None)
    df["label"] = df.apply(run_label, axis=1)
    df["model_key"] = [model_key(m, a) for m, a in zip(df["model"], df["model_args_json"], strict=True)]
    df["task"] = df["task_name"].astype(str).str.split("/").str[-1]
    df["id"] = df["id"].astype(str)
    df["epoch"] = df["epoch"].astype(int)

    old = (
        df[KOPA_SCORER].map(_json)
        if KOPA_SCORER in df.columns
        else pd.Series([None] * len(df), index=df.index)
    )
    old = old.map(lambda s: s if isinstance(s, dict) else {})
    for m in METRICS:
        col = AXIS_PREFIX + m
        new = df[col].map(as_float) if col in df.columns else pd.Series([None] * len(df), index=df.index)
        df[m] = [n if n is not None else as_float(o.get(m)) for n, o in zip(new, old, strict=True)]
    df["judge"] = df[JUDGE_SCORER].map(as_float) if JUDGE_SCORER in df.columns else None
    kopa_columns = {KOPA_SCORER, JUDGE_SCORER, *(AXIS_PREFIX + m for m in METRICS)}
    other = [c for c in df.columns if c.startswith("score_") and c not in kopa_columns]
    df["score_value"] = df.apply(lambda r: _first_score(r, other), axis=1) if other else None
    df["errored"] = df["sample_error"].map(lambda e: _present(e) and str(e) != "")
    df, split_notes = split_mixed_labels(df)
    out = _dedupe(df)
    out.attrs["setting_notes"] = split_notes + mixed_across_rows(out)
    return out


def _dedupe(df: pd.DataFrame) -> pd.DataFrame:
    """Keep one copy of each (label, task, id, epoch): finished logs first, then the newest."""
    df = df.copy()
    df["_finished"] = (df["log_status"] == "success").astype(int)
    df["_scored"] = (df["success"].notna() | df["score_value"].notna()).astype(int)
    df["_created"] = df["eval_created"].astype(str)
    df = df.sort_values(["_finished", "_scored", "_created", "log"], kind="stable")
    n = len(df)
    df = df.drop_duplicates(["label", "task", "id", "epoch"], keep="last")
    out = (
        df.drop(columns=["_finished", "_scored", "_created"])
        .sort_values(["label", "task", "id", "epoch"], kind="stable")
        .reset_index(drop=True)
    )
    out.attrs["duplicates_dropped"] = n - len(out)
    return out


def kopa_samples(df: pd.DataFrame) -> pd.DataFrame:
    """KOPA-Bench rows; an errored sample (no score) counts as a failure for success and pass@k."""
    out = df[df["task"] == "kopa_bench"].copy()
    if out.empty:
        raise ValueError("no kopa_bench samples in these logs")
    out["success"] = out["success"].map(lambda v: 0.0 if v is None or pd.isna(v) else float(v))
    return out


def bfcl_samples(df: pd.DataFrame, kopa: pd.DataFrame | None = None) -> pd.DataFrame:
    """BFCL rows, relabelled with the KOPA-Bench label of the same model where that is clear."""
    out = df[df["task"].str.lower().str.startswith("bfcl")].copy()
    if out.empty or kopa is None or kopa.empty:
        return out
    by_key: dict[str, set[str]] = {}
    by_model: dict[str, set[str]] = {}
    for key, model, label in zip(kopa["model_key"], kopa["model"], kopa["label"], strict=True):
        by_key.setdefault(key, set()).add(label)
        by_model.setdefault(str(model), set()).add(label)

    def relabel(row: pd.Series) -> str:
        if isinstance(row.get("eval_metadata_label"), str) and row["eval_metadata_label"]:
            return row["label"]
        for labels in (by_key.get(row["model_key"]), by_model.get(str(row["model"]))):
            if labels and len(labels) == 1:
                return next(iter(labels))
        return row["label"]

    out["label"] = out.apply(relabel, axis=1)
    return out
