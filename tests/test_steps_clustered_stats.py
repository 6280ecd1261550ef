"""Trajectory-clustered statistics for the step-level task (kopa_steps) and the CPU experiment.

Steps of one trajectory are not independent samples: when all of a difference sits in a few
trajectories, a per-step test counts each of their steps as fresh evidence. The clustered test
resamples / flips whole trajectories.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "grpo_cpu_experiment", Path(__file__).resolve().parents[1] / "benchmarks" / "grpo_cpu_experiment.py")
exp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exp)  # type: ignore[union-attr]

NAN = float("nan")


def _scores(cluster_sizes: list[int], b_right: set[int]) -> dict[str, dict[str, dict[str, float]]]:
    """Model a wrong on every step; model b right on every step of the trajectories in ``b_right``.
    Sample ids are kopa_steps' ``<trajectory id>#<step>``."""
    a: dict[str, dict[str, float]] = {}
    b: dict[str, dict[str, float]] = {}
    for t, size in enumerate(cluster_sizes):
        for k in range(size):
            sid = f"edge-s0-{t:07d}#{2 * k + 2}"
            a[sid] = {key: 0.0 for key in exp.KEYS}
            b[sid] = {key: (1.0 if t in b_right else 0.0) for key in exp.KEYS}
    return {"a": a, "b": b}


def test_signal_in_three_trajectories_is_not_significant_when_clustered() -> None:
    """10 trajectories x 10 steps, b right on all 10 steps of 3 of them: per-step McNemar says
    p ~ 2e-9 (30 discordant steps); over trajectories it is 3 of 10 clusters moving the same way,
    an exact sign-flip p of 2/2^3 = 0.25."""
    res = exp.compare(_scores([10] * 10, {0, 1, 2}), "a", "b")
    t = res["tool_name"]
    assert t["only_b"] == 30 and t["only_a"] == 0
    assert t["mcnemar_p"] < 1e-6  # the per-step test, kept: it calls this highly significant
    assert t["clusters"] == 10
    assert t["clustered_p"] == pytest.approx(0.25)
    assert t["clustered_p"] > 0.05
    lo, hi = t["clustered_diff_ci"]
    assert lo <= t["diff"] <= hi and hi - lo > t["diff_ci"][1] - t["diff_ci"][0]  # wider than per-step


def test_the_same_steps_over_thirty_independent_trajectories_stay_significant() -> None:
    """100 steps over 30 trajectories (10 of 4 steps, 20 of 3), b right on one step of each:
    30 discordant steps in 30 clusters, as significant clustered as per step."""
    sizes = [4] * 10 + [3] * 20
    scores = _scores(sizes, set())
    for t in range(30):
        scores["b"][f"edge-s0-{t:07d}#2"] = {key: 1.0 for key in exp.KEYS}
    assert len(scores["a"]) == 100
    t = exp.compare(scores, "a", "b")["tool_name"]
    assert t["only_b"] == 30 and t["clusters"] == 30
    assert t["clustered_p"] == pytest.approx(t["mcnemar_p"])  # one discordant step per cluster: the same test
    assert t["clustered_p"] < 1e-6
    assert t["clustered_diff_ci"][0] > 0


def test_signflip_on_singleton_clusters_is_exact_mcnemar() -> None:
    from kopa_inspect.steps.stats import signflip_test

    for only_a, only_b, ties in ((0, 10, 5), (2, 12, 0), (4, 10, 3), (5, 5, 1), (0, 0, 4)):
        a = [1.0] * only_a + [0.0] * only_b + [1.0] * ties
        b = [0.0] * only_a + [1.0] * only_b + [1.0] * ties
        p = signflip_test(a, b, [str(i) for i in range(len(a))])
        assert p == pytest.approx(exp.mcnemar_exact(only_a, only_b)), (only_a, only_b)


def test_signflip_weighs_clusters_by_their_net_difference() -> None:
    from kopa_inspect.steps.stats import signflip_test

    # two clusters: +3 and -1 -> flips give sums {4, 2, -2, -4}; |T| >= 2 always
    a = [0, 0, 0, 1]
    b = [1, 1, 1, 0]
    assert signflip_test(a, b, ["x", "x", "x", "y"]) == pytest.approx(1.0)
    # four clusters all +1 and one +5: only the all-plus / all-minus flips reach |T| = 9
    a = [0.0] * 9
    b = [1.0] * 9
    cl = ["c1", "c2", "c3", "c4"] + ["c5"] * 5
    assert signflip_test(a, b, cl) == pytest.approx(2 / 32)


