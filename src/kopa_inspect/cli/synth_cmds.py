"""``kopa synth``: EDGE trajectory synthesis into a Hugging Face dataset (see src/edge_synth/README.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("synth")
    def synth(
        out: Annotated[str, typer.Option(help="Output directory (graph/, chunks/, dataset/, report/).")],
        n: Annotated[int, typer.Option(help="Trajectories to keep.")] = 1000,
        seed: Annotated[int, typer.Option(help="Seed of the world and of every sampling decision.")] = 0,
        clock: Annotated[str | None, typer.Option(help="World clock (ISO-8601, KST if naive).")] = None,
        model: Annotated[
            str | None,
            typer.Option(
                help="Inspect model (e.g. openai/gpt-4o, hf/...) to write queries and answers; templates if omitted."
            ),
        ] = None,
        workers: Annotated[int, typer.Option(help="Processes for the synthesis stage.")] = 1,
        shard: Annotated[
            str, typer.Option(help="i/n: compute chunks k with k %% n == i (shards merge in one OUT).")
        ] = "0/1",
        resume: Annotated[
            bool,
            typer.Option(
                "--resume/--fresh", help="Reuse the graph and finished chunks in OUT (default) or start over."
            ),
        ] = True,
        rounds: Annotated[
            int, typer.Option(help="Bandit rounds of execution grounding (1-100; the paper: 100).")
        ] = 30,
        paths: Annotated[
            int, typer.Option(help="Paths executed per bandit round (1-500; the paper: 500).")
        ] = 80,
        chunk_size: Annotated[int, typer.Option(help="Candidate trajectories per checkpoint chunk.")] = 50,
        backend: Annotated[str, typer.Option(help="embedded | served | live | replay.")] = "embedded",
        base_url: Annotated[str | None, typer.Option(help="served: the emulator's base URL.")] = None,
        include_held_out: Annotated[
            bool, typer.Option(help="Also sample KOPA-Bench's held-out platforms.")
        ] = False,
        bench_links: Annotated[
            bool,
            typer.Option(
                "--avoid-bench-links/--allow-bench-links",
                help="Exclude KOPA-Bench gold-plan links from sampling (default: allowed; the content contamination filter drops near-copies).",
            ),
        ] = False,
        bench: Annotated[
            str | None,
            typer.Option(help="KOPA-Bench JSONL for the contamination check (default: the packaged one)."),
        ] = None,
        test_fraction: Annotated[
            float, typer.Option(help="Save a DatasetDict with this share in a test split.")
        ] = 0.0,
    ) -> None:
        """Synthesize execution-verified multi-step tool-calling trajectories (EDGE)."""
        import shutil
        from pathlib import Path

        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskID,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.table import Table

        from kopa_inspect._extras import require_cli

        require_cli("edge", "datasets", feature="kopa synth")
        from edge_synth.pipeline import RunMismatch, SynthConfig, run
        from edge_synth.verify import GroundingConfig
        from kopa_inspect.backends import BackendConfig

        try:
            si, sn = (int(x) for x in shard.split("/"))
            assert 0 <= si < sn
        except (ValueError, AssertionError):
            raise typer.BadParameter("--shard must be i/n with 0 <= i < n") from None
        try:
            grounding = GroundingConfig(rounds=rounds, paths_per_round=paths)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None
        if not resume and Path(out).exists():
            shutil.rmtree(out)
        cfg = SynthConfig(
            out=out,
            n=n,
            seed=seed,
            clock=clock,
            model=model,
            workers=workers,
            shard=(si, sn),
            chunk_size=chunk_size,
            backend=BackendConfig(kind=backend, base_url=base_url, seed=seed),
            grounding=grounding,
            include_held_out=include_held_out,
            bench_path=bench,
            avoid_bench_links=bench_links,
            test_fraction=test_fraction,
        )
        console = Console(stderr=True)
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[info]}"),
            console=console,
        ) as prog:
            tasks: dict[str, TaskID] = {}

            def progress(stage: str, done: int, total: int, info: dict) -> None:
                if stage not in tasks:
                    label = "grounding links" if stage == "ground" else "trajectories"
                    tasks[stage] = prog.add_task(label, total=total, info="")
                text = (
                    f"verified {info.get('verified')} pruned {info.get('pruned')} success {info.get('success')}"
                    if stage == "ground"
                    else f"chunks {info.get('chunks')}"
                )
                prog.update(tasks[stage], completed=done, total=total, info=text)

            try:
                summary = run(cfg, progress)
            except RunMismatch as e:  # a resume that would mix two worlds: one clear line, exit 2
                raise typer.BadParameter(str(e)) from None
        g = summary["grounding"]
        table = Table(title="EDGE synthesis", show_header=False)
        table.add_row(
            "kept / target", f"{summary['n_kept']} / {summary['n_target']} (keep rate {summary['keep_rate']})"
        )
        table.add_row(
            "links", f"candidate {g['n_candidate']}, verified {g['n_verified']}, pruned {g['n_pruned']}"
        )
        table.add_row(
            "path success", f"held-out walks, first -> last round {g['first_round']} -> {g['last_round']}"
        )
        table.add_row(
            "pruned",
            f"{g['pruned_share']} of links (rejected by meaning before execution: {g['n_rejected_meaning']})",
        )
        table.add_row("knowable arguments", str(summary["argument_sources_kept"].get("knowable_share")))
        table.add_row("drops", json.dumps(summary["drops"], ensure_ascii=False))
        table.add_row("junctions", json.dumps(summary["junction_shares"]))
        table.add_row(
            "link Jaccard vs KOPA-Bench",
            f"{summary['link_jaccard_vs_bench_before_filter']} -> {summary['link_jaccard_vs_bench']}",
        )
        table.add_row("dataset", summary.get("dataset", "(incomplete: rerun with --resume)"))
        table.add_row("report", str(Path(out) / "report" / "report.md"))
        Console().print(table)
