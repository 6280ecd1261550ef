"""A unit written against its number ("4.7m/s", "0.059ppm", "856.6Kcal", "35km") reads like the spaced
form ("4.7 m/s"): models drop the space as often as not. Only unit words glue: a figure glued to other
letters is part of a code or a name ("11B00000", "5G", "A1", "PM2.5"), no statement of the figure."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m


def _one(value: float, description: str, answer: str) -> float:
    fact = {"id": "v", "matcher": "number", "value": "$s.x", "description": description}
    return m.score_answer([fact], {"v": value}, answer)["v"]


@pytest.mark.parametrize(
    ("value", "description", "answer"),
    [
        (
            4.7,
            "최대 WSD",
            "내일 12시~21시 해운대구에서 바람이 가장 센 시각은 낮 12시이며, 풍속은 4.7m/s입니다.",
        ),
        (4.7, "최대 WSD", "Peak wind: 4.7m/s at noon."),
        (0.059, "o3Value", "1. **백령도** — 현재 0.059ppm, 최근 24시간 최고 0.059ppm (15시)"),
        (856.6, "칼로리", "10월 2일 중식이 856.6Kcal로 가장 높습니다."),
        (856.6, "칼로리", "가장 높은 날은 10월 2일(856.6kcal)입니다."),
        (12.5, "풍속", "순간 최대 풍속 12.5km/h"),
        (3.2, "강수량", "강수량은 3.2mm로 예상됩니다."),
    ],
)
def test_glued_unit_reads_like_spaced(value: float, description: str, answer: str) -> None:
    assert _one(value, description, answer) == 1.0


@pytest.mark.parametrize(
    ("value", "description", "answer"),
    [
        (11, "건수", "지역코드 11B00000 기준으로 조회했습니다."),
        (5, "건수", "5G 요금제만 확인됩니다."),
        (2.5, "농도", "PM2.5 항목을 확인했습니다."),
        (4.7, "최대 WSD", "풍속은 4.7m/s 또는 5.1m/s입니다."),  # a guess between two stays a guess
        (4.7, "최대 WSD", "풍속은 4.7m/s가 아닙니다."),  # denied
        (0.059, "o3Value", "오존은 0.059ppmx로 표시됩니다."),  # no unit word: glued letters
    ],
)
def test_letters_that_are_no_unit_state_nothing(value: float, description: str, answer: str) -> None:
    assert _one(value, description, answer) == 0.0
