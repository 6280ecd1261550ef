"""One TRL SFT step on exported EDGE rows with assistant-only loss (the local SmolLM2, CPU; slow).

A small EDGE run is exported here (small grounding budget, no retriever); its rows go through
kopa_grpo's trajectory form into SFTTrainer with ``assistant_only_loss=True`` and the training
template. The labels of the collated batch must be exactly the assistant turns' tokens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local_model() -> Path:
    pytest.importorskip("trl")
    from kopa_inspect.providers.local import gguf_path, prepare_local_model

    try:
        gguf_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    return prepare_local_model()


@pytest.fixture(scope="module")
def edge_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from edge_synth.pipeline import SynthConfig, run
    from edge_synth.verify import GroundingConfig

    out = tmp_path_factory.mktemp("edge")
    cfg = SynthConfig(out=str(out), n=6, seed=0, chunk_size=10, use_retriever=False,
                      grounding=GroundingConfig(rounds=4, paths_per_round=20, eval_paths=10))
    assert run(cfg)["n_kept"] >= 2
    return out / "dataset"


def test_one_sft_step_trains_on_the_assistant_turns_only(local_model: Path, edge_data: Path, tmp_path: Path) -> None:
    import torch
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from kopa_grpo import data
    from kopa_grpo.config import PromptSettings
    from kopa_grpo.training_template import use_training_template

    torch.set_num_threads(1)
    # Every trajectory (the split keeps ~90% for training; a small run may hold only a few).
    rows = data.build(edge_data, "trajectory", prompt=PromptSettings(test_percent=0))
    # The two shortest conversations: a CPU step over 2 x 3k tokens took minutes.
    train = rows.select(sorted(range(len(rows)), key=lambda i: len(str(rows[i]["messages"])))[:2])
    tok = use_training_template(AutoTokenizer.from_pretrained(str(local_model)))
    args = SFTConfig(output_dir=str(tmp_path / "ckpt"), max_steps=1, per_device_train_batch_size=1,
                     assistant_only_loss=True, max_length=None, use_cpu=True, bf16=False, report_to=[],
                     save_strategy="no", logging_steps=1, learning_rate=1e-5, gradient_checkpointing=False)
    trainer = SFTTrainer(model=str(local_model), args=args, train_dataset=train, processing_class=tok)
    batch = trainer.data_collator([trainer.train_dataset[i] for i in range(len(trainer.train_dataset))])
    for k, row in enumerate(train):
        ids, labels = batch["input_ids"][k], batch["labels"][k]
        n = int(batch["attention_mask"][k].sum()) if "attention_mask" in batch else len(ids)
        trained = tok.decode(ids[:n][labels[:n] != -100])
        expected = ""
        for m in row["messages"]:
            if m["role"] != "assistant":
                continue
            body = m["content"] if not m["tool_calls"] else "".join(
                f'\n<tool_call>\n{{"name": "{tc["function"]["name"]}", "arguments": {tc["function"]["arguments"]}}}'
                "\n</tool_call>" for tc in m["tool_calls"])
            expected += body + "<|im_end|>"
        assert trained == expected
        assert "<tool_response>" not in trained and row["messages"][1]["content"] not in trained
    result = trainer.train()
    assert result.global_step == 1 and torch.isfinite(torch.tensor(result.training_loss))
