"""Inspect tools built from the API spec modules.

One :class:`~inspect_ai.tool.ToolDef` per operation (name ``op.id``; description and JSON schema
from :mod:`kopa_inspect.apis._schema`, the one place a tool schema is made), executing through a
per-sample :class:`~kopa_inspect.execution.Session`. The service key is injected by the backend
below the session: the model never sees it and it never reaches a log.

- An API error comes back to the model as the API's own code and message (``ToolError``), so
  the model can recover as it would against the real service; the sample goes on.
- Large outputs are cut by :meth:`CallResult.for_model`, which says what it cut.
- Platforms with ``session_token_param`` get an auth tool ``<platform>_get_api_key`` that issues a
  short-lived session token (the paper's education-key trap).
- Every API call is recorded in the sample store (``kopa:calls``: JSON-safe, with totalCount and
  pageNo, for analysis; ``kopa:tokens``: platforms whose token was issued, read by the scorer's
  ENVIRONMENT axis). The live :class:`Session` itself is kept in :data:`_LIVE` keyed by the
  sample's uuid (a store value must be JSON-serializable); the oracle reads full results there.

Tool sets (:data:`TOOL_SETS`, the one list of valid names):

- ``task`` (default): the task's own operation ids plus its distractors (plausible wrong tools:
  the same platform's other operations, near namesakes, what a search for the question finds on
  other platforms), at least 10 operations, at least half of them wrong; see
  :mod:`kopa_inspect.task_data.distractors` for how they are chosen and why none of them can
  answer the task by itself;
- ``task_only``: the task's own operation ids, no distractors (an ablation);
- ``platforms``: every operation of the task's platforms; ``all``: every registered operation;
- ``search``: one ``search_tools`` tool that retrieves tools by keyword (BM25,
  :mod:`kopa_inspect.tool_search`) and adds them to the sample's tool list.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from inspect_ai.tool import Tool, ToolDef, ToolError, ToolParams
from inspect_ai.util import store

from kopa_inspect.apis import get_operation, get_platform, operations
from kopa_inspect.apis._schema import auth_tool_name, parameters_schema, tool_description
from kopa_inspect.backends import Backend, BackendConfig, make_backend
from kopa_inspect.execution import CallResult, Session
from kopa_inspect.tool_search import search_operations

if TYPE_CHECKING:
    from kopa_inspect.task_data.schema import BenchTask

ToolSet = Literal["task", "task_only", "platforms", "all", "search"]
TOOL_SETS: tuple[str, ...] = ("task", "task_only", "platforms", "all", "search")

CALLS_KEY = "kopa:calls"
TOKENS_KEY = "kopa:tokens"
SESSION_KEY = "kopa:session"
SEARCH_TOOL = "search_tools"


@dataclass
class LiveSession:
    """What a running sample holds beyond the store: the session and the full call results."""

    session: Session
    results: list[CallResult] = field(default_factory=list)


# sample uuid -> live session; entries are removed by the task's cleanup.
_LIVE: dict[str, LiveSession] = {}


def register_live(key: str, live: LiveSession) -> None:
    _LIVE[key] = live


def live_session(key: str | None) -> LiveSession | None:
    return _LIVE.get(key) if key else None


async def release_live(key: str | None) -> None:
    """Forget a sample's live session (its backend is shared and stays open)."""
    if key:
        _LIVE.pop(key, None)


def _record(entry: dict[str, Any]) -> None:
    """Append one call to the sample store (a no-op outside a sample, e.g. in unit tests)."""
    try:
        st = store()
    except Exception:  # pragma: no cover - no active sample
        return
    calls = list(st.get(CALLS_KEY, []))
    calls.append(entry)
    st.set(CALLS_KEY, calls)


def _token_params() -> set[str]:
    from kopa_inspect.apis import platforms

    return {p.session_token_param for p in platforms().values() if p.session_token_param}


