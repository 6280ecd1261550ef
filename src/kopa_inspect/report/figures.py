"""PNG figures (matplotlib, Agg backend: no display needed): bars per model with 95% CIs.

- ``headline.png``: pass@1 and pass@k per model, each with its 95% CI over tasks (the tables'
  ``... 95% CI (tasks)`` columns) as an error bar;
- ``by_category.png`` / ``by_calls.png``: success rate per task category / per number of
  required gold calls, with a 95% CI over tasks (tables.by_column_intervals).

What a reader must not misread: a rate of zero is drawn as a zero (a mark on the baseline and a
"0"), so it is not taken for a missing bar, and a missing value (a model that ran no task of a
category, or fewer than k epochs) is written "n/a", so it is not taken for a zero. Legends sit
beside the axes, never over the bars. Model names lose their provider and organisation prefixes
where the names stay distinct, and wrap under the bars instead of running into each other.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

NAME_WIDTH = 16  # characters per line of a model name under its bar (a longer word stays whole)
Y_TOP = 1.1  # room above a rate of 1 for its error bar cap
MISSING = "n/a"
CI_NOTE = "error bars: 95% CI over tasks"
_INTERVAL = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*–\s*([-+]?\d+(?:\.\d+)?)\s*$")


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.savefig(path, dpi=130, bbox_inches="tight")
    plt.close(fig)
    return path


def display_names(labels: Sequence[str], width: int = NAME_WIDTH, keep_paths: bool = False) -> list[str]:
    """Model names for a figure: ``vllm/Qwen/Qwen3.5-9B (grpo/merged)`` -> ``Qwen3.5-9B (grpo/merged)``,
    wrapped at spaces to ``width`` characters. The shortest form that keeps every name distinct is
    used; ``keep_paths`` only wraps (category names)."""
    if keep_paths:
        return [
            textwrap.fill(str(n), width=width, break_long_words=False, break_on_hyphens=False) for n in labels
        ]

    def drop(label: str, keep: int | None) -> str:
        m = re.match(r"^(\S+)(.*)$", label)  # the model id, then any "(checkpoint)" / "[setting]"
        if not m:
            return label
        parts = m.group(1).split("/")
        return "/".join(parts if keep is None else parts[-keep:]) + m.group(2)

    names = list(labels)
    for keep in (1, 2, None):
        short = [drop(str(label), keep) for label in labels]
        if len(set(short)) == len(set(map(str, labels))):
            names = short
            break
    return [textwrap.fill(n, width=width, break_long_words=False, break_on_hyphens=False) for n in names]


def _interval(text: object) -> tuple[float, float]:
    m = _INTERVAL.match(text) if isinstance(text, str) else None
    return (float(m.group(1)), float(m.group(2))) if m else (math.nan, math.nan)


def _bars(
    ax: plt.Axes,
    xs: Sequence[float],
    values: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    width: float,
    color: str,
    label: str,
) -> None:
    """One series of bars with 95% CI error bars; zero marked as zero, a missing value as n/a."""
    present = [i for i, v in enumerate(values) if not math.isnan(v)]
    ax.bar([xs[i] for i in present], [values[i] for i in present], width=width, color=color, label=label)
    # an error bar only where the data give an interval: a bar without one is not a certain value
    known = [i for i in present if not any(math.isnan(e) for e in intervals[i])]
    if known:
        below = [max(0.0, values[i] - intervals[i][0]) for i in known]
        above = [max(0.0, intervals[i][1] - values[i]) for i in known]
        ax.errorbar(
            [xs[i] for i in known],
            [values[i] for i in known],
            yerr=[below, above],
            fmt="none",
            ecolor="0.15",
            elinewidth=1,
            capsize=3,
        )
    for i, v in enumerate(values):
        if math.isnan(v):
            ax.text(xs[i], 0.02, MISSING, ha="center", va="bottom", fontsize=7, color="0.35", rotation=90)
        elif v == 0:
            ax.hlines(
                0, xs[i] - width / 2, xs[i] + width / 2, colors=color, linewidth=3, clip_on=False, zorder=3
            )
            ax.text(
                xs[i],
                0.02,
                "0",
                ha="center",
                va="bottom",
                fontsize=8,
                color=color,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5},
            )


def _finish(
    ax: plt.Axes, xs: Sequence[float], names: Sequence[str], ylabel: str, title: str, missing: str = "no data"
) -> None:
    ax.set_xticks(list(xs))
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_xticklabels(names, fontsize=8)
    ax.set_ylim(0, Y_TOP)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], linestyle="none"))
    labels.append(f"{CI_NOTE}\n{MISSING}: {missing}")
    ax.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        frameon=False,
        fontsize=8,
    )


def grouped_figure(
    table: pd.DataFrame,
    index: str,
    title: str,
    intervals: pd.DataFrame | None = None,
    ylabel: str = "success rate",
) -> plt.Figure:
    """One group of bars per row of ``table[index]``, one bar per other column (a model);
    ``intervals`` (tables.by_column_intervals) gives each bar's 95% CI."""
    models = [c for c in table.columns if c != index]
    ci: dict[tuple[str, str], tuple[float, float]] = {}
    if intervals is not None:
        for r in intervals.to_dict("records"):
            ci[(str(r[index]), str(r["model"]))] = (float(r["low"]), float(r["high"]))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(table) * max(2, len(models))), 4.2))
    width = 0.8 / max(1, len(models))
    groups = list(range(len(table)))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    legend_names = display_names([str(m) for m in models], width=3 * NAME_WIDTH)
    for i, m in enumerate(models):
        values = pd.to_numeric(table[m], errors="coerce").astype(float).tolist()
        cis = [ci.get((str(key), str(m)), (math.nan, math.nan)) for key in table[index]]
        xs = [g - 0.4 + width * (i + 0.5) for g in groups]
        _bars(ax, xs, values, cis, width, colors[i % len(colors)], legend_names[i])
    _finish(
        ax,
        groups,
        display_names([str(v) for v in table[index]], keep_paths=True),
        ylabel,
        title,
        missing="the model ran no such task",
    )
    return fig


