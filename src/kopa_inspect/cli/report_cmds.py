"""``kopa grid`` and ``kopa report``: model grids and the paper's tables from Inspect logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def register(app: typer.Typer) -> None:
    @app.command("grid")
    def grid_cmd(
        grid_file: Path = typer.Argument(..., help="grid YAML, or a built-in: paper.yaml, cpu.yaml"),
        log_dir: str = typer.Option(None, "--log-dir", help="override the grid's log_dir"),
        limit: int = typer.Option(None, "--limit", help="run only the first N tasks per model"),
        epochs: int = typer.Option(None, "--epochs", help="override the grid's epochs (all models)"),
        only: list[str] = typer.Option(None, "--only", help="run only this label (repeatable)"),
        max_samples: int = typer.Option(None, "--max-samples", help="samples run concurrently per model"),
        display: str = typer.Option(None, "--display", help="Inspect display: full, rich, plain, none"),
    ) -> None:
        """Run KOPA-Bench over every model of a grid (resumable: finished entries are not rerun)."""
        from kopa_inspect._extras import MissingExtra

        try:
            from kopa_inspect.report.grid import load_grid, run_grid

            grid = load_grid(grid_file)
        except (FileNotFoundError, ValueError, MissingExtra) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if limit is not None:
            grid.limit = limit
        if epochs is not None:
            grid.epochs = epochs
            for m in grid.models:
                m.epochs = None
        extra: dict[str, Any] = {}
        if max_samples is not None:
            extra["max_samples"] = max_samples
        if display is not None:
            extra["display"] = display
        try:
            runs = run_grid(grid, log_dir, only=only or None, **extra)
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        for r in runs:
            if r.skipped:
                state = f"SKIPPED ({r.skipped})"
            else:
                state = "done (reused, not rerun)" if r.reused else ("done" if r.success else "INCOMPLETE")
            typer.echo(f"{r.label}: {state} -> {r.log_dir}")
        typer.echo(f"next: kopa report --log-dir {log_dir or grid.log_dir}")
        raise typer.Exit(0 if all(r.success for r in runs) else 1)

    @app.command("report")
    def report_cmd(
        log_dir: Path = typer.Option(..., "--log-dir", help="folder of Inspect logs (searched recursively)"),
        out: Path = typer.Option(
            Path("results/report"), "--out", help="where report.md, report.tex, CSVs and PNGs go"
        ),
        k: int = typer.Option(4, "--k", min=1, help="k of pass@k (1: pass@1 only)"),
        print_: bool = typer.Option(False, "--print", help="print the headline, benchmarks and axes tables"),
    ) -> None:
        """Tables (Markdown + LaTeX + CSV) and figures (PNG) from Inspect logs: KOPA-Bench, BFCL beside it."""
        from kopa_inspect._extras import MissingExtra

        try:
            from kopa_inspect.report.write import make_report

            rep = make_report(log_dir, out, k)
        except (FileNotFoundError, ValueError, MissingExtra) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if print_:
            for name in ("headline", "benchmarks", "axes"):
                typer.echo(f"\n{name}\n")
                typer.echo(rep.tables[name].to_markdown(index=False, floatfmt=".4f"))
        for note in rep.notes:
            typer.echo(f"note: {note}")
        typer.echo(f"report written to {out / 'report.md'}")