def test_cluster_bootstrap_interval_of_a_mean() -> None:
    from kopa_inspect.steps.stats import cluster_bootstrap_ci, wilson

    # 3 of 10 trajectories right on all their steps: the mean 0.3 is uncertain like 3/10, not 30/100
    values = [1.0 if t < 3 else 0.0 for t in range(10) for _ in range(10)]
    clusters = [str(t) for t in range(10) for _ in range(10)]
    lo, hi = cluster_bootstrap_ci(values, clusters)
    wlo, whi = wilson(30, 100)
    assert lo < wlo and hi > whi and lo <= 0.3 <= hi
    assert lo == pytest.approx(0.0, abs=0.05) and hi == pytest.approx(0.6, abs=0.05)
    # NaN (undefined) steps are left out; a single-step cluster set is close to Wilson's interval
    values = [1.0 if i < 30 else 0.0 for i in range(100)] + [NAN] * 5
    clusters = [str(i) for i in range(105)]
    lo, hi = cluster_bootstrap_ci(values, clusters)
    assert lo == pytest.approx(wlo, abs=0.03) and hi == pytest.approx(whi, abs=0.03)
    # every step scores the same: nothing to resample; the interval is Wilson's over the clusters
    lo, hi = cluster_bootstrap_ci([0.0] * 85, [str(i // 2) for i in range(85)])
    assert (lo, hi) == pytest.approx(wilson(0, 43))
    assert math.isnan(cluster_bootstrap_ci([], [])[0])


def test_trajectory_of_a_step() -> None:
    from kopa_inspect.steps.stats import trajectory_of

    assert trajectory_of("edge-s0-0000072#6") == "edge-s0-0000072"
    assert trajectory_of("kopa-007#4") == "kopa-007"
    assert trajectory_of("x#4", {"step": {"trajectory_id": "traj-1"}}) == "traj-1"
    assert trajectory_of("s3") == "s3"  # no step suffix: its own cluster


def test_step_metric_reports_clustered_interval_beside_wilson() -> None:
    from inspect_ai.scorer import SampleScore, Score

    from kopa_inspect.steps.task import step_accuracy

    scores = []
    for t in range(10):
        for k in range(10):
            v = 1.0 if t < 3 else 0.0
            scores.append(SampleScore(score=Score(value={"parse": v, "kind": v, "tool_name": v, "exact": v,
                                                         "answer": NAN}),
                                      sample_id=f"edge-s0-{t:07d}#{k}",
                                      sample_metadata={"step": {"trajectory_id": f"edge-s0-{t:07d}"}}))
    m = step_accuracy()(scores)
    assert m["tool_name"] == pytest.approx(0.3) and m["tool_name_n"] == 100
    assert m["tool_name_lo"] > 0.2  # Wilson, per step (kept)
    assert m["tool_name_clusters"] == 10
    assert m["tool_name_clu_lo"] < 0.1 and m["tool_name_clu_hi"] > 0.5
    assert m["answer_n"] == 0 and math.isnan(m["answer_clu_lo"])


def test_recompute_script_adds_clustered_columns_from_saved_scores(tmp_path: Path, monkeypatch) -> None:
    """benchmarks/recompute_cpu_stats.py: saved per-step scores in, clustered tables out, no model;
    the per-step figures stay the run's own."""
    import json
    import sys

    spec = importlib.util.spec_from_file_location(
        "recompute_cpu_stats", Path(__file__).resolve().parents[1] / "benchmarks" / "recompute_cpu_stats.py")
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)  # type: ignore[union-attr]
    pair = _scores([10] * 10, {0, 1, 2})
    scores = {"edge": {"base": pair["a"], "sft": pair["b"], "sft+grpo": pair["b"]}}
    old_tests = {"edge": {"sft vs base": exp.compare(scores["edge"], "base", "sft")}}
    for t in old_tests["edge"]["sft vs base"].values():  # the run's format: per-step figures only
        for k in ("clusters", "clusters_discordant", "clustered_diff_ci", "clustered_p"):
            t.pop(k)
    (tmp_path / "experiment.json").write_text(json.dumps({"args": {"test_percent": 20}, "scores": scores,
                                                          "tests": old_tests, "engine": {"kept": 1}}))
    monkeypatch.setattr(sys, "argv", ["recompute", "--exp", str(tmp_path)])
    rec.main()
    out = json.loads((tmp_path / "experiment.json").read_text())
    t = out["tests"]["edge"]["sft vs base"]["tool_name"]
    assert t["mcnemar_p"] < 1e-6 and t["clustered_p"] == pytest.approx(0.25) and t["clusters"] == 10
    assert out["trajectories"]["edge"]["trajectories"] == 10 and out["engine"] == {"kept": 1}
    assert out["summary"]["edge"]["sft"]["tool_name"]["clusters"] == 10
    md = (tmp_path / "summary.md").read_text()
    assert "clustered p" in md and "| sft vs base | tool_name | 100 |" in md
