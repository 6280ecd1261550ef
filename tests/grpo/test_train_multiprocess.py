"""``kopa train`` under ``accelerate launch`` with two CPU processes (gloo): one GRPO step of the
packaged SmolLM2 with LoRA, then the run's outputs are checked as a user would find them (slow).

accelerate's ``--cpu`` starts a single process unless given an MPI hostfile; the torchrun launcher
behind ``--multi_gpu`` starts the two, and with no GPU visible the trainer runs them on the CPU
(``use_cpu``), where accelerate joins them with gloo. Measured on the 2-core machine shared with other
jobs: 138 s for the two-process run (EDGE data and model preparation included), 132 s for the two
"machines" on loopback.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow

# One step, two prompts (one per process) x two completions of 8 tokens; prompts as cpu-smoke's.
TINY_RUN = {
    "mode": "grpo",
    "model": "local",
    "form": "step",
    "rewards": ["outcome", "format", "tool_name", "arguments"],
    "limit": 4,
    "prompt": {"profile": "cpu", "max_prompt_tokens": 1400, "max_rows": 4, "answer_share": 0.25},
    "lora": {"r": 4, "alpha": 8, "dropout": 0.0, "target_modules": ["q_proj", "v_proj"]},
    "torch_threads": 1,
    "trainer": {
        "max_steps": 1,
        "per_device_train_batch_size": 2,
        "num_generations": 2,
        "max_completion_length": 8,
        "learning_rate": 1.0e-3,
        "logging_steps": 1,
        "save_steps": 1,
        "gradient_checkpointing": False,
        "report_to": [],
    },
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_tiny_config(folder: Path) -> Path:
    config = folder / "tiny.yaml"
    config.write_text(yaml.safe_dump(TINY_RUN), encoding="utf-8")
    return config


def _launch_train(
    accelerate_options: list[str], data: Path, config: Path, out: Path, model: Path
) -> list[str]:
    """``accelerate launch <options> -m kopa_inspect.cli train`` on the tiny run, in full precision."""
    return [
        sys.executable,
        "-m",
        "accelerate.commands.accelerate_cli",
        "launch",
        *accelerate_options,
        "--mixed_precision",
        "no",
        "-m",
        "kopa_inspect.cli",
        "train",
        "--data",
        str(data),
        "--config",
        str(config),
        "--out",
        str(out),
        "--model",
        str(model),
    ]


def _cpu_only_env() -> dict[str, str]:
    """No GPU visible (the trainer falls back to the CPU and gloo), one thread, no hub."""
    return {
        **os.environ,
        "CUDA_VISIBLE_DEVICES": "",
        "OMP_NUM_THREADS": "1",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }


@pytest.fixture(scope="module")
def launched(local_model: Path, edge_data: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("launch")
    config = _write_tiny_config(tmp)
    out = tmp / "out"
    options = ["--multi_gpu", "--num_processes", "2", "--num_machines", "1", "--dynamo_backend", "no"]
    options += ["--main_process_port", str(_free_port())]
    command = _launch_train(options, edge_data, config, out, local_model)
    env = _cpu_only_env()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    return out, done.stdout


def test_two_processes_write_one_run(launched) -> None:
    out, stdout = launched
    # one report, from the main process only
    assert stdout.count("merged checkpoint:") == 1 and stdout.count("stats:") == 1, stdout
    # each output once, nothing a second rank would add (a rank-suffixed file, a second merged folder)
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "adapter",
        "checkpoints",
        "config.json",
        "merged",
        "metrics.jsonl",
        "rewards.png",
        "train_stats.json",
    ]
    assert sorted(p.name for p in (out / "checkpoints").iterdir() if p.is_dir()) == ["checkpoint-1"]
    assert (out / "adapter" / "adapter_model.safetensors").is_file()
    assert sorted(p.name for p in (out / "merged").glob("*.safetensors")) == ["model.safetensors"]
    stats = json.loads((out / "train_stats.json").read_text())
    assert stats["processes"] == 2 and stats["distributed_type"] == "MULTI_CPU" and stats["backend"] == "gloo"
    assert stats["global_step"] == 1 and stats["completions"] == 4  # 2 processes x 2 completions
    assert "lora_delta_norm" in stats
    assert len((out / "metrics.jsonl").read_text().splitlines()) == 2  # the step's log + the summary


def test_merged_is_the_base_with_the_saved_adapter(launched, local_model: Path) -> None:
    """merged/ loads as a plain model and is exactly base + adapter/ merged (nothing a rank's
    partial state could have changed)."""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out, _ = launched
    merged = AutoModelForCausalLM.from_pretrained(out / "merged")
    assert not any("lora" in name for name in merged.state_dict())
    assert merged.config.use_cache is True
    want = (
        PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(local_model), str(out / "adapter"))
        .merge_and_unload()
        .state_dict()
    )
    got = merged.state_dict()
    assert set(got) == set(want)
    assert all(torch.equal(got[k], want[k]) for k in want)
    tokenizer = AutoTokenizer.from_pretrained(out / "merged")
    with torch.no_grad():
        logits = merged(**tokenizer("서울의 날씨", return_tensors="pt")).logits
    assert torch.isfinite(logits).all()


def test_two_machines_on_loopback_write_one_run(local_model: Path, edge_data: Path, tmp_path: Path) -> None:
    """The README's several-machines command, as two "machines" on this one (one process each,
    machine_rank 0 and 1, the first one's address): machine 0 reports and writes OUT, machine 1
    trains beside it and writes nothing."""
    root = Path(__file__).resolve().parents[2]
    config = _write_tiny_config(tmp_path)
    out = tmp_path / "out"
    port = str(_free_port())
    env = _cpu_only_env()

    def launch(rank: int, stack: contextlib.ExitStack) -> subprocess.Popen:
        options = [
            "--config_file",
            str(root / "src" / "kopa_grpo" / "configs" / "accelerate-multi-gpu.yaml"),
            "--num_machines",
            "2",
            "--num_processes",
            "2",
            "--machine_rank",
            str(rank),
            "--main_process_ip",
            "127.0.0.1",
            "--main_process_port",
            port,
        ]
        return subprocess.Popen(
            _launch_train(options, edge_data, config, out, local_model),
            env=env,
            stdout=stack.enter_context((tmp_path / f"machine{rank}.out").open("w")),
            stderr=stack.enter_context((tmp_path / f"machine{rank}.err").open("w")),
        )

    with contextlib.ExitStack() as stack:
        machines = [launch(rank, stack) for rank in (0, 1)]
        codes = [machine.wait(timeout=1200) for machine in machines]
    for rank, code in enumerate(codes):
        assert code == 0, (tmp_path / f"machine{rank}.err").read_text()[-6000:]
    reports = [(tmp_path / f"machine{rank}.out").read_text().count("merged checkpoint:") for rank in (0, 1)]
    assert reports == [1, 0]
    stats = json.loads((out / "train_stats.json").read_text())
    assert stats["processes"] == 2 and stats["backend"] == "gloo" and stats["global_step"] == 1
    assert sorted(p.name for p in (out / "merged").glob("*.safetensors")) == ["model.safetensors"]
