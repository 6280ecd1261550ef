"""Queries and answers a person would write (issue 10), checked over seeded rows of the real APIs.

The rows come from the sampler and the grammar over a fixed set of real verified links
(tests/data/edge_natural_links.csv, taken from the default run's edges.csv) on the embedded
emulator: the same code path as ``kopa synth`` after its graph stage, fast enough for the default
suite. Each kept row (one that passes the pipeline's filters) must read as one question a person
asks, with conditions from the curated table, rows picked by a criterion a person states, and an
answer that names which row and why.
"""

from __future__ import annotations

import json
import re

import pytest

from edge_synth.compose import fact_label
from edge_synth.conditions import CONDITIONS, lookup
from edge_synth.fields import concept, is_name_like
from edge_synth.natural import INTERNAL_NAMES, bad_year_months, naturalness_problems, requests
from edge_synth.values import say
from kopa_inspect.apis import get_operation

_REGION_RANK = {"sidonm": 1, "sggnm": 2, "umdnm": 3}


@pytest.fixture(scope="module")
def rows(edge_seeded_rows) -> list[dict]:
    return edge_seeded_rows


def _kept(rows: list[dict]) -> list[dict]:
    kept = [r for r in rows if r["kept"]]
    assert len(kept) >= 25, f"only {len(kept)} of {len(rows)} rows kept"
    return kept


def test_the_checks_catch_the_old_grammars_rows():
    # Rows of the 13:27 default run (results/edge-default/samples.md before this change).
    old = [
        (
            "콘텐츠 387470 기준으로 공통정보를 찾아 주세요. 그중 '석촌호수'의 지역코드로 지역코드를 조회해 주세요. "
            "마지막으로 '석촌호수'의 지역코드 목록의 첫 번째 항목의 지역명을 알려 주세요.",
            "'석촌호수'의 지역코드 목록 10건 중 첫 번째 항목은 '강남구'입니다.",
        ),
        ("시군구코드 6자리 1100년 25월 기준으로 병원정보 목록을 찾아 주세요.", "결과는 1건입니다."),
    ]
    for q, a in old:
        assert naturalness_problems(q, a), q
    assert requests(old[0][0]) == 3 and bad_year_months(old[1][0]) == ["1100년 25월"]
    good = (
        "지난달(2026년 11월) 종로구 아파트 매매 거래 중 거래금액이 가장 큰 거래 근처 병원 중 의사가 가장 많은 곳은 "
        "어디인가요?",
        "가장 비싸게 팔린 곳은 '데시앙청운센트럴'(거래금액 123,000)입니다.",
    )
    assert naturalness_problems(*good) == []


def test_queries_are_one_question_without_internal_names(rows):
    bad = []
    for r in _kept(rows):
        c = r["comp"]
        problems = naturalness_problems(c.query, c.answer)
        if problems:
            bad.append((problems, c.query, c.answer))
    assert not bad, f"{len(bad)} rows: {bad[:3]}"


def test_no_code_is_read_as_a_date(rows):
    for r in rows:
        c = r["comp"]
        assert not bad_year_months(c.query) and not bad_year_months(c.answer), c.query


def test_every_condition_comes_from_the_table(rows):
    seen = 0
    for r in rows:
        d = r["draft"]
        for j in d.junctions:
            if j.type != "COND":
                continue
            seen += 1
            cond = lookup(d.step(j.producer).tool, j.detail["field"], j.detail["threshold"])
            assert cond is not None, (d.step(j.producer).tool, j.detail)
            taken = d.step(j.consumers[0]).tool
            assert taken in (cond.then if j.detail["holds"] else cond.otherwise), (taken, cond)
            c = r["comp"]
            assert cond.said in c.query and cond.holds_means.split()[-1] in c.answer + " 이상 미만", c.query
    assert seen >= 0  # COND may be rare; what exists must be from the table
    assert all(
        c.threshold > 0 and c.then and c.otherwise and set(c.then).isdisjoint(c.otherwise) for c in CONDITIONS
    )


