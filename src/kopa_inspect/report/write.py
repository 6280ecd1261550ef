"""Write a report folder: report.md, report.tex, one CSV per table, PNG figures, failures.csv.

The folder appears whole or not at all: everything is written into a temporary folder beside it,
then renamed into place (a rerun replaces the old report only once the new one is complete).
LaTeX is written here (booktabs), not with ``DataFrame.to_latex``, which needs jinja2.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from kopa_inspect.report import tables
from kopa_inspect.report.errors import classify_frame, error_table
from kopa_inspect.report.figures import grouped_bars, headline_bars
from kopa_inspect.report.load import bfcl_samples, kopa_samples, load_samples

TITLES = {
    "headline": "KOPA-Bench: pass@1 / pass@{k} (95% CIs over seeds and over tasks)",
    "benchmarks": "KOPA-Bench beside BFCL",
    "axes": "RESPONSE / ENVIRONMENT / ACTION axes (means over samples)",
    "metrics": "Per-sample metrics (means over samples)",
    "pass_hat_k": "pass^k (all k epochs succeed)",
    "held_out": "Held-out platforms vs seen platforms",
    "by_category": "Success rate by task category",
    "by_calls": "Success rate by number of required gold calls",
    "errors": "Failure kinds (one per failed sample, counted from the trajectories)",
    "paper_reference": "Paper figures (QUOTED from arXiv 2609.05395 via public summaries, NOT measured here)",
}


def title(name: str, k: int) -> str:
    return TITLES.get(name, name).format(k=k)


def _md(df: pd.DataFrame) -> str:
    if df.empty:
        return "_(no data)_"
    df = df.astype(object).where(df.notna(), None)  # NaN shows as "–", not "nan"
    return df.to_markdown(index=False, floatfmt=".4f", missingval="–")


_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def tex_escape(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)


def _tex_cell(value: Any) -> str:
    with contextlib.suppress(TypeError, ValueError):
        if value is None or pd.isna(value):
            return "--"
    if isinstance(value, float):
        return f"{value:.4f}"
    return tex_escape(str(value))


def _tex(df: pd.DataFrame, caption: str, label: str) -> str:
    if df.empty:
        return f"% {caption}: no data\n"
    cols = "".join("l" if df[c].dtype == object else "r" for c in df.columns)
    tabular = [
        f"\\begin{{tabular}}{{{cols}}}",
        "\\toprule",
        " & ".join(tex_escape(str(c)) for c in df.columns) + " \\\\",
        "\\midrule",
        *(" & ".join(_tex_cell(v) for v in row) + " \\\\" for row in df.itertuples(index=False)),
        "\\bottomrule",
        "\\end{tabular}",
    ]
    if len(df.columns) > 6:  # wide tables (failure kinds, many models) scaled to the text width
        tabular[0] = "\\resizebox{\\linewidth}{!}{" + tabular[0]
        tabular[-1] += "}"
    return "\n".join([
        "\\begin{table}",
        "\\centering",
        f"\\caption{{{tex_escape(caption)}}}",
        f"\\label{{tab:kopa-{label.replace('_', '-')}}}",
        *tabular,
        "\\end{table}",
    ]) + "\n"


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
    rep.tables["errors"] = error_table(kopa)
    # measured first, the paper's quoted figures right after the measured headline tables
    order = ["headline", "benchmarks", "paper_reference"]
    rep.tables = {n: rep.tables[n] for n in order} | {n: t for n, t in rep.tables.items() if n not in order}
    classify_frame(kopa).to_csv(out / "failures.csv", index=False)

    figs = [
        headline_bars(rep.tables["headline"], k, out / "headline.png"),
        grouped_bars(rep.tables["by_category"], "category", "KOPA-Bench success by category", out / "by_category.png"),
        grouped_bars(rep.tables["by_calls"], "required calls", "KOPA-Bench success by required calls",
                     out / "by_calls.png"),
    ]
    if dropped:
        rep.notes.append(f"{dropped} repeated sample(s) (resumed or copied logs) counted once, newest finished copy")
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
    tex = ["% KOPA-Bench report tables (generated by `kopa report`); needs \\usepackage{booktabs,graphicx}"]
    for name, df_t in rep.tables.items():
        md.append(f"## {title(name, k)}\n\n{_md(df_t)}\n")
        tex.append(_tex(df_t, title(name, k), name))
        df_t.to_csv(out / f"{name}.csv", index=False)
    md.append("## Figures\n")
    for p in figs:
        if p is not None:
            md.append(f"![{p.stem}]({p.name})\n")
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")
    (out / "report.tex").write_text("\n\n".join(tex), encoding="utf-8")
    return rep
