"""kopa_inspect.stats: every interval and test the reports print, against textbook values and edge cases.

Then the trajectory-clustered statistics of the step-level task (kopa_steps) and the CPU experiment.
Steps of one trajectory are not independent samples: when all of a difference sits in a few
trajectories, a per-step test counts each of their steps as fresh evidence. The clustered test
resamples / flips whole trajectories.
"""

from __future__ import annotations

import importlib.util
import math
import statistics
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "grpo_cpu_experiment", Path(__file__).resolve().parents[2] / "benchmarks" / "grpo_cpu_experiment.py"
)
exp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exp)  # type: ignore[union-attr]

NAN = float("nan")


# --- textbook values ----------------------------------------------------------------------------


def test_t_interval_uses_the_t_quantile_for_its_degrees_of_freedom() -> None:
    from kopa_inspect.stats import t_ci

    # 1..5: mean 3, sd sqrt(2.5), df 4, t(0.975; 4) = 2.776445 -> 3 -/+ 1.963243
    lo, hi = t_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (lo, hi) == pytest.approx((3 - 1.963243, 3 + 1.963243), abs=1e-6)
    assert hi - 3 > 1.96 * math.sqrt(2.5 / 5)  # wider than the normal interval: not z = 1.96
    # two seeds: t(0.975; 1) = 12.7062; 0.2 and 0.4: sem 0.1
    assert t_ci([0.2, 0.4]) == pytest.approx((0.3 - 1.270620, 0.3 + 1.270620), abs=1e-6)
    # df = 30, beyond any hand-written table: t(0.975; 30) = 2.042272, not 1.96
    x = [float(i % 2) for i in range(31)]
    lo, hi = t_ci(x)
    m, sd = sum(x) / 31, statistics.stdev(x)
    assert hi - m == pytest.approx(2.042272 * sd / math.sqrt(31), abs=1e-6)
    # the level is honoured: 90% for df 4 is 2.131847
    lo, hi = t_ci([1.0, 2.0, 3.0, 4.0, 5.0], level=0.90)
    assert hi - 3 == pytest.approx(2.131847 * math.sqrt(0.5), abs=1e-6)


def test_t_interval_edge_cases() -> None:
    from kopa_inspect.stats import t_ci

    assert all(math.isnan(x) for x in t_ci([]))
    assert all(math.isnan(x) for x in t_ci([0.5]))  # one seed: no spread, no interval
    assert t_ci([0.5, 0.5, 0.5]) == (0.5, 0.5)


def test_wilson_interval_textbook_values() -> None:
    from kopa_inspect.stats import wilson_ci

    assert wilson_ci(8, 10) == pytest.approx((0.490162, 0.943318), abs=1e-6)  # Wald would give 0.552-1.048
    assert wilson_ci(50, 100) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    assert wilson_ci(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_ci(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)  # all successes: upper bound 1
    lo, hi = wilson_ci(8, 10, level=0.99)
    assert lo < 0.490162 and hi > 0.943318
    assert all(math.isnan(x) for x in wilson_ci(0, 0))  # n = 0: undefined
    with pytest.raises(ValueError):
        wilson_ci(2.5, 10)  # not a count
    with pytest.raises(ValueError):
        wilson_ci(11, 10)


def test_mcnemar_exact_textbook_values() -> None:
    from kopa_inspect.stats import mcnemar_exact

    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)  # 2 x P(X <= 1), X ~ Bin(10, 1/2) = 0.0215
    assert mcnemar_exact(9, 1) == mcnemar_exact(1, 9)
    assert mcnemar_exact(0, 10) == pytest.approx(2 / 1024)
    assert mcnemar_exact(0, 0) == 1.0  # no discordant pair
    assert mcnemar_exact(5, 5) == 1.0
    assert mcnemar_exact(2, 12) < 0.05 < mcnemar_exact(4, 10)


def test_bootstrap_intervals() -> None:
    from kopa_inspect.stats import bootstrap_ci, paired_bootstrap_diff

    # 50 of 100 tasks solved: the bootstrap interval of the mean is close to 0.5 -/+ 1.96 x 0.05
    lo, hi = bootstrap_ci([1.0, 0.0] * 50)
    assert lo == pytest.approx(0.402, abs=0.02) and hi == pytest.approx(0.598, abs=0.02)
    assert bootstrap_ci([1.0, 0.0] * 50) == (lo, hi)  # seeded: the same report twice
    assert all(math.isnan(x) for x in bootstrap_ci([0.7]))  # one task: no interval
    assert all(math.isnan(x) for x in bootstrap_ci([]))
    assert bootstrap_ci([1.0, 1.0, 1.0]) == (1.0, 1.0)
    d, lo, hi = paired_bootstrap_diff([0.0] * 20, [1.0] * 15 + [0.0] * 5)
    assert d == pytest.approx(0.75) and 0.5 < lo < 0.75 < hi <= 0.95
    assert paired_bootstrap_diff([1.0, 0.0], [1.0, 0.0]) == (0.0, 0.0, 0.0)


