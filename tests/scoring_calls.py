"""The attack scripts' call runner (benchmarks/scoring_validity/_calls.py), loaded once for the tests:
one copy of how attack trajectories are executed and recorded, for the scripts and the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "scoring_validity" / "_calls.py"
    spec = importlib.util.spec_from_file_location("scoring_validity_calls", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CALLS = sys.modules.get("scoring_validity_calls") or _load()
