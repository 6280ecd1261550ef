"""EDGE answer facts bind each value to its row (issue 10, the lead's wrong-winner measurement).

The step metric and the GRPO answer reward score an EDGE answer with ``steps.scoring.answer_score``
(``matching.score_answer``). A fact without a subject is read against the whole answer, so a
wrong model could name the loser of a comparison as the winner, swap the two rows' figures, or
name another row as the largest one and still score 1.0. These attacks are built from real rows:
the sampler and grammar over the fixed verified links of tests/data/edge_natural_links.csv on the
embedded emulator (the pattern of tests/edge/test_edge_naturalness.py, copied rather than imported so
the two modules stay independent).
"""

from __future__ import annotations

import re

import pytest

from edge_synth.describe import row_label
from edge_synth.natural import true_count
from edge_synth.values import say
from kopa_inspect.steps.scoring import answer_score, fact_scores
from kopa_inspect.task_data.schema import AnswerFact, resolve_value


@pytest.fixture(scope="module")
def synth(edge_seeded_rows) -> list[dict]:
    """Rows past the pipeline's filters before the answer check."""
    return [r for r in edge_seeded_rows if r["kept"]]


@pytest.fixture(scope="module")
def rows(edge_seeded_rows) -> list[dict]:
    """Rows the pipeline keeps: its filters, including answer_holds (the metric reads the answer)."""
    kept = [r for r in edge_seeded_rows if r["holds"]]
    assert len(kept) >= 25, f"only {len(kept)} rows kept"
    return kept


def _cmp(r: dict) -> list[tuple[object, list[str], list[object]]]:
    """Per CMP junction of a row: (junction, the compared rows' names, their compared values)."""
    d, c = r["draft"], r["comp"]
    out = []
    for j in d.junctions:
        if j.type != "CMP":
            continue
        items = c.run.outputs[j.producer]["items"]
        names = []
        for i in j.detail["items"]:
            lab = row_label(d.step(j.producer).tool, items[i], items)
            names.append(lab[1] if lab else "")
        if j.detail["compare"] == "__count__":
            vals = [true_count(c.run.outputs[s]) for s in j.consumers]  # the true totals, not a page
        else:
            vals = [c.run.outputs[s]["items"][0].get(j.detail["compare"]) for s in j.consumers]
        out.append((j, names, vals))
    return out


def _cmp_rows(rows: list[dict]) -> list[dict]:
    found = [r for r in rows if any(all(n) and len(set(n)) == len(n) for _, n, _ in _cmp(r))]
    assert len(found) >= 3, f"only {len(found)} rows with a comparison of named rows"
    return found


def _winner(names: list[str], vals: list[object]) -> int:
    nums = [float(str(v).replace(",", "")) for v in vals]
    return nums.index(max(nums))


def test_nearly_every_template_answer_holds_every_fact(synth):
    # The pipeline drops a row whose own answer fails its facts (answer_not_scored); that must stay
    # rare, or the binding would cost the dataset its rows. Known case: a name with ". " inside
    # ("1.3.2.1. 시장금리(일별)"), which matching's sentence split cuts.
    low = [
        (r["comp"].answer, answer_score(r["comp"].answer, r["comp"].facts))
        for r in synth
        if answer_score(r["comp"].answer, r["comp"].facts) < 1.0
    ]
    assert len(low) <= max(2, len(synth) // 20), f"{len(low)} of {len(synth)}: {low[:3]}"
    assert all(". " in a for a, _ in low), low


def test_facts_stay_valid_answer_facts_that_resolve(rows):
    # kopa_grpo.env validates facts_json as AnswerFact and resolves `value` against the gold run.
    for r in rows:
        c = r["comp"]
        for f in c.facts:
            fact = AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields})
            got = resolve_value(fact.value, c.run.outputs)
            assert str(got).strip() == str(f["resolved"]).strip(), (f, got)


