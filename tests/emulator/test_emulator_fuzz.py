"""No request can make the emulator answer 500 or log a traceback (issue 22.3).

Every platform is sent malformed requests over the Starlette app itself (in-process, no port):
missing, mistyped, huge, deeply nested, unicode, invalid-UTF-8 and duplicated parameters; wrong
methods; unknown paths and operations under the platform's own prefix; bad keys and bad headers.
Each answer must be the platform's own error envelope (read back by the platform's own parser) with
a code from that platform's code table (the providers' published API guides, and the error
tables of each spec module), never a 500, and the log must hold no traceback.
"""

from __future__ import annotations

import json
import logging
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from kopa_inspect.apis import get_platform, operations, platforms
from kopa_inspect.apis._envelope import HttpResponse, Parsed
from kopa_inspect.apis._spec import Operation
from kopa_inspect.backends import build_request
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, EmulatorConfig, create_app

CLOCK = "2026-10-15T14:20:00+09:00"

# The data.go.kr gateway and service codes (reference §1.4), shared by every data.go.kr platform.
DATAGOKR_CODES = frozenset(
    {
        "01",
        "02",
        "03",
        "04",
        "05",
        "10",
        "11",
        "12",
        "20",
        "21",
        "22",
        "23",
        "29",
        "30",
        "31",
        "32",
        "33",
        "99",
    }
)
# Each platform's own error codes. A code from another platform's table (a data.go.kr "10" from
# Seoul) is as wrong as a 500.
ERROR_CODES: dict[str, frozenset[str]] = {
    **{
        p: DATAGOKR_CODES
        for p in ("kma", "kma_mid", "airkorea", "kasi", "molit", "tourapi", "tago", "mfds", "hira")
    },
    # 중앙선거관리위원회: the data.go.kr family with INFO-xx service codes (nec module docstring).
    "nec": DATAGOKR_CODES | {"INFO-03"},
    # 행정안전부 법정동코드: its own head/RESULT codes; gateway errors stay the data.go.kr ones.
    "stanregincd": DATAGOKR_CODES
    | {"INFO-3", "ERROR-300", "ERROR-310", "ERROR-333", "ERROR-336", "ERROR-500"},
    # odcloud: status_code names for the request, negative codes from the gateway (§2.13).
    "nts": frozenset(
        {"BAD_JSON_REQUEST", "REQUEST_DATA_MALFORMED", "TOO_LARGE_REQUEST", "-1", "-3", "-4", "-10"}
    ),
    "neis": frozenset(
        {
            "INFO-200",
            "INFO-300",
            "ERROR-290",
            "ERROR-300",
            "ERROR-310",
            "ERROR-333",
            "ERROR-336",
            "ERROR-337",
            "ERROR-500",
        }
    ),
    # law.go.kr has no result codes; its parser labels the three failure bodies (lawgo module docstring).
    "lawgo": frozenset({"AUTH", "NO_DATA", "ERROR"}),
    "dart": frozenset({"010", "011", "012", "013", "014", "020", "021", "100", "101", "800", "900"}),
    "ecos": frozenset(
        {
            "INFO-100",
            "INFO-200",
            "ERROR-100",
            "ERROR-101",
            "ERROR-200",
            "ERROR-300",
            "ERROR-301",
            "ERROR-400",
            "ERROR-500",
            "ERROR-600",
            "ERROR-601",
            "ERROR-602",
        }
    ),
    "seoul": frozenset(
        {
            "INFO-100",
            "INFO-200",
            "ERROR-300",
            "ERROR-301",
            "ERROR-310",
            "ERROR-331",
            "ERROR-332",
            "ERROR-333",
            "ERROR-334",
            "ERROR-335",
            "ERROR-336",
            "ERROR-337",
            "ERROR-500",
            "ERROR-600",
            "ERROR-601",
        }
    ),
    "assembly": frozenset(
        {
            "INFO-200",
            "INFO-300",
            "ERROR-290",
            "ERROR-300",
            "ERROR-310",
            "ERROR-333",
            "ERROR-336",
            "ERROR-337",
            "ERROR-500",
        }
    ),
}