def call_entry(result: CallResult) -> dict[str, Any]:
    """The JSON-safe record of one call (token values dropped: they mean nothing later).

    ``records``: fingerprints (:func:`matching.record_fingerprint`) of the items the model was
    shown (``for_model``'s cut), so grading can tell which records were retrieved whatever the
    page size, filter or order (owned by A; see scorers/grading.py)."""
    from kopa_inspect.matching import record_fingerprint

    tokens = _token_params()
    shown: list[Any] = []
    if result.ok:
        try:
            shown = json.loads(result.for_model()).get("items") or []
        except (ValueError, AttributeError):
            shown = []
    return {
        "records": [record_fingerprint(i) for i in shown if isinstance(i, dict)],
        "tool": result.op_id,
        "args": {k: v for k, v in result.args.items() if k not in tokens},
        "token_args": sorted(k for k in result.args if k in tokens),
        "ok": result.ok,
        "code": result.code,
        "message": result.message[:300],
        "total_count": result.parsed.total_count,
        "page_no": result.parsed.page_no,
        "n_items": len(result.parsed.items),
    }


# --- shared backends: one per configuration and event loop ----------------------------------
# A sample's state lives in its Session; the backend underneath is stateless per call, so samples
# share it (one emulator app, one connection pool). Keyed by the running loop too: an HTTP client
# cannot outlive its loop.
_BACKENDS: dict[tuple[str, int], Backend] = {}


def shared_backend(config: BackendConfig) -> Backend:
    try:
        loop_id = id(asyncio.get_running_loop())
    except RuntimeError:
        loop_id = 0
    key = (config.model_dump_json(), loop_id)
    backend = _BACKENDS.get(key)
    if backend is None:
        # Drop backends of loops that have gone away (earlier evals in the same process).
        for stale in [k for k in _BACKENDS if k[0] == key[0] and k[1] != loop_id]:
            _BACKENDS.pop(stale, None)
        backend = _BACKENDS[key] = make_backend(config)
    return backend


# --- tools ---------------------------------------------------------------------------------------


def operation_tool(op_id: str, live: LiveSession) -> ToolDef:
    op = get_operation(op_id)
    schema = parameters_schema(op)

    async def execute(**kwargs: Any) -> str:
        result = await live.session.call(op.id, kwargs)
        live.results.append(result)
        _record(call_entry(result))
        if not result.ok:
            raise ToolError(result.error_text())
        return result.for_model()

    return ToolDef(
        execute,
        name=op.id,
        description=tool_description(op),
        parameters=ToolParams.model_validate(schema),
        # for_model() already cut the output on item boundaries and said so; Inspect's own cut
        # (16 KiB of UTF-8, i.e. ~5,000 Korean characters) would split the JSON mid-item.
        max_output=0,
    )


def auth_tool(platform_id: str, live: LiveSession) -> ToolDef:
    platform = get_platform(platform_id)
    param = platform.session_token_param
    if param is None:
        raise ValueError(f"platform {platform_id} has no auth tool")

    async def execute() -> str:
        token = live.session.issue_token(platform_id)
        _record(
            {
                "tool": auth_tool_name(platform_id),
                "args": {},
                "token_args": [],
                "ok": True,
                "code": "token",
                "message": "",
                "total_count": None,
                "page_no": None,
                "n_items": 0,
            }
        )
        try:
            st = store()
            st.set(TOKENS_KEY, sorted({*st.get(TOKENS_KEY, []), platform_id}))
        except Exception:  # pragma: no cover - no active sample
            pass
        return json.dumps(
            {
                "token": token,
                "param": param,
                "note": f"{platform_id} 도구를 호출할 때 {param}={token} 으로 전달하세요 "
                f"(pass it as {param} to every {platform_id} tool)",
            },
            ensure_ascii=False,
        )

    return ToolDef(
        execute,
        name=auth_tool_name(platform_id),
        description=f"[{platform.name}] API 세션 토큰 발급 (issue a short-lived session token for this platform's tools)",
        parameters=ToolParams(),
    )


