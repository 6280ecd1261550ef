"""``kopa train``: GRPO (or the SFT baseline) with TRL + PEFT LoRA on an EDGE dataset.

Writes under OUT: ``checkpoints/`` (TRL checkpoints; a rerun resumes from the last one),
``adapter/`` (the LoRA adapter), ``merged/`` (base + adapter merged, with the tool-capable chat
template: ``inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path=OUT/merged``,
or ``vllm//abs/OUT/merged`` on a GPU), ``metrics.jsonl`` and ``rewards.png`` (every logged
reward, one curve each; TensorBoard events under ``checkpoints/runs``), and a model card.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from kopa_grpo.config import TrainSettings, load_settings
from kopa_grpo.model_source import OPTION, check_model, resolve_model
from kopa_grpo.outputs import MERGED, save_outputs
from kopa_grpo.outputs import lora_delta as lora_delta

log = logging.getLogger(__name__)

TRAJECTORY_MAX_LENGTH = 8192


def last_checkpoint(ckpt_dir: Path) -> str | None:
    if not ckpt_dir.exists():
        return None
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(ckpt_dir))


def _peft_config(settings: TrainSettings):
    if settings.lora is None:
        return None
    from peft import LoraConfig

    return LoraConfig(
        r=settings.lora.r,
        lora_alpha=settings.lora.alpha,
        lora_dropout=settings.lora.dropout,
        target_modules=settings.lora.target_modules,
        task_type="CAUSAL_LM",
    )


def _trainer_args(settings: TrainSettings, ckpt_dir: Path) -> dict[str, Any]:
    import torch

    # transformers 5 dropped ``logging_dir``: TensorBoard events go to output_dir/runs/<run>.
    args = {"output_dir": str(ckpt_dir), "seed": settings.seed}
    if not torch.cuda.is_available():
        args.update(use_cpu=True, bf16=False)
    args.update(settings.trainer)
    if not torch.cuda.is_available():
        args["use_cpu"], args["bf16"] = True, bool(settings.cpu_bf16) and cpu_has_native_bf16()
        args.pop("use_vllm", None)
    return args


def _lists_native_bf16(cpuinfo: str) -> bool:
    flags = {
        f for line in cpuinfo.splitlines() if line.startswith("flags") for f in line.split(":", 1)[1].split()
    }
    return bool(flags & {"avx512_bf16", "amx_bf16"})


def cpu_has_native_bf16(cpuinfo: str | None = None) -> bool:
    """Whether the CPU multiplies bf16 natively (AVX512_BF16 or AMX). Without it, torch's bf16
    matrix products fall back to a scalar-converting kernel: measured on a 2-core AMD EPYC without
    AVX-512, one SFT step of sft-cpu.yaml under bf16 autocast took over 5 CPU-minutes, so
    ``cpu_bf16`` is honoured only where it pays off. Linux reads the flags from /proc/cpuinfo;
    elsewhere bf16 is assumed absent."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
    flags = {
        f for line in cpuinfo.splitlines() if line.startswith("flags") for f in line.split(":", 1)[1].split()
    }
    native = bool(flags & {"avx512_bf16", "amx_bf16"})
    if not native:
        log.info(
            "cpu_bf16 ignored: this CPU has no native bf16 (avx512_bf16 / amx_bf16); training in float32"
        )
    return native


def time_budget_callback(minutes: float):
    """Stops training cleanly (a checkpoint is saved) when the wall-time budget is spent.

    The main process's clock decides for every process: ranks that stopped at different steps
    would leave the others waiting in the next step's collectives for ever.
    """
    from accelerate.utils import broadcast_object_list  # type: ignore[import-untyped]
    from transformers import TrainerCallback

    class TimeBudget(TrainerCallback):
        def __init__(self) -> None:
            self.deadline = time.monotonic() + minutes * 60

        def on_step_end(self, args, state, control, **kwargs):
            spent = [time.monotonic() >= self.deadline]
            broadcast_object_list(spent, from_process=0)
            if spent[0]:
                control.should_training_stop = True
                control.should_save = True
            return control

    return TimeBudget()