def test_rows_are_picked_by_a_criterion_and_the_answer_says_which_and_why(rows):
    for r in _kept(rows):
        c, d = r["comp"], r["draft"]
        assert not re.search(r"번째 항목|마지막 항목", c.query + c.answer), c.query
        for f in c.facts:
            assert f["row_reason"] in ("max", "min", "only", "named", "compared", "count", "forecast"), f
            if f["row_reason"] in ("max", "min"):
                assert any(
                    w in c.query
                    for w in (
                        ("가장 큰", "가장 많은", "가장 늦은", "가장 높은")
                        if f["row_reason"] == "max"
                        else ("가장 작은", "가장 적은", "가장 이른", "가장 낮은")
                    )
                ), c.query
                tool = next(s.tool for s in c.plan.steps if s.id == f["step"])
                assert say(tool, f["measure"], f["measure_value"]) in c.answer, c.answer  # "12억 3,000만 원"
            if f["row_reason"] == "named":
                assert f"'{f['row_label']}'" in c.query and f"'{f['row_label']}'" in c.answer, (
                    c.query,
                    c.answer,
                )
        for j in d.junctions:
            if j.type in ("SEQ", "SEM") and len(d.outputs[j.producer]["items"]) > 1:
                # A row taken from several is named in the query (by its name), never by position.
                assert "'" in c.query, c.query


def test_the_answer_names_the_identifying_field_of_its_row(rows):
    for r in _kept(rows):
        c = r["comp"]
        for f in c.facts:
            lab, lab_field = f.get("row_label"), f.get("row_label_field")
            if not lab:
                continue
            step = next(s for s in c.plan.steps if s.id == f["step"])
            items = c.run.outputs[f["step"]]["items"]
            row = items[f["row"]]
            rank = _REGION_RANK.get(concept(lab_field, step.tool) or "", 0)
            if rank:
                # "'서울특별시'의 시군구 이름은 성북구": a province names no row that has a finer place.
                fields = get_operation(step.tool).output_fields
                finer = [
                    k
                    for k, v in row.items()
                    if isinstance(v, str)
                    and v.strip()
                    and k in fields
                    and is_name_like(k, fields.get(k, ""))
                    and _REGION_RANK.get(concept(k, step.tool) or "", 9) > rank
                    and sum(str(it.get(k, "")).strip() == v.strip() for it in items) == 1
                ]
                assert not finer, (lab_field, lab, finer, c.answer)
            assert f"'{lab}'" in c.answer, c.answer


def test_the_answer_answers_the_querys_final_ask(rows):
    for r in _kept(rows):
        c = r["comp"]
        for f in c.facts:
            if f["row_reason"] == "compared" or "pick_for" in f:
                continue  # which row was picked is said in the answer, not asked by name
            step = next(s for s in c.plan.steps if s.id == f["step"])
            if f["field"] == "__count__":
                # a count is asked "모두 몇 곳인가요?" and answered in the same counter ("모두 14곳")
                from edge_synth.natural import counter

                word = counter(step.tool)
                assert f"몇 {word}" in c.query and f"{f['resolved']}{word}" in c.answer, (c.query, c.answer)
                continue
            if f.get("row_label_field") == f["field"] and f["row_reason"] in ("max", "min"):
                # "which one" ("전문의가 가장 많은 진료과목은 무엇인가요?"): answered by the row's name
                assert f"'{f['row_label']}'" in c.answer and "가장" in c.query, (c.query, c.answer)
                continue
            label = f.get("said_as") or fact_label(step.tool, f["field"])  # a forecast: "12시 기온"
            assert label in c.query and label in c.answer, (label, c.query, c.answer)


def test_no_template_artefacts(rows):
    for r in _kept(rows):
        c = r["comp"]
        text = c.query + " " + c.answer
        assert "을(를)" not in text and "값 값" not in text and not re.search(r"\(\s*[A-Za-z_]\w*\s*=", text)
        assert not any(n in text for n in INTERNAL_NAMES), text


def test_junction_balance_and_facts_beyond_row_zero(rows):
    kept = _kept(rows)
    kinds = [j.type for r in kept for j in r["draft"].junctions]
    share = {k: kinds.count(k) / len(kinds) for k in set(kinds)}
    assert share.get("SEM", 0) >= 0.1 and share.get("CMP", 0) >= 0.1, share
    # A row picked by a criterion is row 0 only by chance: among facts read from one of several
    # rows (max/min/named), most come from another row (the old grammar's "first" picks did not).
    # The run-level share over all facts (pipeline summary, 0.184 in the last default run) is
    # reported in results/edge-default/README.md.
    picked = [f for r in kept for f in r["comp"].facts if f["row_reason"] in ("max", "min", "named")]
    assert len(picked) >= 10 and sum(f["row"] != 0 for f in picked) / len(picked) >= 0.5, json.dumps(
        [(f["row_reason"], f["row"]) for f in picked]
    )


# --- values a person writes (dates, times, distances) and counts that are true --------------------

_RAW_DATE = re.compile(r"(?<!\d)(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:\d{4}|\d{6})?(?!\d)")


