"""A run's ``adapter/`` and ``merged/``, written right from any number of training processes.

Under ``accelerate launch`` every process runs :func:`kopa_grpo.train.train`. Writing the model from
each of them would race on one folder, and under DeepSpeed ZeRO-3 each process holds only its shard
of every parameter, so a merge of the in-memory model would merge shards. Here:

- every process calls ``trainer.save_model``: under ZeRO-3 it gathers the full weights (a
  collective that every rank must join) and it writes on the main process only (Trainer's
  ``should_save``); with LoRA that is the adapter, without it the whole model;
- the main process alone loads the base model again, applies the adapter that was written (the
  gathered weights, not its own shard), measures the update, merges and saves ``merged/``;
- every process waits at a barrier, so none goes on (or exits) before ``merged/`` exists.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ADAPTER = "adapter"
MERGED = "merged"


def lora_delta(model: Any) -> dict[str, float] | None:
    """How far training moved the weights: the Frobenius norm of every LoRA update (scale * B @ A),
    over all adapted layers together and relative to their base weights. An adapter whose B is still
    zero (LoRA's init) or whose update is tiny against W cannot change a greedy output."""
    import torch

    delta_sq = base_sq = 0.0
    worst = 0.0
    for module in model.modules():
        lora_a, lora_b = getattr(module, "lora_A", None), getattr(module, "lora_B", None)
        if not lora_a or not lora_b or not hasattr(module, "base_layer"):
            continue
        for name in lora_a:
            with torch.no_grad():
                a = lora_a[name].weight.float()
                b = lora_b[name].weight.float()
                d = (b @ a) * float(module.scaling[name])
                w = module.base_layer.weight.float()
                dn, wn = float(d.norm()), float(w.norm())
            delta_sq += dn**2
            base_sq += wn**2
            worst = max(worst, dn / wn if wn else 0.0)
    if base_sq == 0.0:
        return None
    return {
        "lora_delta_norm": delta_sq**0.5,
        "lora_delta_relative": (delta_sq / base_sq) ** 0.5,
        "lora_delta_relative_max_layer": worst,
    }


def is_lora(model: Any) -> bool:
    return hasattr(model, "peft_config")


def _dtype(model: Any) -> Any:
    """The dtype the run trained the base weights in (the merge keeps it)."""
    import torch

    return next((p.dtype for p in model.parameters()), torch.float32)


def merge_saved_adapter(
    model_path: str, adapter_dir: Path, merged_dir: Path, dtype: Any
) -> dict[str, float] | None:
    """Base + the saved adapter -> ``merged_dir``; returns the LoRA update's size (:func:`lora_delta`)."""
    from peft import PeftModel
    from trl.trainer.utils import create_model_from_path

    if not (adapter_dir / "adapter_config.json").is_file():
        # Trainer.save_model under ZeRO-3 without 16-bit gathering saves a DeepSpeed checkpoint instead
        raise FileNotFoundError(
            f"no adapter was saved in {adapter_dir}: under DeepSpeed ZeRO-3 set zero3_save_16bit_model: true "
            "(accelerate-zero3.yaml does) so Trainer.save_model gathers the adapter"
        )
    # On the CPU: the trained model may still fill the accelerator, and device_map="auto" would
    # spread the base over GPUs other ranks are using.
    base = create_model_from_path(model_path, dtype=dtype, device_map=None)
    model = PeftModel.from_pretrained(base, str(adapter_dir))
    delta = lora_delta(model)
    merged = model.merge_and_unload()
    _save_for_inference(merged, model_path, merged_dir)
    return delta


def _save_for_inference(model: Any, model_path: str, merged_dir: Path) -> None:
    from transformers import AutoTokenizer

    # SFTTrainer turns the KV cache off for training and the flag is saved with the model: a GRPO run
    # or an hf/ evaluation starting from this checkpoint then generated every token over the whole
    # prompt again (measured: one 4-completion GRPO step 449 s instead of ~30 s on this machine).
    model.config.use_cache = True
    model.save_pretrained(merged_dir)
    # The tokenizer as the base model ships it: the episode form swaps in TRL's Qwen2.5 template
    # for training, but Inspect's hf provider and vLLM should see the model's own tool template.
    AutoTokenizer.from_pretrained(model_path).save_pretrained(merged_dir)


def _finish_full_model(model_path: str, merged_dir: Path) -> None:
    """A run without LoRA: save_model wrote the whole model; turn the KV cache on, base tokenizer."""
    from transformers import AutoTokenizer

    config_file = merged_dir / "config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["use_cache"] = True
    config_file.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    AutoTokenizer.from_pretrained(model_path).save_pretrained(merged_dir)


def save_outputs(trainer: Any, model_path: str, out: Path) -> dict[str, float] | None:
    """Write ``out/adapter`` (LoRA) and ``out/merged`` from every process of a run (module docstring).

    Returns the LoRA update's size on the main process; None on the others and without LoRA.
    """
    accelerator = trainer.accelerator
    model = accelerator.unwrap_model(trainer.model)
    lora = is_lora(model)
    trainer.save_model(str(out / (ADAPTER if lora else MERGED)))
    delta = None
    if accelerator.is_main_process:
        if lora:
            delta = merge_saved_adapter(model_path, out / ADAPTER, out / MERGED, _dtype(model))
        else:
            _finish_full_model(model_path, out / MERGED)
    accelerator.wait_for_everyone()
    return delta
