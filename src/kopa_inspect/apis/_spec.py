"""The contract vocabulary every API spec module speaks.

A provider module (``kma.py``, ``airkorea.py`` ...) declares one :class:`Platform` and its
:class:`Operation` objects. An operation is the single source of truth for one real API call:
its real path and parameter names (the emulator routes and validates from them), its handler
(the emulated behaviour over the offline :class:`~kopa_inspect.world.World`), its envelope (how
the real service wraps results and errors, in XML and JSON, and how to parse them back), and the
description a model sees as a tool (Korean, with an English gloss).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pragma: no cover
    from kopa_inspect.apis._envelope import Envelope
    from kopa_inspect.world import World

ParamType = Literal["string", "integer", "number", "boolean", "array", "object"]
ParamIn = Literal["query", "path", "body"]

# Semantic failure kinds a handler or the framework raises; each envelope maps a kind to the
# provider's own code and message (e.g. KMA "03 NO_DATA", TourAPI "0000 OK" with empty items).
ErrorKind = Literal[
    "nodata",  # no rows for a valid request
    "invalid_param",  # malformed or out-of-range parameter value
    "missing_param",  # a mandatory parameter is absent
    "key_not_registered",  # gateway: unknown service key
    "key_missing",  # gateway: no service key at all
    "access_denied",  # gateway: key valid but not subscribed to this API
    "rate_limited",  # gateway: daily quota exceeded
    "rate_limited_second",  # gateway: per-second limit exceeded
    "no_service",  # unknown operation/dataset
    "too_many_rows",  # page size over the provider's cap
    "server_error",
]


class ApiError(Exception):
    """A failure the real API would report in its own envelope.

    ``detail`` lets a provider override the message (KMA's "최근 1일 간의 자료만 제공합니다.",
    TourAPI's ``INVALID_REQUEST_PARAMETER_ERROR(addrinfoYN)``) while the code still comes
    from the envelope's table.
    """

    def __init__(self, kind: ErrorKind, detail: str | None = None, *, param: str | None = None) -> None:
        super().__init__(detail or kind)
        self.kind: ErrorKind = kind
        self.detail = detail
        self.param = param


@dataclass(frozen=True)
class Param:
    """One request parameter, spelled exactly as the real API spells it."""

    name: str
    description: str
    type: ParamType = "string"
    required: bool = False
    enum: tuple[str, ...] | None = None
    # A regex the value must fully match (YYYYMMDD, a 5-digit LAWD_CD ...); a mismatch is the
    # provider's INVALID_REQUEST_PARAMETER error.
    pattern: str | None = None
    default: Any = None
    location: ParamIn = "query"
    # Hidden params are filled by the tool layer (service key, format switch), never by a model.
    hidden: bool = False
    items_type: ParamType = "string"  # element type when type == "array"

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": self.type, "description": self.description}
        if self.type == "array":
            schema["items"] = {"type": self.items_type}
        if self.enum:
            schema["enum"] = list(self.enum)
        if self.default is not None:
            schema["default"] = self.default
        return schema


Rows = list[dict[str, Any]]
Handler = Callable[["World", dict[str, Any]], "Rows | Result"]


@dataclass
class Result:
    """What a handler returns when plain rows are not enough.

    ``rows`` is the full result before paging (the framework pages it); ``extra`` carries
    envelope-specific fields (e.g. NTS ``match_cnt``) and ``paged=False`` tells the framework
    the handler already paged (rare: APIs whose totalCount is not the row count).
    """

    rows: Rows
    total: int | None = None
    paged: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Operation:
    """One real API operation = one tool."""

    platform: str  # Platform.id
    name: str  # the real operation name, e.g. "getVilageFcst"
    path: str  # real path; "{name}" segments are path parameters (Seoul, ECOS style)
    summary: str  # Korean one-liner with an English gloss, shown to the model
    params: list[Param]
    handler: Handler
    method: Literal["GET", "POST"] = "GET"
    # Output fields and what they mean: shown to the model, used by EDGE field matching.
    output_fields: Mapping[str, str] = field(default_factory=dict)
    # Tool name override; default "<platform>_<name>" sanitized.
    tool_name: str | None = None
    # Set when a real contract detail could not be confirmed (shown in docs, not to the model).
    uncertain: str | None = None
    envelope_override: Envelope | None = None
    tags: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.tool_name or sanitize_tool_name(f"{self.platform}_{self.name}")

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    @property
    def visible_params(self) -> list[Param]:
        return [p for p in self.params if not p.hidden]

    def path_regex(self) -> re.Pattern[str]:
        """The route of a templated path.

        Clients of path-style portals (Seoul, ECOS) stop the URL after the last value they give
        (``.../bikeList/1/5``), so trailing placeholders of optional, model-visible parameters
        may be left off. Hidden ones (key, format) are always sent by the tool layer.
        """
        optional = {p.name for p in self.params if not p.required and not p.hidden}
        pattern, tail = "", []
        for seg in self.path.rstrip("/").split("/")[1:]:
            m = re.fullmatch(r"\{(\w+)\}", seg)
            if m and m.group(1) in optional:
                tail.append(f"(?:/(?P<{m.group(1)}>[^/]*)")
                continue
            if tail:
                raise ValueError(f"{self.id}: optional path segment before a required one")
            pattern += "/" + (f"(?P<{m.group(1)}>[^/]*)" if m else _literal_segment(seg))
        pattern += "".join(tail) + ")?" * len(tail)
        return re.compile("^" + pattern + "(?P<_rest>(?:/[^/]*)*)/?$")


def _literal_segment(seg: str) -> str:
    """A path segment with inline placeholders (DART's ``company.{format}``) as a regex."""
    parts = re.split(r"\{(\w+)\}", seg)
    return "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]*?)" for i, part in enumerate(parts))


AuthStyle = Literal["query", "path", "none"]


@dataclass
class Platform:
    """A provider (one portal or service family) and how it authenticates."""

    id: str  # short id used in tool names: "kma", "airkorea", "seoul" ...
    name: str  # Korean name with English gloss
    domain: str  # transport, finance, education, law, politics, district, weather, ...
    live_base_url: str  # the real scheme://host[:port] the live backend sends to
    envelope: Envelope
    auth_style: AuthStyle = "query"
    # Names the key may take (data.go.kr accepts serviceKey and ServiceKey).
    key_params: tuple[str, ...] = ("serviceKey", "ServiceKey")
    description: str = ""
    # A platform whose tools need a session token obtained from an auth tool first
    # (the paper's education-key trap). The tool layer maps the token to the real key.
    session_token_param: str | None = None
    uncertain: str | None = None

    @property
    def key_param(self) -> str:
        return self.key_params[0]


_TOOL_NAME_RE = re.compile(r"[^a-zA-Z0-9_-]")


def sanitize_tool_name(name: str) -> str:
    """Tool names must match ^[a-zA-Z0-9_-]{1,64}$ for every major provider's tool API."""
    return _TOOL_NAME_RE.sub("_", name)[:64]
