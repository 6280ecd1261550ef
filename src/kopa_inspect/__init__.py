"""kopa-inspect: KOPA-Bench as Inspect AI tasks over emulated Korean open public APIs."""

__version__ = "0.1.0"
