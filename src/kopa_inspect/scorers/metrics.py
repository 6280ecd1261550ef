"""Metrics over the per-epoch success scores: pass@1, its standard error, pass@k and pass^k.

All of them read the unreduced scores (one per epoch) and group them by sample id themselves, so
they work with any ``--epochs`` and any ``--epochs-reducer``, and they sit on the ``success``
scorer as one results entry (a scorer mixing reduced and unreduced metrics gets two entries of the
same name in the log). For a task with n epochs of which c succeeded:

- ``pass@1`` = c/n averaged over tasks (the headline); ``stderr`` is its standard error over tasks;
- ``pass@k`` = 1 - C(n-c, k)/C(n, k) (the unbiased estimator), averaged over tasks;
- ``pass^k`` = C(c, k)/C(n, k) (tau-bench: the chance that k tries all succeed), averaged.

Names: Inspect writes a metric of an installed package as ``<package>/<name>`` (for example
``kopa_inspect/pass@4``); ``@`` and ``^`` keep them apart from Inspect's own epoch reducers
``pass_at_k`` (pass@k) and ``pass_k_k`` (which is pass^k, not pass@k). A k above the smallest
epoch count is undefined and reported as NaN, never as a number.

A score value of NaN (an axis undefined for a task, or an errored epoch) is left out of every
metric here, as Inspect's own mean and stderr leave it out.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from math import comb

from inspect_ai.scorer import Metric, SampleScore, metric

# k of the pass@k / pass^k metrics on the success scorer (the paper reports pass@4).
REPORTED_K = 4


def pass_at_k(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    return comb(c, k) / comb(n, k)


def by_sample(scores: list[SampleScore]) -> dict[str, tuple[int, int]]:
    """(epochs scored n, successes c) per sample id; NaN values are not epochs scored."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for s in scores:
        value = s.score.as_float()
        if math.isnan(value):
            continue
        entry = counts[str(s.sample_id)]
        entry[0] += 1
        entry[1] += int(value >= 1.0)
    return {sid: (n, c) for sid, (n, c) in counts.items()}


def _average(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def pass_rate(scores: list[SampleScore], k: int, kind: str = "at") -> float:
    """pass@k (kind "at") or pass^k (kind "hat") over tasks; NaN when some task has fewer than k epochs."""
    counts = by_sample(scores)
    if not counts or min(n for n, _ in counts.values()) < k:
        return float("nan")
    fn = pass_at_k if kind == "at" else pass_hat_k
    return _average([fn(n, c, k) for n, c in counts.values()])


def pass_k(ks: Sequence[int] = (1, 2, 4, 8)) -> Callable[[list[SampleScore]], dict[str, float]]:
    """Every defined pass@k and pass^k for ``ks`` as one dict (k above the smallest epoch count left out).

    A plain function (not a registered metric): the report and tests use it; the scorer uses the
    named metrics below.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        counts = by_sample(scores)
        if not counts:
            return {}
        n_min = min(n for n, _ in counts.values())
        out: dict[str, float] = {}
        for k in ks:
            if k <= n_min:
                out[f"pass@{k}"] = _average([pass_at_k(n, c, k) for n, c in counts.values()])
                out[f"pass^{k}"] = _average([pass_hat_k(n, c, k) for n, c in counts.values()])
        return out

    return compute


@metric(name="pass@1", scores="unreduced")
def pass_at_1() -> Metric:
    """Success rate: c/n per task, averaged over tasks."""

    def compute(scores: list[SampleScore]) -> float:
        return pass_rate(scores, 1)

    return compute


@metric(name="stderr", scores="unreduced")
def pass_at_1_stderr() -> Metric:
    """Standard error of pass@1 over tasks (each task's c/n is one observation)."""

    def compute(scores: list[SampleScore]) -> float:
        rates = [c / n for n, c in by_sample(scores).values()]
        if len(rates) < 2:
            return 0.0 if rates else float("nan")
        m = _average(rates)
        var = sum((r - m) ** 2 for r in rates) / (len(rates) - 1)
        return math.sqrt(var / len(rates))

    return compute


@metric(name=f"pass@{REPORTED_K}", scores="unreduced")
def pass_at_reported_k() -> Metric:
    """pass@k for the paper's k (NaN with fewer epochs than k)."""

    def compute(scores: list[SampleScore]) -> float:
        return pass_rate(scores, REPORTED_K, "at")

    return compute


@metric(name=f"pass^{REPORTED_K}", scores="unreduced")
def pass_hat_reported_k() -> Metric:
    """pass^k for the paper's k (NaN with fewer epochs than k)."""

    def compute(scores: list[SampleScore]) -> float:
        return pass_rate(scores, REPORTED_K, "hat")

    return compute


@metric(name="category", scores="unreduced")
def pass_at_1_by_category() -> Metric:
    """pass@1 per task category (sample metadata ``category``): one value per category."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[SampleScore]] = defaultdict(list)
        for s in scores:
            groups[str((s.sample_metadata or {}).get("category", "?"))].append(s)
        return {cat: pass_rate(group, 1) for cat, group in sorted(groups.items())}

    return compute


def success_metrics() -> list[Metric]:
    """The success scorer's metrics, headline first, the per-category breakdown last."""
    return [
        pass_at_1(),
        pass_at_1_stderr(),
        pass_at_reported_k(),
        pass_hat_reported_k(),
        pass_at_1_by_category(),
    ]
