"""Winners of one office in several elections and their parties, each bound to its year.

"2018년 홍정상(국민의힘), 2022년 박태미(더불어민주당), 올해 정하재(국민의힘)" answers who won when and how
the party changed. The year may be said as the question says it ("올해") or as a year ("2026년",
"2026"). The winners swapped between years, or a party given to the other winner, are misses."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

FACTS = [
    {"id": "w2018", "matcher": "name", "value": "$x", "description": "2018 당선자", "subject": "2018년|2018"},
    {"id": "p2018", "matcher": "name", "value": "$x", "description": "2018 정당", "subject": "2018년|2018"},
    {"id": "w2022", "matcher": "name", "value": "$x", "description": "2022 당선자", "subject": "2022년|2022"},
    {"id": "p2022", "matcher": "name", "value": "$x", "description": "2022 정당", "subject": "2022년|2022"},
    {
        "id": "w2026",
        "matcher": "name",
        "value": "$x",
        "description": "2026 당선자",
        "subject": "2026년|2026|올해",
    },
    {
        "id": "p2026",
        "matcher": "name",
        "value": "$x",
        "description": "2026 정당",
        "subject": "2026년|2026|올해",
    },
]
EXPECTED = {
    "w2018": "홍정상",
    "p2018": "국민의힘",
    "w2022": "박태미",
    "p2022": "더불어민주당",
    "w2026": "정하재",
    "p2026": "국민의힘",
}


@pytest.mark.parametrize(
    "answer",
    [
        "부산시장 당선자: 2018년 홍정상(국민의힘), 2022년 박태미(더불어민주당), 2026년 정하재(국민의힘).",
        "2018년에는 국민의힘 홍정상, 2022년에는 더불어민주당 박태미, 올해는 국민의힘 정하재 후보가 당선됐습니다.",
        "- 2018년: 홍정상 (국민의힘)\n- 2022년: 박태미 (더불어민주당)\n- 올해(2026년): 정하재 (국민의힘)",
        "| 연도 | 당선자 | 정당 |\n|---|---|---|\n| 2018 | 홍정상 | 국민의힘 |\n| 2022 | 박태미 | 더불어민주당 |\n"
        "| 2026 | 정하재 | 국민의힘 |",
    ],
)
def test_each_year_its_winner_and_party_hold(answer: str) -> None:
    assert m.score_answer(FACTS, EXPECTED, answer) == dict.fromkeys(EXPECTED, 1.0)


@pytest.mark.parametrize(
    ("answer", "lost"),
    [
        (
            "부산시장 당선자: 2018년 박태미(더불어민주당), 2022년 홍정상(국민의힘), 2026년 정하재(국민의힘).",
            {"w2018", "w2022", "p2018", "p2022"},
        ),
        (
            "부산시장 당선자: 2018년 홍정상(더불어민주당), 2022년 박태미(국민의힘), 2026년 정하재(국민의힘).",
            {"p2018", "p2022"},
        ),
    ],
)
def test_swapped_winners_or_parties_miss(answer: str, lost: set[str]) -> None:
    scores = m.score_answer(FACTS, EXPECTED, answer)
    assert {k for k, v in scores.items() if v < 1.0} == lost
