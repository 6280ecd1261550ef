"""A pick by role (the committee's chair among its members) is claimed where the role is named.

"교육위원회 위원장은 오정훈 의원입니다 … 초선은 안민준 1명" claims 오정훈 as chair; 안민준, said as
context in another clause, is no rival claim. Naming another member as chair, or two names for the
role, still fails."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {
        "id": "chair",
        "matcher": "name",
        "value": "$s1.items[?JOB_RES_NM=='위원장'].HG_NM | [0]",
        "description": "교육위원회 위원장",
    }
]
CONTEXT = {"chair": {"competitors": ["오정훈", "안민준", "권가은", "허미경", "한혜진"]}}


def _score(answer: str) -> float:
    return m.score_answer(FACTS, {"chair": "오정훈"}, answer, context=CONTEXT)["chair"]


@pytest.mark.parametrize(
    "answer",
    [
        "교육위원회 위원장은 조국혁신당 오정훈 의원입니다. 교육위 초선 위원은 4명(그중 조국혁신당은 안민준 1명)입니다.",
        "- 교육위원회 위원장: 오정훈\n- 초선 위원: 한혜진, 안민준 등 4명",
        "위원장은 오정훈 의원입니다.",
        # other members named beside the committee's name, not the role's
        "- 교육위원회 위원장: 오정훈 의원\n- 초선 위원: 교육위원회 전체 18명 중 4명 (한혜진·개혁신당, 안민준·조국혁신당)",
    ],
)
def test_the_role_named_with_the_right_member_holds(answer: str) -> None:
    assert _score(answer) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "교육위원회 위원장은 안민준 의원입니다. 오정훈 의원도 위원입니다.",
        "교육위원회 위원장은 오정훈 또는 안민준 의원입니다.",
        "- 교육위원회 위원장: 권가은\n- 위원: 오정훈",
        "- 교육위원회 위원장: 권가은 의원\n- 초선 위원: 교육위원회 전체 18명 중 4명 (오정훈·조국혁신당)",
    ],
)
def test_another_member_in_the_role_fails(answer: str) -> None:
    assert _score(answer) == 0.0
