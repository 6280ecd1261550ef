"""``kopa train`` beyond one process: the model option, its errors, the gpu extra, the launch
configs and help, and which process writes the run's outputs.

The output tests run :func:`kopa_grpo.train.train` with the trainer replaced by a stand-in around a
real (tiny) PEFT LoRA model, as each rank of ``accelerate launch`` would see it: a non-main rank
must write nothing, the main rank each output once, and under ZeRO-3 (each rank's parameters are
empty shards) the merge must come from the gathered adapter ``save_model`` wrote. The real
two-process run is tests/grpo/test_train_multiprocess.py (slow).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from kopa_inspect.cli import app

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "src" / "kopa_grpo" / "configs"


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.setenv(var, "1")
    monkeypatch.delenv("ACCELERATE_USE_DEEPSPEED", raising=False)


def _invoke(*args: str):
    return CliRunner().invoke(app, ["train", *args])


# --- the model: --model and a clear error --------------------------------------------------------


def test_config_model_missing_is_one_line_naming_the_option(tmp_path: Path) -> None:
    """gpu-single names a folder this machine lacks: one line that says how to set the model, not
    Hugging Face's "Repo id must be in the form ..." after loading started."""
    result = _invoke("--data", str(tmp_path), "--config", "gpu-single", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert message.startswith("error: model '/models/Qwen3.5-9B'") and len(message.splitlines()) == 1
    assert "--model" in message and "`model:`" in message and "gpu-single" in message
    assert "Repo id" not in message and not (tmp_path / "out").exists()


@pytest.mark.parametrize("given", ["/no/such/model", "Qwen/Qwen3-8B", "."])
def test_model_option_missing_is_one_line(tmp_path: Path, given: str) -> None:
    result = _invoke(
        "--data", str(tmp_path), "--config", "cpu-smoke", "--out", str(tmp_path / "out"), "--model", given
    )
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and "(from --model)" in message, message
    assert "Repo id" not in message and not (tmp_path / "out").exists()


def _model_folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text("{}", encoding="utf-8")
    return path


def test_model_option_overrides_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kopa_grpo import train as train_module

    folder = _model_folder(tmp_path / "my-model")
    seen: dict[str, Any] = {}

    def fake_train(data, config, out, resume=True, overrides=None):
        seen.update(config=config, settings=train_module.load_run_settings(config, overrides))
        Path(out).mkdir(parents=True)
        (Path(out) / "train_stats.json").write_text("{}", encoding="utf-8")
        return Path(out) / "merged"

    monkeypatch.setattr(train_module, "train", fake_train)
    result = _invoke(
        "--data",
        str(tmp_path),
        "--config",
        "gpu-single",
        "--out",
        str(tmp_path / "out"),
        "--model",
        str(folder),
    )
    assert result.exit_code == 0, result.output
    assert seen["config"] == "gpu-single" and seen["settings"].model == str(folder)
    assert result.output.count("merged checkpoint:") == 1


def test_check_model_accepts_local_and_model_folders(tmp_path: Path) -> None:
    from kopa_grpo.model_source import ModelNotFound, check_model

    check_model("local")
    check_model(str(_model_folder(tmp_path / "m")))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelNotFound, match="without config.json"):
        check_model(str(tmp_path / "empty"), "--model")


