"""BFCL's summary figures per model from ``kopa_inspect/bfcl`` logs, beside the paper's BFCL rows.

Per model: BFCL multi-turn (the paper's figure), non-live AST, irrelevance and the overall of the
groups run, each with BFCL's own grouping and weights (kopa_inspect.bfcl.weighting), from the
per-entry scores (an entry's score is its mean over epochs). The 95% interval is the percentile
bootstrap over entries of kopa_inspect.stats; it is given where the group's categories ran the same
number of entries, so that the mean over entries is BFCL's unweighted mean over categories.
Each measured row names the data it ran on: the bfcl-eval version and licence its logs record.
"""

from __future__ import annotations

import pandas as pd

from kopa_inspect.bfcl.categories import MULTI_TURN, SIMPLE
from kopa_inspect.stats import bootstrap_ci

# The paper's BFCL multi-turn figures (percent), quoted (the paper, arXiv 2609.05395, and its public summaries).
PAPER_BFCL: list[dict[str, object]] = [
    {"model": "Qwen3.5-9B (paper, quoted)", "BFCL multi-turn": 0.5225, "note": ""},
    {"model": "Qwen3.5-9B EDGE+GRPO (paper, quoted)", "BFCL multi-turn": 0.5812, "note": ""},
    {
        "model": "Qwen3.5-4B EDGE+GRPO (paper, quoted)",
        "BFCL multi-turn": None,
        "note": "+4.04 pts over 4B base",
    },
]
QUOTED_NOTE = "quoted from arXiv 2609.05395 (public summaries), not measured here"

GROUPS = {
    "BFCL multi-turn": MULTI_TURN,
    "non-live AST": (*SIMPLE, "multiple", "parallel", "parallel_multiple"),
    "irrelevance": ("irrelevance",),
}
FIGURE_OF = {"BFCL multi-turn": "multi_turn", "non-live AST": "non_live_ast", "irrelevance": "irrelevance"}


def _ci_text(lo: float, hi: float) -> str | None:
    if pd.isna(lo) or pd.isna(hi):
        return None
    return f"{max(0.0, lo):.4f}–{min(1.0, hi):.4f}"


def data_provenance(logs: list[str]) -> str | None:
    """``bfcl-eval <version> (<licence>)`` as the runs' task metadata record it (one per kind)."""
    from inspect_ai.log import read_eval_log

    seen: list[str] = []
    for log in sorted(set(logs)):
        meta = read_eval_log(log, header_only=True).eval.metadata or {}
        if meta.get("bfcl_eval_version"):
            text = f"bfcl-eval {meta['bfcl_eval_version']} ({meta.get('bfcl_eval_license') or 'licence not recorded'})"
            if text not in seen:
                seen.append(text)
    return "; ".join(seen) or None


def _model_row(label: str, entries: pd.DataFrame) -> dict[str, object]:
    from kopa_inspect.bfcl.weighting import summary

    per_category = {
        str(c): (float(g["score"].mean()), len(g)) for c, g in entries.groupby("category", sort=True)
    }
    figures = summary(per_category)
    row: dict[str, object] = {"model": label}
    for column, categories in GROUPS.items():
        row[column] = figures.get(FIGURE_OF[column])
        counts = {per_category[c][1] for c in categories if c in per_category}
        ran = all(c in per_category for c in categories)
        if ran and len(counts) == 1:
            values = entries[entries["category"].isin(categories)]["score"].tolist()
            row[f"{column} 95% CI"] = _ci_text(*bootstrap_ci(values))
        else:
            row[f"{column} 95% CI"] = None
    row["overall (groups run)"] = figures.get("overall")
    row["entries"] = len(entries)
    row["categories"] = len(per_category)
    row["source"] = "measured"
    return row


def bfcl_summary(bfcl: pd.DataFrame) -> pd.DataFrame:
    """One row per model with kopa_inspect/bfcl samples, then the paper's quoted BFCL rows."""
    rows: list[dict[str, object]] = []
    if not bfcl.empty and "metadata_category" in bfcl.columns:
        scored = bfcl[bfcl["score_value"].notna() & bfcl["metadata_category"].notna()].copy()
        scored["score"] = scored["score_value"].astype(float)
        scored["category"] = scored["metadata_category"].astype(str)
        entries = scored.groupby(["label", "category", "id"], sort=True)["score"].mean().reset_index()
        for label, group in entries.groupby("label", sort=True):
            row = _model_row(str(label), group)
            row["data"] = data_provenance(scored.loc[scored["label"] == label, "log"].astype(str).tolist())
            rows.append(row)
    rows += [{**r, "source": QUOTED_NOTE} for r in PAPER_BFCL]
    return pd.DataFrame(rows)
