"""Is a completion the right next move? Framework-free judgement shared by the step task's scorer
and the GRPO rewards (kopa_grpo.rewards), so a training reward and an evaluation metric can never
disagree about what counts.

A step has a *kind*: ``call`` (the gold move is one wave of tool calls) or ``answer`` (the gold
move is the final answer). The rules, each closing a way a wrong model could earn credit:

- Exact call: the same number of calls, matched one to one by tool name and arguments. Gold
  argument values must match (normalized as the KOPA-Bench scorer normalizes them: numbers as
  strings, the default first page); *extra* arguments fail the call; *credential* arguments
  (session tokens such as NEIS ``KEY``, service keys the harness injects) are compared verbatim:
  a missing, wrong or invented token or key fails the call. A call Inspect refuses before the tool
  runs (``refused``: the tool's JSON schema, types and enums included: "60" for an integer) is no
  exact call and no well-formed one, and its mistyped values earn no value credit.
- A well-formed call names a tool in play (the step's tool list), uses only that tool's argument
  names, and gives every required argument. A session token must be one the auth tool issued
  (an invented token is no call); a service key never is the model's to send.
- A well-formed wave toward the gold step: no tool more often than the gold wave calls it, no call
  twice, no replay of a call the history already made unless the gold makes it again.
- A well-formed answer is prose: not empty, not tool-call, tool-result or code-fence markup, not a
  paste of the earlier tool results (raw JSON/XML, or mostly verbatim text of them), not a shotgun
  list of numbers, not a list of the shown rows' figures for a fact (two or more other rows' values
  of the fact's field), not a hedge between figures ("21도 또는 17도"), not a refusal where the
  facts are known.
- The answer holds when every required fact is stated, by ``matching.score_answer`` (the KOPA-Bench
  scorer's subject-bound matching). A single-valued fact read from a row of a shown result gets
  the other shown rows' values of its field as competitors: stating one of them beside the subject
  (or with no claim) is stating a wrong value.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from kopa_inspect import matching
from kopa_inspect.steps.parsing import ParsedCompletion

Call = tuple[str, dict[str, Any]]

# Response-format switches: they change the envelope, never the data, so they are neutral.
FORMAT_ARGS: frozenset[str] = frozenset({"dataType", "_type", "returnType", "type", "resultType", "Type"})

# Longest acceptable answer: a final answer states a few facts, it does not reproduce results.
MAX_ANSWER_CHARS = 1200
MIN_ANSWER_CHARS = 4


@cache
def credential_args() -> frozenset[str]:
    """Argument names that carry a credential: every platform's key parameters and session-token
    parameter, plus the generic names the scorer ignores for call matching."""
    from kopa_inspect.apis import platforms

    names: set[str] = set(matching.IGNORED_ARGS) - FORMAT_ARGS
    for p in platforms().values():
        names.update(p.key_params)
        if p.session_token_param:
            names.add(p.session_token_param)
    return frozenset(names)


def _credentials(args: Mapping[str, Any]) -> dict[str, str]:
    creds = credential_args()
    return {k: str(v) for k, v in args.items() if k in creds and v is not None and v != ""}


def _plain(args: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments with credentials and format switches removed, normalized (defaults dropped)."""
    return matching.normalize_args({k: v for k, v in args.items() if k not in credential_args()}, FORMAT_ARGS)


