"""``kopa train``: GRPO / SFT fine-tuning on EDGE data (TRL + PEFT)."""

from __future__ import annotations

from pathlib import Path

import typer

# Shown under `kopa train --help`; every paragraph is one line of the rendered help. The launch
# options are accelerate's, the vLLM ones TRL 1.16's GRPOConfig fields and `trl vllm-serve`.
TRAIN_HELP = """Fine-tune with GRPO (or SFT) and write a checkpoint `inspect eval` can load.

[bold]CPU or one GPU[/bold]: kopa train --data runs/edge/dataset --config gpu-single --model MODEL_DIR --out runs/grpo

[bold]Several GPUs[/bold] (one process per GPU; the same options after `-m kopa_inspect.cli train`): accelerate launch --config_file src/kopa_grpo/configs/accelerate-multi-gpu.yaml --num_processes 8 -m kopa_inspect.cli train --data runs/edge/dataset --config gpu-multi --model MODEL_DIR --out runs/grpo-9b

[bold]ZeRO-3[/bold] (a model too large to copy on every GPU; pip install 'kopa-inspect\\[gpu]' brings DeepSpeed): --config_file src/kopa_grpo/configs/accelerate-zero3.yaml instead.

[bold]Several machines[/bold]: the same accelerate launch on each machine with --num_machines 2 --num_processes 16 (all GPUs of all machines) --machine_rank 0 (1 on the second) --main_process_ip IP-OF-MACHINE-0 --main_process_port 29500. Every machine needs the model folder and the EDGE dataset at the same paths; OUT is written by the main process (machine 0), and a resumed run reads its checkpoints/ on every machine, so put OUT on a filesystem they share.

[bold]vLLM colocate[/bold] (the GPU configs): every training process runs its own vLLM on its GPU (trainer: use_vllm true, vllm_mode colocate, vllm_gpu_memory_utilization). The only mode the episode form's tool loop is safe in with several processes.

[bold]vLLM server[/bold]: CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model MODEL_DIR --port 8000, then CUDA_VISIBLE_DEVICES=1,2,3 accelerate launch --config_file src/kopa_grpo/configs/accelerate-multi-gpu.yaml --num_processes 3 -m kopa_inspect.cli train ... --vllm-server http://127.0.0.1:8000 (sets use_vllm true, vllm_mode server, vllm_server_base_url). Serve the same model as --model.

Without a GPU, use_vllm is dropped and TRL generates with transformers.
"""


def register(app: typer.Typer) -> None:
    @app.command("train", help=TRAIN_HELP)
    def train_cmd(
        data: Path = typer.Option(
            ..., "--data", help="EDGE dataset folder (OUT/dataset of `kopa synth`)", exists=True
        ),
        config: str = typer.Option(
            "cpu-smoke",
            "--config",
            help="YAML file, or a built-in: cpu-smoke, cpu-episode, grpo-cpu, sft-cpu, gpu-single, gpu-multi",
        ),
        out: Path = typer.Option(
            ..., "--out", help="output folder: checkpoints/, adapter/, merged/, rewards.png"
        ),
        model: str | None = typer.Option(
            None,
            "--model",
            help="model to train: a local Hugging Face folder (or `local`, the packaged SmolLM2); "
            "overrides the config's `model:`",
        ),
        resume: bool = typer.Option(
            True, "--resume/--no-resume", help="continue from the last checkpoint in OUT"
        ),
        max_steps: int | None = typer.Option(None, "--max-steps", help="override trainer.max_steps"),
        minutes: float | None = typer.Option(None, "--minutes", help="stop (and save) after this wall time"),
        limit: int | None = typer.Option(None, "--limit", help="use at most this many EDGE trajectories"),
        threads: int | None = typer.Option(
            None, "--threads", help="torch threads (1 is faster on a shared CPU)"
        ),
        vllm_server: str | None = typer.Option(
            None,
            "--vllm-server",
            help="generate on a `trl vllm-serve` server at this base URL (vllm_mode server) instead of the "
            "config's vLLM setting",
        ),
        rows_file: Path | None = typer.Option(
            None,
            "--rows-file",
            exists=True,
            help="train on the rows this JSON's step_ids name, in its order (`python -m kopa_grpo.signal` "
            "writes one: the rows whose sampled rewards differ)",
        ),
        test_percent: int | None = typer.Option(
            None, "--test-percent", help="EDGE held-out share in percent (never trained on)"
        ),
    ) -> None:
        from kopa_inspect._extras import MissingExtra, require_cli

        require_cli("train", "torch", "trl", "peft", "transformers", "datasets", feature="kopa train")
        from kopa_grpo.model_source import ModelNotFound
        from kopa_grpo.train import is_main_process, load_run_settings, run_overrides, train

        overrides = run_overrides(
            model=model,
            max_steps=max_steps,
            minutes=minutes,
            limit=limit,
            threads=threads,
            vllm_server=vllm_server,
            rows_file=str(rows_file) if rows_file else None,
            test_percent=test_percent,
        )
        try:
            load_run_settings(config, overrides or None)  # a missing model or extra: one line, before loading
        except (ModelNotFound, MissingExtra) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        merged = train(data, config, out, resume=resume, overrides=overrides or None)
        if not is_main_process():  # under accelerate launch: one process reports
            return
        typer.echo(f"merged checkpoint: {merged}")
        typer.echo(f"stats: {(out / 'train_stats.json').read_text()}")
        typer.echo(
            f"evaluate: inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path={merged.resolve()}"
        )
