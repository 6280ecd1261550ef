"""The report's LaTeX (tabulate's latex_booktabs): well-formed, escaped, columns aligned as declared.

No TeX engine is assumed; the checks are the ones a compile would fail on (unbalanced groups or
environments, a row with more cells than the column spec) plus booktabs' rules and the alignment.
"""

from __future__ import annotations

import re

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("tabulate")

from kopa_inspect.report import latex  # noqa: E402

_COLUMN = re.compile(r"p\{[^{}]*\}|[lcr]")


def _unescaped(text: str, ch: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"(?<!\\){re.escape(ch)}", text)]


def _spec(tex: str) -> list[str]:
    m = re.search(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", tex)
    assert m, tex
    spec = _COLUMN.findall(m.group(1))
    assert "".join(spec) == m.group(1), f"unknown column types in {m.group(1)}"
    return spec


def _rows(tex: str) -> list[list[str]]:
    """The header and body rows between \\toprule and \\bottomrule, split into cells."""
    body = tex.split("\\toprule", 1)[1].split("\\bottomrule", 1)[0]
    rows = []
    for line in body.splitlines():
        line = line.strip()
        if not line or line == "\\midrule":
            continue
        assert line.endswith("\\\\"), line
        line = line[:-2]
        cuts = [-1, *_unescaped(line, "&"), len(line)]
        rows.append([line[a + 1 : b].strip() for a, b in zip(cuts, cuts[1:], strict=False)])
    return rows


def check_structure(tex: str) -> tuple[list[str], list[list[str]]]:
    """What a LaTeX compile of the table would trip on; returns (column spec, rows)."""
    assert len(_unescaped(tex, "{")) == len(_unescaped(tex, "}")), "unbalanced braces"
    depth = 0
    for ch_pos in sorted(_unescaped(tex, "{") + _unescaped(tex, "}")):
        depth += 1 if tex[ch_pos] == "{" else -1
        assert depth >= 0, "a brace closes before it opens"
    stack = []
    for kind, env in re.findall(r"\\(begin|end)\{(\w+)\}", tex):
        if kind == "begin":
            stack.append(env)
        else:
            assert stack and stack.pop() == env, f"\\end{{{env}}} without its \\begin"
    assert not stack, f"unclosed environments: {stack}"
    rules = [m.group(0) for m in re.finditer(r"\\(toprule|midrule|bottomrule)", tex)]
    assert rules == ["\\toprule", "\\midrule", "\\bottomrule"], rules
    spec = _spec(tex)
    rows = _rows(tex)
    for row in rows:
        assert len(row) == len(spec), (row, spec)
    return spec, rows


def _plain(header: str) -> str:
    """A header cell's text with a stacked name's lines joined again."""
    m = re.fullmatch(r"\\begin\{tabular\}\[b\]\{@\{\}[lr]@\{\}\}(.*)\\end\{tabular\}", header)
    return " ".join(part.strip() for part in m.group(1).split("\\\\")) if m else header


FRAME = pd.DataFrame(
    {
        "model": ["base_model", "sft & grpo"],
        "tasks": [145, 31],
        "pass@1": [0.4482, 0.05],
        "pass@1 95% CI (tasks)": ["0.3621–0.5310", None],
        "note": [
            "short",
            "pass@4 +15.9 pts over base; held-out (31 tasks) pass@4 +22.6 pts; 50% of it quoted",
        ],
    }
)


def test_table_is_well_formed_booktabs_with_columns_as_declared() -> None:
    tex = latex.table(FRAME, "Headline_table", "head_line")
    spec, rows = check_structure(tex)
    assert spec[:4] == ["l", "r", "r", "r"]  # text left, counts / rates / intervals right
    assert spec[4] == "p{0.45\\linewidth}"  # the long note wraps
    two = FRAME.assign(source=["quoted from arXiv 2609.05395 (public summaries), not measured here"] * 2)
    assert latex.column_spec(two)[4:] == ["p{0.23\\linewidth}"] * 2  # wrapped columns share the width
    header, *body = rows
    assert [_plain(h) for h in header] == ["model", "tasks", "pass@1", "pass@1 95\\% CI (tasks)", "note"]
    assert header[3] == "\\begin{tabular}[b]{@{}r@{}}pass@1 95\\% \\\\ CI (tasks)\\end{tabular}"  # stacked
    assert body[0][:4] == ["base\\_model", "145", "0.4482", "0.3621–0.5310"]
    assert body[1][:4] == ["sft \\& grpo", "31", "0.0500", "--"]  # fixed decimals; missing as --
    assert "50\\% of it quoted" in body[1][4]
    assert "\\caption{Headline\\_table}" in tex and "\\label{tab:kopa-head-line}" in tex


def test_numbers_line_up_in_the_source_too() -> None:
    """Right-aligned numeric cells padded to one width: the decimal points sit in one column."""
    tex = latex.tabular(pd.DataFrame({"m": ["a", "bb", "ccc"], "v": [0.5, 12.25, 0.125]}))
    lines = [ln for ln in tex.splitlines() if ln.strip().endswith("\\\\")][1:]
    points = {ln.index(".") for ln in lines}
    assert len(points) == 1, lines
    assert [ln.split("&")[1].strip(" \\") for ln in lines] == ["0.5000", "12.2500", "0.1250"]


def test_special_characters_are_escaped() -> None:
    tex = latex.table(
        pd.DataFrame({"a_b": ["x&y", "50%", "#1 $x$"], "v": [0.5, float("nan"), None]}), "cap_tion", "t_1"
    )
    check_structure(tex)
    for needle in ("a\\_b", "x\\&y", "50\\%", "\\#1 \\$x\\$", "0.5000", "cap\\_tion", "tab:kopa-t-1"):
        assert needle in tex, needle
    assert tex.count("--") == 2 and "nan" not in tex.lower()


def test_wide_table_is_scaled_down_only_and_stays_balanced() -> None:
    wide = pd.DataFrame({f"model_{i}": [0.1 * i, 0.2] for i in range(9)})
    tex = latex.table(wide, "wide", "wide")
    spec, _ = check_structure(tex)
    # wider than the line: the line's width; narrower: its own (a narrow table is not blown up)
    assert (
        spec == ["r"] * 9 and "\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{" in tex
    )


def test_long_column_names_are_stacked_not_widening() -> None:
    frame = pd.DataFrame({"model": ["m"], "hallucinated answer without a call": [3], "note": ["x" * 50]})
    spec, (header, _) = check_structure(latex.table(frame, "c", "l"))
    assert header[1] == (
        "\\begin{tabular}[b]{@{}r@{}}hallucinated \\\\ answer \\\\ without a \\\\ call\\end{tabular}"
    )
    assert header[2] == "note" and spec[2].startswith("p{")  # a wrapped column wraps its own name
    assert latex.header_cell("pass@1", "r") == "pass@1"


def test_the_checks_catch_broken_tables() -> None:
    """The structural checks fail on what a compile would fail on."""
    good = latex.table(FRAME, "c", "l")
    for broken in (
        good.replace("\\end{tabular}", ""),  # unclosed environment
        good.replace("\\bottomrule", ""),  # a booktabs rule missing
        good.replace("145 &", "145 & 1 &", 1),  # a row wider than the spec
        good.replace("\\caption{c}", "\\caption{c"),
    ):  # unbalanced braces
        assert broken != good
        with pytest.raises(AssertionError):
            check_structure(broken)


def test_empty_table_is_a_comment() -> None:
    assert latex.table(pd.DataFrame(), "nothing", "x") == "% nothing: no data\n"
