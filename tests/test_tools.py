"""Inspect tools built from the API specs, executed through a Session on the embedded emulator."""

from __future__ import annotations

import json

import pytest
from inspect_ai.tool import ToolDef, ToolError

from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._schema import parameters_schema
from kopa_inspect.backends import make_backend
from kopa_inspect.execution import Session
from kopa_inspect.tools import (
    LiveSession,
    auth_tool,
    build_tool_set,
    operation_tool,
    search_operations,
    select_operations,
    tools_for,
)

CLOCK = "2026-10-15T14:20:00+09:00"
KMA = "kma_getVilageFcst"


def _live() -> LiveSession:
    return LiveSession(Session(make_backend(), clock=CLOCK))


def _need(op_id: str) -> None:
    if op_id not in operations():
        pytest.skip(f"{op_id} not registered")


def test_every_operation_makes_a_valid_tool() -> None:
    live = _live()
    defs = tools_for(list(operations()), live)
    names = [d.name for d in defs]
    assert len(names) == len(set(names))
    for op_id in operations():
        assert op_id in names
    for d in defs:
        # Inspect fails a sample when a top-level parameter has no description.
        for name, p in d.parameters.properties.items():
            assert p.description, f"{d.name}.{name} has no description"
        assert d.description


def test_tool_schema_comes_from_the_spec() -> None:
    _need(KMA)
    td = operation_tool(KMA, _live())
    schema = parameters_schema(operations()[KMA])
    assert set(td.parameters.properties) == set(schema["properties"])
    assert td.parameters.required == schema["required"]
    assert "serviceKey" not in td.parameters.properties


async def test_call_returns_json_and_records() -> None:
    _need(KMA)
    live = _live()
    td = operation_tool(KMA, live)
    out = await td.tool(base_date="20261015", base_time="1400", nx=60, ny=127, numOfRows=5)
    data = json.loads(out)
    assert data["resultCode"] == "00" and len(data["items"]) == 5
    assert live.results[-1].ok and live.session.calls[-1].op_id == KMA
    assert "EMULATOR" not in out  # the key never reaches the model


async def test_api_error_is_a_tool_error_with_the_api_text() -> None:
    _need(KMA)
    td = operation_tool(KMA, _live())
    with pytest.raises(ToolError) as err:
        await td.tool(base_date="20261015", base_time="1430", nx=60, ny=127)
    assert "03" in str(err.value) and "NO_DATA" in str(err.value)


async def test_large_output_is_cut_and_says_so() -> None:
    _need(KMA)
    td = operation_tool(KMA, _live())
    from kopa_inspect.execution import DEFAULT_MAX_ITEMS

    out = json.loads(await td.tool(base_date="20261015", base_time="1400", nx=60, ny=127, numOfRows=300))
    assert len(out["items"]) <= DEFAULT_MAX_ITEMS < 300
    assert "_truncated" in out and "300" in out["_truncated"]


def test_tool_sets() -> None:
    ops = list(operations())
    if not ops:
        pytest.skip("no operations registered")
    first = operations()[ops[0]]
    assert select_operations("task", [ops[0], "nope_op"], []) == [ops[0]]
    same_platform = select_operations("platforms", [], [first.platform])
    assert ops[0] in same_platform and all(operations()[o].platform == first.platform for o in same_platform)
    assert select_operations("all", [], []) == ops
    assert [t.name for t in build_tool_set("search", _live(), [], []) if isinstance(t, ToolDef)] == ["search_tools"]
    with pytest.raises(ValueError):
        select_operations("some", [], [])


def test_search_operations_by_keyword() -> None:
    _need(KMA)
    found = search_operations("단기예보 격자 기온", k=3)
    assert found and found[0].startswith("kma_")
    assert search_operations("", k=3) == []
    if "molit_getRTMSDataSvcAptTrade" in operations():
        assert "molit_getRTMSDataSvcAptTrade" in search_operations("아파트 매매 실거래가", k=3)


async def test_auth_tool_issues_a_session_token() -> None:
    plat = next((p for p in platforms().values() if p.session_token_param), None)
    if plat is None:
        pytest.skip("no platform with a session token registered yet")
    live = _live()
    out = json.loads(await auth_tool(plat.id, live).tool())
    assert out["token"] == live.session.tokens[plat.id]
    assert out["param"] == plat.session_token_param
    op_ids = [o.id for o in operations().values() if o.platform == plat.id]
    names = [d.name for d in tools_for(op_ids, live)]
    assert names[0] == f"{plat.id}_get_api_key"


def test_auth_tool_refuses_platforms_without_tokens() -> None:
    plat = next((p for p in platforms().values() if not p.session_token_param), None)
    if plat is None:
        pytest.skip("every platform uses tokens")
    with pytest.raises(ValueError):
        auth_tool(plat.id, _live())


def test_registry_import_is_cheap() -> None:
    import subprocess
    import sys

    code = (
        "import sys, kopa_inspect._registry as r; "
        "heavy = [m for m in ('torch', 'transformers', 'kopa_inspect.apis.kma', 'kopa_inspect.backends') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
