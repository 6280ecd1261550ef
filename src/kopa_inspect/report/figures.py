"""PNG figures (matplotlib): success by category and by number of required calls, a bar per model."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def grouped_bars(table: pd.DataFrame, index: str, title: str, path: Path) -> Path | None:
    if table.empty:
        return None
    models = [c for c in table.columns if c != index]
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(table) * max(1, len(models)) ** 0.5), 4.2))
    width = 0.8 / max(1, len(models))
    xs = range(len(table))
    for i, m in enumerate(models):
        ax.bar([x + i * width for x in xs], table[m].fillna(0).tolist(), width=width, label=m)
    ax.set_xticks([x + width * (len(models) - 1) / 2 for x in xs])
    ax.set_xticklabels([str(v) for v in table[index]], rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("success rate")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
