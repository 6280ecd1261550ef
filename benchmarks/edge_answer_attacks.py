"""Attack the answer facts of an EDGE dataset with the step metric's own scorer.

For every row with a two-sided comparison (CMP), two wrong answers are built from the stored answer
and scored by ``kopa_inspect.steps.scoring.answer_score`` (the kopa_steps answer accuracy and the
GRPO answer reward): the same figures with the loser named as the winner, and the two rows' figures
swapped. Rows with two "which one" facts (comparison winners, max/min picks) each of whose winner is
a candidate of the other (A has more doctors, B more beds; the same pick of two hospitals' lists) get
a third: the two names swapped in the claiming sentences, so every candidate is still claimed somewhere. A valid dataset passes its own template answers and no attack.

    .venv/bin/python benchmarks/edge_answer_attacks.py OUT/dataset
"""

from __future__ import annotations

import json
import re
import sys

import datasets

from kopa_inspect.matching import _MARKER
from kopa_inspect.steps.scoring import answer_score


def swap_claims(answer: str, a: str, b: str) -> str:
    """'a' and 'b' swapped in the sentences that claim (a superlative or comparative marker)."""
    out = []
    for sent in re.split(r"(?<=[.!?])\s+", answer):
        if _MARKER.search(sent):
            sent = sent.replace(f"'{a}'", "\0").replace(f"'{b}'", f"'{a}'").replace("\0", f"'{b}'")
        out.append(sent)
    return " ".join(out)


def main(path: str) -> None:
    rows = datasets.load_from_disk(path)
    n = gold_ok = wrong_winner = swapped = shared = both_swapped = all_ok = 0
    for r in rows:
        facts = json.loads(r["facts_json"])
        all_ok += answer_score(r["answer"], facts) >= 1.0  # every row's own answer, by the metric
        wins = [f for f in facts if "winner_step" in f]
        picks = [f for f in facts if f.get("matcher") == "name" and f.get("competitors")]
        for i, f in enumerate(picks):
            for g in picks[i + 1 :]:
                a, b = str(f.get("resolved")), str(g.get("resolved"))
                if a == b or b not in map(str, f["competitors"]) or a not in map(str, g["competitors"]):
                    continue
                attack = swap_claims(r["answer"], a, b)
                if attack != r["answer"]:
                    shared += 1
                    both_swapped += answer_score(attack, facts) >= 1.0
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
    print(f"template answers scoring 1.0: {all_ok}/{len(rows)}")
    print(f"rows with a comparison: {n}; template answer passes {gold_ok}; "
          f"wrong winner passes {wrong_winner}; swapped values pass {swapped}; "
          f"pairs of which-one facts sharing candidates: {shared}, both claims swapped passes {both_swapped}")


if __name__ == "__main__":
    main(sys.argv[1])