def test_a_wrong_winner_fails(rows):
    for r in _cmp_rows(rows):
        ans, facts = r["comp"].answer, r["comp"].facts
        for _, names, vals in _cmp(r):
            w = _winner(names, vals)
            loser = names[1 - w] if len(names) == 2 else names[(w + 1) % len(names)]
            said = f"'{names[w]}' 쪽"
            assert said in ans, ans
            attack = ans.replace(said, f"'{loser}' 쪽")
            assert answer_score(attack, facts) < 1.0, attack


def _shared_last_word(names: list[str]) -> bool:
    """Two names ending in the same word ("문래동 공공와이파이", "양재1동 공공와이파이"): matching
    also reads a subject by its last word, and that form then finds the other row too."""
    last = [n.split()[-1] for n in names if len(n.split()) > 1]
    return len(last) != len(set(last))


def _swap_attacks(rows: list[dict], shared: bool) -> list[tuple[str, list]]:
    out = []
    for r in _cmp_rows(rows):
        ans, facts = r["comp"].answer, r["comp"].facts
        for j, names, vals in _cmp(r):
            if len(names) != 2 or str(vals[0]).strip() == str(vals[1]).strip():
                continue
            if _shared_last_word(names) != shared:
                continue
            a, b = f"'{names[0]}'", f"'{names[1]}'"
            ia = ans.index(a)
            ib = ans.index(b, ia + len(a))
            end = ans.index("입니다", ib)
            # as the answer says them ("13시", "2.3킬로미터"), not as the API sent them ("1300")
            tool = r["draft"].step(j.consumers[0]).tool
            va, vb = (say(tool, j.detail["compare"], v) for v in vals)

            def put(seg: str, old: str, new: str) -> str:
                spots = [m.start() for m in re.finditer(rf"(?<![\d,.]){re.escape(old)}(?!\d|[.,]\d)", seg)]
                assert spots, (seg, old)
                k = spots[-1]
                return seg[:k] + new + seg[k + len(old) :]

            out.append((ans[:ia] + put(ans[ia:ib], va, vb) + put(ans[ib:end], vb, va) + ans[end:], facts))
    return out


def test_swapped_values_fail(rows):
    attacks = _swap_attacks(rows, shared=False)
    assert len(attacks) >= 2
    passing = [a for a, facts in attacks if answer_score(a, facts) >= 1.0]
    assert not passing, passing


def test_swapped_values_fail_when_names_share_their_last_word(rows):
    attacks = _swap_attacks(rows, shared=True)
    if not attacks:
        pytest.fail("no such pair in these rows")
    passing = [a for a, facts in attacks if answer_score(a, facts) >= 1.0]
    assert not passing, passing


def test_listing_every_candidate_without_a_winner_fails_the_winner_fact(rows):
    for r in _cmp_rows(rows):
        ans, facts = r["comp"].answer, r["comp"].facts
        for j, names, vals in _cmp(r):
            w = _winner(names, vals)
            start = ans.index(f"'{names[w]}' 쪽")
            stop = ans.index("니다.", start) + 3  # the winner's sentence ("… 쪽이 더 많습니다.")
            listed = (ans[:start] + ans[stop:]).strip()
            win = next(f for f in facts if f.get("winner_step") in j.consumers)
            assert fact_scores(facts, listed)[win["id"]] < 1.0, listed


def test_naming_another_row_as_the_pick_fails(rows):
    tried = 0
    for r in rows:
        c = r["comp"]
        for f in c.facts:
            if f.get("row_reason") not in ("max", "min", "named") or not f.get("row_label"):
                continue
            items = c.run.outputs[f["step"]]["items"]
            name, lf = f["row_label"], f["row_label_field"]
            others = [str(it.get(lf)).strip() for it in items if isinstance(it.get(lf), str)]
            others = [o for o in others if o and o != name and o not in name and name not in o]
            if not others or f"'{name}'" not in c.answer:
                continue
            attack = c.answer.replace(f"'{name}'", f"'{others[0]}'")
            tried += 1
            assert answer_score(attack, c.facts) < 1.0, (f["row_reason"], attack)
    assert tried >= 5


