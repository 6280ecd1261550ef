"""The compact tool section of the shared local chat template loses nothing a model needs.

Every tool of every spec (each operation tool, each platform's auth tool, and KOPA-Bench's
``search_tools``) is rendered through the template that training (SFT/GRPO prompts, via the
tokenizer's template) and evaluation (``hf/local``, ``llamacpp/``) share, and this file reads back,
from the rendered text alone, each tool's name, description, parameter names, types, required
flags, enums, parameter descriptions and any other schema key (default, items). A rendering that
drops any of them fails here: :func:`test_a_lossy_rendering_is_caught` renders with a template that
leaves out the enums, then the required flags, and sees the read-back fail.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kopa_inspect.providers import chat_templates as ct

_DECODER = json.JSONDecoder()


def _all_tools() -> list[dict[str, Any]]:
    """Every tool a model can be shown, as the providers dump it (ToolInfo without None fields)."""

    from inspect_ai.tool import ToolInfo

    from kopa_inspect.apis import get_operation, get_platform, operations
    from kopa_inspect.apis._schema import auth_tool_schema, tool_schema
    from kopa_inspect.providers.local_chat import tool_dicts
    from kopa_inspect.steps.task import tool_info
    from kopa_inspect.tools import LiveSession, search_tool

    schemas = [tool_schema(get_operation(op)) for op in operations()]
    platforms = sorted({get_operation(op).platform for op in operations()})
    schemas += [auth_tool_schema(p) for p in platforms if get_platform(p).session_token_param]
    infos = [tool_info(s) for s in schemas]
    search = search_tool(LiveSession(session=None))  # type: ignore[arg-type]
    infos.append(ToolInfo(name=search.name, description=search.description, parameters=search.parameters))
    return tool_dicts(infos)


def _json_at(text: str, pos: int) -> tuple[Any, int]:
    value, end = _DECODER.raw_decode(text, pos)
    return value, end


def _param(line: str) -> tuple[str, dict[str, Any], bool]:
    """One ``- name (type[, required][, one of [...]][, key json]...)[: description]`` line."""
    assert line.startswith("- "), line
    open_at = line.index(" (", 2)
    name = line[2:open_at]
    pos = open_at + 2
    schema: dict[str, Any] = {}
    if line[pos] in "[{":
        schema["type"], pos = _json_at(line, pos)
    else:
        end = min(i for i in (line.find(",", pos), line.find(")", pos)) if i >= 0)
        schema["type"] = line[pos:end]
        pos = end
    required = False
    while line[pos] == ",":
        pos += 2
        if line.startswith("required", pos):
            required, pos = True, pos + len("required")
        elif line.startswith("one of ", pos):
            schema["enum"], pos = _json_at(line, pos + len("one of "))
        else:
            space = line.index(" ", pos)
            key = line[pos:space]
            schema[key], pos = _json_at(line, space + 1)
    assert line[pos] == ")", line
    rest = line[pos + 1 :]
    if rest:
        assert rest.startswith(": "), line
        schema["description"] = rest[2:]
    return name, schema, required


def read_back(text: str) -> dict[str, dict[str, Any]]:
    """{tool name: {"description", "properties", "required"}} read from a rendered prompt only."""
    assert text.count("<tools>\n") == 1 and text.count("\n</tools>") == 1, "one <tools> section expected"
    section = text.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0]
    assert section.startswith("## ")
    out: dict[str, dict[str, Any]] = {}
    for block in section[3:].split("\n## "):
        lines = block.split("\n")
        name, body = lines[0], lines[1:]
        first_param = next((i for i, line in enumerate(body) if line.startswith("- ")), len(body))
        props: dict[str, Any] = {}
        required: list[str] = []
        for line in body[first_param:]:
            pname, schema, is_required = _param(line)
            assert pname not in props, f"{name}: {pname} twice"
            props[pname] = schema
            if is_required:
                required.append(pname)
        assert name not in out, f"{name} rendered twice"
        out[name] = {"description": "\n".join(body[:first_param]), "properties": props, "required": required}
    return out


def _expected(tool: dict[str, Any]) -> dict[str, Any]:
    params = tool.get("parameters") or {}
    props = params.get("properties") or {}
    return {
        "description": tool.get("description", ""),
        "properties": props,
        "required": [p for p in props if p in (params.get("required") or [])],
    }


def _check(text: str, tools: list[dict[str, Any]]) -> None:
    back = read_back(text)
    assert list(back) == [t["name"] for t in tools]
    for tool in tools:
        assert back[tool["name"]] == _expected(tool), tool["name"]


@pytest.fixture(scope="module")
def all_tools() -> list[dict[str, Any]]:
    return _all_tools()


def test_every_tool_of_every_spec_reads_back(all_tools: list[dict[str, Any]]) -> None:
    # enums, defaults and array items do occur, so the read-back checks them for real
    props = [p for t in all_tools for p in (t.get("parameters") or {}).get("properties", {}).values()]
    assert (
        any("enum" in p for p in props)
        and any("default" in p for p in props)
        and any("items" in p for p in props)
    )
    assert len(all_tools) > 1000
    messages = [{"role": "system", "content": "SYS"}, {"role": "user", "content": "q"}]
    for template in ("chatml", "gemma"):
        _check(ct.render(template, messages, all_tools), all_tools)


def test_the_hf_path_renders_the_same_text(all_tools: list[dict[str, Any]]) -> None:
    """transformers (hf/local, and training through the tokenizer's template) renders the same text."""
    chat_template_utils = pytest.importorskip("transformers.utils.chat_template_utils")
    messages = [{"role": "system", "content": "SYS"}, {"role": "user", "content": "q"}]
    for name, source in ct.TEMPLATES.items():
        [theirs], _ = chat_template_utils.render_jinja_template(
            conversations=[messages], tools=all_tools, chat_template=source, add_generation_prompt=True
        )
        assert theirs == ct.render(name, messages, all_tools)
    assert ct.render_tools(all_tools) in ct.render("chatml", messages, all_tools)


def test_unusual_schemas_read_back() -> None:
    """Shapes no spec uses today still survive: a type list, nested items, a parameter without a
    description, a description with a colon and parentheses, a tool without parameters."""
    tools = [
        {
            "name": "f",
            "description": "line one (x): y\nline two",
            "parameters": {
                "type": "object",
                "properties": {
                    "a": {"type": ["integer", "null"], "description": "a (b), c: d"},
                    "b": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"k": {"type": "string"}}},
                    },
                    "c": {"type": "string", "enum": ["x, y", ")"], "default": "x, y", "description": "pick"},
                },
                "required": ["c"],
            },
        },
        {"name": "g", "description": "no parameters"},
    ]
    _check(ct.render("chatml", [{"role": "user", "content": "q"}], tools), tools)


@pytest.mark.parametrize(
    ("fragment", "lossy"),
    [
        (ct._ENUM_FRAGMENT, ""),  # enums dropped
        (ct._REQUIRED_FRAGMENT, ""),  # required flags dropped
    ],
)
def test_a_lossy_rendering_is_caught(all_tools: list[dict[str, Any]], fragment: str, lossy: str) -> None:
    assert fragment in ct.CHATML_TOOL_TEMPLATE
    template = ct.CHATML_TOOL_TEMPLATE.replace(fragment, lossy)
    text = ct.render(template, [{"role": "user", "content": "q"}], all_tools)
    with pytest.raises(AssertionError):
        _check(text, all_tools)


def test_the_old_json_rendering_fails_the_read_back(all_tools: list[dict[str, Any]]) -> None:
    """The read-back is specific to the compact layout: the JSON-schema lines do not parse as it."""
    old = "\n".join(
        json.dumps({"type": "function", "function": t}, ensure_ascii=False) for t in all_tools[:3]
    )
    with pytest.raises(AssertionError):
        _check(f"<tools>\n{old}\n</tools>", all_tools[:3])