def _wire(value: Any) -> str:
    """The value as the request carries it (backends.build_request, httpx): a list comma-joined,
    booleans lower-case, numbers as Python writes them (60.0 stays "60.0")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(_wire(v) for v in value)
    return str(value).strip()


_INT = re.compile(r"-?[0-9]+")  # ASCII digits only: Python's \d and float() take full-width ones
_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def wire_equal(key: str, want: Any, got: Any) -> bool:
    """Does the API read ``got`` as the gold value? The matcher's normalization reads 60.0, "60.0"
    and full-width digits as 60 / the date, which the API rejects (the emulator answers error 10
    to nx=60.0 and to a full-width date): the value must be the gold one as sent, up to padding,
    the order of a comma list, the spelling of a decimal, and a larger first page."""
    w, g = _wire(want), _wire(got)
    if w == g:
        return True
    if _DECIMAL.fullmatch(w) and _DECIMAL.fullmatch(g):
        return float(w) == float(g)
    if key in matching.PAGE_SIZE_ARGS and _INT.fullmatch(w) and _INT.fullmatch(g):
        return int(g) >= int(w)
    if "," in w or "," in g:
        return sorted(p.strip() for p in w.split(",")) == sorted(p.strip() for p in g.split(","))
    return False


def _sent_as_gold(want: Mapping[str, Any], got: Mapping[str, Any], keys: Iterable[str]) -> bool:
    return all(k in got and wire_equal(k, want[k], got[k]) for k in keys if k in want)


def args_exact(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    """Gold values matched (as the API reads them: see wire_equal), no extra argument,
    credentials identical."""
    if _credentials(want) != _credentials(got):
        return False
    w, g = _plain(want), _plain(got)
    if set(g) - set(w):
        return False
    return matching.arguments_equal(w, g) and _sent_as_gold(want, got, w)


def _value_ok(key: str, want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    return key in got and matching.arguments_equal({key: want[key]}, {key: got[key]})


def refused(call: Call) -> bool:
    """Would Inspect refuse this call before the tool runs? Its schema check
    (apis._schema.schema_errors: argument names, required ones, types, enums; a tool outside the
    catalog has no schema here and is judged by the tool-name rules). The KOPA-Bench harness never
    executes such a call, so it is no exact call, no well-formed call and no executed call."""
    from kopa_inspect.apis._schema import accepted

    return not accepted(call[0], call[1])


def args_score(want: Mapping[str, Any], got: Mapping[str, Any], mistyped: Iterable[str] = ()) -> float:
    """Partial credit in [0, 1]: mean of argument-name Jaccard (extras lower it) and the share of
    gold values matched (credentials verbatim). ``mistyped``: arguments whose value Inspect refuses
    for its type or enum (apis._schema.mistyped): no value credit, however equal after
    normalization ("60" for the integer 60)."""
    wc, gc = _credentials(want), _credentials(got)
    w, g = _plain(want), _plain(got)
    wn, gn = set(w) | set(wc), set(g) | set(gc)
    if not wn and not gn:
        return 1.0
    names = len(wn & gn) / len(wn | gn)
    bad = set(mistyped)
    hits = sum(1 for k in w if k not in bad and _value_ok(k, w, g) and _sent_as_gold(want, got, [k])) + sum(
        1 for k, v in wc.items() if k not in bad and gc.get(k) == v
    )
    values = hits / len(wn) if wn else 0.0  # no gold arguments: only the names part can score
    return (names + values) / 2


def match_one_to_one(targets: Sequence[Call], calls: Sequence[Call], same: Any) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs (target index, call index) for which ``same(target, call)`` holds."""
    used: set[int] = set()
    pairs = []
    for ti, t in enumerate(targets):
        for ci, c in enumerate(calls):
            if ci not in used and same(t, c):
                used.add(ci)
                pairs.append((ti, ci))
                break
    return pairs


def same_call(a: Call, b: Call) -> bool:
    """The same request: name, gold values and no extra argument either way, credentials verbatim."""
    return a[0] == b[0] and args_exact(a[1], b[1]) and args_exact(b[1], a[1])


def replays(calls: Sequence[Call], history: Sequence[Call], targets: Sequence[Call]) -> list[bool]:
    """Per call: does it repeat a call the history already made that the gold wave does not make?
    Small models loop on their last call; a replay fetches nothing new and earns nothing."""
    return [
        any(same_call(c, h) for h in history) and not any(same_call(c, t) for t in targets) for c in calls
    ]


def key_args(call: Call) -> list[str]:
    """Service-key arguments in a call (never its platform's session token): the tool layer injects
    the key, so a model that sends one invented or copied it. ECOS/Seoul ``KEY`` is a key, NEIS
    ``KEY`` is the session token the auth tool issued."""
    name, args = call
    return [k for k in args if k in _key_params(name) and args[k] not in (None, "")]


@cache
def _key_params(tool: str) -> frozenset[str]:
    from kopa_inspect.apis import get_operation, get_platform

    generic = {"serviceKey", "ServiceKey", "apiKey", "crtfc_key", "OC"}
    try:
        platform = get_platform(get_operation(tool).platform)
    except (KeyError, ValueError):  # not an operation of the catalog (the auth tool, a made-up name)
        return frozenset(generic)
    return frozenset((set(platform.key_params) | generic) - {platform.session_token_param})


