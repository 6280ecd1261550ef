"""Metrics over the per-sample dict scores: pass@k and pass^k across epochs.

``pass_k`` reads the unreduced scores (one per epoch) and groups them by sample id itself, so it
works with any ``--epochs`` and any reducer: for a task with n epochs of which c succeeded,
pass@k = 1 - C(n-c, k)/C(n, k) (the unbiased estimator) and pass^k = C(c, k)/C(n, k)
(tau-bench's chance that k independent tries all succeed), averaged over tasks. k values above
the smallest epoch count are left out rather than failing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from math import comb

from inspect_ai.scorer import Metric, SampleScore, metric


def pass_at_k(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    return comb(c, k) / comb(n, k)


@metric(scores="unreduced")
def pass_k(ks: Sequence[int] = (1, 2, 4, 8)) -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        by_sample: dict[str, list[float]] = defaultdict(list)
        for s in scores:
            by_sample[str(s.sample_id)].append(s.score.as_float())
        if not by_sample:
            return {}
        n_min = min(len(v) for v in by_sample.values())
        out: dict[str, float] = {}
        for k in ks:
            if k > n_min:
                continue
            at, hat = [], []
            for values in by_sample.values():
                n, c = len(values), sum(1 for v in values if v >= 1.0)
                at.append(pass_at_k(n, c, k))
                hat.append(pass_hat_k(n, c, k))
            out[f"pass@{k}"] = sum(at) / len(at)
            out[f"pass^{k}"] = sum(hat) / len(hat)
        return out

    return compute
