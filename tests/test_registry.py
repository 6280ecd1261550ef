"""The whole registry at the paper's scale: 1,000+ tools over 10+ platforms, each with a real-looking
schema and description, each reachable at its own path."""

from __future__ import annotations

import re
import urllib.parse
from collections import Counter

from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._schema import tool_schema
from kopa_inspect.backends import build_request
from kopa_inspect.emulator import Router

MIN_TOOLS = 1000
MIN_PLATFORMS = 10


def test_scale_matches_the_paper():
    ops = operations()
    per_platform = Counter(op.platform for op in ops.values())
    assert len(platforms()) >= MIN_PLATFORMS, sorted(platforms())
    assert len(ops) >= MIN_TOOLS, dict(per_platform)
    assert all(per_platform[p] >= 1 for p in platforms()), dict(per_platform)


def test_every_tool_has_a_real_looking_schema():
    names: set[str] = set()
    for op in operations().values():
        fn = tool_schema(op)["function"]
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", fn["name"]), fn["name"]
        assert fn["name"] not in names
        names.add(fn["name"])
        assert re.search("[가-힣]", fn["description"]), op.id  # Korean ...
        assert re.search("[A-Za-z]{3,}", fn["description"]), op.id  # ... with an English gloss
        params = fn["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"]), op.id
        for name, prop in params["properties"].items():
            assert prop.get("type") in {"string", "integer", "number", "boolean", "array"}, (op.id, name)
            assert prop.get("description"), (op.id, name)
        platform = platforms()[op.platform]
        # (a session-token platform may name its token parameter like the key it stands for)
        exposed = set(platform.key_params) & set(params["properties"]) - {platform.session_token_param}
        assert not exposed, f"{op.id} exposes its key parameter"


def test_every_operation_routes_to_itself():
    router = Router(operations().values())
    for op in operations().values():
        args = {p.name: (p.default if p.default is not None else "1") for p in op.params if p.required or p.location == "path"}
        req = build_request(op, args, "testkey")
        resolved = router.resolve(op.method, urllib.parse.unquote(req.path))
        assert resolved is not None and resolved[0] is op, (op.id, req.path, resolved and resolved[0].id)


def test_platforms_are_described():
    for pid, p in platforms().items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", pid)
        assert re.search("[가-힣]", p.name) and "(" in p.name, pid
        assert p.live_base_url.startswith(("http://", "https://")), pid