def auth_platforms(op_ids: Iterable[str]) -> list[str]:
    out = set()
    for op_id in op_ids:
        platform = get_platform(get_operation(op_id).platform)
        if platform.session_token_param:
            out.add(platform.id)
    return sorted(out)


def tools_for(op_ids: Sequence[str], live: LiveSession) -> list[ToolDef]:
    """Operation tools plus the auth tools their platforms need, in a stable order."""
    known = operations()
    ids = [i for i in dict.fromkeys(op_ids) if i in known]
    defs = [auth_tool(p, live) for p in auth_platforms(ids)]
    defs += [operation_tool(i, live) for i in ids]
    return defs


def select_operations(tool_set: str, task: Mapping[str, Any] | BenchTask) -> list[str]:
    """The operation ids a tool set offers for one task (a :class:`BenchTask` or its JSON dict)."""
    from kopa_inspect.task_data.distractors import offered_operations
    from kopa_inspect.task_data.schema import BenchTask

    if tool_set not in TOOL_SETS:
        raise ValueError(f"tool_set must be one of {TOOL_SETS}, not {tool_set!r}")
    bench = task if isinstance(task, BenchTask) else BenchTask.model_validate(task)
    if tool_set == "task":
        return offered_operations(bench)
    if tool_set == "task_only":
        return [t for t in bench.tools if t in operations()]
    if tool_set == "platforms":
        plats = set(bench.platforms)
        return [op.id for op in operations().values() if op.platform in plats]
    if tool_set == "all":
        return list(operations())
    return []  # search: tools arrive through search_tools


# --- tool search ---------------------------------------------------------------------------------


def result_count(value: Any, default: int) -> int:
    """``k`` as the model wrote it, read as a count from 1 to 20; anything unreadable is the default."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return default
    try:
        k = int(float(value)) if isinstance(value, str) else int(value)
    except (ValueError, OverflowError):
        return default
    return max(1, min(k, 20))


def search_tool(live: LiveSession, pool: Sequence[str] | None = None, k_default: int = 5) -> ToolDef:
    """``search_tools``: finds tools by keyword and makes them callable from the next turn on."""

    # Arguments are read here rather than typed in the signature: Inspect converts typed ones
    # before the call, and a value it cannot convert (k=1e400) would end the sample, not the call.
    async def execute(**kwargs: Any) -> str:
        from inspect_ai.solver._task_state import sample_state

        query = kwargs.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ToolError("search_tools needs query: keywords as text (검색어를 문자열로 주세요)")
        found = search_operations(query, result_count(kwargs.get("k"), k_default), pool)
        state = sample_state()
        added: list[str] = []
        if state is not None:
            have = {ToolDef(t).name for t in state.tools}
            for td in tools_for(found, live):
                if td.name not in have:
                    state.tools.append(td.as_tool())
                    added.append(td.name)
        listing = [{"name": op_id, "description": tool_description(get_operation(op_id))} for op_id in found]
        return json.dumps({"tools": listing, "added": added}, ensure_ascii=False)

    return ToolDef(
        execute,
        name=SEARCH_TOOL,
        description="키워드로 사용할 API 도구를 검색합니다. 찾은 도구는 다음 턴부터 호출할 수 있습니다 "
        "(search the API tools by keyword; found tools become callable from the next turn)",
        parameters=ToolParams.model_validate(
            {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "검색어, 예: '단기예보 격자' (keywords)"},
                    "k": {
                        "type": "integer",
                        "description": "최대 결과 수 (max results, 1-20)",
                        "default": k_default,
                    },
                },
                "required": ["query"],
            }
        ),
    )


def build_tool_set(
    tool_set: str, live: LiveSession, task: Mapping[str, Any] | BenchTask
) -> list[Tool | ToolDef]:
    """The tools a sample starts with."""
    if tool_set == "search":
        return [search_tool(live)]
    return list(tools_for(select_operations(tool_set, task), live))
