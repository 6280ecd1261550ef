"""The answer a composed row teaches: every fact, each next to the row it came from and why
("… 가장 큰 병원은 '열린요양병원'(의사 총수 7)이고, 주소는 …입니다.").
"""

from __future__ import annotations

from typing import Any

from edge_synth.conditions import lookup
from edge_synth.describe import row_label
from edge_synth.draft import COUNT, Draft, numeric
from edge_synth.korean import eul, eun, i_ga, ro
from edge_synth.lexicon import field_label, row_word, user_noun
from edge_synth.natural import DETAIL_OF_ROW, branch_noun, counter, true_count
from edge_synth.phrasing import (
    asked_label,
    cmp_phrase,
    join_words,
    list_owner,
    most,
    producer_row_name,
    relation,
)
from edge_synth.validity import incoming
from edge_synth.values import say
from kopa_inspect.plans import PlanRun


def _said_by_rival(value: Any, rivals: list[Any] | None) -> bool:
    """Would saying ``value`` read as naming another row's answer (a number among the competitors)?"""
    n = numeric(value)
    return n is not None and any(numeric(c) == n for c in rivals or [])


# --- the answer -----------------------------------------------------------------------------------


def _v(value: Any) -> str:
    return str(value).strip()


def template_answer(draft: Draft, facts: list[dict[str, Any]], run: PlanRun | None = None) -> str:
    """Which row each fact comes from and why, then the fact: "의사가 가장 많은 병원은 '열린요양병원'
    (의사 총수 7)이고, 주소는 …입니다."."""
    out: list[str] = []
    outputs = run.outputs if run is not None else draft.outputs
    for j in draft.junctions:
        if j.type == "COND":
            d = j.detail
            prod_tool = draft.step(j.producer).tool
            cond = lookup(prod_tool, d["field"], d["threshold"])
            assert cond is not None
            items = outputs[j.producer]["items"]
            row = items[d.get("item", 0)]
            lab = row_label(prod_tool, row, items)
            who = f"'{lab[1]}'" if lab else user_noun(prod_tool)
            label = field_label(prod_tool, d["field"])
            side = cond.holds_means if d["holds"] else cond.fails_means
            taken = branch_noun(draft.step(j.consumers[0]).tool)
            said = say(prod_tool, d["field"], row.get(d["field"]))  # "9억 4,600만 원", never "94,600"
            out.append(f"{who}의 {eun(label)} {ro(said)} {side}이어서 {eul(taken)} 살펴봤습니다.")
        if j.type == "CMP" and j.detail["compare"] == COUNT:
            cons_tool = draft.step(j.consumers[0]).tool
            counts = [
                (producer_row_name(draft, j.producer, i, None), true_count(outputs[s]))
                for i, s in zip(j.detail["items"], j.consumers, strict=False)
            ]
            win = next((x for x in facts if x.get("winner_step") in j.consumers), None)
            # "'A' 근처 병원은 8곳, 'B' 근처 병원은 14곳": each count next to its own row
            said = ", ".join(
                f"{eun(join_words(relation(draft, j, j.consumers[0], {}, who=n), user_noun(cons_tool)))} "
                f"{c}{counter(cons_tool)}"
                for n, c in counts
            )
            if win is not None:
                out.append(f"{said}입니다. {win['winner_label']} 쪽이 더 많습니다.")
            continue
        if j.type == "CMP":
            f = j.detail["compare"]
            cons_tool = draft.step(j.consumers[0]).tool
            label = field_label(cons_tool, f)
            pairs = [
                (
                    producer_row_name(draft, j.producer, i, None),
                    say(cons_tool, f, outputs[s]["items"][0].get(f)),
                )
                for i, s in zip(j.detail["items"], j.consumers, strict=False)
            ]
            win = next((x for x in facts if x.get("winner_step") in j.consumers), None)
            said = ", ".join(f"{n}의 {eun(label)} {v}" for n, v in pairs)
            if win is not None:
                # the question's own words ("…이 더 큰 쪽은 어디인가요?", "…가 더 늦게 끝나는 쪽")
                first = outputs[j.consumers[0]]["items"][0].get(f)
                out.append(
                    f"{said}입니다. {cmp_phrase(cons_tool, f, first)} 쪽은 {win['winner_label']} 쪽입니다."
                )
    for f in facts:
        if f.get("row_reason") == "compared" or "pick_for" in f:
            continue  # a pick's name is said with the fact it was picked for
        tool = draft.step(f["step"]).tool
        picked_label = f.get("row_label")
        name = f"'{picked_label}'" if picked_label else None
        flabel = asked_label(draft, f)
        reason = f["row_reason"]
        items = outputs[f["step"]]["items"]
        raw = (
            items[f["row"]].get(f["field"])
            if f["field"] != COUNT and f["row"] < len(items)
            else f["resolved"]
        )
        value = (
            say(tool, f["field"], raw) + f.get("said_unit", "") if f["field"] != COUNT else _v(f["resolved"])
        )
        noun, unit = user_noun(tool), row_word(tool)
        owner = list_owner(draft, f["step"], outputs)
        j_in = incoming(draft, f["step"])
        if owner and tool in DETAIL_OF_ROW and len(items) == 1:
            noun = (
                join_words(f"{owner}의", DETAIL_OF_ROW[tool]) if DETAIL_OF_ROW[tool] else owner
            )  # "'밝은병원'의 …"
        elif owner and j_in is not None:
            # whose result it is, as the query says it: "'X' 근처 병원", "'서울대학교병원'의 진료과목"
            noun = join_words(relation(draft, j_in, f["step"], {}, who=owner), noun)
        elif owner:
            noun = f"{owner}의 {noun}"
        said_name = f.get("row_label_field") == f["field"]
        if reason in ("max", "min"):
            mlabel = field_label(tool, f["measure"])
            how = most(tool, f["measure"], reason, items)
            head = f"{noun} 중 {i_ga(mlabel)} {how} {unit}"
            mval = say(tool, f["measure"], f["measure_value"])
            if name and said_name:
                out.append(
                    f"{eun(head)} {name}({mlabel} {mval})입니다."
                )  # "… 가장 많은 진료과목은 '외과'(…)"
            elif name:
                out.append(f"{eun(head)} {name}({mlabel} {mval})이고, {eun(flabel)} {value}입니다.")
            elif _said_by_rival(f["measure_value"], f.get("competitors")):
                # the measure's figure equals another row's answer: said, it reads as claiming that row
                out.append(f"{head}의 {eun(flabel)} {value}입니다.")
            else:
                out.append(f"{head}({mlabel} {mval})의 {eun(flabel)} {value}입니다.")
        elif reason == "named":
            out.append(f"{name}의 {eun(flabel)} {value}입니다.")
        elif reason == "count":
            out.append(f"{eun(noun)} 모두 {value}{counter(tool)}입니다.")
        else:  # the only row
            if name and said_name:
                out.append(f"{noun}의 {eun(flabel)} {name}입니다.")
            elif name:
                out.append(f"{name}의 {eun(flabel)} {value}입니다.")
            else:
                out.append(f"{noun}의 {eun(flabel)} {value}입니다.")
    return " ".join(out)
