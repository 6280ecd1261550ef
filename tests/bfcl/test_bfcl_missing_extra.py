"""Without bfcl-eval the BFCL task stops with the commands that install it (it never downloads)."""

from __future__ import annotations

import sys

import pytest

from kopa_inspect._extras import MissingExtra
from kopa_inspect.bfcl import library


def test_task_without_bfcl_eval_names_the_install_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    from kopa_inspect.bfcl.task import bfcl

    monkeypatch.setitem(sys.modules, "bfcl_eval", None)  # import bfcl_eval -> ImportError
    library.bfcl.cache_clear()
    try:
        with pytest.raises(MissingExtra) as err:
            bfcl(categories="multi_turn_base", per_category=1)
    finally:
        library.bfcl.cache_clear()
    message = str(err.value)
    assert "pip install 'kopa-inspect[bfcl]'" in message
    assert f"pip install --no-deps bfcl-eval=={library.BFCL_VERSION}" in message


def test_unknown_category_is_refused() -> None:
    from kopa_inspect.bfcl.categories import resolve

    with pytest.raises(ValueError, match="unknown BFCL category 'live_simple'"):
        resolve("multi_turn,live_simple")
    assert resolve("multi_turn_base, irrelevance,multi_turn_base") == ["multi_turn_base", "irrelevance"]
