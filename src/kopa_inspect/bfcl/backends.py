"""BFCL's multi-turn backends (file system, trading bot, ...), executed by BFCL's own executor.

``execute_multi_turn_func_call`` keeps one instance per (model name, entry, class) in its module's
globals and reuses it in later turns: that is how state carries over between a conversation's
turns. Every run here gets its own name, so that two runs of one entry (epochs, the scorer's
replay) never share a backend, and :func:`release` drops the instances when the run is over.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from kopa_inspect.bfcl.library import bfcl


def run_name(purpose: str) -> str:
    return f"kopa_{purpose}_{uuid.uuid4().hex}"


def is_long_context(entry_id: str) -> bool:
    category = entry_id.rsplit("_", 1)[0]
    return "long_context" in category or "composite" in category


def execute(calls: list[str], entry: dict[str, Any], name: str) -> list[str]:
    """Run call strings on this run's backends; one result string (or error string) per call."""
    results, _ = bfcl().multi_turn_utils.execute_multi_turn_func_call(
        func_call_list=calls,
        initial_config=entry.get("initial_config", {}),
        involved_classes=entry["involved_classes"],
        model_name=name,
        test_entry_id=entry["id"],
        long_context=is_long_context(entry["id"]),
        is_evaL_run=False,
    )
    return results


def release(name: str) -> None:
    """Drop every backend instance the executor (or the checker) keeps under this run name."""
    namespace = vars(bfcl().multi_turn_utils)
    prefix = re.sub(r"[-./:]", "_", name) + "_"
    for key in [k for k in namespace if k.startswith(prefix)]:
        del namespace[key]
