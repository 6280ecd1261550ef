"""Phase B.3: keep only trajectories that are right, knowable, readable, new and not copied.

Drop reasons (counted in the run report):

- ``nondeterministic``: re-executing the plan from scratch on a fresh backend gives other outputs;
- ``answer_missing_fact``: the final answer does not state every fact value;
- ``unknowable_argument``: a step passes a value that is neither in the query, nor in an earlier
  result (a plan reference), nor given by the clock in the system turn (today, last month, the
  latest KMA issue time), nor request plumbing (paging, format switches) or the schema default.
  SFT on such rows teaches a model to invent arguments (``argument_sources``);
- ``artefact``: template residue in the query or answer ("을(를)", an inline "(corp_code=...)",
  "값 값", two identical COND branches, a raw parameter name, an unresolved ``$s1`` ...);
- ``duplicate``: the same calls with the same arguments as an earlier trajectory (by index);
- ``contamination``: by content, not by exclusion. Links that KOPA-Bench gold plans use may be
  sampled; a trajectory is dropped when it overlaps one benchmark task beyond ``OVERLAP_MAX`` in
  (tools Jaccard + links Jaccard + query 3-gram Jaccard) / 3, or makes the same calls.

The contamination check reads ``kopa_inspect/task_data/kopa_bench.jsonl`` line by line as JSON
(no schema import), so a benchmark file still being written cannot break synthesis.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kopa_inspect.plans import Plan, refs_in

DEFAULT_BENCH = Path(__file__).resolve().parents[1] / "kopa_inspect" / "task_data" / "kopa_bench.jsonl"
QUERY_SIM_MAX = 0.6
OVERLAP_MAX = 0.5  # mean of the tools, links and query Jaccards against one benchmark task


def canonical(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)


def plan_key(plan: Plan) -> str:
    """Tools and arguments, step ids ignored: two plans doing the same calls are equal."""
    ids = {s.id: f"#{i}" for i, s in enumerate(plan.steps)}
    text = canonical(sorted(canonical([s.tool, s.args]) for s in plan.steps))
    for sid, alias in ids.items():  # references by position, not by the step's name
        text = text.replace(f"${sid}.", f"${alias}.")
    return text


def links_of(plan: Plan) -> set[tuple[str, str, str]]:
    """(producer tool, consumer tool, consumer argument) data-flow links."""
    by_id = {s.id: s.tool for s in plan.steps}
    out = set()
    for s in plan.steps:
        for arg, value in s.args.items():
            for r in refs_in(value):
                if r.ref in by_id:
                    out.add((by_id[r.ref], s.tool, arg))
    return out


def _grams(text: str, n: int = 3) -> set[str]:
    t = re.sub(r"\s+", "", text)
    return {t[i : i + n] for i in range(max(0, len(t) - n + 1))}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


@dataclass
class BenchIndex:
    plan_keys: set[str]
    tool_links: list[tuple[frozenset[str], frozenset[tuple[str, str, str]]]]
    query_grams: list[set[str]]
    links: set[tuple[str, str, str]]
    n_tasks: int

    @classmethod
    def load(cls, path: str | Path | None = None) -> BenchIndex:
        path = Path(path) if path else DEFAULT_BENCH
        keys: set[str] = set()
        tl: list[tuple[frozenset[str], frozenset[tuple[str, str, str]]]] = []
        grams: list[set[str]] = []
        links: set[tuple[str, str, str]] = set()
        n = 0
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    task = json.loads(line)
                    plan = Plan.model_validate(task["plan"])
                except Exception:  # a partial or foreign line is skipped, not fatal
                    continue
                n += 1
                keys.add(plan_key(plan))
                ln = links_of(plan)
                links |= ln
                tl.append((frozenset(plan.tools()), frozenset(ln)))
                grams.append(_grams(str(task.get("query", ""))))
        return cls(keys, tl, grams, links, n)

    def overlap(self, plan: Plan, query: str) -> tuple[float, int | None, dict[str, float]]:
        """The largest (tools J + links J + query J) / 3 against one task, that task, its parts."""
        tools, ln, g = frozenset(plan.tools()), frozenset(links_of(plan)), _grams(query)
        best, which, parts = 0.0, None, {"tools": 0.0, "links": 0.0, "query": 0.0}
        for i, ((t, lk), q) in enumerate(zip(self.tool_links, self.query_grams, strict=True)):
            tj = jaccard(set(tools), set(t))
            if tj == 0.0:
                continue
            lj, qj = jaccard(set(ln), set(lk)), jaccard(g, q)
            score = (tj + lj + qj) / 3
            if score > best:
                best, which, parts = (
                    score,
                    i,
                    {"tools": round(tj, 3), "links": round(lj, 3), "query": round(qj, 3)},
                )
        return round(best, 4), which, parts

    def contaminated(self, plan: Plan, query: str) -> str | None:
        if plan_key(plan) in self.plan_keys:
            return "same_calls"
        score, _, _ = self.overlap(plan, query)
        if score >= OVERLAP_MAX:
            return "overlap"
        g = _grams(query)
        if any(jaccard(g, q) >= QUERY_SIM_MAX for q in self.query_grams):
            return "similar_query"
        return None


# --- knowable arguments -----------------------------------------------------------------------------


def _in_text(value: str, text: str) -> bool:
    """``value`` occurs in ``text`` as a whole token (digits/letters not glued to it)."""
    if not value:
        return False
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(value)}(?![0-9A-Za-z])", text) is not None


def _spoken_forms(value: str, fmt: str | None) -> list[str]:
    forms = [value]
    if fmt == "date8" and re.fullmatch(r"\d{8}", value):
        forms.append(f"{value[:4]}년 {int(value[4:6])}월 {int(value[6:8])}일")
    if fmt == "ym6" and re.fullmatch(r"\d{6}", value):
        forms.append(f"{value[:4]}년 {int(value[4:6])}월")
    if fmt == "year4" and re.fullmatch(r"\d{4}", value):
        forms.append(f"{value}년")
    if fmt == "time4" and re.fullmatch(r"\d{4}", value):
        forms.append(time_ko(value))
    return forms


def _radius_forms(pname: str, op_id: str, value: str) -> list[str]:
    """A search radius as the query says it: 2000 (metres) is "2km" or "2킬로미터" (query_text.radius_said)."""
    from edge_synth.fields import concept

    if concept(pname, op_id) != "radius" or not re.fullmatch(r"\d+", value):
        return []
    n = int(value)
    if n < 1000 or n % 100:
        return []
    return [f"{n / 1000:g}km", f"{n / 1000:g}킬로미터"]


def time_ko(hhmm: str) -> str:
    """ "1330" -> "13시 30분", "2000" -> "20시": how a person says an HHMM time."""
    h, m = int(hhmm[:2]), int(hhmm[2:])
    return f"{h}시 {m}분" if m else f"{h}시"


def argument_sources(plan: Plan, query: str, clock: str | None) -> list[dict[str, Any]]:
    """Where the model could learn each argument of each step from: query, result, clock, protocol, schema.

    ``source`` is None for an argument nothing gives (the row must be dropped)."""
    from edge_synth.clock import clock_values, is_clock_value
    from edge_synth.fields import is_plumbing, param_format, value_format
    from kopa_inspect.apis import get_operation

    clock_vals = clock_values(clock)
    out = []
    for step in plan.steps:
        op = get_operation(step.tool)
        for k, v in step.args.items():
            p = op.param(k)
            text = str(v)
            fmt = (param_format(p) if p is not None else None) or value_format(text)
            if isinstance(v, str) and v.startswith("$"):
                src = "result"
            elif any(
                _in_text(f, query) for f in _spoken_forms(text, fmt) + _radius_forms(k, step.tool, text)
            ):
                src = "query"
            elif is_clock_value(clock_vals, step.tool, fmt, text):
                src = "clock"
            elif p is not None and is_plumbing(p):
                src = "protocol"
            elif p is not None and p.default is not None and str(p.default) == text:
                src = "schema"
            else:
                src = None
            out.append({"step": step.id, "tool": step.tool, "arg": k, "source": src})
    return out


# --- template artefacts -----------------------------------------------------------------------------

_ARTEFACTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "unchosen particle",
        re.compile(
            r"을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|\(으\)로|과\(와\)|와\(과\)|\(이\)"
        ),
    ),
    ("raw parameter dump", re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*=\s*\S")),
    ("repeated word", re.compile(r"(?:^|[^가-힣])[가-힣]*?([가-힣]+)\s+\1[이가을를은는의로]?(?![가-힣])")),
    ("identical COND branches", re.compile(r"이면\s+(.+?)[을를이가],?\s*아니면\s+\1[을를이가]")),
    (
        "unresolved reference",
        re.compile(r"\$[A-Za-z_]\w*|(?<![A-Za-z])(?:None|nan|null)(?![A-Za-z])|[{}]|\[-?\d*:-?\d*\]"),
    ),
    (
        "raw identifier",
        re.compile(r"(?<![A-Za-z0-9])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z]+_[A-Za-z0-9_]+)(?![A-Za-z0-9])"),
    ),
    ("unnamed field", re.compile(r"해당 항목")),
    ("empty slot", re.compile(r"(?:^|\s)[을를은는의로](?=\s|$)|\(\s*\)|,\s*,|''")),
)


def artefacts(text: str, values: Iterable[Any] = ()) -> list[str]:
    """Template residue in a query or answer; values the APIs returned are blanked out first
    (a company called "A_B" is not an artefact of the template)."""
    masked = text
    for v in sorted({str(x) for x in values if x is not None and str(x).strip()}, key=len, reverse=True):
        if len(v) >= 3:
            masked = masked.replace(v, "□")
    return [name for name, rx in _ARTEFACTS if rx.search(masked)]


def _norm_text(s: str) -> str:
    return re.sub(r"[,\s]", "", s)


def answer_has(answer: str, value: Any) -> bool:
    if value is None:
        return False
    a = _norm_text(answer)
    v = _norm_text(str(value))
    if v and v in a:
        return True
    try:
        f = float(v)
    except ValueError:
        return False
    forms = {str(int(f))} if f == int(f) else {str(f), f"{f:.1f}", f"{f:.2f}"}
    return any(x in a for x in forms)


def answer_ok(answer: str, facts: Iterable[dict[str, Any]]) -> bool:
    """Every fact's value is in the answer: literally, or for a date/time/month fact or a 만원 amount in the
    form a person writes it ("2026년 5월 5일", "17시 30분", "12억 3,000만 원"), read by the matcher that
    scores it."""
    from kopa_inspect.matching import fact_score, money_score

    def has(f: dict[str, Any]) -> bool:
        if f.get("matcher") in ("date", "time", "month"):
            return fact_score(f["matcher"], f.get("resolved"), answer) >= 1.0
        if f.get("matcher") == "money":
            return money_score(f.get("resolved"), answer, unit=f.get("unit") or "원") >= 1.0
        return answer_has(answer, f.get("resolved"))

    return all(has(f) for f in facts)


def answer_holds(answer: str, facts: list[dict[str, Any]]) -> bool:
    """The answer holds every fact by the metric that will score it (``steps.scoring.answer_score``:
    the step task's answer accuracy and the GRPO answer reward): each value next to its row's name,
    the winner claimed. A row whose own answer fails its facts would teach and grade nothing (a
    name the scorer's sentence split cuts, "1.3.2.1. 시장금리(일별)", is one such case)."""
    from kopa_inspect.steps.scoring import answer_score

    return answer_score(answer, facts) >= 1.0


def answer_well_formed(answer: str, facts: list[dict[str, Any]], tool_results: list[str]) -> bool:
    """The answer passes the episode grader's form checks (``steps.scoring.answer_well_formed``, which
    kopa_grpo.env applies before grading): no paste of the results, no shotgun of numbers, no field dump,
    and no two other rows' figures stated. The last one reads every figure of the answer: a comparison's
    times ("13시, 12시 30분") can equal other rows' figures of another fact's list and read as a row listing
    (edge-s0-0007676 and -7678 of a default run failed it); such a row is dropped."""
    from kopa_inspect.steps.scoring import answer_well_formed as well_formed

    return well_formed(answer, tool_results, [f.get("resolved") for f in facts], facts)


def claims_overlap(facts: list[dict[str, Any]]) -> bool:
    """Two comparison winners of one answer over the same measure whose candidates share a row ('A' vs
    'B' and 'B' vs 'C', both on 의사 수). The matcher binds a winner claim to its measure (matching 4b),
    so winners over different measures cannot be swapped; over one measure nothing in the answer tells
    the two claims apart, so an answer swapping both still passes, and such a row is not kept."""
    from kopa_inspect.matching import measure_key

    def field(f: dict[str, Any]) -> str | None:  # the measure without its step: s3 and s5 both 의사 수
        key = measure_key(f)
        return key.split(":", 1)[1] if key else None

    sides = [
        ({str(f.get("resolved")), *map(str, f.get("competitors") or [])}, field(f))
        for f in facts
        if f.get("matcher") == "name" and f.get("winner_step")
    ]
    return any(
        a & b and (ma is None or mb is None or ma == mb)
        for i, (a, ma) in enumerate(sides)
        for b, mb in sides[i + 1 :]
    )


def same_outputs(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]) -> bool:
    return canonical(a) == canonical(b)
