"""Reading an answer fact's fields, whether it is a pydantic model or a plain dict, and the matcher kinds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MATCHERS: tuple[str, ...] = (
    "number",
    "money",
    "date",
    "time",
    "month",
    "date_set",
    "duration",
    "code_label",
    "name",
    "set",
    "ranked_set",
    "dish_set",
    "key_facts",
    "exact",
    "refusal",
)
_NUMERIC_KINDS = frozenset({"number", "money", "duration"})


def _get(fact: Any, key: str, default: Any = None) -> Any:
    if isinstance(fact, Mapping):
        return fact.get(key, default)
    return getattr(fact, key, default)


def _literal(value: Any) -> Any:
    """A fact field's value unless it is an unresolved ``$`` reference."""
    if isinstance(value, str) and value.startswith("$"):
        return None
    return value


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list | tuple | set):
        return list(value)
    return [value]