def calls_exact(calls: Sequence[Call], targets: Sequence[Call]) -> bool:
    """The gold wave, call for call, and no call Inspect refuses (a mistyped value: "60" for an
    integer reads as 60 to the matcher, but the harness never sends it)."""
    if not targets or len(calls) != len(targets) or any(refused(c) for c in calls):
        return False
    pairs = match_one_to_one(targets, calls, lambda t, c: t[0] == c[0] and args_exact(t[1], c[1]))
    return len(pairs) == len(targets)


def wrong_whatever_the_name(
    calls: Sequence[Call], history: Sequence[Call], targets: Sequence[Call]
) -> list[bool]:
    """Per call: is it wrong whatever its name? A replay of a history call the gold does not make
    again, or a call carrying a service key. The step metric and the GRPO tool-name reward read it."""
    return [r or bool(key_args(c)) for c, r in zip(calls, replays(calls, history, targets), strict=True)]


def tool_names_right(calls: Sequence[Call], targets: Sequence[Call], history: Sequence[Call] = ()) -> bool:
    """The step's tool-name accuracy: the same multiset of tool names as the gold wave, and no call
    that is wrong whatever its name (a replay, a service key)."""
    if not targets or any(wrong_whatever_the_name(calls, history, targets)):
        return False
    return sorted(n for n, _ in calls) == sorted(n for n, _ in targets)


def tool_name_score(
    parsed: ParsedCompletion,
    kind: str,
    targets: Sequence[Call],
    history: Sequence[Call] = (),
    answer_ok: bool | None = None,
) -> float:
    """Multiset Jaccard of called names vs gold names (the same call twice is one too many), a
    replayed history call, a call carrying a service key or a call Inspect refuses (a required
    argument missing, an unknown one, a mistyped value: it never runs) counting as a wrong name;
    on an answer step, 1 for a well-formed answer without a call (``answer_ok``: the caller's
    answer_well_formed verdict; None = any prose).

    Why a refused call earns no name credit: GRPO with this reward learned to call the right tool
    with no arguments at all (16 steps on SmolLM2: completions 44 -> 33 tokens, BFCL simple calls
    6/20 -> 0/20), the cheapest move that still paid the name share of the weighted reward."""
    if not parsed.well_formed:
        return 0.0
    if kind == "answer":
        return 1.0 if not parsed.calls and parsed.answer and answer_ok is not False else 0.0
    wrong = [
        w or refused(c)
        for c, w in zip(parsed.calls, wrong_whatever_the_name(parsed.calls, history, targets), strict=True)
    ]
    predicted = Counter(n if not w else "\x00wrong" for (n, _), w in zip(parsed.calls, wrong, strict=True))
    wanted = Counter(n for n, _ in targets)
    if not predicted or not wanted:
        return 0.0
    return sum((predicted & wanted).values()) / sum((predicted | wanted).values())


def argument_score(parsed: ParsedCompletion, targets: Sequence[Call], history: Sequence[Call] = ()) -> float:
    """Per gold call, the best same-named call's args_score; averaged over max(gold, made) calls so
    extra calls dilute the credit. A replayed history call and a call carrying a service key earn
    nothing."""
    if not targets or not parsed.calls or not parsed.well_formed:
        return 0.0
    from kopa_inspect.apis._schema import mistyped

    rep = replays(parsed.calls, history, targets)
    pool = [i for i in range(len(parsed.calls)) if not rep[i] and not key_args(parsed.calls[i])]
    bad = [mistyped(n, a) for n, a in parsed.calls]
    total = 0.0
    for name, want in targets:
        cands = [i for i in pool if parsed.calls[i][0] == name]
        if not cands:
            continue
        best = max(cands, key=lambda i: args_score(want, parsed.calls[i][1], bad[i]))
        total += args_score(want, parsed.calls[best][1], bad[best])
        pool.remove(best)
    return total / max(len(targets), len(parsed.calls))


# --- well-formedness -----------------------------------------------------------------------------


def tool_params(tools: Iterable[Mapping[str, Any]]) -> dict[str, tuple[set[str], set[str]]]:
    """{tool name: (parameter names, required names)} from JSON tool schemas (wrapped or bare)."""
    out = {}
    for t in tools:
        fn = t.get("function", t)
        params = fn.get("parameters") or {}
        out[fn["name"]] = (set((params.get("properties") or {}).keys()), set(params.get("required") or []))
    return out


