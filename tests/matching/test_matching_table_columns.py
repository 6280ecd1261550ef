"""A table answer read by column: a fact about a row's subject reads the cell under the header that
names its measure ("4년 전 정당" for the 2022 party), not any cell of the row.

"| 광주 | 신현원 | 국민의힘 | 더불어민주당 |" states 광주's party now (국민의힘) and four years ago
(더불어민주당): the 2022 party fact reads only the "4년 전 정당" column. Where no header is the single
best match the row is read whole, as prose is."""

from __future__ import annotations

from kopa_inspect import matching as m

CITIES = ["서울특별시", "광주광역시"]
FACTS = [
    {"id": f"name{i}", "matcher": "name", "value": "$x", "description": f"{c} 당선자", "subject": c}
    for i, c in enumerate(CITIES, 1)
]
FACTS += [
    {"id": f"party{i}", "matcher": "name", "value": "$x", "description": f"{c} 당선자 정당", "subject": c}
    for i, c in enumerate(CITIES, 1)
]
FACTS += [
    {
        "id": f"prev{i}",
        "matcher": "name",
        "value": "$x",
        "description": f"{c} 4년 전 2022년 당선자 정당",
        "subject": c,
    }
    for i, c in enumerate(CITIES, 1)
]
EXPECTED = {
    "name1": "박규선",
    "party1": "국민의힘",
    "prev1": "더불어민주당",
    "name2": "신현원",
    "party2": "국민의힘",
    "prev2": "국민의힘",
}
HEAD = "| 지역 | 올해 당선자 | 정당 | 4년 전 정당 |\n|---|---|---|---|\n"


def test_each_column_read_under_its_header_holds() -> None:
    answer = HEAD + "| 서울 | 박규선 | 국민의힘 | 더불어민주당 |\n| 광주 | 신현원 | 국민의힘 | 국민의힘 |"
    assert m.score_answer(FACTS, EXPECTED, answer) == dict.fromkeys(EXPECTED, 1.0)


def test_the_earlier_party_from_another_column_misses() -> None:
    answer = HEAD + "| 서울 | 박규선 | 국민의힘 | 더불어민주당 |\n| 광주 | 신현원 | 국민의힘 | 더불어민주당 |"
    scores = m.score_answer(FACTS, EXPECTED, answer)
    assert scores["prev2"] == 0.0 and scores["party2"] == 1.0 and scores["prev1"] == 1.0


def test_prose_beside_no_table_reads_as_before() -> None:
    answer = "서울은 박규선(국민의힘), 4년 전엔 더불어민주당. 광주는 신현원(국민의힘), 4년 전에도 국민의힘이었습니다."
    assert m.score_answer(FACTS, EXPECTED, answer) == dict.fromkeys(EXPECTED, 1.0)


# a law text's key facts span the row (article, 원문, 기준 나이): the row is read whole
LAWS = [
    {
        "id": f"text{i}",
        "matcher": "key_facts",
        "value": "$x",
        "description": f"{law} 조문 (key facts)",
        "subject": law,
        "keys": [age],
    }
    for i, (law, age) in enumerate([("민법", "19세"), ("형법", "14세")], 1)
]


def test_key_facts_read_across_the_row() -> None:
    answer = (
        "| 법령 | 조문 | 원문 | 기준 나이 |\n|---|---|---|---|\n| 민법 | 제4조(성년) | 사람은 19세로 성년에 이르게 된다. | 19세 |\n"
        "| 형법 | 제9조(형사미성년자) | 14세 되지 아니한 자의 행위는 벌하지 아니한다. | 14세 |"
    )
    texts = {
        "text1": "제4조(성년) 사람은 19세로 성년에 이르게 된다.",
        "text2": "제9조(형사미성년자) 14세 되지 아니한 자의 행위는 벌하지 아니한다.",
    }
    assert m.score_answer(LAWS, texts, answer) == {"text1": 1.0, "text2": 1.0}
