"""Does every EDGE row's own answer pass the episode grader (kopa_grpo.env's path)?

The pipeline keeps a row only if ``filter.answer_holds`` (steps.scoring.answer_score over facts_json)
gives 1.0. The GRPO episode reward grades differently: ``scorers.grading.gold_truth`` re-runs the plan,
re-resolves every fact and adds context (a max/min fact without a subject gets every other row of its
aggregate as competitors), then ``steps.scoring.answer_well_formed`` and ``grading.grade``. A row whose
gold answer fails that grader teaches an answer the reward calls wrong (edge-s1-0000363).

    python benchmarks/edge_grader_check.py OUT/dataset [--limit N]

Prints rows graded, how many fail (answer < 1.0 or not well formed) and the failing ids with the
grader's reason.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys


async def check(path: str, limit: int | None) -> int:
    import datasets

    from kopa_inspect.backends import make_backend
    from kopa_inspect.plans import Plan
    from kopa_inspect.scorers.grading import gold_truth, grade
    from kopa_inspect.steps import scoring
    from kopa_inspect.task_data.schema import AnswerFact, BenchTask

    rows = list(datasets.load_from_disk(path))[:limit]
    backends: dict[int, object] = {}
    bad: list[tuple[str, str]] = []
    for row in rows:
        seed = int(row["seed"])
        backend = backends.setdefault(seed, make_backend(seed=seed))
        plan = Plan.model_validate_json(row["plan_json"])
        raw = json.loads(row["facts_json"])
        facts = [
            AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields})
            for f in raw
        ]
        task = BenchTask.model_construct(
            id="kopa-000",
            category="chain2",
            domain="district",
            platforms=list(row["platforms"]),
            tools=plan.tools(),
            query="",
            query_en="",
            clock=row.get("clock") or None,
            plan=plan,
            facts=facts,
            required_state=[],
            n_calls=len(plan.steps),
            parallel=False,
        )
        gold = await gold_truth(task, backend, seed=seed)
        msgs = json.loads(row["messages_json"])
        results = [m["content"] for m in msgs if m["role"] == "tool"]
        req = [{**f, "resolved": gold.expected.get(f["id"])} for f in raw if f.get("required", True)]
        if not scoring.answer_well_formed(row["answer"], results, [f["resolved"] for f in req], req):
            bad.append((row["id"], "not well formed"))
            continue
        calls = [{"tool": s.tool, "args": gold.run.args[s.id], "ok": True} for s in plan.steps]
        g = grade(task, gold, row["answer"], calls, set())
        if g.answer < 1.0:
            bad.append((row["id"], "; ".join(g.missing)[:200]))
    for b in backends.values():
        await b.aclose()
    print(f"rows graded: {len(rows)}; own answer fails the episode grader: {len(bad)}")
    for rid, why in bad:
        print(f"  {rid}: {why}")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset")
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    return asyncio.run(check(a.dataset, a.limit))


if __name__ == "__main__":
    sys.exit(main())
