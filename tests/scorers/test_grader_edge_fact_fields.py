"""The episode grader reads an EDGE row's facts as AnswerFact models (kopa_grpo.env._grade_one,
benchmarks/edge_grader_check.py); the pipeline's own check reads the same facts as dicts. A field the
matcher reads but the model drops changes the grade: edge-s0-0012822 (a default run) asks two
hospitals' least-staffed departments; each answer is in the other's competitors, and only ``scope``
(whose list each pick ranks) tells the two claims apart. Without it the grader failed the row's own
answer and passed the answer with the two departments swapped."""

from __future__ import annotations

import pytest

from kopa_inspect import matching
from kopa_inspect.task_data.schema import AnswerFact

DEPTS = ["내과", "신경과", "외과", "정형외과", "신경외과", "흉부외과", "비뇨의학과", "안과"]


def _fact(fid: str, step: str, winner: str, scope: str) -> dict:
    return {
        "id": fid,
        "description": "진료과목 중 전문의 수가 가장 적은 진료과목의 과목명",
        "value": f"${step}.min_by(items, &to_number(dgsbjtPrSdrCnt)).dgsbjtCdNm",
        "resolved": winner,
        "matcher": "name",
        "tolerance": 0.0,
        "step": step,
        "field": "dgsbjtCdNm",
        "row_reason": "min",
        "measure": "dgsbjtPrSdrCnt",
        "competitors": [d for d in DEPTS if d != winner],
        "scope": scope,
    }


FACTS = [_fact("f1", "s2", "비뇨의학과", "건국대학교병원"), _fact("f2", "s3", "신경외과", "삼성서울병원")]
EXPECTED = {f["id"]: f["resolved"] for f in FACTS}
RIGHT = (
    "'건국대학교병원'의 진료과목 중 전문의 수가 가장 적은 진료과목은 '비뇨의학과'(전문의 수 9)입니다. "
    "'삼성서울병원'의 진료과목 중 전문의 수가 가장 적은 진료과목은 '신경외과'(전문의 수 8)입니다."
)
SWAPPED = RIGHT.replace("비뇨의학과", "@").replace("신경외과", "비뇨의학과").replace("@", "신경외과")


def _as_the_grader_reads(facts: list[dict]) -> list[AnswerFact]:
    return [
        AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields}) for f in facts
    ]


@pytest.mark.parametrize("read", [lambda fs: fs, _as_the_grader_reads], ids=["dicts", "models"])
def test_two_scoped_picks_are_told_apart(read):
    facts = read(FACTS)
    assert matching.score_answer(facts, EXPECTED, RIGHT) == {"f1": 1.0, "f2": 1.0}
    assert matching.score_answer(facts, EXPECTED, SWAPPED) == {"f1": 0.0, "f2": 0.0}


def test_the_model_keeps_every_fact_field_the_matcher_reads():
    fact = _as_the_grader_reads(FACTS)[0]
    assert (fact.scope, fact.measure) == ("건국대학교병원", "dgsbjtPrSdrCnt")
