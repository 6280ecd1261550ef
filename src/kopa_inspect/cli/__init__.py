"""The ``kopa`` command.

Each command group lives in its own module with a ``register(app)`` function, so the
emulator, benchmark, EDGE, GRPO and report commands stay independent.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="kopa",
    help="KOPA-Bench, EDGE and GRPO over emulated (or live) Korean open public APIs.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # locals may hold a service key
)

_COMMAND_MODULES = ("emulator_cmds", "tasks_cmds", "synth_cmds", "train_cmds", "report_cmds")

for _name in _COMMAND_MODULES:
    try:
        _module = importlib.import_module(f"kopa_inspect.cli.{_name}")
    except ModuleNotFoundError as exc:  # a command group not written yet
        if exc.name != f"kopa_inspect.cli.{_name}":
            raise
        continue
    _module.register(app)


def main() -> None:  # pragma: no cover
    app()
