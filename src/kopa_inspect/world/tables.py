"""Static world tables shipped as package data in ``kopa_inspect/world/data``.

A CSV table is a header row and one row per record, every value a string the caller converts.
Lines starting with ``#`` are notes (where a value is uncertain, why rows come in the order they
do); they are kept beside the rows they describe and skipped when reading. A row whose width is not
the header's is an error naming the file and line, never a silently shifted record.

Nested records (a law and its articles, a dataset and its columns) are JSON documents instead.
"""

from __future__ import annotations

import csv
import json
from importlib.resources import files
from typing import Any


class TableError(ValueError):
    """A data file that does not hold the records its loader expects."""


def parse_table(text: str, name: str = "<table>") -> list[dict[str, str]]:
    """The rows of a table's text in order, as ``{column: value}``; note lines are skipped."""
    header: list[str] | None = None
    rows: list[dict[str, str]] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        fields = next(csv.reader([line]))
        if header is None:
            header = fields
        elif len(fields) != len(header):
            raise TableError(f"{name} line {line_no}: {len(fields)} fields, the header has {len(header)}")
        else:
            rows.append(dict(zip(header, fields, strict=True)))
    return rows


def _data_text(name: str) -> str:
    return files("kopa_inspect.world").joinpath("data", name).read_text(encoding="utf-8")


def read_table(name: str) -> list[dict[str, str]]:
    """The rows of ``data/<name>``."""
    return parse_table(_data_text(name), name)


def read_json(name: str) -> Any:
    """The document of ``data/<name>`` (its loader checks the shape it needs)."""
    return json.loads(_data_text(name))


def record_fields(name: str, index: int, record: Any, keys: tuple[str, ...]) -> list[Any]:
    """The values of ``keys`` in a JSON record, or an error naming the file and the record."""
    if not isinstance(record, dict) or set(record) != set(keys):
        got = sorted(record) if isinstance(record, dict) else type(record).__name__
        raise TableError(f"{name} record {index}: expected keys {sorted(keys)}, got {got}")
    return [record[key] for key in keys]
