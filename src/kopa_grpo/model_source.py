"""Which model a training run starts from, checked before anything loads.

A config names its model under ``model:`` and ``kopa train --model`` overrides it. ``local`` is the
packaged SmolLM2 (converted once to a Hugging Face folder); anything else must be a local Hugging
Face folder, or a hub id where the machine may download (or has it cached). A path that is not
there used to reach ``from_pretrained``, which read it as a hub id and failed with "Repo id must be
in the form ...": this module stops it first with one line that says where to set the model.
"""

from __future__ import annotations

from pathlib import Path

LOCAL = "local"


class ModelNotFound(FileNotFoundError):
    """The training model is not where the settings say; the message names how to set it."""


def _hub_offline() -> bool:
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def _is_hub_id(name: str) -> bool:
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    if name.startswith(("/", ".", "~")):
        return False
    try:
        validate_repo_id(name)
    except HFValidationError:
        return False
    return True


def _hub_cached(repo_id: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)


OPTION = "--model"


def _named(name: str, source: str) -> str:
    where = "--model" if source == OPTION else f"`model:` of {source}"
    return f"model {name!r} (from {where})"


def _fix(source: str) -> str:
    if source == OPTION:
        return f"--model takes a local Hugging Face model folder (config.json and weights), or `{LOCAL}` for the packaged SmolLM2"
    return (
        f"pass `kopa train --model FOLDER` (a local Hugging Face model folder) or set `model:` in {source}; "
        f"`model: {LOCAL}` is the packaged SmolLM2"
    )


def check_model(name: str, source: str = "the config") -> None:
    """Raise :class:`ModelNotFound` unless ``name`` can be loaded without guessing.

    ``source`` is where the value came from: ``--model`` or a config's name, for the message.
    """
    if name == LOCAL:
        return
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ModelNotFound(f"{_named(name, source)} is a folder without config.json: {_fix(source)}")
        return
    if path.exists():
        raise ModelNotFound(f"{_named(name, source)} is a file, not a model folder: {_fix(source)}")
    hub_id = _is_hub_id(name)
    if hub_id and (not _hub_offline() or _hub_cached(name)):
        return
    why = (
        "no such folder, and the hub is offline (HF_HUB_OFFLINE) without it in its cache"
        if hub_id
        else "no such folder"
    )
    raise ModelNotFound(f"{_named(name, source)} not found ({why}): {_fix(source)}")


def resolve_model(name: str) -> str:
    """The folder (or hub id) to load: ``local`` becomes the converted packaged model."""
    if name == LOCAL:
        from kopa_inspect.providers.local import prepare_local_model

        return str(prepare_local_model())
    return str(Path(name).expanduser()) if Path(name).expanduser().is_dir() else name
