"""A subject's figure denied, or said as the hour of another figure, is not stated.

tests/test_reward_attacks_row_world_call_keys.py (REWARD) left open, for the matcher's owner, answers that earn
the answer reward though wrong: "종로구의 오늘 최고기온은 19도입니다(21시 기준)" (the gold 21 only as a clock
hour) and "… 21도가 아닙니다" (the gold figure denied) for a subject-bound fact whose other shown rows
are competitors. The KOPA-Bench scorer read denials only for facts without competitors, and a clock
hour ("21시") was a figure. Both through ``matching.score_answer`` as ``grading.grade`` calls it, and
through the step rewards' ``steps.scoring.answer_score`` (one matcher). Controls keep credit.
"""

from __future__ import annotations

import json

import pytest

from kopa_inspect import matching
from kopa_inspect.steps import scoring

FACT = {
    "id": "f1",
    "description": "종로구 오늘 최고기온",
    "value": "$s2.items[0].fcstValue",
    "resolved": "21.0",
    "matcher": "number",
    "tolerance": 0.5,
    "subject": "종로구",
    "required": True,
}
ROWS = json.dumps(
    {
        "items": [
            {"category": "TMX", "fcstDate": d, "fcstValue": v, "nx": 60, "ny": 127}
            for d, v in (("20261015", "21.0"), ("20261016", "17.0"), ("20261017", "14.0"))
        ]
    }
)


def _bench(answer: str, competitors: list[str] | None) -> float:
    ctx = {"f1": {"subject": "종로구", "competitors": competitors}}
    return matching.score_answer([FACT], {"f1": "21.0"}, answer, context=ctx)["f1"]


@pytest.mark.parametrize(
    "answer",
    [
        "종로구의 오늘 최고기온은 19도입니다(21시 기준).",
        "종로구의 오늘 최고기온은 19도이며 21시에 발표된 예보입니다.",
        "종로구의 오늘 최고기온은 21도가 아닙니다.",
        "종로구의 오늘 최고기온은 21도가 아니고 19도입니다.",
    ],
)
@pytest.mark.parametrize("competitors", [["17.0", "14.0"], None])
def test_a_denied_figure_or_a_clock_hour_is_not_the_value(answer: str, competitors: list[str] | None) -> None:
    assert _bench(answer, competitors) == 0.0, answer
    assert scoring.answer_score(answer, [FACT], [ROWS]) == 0.0, answer


@pytest.mark.parametrize(
    "answer",
    [
        "종로구의 오늘 최고기온은 21도입니다.",
        "종로구의 오늘 최고기온은 21도입니다(15시 기준).",
        "종로구의 오늘(15일) 최고기온은 21도입니다.",
        "종로구의 오늘 최고기온은 17도가 아니라 21도입니다.",
        "종로구의 오늘 최고기온은 21.0도로, 오후 3시쯤 가장 덥겠습니다.",
    ],
)
@pytest.mark.parametrize("competitors", [["17.0", "14.0"], None])
def test_the_value_said_beside_an_hour_or_a_denied_competitor_holds(
    answer: str, competitors: list[str] | None
) -> None:
    assert _bench(answer, competitors) == 1.0, answer
    assert scoring.answer_score(answer, [FACT], [ROWS]) == 1.0, answer


def test_an_hour_is_no_figure_but_an_amount_of_hours_and_cities_are() -> None:
    vals = lambda t: [n.value for n in matching.extract_numbers(t)]  # noqa: E731
    assert vals("21시 기준 19도") == [19.0]
    assert vals("오후 3시 30분에 12건") == [12.0]
    assert vals("3시간 걸립니다") == [3.0]
    assert vals("31개 시군, 3 시도, 8시대 승차 1,200명") == [31.0, 3.0, 1200.0]


# --- the gold figure said in the opposite extreme's role ------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "종로구의 오늘 최고기온은 19도, 최저기온은 21도입니다.",
        "종로구는 최저기온이 21도이고 최고기온은 19도입니다.",
        "종로구 오늘 최저기온 21도.",
    ],
)
def test_the_value_said_as_the_opposite_extreme_is_not_stated(answer: str) -> None:
    assert _bench(answer, ["17.0", "14.0"]) == 0.0 and _bench(answer, None) == 0.0, answer
    assert scoring.answer_score(answer, [FACT], [ROWS]) == 0.0, answer


@pytest.mark.parametrize(
    "answer",
    [
        "종로구의 오늘 최저기온은 14도, 최고기온은 21도입니다.",
        "종로구의 오늘 최고기온은 21도로 최저기온보다 7도 높습니다.",
        "종로구의 오늘 기온은 최고 21도입니다.",
    ],
)
def test_the_value_in_its_own_extremes_clause_holds(answer: str) -> None:
    assert _bench(answer, None) == 1.0, answer
    assert scoring.answer_score(answer, [FACT], [ROWS]) == 1.0, answer
