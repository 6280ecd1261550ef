"""The BFCL categories this task runs, and how each is checked.

Names are BFCL's own (its file names, ``BFCL_v4_<category>.json``). Multi-turn first: the paper's
BFCL figure is the multi-turn one. The non-live AST categories sit beside it; live, memory and web
search are left out (web search needs a search API; memory needs a prerequisite run per model).
"""

from __future__ import annotations

from enum import StrEnum

MULTI_TURN = ("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context")
SIMPLE = ("simple_python", "simple_java", "simple_javascript")
AST = (*SIMPLE, "multiple", "parallel", "parallel_multiple")
IRRELEVANCE = ("irrelevance",)
ALL = (*MULTI_TURN, *AST, *IRRELEVANCE)

# Shorthands a task parameter may use for a group of categories.
GROUPS: dict[str, tuple[str, ...]] = {
    "all": ALL,
    "multi_turn": MULTI_TURN,
    "ast": AST,
    "simple": SIMPLE,
    "single_turn": (*AST, *IRRELEVANCE),
}


class Check(StrEnum):
    MULTI_TURN = "multi_turn"  # replay on BFCL's backends, compare state and responses per turn
    AST = "ast"  # BFCL's AST checker against the possible answers
    IRRELEVANCE = "irrelevance"  # right when no function is called


def check_of(category: str) -> Check:
    if category in MULTI_TURN:
        return Check.MULTI_TURN
    if category in IRRELEVANCE:
        return Check.IRRELEVANCE
    if category in AST:
        return Check.AST
    raise ValueError(f"unknown BFCL category {category!r}; known: {', '.join(ALL)}")


def resolve(categories: str | list[str] | tuple[str, ...]) -> list[str]:
    """Category names (or group names, comma-separated) to BFCL category names, in order, unique."""
    names = categories.split(",") if isinstance(categories, str) else list(categories)
    out: list[str] = []
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        for category in GROUPS.get(name, (name,)):
            check_of(category)
            if category not in out:
                out.append(category)
    if not out:
        raise ValueError("no BFCL categories given")
    return out
