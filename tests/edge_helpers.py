"""Hand-built EDGE drafts for tests: execute some steps on the embedded emulator, wrap them in a
``Draft`` with the junctions a test names, and compose it (the path ``kopa synth`` takes after
sampling). Shared by tests/edge/test_edge_answer_binding.py, test_edge_values.py and test_edge_askable.py.

    with emulator() as backend:
        run = run_steps(backend, [PlanStep(id="s1", tool=..., args=...)])
        draft = hand_draft(backend, steps, [Junction("SEQ", "s1", ["s2"], "e_test", {"item": 0})])
        comp = compose_draft(backend, draft)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

HAND_CLOCK = "2026-12-03T13:45:00+09:00"

# The seeded EDGE rows (tests/conftest.py builds them once per session) and the tests that sample
# over the same graph share these.
EDGE_CLOCK = "2026-12-03T14:00:00+09:00"
EDGE_SEED = 3
EDGE_CANDIDATES = 90


def edge_graph():
    """The fixed link graph the seeded EDGE rows are sampled over (tests/data/edge_natural_links.csv)."""
    import csv
    from pathlib import Path

    from edge_synth.graph import Edge, LinkGraph
    from kopa_inspect.apis import operations

    g = LinkGraph()
    ops = operations()
    with (Path(__file__).parent / "data" / "edge_natural_links.csv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f):
            for op in (r["producer"], r["consumer"]):
                if op in ops:
                    g.add_op(ops[op])
            sl = tuple(int(x) for x in r["slice"].split(":")) if r["slice"] else None
            g.add(
                Edge(
                    r["producer"],
                    r["field"],
                    r["consumer"],
                    r["param"],
                    sl,
                    r["reasons"].split("; "),
                    0.6,
                    r["kind"],
                )
            )
    return g


@contextmanager
def emulator(seed: int = 0) -> Iterator[Any]:
    """An embedded emulator backend, closed afterwards."""
    from kopa_inspect.backends import make_backend

    backend = make_backend(seed=seed)
    try:
        yield backend
    finally:
        asyncio.run(backend.aclose())


def run_steps(backend: Any, steps: Sequence[Any], *, seed: int = 0, clock: str = HAND_CLOCK) -> Any:
    """The steps executed as one plan (compose.execute: a fresh session, tokens issued): a PlanRun."""
    from edge_synth.compose import execute
    from kopa_inspect.plans import Plan

    run, _ = asyncio.run(execute(Plan(steps=list(steps)), backend, seed=seed, clock=clock))
    return run


def hand_draft(
    backend: Any,
    steps: Sequence[Any],
    junctions: Sequence[Any] = (),
    *,
    index: int = 0,
    seed: int = 0,
    clock: str = HAND_CLOCK,
) -> Any:
    """A Draft of ``steps`` with the outputs and arguments an execution gives and ``junctions``."""
    from edge_synth.sample import Draft

    run = run_steps(backend, steps, seed=seed, clock=clock)
    draft = Draft(index=index, steps=list(steps), outputs=dict(run.outputs), args=dict(run.args))
    draft.junctions.extend(junctions)
    return draft


def compose_draft(backend: Any, draft: Any, *, seed: int = 0, clock: str = HAND_CLOCK) -> Any:
    """The draft composed by the grammar (no model): query, answer, facts."""
    from edge_synth.compose import compose

    return asyncio.run(compose(draft, backend, seed=seed, clock=clock))
