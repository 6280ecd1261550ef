"""Optional dependencies: which extra brings what, and the one error a missing one raises.

The core install (``pip install kopa-inspect``) runs ``inspect eval kopa_inspect/kopa_bench``: the
emulator, the task and its scorers. The rest comes in extras (pyproject.toml):

- ``report``: ``kopa report`` (pandas, pyarrow, matplotlib, tabulate);
- ``edge``: ``kopa synth`` (datasets, numpy, matplotlib); its dense retriever also needs ``embed``;
- ``mcp``: ``kopa mcp`` (the mcp SDK);
- ``train``: ``kopa train`` (torch, TRL, PEFT, transformers; pulls ``edge``);
- ``local``: the local CPU model providers (torch, transformers, llama-cpp-python);
- ``all``: every one of them (what scripts/setup-env.sh installs, with ``dev``).

Each feature calls :func:`require` before its first optional import, so a missing package stops
it with the pip command that brings it, not with a bare ``No module named ...``.
"""

from __future__ import annotations

import importlib

DISTRIBUTION = "kopa-inspect"


class MissingExtra(ModuleNotFoundError):
    """An optional dependency is not installed; the message names the extra to install."""


def install_hint(extra: str) -> str:
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def require(extra: str, *modules: str, feature: str) -> None:
    """Import ``modules`` now; if any is missing, raise one MissingExtra naming ``extra``."""
    missing: list[str] = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise MissingExtra(
            f"{feature} needs {', '.join(missing)}, which the core install leaves out: {install_hint(extra)}",
            name=missing[0],
        )


def require_cli(extra: str, *modules: str, feature: str) -> None:
    """:func:`require` for a ``kopa`` command: the message on stderr and exit status 2, no traceback."""
    import sys

    try:
        require(extra, *modules, feature=feature)
    except MissingExtra as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
