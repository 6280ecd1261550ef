"""Phase B.3: keep only trajectories that are right, new and not copied from the benchmark.

Drop reasons (counted in the run report):

- ``nondeterministic``: re-executing the plan from scratch on a fresh backend gives other outputs;
- ``answer_missing_fact``: the final answer does not state every fact value;
- ``duplicate``: the same calls with the same arguments as an earlier trajectory (by index);
- ``contamination``: the same tool calls as a KOPA-Bench gold plan, or a near-copy of its query.

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
    return {t[i:i + n] for i in range(max(0, len(t) - n + 1))}


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

    def contaminated(self, plan: Plan, query: str) -> str | None:
        if plan_key(plan) in self.plan_keys:
            return "same_calls"
        tools, ln = frozenset(plan.tools()), frozenset(links_of(plan))
        if ln and any(tools == t and ln == lk for t, lk in self.tool_links):
            return "same_tools_and_links"
        g = _grams(query)
        if any(jaccard(g, q) >= QUERY_SIM_MAX for q in self.query_grams):
            return "similar_query"
        return None


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
    return all(answer_has(answer, f.get("resolved")) for f in facts)


def same_outputs(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]) -> bool:
    return canonical(a) == canonical(b)
