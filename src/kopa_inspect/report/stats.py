"""pass@k, pass^k and confidence intervals.

pass@k (at least one of k tries succeeds) and pass^k (all k succeed, tau-bench's measure) are
estimated per task from n epochs with c successes: 1 - C(n-c, k)/C(n, k) and C(c, k)/C(n, k),
then averaged over tasks. Confidence intervals are percentile bootstraps over tasks with a fixed
seed (deterministic reports); pass@1 also gets the spread over seeds (epochs) as the paper does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from kopa_inspect.scorers import metrics as _scorer_metrics


def pass_at_k(n: int, c: int, k: int) -> float:
    """The scorer's estimator (one formula for the log's metrics and the report), k <= n enforced."""
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} epochs, got {n}")
    return _scorer_metrics.pass_at_k(n, c, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    if k > n:
        raise ValueError(f"pass^{k} needs at least {k} epochs, got {n}")
    return _scorer_metrics.pass_hat_k(n, c, k)


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def bootstrap_ci(values: Sequence[float], level: float = 0.95, iters: int = 2000, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean (over tasks)."""
    if not values:
        return float("nan"), float("nan")
    if len(values) == 1:
        return values[0], values[0]
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(iters))
    lo = means[int((1 - level) / 2 * iters)]
    hi = means[min(iters - 1, int((1 + level) / 2 * iters))]
    return lo, hi


def seed_ci(per_seed: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Normal-approximation CI of the mean over seeds (epochs); t quantile for small n."""
    n = len(per_seed)
    if n < 2:
        m = per_seed[0] if per_seed else float("nan")
        return m, m
    m = mean(per_seed)
    sd = math.sqrt(sum((x - m) ** 2 for x in per_seed) / (n - 1))
    # two-sided 95% t quantiles for small n (df = n - 1); 1.96 beyond the table
    t_table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
    t = t_table.get(n - 1, 1.96) if level == 0.95 else 1.96
    half = t * sd / math.sqrt(n)
    return m - half, m + half
