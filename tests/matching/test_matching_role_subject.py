"""A fact about a role's holder ("위원장 소속 정당", subject "교육위원회 위원장") is said after the
holder's name, which another fact of the task asks for ("교육위원회 위원장" -> 오정훈).

"교육위원회 위원장: 오정훈 의원 (조국혁신당, 재선)" binds the party to the chair through his name. Another
member's party, or the party said of no one, stays a miss."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

MEMBERS = ["한혜진", "권가은", "허미경", "안민준"]
FACTS = [
    {
        "id": "chair",
        "matcher": "name",
        "value": "$x",
        "description": "교육위원회 위원장",
        "competitors": MEMBERS,
    },
    {
        "id": "party",
        "matcher": "name",
        "value": "$x",
        "description": "위원장 소속 정당",
        "subject": "교육위원회 위원장",
    },
]
EXPECTED = {"chair": "오정훈", "party": "조국혁신당"}


@pytest.mark.parametrize(
    "answer",
    [
        "- 교육위원회 위원장: **오정훈** 의원 (**조국혁신당**, 재선)\n- 조국혁신당 소속 위원: 4명 (오정훈 위원장, 권가은, 허미경, 안민준)",
        "교육위원회 위원장은 오정훈 의원이고 소속 정당은 조국혁신당입니다.",
        "교육위원회 위원장은 조국혁신당 오정훈 의원입니다.",
        "The chair of the Education Committee is 오정훈 (조국혁신당).",
    ],
)
def test_party_said_of_the_holder_holds(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == {"chair": 1.0, "party": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "교육위원회 위원장은 오정훈 의원입니다. 권가은 의원은 조국혁신당입니다.",
        "교육위원회 위원장은 오정훈 의원입니다. 위원 중에는 더불어민주당 소속이 많고 조국혁신당도 있습니다.",
        "교육위원회 위원장은 오정훈 의원(더불어민주당)입니다. 안민준 의원은 조국혁신당입니다.",
    ],
)
def test_party_of_another_member_misses(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer)["party"] == 0.0
