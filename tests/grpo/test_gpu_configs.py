"""The GPU training configs stay loadable on a machine without a GPU.

TRL's GRPOConfig is built from each GPU config's own ``trainer`` section, unchanged (no use_cpu,
use_vllm kept), with transformers' bf16-on-GPU capability check answered yes: everything else
GRPOConfig validates (field names, vLLM mode, the generation batch against num_generations) runs
as it would on the GPU machine. The accelerate launcher configs load with accelerate's own reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kopa_grpo.config import load_settings

CONFIGS = Path(__file__).resolve().parents[2] / "src" / "kopa_grpo" / "configs"


@pytest.fixture
def bf16_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    import transformers.training_args as training_args

    monkeypatch.setattr(training_args, "is_torch_bf16_gpu_available", lambda: True)


@pytest.mark.parametrize("name", ["gpu-single", "gpu-multi"])
def test_gpu_grpo_config_builds_as_written(name: str, tmp_path: Path, bf16_gpu: None) -> None:
    from trl import GRPOConfig

    settings = load_settings(name)
    args = GRPOConfig(output_dir=str(tmp_path), **settings.trainer)
    assert args.bf16 and args.use_vllm and args.vllm_mode == "colocate"
    assert not args.use_cpu
    # every generation batch holds whole groups of num_generations completions
    assert args.generation_batch_size % args.num_generations == 0
    assert settings.reward_weights is not None and len(settings.reward_weights) == len(settings.rewards)


def test_a_broken_generation_batch_is_refused(tmp_path: Path, bf16_gpu: None) -> None:
    from trl import GRPOConfig

    trainer = {
        **load_settings("gpu-single").trainer,
        "per_device_train_batch_size": 3,
        "gradient_accumulation_steps": 1,
    }
    with pytest.raises(ValueError, match="num_generations|divisible"):
        GRPOConfig(output_dir=str(tmp_path), **trainer)


def test_gpu_trainer_fields_are_trls(tmp_path: Path, bf16_gpu: None) -> None:
    from trl import GRPOConfig

    trainer = {**load_settings("gpu-multi").trainer, "vllm_gpu_memory_utilisation": 0.3}
    with pytest.raises(TypeError, match="vllm_gpu_memory_utilisation"):
        GRPOConfig(output_dir=str(tmp_path), **trainer)


@pytest.mark.parametrize("name", ["accelerate-multi-gpu.yaml", "accelerate-zero3.yaml"])
def test_accelerate_configs_load(name: str) -> None:
    from accelerate.commands.config.config_args import load_config_from_file

    config = load_config_from_file(str(CONFIGS / name))
    assert config.distributed_type in ("MULTI_GPU", "DEEPSPEED")
    assert config.mixed_precision == "bf16"