# Values a model or a careless client sends: wrong types, empty, huge, unicode, control characters,
# numbers out of range, markup and JSON where text is expected.
NASTY_VALUES: tuple[Any, ...] = (
    "",
    " ",
    "abc",
    "-1",
    "0",
    "1.5",
    "1e309",
    "nan",
    "9" * 400,
    "x" * 20_000,
    "０１２",
    "서울특별시",
    "🙂",
    "\x00\x01\x1f",
    "\ud800",
    "<a>&amp;</a>",
    '{"a": [1]}',
    "%2F..%2F",
    "/",
    "?#&=",
    "true",
    None,
    12,
    -3,
    1.5,
    True,
    [],
    ["a", 1, None],
    {"a": {"b": [1, {"c": 2}]}},
)
# The default run's share of them: one of each kind.
FEW_VALUES: tuple[Any, ...] = (
    "",
    "abc",
    "-1",
    "1.5",
    "x" * 20_000,
    "🙂",
    "\x00\x01\x1f",
    "\ud800",
    None,
    True,
    ["a", 1, None],
    {"a": {"b": [1]}},
)
BAD_HEADERS: tuple[dict[str, str], ...] = (
    {CLOCK_HEADER: "not a time"},
    {CLOCK_HEADER: "9999-99-99T99:99:99"},
    {CLOCK_HEADER: "-1"},
    {CLOCK_HEADER: "1" * 5000},
    {SEED_HEADER: "abc"},
    {SEED_HEADER: "9" * 5000},
    {SEED_HEADER: "-7"},
    {SEED_HEADER: str(2**70)},
    {"content-type": "application/json"},
    {"content-type": "text/xml; charset=euc-kr"},
    {"accept": "application/x-nonsense"},
)


def platform_ops() -> dict[str, list[Operation]]:
    """Up to three operations of every platform (its first ones, which include its templated paths)."""
    out: dict[str, list[Operation]] = {}
    for op in operations().values():
        out.setdefault(op.platform, [])
        if len(out[op.platform]) < 3:
            out[op.platform].append(op)
    return out


OPS = platform_ops()
SAMPLE = [op for ops in OPS.values() for op in ops]


def test_every_platform_has_a_code_table() -> None:
    assert set(ERROR_CODES) == set(platforms())
    assert set(OPS) == set(platforms())


@dataclass
class Probe:
    """One malformed request and the operation whose envelope must answer it."""

    label: str
    op: Operation
    method: str
    url: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    must_fail: bool = True


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(EmulatorConfig()), raise_server_exceptions=False) as c:
        yield c


def url_of(
    op: Operation, args: dict[str, Any], key: str | None = DEFAULT_EMULATOR_KEY
) -> tuple[str, bytes | None]:
    """The URL (path, encoded query) and JSON body the tool layer would send."""
    req = build_request(op, args, key)
    query = urllib.parse.urlencode({k: _wire(v) for k, v in req.query.items()}, doseq=False)
    body = json.dumps(req.body, ensure_ascii=False).encode("utf-8") if req.body is not None else None
    return req.path + ("?" + query if query else ""), body


def _wire(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False)
        if isinstance(value, dict | list)
        else str(value)
    )
    return text.encode("utf-8", errors="surrogatepass").decode("utf-8", errors="replace")


def required_args(op: Operation) -> dict[str, Any]:
    return {p.name: p.default if p.default is not None else "1" for p in op.visible_params if p.required}


def unknown_paths(op: Operation) -> list[str]:
    """Paths under the operation's own prefix that name no operation."""
    platform = op.platform
    key = urllib.parse.quote(DEFAULT_EMULATOR_KEY, safe="")
    if platform == "seoul":
        return [
            f"/{key}/json/NoSuchService/1/5",
            f"/{key}/xml/NoSuchService/1/5/x",
            f"/{key}/json/NoSuchService",
        ]
    if platform == "ecos":
        return [f"/api/NoSuchService/{key}/json/kr/1/10", f"/api/NoSuchService/{key}/xml/kr/1/10/x"]
    if platform == "dart":
        return [f"/api/noSuchThing.json?crtfc_key={key}", "/api/noSuchThing.xml"]
    if platform == "nts":
        return [f"/api/nts-businessman/v1/noSuchThing?serviceKey={key}"]
    prefix = op.path.rsplit("/", 1)[0]
    key_param = get_platform(platform).key_param
    fmt = op.envelope_override or get_platform(platform).envelope
    fmt_q = "&".join(f"{k}={v}" for k, v in fmt.json_request_params().items())
    return [
        f"{prefix}/getNoSuchOperation?{key_param}={key}&{fmt_q}",
        f"{prefix}/getNoSuchOperation",
        f"{prefix}/getNoSuchOperation/extra/segments?{key_param}={key}",
    ]