def test_a_name_holding_a_figure_stays_a_competitor():
    # A row of the 300-row seed-1 run: the loser's name "우성1" holds the figure 1, the count of
    # another fact. matching dropped it as "another fact's value", so the wrong winner passed
    # (7 of 59 comparisons) until matching._same_value compared names as names.
    facts = [
        {
            "id": "f1",
            "description": "'우성1'의 병원 수",
            "value": "$s2.length(items)",
            "resolved": 1,
            "matcher": "number",
            "tolerance": 0.0,
            "subject": "우성1",
            "row_reason": "compared",
        },
        {
            "id": "f2",
            "description": "'럭키아파트'의 병원 수",
            "value": "$s3.length(items)",
            "resolved": 2,
            "matcher": "number",
            "tolerance": 0.0,
            "subject": "럭키아파트",
            "row_reason": "compared",
        },
        {
            "id": "f3",
            "description": "병원이 더 많은 쪽의 이름",
            "value": "$s1.items[1].aptNm",
            "resolved": "럭키아파트",
            "matcher": "name",
            "tolerance": 0.0,
            "competitors": ["우성1"],
            "winner_step": "s3",
            "row_reason": "compared",
            "winner_label": "'럭키아파트'",
        },
    ]
    right = "'우성1'의 같은 동네의 병원은 1건, '럭키아파트'의 같은 동네의 병원은 2건입니다. '럭키아파트' 쪽이 더 많습니다."
    assert answer_score(right, facts) == 1.0
    wrong = right.replace("'럭키아파트' 쪽", "'우성1' 쪽")
    assert answer_score(wrong, facts) < 1.0


def _cmp_facts(
    base: int, a: str, b: str, va: int, vb: int, field: str, label: str, sa: str, sb: str
) -> list[dict]:
    """A CMP junction's facts as compose.make_facts writes them: both figures bound to their row, the
    winner a name fact with the loser as competitor and the compared figure's reference."""
    w, ws, loser = (a, sa, b) if va > vb else (b, sb, a)
    return [
        {
            "id": f"f{base}",
            "description": f"'{a}'의 {label}",
            "value": f"${sa}.items[0].{field}",
            "resolved": va,
            "matcher": "number",
            "tolerance": 0.0,
            "subject": a,
            "row_reason": "compared",
        },
        {
            "id": f"f{base + 1}",
            "description": f"'{b}'의 {label}",
            "value": f"${sb}.items[0].{field}",
            "resolved": vb,
            "matcher": "number",
            "tolerance": 0.0,
            "subject": b,
            "row_reason": "compared",
        },
        {
            "id": f"f{base + 2}",
            "description": f"{label}가 더 많은 쪽",
            "value": "$s1.items[0].yadmNm",
            "resolved": w,
            "matcher": "name",
            "tolerance": 0.0,
            "competitors": [loser],
            "winner_step": ws,
            "row_reason": "compared",
            "winner_label": f"'{w}'",
            "winner_value_ref": f"${ws}.items[0].{field}",
        },
    ]