def _raw_values(c) -> list[tuple[str, str, str]]:
    """(op, field, raw value) of every fact figure the answer says (the fact and its row's measure)."""
    out = []
    for f in c.facts:
        if "step" not in f:
            continue  # a comparison's winner: a name
        tool = next(s.tool for s in c.plan.steps if s.id == f["step"])
        field = f.get("field")
        row = f.get("row", 0)
        items = c.run.outputs[f["step"]].get("items", [])
        if field in (None, "__count__") or not items or row >= len(items):
            continue
        if "pick_for" in f:
            continue
        out.append((tool, field, str(items[row].get(field, ""))))
        if f.get("measure"):
            out.append((tool, f["measure"], str(items[row].get(f["measure"], ""))))
    return out


def test_answers_say_dates_times_and_distances_as_a_person_does(rows):
    from edge_synth.values import value_kind

    raw, seen = [], 0
    for r in _kept(rows):
        c = r["comp"]
        if _RAW_DATE.search(c.answer):
            raw.append(("raw date", c.answer))
        for tool, field, v in _raw_values(c):
            kind = value_kind(tool, field, v)
            if kind is None:
                continue
            seen += 1
            if kind in ("time", "date", "timestamp") and re.search(
                rf"(?<![\d.]){re.escape(v)}(?![\d.])", c.answer
            ):
                raw.append((f"raw {kind} {v}", c.answer))
            if kind in ("km", "m") and f"{v}{'킬로미터' if kind == 'km' else '미터'}" not in c.answer:
                raw.append((f"distance without unit {v}", c.answer))
    assert seen >= 3, f"only {seen} date/time/distance figures in the seeded rows"
    assert not raw, f"{len(raw)}: {raw[:3]}"


def test_a_time_comparison_says_later_or_earlier(rows):
    from edge_synth.values import is_clock_kind

    seen = 0
    for r in _kept(rows):
        d, c = r["draft"], r["comp"]
        for j in d.junctions:
            if j.type != "CMP" or j.detail["compare"] == "__count__":
                continue
            tool = d.step(j.consumers[0]).tool
            v = c.run.outputs[j.consumers[0]]["items"][0].get(j.detail["compare"])
            if not is_clock_kind(tool, j.detail["compare"], v):
                continue
            seen += 1
            assert re.search(r"더 (?:늦|일찍|이른)", c.query) and re.search(
                r"더 (?:늦|일찍|이른)", c.answer
            ), c.answer
            assert "더 큰" not in c.query and "더 큽" not in c.answer, c.answer
    assert seen >= 1, "no time comparison among the seeded rows"


def test_every_count_fact_is_the_true_total(rows):
    from edge_synth.natural import COUNTABLE

    seen = 0
    for r in rows:
        d, c = r["draft"], r["comp"]
        for f in c.facts:
            if f.get("field") != "__count__":
                continue
            seen += 1
            out = c.run.outputs[f["step"]]
            total = out.get("totalCount")
            assert total is not None, f
            assert int(f["resolved"]) == int(total), (f["description"], f["resolved"], total)
        for j in d.junctions:
            if j.type == "CMP" and j.detail["compare"] == "__count__":
                assert d.step(j.consumers[0]).tool in COUNTABLE, d.step(j.consumers[0]).tool
    assert seen >= 1


def test_the_stored_answer_scores_one_with_the_typed_matchers(rows):
    from kopa_inspect.steps.scoring import answer_score

    bad = [
        (r["comp"].answer, r["comp"].facts)
        for r in _kept(rows)
        if answer_score(r["comp"].answer, r["comp"].facts) < 1.0
    ]
    assert len(bad) <= len(_kept(rows)) // 20, f"{len(bad)}: {bad[:2]}"


@pytest.mark.parametrize(
    ("op", "field", "most_max", "most_min", "more"),
    [
        ("hira_getHospBasisList", "drTotCnt", "가장 많은", "가장 적은", "의사 수가 더 많은"),
        ("hira_getDgsbjtInfo2_7", "dgsbjtPrSdrCnt", "가장 많은", "가장 적은", "전문의 수가 더 많은"),
        ("hira_getDtlInfo2_7", "parkQty", "가장 많은", "가장 적은", "주차 가능 대수가 더 많은"),
        ("molit_getRTMSDataSvcAptTrade", "dealAmount", "가장 큰", "가장 작은", "거래금액이 더 큰"),
    ],
)
def test_a_count_is_many_or_few_not_large(op, field, most_max, most_min, more):
    """A person says a hospital has the most doctors ("의사 수가 가장 많은"), not the largest doctor count
    ("의사 수가 가장 큰"); an amount stays large."""
    from edge_synth.compose import cmp_phrase, most

    assert most(op, field, "max", [{field: "5"}]) == most_max
    assert most(op, field, "min", [{field: "5"}]) == most_min
    assert cmp_phrase(op, field, "5") == more