def grouped_bars(
    table: pd.DataFrame,
    index: str,
    title: str,
    path: Path,
    intervals: pd.DataFrame | None = None,
    ylabel: str = "success rate",
) -> Path | None:
    if table.empty:
        return None
    return _save(grouped_figure(table, index, title, intervals, ylabel), path)


def headline_title(head: pd.DataFrame, k: int) -> str:
    """Names pass@k only where the headline has that column (k > 1 and some model ran k epochs)."""
    return "KOPA-Bench pass@1" + (f" and pass@{k}" if k > 1 and f"pass@{k}" in head.columns else "")


def headline_figure(head: pd.DataFrame, k: int) -> plt.Figure:
    """pass@1 and (where the headline has it) pass@k per model, each with its 95% CI over tasks."""
    metrics = ["pass@1"] + ([f"pass@{k}"] if k > 1 and f"pass@{k}" in head.columns else [])
    names = display_names(head["model"].astype(str).tolist())
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(names) * len(metrics)), 4.2))
    width = 0.8 / len(metrics)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    groups = list(range(len(names)))
    for i, metric in enumerate(metrics):
        values = pd.to_numeric(head[metric], errors="coerce").astype(float).tolist()
        cis = [_interval(t) for t in head.get(f"{metric} 95% CI (tasks)", [None] * len(head))]
        xs = [g - 0.4 + width * (i + 0.5) for g in groups]
        _bars(ax, xs, values, cis, width, colors[i], metric)
    _finish(ax, groups, names, "KOPA-Bench", headline_title(head, k), missing=f"fewer than {k} epochs")
    return fig


def headline_bars(head: pd.DataFrame, k: int, path: Path) -> Path | None:
    if head.empty:
        return None
    return _save(headline_figure(head, k), path)