def test_deepspeed_launch_without_deepspeed_names_the_gpu_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``accelerate launch`` with accelerate-zero3.yaml exports ACCELERATE_USE_DEEPSPEED=true."""
    import importlib.util

    if importlib.util.find_spec("deepspeed") is not None:
        pytest.skip("deepspeed is installed here")
    monkeypatch.setenv("ACCELERATE_USE_DEEPSPEED", "true")
    result = _invoke("--data", str(tmp_path), "--config", "cpu-smoke", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "deepspeed" in result.output and "kopa-inspect[gpu]" in result.output


# --- the gpu extra, the launch configs, the help -------------------------------------------------


def _extras() -> dict[str, list[str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]


def test_gpu_extra_brings_deepspeed_and_keeps_torch_pinned() -> None:
    extras = _extras()
    gpu = extras["gpu"]
    assert any(req.replace(" ", "").startswith("deepspeed>=") for req in gpu), gpu
    assert any(req.startswith("kopa-inspect[") and "train" in req for req in gpu), gpu
    torch_pins = {req for reqs in extras.values() for req in reqs if req.startswith("torch")}
    assert torch_pins == {"torch==2.13.0"}


def test_zero3_config_names_the_extra_that_installs_deepspeed() -> None:
    from accelerate.commands.config.config_args import load_config_from_file

    path = CONFIGS / "accelerate-zero3.yaml"
    config = load_config_from_file(str(path))
    assert config.distributed_type == "DEEPSPEED"
    assert config.deepspeed_config["zero_stage"] == 3
    # Trainer.save_model gathers the shards only with 16-bit saving on (kopa_grpo.outputs)
    assert config.deepspeed_config["zero3_save_16bit_model"] is True
    # every machine runs `accelerate launch` (the help's multi-node command), not pdsh from one
    assert config.deepspeed_config["deepspeed_multinode_launcher"] == "standard"
    assert "kopa-inspect[gpu]" in path.read_text(encoding="utf-8")


def test_multi_gpu_config_loads() -> None:
    from accelerate.commands.config.config_args import load_config_from_file

    config = load_config_from_file(str(CONFIGS / "accelerate-multi-gpu.yaml"))
    assert config.distributed_type == "MULTI_GPU" and config.num_machines == 1


def test_help_documents_every_way_to_run() -> None:
    result = CliRunner().invoke(app, ["train", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for needed in (
        "accelerate launch",
        "-m kopa_inspect.cli train",
        "--num_machines",
        "--machine_rank",
        "--main_process_ip",
        "trl vllm-serve",
        "vllm_mode colocate",
        "vllm_mode server",
        "--vllm-server",
        "--model",
        "kopa-inspect[gpu]",
    ):
        assert needed in text, needed
    for path in (
        "src/kopa_grpo/configs/accelerate-multi-gpu.yaml",
        "src/kopa_grpo/configs/accelerate-zero3.yaml",
    ):
        assert path in text and (ROOT / path).is_file()


def test_vllm_server_option_sets_trls_server_mode() -> None:
    from trl import GRPOConfig

    from kopa_grpo.train import run_overrides

    trainer = run_overrides(vllm_server="http://127.0.0.1:8000", max_steps=3)["trainer"]
    assert trainer == {
        "max_steps": 3,
        "use_vllm": True,
        "vllm_mode": "server",
        "vllm_server_base_url": "http://127.0.0.1:8000",
    }
    fields = GRPOConfig.__dataclass_fields__
    assert all(key in fields for key in trainer)


# --- who writes the outputs ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-layer Llama with a word-level tokenizer: a real model folder in a fraction of a second."""
    import torch
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-base")
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=32,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    vocab = {"[UNK]": 0, "[PAD]": 1, **{f"w{i}": i + 2 for i in range(30)}}
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(WordLevel(vocab, unk_token="[UNK]")), unk_token="[UNK]", pad_token="[PAD]"
    )
    tokenizer.save_pretrained(folder)
    return folder


class FakeAccelerator:
    def __init__(self, main: bool) -> None:
        self.is_main_process = main
        self.num_processes = 2
        self.barriers = 0

    def unwrap_model(self, model: Any) -> Any:
        return model

    def wait_for_everyone(self) -> None:
        self.barriers += 1


