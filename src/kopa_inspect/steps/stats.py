"""Which trajectory a kopa_steps sample belongs to: the cluster of the clustered statistics.

Steps of one trajectory are correlated (kopa_inspect.stats says why and what follows), so the step
metric and the CPU experiment resample and flip whole trajectories; this module names them.

Sample ids are ``<trajectory id>#<step>`` (steps.build.steps_from_trajectory); the step's metadata
carries ``trajectory_id`` too, and is preferred when given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def trajectory_of(sample_id: Any, metadata: Mapping[str, Any] | None = None) -> str:
    """The trajectory (cluster) of a kopa_steps sample: its step metadata's ``trajectory_id``, else
    the sample id before its ``#<step>`` suffix, else the id itself (a cluster of one)."""
    step = (metadata or {}).get("step") if metadata else None
    if isinstance(step, Mapping) and step.get("trajectory_id"):
        return str(step["trajectory_id"])
    if metadata and metadata.get("trajectory_id"):
        return str(metadata["trajectory_id"])
    sid = str(sample_id)
    head, sep, tail = sid.rpartition("#")
    return head if sep and head and tail.isdigit() else sid
