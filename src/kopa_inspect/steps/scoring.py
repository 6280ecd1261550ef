"""Is a completion the right next move? Framework-free judgement shared by the step task's scorer
and the GRPO rewards (kopa_grpo.rewards), so a training reward and an evaluation metric can never
disagree about what counts.

A step has a *kind*: ``call`` (the gold move is one wave of tool calls) or ``answer`` (the gold
move is the final answer). The rules, each closing a way a wrong model could earn credit:

- Exact call: the same number of calls, matched one to one by tool name and arguments. Gold
  argument values must match (normalized as the KOPA-Bench scorer normalizes them: numbers as
  strings, the default first page); *extra* arguments fail the call; *credential* arguments
  (session tokens such as NEIS ``KEY``, service keys the harness injects) are compared verbatim:
  a missing, wrong or invented token or key fails the call.
- A well-formed call names a tool in play (the step's tool list), uses only that tool's argument
  names, and gives every required argument.
- A well-formed answer is prose: not empty, not tool-call or tool-result markup, not a paste of the
  earlier tool results (raw JSON/XML, or mostly verbatim text of them), not a shotgun list of
  numbers.
- The answer holds when every required fact is stated, by ``matching.score_answer`` (the KOPA-Bench
  scorer's subject-bound matching).
"""

from __future__ import annotations

import re
import unicodedata
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


def args_exact(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    """Gold values matched, no extra argument, credentials identical."""
    if _credentials(want) != _credentials(got):
        return False
    w, g = _plain(want), _plain(got)
    if set(g) - set(w):
        return False
    return matching.arguments_equal(w, g)


def _value_ok(key: str, want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    return key in got and matching.arguments_equal({key: want[key]}, {key: got[key]})


def args_score(want: Mapping[str, Any], got: Mapping[str, Any]) -> float:
    """Partial credit in [0, 1]: mean of argument-name Jaccard (extras lower it) and the share of
    gold values matched (credentials verbatim)."""
    wc, gc = _credentials(want), _credentials(got)
    w, g = _plain(want), _plain(got)
    wn, gn = set(w) | set(wc), set(g) | set(gc)
    if not wn and not gn:
        return 1.0
    names = len(wn & gn) / len(wn | gn)
    hits = sum(1 for k in w if _value_ok(k, w, g)) + sum(1 for k, v in wc.items() if gc.get(k) == v)
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


def calls_exact(calls: Sequence[Call], targets: Sequence[Call]) -> bool:
    if not targets or len(calls) != len(targets):
        return False
    pairs = match_one_to_one(targets, calls, lambda t, c: t[0] == c[0] and args_exact(t[1], c[1]))
    return len(pairs) == len(targets)


def tool_names_right(calls: Sequence[Call], targets: Sequence[Call]) -> bool:
    """The step's tool-name accuracy: the same multiset of tool names as the gold wave."""
    return bool(targets) and sorted(n for n, _ in calls) == sorted(n for n, _ in targets)


def tool_name_score(parsed: ParsedCompletion, kind: str, targets: Sequence[Call]) -> float:
    """Jaccard of called names vs gold names; on an answer step, 1 for answering without a call."""
    if kind == "answer":
        return 1.0 if not parsed.calls and parsed.answer else 0.0
    predicted, wanted = {n for n, _ in parsed.calls}, {n for n, _ in targets}
    if not predicted or not wanted:
        return 0.0
    return len(predicted & wanted) / len(predicted | wanted)


def argument_score(parsed: ParsedCompletion, targets: Sequence[Call]) -> float:
    """Per gold call, the best same-named call's args_score; averaged over max(gold, made) calls so
    extra calls dilute the credit."""
    if not targets or not parsed.calls:
        return 0.0
    pool = list(range(len(parsed.calls)))
    total = 0.0
    for name, want in targets:
        cands = [i for i in pool if parsed.calls[i][0] == name]
        if not cands:
            continue
        best = max(cands, key=lambda i: args_score(want, parsed.calls[i][1]))
        total += args_score(want, parsed.calls[best][1])
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


_MARKUP = re.compile(r"<\s*/?\s*(tool_call|tool_response|tools|\|im_start\||\|im_end\|)", re.IGNORECASE)
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
    windows = [a[i:i + _WINDOW] for i in range(len(a) - _WINDOW + 1)]
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


def answer_well_formed(text: str | None, tool_results: Sequence[str] = (), expected: Iterable[Any] = ()) -> bool:
    if not text:
        return False
    t = text.strip()
    if not (MIN_ANSWER_CHARS <= len(t) <= MAX_ANSWER_CHARS) or _MARKUP.search(t):
        return False
    expected = list(expected)
    if is_paste(t, tool_results, expected):
        return False
    # A shotgun of numbers states every candidate value; an answer states the few it was asked.
    return _n_numbers(t) <= 3 * _expected_numbers(expected) + 6


def format_ok(parsed: ParsedCompletion, kind: str, tools: Sequence[Mapping[str, Any]],
              targets: Sequence[Call], tool_results: Sequence[str] = (), expected: Iterable[Any] = ()) -> bool:
    """A well-formed move of the step's kind toward the gold step.

    Call steps: parseable calls, each well formed for the tools in play and each to a tool of the
    gold wave (an unrelated valid call, or the auth tool when it is not the gold step, earns no
    format credit: the shaped rewards must never pay for a move that cannot be right).
    Answer steps: a well-formed answer and no call."""
    if not parsed.well_formed:
        return False
    if kind == "answer":
        return not parsed.calls and answer_well_formed(parsed.answer, tool_results, expected)
    if not parsed.calls:
        return False
    params = tool_params(tools)
    wanted = {n for n, _ in targets}
    return all(call_well_formed(c, params) and c[0] in wanted for c in parsed.calls)


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


def answer_score(text: str | None, facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str] = ()) -> float:
    """Share of required facts stated; 0 for a malformed answer (paste, markup, shotgun)."""
    req = required_facts(facts)
    if not req or not answer_well_formed(text, tool_results, [fact_expected(f) for f in req]):
        return 0.0
    scores = fact_scores(list(facts), text or "")
    return sum(min(1.0, scores.get(f["id"], 0.0)) for f in req) / len(req)


def answer_right(parsed: ParsedCompletion, facts: Sequence[Mapping[str, Any]], tool_results: Sequence[str] = ()) -> bool:
    return not parsed.calls and answer_score(parsed.answer, facts, tool_results) >= 1.0


def outcome(parsed: ParsedCompletion, kind: str, targets: Sequence[Call], facts: Sequence[Mapping[str, Any]],
            tool_results: Sequence[str] = ()) -> bool:
    """The binary step outcome: the exact gold call wave, or an answer holding every required fact."""
    if kind == "call":
        return parsed.well_formed and calls_exact(parsed.calls, targets)
    return answer_right(parsed, facts, tool_results)
