"""BFCL's summary figures here equal those of BFCL's own leaderboard aggregation."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

pytest.importorskip(
    "bfcl_eval",
    reason="the bfcl extra is not installed: pip install 'kopa-inspect[bfcl]' && pip install --no-deps bfcl-eval",
)

from kopa_inspect.bfcl.library import MODEL_CONFIG_MODULE, aggregation  # noqa: E402
from kopa_inspect.bfcl.weighting import summary  # noqa: E402

ACCURACIES = {
    "multi_turn_base": (0.5, 200),
    "multi_turn_miss_func": (0.25, 200),
    "multi_turn_miss_param": (0.4, 200),
    "multi_turn_long_context": (0.1, 200),
    "simple_python": (0.9, 400),
    "simple_java": (0.6, 100),
    "simple_javascript": (0.7, 50),
    "multiple": (0.8, 200),
    "parallel": (0.75, 200),
    "parallel_multiple": (0.65, 200),
    "irrelevance": (0.85, 240),
}


def _csv_row(path: Path) -> dict[str, str]:
    header, row = path.read_text().splitlines()[:2]
    return dict(zip(header.split(","), row.split(","), strict=False))


def _percent(x: float) -> str:
    return f"{x * 100:.2f}%"


def test_summary_equals_bfcl_leaderboard_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    helper = aggregation()
    mapping = sys.modules[MODEL_CONFIG_MODULE].MODEL_CONFIG_MAPPING
    config = types.SimpleNamespace(
        display_name="kopa-test",
        url="",
        org="",
        license="",
        input_price=None,
        output_price=None,
        underscore_to_dot=True,
    )
    monkeypatch.setitem(mapping, "kopa/test", config)
    table = {"kopa_test": {c: {"accuracy": a, "total_count": n} for c, (a, n) in ACCURACIES.items()}}
    helper.generate_leaderboard_csv(table, tmp_path)

    ours = summary(ACCURACIES)
    multi_turn = _csv_row(tmp_path / "data_multi_turn.csv")
    non_live = _csv_row(tmp_path / "data_non_live.csv")
    overall = _csv_row(tmp_path / "data_overall.csv")
    assert _percent(ours["multi_turn"]) == multi_turn["Multi Turn Overall Acc"] == "31.25%"
    assert _percent(ours["non_live_ast"]) == non_live["AST Summary"]
    assert _percent(ours["simple"]) == non_live["Simple AST"]
    assert _percent(ours["irrelevance"]) == non_live["Irrelevance Detection"]
    assert _percent(ours["leaderboard_overall"]) == overall["Overall Acc"]


def test_a_figure_needs_all_its_categories() -> None:
    only_base = summary({"multi_turn_base": (1.0, 3)})
    assert "multi_turn" not in only_base and "overall" not in only_base
    no_java = {k: v for k, v in ACCURACIES.items() if k != "simple_java"}
    figures = summary(no_java)
    assert "simple" not in figures and "non_live_ast" not in figures and "overall" not in figures
    assert figures["multi_turn"] == pytest.approx(0.3125)


def test_overall_is_bfcl_weights_over_the_groups_run() -> None:
    figures = summary(ACCURACIES)
    expected = (10 * figures["non_live_ast"] + 10 * figures["irrelevance"] + 30 * figures["multi_turn"]) / 50
    assert figures["overall"] == pytest.approx(expected)