@pytest.mark.parametrize("second", [("병상 수", "hpbdCnt"), ("의사 수", "drTotCnt")])
def test_two_comparisons_sharing_a_row(second):
    """Two comparisons of one answer share a row ('나래병원'): swapping both winners keeps every name
    claimed somewhere. Over different measures (의사 수, 병상 수) the matcher binds each claim to its
    measure (matching 4b), so the swap fails and the row is kept; over the same measure nothing tells
    the two claims apart, so such a row is dropped (claims_overlap). Before, every overlapping pair was
    dropped."""
    from edge_synth.filter import claims_overlap

    a, b, c = "가람병원", "나래병원", "다솜병원"
    label, field = second
    facts = _cmp_facts(1, a, b, 12, 7, "drTotCnt", "의사 수", "s2", "s3") + _cmp_facts(
        4, b, c, 150, 90, field, label, "s4", "s5"
    )
    gold = (
        f"'{a}'의 의사 수는 12, '{b}'의 의사 수는 7입니다. 의사 수가 더 많은 쪽은 '{a}' 쪽입니다. "
        f"'{b}'의 {label}는 150, '{c}'의 {label}는 90입니다. {label}가 더 많은 쪽은 '{b}' 쪽입니다."
    )
    swapped = (
        gold.replace(f"쪽은 '{a}'", "\0").replace(f"쪽은 '{b}'", f"쪽은 '{a}'").replace("\0", f"쪽은 '{b}'")
    )
    assert answer_score(gold, facts) == 1.0
    if field == "drTotCnt":
        assert claims_overlap(facts)  # the metric cannot tell the swap: not kept
    else:
        assert answer_score(swapped, facts) < 1.0
        assert not claims_overlap(facts)
    assert not claims_overlap(facts[:3])


def test_the_same_pick_of_two_owners_lists_is_bound_to_its_owner():
    """Two hospitals' department lists, each asked for its department with the most specialists (a FAN
    over hira_getDgsbjtInfo2_7): both picks have one measure and one description, so only the owner
    ("'A병원'의 진료과목 중 …") tells them apart. Each pick fact carries its list's owner as ``scope``
    (matching 4b), so an answer with the two departments swapped fails; the template answer holds.
    Before, the pair swapped passed 5 of 6 such rows of a 300-row run."""
    from edge_helpers import compose_draft, emulator, hand_draft, run_steps
    from edge_synth.sample import Junction
    from kopa_inspect.plans import PlanStep

    sys_path_attacks()
    from edge_answer_attacks import swap_claims

    with emulator() as backend:
        s1 = PlanStep(id="s1", tool="hira_getHospBasisList", args={"sidoCd": "110000", "clCd": "01"})
        items = run_steps(backend, [s1]).outputs["s1"]["items"]
        named = [i for i, it in enumerate(items[:10]) if row_label(s1.tool, it, items) is not None][:2]
        assert len(named) == 2, items[:3]
        # the whole department list (19 rows; the first page has 10), as the sampler fetches it
        # (sample.whole_page): "the most specialists" over one page is no pick (validity.partial_pick)
        steps = [s1] + [
            PlanStep(
                id=f"s{k + 2}",
                tool="hira_getDgsbjtInfo2_7",
                args={"ykiho": f"$s1.items[{i}].ykiho", "numOfRows": 100},
            )
            for k, i in enumerate(named)
        ]
        d = hand_draft(backend, steps, [Junction("FAN", "s1", ["s2", "s3"], "e_test", {"items": named})])
        picks: list[dict] = []
        for seed in range(40):  # the grammar draws the asked field and the pick: find a seed picking both
            comp = compose_draft(backend, d, seed=seed)
            picks = [f for f in comp.facts if f.get("matcher") == "name" and f.get("competitors")]
            # the same pick (one measure, both largest or both smallest): a max and a min pick are
            # told apart by their polarity already
            if (
                len(picks) == 2
                and picks[0]["resolved"] != picks[1]["resolved"]
                and picks[0].get("measure") == picks[1].get("measure")
                and picks[0]["row_reason"] == picks[1]["row_reason"]
            ):
                break
        else:
            pytest.fail("no seed composed the same pick of both lists")
    owners = [row_label(s1.tool, items[i], items)[1] for i in named]
    assert [f.get("scope") for f in picks] == owners
    assert answer_score(comp.answer, comp.facts) == 1.0, comp.answer
    a, b = str(picks[0]["resolved"]), str(picks[1]["resolved"])
    attack = swap_claims(comp.answer, a, b)
    assert attack != comp.answer
    assert answer_score(attack, comp.facts) < 1.0, attack


def sys_path_attacks() -> None:
    import sys
    from pathlib import Path

    bench = str(Path(__file__).resolve().parents[2] / "benchmarks")
    if bench not in sys.path:
        sys.path.insert(0, bench)
