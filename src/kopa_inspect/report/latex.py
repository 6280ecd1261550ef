"""One report table as a LaTeX ``table`` float: tabulate's ``latex_booktabs`` (no jinja2 needed).

- numbers right-aligned with a fixed number of decimals (their decimal points line up), and so
  are intervals (``0.1234–0.5678``) and counts; text left-aligned;
- a text column with long cells (notes, sources) becomes a ``p{...}`` column and wraps;
- a long column name (``hallucinated answer without a call``) is stacked on several lines, so that
  it does not set its column's width;
- a table still wider than the line is scaled down to the line width (never up: a narrow table
  keeps the text's font size);
- missing values print as ``--``; tabulate escapes LaTeX's special characters.

The document needs ``\\usepackage{booktabs,graphicx}`` (``PREAMBLE``).
"""

from __future__ import annotations

import contextlib
import numbers
import re
import textwrap
from typing import Any

import numpy as np
import pandas as pd
from tabulate import tabulate

PREAMBLE = "\\usepackage{booktabs,graphicx}"
MISSING = "--"
WRAP_CHARS = 40  # a text column with a longer cell wraps instead of widening the table
WRAP_SHARE = 0.45  # of the line width, shared by the wrapped columns (the rest keeps its own width)
HEADER_CHARS = 12  # a longer column name is stacked over several lines
# graphicx's \resizebox reads the content's natural \width: the line width where wider, else as is
SCALE_DOWN = "\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%"
_INTERVAL = re.compile(r"^[-+]?\d+(\.\d+)?–[-+]?\d+(\.\d+)?$")


def _missing(value: Any) -> bool:
    with contextlib.suppress(TypeError, ValueError):
        return value is None or bool(pd.isna(value))
    return False


def cell(value: Any, floatfmt: str = ".4f") -> str:
    """A cell's text before escaping: floats with ``floatfmt``, integers as integers."""
    if _missing(value):
        return MISSING
    if isinstance(value, float | np.floating):
        return f"{value:{floatfmt}}"
    return str(value)


def _numeric(values: list[Any]) -> bool:
    """True where every present value is a number or an interval of numbers."""
    present = [v for v in values if not _missing(v)]
    return bool(present) and all(
        (isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_))
        or (isinstance(v, str) and bool(_INTERVAL.match(v)))
        for v in present
    )


def column_spec(df: pd.DataFrame) -> list[str]:
    """One LaTeX column type per column: ``r`` for numbers, ``p{...}`` for long text, else ``l``."""
    kinds = []
    for c in df.columns:
        values = df[c].tolist()
        if _numeric(values):
            kinds.append("r")
        elif max(len(cell(v)) for v in values) > WRAP_CHARS:
            kinds.append("p")
        else:
            kinds.append("l")
    width = f"p{{{WRAP_SHARE / max(1, kinds.count('p')):.2g}\\linewidth}}"
    return [width if k == "p" else k for k in kinds]


def tabular(df: pd.DataFrame, floatfmt: str = ".4f") -> str:
    """The ``tabular`` of ``df`` (booktabs rules), column types from :func:`column_spec`."""
    spec = column_spec(df)
    rows = [[cell(v, floatfmt) for v in row] for row in df.itertuples(index=False)]
    text = tabulate(
        rows,
        headers=[str(c) for c in df.columns],
        tablefmt="latex_booktabs",
        colalign=["right" if s == "r" else "left" for s in spec],
        disable_numparse=True,
    )
    lines = text.split("\n")
    if not lines[0].startswith("\\begin{tabular}{") or lines[1] != "\\toprule":
        raise RuntimeError(f"tabulate wrote an unexpected tabular header: {lines[:2]!r}")
    lines[0] = f"\\begin{{tabular}}{{{''.join(spec)}}}"
    lines[2] = " & ".join(header_cell(str(c), s) for c, s in zip(df.columns, spec, strict=True)) + " \\\\"
    return "\n".join(lines)


def header_cell(name: str, spec: str) -> str:
    """A column name, escaped; a long one in a nested one-column tabular, one line per few words,
    aligned as its column (a ``p`` column wraps its name itself)."""
    if len(name) <= HEADER_CHARS or spec.startswith("p"):
        return escape(name)
    lines = textwrap.wrap(name, HEADER_CHARS, break_long_words=False, break_on_hyphens=False)
    return f"\\begin{{tabular}}[b]{{@{{}}{spec}@{{}}}}" + " \\\\ ".join(map(escape, lines)) + "\\end{tabular}"


def table(df: pd.DataFrame, caption: str, label: str) -> str:
    """``df`` as a captioned, labelled ``table`` float (``tab:kopa-<label>``)."""
    if df.empty:
        return f"% {caption}: no data\n"
    body = SCALE_DOWN + "\n" + tabular(df) + "}"
    return (
        "\n".join(
            [
                "\\begin{table}",
                "\\centering",
                f"\\caption{{{escape(caption)}}}",
                f"\\label{{tab:kopa-{label.replace('_', '-')}}}",
                body,
                "\\end{table}",
            ]
        )
        + "\n"
    )


_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def escape(text: str) -> str:
    """Text outside a tabular (captions), escaped as tabulate escapes cells."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)
