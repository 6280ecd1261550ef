"""bfcl-eval comes in for its data and checkers only: the project's numpy and torch stay, no SDK comes along.

bfcl-eval declares numpy==1.26.4 and a dozen provider SDKs; scripts/setup-env.sh installs it with
``--no-deps`` and the ``bfcl`` extra brings what its checkers import.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from importlib.metadata import requires, version
from pathlib import Path

import pytest

pytest.importorskip(
    "bfcl_eval",
    reason="the bfcl extra is not installed: pip install 'kopa-inspect[bfcl]' && pip install --no-deps bfcl-eval",
)

from kopa_inspect.bfcl.library import BFCL_VERSION  # noqa: E402

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
# Declared by bfcl-eval, imported by none of the modules used here (provider SDKs, its prompt parsers,
# its memory and web-search backends).
NOT_WANTED = (
    "cohere",
    "mistralai",
    "qwen_agent",
    "writerai",
    "faiss",
    "tree_sitter",
    "serpapi",
    "rank_bm25",
    "datamodel_code_generator",
)
PROVIDER_SDKS = (
    "openai",
    "anthropic",
    "cohere",
    "mistralai",
    "google.genai",
    "boto3",
    "qwen_agent",
    "tree_sitter",
)


def _pin(extra: str, name: str) -> str:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"][extra]
    spec = next(d for d in deps if d.startswith(f"{name}=="))
    return spec.split("==", 1)[1]


def test_bfcl_eval_is_the_checked_version() -> None:
    assert version("bfcl-eval") == BFCL_VERSION


def test_numpy_and_torch_are_the_projects_not_bfcls() -> None:
    bfcl_numpy = next(r for r in requires("bfcl-eval") or [] if r.replace(" ", "").startswith("numpy=="))
    assert version("numpy") != bfcl_numpy.split("==", 1)[1], "bfcl-eval's numpy pin was installed"
    assert version("torch").split("+")[0] == _pin("train", "torch")


def test_bfcl_declared_sdks_are_not_installed() -> None:
    present = [m for m in NOT_WANTED if importlib.util.find_spec(m) is not None]
    assert present == [], f"bfcl-eval's declared dependencies came along: {present}"


def test_checkers_and_aggregation_import_no_provider_sdk() -> None:
    probe = (
        "import sys\n"
        "from kopa_inspect.bfcl.library import bfcl, aggregation\n"
        "b = bfcl(); aggregation()\n"
        "assert callable(b.ast_checker) and callable(b.multi_turn_checker)\n"
        f"print(','.join(m for m in {PROVIDER_SDKS!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ""
