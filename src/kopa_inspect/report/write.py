"""Write a report folder: report.md, report.tex, one CSV per table, PNG figures."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from kopa_inspect.report import tables
from kopa_inspect.report.errors import error_table
from kopa_inspect.report.figures import grouped_bars
from kopa_inspect.report.load import bfcl_samples, kopa_samples, load_samples

TITLES = {
    "headline": "Overall pass@1 / pass@4 (confidence intervals over seeds and tasks)",
    "axes": "RESPONSE / ENVIRONMENT / ACTION axes",
    "metrics": "Per-sample metrics (means)",
    "pass_hat_k": "pass^k (all k epochs succeed)",
    "held_out": "Held-out platforms vs seen platforms",
    "by_category": "Success by category",
    "by_calls": "Success by number of required calls",
    "errors": "Failure kinds (counted from trajectories)",
    "paper_reference": "Paper figures (QUOTED from arXiv 2609.05395, not measured here)",
}


def _md(df: pd.DataFrame) -> str:
    return df.to_markdown(index=False, floatfmt=".4f") if not df.empty else "_(no data)_"


def _tex(df: pd.DataFrame, caption: str) -> str:
    if df.empty:
        return f"% {caption}: no data\n"
    return df.to_latex(index=False, float_format="%.4f", caption=caption, escape=True, na_rep="--")


def make_report(log_dir: str | Path, out: str | Path, k: int = 4) -> tables.Report:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    df = load_samples(log_dir)
    kopa = kopa_samples(df)
    rep = tables.build(kopa, bfcl_samples(df), k)
    rep.tables["errors"] = error_table(log_dir)
    figs = []
    for name, index, title in (("by_category", "category", "KOPA-Bench success by category"),
                               ("by_calls", "required calls", "KOPA-Bench success by required calls")):
        p = grouped_bars(rep.tables[name], index, title, out / f"{name}.png")
        if p:
            figs.append(p)
    md = [f"# KOPA-Bench report\n\nLogs: `{Path(log_dir).resolve()}`\n"]
    tex = []
    for name, df_t in rep.tables.items():
        md.append(f"## {TITLES.get(name, name)}\n\n{_md(df_t)}\n")
        tex.append(_tex(df_t, TITLES.get(name, name)))
        df_t.to_csv(out / f"{name}.csv", index=False)
    for p in figs:
        md.append(f"![{p.stem}]({p.name})\n")
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")
    (out / "report.tex").write_text("\n\n".join(tex), encoding="utf-8")
    return rep