def call_well_formed(call: Call, params: Mapping[str, tuple[set[str], set[str]]]) -> bool:
    name, args = call
    if name not in params:
        return False
    names, required = params[name]
    return set(args) <= names and required <= {k for k, v in args.items() if v is not None and v != ""}


_MARKUP = re.compile(
    r"<\s*/?\s*(tool_call|tool_response|tools|think|\|im_start\||\|im_end\|)|```", re.IGNORECASE
)
# Raw structure: a JSON key ("x": ...) or an XML element pair (<item>...</item>).
_RAW = re.compile(r'"[^"\n]{1,60}"\s*:|<(\w+)[^>]*>[^<]*</\1>')
_WS = re.compile(r"\s+")
_TAG = re.compile(r"<[^>]+>")
_WINDOW = 12


def _norm(text: str) -> str:
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def verbatim_share(answer: str, sources: Sequence[str]) -> float:
    """Share of the answer's 12-character windows found verbatim in the earlier tool results."""
    a = _norm(answer)
    if len(a) < _WINDOW or not sources:
        return 0.0
    pool = "\n".join(_norm(s) for s in sources)
    windows = [a[i : i + _WINDOW] for i in range(len(a) - _WINDOW + 1)]
    return sum(1 for w in windows if w in pool) / len(windows)


def _strings(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for v in values:
        if isinstance(v, list | tuple):
            out += _strings(v)
        elif v is not None:
            out.append(str(v))
    return out


def is_paste(answer: str, tool_results: Sequence[str], expected: Iterable[Any] = ()) -> bool:
    """Raw tool output (``matching.is_raw_dump``, or JSON keys / XML elements), or text mostly copied
    from the tool results the prompt showed. The expected values are taken out first: quoting a
    long value (a menu, a dosage text) is what the answer should do."""
    if matching.is_raw_dump(answer) or _RAW.search(answer):
        return True
    rest = _norm(answer)
    values = _strings(expected)
    values += [_TAG.sub("", v) for v in values]  # API text with HTML markup, quoted without it
    for v in sorted(values, key=len, reverse=True):
        if len(v) >= 6:
            rest = rest.replace(_norm(v), " ")
    return verbatim_share(rest, tool_results) >= 0.5


def _n_numbers(text: str) -> int:
    return len({round(n.value, 6) for n in matching.extract_numbers(text)})


def _expected_numbers(expected: Iterable[Any]) -> int:
    n = 0
    for v in expected:
        n += len(v) if isinstance(v, list | tuple) else 1
    return n


# Two figures joined by "or": a hedge between candidate values, never a statement of one (the
# matcher's own pattern, matching.HEDGE, which fails a single-figure fact offered beside another).
# Facts with one value that a row's figure can be confused with (see row_competitors).
_NAME_MATCHERS = frozenset({"name", "exact"})
_SINGLE_VALUE = frozenset({"number", "money", "duration", "date", "time", "month"})
_FIELD_REF = re.compile(r"\.([A-Za-z_][\w]*)$")
_ROW_INDEX = re.compile(r"\.items\[(\d+)\]\.[A-Za-z_]\w*$")


def _items_lists(node: Any) -> Iterable[list[dict[str, Any]]]:
    if isinstance(node, list):
        if node and all(isinstance(x, dict) for x in node):
            yield node
        for x in node:
            yield from _items_lists(x)
    elif isinstance(node, dict):
        for v in node.values():
            yield from _items_lists(v)


_FLAT_OBJECT = re.compile(r"\{[^{}]*\}")


def _result_lists(raw: str) -> list[list[dict[str, Any]]]:
    """The row lists of a shown result; a result cut mid-item (not JSON any more) gives its whole
    flat rows as one list."""
    try:
        return list(_items_lists(json.loads(raw)))
    except (TypeError, ValueError):
        pass
    rows = []
    for m in _FLAT_OBJECT.finditer(raw if isinstance(raw, str) else ""):
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            continue
        if isinstance(obj, dict):
            rows.append(obj)
    return [rows] if rows else []


def _same(a: Any, b: Any) -> bool:
    if matching.normalize_name(a) == matching.normalize_name(b):
        return True
    x, y = matching.to_number(a), matching.to_number(b)
    return x is not None and y is not None and abs(x - y) <= 1e-9 * max(1.0, abs(x))


def row_competitors(fact: Mapping[str, Any], tool_results: Sequence[str]) -> list[Any]:
    """The other shown rows' values of the field a single-valued fact was read from
    (``$s2.items[0].fcstValue`` -> every other row's ``fcstValue`` in the list holding the fact's
    row). The fact's row (the row at the reference's index, when it has one, with the expected
    value) must be in exactly one shown list, or in exactly one where it names the fact's subject;
    otherwise (none, or several hospitals' '외과' rows with the same figure) there are no
    competitors. A row that names the subject is never a competitor. Empty for other facts and
    unparseable results."""
    if fact.get("matcher") not in _SINGLE_VALUE:
        return []
    expected, ref = fact_expected(fact), fact.get("value")
    m = _FIELD_REF.search(ref) if isinstance(ref, str) and ref.startswith("$") else None
    if m is None or expected is None or isinstance(expected, list | tuple | dict):
        return []
    field = m.group(1)
    index = _ROW_INDEX.search(m.string)  # m.string: the reference m was found in
    idx = int(index.group(1)) if index else None
    context = fact.get("context")
    ctx = context if isinstance(context, Mapping) else {}
    subject = ctx.get("subject") or fact.get("subject")
    subject = matching.normalize_name(subject) if isinstance(subject, str) and subject.strip() else None

    def names_subject(r: Mapping[str, Any]) -> bool:
        return bool(subject) and any(
            isinstance(x, str) and matching.normalize_name(x) == subject for x in r.values()
        )

    def fact_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        cands = rows if idx is None else rows[idx : idx + 1]
        return [r for r in cands if field in r and _same(r[field], expected)]

    homes = [
        (rows, any(names_subject(r) for r in fact_rows(rows)))
        for raw in tool_results
        for rows in _result_lists(raw)
        if fact_rows(rows)
    ]
    if len(homes) > 1:  # several lists hold such a row: the one naming the subject, if only one does
        homes = [h for h in homes if h[1]]
    if len(homes) != 1:
        return []
    out: list[Any] = []
    for r in homes[0][0]:
        v = r.get(field)
        if names_subject(r) or v in (None, "") or isinstance(v, list | dict) or _same(v, expected):
            continue
        if not any(_same(v, o) for o in out):
            out.append(v)
    return out


def _stated_competitors(text: str, facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str]) -> int:
    """How many distinct other-row figures (not any fact's own value) the answer states."""
    found = {round(n.value, 6) for n in matching.extract_numbers(text)}
    own = [fact_expected(f) for f in facts]
    seen: set[float] = set()
    for f in facts:
        for c in row_competitors(f, tool_results):
            x = matching.to_number(c)
            if x is not None and round(x, 6) in found and not any(_same(c, o) for o in own):
                seen.add(round(x, 6))
    return len(seen)


