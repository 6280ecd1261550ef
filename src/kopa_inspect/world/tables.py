"""Static world tables shipped as CSV files in ``kopa_inspect/world/data`` (package data).

A table is a header row and one row per record, every value a string the caller converts. Lines
starting with ``#`` are notes (where a value is uncertain, why rows come in the order they do);
they are kept beside the rows they describe and skipped when reading.
"""

from __future__ import annotations

import csv
from importlib.resources import files


def parse_table(text: str) -> list[dict[str, str]]:
    """The rows of a table's text in order, as ``{column: value}``; note lines are skipped."""
    rows = [line for line in text.splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(rows))


def read_table(name: str) -> list[dict[str, str]]:
    """The rows of ``data/<name>``."""
    return parse_table(files("kopa_inspect.world").joinpath("data", name).read_text(encoding="utf-8"))