def probes(op: Operation, values: tuple[Any, ...] = FEW_VALUES) -> list[Probe]:
    out: list[Probe] = []
    base = required_args(op)
    url, body = url_of(op, base)
    if op.method == "GET":
        out.append(Probe("valid-ish", op, "GET", url, body, must_fail=False))
    # Missing parameters: none at all (the key kept), and the key itself missing or wrong.
    if any(p.required for p in op.visible_params):
        u, b = url_of(op, {})
        out.append(Probe("no-params", op, op.method, u, b))
    u, b = url_of(op, base, key=None)
    out.append(Probe("no-key", op, op.method, u, b))
    u, b = url_of(op, base, key="not-a-registered-key")
    out.append(Probe("bad-key", op, op.method, u, b))
    u, b = url_of(op, base, key="%ZZ" + "+" * 50 + "\u00e9")
    out.append(Probe("garbled-key", op, op.method, u, b))
    # Each visible parameter, mistyped every way; unknown parameter names too.
    for p in op.visible_params:
        for value in values:
            u, b = url_of(op, {**base, p.name: value})
            out.append(Probe(f"{p.name}={value!r:.30}", op, op.method, u, b, must_fail=False))
    u, b = url_of(op, {**base, "noSuchParam": "x" * 10_000, "a[b][c]": "1", "": "empty-name"})
    out.append(Probe("unknown-params", op, op.method, u, b, must_fail=False))
    # Duplicated parameters (the query string repeats a name), and raw invalid UTF-8.
    sep = "&" if "?" in url else "?"
    dup = "&".join(f"{p.name}=1&{p.name}=2" for p in op.visible_params if p.location == "query")
    out.append(
        Probe("duplicated", op, op.method, url + sep + (dup or "pageNo=1&pageNo=2"), body, must_fail=False)
    )
    out.append(
        Probe("invalid-utf8", op, op.method, url + sep + "x=%FF%FE%ED%A0%80&y=%", body, must_fail=False)
    )
    # Bodies: invalid JSON, deeply nested JSON, a JSON scalar, a huge array.
    nested = "[" * 5000 + '"x"' + "]" * 5000
    deep = "{" + ",".join(f'"{p.name}": {nested}' for p in op.visible_params[:3] or [op.params[0]]) + "}"
    for label, raw in (
        ("bad-json", b"{not json"),
        ("deep-json", deep.encode()),
        ("scalar-json", b"42"),
        ("huge-array", json.dumps({p.name: list(range(5000)) for p in op.visible_params}).encode()),
        ("non-utf8-body", b"\xff\xfe\x00{"),
    ):
        out.append(
            Probe(
                label,
                op,
                "POST",
                url,
                raw,
                {"content-type": "application/json"},
                must_fail=op.method == "GET",
            )
        )
    # Wrong methods.
    for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "POST" if op.method == "GET" else "GET"):
        out.append(Probe(f"method-{method}", op, method, url, body))
    # Bad headers on an otherwise ordinary call.
    for h in BAD_HEADERS:
        out.append(
            Probe(
                f"header-{next(iter(h))}={next(iter(h.values()))[:20]}",
                op,
                op.method,
                url,
                body,
                h,
                must_fail=False,
            )
        )
    # Unknown operations under the platform's own prefix.
    for path in unknown_paths(op):
        out.append(Probe(f"unknown-path {path[:60]}", op, "GET", path))
    return out


def parse_as_platform(op: Operation, status: int, content_type: str, body: bytes) -> Parsed:
    envelope = op.envelope_override or get_platform(op.platform).envelope
    return envelope.parse(op, HttpResponse(status, content_type, body))


def check(client: TestClient, probe: Probe, caplog: pytest.LogCaptureFixture) -> None:
    caplog.clear()
    headers = {CLOCK_HEADER: CLOCK, **probe.headers}
    # Absolute, so that a path-style URL with an empty key ("//json/...") stays a path.
    r = client.request(probe.method, "http://testserver" + probe.url, content=probe.body, headers=headers)
    where = f"{probe.op.id} [{probe.label}] {probe.method} {probe.url[:120]}"
    assert r.status_code != 500, f"{where}: 500 {r.text[:300]}"
    assert "Traceback" not in caplog.text, f"{where}: traceback logged\n{caplog.text[-2000:]}"
    assert not [rec for rec in caplog.records if rec.exc_info], f"{where}: exception logged"
    parsed = parse_as_platform(probe.op, r.status_code, r.headers.get("content-type", ""), r.content)
    if probe.must_fail:
        assert not parsed.ok, f"{where}: answered OK"
    if not parsed.ok:
        codes = ERROR_CODES[probe.op.platform]
        assert parsed.code in codes, (
            f"{where}: code {parsed.code!r} not in {probe.op.platform}'s table: {r.text[:300]}"
        )