class RankTrainer:
    """What ``train()`` uses of a TRL trainer, on one rank of a two-process run.

    ``train()`` moves the LoRA B matrices (so the update is not zero). With ``zero3``, every
    parameter then becomes an empty shard, as DeepSpeed ZeRO-3 leaves them on a rank, and
    ``save_model`` writes the gathered adapter (what Trainer.save_model writes from the consolidated
    16-bit state dict), on the main rank only, as Trainer does.
    """

    def __init__(self, base: Path, main: bool, zero3: bool = False) -> None:
        import torch
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM

        torch.manual_seed(1)
        self.model = get_peft_model(
            AutoModelForCausalLM.from_pretrained(base),
            LoraConfig(
                r=2,
                lora_alpha=4,
                target_modules=["q_proj", "v_proj"],
                lora_dropout=0.0,
                task_type="CAUSAL_LM",
            ),
        )
        self.accelerator = FakeAccelerator(main)
        self.zero3 = zero3
        self.gathered: dict[str, Any] = {}
        self.saved_to: list[str] = []
        self.args = SimpleNamespace(
            per_device_train_batch_size=1, gradient_accumulation_steps=1, world_size=2
        )
        self.state = SimpleNamespace(global_step=0, log_history=[])

    def train(self, resume_from_checkpoint: str | None = None) -> Any:
        import torch

        with torch.no_grad():
            for name, param in self.model.named_parameters():
                if "lora_B" in name:
                    param.add_(0.1 * torch.randn_like(param))
        # DeepSpeed's consolidated state dict of the trainable parameters (Trainer.save_model with
        # PEFT under ZeRO-3): the adapter's full weights under the model's own parameter names
        self.gathered = {k: v.clone() for k, v in self.model.state_dict().items() if "lora_" in k}
        if self.zero3:
            for param in self.model.parameters():
                param.data = torch.empty(0)
        self.state = SimpleNamespace(
            global_step=1, log_history=[{"step": 1, "loss": 0.5, "num_tokens": 12.0}, {"train_runtime": 0.1}]
        )
        return SimpleNamespace(metrics={"train_runtime": 0.1})

    def save_model(self, output_dir: str) -> None:
        self.saved_to.append(output_dir)
        if self.accelerator.is_main_process:
            self.model.save_pretrained(output_dir, state_dict=self.gathered)


def _run_rank(
    tmp_path: Path, base: Path, monkeypatch: pytest.MonkeyPatch, *, main: bool, zero3: bool = False
) -> tuple[RankTrainer, Path]:
    from kopa_grpo import train as train_module

    trainer = RankTrainer(base, main, zero3)
    monkeypatch.setattr(
        train_module, "build_trainer", lambda data_dir, settings, out: (trainer, None, str(base), 3)
    )
    config = tmp_path / "run.yaml"
    config.write_text(yaml.safe_dump({"model": str(base), "trainer": {"max_steps": 1}}), encoding="utf-8")
    out = tmp_path / "out"
    merged = train_module.train(tmp_path, config, out)
    assert merged == out / "merged"
    return trainer, out


def test_other_ranks_write_nothing_but_join_the_save_and_wait(
    tiny_base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trainer, out = _run_rank(tmp_path, tiny_base, monkeypatch, main=False)
    assert sorted(p.name for p in out.iterdir()) == []
    # save_model is a collective under ZeRO-3: every rank calls it
    assert trainer.saved_to == [str(out / "adapter")]
    # and returns only after the main rank has written merged/ and the stats
    assert trainer.accelerator.barriers >= 2


def _expected_merge(base: Path, gathered: dict[str, Any], name: str) -> Any:
    """W + (alpha / r) * B @ A for one adapted projection, from the gathered adapter."""
    from safetensors.torch import load_file

    weight = load_file(str(base / "model.safetensors"))[f"model.layers.0.self_attn.{name}.weight"]
    prefix = f"base_model.model.model.layers.0.self_attn.{name}"
    lora_a, lora_b = gathered[f"{prefix}.lora_A.default.weight"], gathered[f"{prefix}.lora_B.default.weight"]
    return weight + (4 / 2) * lora_b @ lora_a


@pytest.mark.parametrize("zero3", [False, True], ids=["ddp", "zero3-shards"])
def test_main_rank_writes_each_output_once_merged_from_the_saved_adapter(
    tiny_base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zero3: bool
) -> None:
    import torch
    from safetensors.torch import load_file
    from transformers import AutoModelForCausalLM

    trainer, out = _run_rank(tmp_path, tiny_base, monkeypatch, main=True, zero3=zero3)
    assert trainer.saved_to == [str(out / "adapter")]
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "adapter",
        "config.json",
        "merged",
        "metrics.jsonl",
        "train_stats.json",
    ]
    merged = load_file(str(out / "merged" / "model.safetensors"))
    for name in ("q_proj", "v_proj"):
        want = _expected_merge(tiny_base, trainer.gathered, name)
        got = merged[f"model.layers.0.self_attn.{name}.weight"]
        assert torch.allclose(got, want, atol=1e-6), name
        assert not torch.allclose(
            got, load_file(str(tiny_base / "model.safetensors"))[f"model.layers.0.self_attn.{name}.weight"]
        )
    assert not any("lora" in key for key in merged)
    model = AutoModelForCausalLM.from_pretrained(out / "merged")
    assert model.config.use_cache is True
    stats = json.loads((out / "train_stats.json").read_text())
    assert stats["processes"] == 2 and stats["global_step"] == 1
    assert stats["lora_delta_norm"] > 0 and stats["lora_delta_relative"] > 0
    assert (out / "merged" / "tokenizer.json").exists()


