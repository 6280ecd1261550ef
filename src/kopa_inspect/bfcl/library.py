"""BFCL's own code, imported as a library without its provider SDKs.

``bfcl-eval`` is installed with ``--no-deps`` (its pins would downgrade numpy and pull a dozen
provider SDKs). Two of its module-level imports need care:

- ``bfcl_eval.constants.model_config`` imports every model handler (openai, anthropic, cohere,
  ...). The AST checker reads one field from it, ``underscore_to_dot``: whether the model saw
  ``math.factorial`` as ``math_factorial``. Our tools are offered the way BFCL offers them to every
  function-calling API model (dots replaced), so a stand-in mapping answers ``True`` for every name.
- ``bfcl_eval.constants.eval_config`` creates ``result/``, ``score/`` and ``.file_locks/`` under
  ``BFCL_PROJECT_ROOT`` (default: next to the installed package) on import; we point it at a
  private temporary folder so that importing never writes into site-packages.
"""

from __future__ import annotations

import os
import sys
import tempfile
import types
from dataclasses import dataclass
from functools import cache
from typing import Any

from kopa_inspect._extras import MissingExtra

BFCL_VERSION = "2026.3.23"
INSTALL_HINT = f"pip install 'kopa-inspect[bfcl]' && pip install --no-deps bfcl-eval=={BFCL_VERSION}"
MODEL_CONFIG_MODULE = "bfcl_eval.constants.model_config"


@dataclass(frozen=True)
class _FunctionCallingModel:
    """The one ModelConfig field the checkers read."""

    underscore_to_dot: bool = True


class _AnyFunctionCallingModel(dict):
    """MODEL_CONFIG_MAPPING stand-in: every model name is a function-calling model."""

    def __missing__(self, key: str) -> _FunctionCallingModel:
        return _FunctionCallingModel()


def _install_model_config_stand_in() -> None:
    if MODEL_CONFIG_MODULE in sys.modules:
        return
    module = types.ModuleType(MODEL_CONFIG_MODULE)
    module.MODEL_CONFIG_MAPPING = _AnyFunctionCallingModel()  # type: ignore[attr-defined]
    sys.modules[MODEL_CONFIG_MODULE] = module


@cache
def bfcl() -> types.SimpleNamespace:
    """BFCL's data loaders, checkers, backend executor and score aggregation, imported once."""
    try:
        import bfcl_eval  # noqa: F401
    except ImportError:
        raise MissingExtra(
            f"BFCL needs bfcl-eval and its checker's imports: {INSTALL_HINT}", name="bfcl_eval"
        ) from None
    os.environ.setdefault("BFCL_PROJECT_ROOT", tempfile.mkdtemp(prefix="bfcl-root-"))
    _install_model_config_stand_in()
    try:
        from bfcl_eval import utils
        from bfcl_eval.constants import default_prompts
        from bfcl_eval.constants.enums import Language
        from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI
        from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
        from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_checker as mt_checker
        from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils
    except ImportError as exc:
        raise MissingExtra(f"BFCL's checker needs {exc.name}: {INSTALL_HINT}", name=exc.name) from None
    return types.SimpleNamespace(
        utils=utils,
        prompts=default_prompts,
        Language=Language,
        GORILLA_TO_OPENAPI=GORILLA_TO_OPENAPI,
        ast_checker=ast_checker,
        multi_turn_checker=mt_checker.multi_turn_checker,
        multi_turn_utils=multi_turn_utils,
    )


@cache
def aggregation() -> Any:
    """BFCL's leaderboard aggregation module (its category weighting); imports pandas."""
    bfcl()
    try:
        from bfcl_eval.eval_checker import eval_runner_helper
    except ImportError as exc:
        raise MissingExtra(
            f"BFCL's score aggregation needs {exc.name}: {INSTALL_HINT}", name=exc.name
        ) from None
    return eval_runner_helper


def installed_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bfcl-eval")
    except PackageNotFoundError:
        return None


def installed_license() -> str | None:
    """The licence bfcl-eval declares (its data and checkers come under it: Apache 2.0)."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("bfcl-eval")
    except PackageNotFoundError:
        return None
    # PackageMetadata declares no .get (its runtime class, email's Message, has one)
    if "License" not in meta:
        return None
    return meta["License"]
