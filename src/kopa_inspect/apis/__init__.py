"""Registry of every emulated platform and operation.

Each provider module defines ``PLATFORM`` (a :class:`Platform`) and ``OPERATIONS`` (a list of
:class:`Operation`); listing it in ``PROVIDER_MODULES`` is all it takes to put it in the
emulator, the tools, MCP, EDGE and GRPO.
"""

from __future__ import annotations

import importlib
from functools import cache

from kopa_inspect.apis._spec import ApiError, Operation, Param, Platform, Result, Rows

__all__ = [
    "ApiError",
    "Operation",
    "Param",
    "Platform",
    "Result",
    "Rows",
    "PROVIDER_MODULES",
    "platforms",
    "operations",
    "get_operation",
    "get_platform",
]

# Order matters only for listing; every module is independent.
PROVIDER_MODULES: tuple[str, ...] = (
    "kma",
    "kma_mid",
    "airkorea",
    "kasi",
    "stanregincd",
    "molit",
    "tourapi",
    "tago",
    "mfds",
    "hira",
    "nts",
    "neis",
    "lawgo",
    "dart",
    "ecos",
    "nec",
    "seoul",
    "assembly",
)


@cache
def _load() -> tuple[dict[str, Platform], dict[str, Operation]]:
    plats: dict[str, Platform] = {}
    ops: dict[str, Operation] = {}
    for name in PROVIDER_MODULES:
        try:
            module = importlib.import_module(f"kopa_inspect.apis.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"kopa_inspect.apis.{name}":
                continue  # provider not written yet
            raise
        platform: Platform = module.PLATFORM
        if platform.id in plats:
            raise ValueError(f"duplicate platform id {platform.id!r} in {name}")
        plats[platform.id] = platform
        for op in module.OPERATIONS:
            if op.platform != platform.id:
                raise ValueError(f"{op.name} in {name} names platform {op.platform!r}")
            if op.id in ops:
                raise ValueError(f"duplicate operation id {op.id!r}")
            ops[op.id] = op
    return plats, ops


def platforms() -> dict[str, Platform]:
    return _load()[0]


def operations() -> dict[str, Operation]:
    return _load()[1]


def get_operation(op_id: str) -> Operation:
    try:
        return operations()[op_id]
    except KeyError:
        raise KeyError(f"unknown operation {op_id!r}") from None


def get_platform(platform_id: str) -> Platform:
    try:
        return platforms()[platform_id]
    except KeyError:
        raise KeyError(f"unknown platform {platform_id!r}; known: {sorted(platforms())}") from None
