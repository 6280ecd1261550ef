"""MCP: a client lists and calls a platform's tools through `kopa mcp` (stdio), in-process and over
streamable HTTP on loopback; the tools are exactly the schema module's tools."""

from __future__ import annotations

import json
import sys

import pytest
from mcp import Client, StdioServerParameters

from _emulator_server import ServerThread
from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._schema import tool_schema
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY
from kopa_inspect.mcp import build_server, http_app, platform_tool_schemas

CLOCK = "2026-10-15T14:20:00+09:00"


def kopa_stdio(*args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-c", "from kopa_inspect.cli import app; app()", *args]
    )


async def test_stdio_lists_and_calls_seoul_tools():
    expected = {op.id for op in operations().values() if op.platform == "seoul"}
    async with Client(kopa_stdio("mcp", "seoul", "--clock", CLOCK), read_timeout_seconds=60) as client:
        listed = await client.list_tools()
        names = {t.name for t in listed.tools}
        assert names == expected
        bike = next(t for t in listed.tools if t.name == "seoul_bikeList")
        assert bike.input_schema == tool_schema(operations()["seoul_bikeList"])["function"]["parameters"]
        assert "서울" in (bike.description or "")
        result = await client.call_tool("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 3})
        assert not result.is_error
        doc = json.loads(result.content[0].text)
        assert doc["resultCode"] == "INFO-000" and len(doc["items"]) == 3
        assert DEFAULT_EMULATOR_KEY not in result.content[0].text
        bad = await client.call_tool("seoul_bikeList", {"START_INDEX": 3, "END_INDEX": 1})
        assert bad.is_error and "ERROR-334" in bad.content[0].text


async def test_in_process_assembly_server_and_unknown_tool():
    async with Client(build_server("assembly", clock=CLOCK)) as client:
        listed = await client.list_tools()
        assert len(listed.tools) == sum(1 for op in operations().values() if op.platform == "assembly")
        res = await client.call_tool("assembly_nwvrqwxyaytdsfvhu", {"pSize": 2})
        assert not res.is_error and len(json.loads(res.content[0].text)["items"]) == 2
        unknown = await client.call_tool("seoul_bikeList", {})
        assert unknown.is_error


async def test_auth_tool_for_session_token_platforms():
    token_platforms = [p for p in platforms().values() if p.session_token_param]
    if not token_platforms:
        pytest.skip("no platform with a session-token auth tool is registered yet")
    platform = token_platforms[0]
    schemas = platform_tool_schemas(platform.id)
    assert schemas[0]["function"]["name"] == f"{platform.id}_get_api_key"
    async with Client(build_server(platform.id, clock=CLOCK)) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names[0] == f"{platform.id}_get_api_key"
        token = json.loads((await client.call_tool(names[0], {})).content[0].text)[
            platform.session_token_param
        ]
        assert token.startswith("sess-") and token != DEFAULT_EMULATOR_KEY


async def test_streamable_http_on_loopback():
    with ServerThread(http_app(build_server("seoul", clock=CLOCK))) as url:
        async with Client(f"{url}/mcp") as client:
            listed = await client.list_tools()
            assert any(t.name == "seoul_RealtimeCityAir" for t in listed.tools)
            res = await client.call_tool(
                "seoul_RealtimeCityAir", {"START_INDEX": 1, "END_INDEX": 25, "MSRSTE_NM": "강남구"}
            )
            items = json.loads(res.content[0].text)["items"]
            assert [i["MSRSTE_NM"] for i in items] == ["강남구"]