_JSON_KEY = re.compile(r'"([A-Za-z_][A-Za-z0-9_]{2,40})"\s*:')


def _result_keys(tool_results: Sequence[str]) -> set[str]:
    """The API field names in the shown results (JSON keys, also of a result cut mid-item)."""
    return {k for raw in tool_results if isinstance(raw, str) for k in _JSON_KEY.findall(raw)}


def field_names_said(text: str, tool_results: Sequence[str], expected: Iterable[Any] = ()) -> int:
    """How many of the results' own field names (``ceo_nm``, ``fcstValue``) the answer writes as
    words. A person's answer names things in words; a row dumped as ``field value`` pairs (no
    JSON quotes left for the paste check) writes the API's names. Names inside an expected value
    (quoted text) do not count."""
    keys = _result_keys(tool_results)
    if not keys:
        return 0
    rest = text
    for v in sorted(_strings(expected), key=len, reverse=True):
        if len(v) >= 3:
            rest = rest.replace(v, " ")
    return sum(1 for k in keys if re.search(rf"(?<![A-Za-z0-9_]){re.escape(k)}(?![A-Za-z0-9_])", rest))


def name_hedged(
    text: str,
    expected: Any,
    known: Sequence[Any] = (),
    question: str | None = None,
    aliases: Sequence[Any] = (),
) -> bool:
    """Is a name-like expected value offered beside an alternative ("곽노정 또는 김철수", "김철수나
    곽노정")? The KOPA-Bench scorer's own rule, :func:`matching.name_hedged` (one rule, so a step reward
    and the benchmark never disagree); ``known``: the other facts' values, ``question``: the query,
    ``aliases``: the value's other names in its shown row (:func:`shown_aliases`)."""
    return matching.name_hedged(expected, text or "", known, question, aliases)


