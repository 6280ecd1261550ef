"""EDGE data a model should learn from: adversarial checks of links, arguments, text and contamination.

Each test plants what a wrong pipeline would let through (a look-alike link, a consumer that
ignores its input, an argument nobody gave, template residue, a near-copy of a benchmark task)
and checks that it is rejected, then that a valid alternative passes.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from edge_synth.filter import BenchIndex, argument_sources, artefacts
from edge_synth.graph import Edge, LinkGraph
from edge_synth.korean import eul, eun, final_sound, gwa, i_ga, ro
from edge_synth.semantics import link_meaning
from edge_synth.verify import Grounder, GroundingConfig
from edge_toyapi import PLANTED_INSENSITIVE, PLANTED_WRONG, toy_registry
from kopa_inspect.apis import get_operation
from kopa_inspect.backends import make_backend
from kopa_inspect.plans import Plan, PlanStep

# --- link meaning ------------------------------------------------------------------------------


def test_lookalike_links_across_platforms_are_rejected_by_field_meaning():
    # A DART business year is not the year of KASI's holiday calendar; an ECOS cycle/date is
    # not a KMA forecast base date. Both have a value of the right format.
    dart_year = Edge(
        "dart_fnlttSinglAcnt", "bsns_year", "kasi_getRestDeInfo", "solYear", None, ["alias"], 0.6
    )
    ecos_cycle = Edge(
        "ecos_StatisticItemList",
        "CYCLE",
        "kma_getVilageFcst",
        "base_date",
        None,
        ["semantic:0.70+retriever:0.55"],
        0.4,
        "name",
        0.55,
    )
    ecos_end = Edge(
        "ecos_StatisticItemList", "END_TIME", "kma_getVilageFcst", "base_date", None, ["format"], 0.5
    )
    for e in (dart_year, ecos_cycle, ecos_end):
        m = link_meaning(e)
        assert not m.agree, (e.label, m)
        assert "cross-platform" in m.why
    # Valid alternatives: the same concept on the same platform, a 법정동 code sliced to LAWD_CD.
    assert link_meaning(Edge("kma_getVilageFcst", "nx", "kma_getUltraSrtNcst", "nx")).agree
    ok = Edge(
        "stanregincd_getStanReginCdList",
        "region_cd",
        "molit_getRTMSDataSvcAptTradeDev",
        "LAWD_CD",
        (0, 5),
        ["format"],
        0.5,
    )
    assert link_meaning(ok).agree, link_meaning(ok)


def test_different_code_systems_and_format_only_links_disagree():
    with toy_registry():
        producer, fld, consumer, param = PLANTED_WRONG
        m = link_meaning(Edge(producer, fld, consumer, param, None, ["format"], 0.5))
        assert not m.agree
        assert link_meaning(Edge("edgetoy_getRegions", "nx", "edgetoy_getForecast", "nx")).agree


def test_llm_link_score_below_cut_is_rejected():
    e = Edge("kma_getVilageFcst", "nx", "kma_getUltraSrtNcst", "nx", llm_score=0.2)
    assert not link_meaning(e).agree
    e.llm_score = 0.8
    assert link_meaning(e).agree


def _toy_graph(*links: tuple[str, str, str, str]) -> LinkGraph:
    g = LinkGraph()
    from kopa_inspect.apis import operations

    for op in operations().values():
        g.add_op(op)
    for p, f, c, a in links:
        g.add(Edge(p, f, c, a, None, ["name"], 0.7))
    return g


def test_counterfactual_rejects_a_consumer_that_ignores_the_value():
    """getNotices returns rows for any sidoName: rows alone would verify the link."""
    dependent = ("edgetoy_getRegions", "sidoName", "edgetoy_getStations", "sidoName")
    with toy_registry():
        from edge_synth.pool import ValuePool

        graph = _toy_graph(PLANTED_INSENSITIVE, dependent)
        ids = {lk: Edge(*lk).id for lk in (PLANTED_INSENSITIVE, dependent)}

        async def go(cf: int):
            backend = make_backend(seed=3)
            try:
                g = Grounder(
                    graph.subgraph(graph.edges),
                    backend,
                    seed=3,
                    clock=None,
                    pool=ValuePool(None, []),
                    config=GroundingConfig(
                        rounds=6, paths_per_round=20, eval_paths=10, counterfactual_confirmations=cf
                    ),
                )
                await g.run()
                return g
            finally:
                await backend.aclose()

        g = asyncio.run(go(2))
        st = g.stats[ids[PLANTED_INSENSITIVE]]
        assert st.trials >= 1 and st.insensitive >= 1 and st.dependent == 0
        assert ids[PLANTED_INSENSITIVE] not in g.verified_ids()
        assert ids[PLANTED_INSENSITIVE] in g.pruned
        assert g.stats[ids[dependent]].dependent >= 1
        assert ids[dependent] in g.verified_ids()
        # Without the counterfactual, "returned rows" verifies the planted link: the check is what rejects it.
        g0 = asyncio.run(go(0))
        assert ids[PLANTED_INSENSITIVE] in g0.verified_ids()


def test_grounding_budget_is_bounded_by_the_papers_100x500():
    GroundingConfig(rounds=100, paths_per_round=500)
    with pytest.raises(ValueError, match="100x500"):
        GroundingConfig(rounds=101, paths_per_round=10)
    with pytest.raises(ValueError):
        GroundingConfig(rounds=10, paths_per_round=501)


# --- knowable arguments ------------------------------------------------------------------------


def _plan(school_code: str) -> Plan:
    return Plan(
        steps=[
            PlanStep(id="s1", tool="neis_schoolInfo", args={"SCHUL_NM": "서울고등학교"}),
            PlanStep(
                id="s2",
                tool="neis_mealServiceDietInfo",
                args={
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": school_code,
                    "MLSV_YMD": "20261203",
                },
            ),
        ]
    )


def test_an_argument_in_neither_query_result_nor_clock_is_unknowable():
    clock = "2026-12-03T09:00:00+09:00"
    query = "서울고등학교의 학교 정보를 찾고, 그 학교의 오늘 급식 식단을 알려 주세요."
    src = {a["arg"]: a["source"] for a in argument_sources(_plan("7010536"), query, clock)}
    assert src["SD_SCHUL_CODE"] is None  # a school code filled from a pool: invented
    assert src["ATPT_OFCDC_SC_CODE"] == "result" and src["SCHUL_NM"] == "query" and src["MLSV_YMD"] == "clock"
    # Valid alternatives: the code comes from the earlier result, or the user states it.
    ok = _plan("$s1.items[0].SD_SCHUL_CODE")
    assert all(a["source"] for a in argument_sources(ok, query, clock))
    stated = query + " 학교 코드는 7010536입니다."
    assert all(a["source"] for a in argument_sources(_plan("7010536"), stated, clock))
    # A value glued into a longer number is not stated: "70105361" does not state 7010536.
    glued = query + " 번호 70105361"
    assert {a["arg"]: a["source"] for a in argument_sources(_plan("7010536"), glued, clock)}[
        "SD_SCHUL_CODE"
    ] is None


def test_a_date_is_knowable_from_the_clock_only_when_it_is_the_clocks_date():
    query = "서울고등학교의 급식 식단을 알려 주세요."
    plan = _plan("$s1.items[0].SD_SCHUL_CODE")
    plan.steps[1].args["MLSV_YMD"] = "20250415"
    src = {a["arg"]: a["source"] for a in argument_sources(plan, query, "2026-12-03T09:00:00+09:00")}
    assert src["MLSV_YMD"] is None
    src = {a["arg"]: a["source"] for a in argument_sources(plan, query + " 2025년 4월 15일 기준", None)}
    assert src["MLSV_YMD"] == "query"


# --- template artefacts and Korean grammar -------------------------------------------------------

BAD = [
    ("아파트 매매 실거래가을(를) 먼저 조회해 주세요.", "unchosen particle"),
    ("단일회사 주요계정(corp_code=00126380, bsns_year=2025)을 조회해 주세요.", "raw parameter dump"),
    ("첫 항목의 예보값 값이 10 이상이면 단기예보를 조회하세요.", "repeated word"),
    ("첫 항목의 기온이 10 이상이면 단기예보를, 아니면 단기예보를 조회하세요.", "identical COND branches"),
    ("그 결과의 $s1.items[0].nx 값으로 조회하세요.", "unresolved reference"),
    ("그중 첫 번째 항목의 stationName으로 조회해 주세요.", "raw identifier"),
    ("그중 첫 번째 항목의 LAWD_CD로 조회해 주세요.", "raw identifier"),
    ("답: None 입니다.", "unresolved reference"),
]


@pytest.mark.parametrize(("text", "kind"), BAD)
def test_template_artefacts_are_caught(text, kind):
    assert kind in artefacts(text), artefacts(text)


def test_clean_text_and_api_values_are_not_artefacts():
    clean = (
        "시도 이름 부산 기준으로 시도별 측정소 목록을 찾아 주세요. 그중 '해운대'와 '광복동' 각각의 "
        "측정소별 실시간 대기질을 조회해서 미세먼지 농도가 어느 쪽이 더 큰지 비교해 주세요."
    )
    assert artefacts(clean) == []
    # A value an API returned (a company named with an underscore) is masked, not flagged.
    assert artefacts("회사명은 ACME_KOREA입니다.", ["ACME_KOREA"]) == []
    assert artefacts("회사명은 ACME_KOREA입니다.") == ["raw identifier"]


@pytest.mark.parametrize(
    ("word", "obj", "subj", "topic", "instr", "conj"),
    [
        ("사과", "사과를", "사과가", "사과는", "사과로", "사과와"),
        ("책", "책을", "책이", "책은", "책으로", "책과"),
        ("서울", "서울을", "서울이", "서울은", "서울로", "서울과"),
        ("부산", "부산을", "부산이", "부산은", "부산으로", "부산과"),
        ("2", "2를", "2가", "2는", "2로", "2와"),
        ("3", "3을", "3이", "3은", "3으로", "3과"),
        ("10", "10을", "10이", "10은", "10으로", "10과"),
        ("7", "7을", "7이", "7은", "7로", "7과"),
        ("100", "100을", "100이", "100은", "100으로", "100과"),
        ("PM10", "PM10을", "PM10이", "PM10은", "PM10으로", "PM10과"),
        ("'해운대'", "'해운대'를", "'해운대'가", "'해운대'는", "'해운대'로", "'해운대'와"),
    ],
)
def test_particles_follow_the_final_consonant(word, obj, subj, topic, instr, conj):
    assert (eul(word), i_ga(word), eun(word), ro(word), gwa(word)) == (obj, subj, topic, instr, conj)


def test_final_sound_reads_numbers_aloud():
    assert final_sound("1000") == "ㄴ" and final_sound("10000") == "ㄴ" and final_sound("2.5") == ""
    assert final_sound("A") == "" and final_sound("L") == "ㄹ"


# --- contamination by content ---------------------------------------------------------------------


def _bench_task(tmp: Path) -> tuple[Path, dict]:
    task = {
        "id": "kopa-x1",
        "query": "서울고등학교의 오늘 점심 급식 메뉴가 뭐야?",
        "plan": {
            "steps": [
                {"id": "s1", "tool": "neis_schoolInfo", "args": {"SCHUL_NM": "서울고등학교"}},
                {
                    "id": "s2",
                    "tool": "neis_mealServiceDietInfo",
                    "args": {
                        "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                        "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                        "MLSV_YMD": "20261203",
                    },
                },
            ]
        },
    }
    path = tmp / "bench.jsonl"
    path.write_text(json.dumps(task, ensure_ascii=False) + "\n", encoding="utf-8")
    return path, task


def test_a_near_copy_of_a_benchmark_task_is_dropped_but_its_links_may_be_used(tmp_path):
    path, task = _bench_task(tmp_path)
    idx = BenchIndex.load(path)
    # Near copy: same tools and links, another school, a query that overlaps the task's wording.
    copy = Plan.model_validate(task["plan"])
    copy.steps[0].args["SCHUL_NM"] = "부산고등학교"
    q = "부산고등학교의 오늘 점심 급식 메뉴가 뭐야?"
    score, which, parts = idx.overlap(copy, q)
    assert which == 0 and parts["tools"] == 1.0 and parts["links"] == 1.0 and score >= 0.5
    assert idx.contaminated(copy, q) == "overlap"
    # Valid: the same benchmark link (schoolInfo -> meal) inside a longer, different chain and query.
    longer = Plan(
        steps=[
            *copy.steps,
            PlanStep(
                id="s3",
                tool="neis_SchoolSchedule",
                args={
                    "ATPT_OFCDC_SC_CODE": "$s1.items[0].ATPT_OFCDC_SC_CODE",
                    "SD_SCHUL_CODE": "$s1.items[0].SD_SCHUL_CODE",
                },
            ),
        ]
    )
    q2 = "부산고등학교를 찾아서 학사일정과 함께 식단도 정리해 주세요."
    assert idx.contaminated(longer, q2) is None
    assert idx.overlap(longer, q2)[2]["links"] > 0  # it shares a benchmark link, and is kept


# --- export: TRL's SFTTrainer and the Qwen chat templates ------------------------------------------------

TRL_TEMPLATES = Path(__import__("trl").__file__).parent / "chat_templates"


def _row():
    """One row of `kopa synth --n 2000 --seed 0` (tool results shortened), through the export features."""
    import datasets

    from edge_synth.export import to_dataset

    rows = json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "edge_row.json").read_text(encoding="utf-8")
    )
    return datasets.Dataset.from_list(to_dataset(rows).to_list(), features=to_dataset(rows).features)[0]


# The `messages` column holds each call's arguments as its exact JSON text: Qwen3's template writes a
# string as it is; Qwen2.5's writes `arguments | tojson`, so it gets edge_synth.export.chat_messages
# (arguments parsed exactly into dicts).
@pytest.mark.parametrize(("template", "parsed"), [("qwen2_5.jinja", True), ("qwen3.jinja", False)])
def test_messages_render_tool_call_arguments_as_json_objects(template, parsed):
    from transformers.utils.chat_template_utils import render_jinja_template

    from edge_synth.export import chat_messages

    row = _row()
    assert isinstance(row["tools"], list) and all(isinstance(t, dict) for t in row["tools"])
    tpl = (TRL_TEMPLATES / template).read_text()
    messages = chat_messages(row) if parsed else row["messages"]
    (text,), _ = render_jinja_template([messages], tools=row["tools"], chat_template=tpl)
    convo = text.split("<|im_start|>user", 1)[1]  # after the system turn's format example
    calls = re.findall(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", convo, re.S)
    gold = json.loads(row["gold_calls_json"])
    api_calls = [json.loads(c) for c in calls if not json.loads(c)["name"].endswith("_get_api_key")]
    assert [c["name"] for c in api_calls] == [g["name"] for g in gold]
    for c, g in zip(api_calls, gold, strict=True):
        assert isinstance(c["arguments"], dict), c  # not a JSON string encoded twice
        assert c["arguments"] == g["arguments"]
    for t in json.loads(row["tools_json"]):
        assert t["function"]["name"] in text


def test_trl_sft_reads_the_tools_column_as_is():
    from trl.trainer import sft_trainer

    src = Path(sft_trainer.__file__).read_text()
    # What TRL 1.16's tokenize_fn does with the column (read from its source, asserted so a TRL
    # upgrade that changes it fails here):
    assert 'tools = example.get("tools")' in src and "json.loads(tools) if isinstance(tools, str)" in src
    row = _row()
    tools = row.get("tools")
    tools = json.loads(tools) if isinstance(tools, str) else tools
    assert tools == json.loads(row["tools_json"])
    assert {t["function"]["name"] for t in tools} >= {
        get_operation(g["name"]).id for g in json.loads(row["gold_calls_json"])
    }