# --- the README section's commands ---------------------------------------------------------------

README_SECTION = "## Training on GPUs: one, several, several machines"


def _readme_commands() -> list[list[str]]:
    """The shell commands of the README's GPU training section (continuations joined, comments and
    environment assignments dropped)."""
    import shlex

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(README_SECTION, 1)[1].split("\n## ", 1)[0]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            tokens = shlex.split(line)
            commands.append([t for t in tokens if not (t.split("=", 1)[0].isupper() and "=" in t)])
    return commands


def _kopa_train_options() -> set[str]:
    import typer.main

    command = typer.main.get_command(app).commands["train"]  # type: ignore[attr-defined]
    return {opt for param in command.params for opt in [*param.opts, *param.secondary_opts]}


def _check_train_args(args: list[str]) -> None:
    options = _kopa_train_options()
    flags = [a for a in args if a.startswith("--")]
    assert flags and set(flags) <= options, set(flags) - options
    config = args[args.index("--config") + 1]
    assert (CONFIGS / f"{config}.yaml").is_file(), config


def test_readme_gpu_commands_parse_as_written() -> None:
    """Every command parses with the parser that will read it: accelerate launch's (its config file
    exists), kopa train's options, and TRL's `trl vllm-serve`."""
    from accelerate.commands.launch import launch_command_parser
    from trl.scripts.vllm_serve import make_parser

    commands = _readme_commands()
    kinds = []
    for command in commands:
        if command[:2] == ["kopa", "train"]:
            _check_train_args(command[2:])
        elif command[:2] == ["accelerate", "launch"]:
            launch = launch_command_parser().parse_args(command[2:])
            assert (ROOT / launch.config_file).is_file() and launch.module
            assert launch.training_script == "kopa_inspect.cli" and launch.training_script_args[0] == "train"
            _check_train_args(launch.training_script_args[1:])
        elif command[:2] == ["trl", "vllm-serve"]:
            make_parser().parse_args_into_dataclasses(command[2:])
        else:
            raise AssertionError(f"unexpected command in the README section: {command}")
        kinds.append(command[0])
    assert kinds.count("accelerate") == 3 and kinds.count("kopa") == 1 and kinds.count("trl") == 1
    multi_node = next(c for c in commands if "--num_machines" in c)
    assert {"--machine_rank", "--main_process_ip", "--main_process_port"} <= set(multi_node)
    assert any("--vllm-server" in c for c in commands)


def test_time_budget_stops_and_saves_once_spent() -> None:
    """Every rank follows the main process's clock (a broadcast; one process here)."""
    from transformers import TrainerControl

    from kopa_grpo.train import time_budget_callback

    spent = time_budget_callback(0.0).on_step_end(None, None, TrainerControl())
    assert spent.should_training_stop and spent.should_save
    left = time_budget_callback(60.0).on_step_end(None, None, TrainerControl())
    assert not left.should_training_stop and not left.should_save


def test_merge_without_a_saved_adapter_says_how_to_save_one(tiny_base: Path, tmp_path: Path) -> None:
    from kopa_grpo.outputs import merge_saved_adapter

    with pytest.raises(FileNotFoundError, match="zero3_save_16bit_model"):
        merge_saved_adapter(str(tiny_base), tmp_path / "adapter", tmp_path / "merged", None)