def _shown_data(tool_results: Sequence[str]) -> list[Any]:
    out: list[Any] = []
    for raw in tool_results:
        try:
            out.append(json.loads(raw))
        except (TypeError, ValueError):
            out.extend(_result_lists(raw))  # a result cut mid-item: its whole flat rows
    return out


def shown_aliases(fact: Mapping[str, Any], tool_results: Sequence[str]) -> list[Any]:
    """The fact's value's other names in its own row of the shown results (``matching.row_aliases``,
    as the KOPA-Bench scorer reads the gold outputs): "NAVER Corporation" beside "네이버" is the same
    company named twice, not a guess. The fact's competitors and the other rows' values of its field
    are never aliases."""
    if fact.get("matcher") not in _NAME_MATCHERS:
        return []
    context = fact.get("context")
    ctx = context if isinstance(context, Mapping) else {}
    exclude = [
        *matching._as_list(ctx.get("competitors")),
        *matching._as_list(fact.get("competitors")),
        *row_competitors(fact, tool_results),
    ]
    return matching.row_aliases(fact_expected(fact), _shown_data(tool_results), exclude)


def answer_well_formed(
    text: str | None,
    tool_results: Sequence[str] = (),
    expected: Iterable[Any] = (),
    facts: Sequence[Mapping[str, Any]] = (),
) -> bool:
    """``facts`` (the required facts, optional): enables the refusal, hedge and row-listing checks."""
    if not text:
        return False
    t = text.strip()
    if not (MIN_ANSWER_CHARS <= len(t) <= MAX_ANSWER_CHARS) or _MARKUP.search(t):
        return False
    expected = list(expected)
    if is_paste(t, tool_results, expected):
        return False
    # A shotgun of numbers states every candidate value; an answer states the few it was asked.
    if _n_numbers(t) > 3 * _expected_numbers(expected) + 6:
        return False
    if field_names_said(t, tool_results, expected) >= 2:
        return False  # a row's fields dumped with the API's own names
    if facts:
        matchers = {f.get("matcher") for f in facts}
        question = next((f["question"] for f in facts if f.get("question")), None)
        if "refusal" not in matchers and matching.is_refusal(t, question):
            return False  # "알 수 없습니다" where the facts were shown: a decline, not an answer
        if matching.HEDGE.search(t):
            return False  # a set is listed with 와/과/commas; "또는" between figures offers alternatives
        if _stated_competitors(t, facts, tool_results) >= 2:
            return False  # every row's figure listed, none picked
        values = {id(f): fact_expected(f) for f in facts}
        for f in facts:
            if f.get("matcher") not in _NAME_MATCHERS:
                continue
            others = [values[id(g)] for g in facts if g is not f]
            known = [x for o in others for x in (o if isinstance(o, list | tuple) else [o])]
            if name_hedged(t, values[id(f)], known, question, shown_aliases(f, tool_results)):
                return False  # a name offered beside another
    return True


def format_ok(
    parsed: ParsedCompletion,
    kind: str,
    tools: Sequence[Mapping[str, Any]],
    targets: Sequence[Call],
    tool_results: Sequence[str] = (),
    expected: Iterable[Any] = (),
    history: Sequence[Call] = (),
    tokens: Iterable[str] | None = None,
    facts: Sequence[Mapping[str, Any]] = (),
) -> bool:
    """A well-formed move of the step's kind toward the gold step.

    Call steps: parseable calls, each well formed for the tools in play and each to a tool of the
    gold wave (an unrelated valid call, or the auth tool when it is not the gold step, earns no
    format credit: the shaped rewards must never pay for a move that cannot be right); no tool
    more often than the gold wave calls it, no call twice, no replay of a history call the gold
    does not repeat; a session-token argument must be a token the prompt showed (``tokens``: the
    issued ones; None = not checked).
    Answer steps: a well-formed answer (``facts``: the required facts, see answer_well_formed) and
    no call."""
    if not parsed.well_formed:
        return False
    if kind == "answer":
        return not parsed.calls and answer_well_formed(parsed.answer, tool_results, expected, facts)
    if not parsed.calls:
        return False
    params = tool_params(tools)
    wanted = Counter(n for n, _ in targets)
    if Counter(n for n, _ in parsed.calls) - wanted:
        return False  # a tool called more often than the gold wave calls it (a shotgun)
    calls = parsed.calls
    # the same call twice, unless the gold wave makes it twice too (two districts on one grid)
    if any(
        sum(same_call(a, b) for b in calls) > max(1, sum(same_call(a, t) for t in targets)) for a in calls
    ):
        return False
    if any(replays(calls, history, targets)):
        return False
    issued = set(tokens) if tokens is not None else None
    for name, args in calls:
        if not call_well_formed((name, args), params) or key_args((name, args)) or refused((name, args)):
            return False  # ... or a call Inspect refuses (a value of the wrong type, an enum it lacks)
        creds = _credentials(args)
        if issued is not None and any(v not in issued for v in creds.values()):
            return False  # an invented session token
    return True


