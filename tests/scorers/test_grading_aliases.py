"""KOPA-Bench's grader knows the gold rows, so a value's alias from its own row is no hedge.

matching.name_hedged refuses a name offered beside another ("삼성전자 또는 현대자동차"). The same
company's other name in its own corpCode row ("삼성전자 또는 SAMSUNG ELECTRONICS CO,.LTD") names one
company twice; the grader must pass it, through grading.gold_truth's context, as it passes the step
rewards (tests/scorers/test_scorer_name_hedge.py covers matching itself). The attacks stay 0."""

from __future__ import annotations

import pytest

from kopa_inspect.backends import BackendConfig
from kopa_inspect.scorers.grading import gold_truth, grade, oracle_answer
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend
from scoring_calls import CALLS as _CALLS

LINE = "- 가장 큰 회사: 삼성전자"


async def _answer_grade(new: str) -> float:
    task = next(t for t in load_tasks() if t.id == "kopa-069")
    backend = shared_backend(BackendConfig())
    gold = await gold_truth(task, backend, 0)
    answer = oracle_answer(task, gold.expected, context=gold.context)
    assert LINE in answer
    made = await _CALLS.gold_calls(task, gold, backend)
    return grade(task, gold, answer.replace(LINE, f"- 가장 큰 회사: {new}"), made).answer


@pytest.mark.parametrize(
    "alias",
    [
        "삼성전자 또는 SAMSUNG ELECTRONICS CO,.LTD",
        "SAMSUNG ELECTRONICS 또는 삼성전자",
        "삼성전자 혹은 SAMSUNG",
    ],
)
async def test_the_winners_own_english_name_beside_it_keeps_credit(alias: str) -> None:
    assert await _answer_grade(alias) == 1.0


@pytest.mark.parametrize(
    "attack",
    [
        "삼성전자 또는 LG전자",
        "삼성전자 또는 현대자동차",
        "현대자동차 또는 삼성전자",
        "삼성전자 또는 HYUNDAI MOTOR CO",
        "삼성전자 혹은 NAVER",
    ],
)
async def test_another_company_beside_it_earns_nothing(attack: str) -> None:
    # the hedged fact is lost, kopa-069's other required facts stand (the oracle's line scores 1.0)
    n_required = sum(f.required for f in next(t for t in load_tasks() if t.id == "kopa-069").facts)
    assert n_required >= 2
    assert await _answer_grade("삼성전자") == 1.0
    assert await _answer_grade(attack) == pytest.approx(1 - 1 / n_required)