def _checkpoint_step(path: str | None) -> int:
    if not path:
        return 0
    state = Path(path) / "trainer_state.json"
    return int(json.loads(state.read_text())["global_step"]) if state.exists() else 0


def _reset_peak_rss() -> None:
    """Reset the kernel's peak-RSS mark (Linux: "5" > /proc/self/clear_refs) so the peak
    measured after training is the training's, not an earlier test's or a data build's."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def throughput(
    history: list[dict[str, Any]], start_step: int, end_step: int, args: Any, elapsed: float
) -> dict[str, Any]:
    """Tokens and completions processed by this run (a resumed run's earlier steps excluded).

    GRPO logs ``num_tokens`` (cumulative prompt + completion tokens) and the mean completion
    length per step; each optimizer step generates per_device_train_batch_size x
    gradient_accumulation_steps x processes completions. SFT logs ``num_tokens`` only.
    """
    logs = [r for r in history if "step" in r and "loss" in r and start_step < r["step"] <= end_step]
    steps = end_step - start_step
    before = [r["num_tokens"] for r in history if "num_tokens" in r and r.get("step", 0) <= start_step]
    after = [r["num_tokens"] for r in logs if "num_tokens" in r]
    tokens = None
    if after:
        # TRL restores its token counter on resume; if it restarted at 0, count from 0.
        base = before[-1] if before and before[-1] <= after[-1] else 0
        tokens = after[-1] - base
    per_step = (
        int(getattr(args, "per_device_train_batch_size", 1))
        * int(getattr(args, "gradient_accumulation_steps", 1))
        * int(getattr(args, "world_size", 1) or 1)
    )
    lengths = [r["completions/mean_length"] for r in logs if "completions/mean_length" in r]
    completions = per_step * steps if lengths else None
    out: dict[str, Any] = {
        "steps_this_run": steps,
        "tokens": tokens,
        "tokens_per_second": round(tokens / elapsed, 2) if tokens and elapsed else None,
        "seconds_per_step": round(elapsed / steps, 2) if steps else None,
    }
    if completions:
        # logging_steps=1 gives one mean length per step; otherwise the logged means stand in.
        completion_tokens = sum(lengths) / len(lengths) * completions
        out.update(
            completions=completions,
            completions_per_second=round(completions / elapsed, 4) if elapsed else None,
            completion_tokens_per_second=round(completion_tokens / elapsed, 2) if elapsed else None,
        )
    return out


def episode_tokenizer(tokenizer: Any, chat_template: str) -> Any:
    """The tokenizer for multi-turn rollouts: a chat template TRL can parse tool calls from.

    TRL's tool loop decodes each turn with ``parse_response`` and the tokenizer's
    ``response_template``; without one it falls back to templates it recognizes by equality
    (SmolLM2's original template is not one, and has no tool support anyway). The local model's
    folder carries the Qwen-style response template for its ChatML tool format.
    """
    from trl.chat_template_utils import add_response_schema, qwen2_5_chat_template

    if chat_template == "qwen2_5":
        tokenizer.chat_template = qwen2_5_chat_template
        tokenizer.response_template = None  # let TRL pick the one that matches this template
    if getattr(tokenizer, "response_template", None) is None:
        try:
            add_response_schema(tokenizer)
        except ValueError as exc:
            raise ValueError(
                "the episode form needs a chat template TRL can parse tool calls from: set "
                "`chat_template: qwen2_5` (ChatML models) or give the tokenizer a response_template"
            ) from exc
    return tokenizer


def _trainer_config(settings: TrainSettings, ckpt_dir: Path) -> Any:
    """TRL's SFTConfig or GRPOConfig for the settings (made first: it sets up the processes)."""
    kwargs = _trainer_args(settings, ckpt_dir)
    if settings.mode == "sft":
        from trl import SFTConfig

        if settings.form == "trajectory":
            kwargs["assistant_only_loss"] = True
            # TRL's default max_length (1024) would cut every conversation before its answer;
            # SmolLM2's context holds the exported rows (benchmarks/README.md, "EDGE rows for training").
            kwargs.setdefault("max_length", TRAJECTORY_MAX_LENGTH)
        return SFTConfig(**kwargs)
    from trl import GRPOConfig

    if settings.reward_weights is not None:
        kwargs["reward_weights"] = settings.reward_weights
    return GRPOConfig(**kwargs)


def _rows(data_dir: str | Path, settings: TrainSettings, tokenizer: Any) -> tuple[Any, Any, dict[str, Any]]:
    """The training rows, the tokenizer the trainer uses and the trainer's form-specific arguments."""
    from kopa_grpo import data

    if settings.mode == "sft":
        if settings.form == "trajectory":
            from kopa_grpo.training_template import use_training_template

            train = data.build(data_dir, "trajectory", tokenizer, settings.limit, settings.prompt)
            use_training_template(tokenizer)
            return train, tokenizer, {}
        return data.build(data_dir, "sft", tokenizer, settings.limit, settings.prompt), tokenizer, {}
    if settings.form == "episode":
        # Multi-turn: the model calls the tools itself; TRL parses its calls with the tokenizer's
        # response_template (see episode_tokenizer).
        from kopa_grpo import env

        env.use_backend(settings.backend)
        tokenizer = episode_tokenizer(tokenizer, settings.chat_template)
        train = data.build(data_dir, "episode", tokenizer, settings.limit, settings.prompt)
        # TRL awaits a coroutine reward function; its annotation names only synchronous ones
        episode_rewards: list[Any] = [env.episode_outcome_reward]
        return (
            train,
            tokenizer,
            {
                "environment_factory": env.environment_factories(train["environment"]),
                "reward_funcs": episode_rewards,
            },
        )
    from kopa_grpo.rewards import build_reward_funcs

    train = data.build(data_dir, "step", tokenizer, settings.limit, settings.prompt)
    return train, tokenizer, {"reward_funcs": build_reward_funcs(settings.rewards, settings.backend)}


def build_trainer(data_dir: str | Path, settings: TrainSettings, out: Path):
    """The trainer, its tokenizer, the model folder and the number of training rows.

    Under ``accelerate launch`` the main process of each machine goes first through the model folder
    and the rows (the local model's one-time conversion, datasets' cache files); the others then
    read what it wrote instead of writing the same files at once. The trainers are made by every
    process together: under ZeRO-3 loading the model partitions it (collectives).
    """
    from transformers import AutoTokenizer

    args = _trainer_config(settings, out / "checkpoints")
    with args.main_process_first(local=True, desc="model folder and training rows"):
        model_path = resolve_model(settings.model)
        tokenizer = AutoTokenizer.from_pretrained(model_path)
        train, tokenizer, extra = _rows(data_dir, settings, tokenizer)
    common = {
        "model": model_path,
        "args": args,
        "train_dataset": train,
        "processing_class": tokenizer,
        "peft_config": _peft_config(settings),
    }
    if settings.mode == "sft":
        from trl import SFTTrainer

        trainer: Any = SFTTrainer(**common, **extra)
    else:
        from trl import GRPOTrainer

        trainer = GRPOTrainer(**common, **extra)
    if settings.time_budget_minutes:
        trainer.add_callback(time_budget_callback(settings.time_budget_minutes))
    return trainer, tokenizer, model_path, len(train)


def write_curves(history: list[dict[str, Any]], out: Path) -> None:
    with (out / "metrics.jsonl").open("w", encoding="utf-8") as f:
        for row in history:
            f.write(json.dumps(row) + "\n")
    keys = sorted({k for row in history for k in row if "reward" in k and not k.endswith("/std")})
    if not keys:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k in keys:
        pts = [(r["step"], r[k]) for r in history if k in r and "step" in r]
        if pts:
            ax.plot(*zip(*pts, strict=True), marker="o", label=k)
    ax.set_xlabel("step")
    ax.set_ylabel("reward")
    ax.legend(fontsize=7)
    ax.set_title("GRPO rewards")
    fig.tight_layout()
    fig.savefig(out / "rewards.png", dpi=120)
    plt.close(fig)


def _reward_names(settings: TrainSettings) -> str:
    if settings.mode == "sft":
        return "(SFT: next-token loss on the assistant turns)"
    if settings.form == "episode":
        return "episode_outcome (binary outcome-and-state, KOPA-Bench grader)"
    return ", ".join(settings.rewards)


def write_card(
    out: Path,
    data_dir: str | Path,
    settings: TrainSettings,
    model_path: str,
    n_rows: int,
    stats: dict[str, Any],
) -> None:
    card = f"""# kopa-inspect {settings.mode.upper()} checkpoint

- base model: `{model_path}`
- data: EDGE dataset `{Path(data_dir).resolve()}` ({n_rows} training rows, form `{settings.form}`)
- rewards: {_reward_names(settings)}
- reward weights: {settings.reward_weights}
- prompt: {settings.prompt.model_dump()}
- LoRA: {settings.lora.model_dump() if settings.lora else None}
- trainer: `{json.dumps(settings.trainer)}`
- run: {json.dumps(stats)}

Evaluate: `inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path={(out / "merged").resolve()}`
"""
    (out / "merged").mkdir(parents=True, exist_ok=True)
    (out / "merged" / "README.md").write_text(card, encoding="utf-8")
    (out / "README.md").write_text(card, encoding="utf-8")


def deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``; nested dicts (trainer, prompt, lora) merge key by key."""
    out = dict(base)
    for k, v in over.items():
        out[k] = deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def load_run_settings(config: str | Path, overrides: dict[str, Any] | None = None) -> TrainSettings:
    """The YAML settings with ``overrides`` on top; the model is checked here, before anything loads."""
    settings = load_settings(config)
    if overrides:
        settings = TrainSettings.model_validate(deep_merge(settings.model_dump(), overrides))
    source = OPTION if overrides and "model" in overrides else f"the config {config}"
    check_model(settings.model, source)
    if uses_deepspeed(settings):
        from kopa_inspect._extras import require

        require(
            "gpu",
            "deepspeed",
            feature="training under DeepSpeed (accelerate-zero3.yaml or trainer.deepspeed)",
        )
    return settings


def uses_deepspeed(settings: TrainSettings) -> bool:
    """A DeepSpeed accelerate config (``accelerate launch`` exports it) or a ``trainer.deepspeed`` file."""
    return (
        bool(settings.trainer.get("deepspeed"))
        or os.environ.get("ACCELERATE_USE_DEEPSPEED", "false").lower() == "true"
    )


def is_main_process() -> bool:
    """After :func:`train`: whether this is the process that wrote the outputs (the only one that
    should print them)."""
    from accelerate import PartialState  # type: ignore[import-untyped]

    return PartialState().is_main_process


def _processes(accelerator: Any) -> dict[str, Any]:
    state = getattr(accelerator, "state", None)
    distributed = getattr(accelerator, "distributed_type", None)
    return {
        "processes": int(accelerator.num_processes),
        "distributed_type": getattr(distributed, "value", distributed),
        "backend": getattr(state, "backend", None),
    }


def _run_stats(
    trainer: Any,
    result: Any,
    start_step: int,
    resume_from: str | None,
    elapsed: float,
    peak_mb: float | None,
    delta: dict[str, float] | None,
) -> dict[str, Any]:
    history = trainer.state.log_history
    return {
        "train_seconds": round(elapsed, 1),
        **throughput(history, start_step, trainer.state.global_step, trainer.args, elapsed),
        "peak_rss_mb": peak_mb,
        "global_step": trainer.state.global_step,
        "start_step": start_step,
        "resumed_from": resume_from,
        "train_runtime": result.metrics.get("train_runtime"),
        "torch_threads": _torch_threads(),
        # training processes (accelerate launch); peak_rss_mb is the main process's
        **_processes(trainer.accelerator),
        **(delta or {}),
    }


def train(
    data_dir: str | Path,
    config: str | Path,
    out: str | Path,
    resume: bool = True,
    overrides: dict[str, Any] | None = None,
) -> Path:
    """Train, save adapter/ and merged/, write metrics and train_stats.json; returns merged/.

    ``overrides`` are merged into the YAML settings (nested dicts key by key), e.g.
    ``{"trainer": {"max_steps": 3}}``. Under ``accelerate launch`` every process calls this; the
    files under ``out`` are written once, by the main process (kopa_grpo.outputs), and every
    process returns only once they are there.
    """
    settings = load_run_settings(config, overrides)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if settings.torch_threads:
        import torch

        torch.set_num_threads(settings.torch_threads)
    trainer, tokenizer, model_path, n_rows = build_trainer(data_dir, settings, out)
    main_process = trainer.accelerator.is_main_process
    if main_process:
        (out / "config.json").write_text(settings.model_dump_json(indent=2), encoding="utf-8")
    resume_from = last_checkpoint(out / "checkpoints") if resume else None
    if resume_from:
        log.info("resuming from %s", resume_from)
    start_step = _checkpoint_step(resume_from)
    _reset_peak_rss()
    start = time.perf_counter()
    result = trainer.train(resume_from_checkpoint=resume_from)
    elapsed = time.perf_counter() - start
    peak_mb = _peak_rss_mb()
    delta = save_outputs(trainer, model_path, out)
    if main_process:
        write_curves(trainer.state.log_history, out)
        stats = _run_stats(trainer, result, start_step, resume_from, elapsed, peak_mb, delta)
        write_card(out, data_dir, settings, model_path, n_rows, stats)
        (out / "train_stats.json").write_text(
            json.dumps({**stats, "rows": n_rows}, indent=2), encoding="utf-8"
        )
    trainer.accelerator.wait_for_everyone()
    return out / MERGED


def run_overrides(
    *,
    model: str | None = None,
    max_steps: int | None = None,
    minutes: float | None = None,
    limit: int | None = None,
    threads: int | None = None,
    vllm_server: str | None = None,
    rows_file: str | None = None,
    test_percent: int | None = None,
) -> dict[str, Any]:
    """Command-line options as settings overrides (``kopa train`` and ``python -m kopa_grpo.train``)."""
    overrides: dict[str, Any] = {}
    trainer: dict[str, Any] = {}
    if model is not None:
        overrides["model"] = model
    if max_steps is not None:
        trainer["max_steps"] = max_steps
    if vllm_server is not None:
        trainer.update(use_vllm=True, vllm_mode="server", vllm_server_base_url=vllm_server)
    if trainer:
        overrides["trainer"] = trainer
    if minutes is not None:
        overrides["time_budget_minutes"] = minutes
    if limit is not None:
        overrides["limit"] = limit
    if threads is not None:
        overrides["torch_threads"] = threads
    prompt: dict[str, Any] = {}
    if rows_file is not None:
        prompt["rows_file"] = rows_file
    if test_percent is not None:
        prompt["test_percent"] = test_percent
    if prompt:
        overrides["prompt"] = prompt
    return overrides


def main() -> None:  # `python -m kopa_grpo.train`; `kopa train` takes the same options
    import argparse

    ap = argparse.ArgumentParser(description="GRPO/SFT on an EDGE dataset (see `kopa train --help`)")
    ap.add_argument("--data", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--model", help="model folder; overrides the config's `model:`")
    ap.add_argument("--max-steps", type=int)
    ap.add_argument("--minutes", type=float)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--vllm-server", help="base URL of a `trl vllm-serve` server (vllm_mode server)")
    ap.add_argument("--rows-file", help="train on these rows, in this order (kopa_grpo.signal writes one)")
    ap.add_argument("--test-percent", type=int, help="EDGE held-out share in percent (never trained on)")
    ap.add_argument("--no-resume", action="store_true")
    a = ap.parse_args()
    overrides = run_overrides(
        model=a.model,
        max_steps=a.max_steps,
        minutes=a.minutes,
        limit=a.limit,
        threads=a.threads,
        vllm_server=a.vllm_server,
        rows_file=a.rows_file,
        test_percent=a.test_percent,
    )
    merged = train(a.data, a.config, a.out, resume=not a.no_resume, overrides=overrides or None)
    if is_main_process():
        print(merged)


if __name__ == "__main__":
    main()