# --- the answer ----------------------------------------------------------------------------------


def fact_expected(fact: Mapping[str, Any]) -> Any:
    """The value a fact must state. EDGE stores the plan reference in ``value`` and what it
    resolved to in ``resolved``; ``expected`` is accepted too. A ``value`` that is still a
    reference ("$s2.items[0].x") is never a value to match; refusal facts are literals."""
    for key in ("resolved", "expected"):
        if key in fact:
            return fact[key]
    value = fact.get("value")
    return None if isinstance(value, str) and value.startswith("$") else value


def required_facts(facts: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [f for f in facts if f.get("required", True)]


def fact_scores(facts: Sequence[Mapping[str, Any]], answer: str) -> dict[str, float]:
    """Per fact id, by the KOPA-Bench scorer's own ``matching.score_answer`` (subject-bound, raw
    dumps score nothing). A fact dict may carry ``context`` (its resolved subject/competitors/
    accept/keys) and ``question`` (the query), as the bench steps do; EDGE facts have neither."""
    expected = {f["id"]: fact_expected(f) for f in facts}
    context = {f["id"]: f["context"] for f in facts if f.get("context")}
    question = next((f["question"] for f in facts if f.get("question")), None)
    scores = matching.score_answer(list(facts), expected, answer, question=question, context=context)
    return {k: float(v) for k, v in scores.items()}


def with_row_competitors(
    facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str]
) -> list[dict[str, Any]]:
    """The facts with the other shown rows' values of their field added as competitors (in the
    fact's ``context`` when it has one: the matcher reads resolved competitors from there)."""
    out = []
    for f in facts:
        extra = row_competitors(f, tool_results)
        f = dict(f)
        if extra:
            if f.get("context"):
                ctx = dict(f["context"])
                ctx["competitors"] = [*(ctx.get("competitors") or []), *extra]
                f["context"] = ctx
            else:
                have = f.get("competitors")
                have = have if isinstance(have, list) else []
                f["competitors"] = [*have, *extra]
        out.append(f)
    return out


def with_shown_aliases(
    facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str]
) -> list[dict[str, Any]]:
    """The facts with their values' :func:`shown_aliases` in their ``context`` (where the matcher
    reads them)."""
    out = []
    for f in facts:
        f = dict(f)
        found = shown_aliases(f, tool_results)
        if found:
            f["context"] = {**(f.get("context") or {}), "aliases": found}
        out.append(f)
    return out


def answer_score(
    text: str | None, facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str] = ()
) -> float:
    """Share of required facts stated; 0 for a malformed answer (paste, markup, shotgun, row
    listing, hedge, refusal where the facts are known)."""
    req = required_facts(facts)
    if not req or not answer_well_formed(text, tool_results, [fact_expected(f) for f in req], req):
        return 0.0
    scores = fact_scores(
        with_shown_aliases(with_row_competitors(facts, tool_results), tool_results), text or ""
    )
    return sum(min(1.0, scores.get(f["id"], 0.0)) for f in req) / len(req)


def answer_right(
    parsed: ParsedCompletion, facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str] = ()
) -> bool:
    return parsed.well_formed and not parsed.calls and answer_score(parsed.answer, facts, tool_results) >= 1.0


def outcome(
    parsed: ParsedCompletion,
    kind: str,
    targets: Sequence[Call],
    facts: Sequence[Mapping[str, Any]],
    tool_results: Sequence[str] = (),
) -> bool:
    """The binary step outcome: the exact gold call wave, or an answer holding every required fact."""
    if kind == "call":
        return parsed.well_formed and calls_exact(parsed.calls, targets)
    return parsed.well_formed and answer_right(parsed, facts, tool_results)
