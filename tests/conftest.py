import os

import pytest
from hypothesis import settings

# Nothing in the test suite may reach a hub or the internet.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("INSPECT_LOG_DIR", os.path.join(os.path.dirname(__file__), "..", ".kopa", "test-logs"))

# Property tests draw the same examples on every run, so a red run is reproducible and CI cannot
# flake; HYPOTHESIS_PROFILE=default explores new examples by hand.
settings.register_profile("derandomized", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))


# --- seeded EDGE rows, shared by tests/edge/test_edge_naturalness.py and tests/edge/test_edge_answer_binding.py ---
# The sampler and the grammar over a fixed set of real verified links (tests/data/edge_natural_links.csv,
# taken from a default run's edges.csv) on the embedded emulator: the path `kopa synth` takes after its
# graph stage, built once per session.
from edge_helpers import EDGE_CANDIDATES, EDGE_CLOCK, EDGE_SEED, edge_graph  # noqa: E402


async def _edge_rows() -> list[dict]:
    from edge_synth.compose import compose
    from edge_synth.filter import answer_holds, answer_ok, argument_sources, artefacts
    from edge_synth.pool import ValuePool
    from edge_synth.sample import Sampler
    from kopa_inspect.backends import make_backend

    backend = make_backend(seed=EDGE_SEED)
    fresh = make_backend(seed=EDGE_SEED)
    sampler = Sampler(edge_graph(), ValuePool(EDGE_CLOCK), backend, seed=EDGE_SEED, clock=EDGE_CLOCK)
    out = []
    try:
        for idx in range(EDGE_CANDIDATES):
            draft, _ = await sampler.sample(idx)
            if draft is None:
                continue
            comp = await compose(draft, fresh, seed=EDGE_SEED, clock=EDGE_CLOCK)
            values = [
                v
                for o in comp.run.outputs.values()
                for it in o.get("items", [])
                for v in it.values()
                if not isinstance(v, dict | list)
            ]
            values += [
                v for a in comp.run.args.values() for v in a.values() if not isinstance(v, dict | list)
            ]
            kept = bool(
                comp.facts
                and answer_ok(comp.answer, comp.facts)
                and all(a["source"] for a in argument_sources(comp.plan, comp.query, EDGE_CLOCK))
                and not artefacts(comp.query, values) + artefacts(comp.answer, values)
            )
            # "holds": the pipeline's last answer filter (the step metric reads the row's own answer)
            out.append(
                {
                    "draft": draft,
                    "comp": comp,
                    "kept": kept,
                    "holds": kept and answer_holds(comp.answer, comp.facts),
                }
            )
    finally:
        await backend.aclose()
        await fresh.aclose()
    return out


@pytest.fixture(scope="session")
def edge_seeded_rows() -> list[dict]:
    """Every composed row of the seeded sample, flagged ``kept`` (the pipeline's filters before the
    answer check) and ``holds`` (kept, and its own answer holds its facts by the step metric)."""
    import asyncio

    return asyncio.run(_edge_rows())
