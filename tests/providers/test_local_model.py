"""The local SmolLM2-135M-Instruct: one-time conversion and a one-sample eval on CPU (slow), and the
guards around the conversion (fast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kopa_inspect.scorers import axis_values

TASK_FILE = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")


@pytest.fixture(scope="module")
def model_dir() -> Path:
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    from kopa_inspect.providers.local import gguf_path, prepare_local_model

    try:
        gguf_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    return prepare_local_model()


@pytest.mark.slow
def test_prepared_folder_is_a_tool_capable_hf_model(model_dir: Path) -> None:
    from transformers import AutoTokenizer

    from kopa_inspect.providers.local import MARKER, is_prepared, prepare_local_model

    assert is_prepared(model_dir) and (model_dir / MARKER).exists()
    assert (model_dir / "config.json").exists() and (model_dir / "model.safetensors").exists()
    assert prepare_local_model(model_dir) == model_dir  # idempotent, no second conversion
    tok = AutoTokenizer.from_pretrained(str(model_dir))
    tools = [{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}]
    messages = [
        {"role": "system", "content": "SYS"},
        {"role": "user", "content": "hi"},
        # Inspect's ToolCall shape (function is the name) ...
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "1", "function": "f", "arguments": {"a": 1}}],
        },
        {"role": "tool", "content": "R1", "tool_call_id": "1"},
        # ... and the Hugging Face / TRL shape
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {"a": 2}}}],
        },
        {"role": "tool", "content": "R2"},
    ]
    text = tok.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)
    assert text.startswith("<|im_start|>system\nSYS")
    assert "<tools>\n## f\nd\n</tools>" in text  # the compact tool section (chat_templates.TOOLS_SECTION)
    assert '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>' in text
    assert '<tool_call>\n{"name": "f", "arguments": {"a": 2}}\n</tool_call>' in text
    assert "<tool_response>\nR2\n</tool_response>" in text
    assert text.endswith("<|im_start|>assistant\n")
    assert getattr(tok, "response_template", None) is not None  # TRL parses tool calls with it


@pytest.mark.slow
def test_one_sample_eval_with_hf_local(model_dir: Path, tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval

    from kopa_inspect.apis import operations

    if "kma_getVilageFcst" not in operations():
        pytest.skip("kma not registered")
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="hf/local",
        model_args={"model_path": str(model_dir), "device": "cpu", "do_sample": False},
        task_args={"task_file": TASK_FILE, "ids": "kopa-903", "max_turns": 2},
        max_tokens=48,
        log_dir=str(tmp_path),
        display="none",
    )
    log = logs[0]
    assert log.status == "success", log.error
    files = list(tmp_path.glob("*.eval"))
    assert len(files) == 1
    sample = log.samples[0]
    value = axis_values(sample.scores)
    assert set(value) >= {"success", "answer", "call_f1", "chain", "env"}
    assert sample.output.model  # the local model answered something (it is not expected to be right)
    json.dumps(value)


@pytest.mark.parametrize("force", [False, True])
def test_conversion_never_deletes_a_folder_it_did_not_make(tmp_path: Path, force: bool) -> None:
    # KOPA_LOCAL_MODEL_DIR pointed at the user's own model folder must not be wiped and replaced.
    from kopa_inspect.providers.local import prepare_local_model

    theirs = tmp_path / "my-model"
    theirs.mkdir()
    (theirs / "model.safetensors").write_bytes(b"precious")
    with pytest.raises(FileExistsError, match=r"my-model exists and is not a kopa local model folder"):
        prepare_local_model(theirs, force=force)
    assert (theirs / "model.safetensors").read_bytes() == b"precious"


def test_a_file_in_place_of_the_folder_is_a_clear_error(tmp_path: Path) -> None:
    from kopa_inspect.providers.local import prepare_local_model

    (tmp_path / "f").write_text("x")
    with pytest.raises(FileExistsError, match="is a file"):
        prepare_local_model(tmp_path / "f")


def test_a_prepared_folder_gets_the_current_chat_template(tmp_path: Path) -> None:
    """Training reads the template from the folder, llama.cpp renders the module's: a folder
    prepared before a template change is brought up to date (no weight conversion), so both see
    the same prompt."""
    from kopa_inspect.providers.local import FORMAT_VERSION, MARKER, TOOL_CHAT_TEMPLATE, prepare_local_model

    folder = tmp_path / "m"
    folder.mkdir()
    (folder / MARKER).write_text(json.dumps({"format": FORMAT_VERSION}))
    (folder / "model.safetensors").write_bytes(b"weights")
    (folder / "chat_template.jinja").write_text("{{ messages }} <tools> old json tools </tools>")
    assert prepare_local_model(folder) == folder
    assert (folder / "chat_template.jinja").read_text() == TOOL_CHAT_TEMPLATE
    assert (folder / "model.safetensors").read_bytes() == b"weights"  # not converted again
    mtime = (folder / "chat_template.jinja").stat().st_mtime_ns
    prepare_local_model(folder)
    assert (folder / "chat_template.jinja").stat().st_mtime_ns == mtime  # already current: untouched
