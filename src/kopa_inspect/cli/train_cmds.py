"""``kopa train``: GRPO / SFT fine-tuning on EDGE data (TRL + PEFT)."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("train")
    def train_cmd(
        data: Path = typer.Option(..., "--data", help="EDGE dataset folder (from `kopa synth`)", exists=True),
        config: str = typer.Option("cpu-smoke", "--config", help="YAML file, or a built-in: cpu-smoke, cpu-30min, sft-cpu, gpu-single, gpu-multi"),
        out: Path = typer.Option(..., "--out", help="output folder: checkpoints/, adapter/, merged/, rewards.png"),
        resume: bool = typer.Option(True, "--resume/--no-resume", help="continue from the last checkpoint in OUT"),
    ) -> None:
        """Fine-tune with GRPO (or SFT) and write a checkpoint `inspect eval` can load."""
        from grpo.train import train

        merged = train(data, config, out, resume=resume)
        typer.echo(f"merged checkpoint: {merged}")
        typer.echo(f"evaluate: inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path={merged.resolve()}")
