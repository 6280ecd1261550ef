"""The careful-agent pass rate: each task's careful answer (written through the task's tools before
the gold was opened, `tests/data/answer_corpus`) graded by today's scorer.

Reads the per-task verdicts of this folder (`part-*.jsonl`: the careful answer's corpus item, the
agent's own verdict, whether it matched the gold, whose mistake a mismatch was), grades each
careful item with `scorers.grading.grade` (embedded backend, seed 0), and prints the pass rate in
the paper's sense (success rate, one run per task) with every miss and its recorded cause.

    python benchmarks/scoring_validity/careful_agent/pass_rate.py
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.corpus import grade_corpus, load_corpus
from kopa_inspect.tools import shared_backend

HERE = Path(__file__).parent
CORPUS = HERE.parents[2] / "tests" / "data" / "answer_corpus"


def main() -> None:
    verdicts = [
        json.loads(line)
        for p in sorted(HERE.glob("part-*.jsonl"))
        for line in p.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    items = {i.id: i for i in load_corpus(CORPUS)}
    chosen = [items[v["item"]] for v in verdicts if v["item"] in items]
    results = {r.item.id: r for r in asyncio.run(grade_corpus(chosen, shared_backend(BackendConfig())))}
    passed = [v for v in verdicts if v["item"] in results and results[v["item"]].passed]
    agent_right = [v for v in verdicts if v["agent_verdict"] == "correct" and v["matches_gold"]]
    print(f"tasks with a careful answer: {len(verdicts)}")
    print(f"careful answer right and equal to the gold: {len(agent_right)}/{len(verdicts)}")
    print(
        f"scorer passes the careful answer: {len(passed)}/{len(verdicts)} ({len(passed) / len(verdicts):.1%})"
    )
    for v in verdicts:
        r = results.get(v["item"])
        if r is None or not r.passed:
            why = "; ".join(r.grade.missing[:2]) if r else "item not in the corpus"
            print(
                f"  {v['task']} [{v['whose_mistake']}] {v['defect'][:90] or v['note'][:90]} | scorer: {why[:160]}"
            )


if __name__ == "__main__":
    main()
