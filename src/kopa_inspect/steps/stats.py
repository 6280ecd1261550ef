"""Statistics for step scores that are clustered by trajectory.

kopa_steps' samples are the steps of whole trajectories (the held-out split is by trajectory; a
bench trajectory is one KOPA-Bench task's gold plan), so steps of one trajectory share a query,
its tools and its earlier results, and a model that gets one of them right tends to get its
neighbours right too. Treating the steps as independent (Wilson intervals, per-step McNemar)
overstates the evidence: 30 right steps from 3 trajectories are closer to 3 observations than 30.
The unit of resampling here is the trajectory:

- ``cluster_bootstrap_ci``: a percentile bootstrap that resamples whole trajectories (with all
  their steps) and recomputes the step-level mean (a ratio: right steps / defined steps);
- ``cluster_bootstrap_diff``: the same for the paired difference of two models on the same steps;
- ``signflip_test``: a paired test at the trajectory level. Under H0 (the two models are
  exchangeable) swapping the models' labels inside a trajectory leaves the data's distribution
  unchanged, which flips the sign of that trajectory's net difference d_j = sum of (b - a) over
  its steps. The statistic is T = sum_j d_j (= n x the step-level mean difference, so trajectories
  weigh by their steps, as the reported mean does) and the p-value is P(|T*| >= |T|) over all 2^K
  sign assignments. With 0/1 scores the d_j are integers and the distribution is computed exactly
  by convolution whatever K (no Monte Carlo error, and small K is where the asymptotics of a
  cluster-adjusted McNemar such as Obuchowski's would be least trustworthy: the experiment has 16
  bench trajectories). With one step per trajectory it is exactly the two-sided exact McNemar test.

Sample ids are ``<trajectory id>#<step>`` (steps.build.steps_from_trajectory); the step's metadata
carries ``trajectory_id`` too, and is preferred when given.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

N_BOOT = 10_000


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a proportion (independent trials)."""
    if n == 0:
        return float("nan"), float("nan")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def trajectory_of(sample_id: Any, metadata: Mapping[str, Any] | None = None) -> str:
    """The trajectory (cluster) of a kopa_steps sample: its step metadata's ``trajectory_id``, else
    the sample id before its ``#<step>`` suffix, else the id itself (a cluster of one)."""
    step = (metadata or {}).get("step") if metadata else None
    if isinstance(step, Mapping) and step.get("trajectory_id"):
        return str(step["trajectory_id"])
    if metadata and metadata.get("trajectory_id"):
        return str(metadata["trajectory_id"])
    sid = str(sample_id)
    head, sep, tail = sid.rpartition("#")
    return head if sep and head and tail.isdigit() else sid


def _per_cluster(values: Sequence[float], clusters: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """(sum, count) of the defined (non-NaN) values of each cluster that has any."""
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    sums: dict[Any, float] = {}
    counts: dict[Any, int] = {}
    for v, c in zip(values, clusters, strict=True):
        v = float(v)
        if math.isnan(v):
            continue
        sums[c] = sums.get(c, 0.0) + v
        counts[c] = counts.get(c, 0) + 1
    keys = list(sums)
    return np.array([sums[k] for k in keys], dtype=float), np.array([counts[k] for k in keys], dtype=float)


def _bootstrap_ratio(sums: np.ndarray, counts: np.ndarray, n_boot: int, seed: int) -> tuple[float, float]:
    k = len(sums)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(k, np.full(k, 1.0 / k), size=n_boot)  # how often each cluster is drawn
    stats = (weights @ sums) / (weights @ counts)  # every cluster has count >= 1, so never 0 / 0
    lo, hi = np.percentile(stats, [2.5, 97.5])
    return float(lo), float(hi)


def cluster_bootstrap_ci(values: Sequence[float], clusters: Sequence[Any], n_boot: int = N_BOOT,
                         seed: int = 0) -> tuple[float, float]:
    """95% percentile interval of the step-level mean, resampling whole clusters (NaN: undefined,
    left out). Where every defined step has the same score (0 of n, n of n) the bootstrap has
    nothing to resample and would give a point; the interval is then Wilson's with the number of
    clusters as the number of trials (as if each trajectory were one observation: the most
    correlated case, so never narrower than the truth allows)."""
    sums, counts = _per_cluster(values, clusters)
    if not len(sums):
        return float("nan"), float("nan")
    total, n = float(sums.sum()), float(counts.sum())
    if total == 0 or total == n:
        return wilson(len(sums) * total / n, len(sums))
    return _bootstrap_ratio(sums, counts, n_boot, seed)


def cluster_bootstrap_diff(a: Sequence[float], b: Sequence[float], clusters: Sequence[Any], n_boot: int = N_BOOT,
                           seed: int = 0) -> tuple[float, float, float]:
    """(mean of b - a, 95% percentile interval) over the steps both define, resampling clusters."""
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    sums, counts = _per_cluster(diffs, clusters)
    if not len(sums):
        return float("nan"), float("nan"), float("nan")
    mean = float(sums.sum() / counts.sum())
    if not np.any(sums):
        return mean, 0.0, 0.0
    lo, hi = _bootstrap_ratio(sums, counts, n_boot, seed)
    return mean, lo, hi


def signflip_test(a: Sequence[float], b: Sequence[float], clusters: Sequence[Any], n_mc: int = 200_000,
                  seed: int = 0) -> float:
    """Two-sided cluster sign-flip permutation p-value of sum(b - a) (see the module docstring).
    Exact: by convolution when each cluster's net difference is an integer (0/1 scores), by full
    enumeration up to 20 non-zero clusters otherwise; beyond that a Monte Carlo estimate."""
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    sums, _ = _per_cluster(diffs, clusters)
    d = sums[sums != 0]  # a cluster with no net difference flips to itself
    if not len(d):
        return 1.0
    t_obs = abs(float(d.sum()))
    if np.allclose(d, np.round(d), atol=1e-9):
        dist = {0: 1}  # {sum: number of sign assignments}, exact integers
        for dj in (int(round(x)) for x in d):
            nxt: dict[int, int] = {}
            for s, c in dist.items():
                nxt[s + dj] = nxt.get(s + dj, 0) + c
                nxt[s - dj] = nxt.get(s - dj, 0) + c
            dist = nxt
        t = int(round(t_obs))
        return sum(c for s, c in dist.items() if abs(s) >= t) / 2 ** len(d)
    eps = 1e-9 * max(1.0, t_obs)
    if len(d) <= 20:
        hits = sum(abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= t_obs - eps
                   for signs in itertools.product((1, -1), repeat=len(d)))
        return hits / 2 ** len(d)
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(n_mc, len(d)))
    hits = int(np.sum(np.abs(signs @ d) >= t_obs - eps))
    return (hits + 1) / (n_mc + 1)
