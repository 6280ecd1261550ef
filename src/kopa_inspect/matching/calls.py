"""Tool calls against gold calls: normalized arguments, the same query, call precision and recall, and record fingerprints."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# Arguments that carry no meaning for the result: keys, tokens and format switches.
IGNORED_ARGS: frozenset[str] = frozenset(
    {
        "serviceKey",
        "ServiceKey",
        "KEY",
        "key",
        "apiKey",
        "crtfc_key",
        "OC",
        "dataType",
        "_type",
        "returnType",
        "type",
        "resultType",
        "Type",
        "token",
        "session_token",
    }
)
# Arguments whose absence equals a default value.
DEFAULT_ARGS: dict[str, str] = {"pageNo": "1", "pIndex": "1"}
# Paging arguments: they choose which rows come back, not which query is asked. Row ranges count
# too: ECOS start/end, Seoul START_INDEX/END_INDEX, law.go.kr display/page.
PAGING_ARGS: frozenset[str] = frozenset(
    {
        "numOfRows",
        "pageNo",
        "pSize",
        "pIndex",
        "page_no",
        "page_count",
        "start",
        "end",
        "START_INDEX",
        "END_INDEX",
        "display",
        "page",
    }
)


def normalize_value(value: Any) -> Any:
    """Canonical form for comparing argument values: numbers and numeric strings alike."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return tuple(sorted(str(normalize_value(v)) for v in value))
    if isinstance(value, int | float):
        f = float(value)
        return str(int(f)) if f.is_integer() else repr(f)
    s = unicodedata.normalize("NFKC", str(value)).strip()
    if re.fullmatch(r"-?\d+(\.\d+)?", s) and not (len(s) > 1 and s.startswith("0") and "." not in s):
        f = float(s)
        return str(int(f)) if f.is_integer() else repr(f)
    if "," in s and not re.fullmatch(r"[\d,]+", s):
        parts = [p.strip() for p in s.split(",") if p.strip()]
        if len(parts) > 1:
            return tuple(sorted(parts))
    return s


def normalize_args(args: Mapping[str, Any], ignore: Iterable[str] = ()) -> dict[str, Any]:
    skip = IGNORED_ARGS | set(ignore)
    out = {k: normalize_value(v) for k, v in args.items() if k not in skip and v is not None and v != ""}
    for k, v in DEFAULT_ARGS.items():
        if out.get(k) == v:
            out.pop(k)
    return out


# Page-size arguments: a first page at least as large as the gold one holds the gold rows.
PAGE_SIZE_ARGS: dict[str, str] = {"numOfRows": "pageNo", "pSize": "pIndex"}


def _value_equal(key: str, want: Any, got: Any, w: Mapping[str, Any], g: Mapping[str, Any]) -> bool:
    if got == want:
        return True
    page = PAGE_SIZE_ARGS.get(key)
    if page is not None and page not in w and page not in g:
        try:
            return float(got) >= float(want)
        except (TypeError, ValueError):
            return False
    return False


def arguments_equal(
    want: Mapping[str, Any],
    got: Mapping[str, Any],
    ignore: Iterable[str] = (),
    accept: Mapping[str, Sequence[Any]] | None = None,
) -> bool:
    """Every gold argument present in ``got`` with the same normalized value (extras allowed).

    ``accept`` (BFCL style): per argument, further values that are right too (a step's
    :attr:`~kopa_inspect.plans.PlanStep.accept` lists, resolved against the gold run); they are
    normalized like the arguments."""
    w, g = normalize_args(want, ignore), normalize_args(got, ignore)
    for k, v in w.items():
        if _value_equal(k, v, g.get(k), w, g):
            continue
        if (
            accept
            and k in accept
            and g.get(k) is not None
            and any(_value_equal(k, normalize_value(a), g.get(k), w, g) for a in accept[k])
        ):
            continue
        return False
    return True


def same_query(
    want: Mapping[str, Any], got: Mapping[str, Any], accept: Mapping[str, Sequence[Any]] | None = None
) -> bool:
    """The same question to the API whatever the paging: equal arguments apart from page args."""
    w = {k: v for k, v in normalize_args(want).items() if k not in PAGING_ARGS}
    g = {k: v for k, v in normalize_args(got).items() if k not in PAGING_ARGS}
    if set(w) != set(g):
        return False
    return arguments_equal(w, g, accept=accept)


def argument_match_score(
    want: Mapping[str, Any], got: Mapping[str, Any], ignore: Iterable[str] = ()
) -> float:
    """Partial credit: mean of argument-name Jaccard and the share of gold values matched."""
    w, g = normalize_args(want, ignore), normalize_args(got, ignore)
    if not w and not g:
        return 1.0
    names = len(w.keys() & g.keys()) / len(w.keys() | g.keys())
    values = sum(1 for k, v in w.items() if _value_equal(k, v, g.get(k), w, g)) / len(w) if w else 1.0
    return (names + values) / 2


def call_matches(
    want_name: str,
    want_args: Mapping[str, Any],
    got_name: str,
    got_args: Mapping[str, Any],
    accept: Mapping[str, Sequence[Any]] | None = None,
) -> bool:
    return want_name == got_name and arguments_equal(want_args, got_args, accept=accept)


# Per gold call, its step's resolved accept lists (PlanStep.resolve_accept), or None.
Accepts = Sequence[Mapping[str, Sequence[Any]] | None]


def match_calls(
    gold: Sequence[tuple[str, Mapping[str, Any]]],
    made: Sequence[tuple[str, Mapping[str, Any]]],
    accepts: Accepts | None = None,
) -> dict[int, int]:
    """One-to-one matching of gold calls to made calls (gold index -> made index), greedy in order.

    Parallel calls may come in any order; each made call is used at most once. ``accepts``: per
    gold call, further acceptable argument values (the step's ``accept`` lists, resolved).
    """
    used: set[int] = set()
    out: dict[int, int] = {}
    for gi, (gname, gargs) in enumerate(gold):
        accept = accepts[gi] if accepts is not None and gi < len(accepts) else None
        for mi, (mname, margs) in enumerate(made):
            if mi not in used and call_matches(gname, gargs, mname, margs, accept):
                out[gi] = mi
                used.add(mi)
                break
    return out


def call_prf(
    gold: Sequence[tuple[str, Mapping[str, Any]]],
    made: Sequence[tuple[str, Mapping[str, Any]]],
    accepts: Accepts | None = None,
) -> tuple[float, float, float]:
    """Precision, recall and F1 of made calls against gold calls (duplicates count once each)."""
    if not gold and not made:
        return 1.0, 1.0, 1.0
    matched = len(match_calls(gold, made, accepts))
    p = matched / len(made) if made else 0.0
    r = matched / len(gold) if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


# --- record fingerprints -------------------------------------------------------------------------

# Fields that number a row within one response, not the record itself (they change with the
# query's filter or page): left out of the fingerprint.
ROW_NUMBER_FIELDS: frozenset[str] = frozenset({"rnum", "rowNum", "ROW_NUM", "rn", "RNUM", "num", "NUM"})


def record_fingerprint(item: Mapping[str, Any]) -> str:
    """A short stable id of one output record: the same record from any page, page size,
    filter or order has the same fingerprint."""
    body = {k: v for k, v in item.items() if k not in ROW_NUMBER_FIELDS}
    raw = json.dumps(body, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(raw.encode("utf-8"), digest_size=8).hexdigest()
