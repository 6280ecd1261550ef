"""Fixtures of the slow training tests: the packaged local model and a small EDGE dataset.

Both are module-scoped, so each training module builds its own; a module that needs more EDGE
rows overrides ``edge_rows``.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def local_model() -> Path:
    """The local SmolLM2-135M-Instruct folder; skips where TRL, PEFT or the model file is missing."""
    pytest.importorskip("trl")
    pytest.importorskip("peft")
    from kopa_inspect.providers.local import gguf_path, prepare_local_model

    try:
        gguf_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    return prepare_local_model()


@pytest.fixture(scope="module")
def edge_rows() -> int:
    """How many EDGE questions ``edge_data`` asks the pipeline for."""
    return 4


@pytest.fixture(scope="module")
def edge_data(edge_rows: int, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small EDGE dataset on disk (small grounding budget, no retriever), at least two rows."""
    from datasets import load_from_disk

    from edge_synth.pipeline import SynthConfig, run
    from edge_synth.verify import GroundingConfig

    out = tmp_path_factory.mktemp("edge")
    cfg = SynthConfig(
        out=str(out),
        n=edge_rows,
        seed=0,
        chunk_size=10,
        use_retriever=False,
        grounding=GroundingConfig(rounds=4, paths_per_round=20, eval_paths=10),
    )
    summary = run(cfg)
    assert summary["n_kept"] >= 2, summary
    data = out / "dataset"
    assert len(load_from_disk(str(data))) == summary["n_kept"]
    return data
