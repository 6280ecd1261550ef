"""``kopa grid`` and ``kopa report``: model grids and the paper's tables from Inspect logs."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("grid")
    def grid_cmd(
        grid_file: Path = typer.Argument(..., help="grid YAML, or a built-in: paper.yaml, cpu.yaml"),
        log_dir: str = typer.Option(None, "--log-dir", help="override the grid's log_dir"),
        limit: int = typer.Option(None, "--limit", help="run only the first N tasks per model"),
    ) -> None:
        """Run KOPA-Bench over every model of a grid (resumable: finished entries are not rerun)."""
        from kopa_inspect.report.grid import load_grid, run_grid

        grid = load_grid(grid_file)
        if limit is not None:
            grid.limit = limit
        ok = run_grid(grid, log_dir)
        raise typer.Exit(0 if ok else 1)

    @app.command("report")
    def report_cmd(
        log_dir: Path = typer.Option(..., "--log-dir", help="folder of Inspect logs (searched recursively)"),
        out: Path = typer.Option(Path("results/report"), "--out", help="where report.md, report.tex, CSVs and PNGs go"),
        k: int = typer.Option(4, "--k", help="k of pass@k"),
        print_: bool = typer.Option(False, "--print", help="print the headline and axes tables"),
    ) -> None:
        """Tables (Markdown + LaTeX) and figures (PNG) from Inspect logs: KOPA-Bench, with BFCL beside it."""
        from rich.console import Console

        from kopa_inspect.report.write import make_report

        try:
            rep = make_report(log_dir, out, k)
        except (FileNotFoundError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if print_:
            console = Console()
            for name in ("headline", "axes", "metrics"):
                console.print(f"\n[bold]{name}[/bold]")
                console.print(rep.tables[name].to_markdown(index=False, floatfmt=".4f"))
        typer.echo(f"report written to {out / 'report.md'}")
