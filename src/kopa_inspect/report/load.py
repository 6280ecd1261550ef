"""Read Inspect logs into one tidy frame: a row per (run, sample, epoch).

Only inspect_ai.analysis / inspect_ai.log are used to read logs. KOPA-Bench runs are the logs
whose task is ``kopa_bench``; BFCL runs (``inspect_evals/bfcl``) in the same folder become BFCL
columns beside them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import EvalColumn, EvalModel, EvalTask, SampleSummary, samples_df

METRICS = ("success", "answer", "call_f1", "chain", "env", "efficiency", "errors", "calls")

_COLUMNS = [
    *SampleSummary,
    *EvalModel,
    *EvalTask,
    EvalColumn("model_args_json", path="eval.model_args"),
    EvalColumn("eval_metadata_label", path="eval.metadata.kopa_label"),
    EvalColumn("run_id", path="eval.run_id"),
]


def run_label(row: pd.Series) -> str:
    """A model's display name: the grid label, else the model plus its checkpoint folder."""
    label = row.get("eval_metadata_label")
    if isinstance(label, str) and label:
        return label
    model = str(row.get("model", "?"))
    args = row.get("model_args_json")
    if isinstance(args, dict) and args.get("model_path"):
        path = Path(str(args["model_path"]))
        name = path.name if path.name not in ("merged", "") else f"{path.parent.name}/{path.name}"
        return f"{model} ({name})"
    return model


def _score_dict(row: pd.Series, prefix: str) -> dict[str, Any]:
    """The first dict-valued score column (a KOPA-Bench Score holds a dict of metrics)."""
    for col in row.index:
        if col.startswith(prefix) and isinstance(row[col], dict):
            return row[col]
    return {}


def load_samples(log_dir: str | Path) -> pd.DataFrame:
    """All samples of all runs under ``log_dir``, KOPA-Bench and BFCL alike."""
    log_dir = Path(log_dir)
    if not log_dir.exists():
        raise FileNotFoundError(f"log dir {log_dir} does not exist")
    df = samples_df(str(log_dir), columns=_COLUMNS, quiet=True)
    if df.empty:
        raise ValueError(f"no Inspect logs with samples under {log_dir}")
    df["label"] = df.apply(run_label, axis=1)
    df["task"] = df["task_name"].astype(str).str.split("/").str[-1]
    scores = df.apply(lambda r: _score_dict(r, "score_"), axis=1)
    for m in METRICS:
        df[m] = scores.map(lambda s, m=m: _as_float(s.get(m)))
    # BFCL and other single-value scorers: the first numeric score column.
    numeric_score_cols = [c for c in df.columns if c.startswith("score_") and df[c].map(_is_number).any()]
    if numeric_score_cols:
        df["score_value"] = df[numeric_score_cols[0]].map(_as_float)
    return df


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) or v in ("C", "I")


def _as_float(v: Any) -> float | None:
    if v is None:
        return None
    if v == "C":
        return 1.0
    if v == "I":
        return 0.0
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def kopa_samples(df: pd.DataFrame) -> pd.DataFrame:
    out = df[df["task"] == "kopa_bench"].copy()
    if out.empty:
        raise ValueError("no kopa_bench samples in these logs")
    return out


def bfcl_samples(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["task"].str.startswith("bfcl")].copy()
