"""The CPU experiment's paired statistics (benchmarks/grpo_cpu_experiment.py)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "grpo_cpu_experiment", Path(__file__).resolve().parents[1] / "benchmarks" / "grpo_cpu_experiment.py")
exp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exp)  # type: ignore[union-attr]


def test_mcnemar_exact() -> None:
    assert exp.mcnemar_exact(0, 0) == 1.0
    assert exp.mcnemar_exact(5, 5) == 1.0
    assert exp.mcnemar_exact(0, 10) == pytest.approx(2 / 1024)  # two-sided binomial, p = 0.5
    assert exp.mcnemar_exact(10, 0) == exp.mcnemar_exact(0, 10)
    assert exp.mcnemar_exact(2, 12) < 0.05 < exp.mcnemar_exact(4, 10)


def test_compare_pairs_samples_and_skips_undefined() -> None:
    nan = float("nan")
    a = {f"s{i}": {k: 0.0 for k in exp.KEYS} for i in range(20)}
    b = {f"s{i}": {k: (1.0 if i < 15 else 0.0) for k in exp.KEYS} for i in range(20)}
    a["s0"]["answer"] = nan  # undefined for one model: that sample is left out of that metric
    res = exp.compare({"a": a, "b": b}, "a", "b")
    t = res["tool_name"]
    assert t["n"] == 20 and t["only_b"] == 15 and t["only_a"] == 0
    assert t["diff"] == pytest.approx(0.75) and t["diff_ci"][0] > 0.5 and t["mcnemar_p"] < 1e-3
    assert res["answer"]["n"] == 19
    assert not math.isnan(res["answer"]["diff"])
