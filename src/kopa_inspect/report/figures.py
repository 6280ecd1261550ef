"""PNG figures (matplotlib, Agg backend: no display needed): a bar per model.

- ``headline.png``: pass@1 (with its 95% CI over seeds) and pass@k per model.
- ``by_category.png`` / ``by_calls.png``: success rate per task category / per number of
  required gold calls.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def grouped_bars(table: pd.DataFrame, index: str, title: str, path: Path, ylabel: str = "success rate") -> Path | None:
    """One group of bars per row of ``table[index]``, one bar per other column (a model)."""
    if table.empty:
        return None
    models = [c for c in table.columns if c != index]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(table) * max(1, len(models)) ** 0.5), 4.2))
    width = 0.8 / max(1, len(models))
    xs = range(len(table))
    for i, m in enumerate(models):
        values = pd.to_numeric(table[m], errors="coerce").fillna(0).tolist()
        ax.bar([x + i * width for x in xs], values, width=width, label=str(m))
    ax.set_xticks([x + width * (len(models) - 1) / 2 for x in xs])
    ax.set_xticklabels([str(v) for v in table[index]], rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return _save(fig, path)


def headline_title(head: pd.DataFrame, k: int) -> str:
    """Names pass@k only where the headline has that column (k > 1 and some model ran k epochs)."""
    return "KOPA-Bench pass@1" + (f" and pass@{k}" if k > 1 and f"pass@{k}" in head.columns else "")


def headline_bars(head: pd.DataFrame, k: int, path: Path) -> Path | None:
    """pass@1 with its seed CI as an error bar, and pass@k beside it, per model."""
    if head.empty:
        return None
    labels = head["model"].astype(str).tolist()
    p1 = pd.to_numeric(head["pass@1"], errors="coerce").fillna(0).tolist()
    lo, hi = [], []
    for m, ci in zip(p1, head["pass@1 95% CI (seeds)"], strict=True):
        if not isinstance(ci, str):  # one seed: no interval, no error bar
            lo.append(0.0)
            hi.append(0.0)
            continue
        a, b = (float(x) for x in ci.split("–"))
        lo.append(max(0.0, m - a))
        hi.append(max(0.0, b - m))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(labels)), 4.2))
    xs = list(range(len(labels)))
    ax.bar([x - 0.2 for x in xs], p1, width=0.4, yerr=[lo, hi], capsize=3, label="pass@1 (95% CI over seeds)")
    if k > 1 and f"pass@{k}" in head.columns:  # no model ran k epochs: no pass@k bars
        pk = pd.to_numeric(head[f"pass@{k}"], errors="coerce").fillna(0).tolist()
        ax.bar([x + 0.2 for x in xs], pk, width=0.4, label=f"pass@{k}")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("KOPA-Bench")
    ax.set_title(headline_title(head, k))
    ax.legend(fontsize=7)
    return _save(fig, path)