def test_paired_permutation_test_is_exact_for_few_pairs() -> None:
    from kopa_inspect.stats import signflip_test

    # 6 pairs, b higher on each by 1: only the all-plus and all-minus flips reach |T| = 6
    assert signflip_test([0.0] * 6, [1.0] * 6, list(range(6))) == pytest.approx(2 / 64)
    assert signflip_test([0.3, 0.5], [0.3, 0.5], [0, 1]) == 1.0  # zero discordant pairs: p = 1
    assert signflip_test([0.0, 0.5], [1.0, 0.5], [0, 1]) == 1.0  # one discordant pair: p = 1
    # real-valued differences 0.5, 1.0, -0.2 (T = 1.3): the sums of the 8 flips are +-1.3, +-1.7,
    # +-0.7, +-0.3, so 4 of 8 reach |T|; with 0.5, 1.0, 0.2 (T = 1.7) only the 2 extremes do
    assert signflip_test([0.0, 0.0, 0.2], [0.5, 1.0, 0.0], [0, 1, 2]) == pytest.approx(4 / 8)
    assert signflip_test([0.0, 0.0, 0.0], [0.5, 1.0, 0.2], [0, 1, 2]) == pytest.approx(2 / 8)


def test_paired_permutation_test_beyond_exact_enumeration_is_seeded_monte_carlo() -> None:
    from kopa_inspect.stats import MAX_EXACT_CLUSTERS, signflip_test

    # 20 pairs all one way: exact p = 2 / 2^20; Monte Carlo counts the observed flip in each tail,
    # so its two-sided p is 2 / (n + 1)
    k = MAX_EXACT_CLUSTERS + 4
    p = signflip_test([0.0] * k, [1.0] * k, list(range(k)), n_resamples=9_999)
    assert p == pytest.approx(2 / 10_000)
    assert signflip_test([0.0] * k, [1.0] * k, list(range(k)), n_resamples=9_999) == p
    # 20 pairs, 12 one way and 8 the other: Monte Carlo near the exact McNemar p (0.503)
    a = [1.0] * 8 + [0.0] * 12
    b = [0.0] * 8 + [1.0] * 12
    from kopa_inspect.stats import mcnemar_exact

    assert signflip_test(a, b, list(range(20))) == pytest.approx(mcnemar_exact(8, 12), abs=0.01)


def test_one_epoch_gives_no_pass_at_k_column() -> None:
    pd = pytest.importorskip("pandas")
    from kopa_inspect.report.tables import benchmarks, headline, held_out

    rows = [
        {
            "label": "m",
            "id": f"t{i}",
            "epoch": 1,
            "success": float(i % 2),
            "errored": False,
            "metadata_held_out": i < 2,
        }
        for i in range(6)
    ]
    df = pd.DataFrame(rows)
    head = headline(df, k=4)
    assert "pass@1" in head.columns and not any(c.startswith("pass@4") for c in head.columns)
    assert head.loc[0, "pass@1 95% CI (seeds)"] is None  # one seed: no interval
    assert "–" in head.loc[0, "pass@1 95% CI (tasks)"]
    assert list(benchmarks(head, pd.DataFrame(), k=4).columns) == ["model", "KOPA-Bench pass@1", "BFCL"]
    assert "pass@4" not in held_out(df, k=4).columns
    # four epochs for one model, one for another: the column is there, blank for the one-epoch model
    four = [{**r, "label": "n", "epoch": e} for r in rows for e in (1, 2, 3, 4)]
    head = headline(pd.DataFrame(rows + four), k=4).set_index("model")
    assert pd.isna(head.loc["m", "pass@4"]) and head.loc["n", "pass@4"] == pytest.approx(0.5)
    lo, hi = (float(x) for x in head.loc["n", "pass@1 95% CI (seeds)"].split("–"))
    assert (lo, hi) == (0.5, 0.5)  # four identical seeds


# --- clustered statistics -----------------------------------------------------------------------


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
    # one discordant step per cluster: the same test as McNemar's (exact p 1.9e-9); 30 clusters are
    # past exact enumeration, and 200,000 random flips put it at their floor, 2 / 200,001
    assert t["mcnemar_p"] == pytest.approx(2 / 2**30)
    assert t["clustered_p"] == pytest.approx(2 / 200_001)
    assert t["clustered_diff_ci"][0] > 0


def test_signflip_on_singleton_clusters_is_exact_mcnemar() -> None:
    from kopa_inspect.stats import mcnemar_exact, signflip_test

    for only_a, only_b, ties in ((0, 10, 5), (2, 12, 0), (4, 10, 3), (5, 5, 1), (0, 0, 4), (1, 0, 3)):
        a = [1.0] * only_a + [0.0] * only_b + [1.0] * ties
        b = [0.0] * only_a + [1.0] * only_b + [1.0] * ties
        p = signflip_test(a, b, [str(i) for i in range(len(a))])
        assert p == pytest.approx(mcnemar_exact(only_a, only_b)), (only_a, only_b)


