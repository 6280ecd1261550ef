"""EDGE's per-machine cache is built once: a second warm-up (or a synth after setup) embeds nothing new."""

from __future__ import annotations

from pathlib import Path

import pytest

from edge_synth.warm import cache_dir, warm
from kopa_inspect.apis import operations


def test_the_cache_lives_where_kopa_edge_cache_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KOPA_EDGE_CACHE", str(tmp_path / "edge"))
    assert cache_dir() == tmp_path / "edge"
    monkeypatch.delenv("KOPA_EDGE_CACHE")
    assert cache_dir() == Path.home() / ".cache" / "kopa-edge"


def test_a_second_warm_up_embeds_nothing(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    ops = [operations()[k] for k in ("kasi_getRestDeInfo", "kasi_getHoliDeInfo", "neis_schoolInfo")]
    first = warm(ops, tmp_path)
    assert first["cached_before"] == 0 and first["cached_after"] > 0
    assert (tmp_path / "embeddings.json").exists()
    second = warm(ops, tmp_path)
    assert second["cached_before"] == second["cached_after"] == first["cached_after"]
