"""One TRL SFT step on exported EDGE rows with assistant-only loss (the local SmolLM2, CPU; slow).

A small EDGE run (conftest.py's ``edge_data``) is exported; its rows go through
kopa_grpo's trajectory form into SFTTrainer with ``assistant_only_loss=True`` and the training
template. The labels of the collated batch must be exactly the assistant turns' tokens (checked on
the two shortest whole rows); the step trains on one of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def edge_rows() -> int:
    """Six questions, so the label check has rows to pick its two shortest whole ones from."""
    return 6


def _assistant_text(messages: list[dict]) -> str:
    """What the loss must cover: each assistant turn as the template writes it, end token included."""
    out = ""
    for m in messages:
        if m["role"] != "assistant":
            continue
        body = (
            m["content"]
            if not m["tool_calls"]
            else "".join(
                f'\n<tool_call>\n{{"name": "{tc["function"]["name"]}", "arguments": {tc["function"]["arguments"]}}}'
                "\n</tool_call>"
                for tc in m["tool_calls"]
            )
        )
        out += body + "<|im_end|>"
    return out


def test_one_sft_step_trains_on_the_assistant_turns_only(
    local_model: Path, edge_data: Path, tmp_path: Path
) -> None:
    import torch

    from kopa_grpo import data
    from kopa_grpo.config import PromptSettings, TrainSettings
    from kopa_grpo.train import build_trainer
    from kopa_grpo.training_template import training_chat_template

    torch.set_num_threads(1)
    # Every trajectory of the small run (the split would hold ~10% out), no LoRA: plain SFT.
    prompt = PromptSettings(test_percent=0)
    settings = TrainSettings(
        mode="sft",
        form="trajectory",
        model=str(local_model),
        lora=None,
        prompt=prompt,
        trainer={
            "max_steps": 1,
            "per_device_train_batch_size": 1,
            "max_length": None,
            "report_to": [],
            "save_strategy": "no",
            "learning_rate": 1e-5,
            "gradient_checkpointing": False,
        },
    )
    trainer, tok, _, n_rows = build_trainer(edge_data, settings, tmp_path)
    assert trainer.args.assistant_only_loss and tok.chat_template == training_chat_template()
    rows = data.build(edge_data, "trajectory", prompt=prompt)
    assert n_rows == len(rows) == len(trainer.train_dataset)
    # The two shortest conversations: a CPU step over 2 x 3k tokens took minutes.
    short = sorted(range(n_rows), key=lambda i: len(trainer.train_dataset[i]["input_ids"]))[:2]
    batch = trainer.data_collator([trainer.train_dataset[i] for i in short])
    for k, i in enumerate(short):
        ids, labels = batch["input_ids"][k], batch["labels"][k]
        trained = tok.decode(ids[labels != -100])
        assert trained == _assistant_text(rows[i]["messages"])
        assert "<tool_response>" not in trained and rows[i]["messages"][1]["content"] not in trained
    # The step itself on the shortest row up to the end of its first assistant turn (the whole
    # context that turn is trained in): a CPU step over the whole 3.5k-token row took ~2.5 minutes.
    mask = [label != -100 for label in trainer.train_dataset[short[0]]["labels"]]
    first = mask.index(True)
    end = first + (mask[first:].index(False) if False in mask[first:] else len(mask) - first)
    trainer.train_dataset = trainer.train_dataset.select(short[:1]).map(
        lambda r: {k: r[k][:end] for k in ("input_ids", "labels", "attention_mask") if k in r}
    )
    result = trainer.train()
    assert result.global_step == 1 and torch.isfinite(torch.tensor(result.training_loss))
