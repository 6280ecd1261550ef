"""--model composition: a model's rewrite replaces the grammar's query and answer only if it is as
good (every argument said, every named row kept, every fact stated, no residue, no parameter names
or grid cells); otherwise the grammar's text stays, so a bad model cannot put junk into the data.

Fast tests script the model (Inspect's mockllm with fixed outputs); the slow test composes with a
real local model (llama.cpp, the packaged SmolLM2) offline.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

import pytest
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from edge_synth.compose import compose, execute, model_text_problems
from edge_synth.natural import fluency_problems
from edge_synth.sample import Draft, Junction
from kopa_inspect.backends import make_backend
from kopa_inspect.plans import Plan, PlanStep

CLOCK = "2026-12-03T13:45:00+09:00"
_TODAY = "2026년 12월 3일"


def _draft(backend) -> Draft:  # type: ignore[no-untyped-def]
    """A place's grid cell from KMA's grid table, then that cell's short-range forecast."""
    from edge_synth.pool import clock_values

    cv = clock_values(CLOCK)
    steps = [
        PlanStep(id="s1", tool="kma_getGridPointList", args={"level1": "서울특별시", "level2": "종로구"}),
        PlanStep(
            id="s2",
            tool="kma_getVilageFcst",
            args={
                "base_date": cv["date8"],
                "base_time": cv["time4"],
                "nx": "$s1.items[0].nx",
                "ny": "$s1.items[0].ny",
            },
        ),
    ]
    run, _ = asyncio.run(execute(Plan(steps=steps), backend, seed=0, clock=CLOCK))
    d = Draft(index=7, steps=steps, outputs=dict(run.outputs), args=dict(run.args))
    d.junctions.append(Junction("SEQ", "s1", ["s2"], "e_test", {"item": 0}))
    return d


def _scripted(query: str, answer: str):  # type: ignore[no-untyped-def]
    text = json.dumps({"query": query, "answer": answer}, ensure_ascii=False)
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = ModelUsage(input_tokens=100, output_tokens=50, total_tokens=150)  # no tokenizer download
    return get_model("mockllm/model", custom_outputs=[out] * 4, memoize=False)


@pytest.fixture(scope="module")
def grammar():  # type: ignore[no-untyped-def]
    backend = make_backend(seed=0)
    d = _draft(backend)
    comp = asyncio.run(compose(d, backend, seed=0, clock=CLOCK))
    yield backend, d, comp
    asyncio.run(backend.aclose())


def test_botched_rewrites_fall_back_to_the_grammar(grammar):  # type: ignore[no-untyped-def]
    backend, d, ref = grammar
    assert ref.writer == "grammar" and "종로구" in ref.query and "0200/" not in ref.query
    fact = str(ref.facts[0]["resolved"])
    good_q = ref.query.replace("찾아 주세요.", "알려 주실래요?")
    bad = {
        "artefact": (ref.query.replace("종로구", "종로구을(를)"), ref.answer),
        "missing fact": (good_q, ref.answer.replace(fact, "잘 모르겠")),
        "missing argument": (ref.query.replace("종로구", ""), ref.answer),
        "raw parameters": (good_q + " (nx 60, ny 127)", ref.answer),
        "grid cell": ("서울 종로구, 격자 60, 127의 단기예보를 알려 주세요. " + good_q, ref.answer),
        # stacked noun phrases the grammar no longer writes (test_edge_fluency): a dataset name, the
        # date said twice
        "less fluent": (good_q.replace("종로구", "종로구 병원 상세 정보의 종로구", 1), ref.answer),
        "date twice": (f"{_TODAY} 기준으로 " + good_q.replace("오늘", f"오늘({_TODAY})", 1), ref.answer),
        "empty": ("", ""),
        "not JSON": None,
    }
    for why, qa in bad.items():
        model = _scripted(*qa) if qa else _scripted("", "")
        if qa is None:
            out = ModelOutput.from_content("mockllm/model", "질문: 종로구 날씨")
            out.usage = ModelUsage(input_tokens=100, output_tokens=5, total_tokens=105)
            model = get_model("mockllm/model", custom_outputs=[out] * 4, memoize=False)
        comp = asyncio.run(compose(d, backend, seed=0, clock=CLOCK, model=model))
        assert comp.writer.startswith("grammar (model rejected"), (why, comp.writer)
        assert (comp.query, comp.answer) == (ref.query, ref.answer), why
    # A rewrite that keeps every value and row is taken.
    comp = asyncio.run(
        compose(d, backend, seed=0, clock=CLOCK, model=_scripted(good_q, "정리하면, " + ref.answer))
    )
    assert comp.writer == "model" and comp.query == good_q


def test_the_checks_name_what_a_model_dropped(grammar):  # type: ignore[no-untyped-def]
    _, _, ref = grammar
    kw = dict(plan=ref.plan, run=ref.run, facts=ref.facts, template_query=ref.query, clock=CLOCK)
    assert model_text_problems(ref.query, ref.answer, **kw) == []
    assert "grid cell" in model_text_problems(ref.query + " 격자 X 60", ref.answer, **kw)
    assert any(
        p.startswith("parameter name")
        for p in model_text_problems(ref.query + " base_time", ref.answer, **kw)
    )
    assert fluency_problems(ref.query) == [], ref.query
    stacked = ref.query.replace("종로구", "종로구 병원 상세 정보의 종로구", 1)
    assert "less fluent: dataset name '병원 상세 정보'" in model_text_problems(stacked, ref.answer, **kw)


@pytest.mark.slow
def test_a_real_local_model_composes_or_falls_back(grammar, monkeypatch):  # type: ignore[no-untyped-def]
    """SmolLM2-135M through Inspect (llamacpp provider, packaged GGUF, offline): whatever it writes,
    the row holds only text that passes the checks, and a botched rewrite leaves the grammar's.
    (A 135M model writes no usable Korean JSON, so this is the fallback path on a real engine; 96
    new tokens keep the test near a minute on a loaded 2-core machine.)"""
    pytest.importorskip("llama_cpp")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import edge_synth.compose as compose_mod

    monkeypatch.setattr(compose_mod, "MODEL_MAX_TOKENS", 96)
    try:
        model = get_model("llamacpp/smollm2")
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    backend, d, ref = grammar
    t0 = time.perf_counter()
    comp = asyncio.run(compose(d, backend, seed=0, clock=CLOCK, model=model))
    elapsed = time.perf_counter() - t0
    print(f"writer: {comp.writer} ({elapsed:.0f} s)")
    kw = dict(plan=comp.plan, run=comp.run, facts=comp.facts, template_query=ref.query, clock=CLOCK)
    assert model_text_problems(comp.query, comp.answer, **kw) == [], comp.writer
    assert comp.writer == "model" or (comp.query, comp.answer) == (ref.query, ref.answer)
    assert comp.writer != "grammar"  # the model was asked and its text was judged
    assert elapsed < 180
