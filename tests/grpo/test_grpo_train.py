"""GRPO / SFT training on CPU with the local SmolLM2-135M-Instruct (slow).

One small EDGE dataset (conftest.py's ``edge_data``) is shared by every test. The GRPO smoke run
(configs/cpu-smoke.yaml) writes a checkpoint that KOPA-Bench then evaluates in-process through
Inspect's hf provider; a second ``train()`` on the same OUT resumes from it; SFT and the
multi-turn episode form train too.

Every run uses one torch thread: on this 2-core machine shared with other jobs, two intra-op
threads were 3-5x slower (oversubscription).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kopa_inspect.scorers import axis_values

pytestmark = pytest.mark.slow

THREADS = {"torch_threads": 1}


@pytest.fixture(scope="module")
def grpo_run(local_model: Path, edge_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kopa_grpo.train import train

    out = tmp_path_factory.mktemp("grpo")
    merged = train(edge_data, "cpu-smoke", out, overrides=THREADS)
    assert merged == out / "merged"
    return out


def test_grpo_smoke_writes_checkpoint_and_stats(grpo_run: Path) -> None:
    out = grpo_run
    assert (out / "merged" / "config.json").exists() and (out / "merged" / "model.safetensors").exists()
    assert (out / "merged" / "tokenizer_config.json").exists()
    assert (out / "adapter" / "adapter_config.json").exists()
    assert (out / "adapter" / "adapter_model.safetensors").exists()
    assert (out / "checkpoints" / "checkpoint-2").is_dir()
    stats = json.loads((out / "train_stats.json").read_text())
    assert stats["global_step"] == 2 and stats["start_step"] == 0 and stats["resumed_from"] is None
    assert stats["tokens"] > 0 and stats["tokens_per_second"] > 0
    assert stats["completions"] == 2 * 2 and stats["completions_per_second"] > 0  # 2 steps x 2 completions
    assert stats["peak_rss_mb"] > 100
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    logged = {k for r in rows for k in r}
    for name in (
        "outcome_reward",
        "format_reward",
        "tool_name_reward",
        "argument_reward",
        "execution_reward",
    ):
        assert f"rewards/{name}/mean" in logged, sorted(logged)
    assert (out / "rewards.png").exists()
    print("cpu-smoke train_stats:", json.dumps(stats))


def test_grpo_checkpoint_runs_kopa_bench(grpo_run: Path, tmp_path: Path) -> None:
    """The merged checkpoint is an ordinary HF folder the harness evaluates:
    ``inspect eval kopa_inspect/kopa_bench --limit 2 --model hf/local -M model_path=<merged>``."""
    import torch
    from inspect_ai import eval as inspect_eval

    torch.set_num_threads(1)
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="hf/local",
        model_args={"model_path": str(grpo_run / "merged"), "device": "cpu", "do_sample": False},
        task_args={"max_turns": 1},
        limit=2,
        max_tokens=24,
        log_dir=str(tmp_path),
        display="none",
    )
    log = logs[0]
    assert log.status == "success", log.error
    assert len(list(tmp_path.glob("*.eval"))) == 1
    assert len(log.samples) == 2
    for sample in log.samples:
        value = axis_values(sample.scores)
        assert {"success", "answer", "call_f1", "chain", "env"} <= set(value)


def test_grpo_resume_continues_global_step(grpo_run: Path, edge_data: Path) -> None:
    from kopa_grpo.train import train

    out = grpo_run
    train(edge_data, "cpu-smoke", out, overrides={**THREADS, "trainer": {"max_steps": 3}})
    stats = json.loads((out / "train_stats.json").read_text())
    assert stats["resumed_from"] is not None and stats["resumed_from"].endswith("checkpoint-2")
    assert stats["start_step"] == 2 and stats["global_step"] == 3 and stats["steps_this_run"] == 1
    assert (out / "checkpoints" / "checkpoint-3").is_dir()
    state = json.loads((out / "checkpoints" / "checkpoint-3" / "trainer_state.json").read_text())
    assert state["global_step"] == 3


def test_sft_smoke_writes_loadable_checkpoint(local_model: Path, edge_data: Path, tmp_path: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from kopa_grpo.train import train

    merged = train(
        edge_data,
        "sft-cpu",
        tmp_path,
        overrides={
            **THREADS,
            "limit": 2,
            "prompt": {"max_prompt_tokens": 1600},
            "trainer": {
                "max_steps": 2,
                "per_device_train_batch_size": 1,
                "max_length": 1800,
                "save_steps": 2,
                "report_to": [],
            },
        },
    )
    stats = json.loads((tmp_path / "train_stats.json").read_text())
    assert stats["global_step"] == 2 and stats["tokens"] > 0
    assert (tmp_path / "adapter" / "adapter_config.json").exists()
    model = AutoModelForCausalLM.from_pretrained(merged)
    tok = AutoTokenizer.from_pretrained(merged)
    assert "<tool_call>" in (tok.chat_template or "")  # the model's own tool template, not TRL's
    ids = tok("안녕하세요", return_tensors="pt")
    with torch.no_grad():
        logits = model(**ids).logits
    assert torch.isfinite(logits).all()


def test_episode_form_trains_one_step(local_model: Path, edge_data: Path, tmp_path: Path) -> None:
    """Multi-turn GRPO through TRL's environment_factory: the model calls the emulated tools."""
    from kopa_grpo.train import train

    train(
        edge_data,
        "cpu-episode",
        tmp_path,
        overrides={
            **THREADS,
            "limit": 1,
            "trainer": {"max_completion_length": 48, "max_tool_calling_iterations": 1},
        },
    )
    stats = json.loads((tmp_path / "train_stats.json").read_text())
    assert stats["global_step"] == 1
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    logged = {k for r in rows for k in r}
    assert "rewards/episode_outcome_reward/mean" in logged, sorted(logged)
    assert "tools/call_frequency" in logged
    assert (tmp_path / "merged" / "model.safetensors").exists()
