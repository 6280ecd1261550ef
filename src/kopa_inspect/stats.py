"""Every interval and test the reports print, on scipy.stats (one module: report, steps, benchmarks).

Estimators:

- ``pass_at_k`` / ``pass_hat_k``: the scorer's per-task estimators (one formula for the log's
  metrics and the report), with k <= n enforced;
- ``mean``: NaN for no values.

Intervals (95% unless ``level`` says otherwise; ``(nan, nan)`` where the data cannot give one):

- ``t_ci``: the mean of a few independent replicates (seeds, epochs) with the t quantile for
  n - 1 degrees of freedom (``scipy.stats.t.interval``);
- ``wilson_ci``: a proportion of independent 0/1 trials
  (``scipy.stats.binomtest(...).proportion_ci(method="wilson")``);
- ``bootstrap_ci``: the mean over units (tasks), percentile bootstrap (``scipy.stats.bootstrap``);
- ``paired_bootstrap_diff``: the mean of b - a over paired units, percentile bootstrap;
- ``cluster_bootstrap_ci`` / ``cluster_bootstrap_diff``: the same where units come in clusters.

Tests (two-sided p-values):

- ``mcnemar_exact``: exact McNemar, a binomial test of the discordant pairs at p = 1/2
  (``scipy.stats.binomtest``);
- ``signflip_test``: a paired permutation test (``scipy.stats.permutation_test``, sign flips of
  each cluster's net difference), exact up to ``MAX_EXACT_CLUSTERS`` clusters, Monte Carlo beyond.

Why clusters. kopa_steps' samples are the steps of whole trajectories, so steps of one trajectory
share a query, its tools and its earlier results, and a model that gets one of them right tends to
get its neighbours right too. Counting the steps as independent (Wilson, per-step McNemar)
overstates the evidence: 30 right steps from 3 trajectories are closer to 3 observations than 30.
The cluster bootstrap resamples whole trajectories and recomputes the step-level mean (a ratio:
right steps / defined steps). The sign-flip test uses that under H0 (the two models exchangeable)
swapping the models' labels inside a trajectory leaves the data's distribution unchanged, which
flips the sign of that trajectory's net difference d_j = sum of (b - a) over its steps; the
statistic is T = sum_j d_j (= n x the step-level mean difference, so trajectories weigh by their
steps, as the reported mean does). With one step per trajectory it is the exact McNemar test.

Bootstraps and Monte Carlo tests are seeded: a report recomputed from the same logs prints the
same figures. scipy is imported on first use: the Inspect registry imports the step metric, and
every ``inspect`` command should not pay scipy.stats' import time.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from kopa_inspect.scorers import metrics as _scorer_metrics

if TYPE_CHECKING:
    from types import ModuleType

LEVEL = 0.95
N_BOOT = 10_000
N_PERMUTATIONS = 200_000  # Monte Carlo sign assignments where exact enumeration is too long
MAX_EXACT_CLUSTERS = 16  # 2^16 sign assignments enumerate in under a second; 2^20 take ~12 s
NAN_PAIR = (float("nan"), float("nan"))


def _stats() -> ModuleType:
    from scipy import stats

    return stats


# --- estimators ---------------------------------------------------------------------------------


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k of one task from n epochs with c successes: 1 - C(n-c, k) / C(n, k)."""
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} epochs, got {n}")
    return _scorer_metrics.pass_at_k(n, c, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k of one task (all k tries succeed, tau-bench's measure): C(c, k) / C(n, k)."""
    if k > n:
        raise ValueError(f"pass^{k} needs at least {k} epochs, got {n}")
    return _scorer_metrics.pass_hat_k(n, c, k)


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if len(xs) else float("nan")


# --- intervals ----------------------------------------------------------------------------------


def t_ci(values: Sequence[float], level: float = LEVEL) -> tuple[float, float]:
    """t interval of the mean of independent replicates (df = n - 1); undefined below two."""
    n = len(values)
    if n < 2:
        return NAN_PAIR
    x = np.asarray(values, dtype=float)
    m = float(x.mean())
    sem = float(x.std(ddof=1)) / math.sqrt(n)
    if sem == 0:
        return m, m  # every replicate the same: no spread to scale the quantile by
    lo, hi = _stats().t.interval(level, n - 1, loc=m, scale=sem)
    return float(lo), float(hi)


def wilson_ci(successes: float, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval of ``successes`` of ``n`` independent 0/1 trials."""
    if n == 0:
        return NAN_PAIR
    k = round(successes)
    if abs(successes - k) > 1e-9 or not 0 <= k <= n:
        raise ValueError(f"Wilson's interval needs a count of successes in 0..{n}, got {successes}")
    ci = _stats().binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def _percentile_bootstrap(
    data: tuple[np.ndarray, ...], statistic, level: float, n_boot: int, seed: int
) -> tuple[float, float]:
    res = _stats().bootstrap(
        data,
        statistic,
        paired=len(data) > 1,
        vectorized=True,
        n_resamples=n_boot,
        confidence_level=level,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _mean_stat(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x, axis=axis)


def _ratio_stat(sums: np.ndarray, counts: np.ndarray, axis: int = -1) -> np.ndarray:
    # every cluster has count >= 1, so a resample's denominator is never 0
    return np.sum(sums, axis=axis) / np.sum(counts, axis=axis)


def bootstrap_ci(
    values: Sequence[float], level: float = LEVEL, n_boot: int = N_BOOT, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean over units (tasks); undefined below two units."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return NAN_PAIR
    if np.all(x == x[0]):
        return float(x[0]), float(x[0])
    return _percentile_bootstrap((x,), _mean_stat, level, n_boot, seed)


def paired_bootstrap_diff(
    a: Sequence[float], b: Sequence[float], level: float = LEVEL, n_boot: int = N_BOOT, seed: int = 0
) -> tuple[float, float, float]:
    """(mean of b - a, percentile bootstrap interval) over paired units resampled together."""
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if not len(d):
        return float("nan"), *NAN_PAIR
    m = float(d.mean())
    if len(d) < 2:
        return m, *NAN_PAIR
    if np.all(d == d[0]):
        return m, m, m
    return (m, *_percentile_bootstrap((d,), _mean_stat, level, n_boot, seed))


def per_cluster(values: Sequence[float], clusters: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """(sum, count) of the defined (non-NaN) values of each cluster that has any, in first-seen order."""
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    sums: dict[Hashable, float] = {}
    counts: dict[Hashable, int] = {}
    for v, c in zip(values, clusters, strict=True):
        v = float(v)
        if math.isnan(v):
            continue
        sums[c] = sums.get(c, 0.0) + v
        counts[c] = counts.get(c, 0) + 1
    return np.array(list(sums.values()), dtype=float), np.array([counts[c] for c in sums], dtype=float)


def cluster_bootstrap_ci(
    values: Sequence[float],
    clusters: Sequence[Hashable],
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile interval of the unit-level mean (NaN: undefined, left out), resampling whole clusters.

    Where every defined unit has the same 0/1 score (0 of n, n of n) the bootstrap has nothing to
    resample and would give a point; the interval is then Wilson's with the number of clusters as
    the number of trials (as if each cluster were one observation: the most correlated case, so
    never narrower than the truth allows). One cluster alone gives no interval."""
    sums, counts = per_cluster(values, clusters)
    if not len(sums):
        return NAN_PAIR
    total, n = float(sums.sum()), float(counts.sum())
    if total in (0.0, n):
        return wilson_ci(len(sums) * total / n, len(sums), level)
    if len(sums) < 2:
        return NAN_PAIR
    return _percentile_bootstrap((sums, counts), _ratio_stat, level, n_boot, seed)


def cluster_bootstrap_diff(
    a: Sequence[float],
    b: Sequence[float],
    clusters: Sequence[Hashable],
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    seed: int = 0,
) -> tuple[float, float, float]:
    """(mean of b - a, percentile interval) over the units both define, resampling whole clusters."""
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    sums, counts = per_cluster(diffs, clusters)
    if not len(sums):
        return float("nan"), *NAN_PAIR
    m = float(sums.sum() / counts.sum())
    if not np.any(sums):
        return m, 0.0, 0.0
    if len(sums) < 2:
        return m, *NAN_PAIR
    return (m, *_percentile_bootstrap((sums, counts), _ratio_stat, level, n_boot, seed))


# --- tests --------------------------------------------------------------------------------------


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs (A right & B wrong, A wrong & B right)."""
    n = only_a + only_b
    if n == 0:
        return 1.0  # no discordant pair: no evidence either way
    return float(_stats().binomtest(only_b, n, 0.5, alternative="two-sided").pvalue)


def _sum_stat(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.sum(x, axis=axis)


def signflip_test(
    a: Sequence[float],
    b: Sequence[float],
    clusters: Sequence[Hashable],
    n_resamples: int = N_PERMUTATIONS,
    seed: int = 0,
) -> float:
    """Two-sided paired permutation p-value of sum(b - a), flipping each cluster's net difference
    (see the module docstring). Exact (every sign assignment) up to ``MAX_EXACT_CLUSTERS`` clusters
    with a non-zero difference; beyond, ``n_resamples`` seeded random assignments, with the
    observed one counted in each tail (so never below 2 / (n_resamples + 1))."""
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    sums, _ = per_cluster(diffs, clusters)
    d = sums[sums != 0]  # a cluster with no net difference flips to itself
    if len(d) < 2:
        return 1.0  # none or one cluster differs: its two signs reach |T| alike (scipy needs two)
    exact = len(d) <= MAX_EXACT_CLUSTERS
    res = _stats().permutation_test(
        (d,),
        _sum_stat,
        permutation_type="samples",
        vectorized=True,
        n_resamples=np.inf if exact else n_resamples,
        alternative="two-sided",
        rng=np.random.default_rng(seed),
    )
    return float(res.pvalue)
