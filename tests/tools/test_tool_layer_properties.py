"""No model output can break a sample (issue 25.1): a property over the tool layer and backends.

Whatever arguments a model sends to a tool (surrogates, control characters, huge strings, nested
objects, wrong types, unknown names, a forged session token), the tool function either returns a
string the model can read or raises ``ToolError`` (or Inspect's ``ToolParsingError``), which
Inspect hands back to the model as a tool error; the sample goes on. No other exception escapes,
what the model reads is text that encodes as UTF-8, and the service key never appears in it.

Driven through the embedded backend (the emulator in-process), the HTTP backend against the
emulator served by uvicorn on loopback (``_emulator_server.ServerThread``, what ``kopa serve``
runs), a recording backend and a replay backend whose recording holds none of the calls, for the
first operation of every platform, the auth tools and ``search_tools``.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from inspect_ai.model._call_tools import tool_params
from inspect_ai.tool import ToolDef, ToolError
from inspect_ai.tool._tool import ToolParsingError
from inspect_ai.util import store
from inspect_ai.util._store import Store, init_subtask_store

from _emulator_server import ServerThread
from kopa_inspect.apis import get_platform, operations, platforms
from kopa_inspect.backends import Backend, BackendConfig, EmbeddedBackend, ServedBackend, make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, EmulatorConfig, create_app
from kopa_inspect.execution import Session
from kopa_inspect.tools import CALLS_KEY, LiveSession, auth_tool, operation_tool, search_tool

CLOCK = "2026-10-15T14:20:00+09:00"
KEY_FORMS = {
    DEFAULT_EMULATOR_KEY,
    urllib.parse.quote(DEFAULT_EMULATOR_KEY, safe=""),
    urllib.parse.quote_plus(DEFAULT_EMULATOR_KEY),
    urllib.parse.quote(DEFAULT_EMULATOR_KEY),
}


def first_ops() -> dict[str, str]:
    out: dict[str, str] = {}
    for op in operations().values():
        out.setdefault(op.platform, op.id)
    return out


FIRST_OPS = first_ops()


# --- what a model may send -------------------------------------------------------------------

# Any code point, surrogates and control characters included.
_any_char = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
_nasty_text = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\ud800",
        "\udfff x",
        "a\u202eb",
        "\r\n\t",
        "%2F%00%FF",
        "../../etc",
        "?a=1&b=2#f",
        "/",
        "x" * 100_000,
        "가" * 30_000,
        "1e309",
        "NaN",
        "-0",
        "０１",
        "<x>&amp;</x>",
        '{"a": 1}',
        "DROP TABLE",
    ]
)
_text = st.text(_any_char, max_size=30) | _nasty_text
_scalar = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | _text
)
json_value = st.recursive(
    _scalar,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_text, children, max_size=4),
    max_leaves=12,
)


@st.composite
def model_args(draw: st.DrawFn, op_id: str) -> dict[str, Any]:
    """An argument dict: the tool's own parameter names (and the platform's token) with any values,
    plus names of its own."""
    op = operations()[op_id]
    platform = get_platform(op.platform)
    names = [p.name for p in op.params] + [platform.session_token_param or "serviceKey", "KEY", "_type"]
    name = st.sampled_from(names) | _text
    return draw(st.dictionaries(name, json_value, max_size=6))


# --- running the tools -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def runner() -> Iterator[asyncio.Runner]:
    with asyncio.Runner() as r:
        yield r


@pytest.fixture(scope="module")
def served_url() -> Iterator[str]:
    with ServerThread(create_app(EmulatorConfig())) as url:
        yield url


@pytest.fixture(scope="module", params=["embedded", "served", "recording", "replay"])
def backend(
    request: pytest.FixtureRequest, runner: asyncio.Runner, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Backend]:
    async def make() -> Backend:
        if request.param == "embedded":
            return EmbeddedBackend(BackendConfig(seed=3))
        if request.param == "recording":
            return make_backend(seed=3, recording=str(tmp_path_factory.mktemp("rec") / "calls.jsonl"))
        if request.param == "replay":  # a recording that holds none of these calls
            empty = tmp_path_factory.mktemp("replay") / "none.jsonl"
            empty.write_text("", encoding="utf-8")
            return make_backend(kind="replay", recording=str(empty))
        url = request.getfixturevalue("served_url")
        return ServedBackend(BackendConfig(kind="served", base_url=url, seed=3))

    b = runner.run(make())
    yield b
    runner.run(b.aclose())


def readable(text: Any) -> str:
    """What the model reads must be text that encodes and holds no form of the key."""
    assert isinstance(text, str), type(text)
    text.encode("utf-16", "surrogatepass")  # any str encodes so; the next line is the real check
    json.dumps(text)  # a tool result goes into the model's next request as JSON
    for form in KEY_FORMS:
        assert form not in text, f"the service key leaked: {text[:300]}"
    return text


async def call_tool(td: ToolDef, args: dict[str, Any]) -> str:
    """Call a tool as Inspect does (its argument mapping, then the function); an error the model
    sees comes back as its text."""
    try:
        params = tool_params(args, td.tool)
        return readable(await td.tool(**params))
    except ToolParsingError as exc:
        return readable(exc.message)
    except ToolError as exc:
        return readable(exc.message)


def check_op_call(
    runner: asyncio.Runner, backend: Backend, op_id: str, args: dict[str, Any], with_token: bool
) -> None:
    init_subtask_store(Store())
    live = LiveSession(Session(backend, clock=CLOCK, seed=3))
    platform = get_platform(operations()[op_id].platform)

    async def go() -> None:
        if with_token and platform.session_token_param:
            token = json.loads(await call_tool(auth_tool(platform.id, live), {}))["token"]
            args.setdefault(platform.session_token_param, token)
        await call_tool(operation_tool(op_id, live), args)

    runner.run(go())
    # What the sample store keeps must stay loggable.
    json.dumps(store().get(CALLS_KEY, []))


# Regression examples: each of these raised out of the tool before its fix.
@pytest.mark.parametrize("platform", sorted(FIRST_OPS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), with_token=st.booleans())
@example(data=None, with_token=True)
def test_any_arguments_end_as_text_or_a_tool_error(
    runner: asyncio.Runner, backend: Backend, platform: str, data: st.DataObject | None, with_token: bool
) -> None:
    op_id = FIRST_OPS[platform]
    if data is None:
        # A lone surrogate, an object, a huge integer and a nested list, in every parameter.
        op = operations()[op_id]
        values: list[Any] = ["\ud800", {"a": {"b": [1]}}, 10**5000, [[["x"]]], float("nan")]
        for value in values:
            check_op_call(
                runner, backend, op_id, {p.name: value for p in op.visible_params} or {"x": value}, with_token
            )
        return
    check_op_call(runner, backend, op_id, data.draw(model_args(op_id)), with_token)


@pytest.mark.slow
@pytest.mark.parametrize("op_id", sorted(operations())[::25])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), with_token=st.booleans())
def test_any_arguments_many_operations(
    runner: asyncio.Runner, backend: Backend, op_id: str, data: st.DataObject, with_token: bool
) -> None:
    check_op_call(runner, backend, op_id, data.draw(model_args(op_id)), with_token)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.dictionaries(st.sampled_from(["query", "k"]) | _text, json_value, max_size=4))
@example(args={"query": "날씨", "k": "abc"})
@example(args={"query": "날씨", "k": 10**5000})
@example(args={"query": {"a": 1}, "k": float("inf")})
@example(args={"query": "\ud800" * 3, "k": None})
def test_search_tool_takes_any_arguments(
    runner: asyncio.Runner, backend: Backend, args: dict[str, Any]
) -> None:
    live = LiveSession(Session(backend, clock=CLOCK))
    runner.run(call_tool(search_tool(live), args))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.dictionaries(_text, json_value, max_size=3))
def test_auth_tools_take_any_arguments(
    runner: asyncio.Runner, backend: Backend, args: dict[str, Any]
) -> None:
    live = LiveSession(Session(backend, clock=CLOCK))
    for p in platforms().values():
        if p.session_token_param:
            runner.run(call_tool(auth_tool(p.id, live), args))


def test_the_key_check_can_fail() -> None:
    """readable() is not vacuous: a text holding the key, raw or encoded, is refused."""
    for form in KEY_FORMS:
        with pytest.raises(AssertionError):
            readable(f"error at ...?serviceKey={form}")
    with pytest.raises(AssertionError):
        readable(b"bytes")
