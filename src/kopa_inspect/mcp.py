"""Each platform as an MCP server (official ``mcp`` SDK, low-level :class:`mcp.server.lowlevel.Server`).

The tools an MCP client sees are exactly the tools a KOPA-Bench model sees: names,
descriptions and input schemas all come from :mod:`kopa_inspect.apis._schema`, and calls run
through :class:`kopa_inspect.execution.Session` over the same backends (embedded emulator by
default; served, live or replay on request). Platforms whose tools need a session token first
also expose their auth tool (``<platform>_get_api_key``), which hands out a session token,
never the real key.

Transports: stdio (``kopa mcp PLATFORM``) and streamable HTTP bound to loopback
(``kopa mcp PLATFORM --transport http --port 8091``, endpoint ``/mcp``).

One :class:`Session` per server process: over stdio that is one client; over HTTP the clients
of one server share it (session tokens included), which is what a single-user local server needs.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from kopa_inspect.apis import get_platform, operations
from kopa_inspect.apis._schema import auth_tool_name, auth_tool_schema, tool_schema
from kopa_inspect.backends import BackendConfig, make_backend
from kopa_inspect.execution import Session

SERVER_VERSION = "0.1.0"


def platform_tool_schemas(platform_id: str) -> list[dict[str, Any]]:
    """The platform's tools in the chat-template function format (auth tool first, if any)."""
    platform = get_platform(platform_id)
    schemas = [auth_tool_schema(platform_id)] if platform.session_token_param else []
    schemas += [tool_schema(op) for op in operations().values() if op.platform == platform_id]
    return schemas


def _as_mcp_tool(schema: dict[str, Any]) -> types.Tool:
    fn = schema["function"]
    return types.Tool(name=fn["name"], description=fn["description"], input_schema=fn["parameters"])


def _text(payload: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=payload)], is_error=error)


def build_server(
    platform_id: str,
    session: Session | None = None,
    backend: BackendConfig | None = None,
    clock: str | None = None,
) -> Server[Any]:
    """An MCP server exposing one platform's tools over ``session`` (or a fresh one)."""
    platform = get_platform(platform_id)
    if session is None:
        config = backend or BackendConfig()
        session = Session(make_backend(config), clock=clock, seed=config.seed)
    tools = [_as_mcp_tool(s) for s in platform_tool_schemas(platform_id)]
    tool_names = {t.name for t in tools}
    auth_name = auth_tool_name(platform_id) if platform.session_token_param else None

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name = params.name
        if name not in tool_names:
            return _text(f"알 수 없는 도구입니다 (unknown tool): {name}", error=True)
        if name == auth_name:
            token = session.issue_token(platform_id)
            return _text(json.dumps({platform.session_token_param: token}, ensure_ascii=False))
        result = await session.call(name, dict(params.arguments or {}))
        # API errors (INFO-200, ERROR-300 ...) are results the model should read and act on,
        # so they come back as tool errors with the API's own code and message.
        return _text(result.for_model(), error=not result.ok)

    return Server(
        f"kopa-{platform_id}",
        version=SERVER_VERSION,
        title=platform.name,
        description=platform.description or platform.name,
        instructions=f"{platform.name}: 도구 {len(tools)}개 (tools: {len(tools)}). "
        "도구 결과는 실제 API 응답을 정규화한 JSON입니다 (results are the normalized API responses).",
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def http_app(server: Server[Any], host: str = "127.0.0.1"):  # noqa: ANN201 - a Starlette app
    """The streamable-HTTP ASGI app (endpoint ``/mcp``); DNS-rebinding protection on loopback."""
    return server.streamable_http_app(host=host)


def serve_http(server: Server[Any], host: str = "127.0.0.1", port: int = 8091) -> None:
    import uvicorn

    uvicorn.run(http_app(server, host), host=host, port=port, log_level="warning")
