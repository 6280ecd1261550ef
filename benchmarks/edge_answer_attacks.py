"""Attack the answer facts of an EDGE dataset with the step metric's own scorer.

For every row with a two-sided comparison (CMP), two wrong answers are built from the stored answer
and scored by ``kopa_inspect.steps.scoring.answer_score`` (the kopa_steps answer accuracy and the
GRPO answer reward): the same figures with the loser named as the winner, and the two rows' figures
swapped. A valid dataset passes its own template answers and neither attack.

    .venv/bin/python benchmarks/edge_answer_attacks.py OUT/dataset
"""

from __future__ import annotations

import json
import re
import sys

import datasets

from kopa_inspect.steps.scoring import answer_score


def main(path: str) -> None:
    rows = datasets.load_from_disk(path)
    n = gold_ok = wrong_winner = swapped = 0
    for r in rows:
        facts = json.loads(r["facts_json"])
        wins = [f for f in facts if "winner_step" in f]
        compared = [f for f in facts if f.get("row_reason") == "compared" and "winner_step" not in f]
        if not wins or len(compared) < 2:
            continue
        a, b = compared[0], compared[1]
        la, lb = re.findall(r"'([^']+)'", a["description"]), re.findall(r"'([^']+)'", b["description"])
        if not la or not lb or la[0] == lb[0] or str(a["resolved"]) == str(b["resolved"]):
            continue
        n += 1
        answer = r["answer"]
        gold_ok += answer_score(answer, facts) >= 1.0
        winner = wins[0]["winner_label"].strip("'")
        loser = lb[0] if winner == la[0] else la[0]
        attack = (answer.replace(f"'{winner}' 쪽", "\0").replace(f"'{loser}' 쪽", f"'{winner}' 쪽")
                  .replace("\0", f"'{loser}' 쪽"))
        if attack != answer:
            wrong_winner += answer_score(attack, facts) >= 1.0
        swap = f"'{la[0]}'은 {b['resolved']}, '{lb[0]}'은 {a['resolved']}입니다. '{winner}' 쪽이 더 큽니다."
        swapped += answer_score(swap, facts) >= 1.0
    print(f"rows with a comparison: {n}; template answer passes {gold_ok}; "
          f"wrong winner passes {wrong_winner}; swapped values pass {swapped}")


if __name__ == "__main__":
    main(sys.argv[1])
