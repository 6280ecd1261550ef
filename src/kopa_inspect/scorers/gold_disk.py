"""Gold truths kept on disk between processes: off unless ``KOPA_GOLD_CACHE_DIR`` names a directory.

For a benchmark run again and again in new processes (``inspect eval`` per model, CI): each run
then reads its golds instead of running every gold plan and its group tests again.

A gold depends on more than the task and its version: on the emulator's code and data and on the
grading code that resolves it. So an entry lives under a fingerprint of every file of the
``kopa_inspect`` package, the Python version and the versions of the libraries that read the
outputs (jmespath, pydantic, xmltodict); any edit to the package starts a new generation and an
old gold is never read. Only the embedded emulator without a recording is kept: a served emulator
may run other code, and a recording must hold the gold run's own calls for its replay.

Entries are pickles written by this code into a directory the user named; anything unreadable
is treated as absent and computed again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

ENV = "KOPA_GOLD_CACHE_DIR"
_LIBRARIES = ("jmespath", "pydantic", "xmltodict")


def cache_dir() -> Path | None:
    value = os.environ.get(ENV, "").strip()
    return Path(value).expanduser() if value else None


@cache
def code_fingerprint() -> str:
    """A hash of what computes a gold: the package's files, Python, the output-reading libraries."""
    import kopa_inspect

    root = Path(kopa_inspect.__file__).parent
    digest = hashlib.sha256(sys.version.encode())
    for lib in _LIBRARIES:
        try:
            digest.update(f"{lib}={version(lib)}".encode())
        except PackageNotFoundError:
            digest.update(f"{lib}=-".encode())
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _path(key: Any) -> Path | None:
    root = cache_dir()
    if root is None:
        return None
    name = hashlib.sha256(repr(key).encode()).hexdigest()
    return root / code_fingerprint() / f"{name}.pickle"


def load(key: Any) -> Any | None:
    """The gold kept for ``key`` in this code generation, or None."""
    path = _path(key)
    if path is None or not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            return pickle.load(f)  # noqa: S301 - written by save() into the user's own directory
    except Exception:  # noqa: BLE001 - a torn or foreign file is a miss, not an error
        return None


def save(key: Any, gold: Any) -> None:
    """Keep ``gold`` for ``key`` (atomically: a reader sees the whole file or none)."""
    path = _path(key)
    if path is None:
        return
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
            tmp = f.name
            pickle.dump(gold, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # noqa: BLE001 - a full or read-only disk costs the next run time, not this one its grade
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
