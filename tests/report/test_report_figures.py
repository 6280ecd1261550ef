"""The report's figures read right: CIs as error bars, zero drawn as zero, missing as n/a, legends
beside the bars, model names short and distinct.

The figures are built from small tables of known values and read back from matplotlib's artists
(bar heights, error bar segments, texts, the legend's box on the rendered canvas).
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.patches import Rectangle

from kopa_inspect.report.figures import MISSING, display_names, grouped_figure, headline_figure

HEAD = pd.DataFrame(
    {
        "model": ["hf/Qwen/Qwen3.5-9B", "hf/Qwen/Qwen3.5-9B (grpo/merged)", "hf/Qwen/Qwen3.5-4B"],
        "pass@1": [0.5, 0.0, 0.25],
        "pass@1 95% CI (tasks)": ["0.3000–0.7000", "0.0000–0.2000", None],
        "pass@4": [0.75, 0.0, None],  # the third model ran fewer than 4 epochs
        "pass@4 95% CI (tasks)": ["0.6000–0.9000", None, None],
    }
)


def _bars(fig) -> list[Rectangle]:
    return [p for p in fig.axes[0].patches if isinstance(p, Rectangle)]


def _texts(fig) -> dict[tuple[float, str], object]:
    return {(round(t.get_position()[0], 3), t.get_text()): t for t in fig.axes[0].texts}


def _error_segments(fig) -> list[tuple[float, float, float]]:
    """(x, low, high) of every vertical error bar segment."""
    out = []
    for coll in fig.axes[0].collections:
        if isinstance(coll, LineCollection):
            for seg in coll.get_segments():
                (x0, y0), (x1, y1) = seg[0], seg[-1]
                if math.isclose(x0, x1) and not math.isclose(y0, y1):
                    out.append((round(float(x0), 3), round(min(y0, y1), 4), round(max(y0, y1), 4)))
    return out


def test_headline_error_bars_are_the_tables_intervals() -> None:
    fig = headline_figure(HEAD, 4)
    bars = _bars(fig)
    centre = {(round(b.get_x() + b.get_width() / 2, 3), round(b.get_height(), 4)) for b in bars}
    segments = _error_segments(fig)
    # pass@1 of the first model (x = -0.2) spans its interval, pass@4 (x = 0.2) too
    assert (-0.2, 0.3, 0.7) in segments and (0.2, 0.6, 0.9) in segments, segments
    assert (-0.2, 0.5) in centre and (0.2, 0.75) in centre
    # no interval (one task, mixed outcomes): no error bar rather than a bar that looks certain
    assert not any(math.isclose(x, 1.8) for x, _, _ in segments)
    assert len(segments) == 3


def test_zero_is_drawn_as_zero_and_missing_as_na() -> None:
    fig = headline_figure(HEAD, 4)
    texts = _texts(fig)
    assert (0.8, "0") in texts and (1.2, "0") in texts  # the second model's two zeros
    assert (2.2, MISSING) in texts  # the third model's pass@4: not run, not zero
    assert (2.2, "0") not in texts
    heights = {round(b.get_x() + b.get_width() / 2, 3): b.get_height() for b in _bars(fig)}
    assert heights[0.8] == 0.0 and 2.2 not in heights
    assert fig.axes[0].get_ylim()[0] == 0.0  # bars start at zero: no cut axis


def test_grouped_figure_zero_missing_and_intervals() -> None:
    table = pd.DataFrame({"category": ["chain2", "parallel"], "a": [0.0, 0.5], "b": [1.0, None]})
    intervals = pd.DataFrame(
        {
            "category": ["chain2", "chain2", "parallel"],
            "model": ["a", "b", "a"],
            "rate": [0.0, 1.0, 0.5],
            "low": [0.0, 0.2, 0.1],
            "high": [0.8, 1.0, 0.9],
        }
    )
    fig = grouped_figure(table, "category", "t", intervals)
    texts = _texts(fig)
    assert (-0.2, "0") in texts and (1.2, MISSING) in texts
    segments = _error_segments(fig)
    assert {(-0.2, 0.0, 0.8), (0.2, 0.2, 1.0), (0.8, 0.1, 0.9)} <= set(segments), segments


@pytest.mark.parametrize(
    "build",
    [
        lambda: headline_figure(HEAD, 4),
        lambda: grouped_figure(pd.DataFrame({"c": ["x"], "m1": [1.0], "m2": [0.9]}), "c", "t"),
    ],
)
def test_legend_sits_beside_the_axes(build) -> None:
    fig = build()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.x0 >= ax.get_window_extent(renderer).x1, "the legend covers the plot area"


def test_model_names_are_short_distinct_and_wrapped() -> None:
    names = display_names(HEAD["model"].tolist())
    assert [n.replace("\n", " ") for n in names] == ["Qwen3.5-9B", "Qwen3.5-9B (grpo/merged)", "Qwen3.5-4B"]
    assert names[1] == "Qwen3.5-9B\n(grpo/merged)"  # wrapped at the space, words whole
    long = display_names(["hf/Qwen/Qwen3.5-4B [max_messages=6]", "hf/Qwen/Qwen3.5-4B-Instruct-2507"])
    assert long == ["Qwen3.5-4B\n[max_messages=6]", "Qwen3.5-4B-Instruct-2507"]
    # the last part alone would merge two organisations' models: keep what tells them apart
    assert display_names(["vllm/a/m", "vllm/b/m"]) == ["a/m", "b/m"]
    assert display_names(["x/m", "m"]) == ["x/m", "m"]
    fig = headline_figure(HEAD, 4)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == names
