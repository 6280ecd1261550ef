"""BFCL's shipped entries and ground truth, loaded with BFCL's own loaders, as Inspect samples.

The entries come from the data files inside the ``bfcl-eval`` wheel; nothing is downloaded. A
sample carries only its BFCL id and category: the solver and the scorer look the full entry (its
functions, initial backend state, ground truth) up here, so that logs stay small (a long-context
entry's initial state runs to megabytes).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser

from kopa_inspect.bfcl.categories import Check, check_of
from kopa_inspect.bfcl.library import bfcl


@cache
def _entries(category: str, hints: bool = True) -> dict[str, dict[str, Any]]:
    """BFCL's entries as its inference loads them (``hints``: language notes and, for Java and
    JavaScript, every parameter typed as a string) or as its checker loads them (without)."""
    return {
        e["id"]: e
        for e in bfcl().utils.load_dataset_entry(
            category, include_prereq=hints, include_language_specific_hint=hints
        )
    }


@cache
def _ground_truth(category: str) -> dict[str, Any]:
    if check_of(category) is Check.IRRELEVANCE:
        return {}
    return {g["id"]: g["ground_truth"] for g in bfcl().utils.load_ground_truth_entry(category)}


def entry(category: str, entry_id: str) -> dict[str, Any]:
    """A fresh copy of one BFCL entry as the model sees it (the solver extends its function list)."""
    return copy.deepcopy(_entries(category)[entry_id])


def checker_entry(category: str, entry_id: str) -> dict[str, Any]:
    """A fresh copy of one BFCL entry as BFCL's eval runner hands it to the checkers."""
    return copy.deepcopy(_entries(category, False)[entry_id])


def ground_truth(category: str, entry_id: str) -> Any:
    """Possible answers (AST) or per-turn gold call strings (multi-turn); None for irrelevance."""
    return copy.deepcopy(_ground_truth(category).get(entry_id))


def entry_ids(category: str) -> list[str]:
    return list(_entries(category))


def _first_turn(messages: list[dict[str, str]]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in messages:
        if m["role"] == "system":
            out.append(ChatMessageSystem(content=m["content"]))
        else:
            out.append(ChatMessageUser(content=m["content"]))
    return out


def to_sample(category: str, entry_id: str) -> Sample:
    e = _entries(category)[entry_id]
    first = next((turn for turn in e["question"] if turn), [{"role": "user", "content": ""}])
    return Sample(
        id=entry_id,
        input=_first_turn(first),
        metadata={"category": category, "bfcl_id": entry_id, "turns": len(e["question"])},
    )


def dataset(categories: list[str], per_category: int | None = None) -> MemoryDataset:
    """The first ``per_category`` entries (BFCL's order) of each category; all when None."""
    samples = [
        to_sample(category, entry_id)
        for category in categories
        for entry_id in entry_ids(category)[:per_category]
    ]
    return MemoryDataset(samples=samples, name="bfcl")
