"""Attack the answer facts of an EDGE dataset with the step metric's own scorer.

For every row with a two-sided comparison (CMP), two wrong answers are built from the stored answer
and scored by ``kopa_inspect.steps.scoring.answer_score`` (the kopa_steps answer accuracy and the
GRPO answer reward): the same figures with the loser named as the winner, and the two rows' figures
swapped. Rows with two "which one" facts (comparison winners, max/min picks) each of whose winner is
a candidate of the other (A has more doctors, B more beds; the same pick of two hospitals' lists) get
a third: the two names swapped in the claiming sentences, so every candidate is still claimed somewhere. A valid dataset passes its own template answers and no attack.

Winners swapped across roles (the scope attack): for every row with two "which one"
name facts (the first two), both present in the answer, the two winners' strings swapped everywhere in
the row's own answer ("병원은 '산부인과'", "'산부인과'의 진료과목 중 … 진료과목은 '이화…병원'") and scored by
``matching.score_answer`` with the facts read as ``AnswerFact`` models, as the episode grader reads them.
A swapped fact credited is a wrong answer earning it (want 0).

    .venv/bin/python benchmarks/edge_answer_attacks.py OUT/dataset
"""

from __future__ import annotations

import json
import re
import sys

import datasets

from kopa_inspect.matching import _MARKER, score_answer
from kopa_inspect.steps.scoring import answer_score
from kopa_inspect.task_data.schema import AnswerFact


def swap_claims(answer: str, a: str, b: str) -> str:
    """'a' and 'b' swapped in the sentences that claim (a superlative or comparative marker)."""
    out = []
    for sent in re.split(r"(?<=[.!?])\s+", answer):
        if _MARKER.search(sent):
            sent = sent.replace(f"'{a}'", "\0").replace(f"'{b}'", f"'{a}'").replace("\0", f"'{b}'")
        out.append(sent)
    return " ".join(out)


def swap_everywhere(answer: str, a: str, b: str) -> str:
    return answer.replace(a, "\0").replace(b, a).replace("\0", b)


def across_roles(rows: datasets.Dataset) -> tuple[int, int, list[str]]:
    """(swapped answers, those with a swapped fact credited, their row ids): see the module docstring."""
    n = credited = 0
    ids: list[str] = []
    for r in rows:
        raw = json.loads(r["facts_json"])
        names = [
            f
            for f in raw
            if f.get("matcher") == "name" and isinstance(f.get("resolved"), str) and f.get("competitors")
        ]
        if len(names) < 2:
            continue
        a, b = names[0]["resolved"], names[1]["resolved"]
        if a == b or a not in r["answer"] or b not in r["answer"]:
            continue
        facts = [
            AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields})
            for f in raw
        ]
        sc = score_answer(
            facts, {f["id"]: f.get("resolved") for f in raw}, swap_everywhere(r["answer"], a, b)
        )
        n += 1
        if sc[names[0]["id"]] >= 1.0 or sc[names[1]["id"]] >= 1.0:
            credited += 1
            ids.append(r["id"])
    return n, credited, ids


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
        attack = (
            answer.replace(f"'{winner}' 쪽", "\0")
            .replace(f"'{loser}' 쪽", f"'{winner}' 쪽")
            .replace("\0", f"'{loser}' 쪽")
        )
        if attack != answer:
            wrong_winner += answer_score(attack, facts) >= 1.0
        swap = f"'{la[0]}'은 {b['resolved']}, '{lb[0]}'은 {a['resolved']}입니다. '{winner}' 쪽이 더 큽니다."
        swapped += answer_score(swap, facts) >= 1.0
    print(f"template answers scoring 1.0: {all_ok}/{len(rows)}")
    print(
        f"rows with a comparison: {n}; template answer passes {gold_ok}; "
        f"wrong winner passes {wrong_winner}; swapped values pass {swapped}; "
        f"pairs of which-one facts sharing candidates: {shared}, both claims swapped passes {both_swapped}"
    )
    n_roles, credited, ids = across_roles(rows)
    print(
        f"two winners swapped across roles: {n_roles}; a swapped fact credited {credited}"
        + (f" ({', '.join(ids[:10])})" if ids else "")
    )


if __name__ == "__main__":
    main(sys.argv[1])