def test_signflip_weighs_clusters_by_their_net_difference() -> None:
    from kopa_inspect.stats import signflip_test

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
    from kopa_inspect.stats import cluster_bootstrap_ci, wilson_ci

    # 3 of 10 trajectories right on all their steps: the mean 0.3 is uncertain like 3/10, not 30/100
    values = [1.0 if t < 3 else 0.0 for t in range(10) for _ in range(10)]
    clusters = [str(t) for t in range(10) for _ in range(10)]
    lo, hi = cluster_bootstrap_ci(values, clusters)
    wlo, whi = wilson_ci(30, 100)
    assert lo < wlo and hi > whi and lo <= 0.3 <= hi
    assert lo == pytest.approx(0.0, abs=0.05) and hi == pytest.approx(0.6, abs=0.05)
    # NaN (undefined) steps are left out; a single-step cluster set is close to Wilson's interval
    values = [1.0 if i < 30 else 0.0 for i in range(100)] + [NAN] * 5
    clusters = [str(i) for i in range(105)]
    lo, hi = cluster_bootstrap_ci(values, clusters)
    assert lo == pytest.approx(wlo, abs=0.03) and hi == pytest.approx(whi, abs=0.03)
    # every step scores the same: nothing to resample; the interval is Wilson's over the clusters
    lo, hi = cluster_bootstrap_ci([0.0] * 85, [str(i // 2) for i in range(85)])
    assert (lo, hi) == pytest.approx(wilson_ci(0, 43))
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
            scores.append(
                SampleScore(
                    score=Score(value={"parse": v, "kind": v, "tool_name": v, "exact": v, "answer": NAN}),
                    sample_id=f"edge-s0-{t:07d}#{k}",
                    sample_metadata={"step": {"trajectory_id": f"edge-s0-{t:07d}"}},
                )
            )
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
        "recompute_cpu_stats", Path(__file__).resolve().parents[2] / "benchmarks" / "recompute_cpu_stats.py"
    )
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)  # type: ignore[union-attr]
    pair = _scores([10] * 10, {0, 1, 2})
    scores = {"edge": {"base": pair["a"], "sft": pair["b"], "sft+grpo": pair["b"]}}
    old_tests = {"edge": {"sft vs base": exp.compare(scores["edge"], "base", "sft")}}
    for t in old_tests["edge"]["sft vs base"].values():  # the run's format: per-step figures only
        for k in ("clusters", "clusters_discordant", "clustered_diff_ci", "clustered_p"):
            t.pop(k)
    (tmp_path / "experiment.json").write_text(
        json.dumps(
            {"args": {"test_percent": 20}, "scores": scores, "tests": old_tests, "engine": {"kept": 1}}
        )
    )
    monkeypatch.setattr(sys, "argv", ["recompute", "--exp", str(tmp_path)])
    rec.main()
    out = json.loads((tmp_path / "experiment.json").read_text())
    t = out["tests"]["edge"]["sft vs base"]["tool_name"]
    assert t["mcnemar_p"] < 1e-6 and t["clustered_p"] == pytest.approx(0.25) and t["clusters"] == 10
    assert out["trajectories"]["edge"]["trajectories"] == 10 and out["engine"] == {"kept": 1}
    assert out["summary"]["edge"]["sft"]["tool_name"]["clusters"] == 10
    md = (tmp_path / "summary.md").read_text()
    assert "clustered p" in md and "| sft vs base | tool_name | 100 |" in md


def test_recompute_script_refuses_other_steps_and_prints_what_moved() -> None:
    spec = importlib.util.spec_from_file_location(
        "recompute_cpu_stats", Path(__file__).resolve().parents[2] / "benchmarks" / "recompute_cpu_stats.py"
    )
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)  # type: ignore[union-attr]
    old = {
        "n": 100,
        "a": 0.0,
        "b": 0.3,
        "only_a": 0,
        "only_b": 30,
        "diff_ci": [0.2, 0.4],
        "mcnemar_p": 1e-9,
        "clustered_p": 4.66e-10,
    }
    new = {**old, "diff_ci": [0.21, 0.4], "clustered_p": 2 / 200_001}
    rec.same_steps(old, new, "edge x")
    with pytest.raises(ValueError, match="only_b"):
        rec.same_steps(old, {**new, "only_b": 29}, "edge x")
    assert rec.changed(old, new, "edge x") == [
        "edge x diff_ci: [0.2000, 0.4000] -> [0.2100, 0.4000]",
        "edge x clustered_p: 4.66e-10 -> 1e-05",
    ]
    assert rec.changed(old, old, "edge x") == []


def test_a_monte_carlo_p_at_its_floor_prints_as_a_bound() -> None:
    assert exp.p_text(2 / 200_001) == "≤1e-05"
    assert exp.p_text(0.25) == "0.25" and exp.p_text(3.0517578125e-05) == "3.05e-05"  # exact ones as they are
