"""A runner-up said with its own rank or subject beside the winner is no competing claim.

Careful models answer "the highest is A (x); next is B (y)". The winner's facts hold when the
runner-up is bound to its own rank ("그다음은", "2위", "두 번째로", "그 뒤를 잇", "second",
"followed by") or compared with ("B보다"). The attacks stay misses: the second value unbound or
hedged ("856.6 또는 812.4", "10월 22일 또는 23일"), the winner's name with the runner-up's value,
and every row listed with no pick."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

# NEIS 급식식단정보: the day with the most calories in a week and its calories
FACTS = [
    {
        "id": "day",
        "matcher": "date",
        "value": "$m1.max_by(items, &num(CAL_INFO)).MLSV_YMD",
        "description": "열량이 가장 높은 날",
        "competitors": ["20251020", "20251021", "20251023", "20251024"],
    },
    {
        "id": "kcal",
        "matcher": "number",
        "value": "$m1.max(nums(items[].CAL_INFO))",
        "description": "가장 높은 열량 (Kcal)",
        "competitors": [700.1, 650.2, 812.4, 640.0],
    },
]
EXPECTED = {"day": "20251022", "kcal": 856.6}

RIGHT = [
    "가장 높은 날은 10월 22일 856.6 Kcal입니다. 그다음은 10월 23일 812.4 Kcal입니다.",
    "10월 22일(856.6 Kcal)이 가장 높고 10월 23일(812.4 Kcal)이 그 뒤를 잇습니다.",
    "가장 높은 날은 10월 22일(856.6 Kcal)이며 두 번째로 높은 날은 10월 23일(812.4 Kcal)입니다.",
    "가장 높은 날은 10월 22일(856.6 Kcal)이고 그다음이 10월 23일(812.4 Kcal)입니다.",
    "1위: 10월 22일 856.6 Kcal / 2위: 10월 23일 812.4 Kcal",
    "[최종 답변]\n- 열량이 가장 높은 날: 10월 22일 (856.6 Kcal), 다음은 10월 23일 (812.4 Kcal)",
    "[최종 답변]\n- 열량이 가장 높은 날: 2025년 10월 22일\n- 최고 열량: 856.6 Kcal\n- 2위: 10월 23일 (812.4 Kcal)",
    "10월 22일이 856.6 Kcal로 10월 23일(812.4 Kcal)보다 높아 가장 높습니다.",
    "칼로리가 가장 높은 날은 10월 22일로 856.6 Kcal이고, 2위는 10월 23일(812.4 Kcal)입니다.",
    "The highest was 2025-10-22 with 856.6 kcal, followed by 2025-10-23 with 812.4 kcal.",
    "The highest-calorie day is 10/22 (856.6 kcal); the runner-up is 10/23 at 812.4 kcal.",
    # the winner's figure on a line of its own, the runner-up on a line labelled by its rank
    "- 열량이 가장 높은 날: 2025년 10월 22일\n- 열량: 856.6 Kcal\n- 다음으로 높은 날: 10월 23일 812.4 Kcal",
]


@pytest.mark.parametrize("answer", RIGHT)
def test_winner_with_its_runner_up_bound_holds(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == {"day": 1.0, "kcal": 1.0}


@pytest.mark.parametrize(
    ("answer", "lost"),
    [
        # the second value unbound or hedged
        ("가장 높은 날은 10월 22일 856.6 또는 812.4 Kcal입니다.", "kcal"),
        ("가장 높은 날은 10월 22일 또는 23일이고 856.6 Kcal입니다.", "day"),
        ("가장 높은 날은 10월 22일 또는 10월 23일입니다. 열량은 856.6 Kcal입니다.", "day"),
        ("가장 높은 날은 10월 22일(856.6 Kcal)입니다. 아니면 10월 23일(812.4 Kcal)일 수도 있습니다.", "day"),
        ("가장 높은 날은 10월 22일 856.6 Kcal 812.4 Kcal입니다.", "kcal"),
        # the winner's name with the runner-up's value
        ("가장 높은 날은 10월 22일 812.4 Kcal입니다. 그다음은 10월 23일 856.6 Kcal입니다.", "kcal"),
        ("10월 22일(812.4 Kcal)이 가장 높고 10월 23일(856.6 Kcal)이 그 뒤를 잇습니다.", "kcal"),
        ("1위: 10월 22일 812.4 Kcal / 2위: 10월 23일 856.6 Kcal", "kcal"),
        (
            "- 열량이 가장 높은 날: 2025년 10월 22일\n- 열량: 812.4 Kcal\n- 다음으로 높은 날: 10월 23일 856.6 Kcal",
            "kcal",
        ),
        # the runner-up claimed as the winner, the winner as the runner-up
        ("가장 높은 날은 10월 23일(856.6 Kcal)이고 그다음이 10월 22일(812.4 Kcal)입니다.", "day"),
        # the runner-up's rank word moved onto the winner's competitor does not hide a wrong pick
        ("The highest was 2025-10-23 with 856.6 kcal, followed by 2025-10-22 with 812.4 kcal.", "day"),
    ],
)
def test_unbound_hedged_or_swapped_second_value_misses(answer: str, lost: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer)[lost] == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "10월 20일 700.1 Kcal, 10월 21일 650.2 Kcal, 10월 22일 856.6 Kcal, 10월 23일 812.4 Kcal, 10월 24일 640 Kcal",
        "[최종 답변]\n- 10월 20일: 700.1 Kcal\n- 10월 21일: 650.2 Kcal\n- 10월 22일: 856.6 Kcal\n- 10월 23일: 812.4 Kcal",
        "10월 22일 856.6 Kcal, 그다음 10월 23일 812.4 Kcal, 10월 20일 700.1 Kcal입니다.",
    ],
)
def test_raw_dump_of_every_row_misses(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == {"day": 0.0, "kcal": 0.0}


# a name pick: the school with the most students, its runner-up beside it
NAME_FACTS = [
    {
        "id": "w",
        "matcher": "name",
        "value": "$s1.max_by(items, &n).SCHUL_NM",
        "description": "학생 수가 가장 많은 학교",
        "competitors": ["영통고등학교", "수원고등학교", "효원고등학교"],
    }
]
NAME_EXPECTED = {"w": "매탄고등학교"}


@pytest.mark.parametrize(
    "answer",
    [
        "매탄고등학교가 1,024명으로 가장 많고 영통고등학교가 987명으로 그 뒤를 잇습니다.",
        "가장 많은 학교는 매탄고등학교(1,024명)이며 두 번째는 영통고등학교(987명)입니다.",
        "The school with the most students is 매탄고등학교 (1,024), followed by 영통고등학교 (987).",
        # the claim closed by its connective, the others listed after it with their own figures
        "매탄고등학교가 1,024명으로 제일 많고, 영통고등학교 987명, 수원고등학교 900명이에요.",
    ],
)
def test_name_winner_with_runner_up_holds(answer: str) -> None:
    assert m.score_answer(NAME_FACTS, NAME_EXPECTED, answer) == {"w": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "영통고등학교가 1,024명으로 가장 많고 매탄고등학교가 987명으로 그 뒤를 잇습니다.",
        "가장 많은 학교는 매탄고등학교 또는 영통고등학교입니다.",
        "매탄고등학교 1,024명, 영통고등학교 987명, 수원고등학교 900명입니다.",
        "영통고등학교가 1,024명으로 제일 많고, 매탄고등학교 987명, 수원고등학교 900명이에요.",
        "가장 많은 학교는 매탄고등학교, 영통고등학교, 수원고등학교입니다.",
        "가장 많은 학교는 매탄고, 영통고, 수원고입니다.",
    ],
)
def test_name_runner_up_attacks_miss(answer: str) -> None:
    assert m.score_answer(NAME_FACTS, NAME_EXPECTED, answer) == {"w": 0.0}
