"""A measure named in the answer by another of its names: a fact described "PM2.5" is answered
"초미세먼지는 15" (and the other way round), beside the task's other measures of the same place.
A figure of another measure or another station stays no answer for it."""

from __future__ import annotations

import pytest

from kopa_inspect import matching
from kopa_inspect.matching.measures import measure_words

EXPECTED = {"t1h": "9.1", "wsd": "6.3", "pm25": "15"}


def _facts(description: str) -> list[dict[str, object]]:
    return [
        {"id": "t1h", "description": "기온", "matcher": "number", "value": "$w1.x", "tolerance": 0.1},
        {"id": "wsd", "description": "풍속", "matcher": "number", "value": "$w1.y", "tolerance": 0.1},
        {"id": "pm25", "description": description, "matcher": "number", "value": "$s3.items[0].pm25Value"},
    ]


RIGHT = [
    "지금 우동은 기온 9.1도, 풍속 6.3m/s로 바람이 좀 센 편이에요. 가장 가까운 좌동 측정소의 초미세먼지는 "
    "15㎍/㎥(좋음)라서 공기는 괜찮습니다. 근처 재송동(13)·광안동(14)도 비슷해요.",
    "기온 9.1℃, 풍속 6.3m/s, 좌동 측정소 PM2.5 15㎍/㎥입니다.",
    "Temperature 9.1°C, wind 6.3 m/s; PM2.5 at the nearest station (좌동) is 15 µg/m³ (good).",
    "- 기온: 9.1℃\n- 풍속: 6.3m/s\n- 초미세먼지(좌동): 15㎍/㎥",
]
WRONG = [
    "기온 9.1℃, 풍속 6.3m/s, 초미세먼지 13㎍/㎥입니다.",  # another station's figure
    "기온 9.1℃, 풍속 6.3m/s, 초미세먼지 13~15㎍/㎥입니다.",  # a range, no figure
    "기온 9.1℃, 풍속 6.3m/s, 미세먼지 15㎍/㎥입니다.",  # PM10's name: another measure
]


@pytest.mark.parametrize("description", ["PM2.5", "초미세먼지 (PM2.5)"])
@pytest.mark.parametrize("answer", RIGHT)
def test_either_name_of_the_measure_is_credited(description: str, answer: str) -> None:
    assert matching.score_answer(_facts(description), EXPECTED, answer)["pm25"] == 1.0


@pytest.mark.parametrize("description", ["PM2.5", "초미세먼지 (PM2.5)"])
@pytest.mark.parametrize("answer", WRONG)
def test_another_figure_or_measure_is_not(description: str, answer: str) -> None:
    assert matching.score_answer(_facts(description), EXPECTED, answer)["pm25"] == 0.0


def test_measure_words_keep_the_decimal_of_a_name_and_add_its_other_names() -> None:
    assert measure_words("PM2.5 (㎍/㎥)") >= {"pm25", "초미세먼지"}
    assert measure_words("미세먼지") >= {"pm10"}
    assert "pm25" not in measure_words("PM10")
