"""Write a report folder: report.md, report.tex, one CSV per table, PNG figures, failures.csv.

The folder appears whole or not at all: everything is written into a temporary folder beside it,
then renamed into place (a rerun replaces the old report only once the new one is complete).
LaTeX goes through tabulate's latex_booktabs (report.latex), not ``DataFrame.to_latex``, which
needs jinja2.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from kopa_inspect._extras import MissingExtra
from kopa_inspect.report import latex, tables
from kopa_inspect.report.bfcl_summary import bfcl_summary
from kopa_inspect.report.errors import classify_frame, error_table
from kopa_inspect.report.figures import grouped_bars, headline_bars
from kopa_inspect.report.load import bfcl_samples, kopa_samples, load_samples

TITLES = {
    "headline": "KOPA-Bench: {metrics} (95% CIs over seeds and over tasks)",
    "benchmarks": "KOPA-Bench beside BFCL",
    "bfcl": "BFCL figures (BFCL's own category grouping and weights; 95% CIs over entries) and the paper's BFCL rows",
    "axes": "RESPONSE / ENVIRONMENT / ACTION axes (means over samples)",
    "metrics": "Per-sample metrics (means over samples)",
    "pass_hat_k": "pass^k (all k epochs succeed)",
    "held_out": "Held-out platforms vs seen platforms",
    "by_category": "Success rate by task category",
    "by_calls": "Success rate by number of required gold calls",
    "errors": "Failure kinds (one per failed sample, counted from the trajectories)",
    "paper_reference": "Paper figures (QUOTED from arXiv 2609.05395 via public summaries, NOT measured here)",
}


def title(name: str, k: int, columns: Iterable[object] = ()) -> str:
    """A table's title; it names pass@k only where the table has that column (k > 1 and some
    model ran k epochs)."""
    metrics = "pass@1" + (f" / pass@{k}" if k > 1 and f"pass@{k}" in {str(c) for c in columns} else "")
    return TITLES.get(name, name).format(k=k, metrics=metrics)


def _md(df: pd.DataFrame) -> str:
    if df.empty:
        return "_(no data)_"
    df = df.astype(object).where(df.notna(), None)  # NaN shows as "–", not "nan"
    return df.to_markdown(index=False, floatfmt=".4f", missingval="–")


@contextlib.contextmanager
def _atomic_dir(out: Path) -> Any:
    """A temporary folder beside ``out`` that replaces ``out`` only when the block succeeds."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        old.rmdir()
        out.rename(old)
    try:
        tmp.rename(out)
    except BaseException:
        if old is not None:
            old.rename(out)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def make_report(log_dir: str | Path, out: str | Path, k: int = 4) -> tables.Report:
    """Read every log under ``log_dir`` and write the report into ``out`` (whole, or not at all)."""
    final = Path(out)
    with _atomic_dir(final) as tmp:
        return _write(log_dir, final, tmp, k)


def _write(log_dir: str | Path, final: Path, out: Path, k: int) -> tables.Report:
    df = load_samples(log_dir)
    dropped = int(df.attrs.get("duplicates_dropped", 0))
    kopa = kopa_samples(df)
    bfcl = bfcl_samples(df, kopa)
    rep = tables.build(kopa, bfcl, k)
    rep.notes[:0] = df.attrs.get("setting_notes", [])
    rep.tables["errors"] = error_table(kopa)
    try:
        rep.tables["bfcl"] = bfcl_summary(bfcl)
    except MissingExtra as exc:  # BFCL's weighting is BFCL's code: without it, no BFCL figures
        rep.notes.append(f"BFCL figures left out: {exc}")
    # measured first, the paper's quoted figures right after the measured headline tables
    order = [n for n in ("headline", "benchmarks", "bfcl", "paper_reference") if n in rep.tables]
    rep.tables = {n: rep.tables[n] for n in order} | {n: t for n, t in rep.tables.items() if n not in order}
    classify_frame(kopa).to_csv(out / "failures.csv", index=False)

    figs = [
        headline_bars(rep.tables["headline"], k, out / "headline.png"),
        grouped_bars(
            rep.tables["by_category"],
            "category",
            "KOPA-Bench success by category",
            out / "by_category.png",
            tables.by_column_intervals(kopa, "metadata_category", "category"),
        ),
        grouped_bars(
            rep.tables["by_calls"],
            "required calls",
            "KOPA-Bench success by required calls",
            out / "by_calls.png",
            tables.by_column_intervals(kopa, "metadata_n_calls", "required calls"),
        ),
    ]
    if dropped:
        rep.notes.append(
            f"{dropped} repeated sample(s) (resumed or copied logs) counted once, newest finished copy"
        )
    logs = sorted({str(p) for p in df["log"]})
    md = [
        "# KOPA-Bench report",
        "",
        f"Logs: `{Path(log_dir).resolve()}` ({len(logs)} log files used, {len(kopa)} KOPA-Bench samples, "
        f"{len(bfcl)} BFCL samples). pass@k with k = {k}.",
        "",
    ]
    if rep.notes:
        md += ["Notes:", "", *[f"- {n}" for n in rep.notes], ""]
    tex = [f"% KOPA-Bench report tables (generated by `kopa report`); needs {latex.PREAMBLE}"]
    for name, df_t in rep.tables.items():
        caption = title(name, k, df_t.columns)
        md.append(f"## {caption}\n\n{_md(df_t)}\n")
        tex.append(latex.table(df_t, caption, name))
        df_t.to_csv(out / f"{name}.csv", index=False)
    md.append("## Figures\n")
    for p in figs:
        if p is not None:
            md.append(f"![{p.stem}]({p.name})\n")
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")
    (out / "report.tex").write_text("\n\n".join(tex), encoding="utf-8")
    return rep
