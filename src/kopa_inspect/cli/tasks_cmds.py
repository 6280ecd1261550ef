"""``kopa tasks``: validate, list and summarize the KOPA-Bench task file."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

tasks_app = typer.Typer(
    help="KOPA-Bench tasks: validate, list, stats, scorer agreement.", no_args_is_help=True
)
_console = Console()

FileOpt = typer.Option(
    None, "--file", "-f", help="a tasks JSONL file (default: the packaged kopa_bench.jsonl)"
)


def _load(file: Path | None):
    from kopa_inspect.task_data.schema import load_tasks

    return load_tasks(file)


@tasks_app.command("validate")
def validate_cmd(
    file: Path | None = FileOpt,
    execute: bool = typer.Option(True, "--execute/--no-execute", help="run every gold plan on the emulator"),
    seed: int = typer.Option(0, help="world seed for the gold runs"),
    show_values: bool = typer.Option(False, "--show-values", help="print each fact's gold value"),
) -> None:
    """Parse every task, run every gold plan at its clock, resolve every fact, find duplicates."""
    from kopa_inspect.task_data.validate import validate_tasks

    tasks = _load(file)
    report = validate_tasks(tasks, execute=execute, seed=seed)
    for issue in report.issues:
        _console.print(
            f"[red]{issue.task_id}[/red] {issue.check}: {issue.message}", markup=True, highlight=False
        )
    if show_values:
        for tid, values in report.resolved.items():
            _console.print(tid, json.dumps(values, ensure_ascii=False)[:400], highlight=False)
    bad = len(report.by_task())
    _console.print(
        f"{report.n_tasks} tasks, {bad} with issues, {len(report.issues)} issues; "
        f"links consuming multi-record outputs: {report.multi_record_share:.1%} of {report.links_total}"
    )
    if not report.ok:
        raise typer.Exit(1)


@tasks_app.command("list")
def list_cmd(
    file: Path | None = FileOpt,
    category: str | None = typer.Option(None, help="only this category"),
    platform: str | None = typer.Option(None, help="only tasks using this platform"),
    held_out: bool | None = typer.Option(None, "--held-out/--in-dist", help="only one split"),
) -> None:
    """One line per task: id, category, platforms, calls, query."""
    table = Table("id", "category", "domain", "platforms", "calls", "par", "query")
    for t in _load(file):
        if category and t.category != category:
            continue
        if platform and platform not in t.platforms:
            continue
        if held_out is not None and t.held_out != held_out:
            continue
        table.add_row(
            t.id,
            t.category,
            t.domain,
            ",".join(t.platforms),
            str(t.n_calls),
            "Y" if t.parallel else "",
            t.query,
        )
    _console.print(table)


@tasks_app.command("stats")
def stats_cmd(
    file: Path | None = FileOpt,
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
    execute: bool = typer.Option(
        True, "--execute/--no-execute", help="run every gold plan for the multi-record link figures"
    ),
    seed: int = typer.Option(0, help="world seed for the gold runs"),
) -> None:
    """The benchmark's shape next to the paper's figures (calls per task, multi-record links,
    parallel share, tools offered and distractors, search recall, tasks per category), then
    counts per domain and platform."""
    from kopa_inspect.task_data.shape import shape_rows
    from kopa_inspect.task_data.validate import task_stats

    tasks = _load(file)
    try:
        rows = shape_rows(tasks, execute=execute, seed=seed)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    stats = task_stats(tasks)
    if as_json:
        doc = {"shape": [r.model_dump() for r in rows], "stats": stats}
        typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    table = Table(
        "figure", "KOPA-Bench (here)", "paper", title="KOPA-Bench shape vs the paper (arXiv 2609.05395)"
    )
    for r in rows:
        table.add_row(r.metric, r.value, r.paper)
    _console.print(table)
    for key in ("domains", "platforms", "difficulty", "held_out"):
        if key in stats:
            _console.print(f"{key}: {stats[key]}", highlight=False)


DEFAULT_CORPUS = Path("tests/data/answer_corpus")


def _rate(n: int, of: int) -> str:
    return f"{n}/{of} ({n / of:.1%})" if of else "-"


@tasks_app.command("agreement")
def agreement_cmd(
    corpus: Path = typer.Option(
        DEFAULT_CORPUS,
        "--corpus",
        "-c",
        help="a labelled answer corpus: a .jsonl file or a directory of them",
    ),
    file: Path | None = FileOpt,
    as_json: bool = typer.Option(False, "--json", help="print JSON (counts, rates, every disagreement)"),
    show: bool = typer.Option(
        True, "--show/--no-show", help="list each disagreement with the grader's reason"
    ),
) -> None:
    """How often the scorer agrees with the labelled answer corpus: false negatives (correct answers
    it fails) and false positives (wrong answers it passes), overall and per class of answer."""
    import asyncio

    from kopa_inspect.backends import BackendConfig
    from kopa_inspect.scorers.corpus import CorpusError, agreement, describe, grade_corpus, load_corpus
    from kopa_inspect.tools import shared_backend

    try:
        items = load_corpus(corpus)
    except CorpusError as exc:
        raise typer.BadParameter(str(exc)) from exc
    tasks = {t.id: t for t in _load(file)}

    async def run():
        return await grade_corpus(items, shared_backend(BackendConfig()), tasks)

    try:
        results = asyncio.run(run())
    except CorpusError as exc:
        raise typer.BadParameter(str(exc)) from exc
    if as_json:
        typer.echo(json.dumps(describe(results), ensure_ascii=False, indent=2))
        return
    total, per = agreement(results)
    table = Table(
        "class",
        "correct",
        "wrong",
        "false negatives",
        "false positives",
        title=f"Scorer agreement on {len(results)} labelled answers "
        f"({len({r.item.task for r in results})} tasks)",
    )
    for a in [*per, total]:
        table.add_row(
            a.kind,
            str(a.correct),
            str(a.wrong),
            _rate(len(a.false_negatives), a.correct),
            _rate(len(a.false_positives), a.wrong),
        )
    _console.print(table)
    if show:
        for r in results:
            if not r.agrees:
                why = "; ".join(r.grade.missing[:3]) or "passed"
                _console.print(
                    f"{r.item.id} [{r.item.label}/{r.item.kind}] grader: {why}", highlight=False, markup=False
                )


def register(app: typer.Typer) -> None:
    app.add_typer(tasks_app, name="tasks")
