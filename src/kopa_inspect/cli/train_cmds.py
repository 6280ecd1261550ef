"""``kopa train``: GRPO / SFT fine-tuning on EDGE data (TRL + PEFT)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def register(app: typer.Typer) -> None:
    @app.command("train")
    def train_cmd(
        data: Path = typer.Option(..., "--data", help="EDGE dataset folder (OUT/dataset of `kopa synth`)", exists=True),
        config: str = typer.Option(
            "cpu-smoke", "--config",
            help="YAML file, or a built-in: cpu-smoke, cpu-episode, grpo-cpu, sft-cpu, gpu-single, gpu-multi"),
        out: Path = typer.Option(..., "--out", help="output folder: checkpoints/, adapter/, merged/, rewards.png"),
        resume: bool = typer.Option(True, "--resume/--no-resume", help="continue from the last checkpoint in OUT"),
        max_steps: int | None = typer.Option(None, "--max-steps", help="override trainer.max_steps"),
        minutes: float | None = typer.Option(None, "--minutes", help="stop (and save) after this wall time"),
        limit: int | None = typer.Option(None, "--limit", help="use at most this many EDGE trajectories"),
        threads: int | None = typer.Option(None, "--threads", help="torch threads (1 is faster on a shared CPU)"),
    ) -> None:
        """Fine-tune with GRPO (or SFT) and write a checkpoint `inspect eval` can load."""
        from kopa_inspect._extras import require_cli

        require_cli("train", "torch", "trl", "peft", "transformers", "datasets", feature="kopa train")
        from kopa_grpo.train import train

        overrides: dict[str, Any] = {}
        if max_steps is not None:
            overrides["trainer"] = {"max_steps": max_steps}
        if minutes is not None:
            overrides["time_budget_minutes"] = minutes
        if limit is not None:
            overrides["limit"] = limit
        if threads is not None:
            overrides["torch_threads"] = threads
        merged = train(data, config, out, resume=resume, overrides=overrides or None)
        typer.echo(f"merged checkpoint: {merged}")
        typer.echo(f"stats: {(out / 'train_stats.json').read_text()}")
        typer.echo(f"evaluate: inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path={merged.resolve()}")