@pytest.mark.parametrize("op", [ops[0] for ops in OPS.values()], ids=lambda op: op.id)
def test_malformed_requests_get_the_platforms_own_error(
    client: TestClient, op: Operation, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for probe in probes(op):
        check(client, probe, caplog)


@pytest.mark.slow
@pytest.mark.parametrize("op", SAMPLE, ids=lambda op: op.id)
def test_malformed_requests_every_value_more_operations(
    client: TestClient, op: Operation, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for probe in probes(op, NASTY_VALUES):
        check(client, probe, caplog)


def test_a_probe_answered_in_another_form_fails(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """The check is not vacuous: a Seoul answer read as a data.go.kr platform's is refused."""
    seoul = OPS["seoul"][0]
    kma = OPS["kma"][0]
    url, _ = url_of(seoul, {}, key="not-a-registered-key")
    with pytest.raises(AssertionError):
        check(client, Probe("cross-platform", kma, "GET", url), caplog)


def test_unknown_paths_outside_every_platform_are_not_500(client: TestClient) -> None:
    for path in ("/", "/nothing", "/a/b/c/d/e/f/g/h/i/j", "/%00", "/%FF%FE", "/" + "x" * 5000):
        r = client.get(path)
        assert r.status_code not in (500, 405), (path, r.status_code)


# --- random queries, per platform --------------------------------------------------------------

_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40) | st.sampled_from(
    [s for s in NASTY_VALUES if isinstance(s, str) and "\ud800" not in s]
)


@st.composite
def random_query(draw: st.DrawFn, op: Operation) -> list[tuple[str, str]]:
    names = [p.name for p in op.params] + ["x", "page", "type", "KEY", "serviceKey"]
    name = st.sampled_from(names) | st.text(max_size=10)
    return draw(st.lists(st.tuples(name, _text), max_size=8))


# httpx refuses URLs above 65,536 characters before sending; stay well below it
MAX_URL_CHARS = 32_000


@pytest.mark.parametrize("platform", sorted(OPS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@example(data=None)
def test_random_queries_never_break_a_platform(
    client: TestClient, caplog: pytest.LogCaptureFixture, platform: str, data: st.DataObject | None
) -> None:
    caplog.set_level(logging.DEBUG)
    op = OPS[platform][0]
    pairs = data.draw(random_query(op)) if data is not None else [("numOfRows", "0"), ("pageNo", "-1")]
    url, _ = url_of(op, required_args(op))
    url += ("&" if "?" in url else "?") + urllib.parse.urlencode(
        [
            (
                k.encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
                v.encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
            )
            for k, v in pairs
        ]
    )
    # a URL past the HTTP client's own limit never reaches a server (the client refuses to send it)
    assume(len(url) <= MAX_URL_CHARS)
    check(client, Probe("random", op, op.method, url, must_fail=False), caplog)


# --- path parameters are encoded: any value arrives as sent -------------------------------------

PATH_CASES = [
    ("seoul_CardSubwayStatsNew", "SUB_STA_NM", {"START_INDEX": 1, "END_INDEX": 5, "USE_DT": "20261001"}),
    ("ecos_StatisticTableList", "STAT_CODE", {"lang": "kr", "start": 1, "end": 10}),
]


@pytest.mark.parametrize(("op_id", "name", "base"), PATH_CASES, ids=[c[0] for c in PATH_CASES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.text(st.characters(codec="utf-8"), min_size=1, max_size=20))
@example(value="a/b")
@example(value="a%2Fb")
@example(value="%25/%")
@example(value="..")
@example(value=".")
@example(value="?x=1#y")
@example(value="\n0")
def test_path_parameters_arrive_as_sent(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    op_id: str,
    name: str,
    base: dict[str, Any],
    value: str,
) -> None:
    import kopa_inspect.emulator as emulator_module

    seen: dict[str, Any] = {}
    real_validate = emulator_module.validate

    def spy(op: Operation, raw: dict[str, Any]) -> dict[str, Any]:
        seen.update(raw)
        return real_validate(op, raw)

    monkeypatch.setattr(emulator_module, "validate", spy)
    op = operations()[op_id]
    url, _ = url_of(op, {**base, name: value})
    client.get("http://testserver" + url, headers={CLOCK_HEADER: CLOCK})
    assert seen.get(name) == value, (value, url, seen.get(name))
    assert seen.get(op.params[0].name) == DEFAULT_EMULATOR_KEY  # the key, with its "/" and "+", too
