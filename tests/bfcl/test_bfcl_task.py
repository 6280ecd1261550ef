"""BFCL as an Inspect task: BFCL's ground truth replayed scores 1.0, a wrong model scores 0.

Both runs go through the whole task (dataset, solver, BFCL's backends, BFCL's checkers) with
Inspect's mockllm, on the first few entries of every category; the full replay is slow-marked.
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "bfcl_eval",
    reason="the bfcl extra is not installed: pip install 'kopa-inspect[bfcl]' && pip install --no-deps bfcl-eval",
)

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import EvalLog  # noqa: E402
from inspect_ai.model import get_model  # noqa: E402

from kopa_inspect.bfcl import categories as cats  # noqa: E402
from kopa_inspect.bfcl.replay import gold_outputs, wrong_model  # noqa: E402
from kopa_inspect.bfcl.task import bfcl  # noqa: E402

FEW = 2

# Entries whose shipped ground truth no model output can pass BFCL's own checker with:
# - simple_java_36, simple_java_65: an ArrayList of `any` items whose answer mixes ints and
#   booleans, while the checker converts every `any` item to a string;
# - simple_java_64: the answer for a HashMap parameter's key is a bare string, which the
#   checker iterates as a list of accepted values (one per character).
UNREACHABLE = {"simple_java_36", "simple_java_64", "simple_java_65"}


def _run(names: list[str], per_category: int | None, model_outputs: object, tmp_path: object) -> EvalLog:
    model = get_model("mockllm/model", custom_outputs=model_outputs)
    (log,) = inspect_eval(
        bfcl(categories=names, per_category=per_category),
        model=model,
        max_samples=1,  # the gold replay is a list of outputs in dataset order
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success", log.error
    return log


def _metrics(log: EvalLog) -> dict[str, float]:
    return {k: v.value for k, v in log.results.scores[0].metrics.items()}


def _values(log: EvalLog) -> dict[str, str]:
    return {str(s.id): s.scores["bfcl_checker"].value for s in log.samples}


def test_gold_replay_scores_one_on_every_category(tmp_path) -> None:
    log = _run(list(cats.ALL), FEW, gold_outputs(list(cats.ALL), FEW), tmp_path)
    values = _values(log)
    assert len(values) == FEW * len(cats.ALL)
    assert set(values.values()) == {"C"}, {k: v for k, v in values.items() if v != "C"}
    metrics = _metrics(log)
    for category in cats.ALL:
        assert metrics[category] == 1.0
    for figure in ("bfcl_multi_turn", "bfcl_non_live_ast", "bfcl_simple", "bfcl_irrelevance", "bfcl_overall"):
        assert metrics[figure] == 1.0


def test_wrong_model_scores_zero_on_every_category(tmp_path) -> None:
    log = _run(list(cats.ALL), FEW, wrong_model, tmp_path)
    values = _values(log)
    assert set(values.values()) == {"I"}, {k: v for k, v in values.items() if v != "I"}
    metrics = _metrics(log)
    assert metrics["accuracy"] == 0.0
    assert metrics["bfcl_multi_turn"] == 0.0 and metrics["bfcl_overall"] == 0.0


def test_gold_replay_missing_its_last_turn_fails(tmp_path) -> None:
    """The multi-turn checker compares every turn: the gold with the last turn's calls left out
    (the model answers in words instead) must fail, the entries before it still pass."""
    names = ["multi_turn_base"]
    outputs = gold_outputs(names, 2)
    # The second entry's outputs end with [calls of its last turn, closing answer]: drop the calls.
    truncated = outputs[:-2] + outputs[-1:]
    log = _run(names, 2, truncated, tmp_path)
    assert _values(log) == {"multi_turn_base_0": "C", "multi_turn_base_1": "I"}
    explanation = log.samples[1].scores["bfcl_checker"].explanation
    assert "multi_turn:" in explanation


@pytest.mark.slow
def test_full_ground_truth_replay(tmp_path) -> None:
    """Every shipped entry of every category: 1.0 wherever the ground truth is reachable."""
    log = _run(list(cats.ALL), None, gold_outputs(list(cats.ALL)), tmp_path)
    failed = {k for k, v in _values(log).items() if v != "C"}
    assert failed == UNREACHABLE
