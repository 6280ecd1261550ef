"""The scorer against the labelled answer corpus (tests/data/answer_corpus): it must credit the
correct answers (false negatives at most 2%) and fail the wrong ones (false positives at most 1%).

The corpus is runs of KOPA-Bench tasks written by careful agents through the tools, in the styles
real models answer in, with labels given by reading the tool outputs (scorers/corpus.py).
``kopa tasks agreement`` prints the same figures per class.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.corpus import ItemResult, agreement, grade_corpus, load_corpus
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

CORPUS = Path(__file__).resolve().parents[1] / "data" / "answer_corpus"
# Issue 20's bar: what a benchmark that credits every correct answer must reach.
TARGET_FN, TARGET_FP = 0.02, 0.01
# The scorer's measured agreement on this corpus (README, "Does the scorer agree with a careful
# reader?"): a change that fails more correct answers or passes more wrong ones fails here.
HELD_FN, HELD_FP = 0.0032, 0.0  # measured: 1/321 and 0/271


@pytest.fixture(scope="module")
def results() -> list[ItemResult]:
    items = load_corpus(CORPUS)

    async def run() -> list[ItemResult]:
        return await grade_corpus(items, shared_backend(BackendConfig()))

    return asyncio.run(run())


def test_corpus_breadth() -> None:
    items = load_corpus(CORPUS)
    tasks = {t.id for t in load_tasks()}
    assert len(items) >= 400
    assert len({i.task for i in items}) >= 120
    assert {i.task for i in items} <= tasks
    labels = Counter(i.label for i in items)
    assert labels["correct"] >= 200 and labels["wrong"] >= 100, labels
    kinds = Counter(i.kind for i in items)
    # the styles the issue names, each present more than a handful of times
    for kind in (
        "alt_trajectory",
        "prose",
        "prose_runner_up",
        "short_names",
        "english",
        "table",
        "bullets",
        "wrong_value",
        "hedge",
        "no_calls_guess",
    ):
        assert kinds[kind] >= 5, (kind, kinds[kind])


def _why(results: list[ItemResult], ids: list[str]) -> str:
    by_id = {r.item.id: r for r in results}
    return "\n".join(
        f"{i} [{by_id[i].item.kind}]: {'; '.join(by_id[i].grade.missing[:2]) or 'passed'}" for i in ids
    )


@pytest.mark.slow
def test_agreement_does_not_regress(results: list[ItemResult]) -> None:
    total, _ = agreement(results)
    assert total.fn_rate is not None and total.fn_rate <= HELD_FN, (
        f"{len(total.false_negatives)}/{total.correct} correct answers failed:\n"
        + _why(results, total.false_negatives)
    )
    assert total.fp_rate is not None and total.fp_rate <= HELD_FP, (
        f"{len(total.false_positives)}/{total.wrong} wrong answers passed:\n"
        + _why(results, total.false_positives)
    )


@pytest.mark.slow
def test_false_positives_meet_the_bar(results: list[ItemResult]) -> None:
    total, _ = agreement(results)
    assert total.fp_rate is not None and total.fp_rate <= TARGET_FP, _why(results, total.false_positives)


@pytest.mark.slow
def test_false_negatives_meet_the_bar(results: list[ItemResult]) -> None:
    total, _ = agreement(results)
    assert total.fn_rate is not None and total.fn_rate <= TARGET_FN, _why(results, total.false_negatives)
