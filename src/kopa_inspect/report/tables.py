"""The tables of a paper of this kind, computed from the tidy sample frame (load.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from kopa_inspect.report.stats import bootstrap_ci, mean, pass_at_k, pass_hat_k, seed_ci

# Quoted from the paper (arXiv 2609.05395) via public summaries: NOT measured here.
PAPER_REFERENCE = [
    {"label": "Qwen3.5-27B (paper, quoted)", "pass@1": 0.4482, "pass@4": 0.5655},
    {"label": "Qwen3.5-9B (paper, quoted)", "pass@1": 0.3275, "pass@4": 0.4690},
    {"label": "Qwen3.5-9B EDGE+GRPO (paper, quoted)", "pass@1": 0.4310, "pass@4": 0.5517},
    {"label": "Qwen3.5-4B (paper, quoted)", "pass@1": 0.1758, "pass@4": None},
    {"label": "Qwen3.5-4B EDGE+GRPO (paper, quoted)", "pass@1": 0.3094, "pass@4": None},
]


@dataclass
class Report:
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _per_task(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (label, sample id): epochs run and successes."""
    g = df.groupby(["label", "id"], sort=True)
    return g.agg(n=("success", "size"), c=("success", lambda s: int((s.fillna(0) >= 1.0).sum()))).reset_index()


def _fmt_ci(m: float, lo: float, hi: float) -> str:
    return f"{m:.4f} [{lo:.4f}, {hi:.4f}]"


def headline(df: pd.DataFrame, k: int = 4) -> pd.DataFrame:
    rows = []
    per_task = _per_task(df)
    for label, tasks in per_task.groupby("label", sort=True):
        sub = df[df["label"] == label]
        epochs = int(tasks["n"].min())
        p1 = [c / n for n, c in zip(tasks["n"], tasks["c"], strict=True)]
        per_seed = sub.groupby("epoch")["success"].mean().tolist()
        row = {
            "model": label,
            "tasks": len(tasks),
            "epochs": epochs,
            "pass@1": mean(p1),
            "pass@1 95% CI (seeds)": "{:.4f}–{:.4f}".format(*seed_ci(per_seed)),
            "pass@1 95% CI (tasks)": "{:.4f}–{:.4f}".format(*bootstrap_ci(p1)),
        }
        if epochs >= k:
            pk = [pass_at_k(n, c, k) for n, c in zip(tasks["n"], tasks["c"], strict=True)]
            row[f"pass@{k}"] = mean(pk)
            row[f"pass@{k} 95% CI (tasks)"] = "{:.4f}–{:.4f}".format(*bootstrap_ci(pk))
        else:
            row[f"pass@{k}"] = None
            row[f"pass@{k} 95% CI (tasks)"] = f"needs ≥{k} epochs"
        rows.append(row)
    return pd.DataFrame(rows)


def axes(df: pd.DataFrame) -> pd.DataFrame:
    """The paper's three axes: RESPONSE (answer), ENVIRONMENT (state), ACTION (calls)."""
    g = df.groupby("label", sort=True)
    return pd.DataFrame(
        {
            "RESPONSE (answer)": g["answer"].mean(),
            "ENVIRONMENT (state)": g["env"].mean(),
            "ACTION (call_f1)": g["call_f1"].mean(),
            "ACTION (chain)": g["chain"].mean(),
        }
    ).reset_index(names="model")


def metrics(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby("label", sort=True)
    out = g[["success", "answer", "call_f1", "chain", "efficiency", "errors", "calls"]].mean()
    return out.reset_index(names="model")


def pass_hat(df: pd.DataFrame) -> pd.DataFrame:
    per_task = _per_task(df)
    rows = []
    for label, tasks in per_task.groupby("label", sort=True):
        n = int(tasks["n"].min())
        row = {"model": label}
        for k in range(1, n + 1):
            row[f"pass^{k}"] = mean([pass_hat_k(nn, c, k) for nn, c in zip(tasks["n"], tasks["c"], strict=True)])
        rows.append(row)
    return pd.DataFrame(rows)


def by_column(df: pd.DataFrame, column: str, name: str) -> pd.DataFrame:
    if column not in df.columns or df[column].isna().all():
        return pd.DataFrame()
    t = df.pivot_table(index=column, columns="label", values="success", aggfunc="mean")
    t.index.name = name
    return t.reset_index()


def held_out(df: pd.DataFrame, k: int = 4) -> pd.DataFrame:
    col = "metadata_held_out"
    if col not in df.columns:
        return pd.DataFrame()
    mask = df[col].astype(str).str.lower().isin(["true", "1"])
    parts = []
    for split, sub in (("held-out platforms", df[mask]), ("seen platforms", df[~mask])):
        if sub.empty:
            continue
        h = headline(sub, k)[["model", "tasks", "epochs", "pass@1", f"pass@{k}"]]
        h.insert(1, "split", split)
        parts.append(h)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def bfcl_columns(bfcl: pd.DataFrame, models: list[str]) -> pd.DataFrame:
    if bfcl.empty or "score_value" not in bfcl.columns:
        return pd.DataFrame()
    t = bfcl.groupby("label", sort=True)["score_value"].mean().reset_index()
    t.columns = ["model", "BFCL"]
    return t


def reference() -> pd.DataFrame:
    return pd.DataFrame(PAPER_REFERENCE)


def build(kopa: pd.DataFrame, bfcl: pd.DataFrame | None = None, k: int = 4) -> Report:
    rep = Report()
    head = headline(kopa, k)
    if bfcl is not None and not bfcl.empty:
        b = bfcl_columns(bfcl, head["model"].tolist())
        if not b.empty:
            head = head.merge(b, on="model", how="left")
    rep.tables["headline"] = head
    rep.tables["axes"] = axes(kopa)
    rep.tables["metrics"] = metrics(kopa)
    rep.tables["pass_hat_k"] = pass_hat(kopa)
    rep.tables["held_out"] = held_out(kopa, k)
    rep.tables["by_category"] = by_column(kopa, "metadata_category", "category")
    rep.tables["by_calls"] = by_column(kopa, "metadata_n_calls", "required calls")
    rep.tables["paper_reference"] = reference()
    return rep
