"""How real services wrap results and errors, in both directions.

Rendering is the emulator's job (bytes a real client accepts unchanged); parsing is the
execution layer's job (any backend's bytes -> :class:`Parsed`, the one normalized view the tools,
scorers, EDGE and GRPO all read). Both live on the envelope so they cannot drift apart.

The data.go.kr family shares one envelope with per-provider quirks (the provider's published API guide
§1.2-1.4, §4): the OK code ("00", "0000", "000"), the message ("NORMAL_SERVICE", "NORMAL_CODE",
"NORMAL SERVICE.", "OK"), the JSON switch (dataType / _type / returnType / type), bare-list items
(AirKorea, MFDS), ``items: ""`` for no rows vs 03 NODATA, and gateway errors that are always XML.
Portals with their own shapes (Seoul, NEIS, ECOS, law.go.kr, NTS ...) subclass :class:`Envelope`
in their own spec module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import xmltodict

from kopa_inspect.apis._spec import ApiError, ErrorKind, Operation, Rows

Format = Literal["xml", "json"]

XML_CT = "text/xml;charset=UTF-8"
JSON_CT = "application/json;charset=UTF-8"


@dataclass
class HttpResponse:
    status: int
    content_type: str
    body: bytes
    # Extra headers a real client reads (DART's Content-Disposition on the corpCode.xml ZIP).
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


@dataclass
class Page:
    """One page of a result, as the emulator renders it."""

    rows: Rows
    total: int
    page_no: int
    num_rows: int
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Parsed:
    """A response from any backend, normalized. ``items`` is always a list of dicts."""

    ok: bool
    code: str
    message: str
    items: list[dict[str, Any]] = field(default_factory=list)
    total_count: int | None = None
    page_no: int | None = None
    num_rows: int | None = None
    # Error raised by the gateway (auth/quota) rather than the service itself.
    gateway_error: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def as_output(self) -> dict[str, Any]:
        """The dict a gold-plan reference such as ``$s1.items[0].nx`` is resolved against."""
        out: dict[str, Any] = {"resultCode": self.code, "resultMsg": self.message}
        if self.total_count is not None:
            out["totalCount"] = self.total_count
        if self.page_no is not None:
            out["pageNo"] = self.page_no
        if self.num_rows is not None:
            out["numOfRows"] = self.num_rows
        out.update(self.extra)
        out["items"] = self.items
        return out


def dumps_json(obj: Any) -> bytes:
    # Real gateways send UTF-8 Korean unescaped and compact separators.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def dumps_xml(obj: dict[str, Any]) -> bytes:
    return xmltodict.unparse(obj, encoding="UTF-8", full_document=True).encode("utf-8")


def render_document(doc: dict[str, Any], fmt: Format, status: int = 200) -> HttpResponse:
    """One document in the requested format: compact UTF-8 JSON, or XML."""
    if fmt == "json":
        return HttpResponse(status, JSON_CT, dumps_json(doc))
    return HttpResponse(status, XML_CT, dumps_xml(doc))


def load_document(resp: HttpResponse) -> dict[str, Any] | Parsed:
    """A response body decoded as XML or JSON, or a failed :class:`Parsed` saying why not
    (an empty body, a proxy's HTML page, a body that is not one object)."""
    text = resp.text.lstrip("\ufeff").strip()
    if not text:
        return Parsed(ok=False, code=str(resp.status), message=f"HTTP {resp.status} with an empty body")
    try:
        doc = xmltodict.parse(text) if text.startswith("<") else json.loads(text)
    except Exception:  # noqa: BLE001 - any undecodable body is reported, not raised
        return Parsed(ok=False, code=str(resp.status), message=text[:200])
    if not isinstance(doc, dict) or not doc:
        return Parsed(ok=False, code=str(resp.status), message=text[:200])
    return doc


def render_head_rows(
    service: str, total: int, result: dict[str, str], rows: Rows, fmt: Format
) -> HttpResponse:
    """A page in the ``head``/``row`` form NEIS and 열린국회정보 answer with (what
    :func:`split_head_rows` reads back): JSON ``{service: [{"head": [{list_total_count},
    {RESULT}]}, {"row": [...]}]}``, XML ``<service><head>…</head><row>…</row>…</service>``."""
    if fmt == "json":
        doc = {service: [{"head": [{"list_total_count": total}, {"RESULT": result}]}, {"row": rows}]}
        return HttpResponse(200, JSON_CT, dumps_json(doc))
    head = {"list_total_count": str(total), "RESULT": result}
    return HttpResponse(200, XML_CT, dumps_xml({service: {"head": head, "row": rows_for_xml(rows)}}))


def split_head_rows(root: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``head``/``row`` body of the Korean open-data portals (NEIS, 열린국회정보, 법정동코드).

    JSON sends ``[{"head": [{...}, {...}]}, {"row": [...]}]``; XML ``<ROOT><head/><row/>…</ROOT>``.
    Returns the merged head and the rows (dicts only).
    """
    head: dict[str, Any] = {}
    rows: list[Any] = []
    if isinstance(root, list):
        for part in root:
            if not isinstance(part, dict):
                continue
            for h in as_list(part.get("head")):
                if isinstance(h, dict):
                    head.update(h)
            rows.extend(as_list(part.get("row")))
    elif isinstance(root, dict):
        head = dict(root.get("head") or {})
        rows = as_list(root.get("row"))
    return head, [r for r in rows if isinstance(r, dict)]


def xml_scalar(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rows_for_xml(rows: Rows) -> list[dict[str, Any]]:
    return [{k: xml_scalar(v) if not isinstance(v, dict | list) else v for k, v in r.items()} for r in rows]


def as_list(value: Any) -> list[Any]:
    """xmltodict and XML->JSON gateways give one item as an object, none as "" or None."""
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    return [value]


def to_int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


# --- data.go.kr gateway errors (reference §1.3b, §1.4) -------------------------------------
#
# The gateway (not the service) answers auth and quota failures, in its own
# ``OpenAPI_ServiceResponse/cmmMsgHeader`` envelope. Two forms are on record:
# - XML, HTTP 200, ``errMsg`` "SERVICE ERROR" and the code name in ``returnAuthMsg`` (the
#   long-standing form; many recorded bodies, reference §1.3b).
# - JSON when the request asked for JSON (``_type=json``, ``dataType=JSON`` ...), with an HTTP
#   error status (403 for key errors, 429 for quota): ``{"OpenAPI_ServiceResponse":{"cmmMsgHeader":
#   {"errMsg":"SERVICE_KEY_IS_NOT_REGISTERED_ERROR","returnAuthMsg":"등록되지 않은 서비스키",
#   "returnReasonCode":"30"}}}``: the code name moves to ``errMsg`` and ``returnAuthMsg`` holds the
#   Korean text. Seen live in 2026 by several independent public clients (TourAPI KorService2,
#   금융위 주식시세, KMA VilageFcst 429 on quota, 20 ``SERVICE_KEY_IS_NULL`` for a missing key).
# UNCERTAIN: whether the current gateway also sends an error status (not 200) with the XML form;
# the emulator keeps HTTP 200 for XML. UNCERTAIN: status and Korean text for 12 (no service).

GATEWAY_ERRORS: dict[str, tuple[str, str]] = {
    "key_not_registered": ("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR"),
    "key_missing": ("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR"),
    "access_denied": ("20", "SERVICE_ACCESS_DENIED_ERROR"),
    "rate_limited": ("22", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR"),
    "rate_limited_second": ("23", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR"),
    "no_service": ("12", "NO_OPENAPI_SERVICE_ERROR"),
}

# The JSON form: (code, errMsg, returnAuthMsg, HTTP status). A missing key is 20 SERVICE_KEY_IS_NULL there.
GATEWAY_ERRORS_JSON: dict[str, tuple[str, str, str, int]] = {
    "key_not_registered": ("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR", "등록되지 않은 서비스키", 403),
    "key_missing": ("20", "SERVICE_KEY_IS_NULL", "서비스 접근거부", 403),
    "access_denied": ("20", "SERVICE_ACCESS_DENIED_ERROR", "서비스 접근거부", 403),
    "rate_limited": (
        "22",
        "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
        "일일 서비스 요청제한 횟수 초과 에러",
        429,
    ),
    "rate_limited_second": (
        "23",
        "LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR",
        "초당 서비스 요청제한 횟수 초과 에러",
        429,
    ),
    "no_service": ("12", "NO_OPENAPI_SERVICE_ERROR", "해당 오픈API서비스가 없거나 폐기됨", 404),
}


def render_gateway_error(kind: ErrorKind, fmt: Format = "xml") -> HttpResponse:
    if fmt == "json":
        code, name, text, status = GATEWAY_ERRORS_JSON[kind]
        doc = {
            "OpenAPI_ServiceResponse": {
                "cmmMsgHeader": {"errMsg": name, "returnAuthMsg": text, "returnReasonCode": code}
            }
        }
        return HttpResponse(status, JSON_CT, dumps_json(doc))
    code, msg = GATEWAY_ERRORS[kind]
    doc = {
        "OpenAPI_ServiceResponse": {
            "cmmMsgHeader": {"errMsg": "SERVICE ERROR", "returnAuthMsg": msg, "returnReasonCode": code}
        }
    }
    return HttpResponse(200, XML_CT, dumps_xml(doc))


def _error_name(*candidates: object) -> str:
    """The code name (SERVICE_KEY_IS_NOT_REGISTERED_ERROR ...) whichever field holds it."""
    texts = [str(c) for c in candidates if c not in (None, "")]
    for t in texts:
        if t.replace("_", "").isalnum() and t.isupper() and t != "SERVICE ERROR":
            return t
    return texts[0] if texts else "UNKNOWN_ERROR"


def parse_gateway_error(text: str) -> Parsed | None:
    """The gateway's envelope in either form (XML or JSON), or None for anything else."""
    if "OpenAPI_ServiceResponse" not in text[:200]:
        return None
    try:
        doc = xmltodict.parse(text) if text.lstrip().startswith("<") else json.loads(text)
    except Exception:  # noqa: BLE001 - not the gateway's envelope after all
        return None
    root = doc.get("OpenAPI_ServiceResponse") if isinstance(doc, dict) else None
    hdr = root.get("cmmMsgHeader") if isinstance(root, dict) else None
    if not isinstance(hdr, dict):
        return None
    return Parsed(
        ok=False,
        code=str(hdr.get("returnReasonCode", "99")),
        message=_error_name(hdr.get("returnAuthMsg"), hdr.get("errMsg")),
        gateway_error=True,
    )


class Envelope:
    """Base class: subclasses render and parse one family of response shapes."""

    # Query parameter that switches XML/JSON, and the value that selects JSON.
    format_param: str | None = None
    json_value: str = "json"
    # Paging parameter names (None: the API does not page).
    page_param: str | None = "pageNo"
    size_param: str | None = "numOfRows"
    default_size: int = 10
    max_size: int | None = None
    # The gateway (not the service) answers auth and quota errors.
    gateway_kinds: frozenset[str] = frozenset(GATEWAY_ERRORS)
    # Parameters the real portal reads whatever their case (NEIS and 열린국회정보 take ``type`` and
    # ``key`` as well as ``Type`` and ``KEY``). Everything else is matched exactly, as the gateways do.
    case_insensitive_params: tuple[str, ...] = ()

    def normalize(self, params: dict[str, Any]) -> dict[str, Any]:
        """Params under the spelling the spec uses, for the names read case-insensitively."""
        if not self.case_insensitive_params:
            return params
        out = dict(params)
        for name in self.case_insensitive_params:
            if out.get(name) not in (None, ""):
                continue
            for k in params:
                if k != name and k.lower() == name.lower() and params[k] not in (None, ""):
                    out[name] = params[k]
                    break
        return out

    def response_format(self, params: dict[str, Any]) -> Format:
        if self.format_param is None:
            return "xml"
        value = params.get(self.format_param)
        return "json" if isinstance(value, str) and value.lower() == self.json_value.lower() else "xml"

    def json_request_params(self) -> dict[str, str]:
        """What a client adds to get JSON (the tool layer prefers JSON where the API has it)."""
        return {self.format_param: self.json_value} if self.format_param else {}

    def paging(self, params: dict[str, Any]) -> tuple[int, int]:
        page = to_int(params.get(self.page_param)) if self.page_param else None
        size = to_int(params.get(self.size_param)) if self.size_param else None
        if self.page_param and params.get(self.page_param) not in (None, "") and (page is None or page < 1):
            raise ApiError("invalid_param", param=self.page_param)
        if self.size_param and params.get(self.size_param) not in (None, "") and (size is None or size < 1):
            raise ApiError("invalid_param", param=self.size_param)
        size = size or self.default_size
        if self.max_size is not None and size > self.max_size:
            raise ApiError("too_many_rows", param=self.size_param)
        return page or 1, size

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        raise NotImplementedError

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        raise NotImplementedError

    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        raise NotImplementedError


# --- the standard data.go.kr envelope --------------------------------------------------------

DATAGOKR_ERRORS: dict[str, tuple[str, str]] = {
    "nodata": ("03", "NODATA_ERROR"),
    "invalid_param": ("10", "INVALID_REQUEST_PARAMETER_ERROR"),
    "missing_param": ("11", "NO_MANDATORY_REQUEST_PARAMETERS_ERROR"),
    "too_many_rows": ("10", "INVALID_REQUEST_PARAMETER_ERROR"),
    "no_service": ("12", "NO_OPENAPI_SERVICE_ERROR"),
    "server_error": ("99", "UNKNOWN_ERROR"),
}


class DataGoKrEnvelope(Envelope):
    """``<response><header/><body><items><item/>…</items>…</body></response>`` and its JSON twin."""

    def __init__(
        self,
        *,
        ok_code: str = "00",
        ok_msg: str = "NORMAL_SERVICE",
        format_param: str | None = "_type",
        json_value: str = "json",
        items_style: Literal["item", "list"] = "item",
        body_first: bool = False,
        empty: Literal["nodata", "empty_string", "empty_list"] = "empty_string",
        nodata_with_body: bool = True,
        errors: dict[str, tuple[str, str]] | None = None,
        body_prefix: dict[str, Any] | None = None,
        default_size: int = 10,
        max_size: int | None = None,
        counters_as_strings: bool = False,
        echo_format: str | None = None,
    ) -> None:
        self.ok_code = ok_code
        self.ok_msg = ok_msg
        self.format_param = format_param
        self.json_value = json_value
        self.items_style = items_style
        self.body_first = body_first
        self.empty = empty
        self.nodata_with_body = nodata_with_body
        self.errors = {**DATAGOKR_ERRORS, **(errors or {})}
        self.body_prefix = body_prefix or {}
        self.default_size = default_size
        self.max_size = max_size
        self.counters_as_strings = counters_as_strings
        # KMA echoes the format as the first body key: "dataType": "JSON" / <dataType>XML</dataType>.
        self.echo_format = echo_format

    def _prefix(self, fmt: Format) -> dict[str, Any]:
        prefix = {self.echo_format: fmt.upper()} if self.echo_format else {}
        return {**prefix, **self.body_prefix}

    # rendering ---------------------------------------------------------------------------
    def _counter(self, n: int) -> int | str:
        return str(n) if self.counters_as_strings else n

    def render_ok(self, op: Operation, page: Page, fmt: Format) -> HttpResponse:
        if not page.rows and self.empty == "nodata":
            return self.render_error(op, ApiError("nodata"), fmt)
        header = {"resultCode": self.ok_code, "resultMsg": self.ok_msg}
        counters = {
            "numOfRows": self._counter(page.num_rows),
            "pageNo": self._counter(page.page_no),
            "totalCount": self._counter(page.total),
        }
        if fmt == "xml":
            items: Any = {"item": rows_for_xml(page.rows)} if page.rows else None
            body = {**{k: xml_scalar(v) for k, v in self._prefix(fmt).items()}, "items": items}
            body.update({k: str(v) for k, v in counters.items()})
            body.update(page.extra)
            return HttpResponse(200, XML_CT, dumps_xml({"response": {"header": header, "body": body}}))
        if self.items_style == "list":
            items = page.rows if page.rows or self.empty == "empty_list" else ""
        elif not page.rows:
            items = ""
        else:
            # XML->JSON conversion artefact of the real gateway: one row is an object.
            items = {"item": page.rows[0] if len(page.rows) == 1 else page.rows}
        body = {**self._prefix(fmt), "items": items, **counters, **page.extra}
        doc = (
            {"response": {"body": body, "header": header}}
            if self.body_first
            else {"response": {"header": header, "body": body}}
        )
        return HttpResponse(200, JSON_CT, dumps_json(doc))

    def render_error(self, op: Operation | None, err: ApiError, fmt: Format) -> HttpResponse:
        if err.kind in self.gateway_kinds:
            return render_gateway_error(err.kind, fmt)
        code, msg = self.errors.get(err.kind, self.errors["server_error"])
        msg = err.detail or msg
        header = {"resultCode": code, "resultMsg": msg}
        doc: dict[str, Any] = {"response": {"header": header}}
        if err.kind == "nodata" and self.nodata_with_body:
            doc["response"]["body"] = {"items": None if fmt == "xml" else "", "totalCount": 0}
        if fmt == "xml":
            return HttpResponse(200, XML_CT, dumps_xml(doc))
        return HttpResponse(200, JSON_CT, dumps_json(doc))

    # parsing -----------------------------------------------------------------------------
    def parse(self, op: Operation, resp: HttpResponse) -> Parsed:
        text = resp.text.lstrip("\ufeff").strip()
        gateway = parse_gateway_error(text)
        if gateway is not None:
            return gateway
        if not text:
            return Parsed(ok=False, code=str(resp.status), message=f"HTTP {resp.status} with an empty body")
        if text.startswith("<"):
            doc = xmltodict.parse(text)
        else:
            try:
                doc = json.loads(text)
            except json.JSONDecodeError:
                return Parsed(ok=False, code=str(resp.status), message=text[:200])
        root = doc.get("response") or {}
        header = root.get("header") or {}
        body = root.get("body") or {}
        code = str(header.get("resultCode", ""))
        message = str(header.get("resultMsg", ""))
        ok = code in (self.ok_code, "00", "0000", "000", "0")
        raw_items = body.get("items") if isinstance(body, dict) else None
        if isinstance(raw_items, dict):
            raw_items = raw_items.get("item")
        items = [i for i in as_list(raw_items) if isinstance(i, dict)]
        return Parsed(
            ok=ok,
            code=code,
            message=message,
            items=items,
            total_count=to_int(body.get("totalCount")) if isinstance(body, dict) else None,
            page_no=to_int(body.get("pageNo")) if isinstance(body, dict) else None,
            num_rows=to_int(body.get("numOfRows")) if isinstance(body, dict) else None,
        )
