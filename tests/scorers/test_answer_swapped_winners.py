"""Two winners swapped across roles (the scope_all attack over a 2,000-row EDGE run).

For an EDGE row with two "which one" name facts, the row's own answer with the two winners' strings
swapped everywhere must not earn either fact. Before, 15 of 25 such swapped answers kept a swapped fact:

- a pick of a hospital (f1) and a pick of that hospital's department (f2, ``scope`` = the hospital):
  swapped, the hospital is said as the owner of the department clause ("'이화…병원'의 진료과목 중 …" ->
  "…가장 많은 진료과목은 '이화…병원'") and the department in the owner slot ("'산부인과'의 진료과목 중");
  each name was credited though said only in the other fact's role (matching 4b: a fact whose value is
  another fact's owner does not read that fact's clause; a candidate said only in the list head of a
  claim, "X의 … 중 가장 …", is not stated);
- two CMP winners over different measures ('월요일 진료' ends later, '진료과목' more): the measure word 진료
  was found inside 진료과목, so the department claim counted for the closing-time fact too.

Facts and answers are copied literally from a saved EDGE dataset (not needed at test time).
"""

from __future__ import annotations

import pytest

from kopa_inspect.matching import score_answer
from kopa_inspect.task_data.schema import AnswerFact

# --- edge-s0-0003078: DRV pick of a hospital, then a pick of its department -------------------------
EWHA = "이화여자대학교의과대학부속목동병원"
R3078 = [
    {
        "id": "f1",
        "description": "병원 중 의사 수가 가장 많은 병원",
        "value": "$s2.max_by(items, &to_number(drTotCnt)).yadmNm",
        "resolved": EWHA,
        "matcher": "name",
        "measure": "drTotCnt",
        "competitors": [
            "365열린치과의원",
            "해맑은내과의원",
            "연세재활의학과의원",
            "새봄정형외과의원",
            "다온병원",
            "튼튼정형외과의원",
            "서울소아청소년과의원",
            "사랑이비인후과의원",
            "365열린재활의학과의원",
            "굿모닝가정의학과의원",
            "밝은한의원",
        ],
    },
    {
        "id": "f2",
        "description": "진료과목 중 전문의 수가 가장 많은 진료과목의 과목명",
        "value": "$s3.max_by(items, &to_number(dgsbjtPrSdrCnt)).dgsbjtCdNm",
        "resolved": "산부인과",
        "matcher": "name",
        "measure": "dgsbjtPrSdrCnt",
        "scope": EWHA,
        "competitors": [
            "내과",
            "신경과",
            "정신건강의학과",
            "외과",
            "정형외과",
            "신경외과",
            "흉부외과",
            "성형외과",
            "마취통증의학과",
            "소아청소년과",
            "안과",
            "이비인후과",
            "피부과",
            "비뇨의학과",
            "영상의학과",
            "재활의학과",
            "가정의학과",
            "응급의학과",
        ],
    },
]
A3078 = (
    f"'문래동 공공와이파이' 근처 병원 중 의사 수가 가장 많은 병원은 '{EWHA}'(의사 수 623)입니다. '{EWHA}'의 진료과목 중 "
    "전문의 수가 가장 많은 진료과목은 '산부인과'(전문의 수 43)입니다."
)

# --- edge-s0-0006423: two CMP winners over different measures share a candidate ---------------------
R6423 = [
    {
        "id": "f1",
        "description": "'늘봄가정의학과의원'의 월요일 진료 종료",
        "value": "$s2.items[0].trmtMonEnd",
        "resolved": "1800",
        "matcher": "time",
        "subject": "늘봄가정의학과의원",
    },
    {
        "id": "f2",
        "description": "'바른이비인후과의원'의 월요일 진료 종료",
        "value": "$s3.items[0].trmtMonEnd",
        "resolved": "1830",
        "matcher": "time",
        "subject": "바른이비인후과의원",
    },
    {
        "id": "f3",
        "description": "월요일 진료가 더 늦게 끝나는 쪽의 이름",
        "value": "$s1.items[2].yadmNm",
        "resolved": "바른이비인후과의원",
        "matcher": "name",
        "competitors": ["늘봄가정의학과의원"],
        "winner_value_ref": "$s3.items[0].trmtMonEnd",
        "winner_step": "s3",
    },
    {
        "id": "f4",
        "description": "'다온요양병원'의 진료과목 수",
        "value": "$s4.totalCount",
        "resolved": 4,
        "matcher": "number",
        "subject": "다온요양병원",
    },
    {
        "id": "f5",
        "description": "'바른이비인후과의원'의 진료과목 수",
        "value": "$s5.totalCount",
        "resolved": 2,
        "matcher": "number",
        "subject": "바른이비인후과의원",
    },
    {
        "id": "f6",
        "description": "진료과목이 더 많은 쪽의 이름",
        "value": "$s1.items[0].yadmNm",
        "resolved": "다온요양병원",
        "matcher": "name",
        "competitors": ["바른이비인후과의원"],
        "winner_value_ref": "$s4.totalCount",
        "winner_step": "s4",
    },
]
A6423 = (
    "'늘봄가정의학과의원'의 월요일 진료 종료는 18시, '바른이비인후과의원'의 월요일 진료 종료는 18시 30분입니다. 월요일 진료가 더 늦게 "
    "끝나는 쪽은 '바른이비인후과의원' 쪽입니다. '다온요양병원'의 진료과목은 4개, '바른이비인후과의원'의 진료과목은 2개입니다. "
    "'다온요양병원' 쪽이 더 많습니다."
)

# --- edge-s0-0007939: CMP winner, then a pick of a list "같은 시군구" as that winner --------------------
ADDR = "서울특별시 강남구 테헤란로 175"
R7939 = [
    {
        "id": "f1",
        "description": "'건국대학교병원'의 토요일 진료 종료",
        "value": "$s2.items[0].trmtSatEnd",
        "resolved": "1300",
        "matcher": "time",
        "subject": "건국대학교병원",
    },
    {
        "id": "f2",
        "description": "'삼성서울병원'의 토요일 진료 종료",
        "value": "$s3.items[0].trmtSatEnd",
        "resolved": "1400",
        "matcher": "time",
        "subject": "삼성서울병원",
    },
    {
        "id": "f3",
        "description": "토요일 진료가 더 늦게 끝나는 쪽의 이름",
        "value": "$s1.items[8].yadmNm",
        "resolved": "삼성서울병원",
        "matcher": "name",
        "competitors": ["건국대학교병원"],
        "winner_value_ref": "$s3.items[0].trmtSatEnd",
        "winner_step": "s3",
    },
    {
        "id": "f4",
        "description": "어린이집 중 현원이 가장 작은 어린이집의 주소",
        "value": "$s4.min_by(items, &to_number(CRCHCNT)).CRADDR",
        "resolved": ADDR,
        "matcher": "name",
        "measure": "CRCHCNT",
        "competitors": [
            f"서울특별시 강남구 {x}"
            for x in (
                "도산대로 288",
                "도산대로 121",
                "선릉로 76",
                "압구정로 209",
                "선릉로 61",
                "선릉로 66",
                "압구정로 287",
                "압구정로 186",
                "선릉로 187",
                "테헤란로 230",
                "선릉로 313",
                "압구정로 104",
                "압구정로 38",
                "선릉로 27",
                "도산대로 25",
                "압구정로 243",
                "압구정로 48",
                "테헤란로 131",
                "선릉로 96",
                "선릉로 201",
                "선릉로 86",
                "테헤란로 257",
                "압구정로 156",
                "도산대로 236",
                "테헤란로 193",
                "도산대로 114",
                "도산대로 137",
                "압구정로 244",
                "압구정로 264",
                "도산대로 31",
            )
        ],
    },
]
A7939 = (
    "'건국대학교병원'의 토요일 진료 종료는 13시, '삼성서울병원'의 토요일 진료 종료는 14시입니다. 토요일 진료가 더 늦게 끝나는 쪽은 "
    f"'삼성서울병원' 쪽입니다. '삼성서울병원'과 같은 시군구의 어린이집 중 현원이 가장 작은 어린이집(현원 5)의 주소는 {ADDR}입니다."
)

# --- edge-s0-0008599: CMP winner, then a pick (scope = that winner) of the same 시도's stations ----------
BUNDANG = "분당서울대학교병원"
R8599 = [
    {
        "id": "f1",
        "description": "'경희대학교병원'의 월요일 진료 종료",
        "value": "$s3.items[0].trmtMonEnd",
        "resolved": "1730",
        "matcher": "time",
        "subject": "경희대학교병원",
    },
    {
        "id": "f2",
        "description": f"'{BUNDANG}'의 월요일 진료 종료",
        "value": "$s4.items[0].trmtMonEnd",
        "resolved": "1830",
        "matcher": "time",
        "subject": BUNDANG,
    },
    {
        "id": "f3",
        "description": "월요일 진료가 더 늦게 끝나는 쪽의 이름",
        "value": "$s1.items[7].yadmNm",
        "resolved": BUNDANG,
        "matcher": "name",
        "competitors": ["경희대학교병원"],
        "winner_value_ref": "$s4.items[0].trmtMonEnd",
        "winner_step": "s4",
    },
    {
        "id": "f4",
        "description": "실시간 대기질 중 미세먼지 농도가 가장 높은 측정소의 통합대기환경지수",
        "value": "$s2.max_by(items, &to_number(pm10Value)).khaiValue",
        "resolved": "64",
        "matcher": "number",
        "measure": "pm10Value",
        "subject": "금곡동",
    },
    {
        "id": "f5",
        "description": "실시간 대기질 중 미세먼지 농도가 가장 높은 측정소",
        "value": "$s2.max_by(items, &to_number(pm10Value)).stationName",
        "resolved": "금곡동",
        "matcher": "name",
        "measure": "pm10Value",
        "scope": BUNDANG,
        "competitors": [
            "신풍동",
            "인계동",
            "광교동",
            "단대동",
            "수내동",
            "정자동",
            "의정부동",
            "고잔동",
            "원시동",
            "철산동",
            "소하동",
            "부림동",
            "행신동",
            "주엽동",
            "식사동",
            "김량장동",
            "수지",
            "기흥",
            "중동",
            "오정동",
            "비전동",
            "안중",
            "남양읍",
            "동탄",
            "정왕동",
            "사우동",
            "운정",
            "창전동",
            "교문동",
            "신장동",
        ],
    },
]
A8599 = (
    f"'경희대학교병원'의 월요일 진료 종료는 17시 30분, '{BUNDANG}'의 월요일 진료 종료는 18시 30분입니다. 월요일 진료가 더 늦게 "
    f"끝나는 쪽은 '{BUNDANG}' 쪽입니다. '{BUNDANG}'과 같은 시도의 실시간 대기질 중 미세먼지 농도가 가장 높은 측정소는 "
    "'금곡동'(미세먼지 농도 30)이고, 통합대기환경지수는 64입니다."
)

ROWS = {  # row id: (facts, own answer, the two swapped name facts)
    "edge-s0-0003078": (R3078, A3078, ("f1", "f2")),
    "edge-s0-0006423": (R6423, A6423, ("f3", "f6")),
    "edge-s0-0007939": (R7939, A7939, ("f3", "f4")),
    "edge-s0-0008599": (R8599, A8599, ("f3", "f5")),
}


def _score(raw: list[dict], answer: str) -> dict[str, float]:
    """As the episode grader reads EDGE facts: through the AnswerFact model."""
    facts = [
        AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields}) for f in raw
    ]
    return score_answer(facts, {f["id"]: f["resolved"] for f in raw}, answer)


def _swap(raw: list[dict], answer: str, pair: tuple[str, str]) -> str:
    a, b = (next(f["resolved"] for f in raw if f["id"] == i) for i in pair)
    return answer.replace(a, "\0").replace(b, a).replace("\0", b)


@pytest.mark.parametrize("rid", sorted(ROWS))
def test_own_answer_holds(rid: str) -> None:
    raw, answer, _ = ROWS[rid]
    assert _score(raw, answer) == {f["id"]: 1.0 for f in raw}


@pytest.mark.parametrize("rid", sorted(ROWS))
def test_two_winners_swapped_earn_neither(rid: str) -> None:
    raw, answer, pair = ROWS[rid]
    swapped = _swap(raw, answer, pair)
    assert swapped != answer
    sc = _score(raw, swapped)
    assert (sc[pair[0]], sc[pair[1]]) == (0.0, 0.0), (swapped, sc)


def test_hospital_said_only_as_the_departments_owner_is_not_its_pick() -> None:
    # the answer never says which hospital has the most doctors: only which department of EWHA has the most
    sc = _score(R3078, f"'{EWHA}'의 진료과목 중 전문의 수가 가장 많은 진료과목은 '산부인과'입니다.")
    assert sc == {"f1": 0.0, "f2": 1.0}


def test_department_said_only_as_an_owner_is_not_its_pick() -> None:
    sc = _score(
        R3078,
        f"의사 수가 가장 많은 병원은 '{EWHA}'입니다. '산부인과'의 진료과목 중 전문의 수가 가장 많은 진료과목은 내과입니다.",
    )
    assert sc == {"f1": 1.0, "f2": 0.0}


@pytest.mark.parametrize(
    "answer",
    [
        f"가장 많은 진료과목은 산부인과, 그 병원은 {EWHA}입니다.",
        f"의사가 가장 많은 병원은 {EWHA}이고, 이 병원에서 전문의가 가장 많은 진료과목은 산부인과입니다.",
        f"{EWHA}의 의사가 623명으로 가장 많고, 그 병원의 진료과목 중에서는 산부인과의 전문의가 43명으로 가장 많습니다.",
        f"[최종 답변]\n- 의사가 가장 많은 병원: {EWHA}\n- 전문의가 가장 많은 진료과목: 산부인과",
    ],
)
def test_valid_phrasings_of_the_hospital_and_its_department_hold(answer: str) -> None:
    assert _score(R3078, answer) == {"f1": 1.0, "f2": 1.0}


@pytest.mark.parametrize(
    "answer",
    [
        "월요일 진료는 바른이비인후과의원이 더 늦게 끝나고, 진료과목은 다온요양병원이 더 많습니다.",
        "월요일에 더 늦게까지 진료하는 곳은 바른이비인후과의원(18시 30분)입니다. 진료과목이 더 많은 곳은 다온요양병원(4개)입니다.",
    ],
)
def test_valid_phrasings_of_the_two_comparisons_hold(answer: str) -> None:
    sc = _score(R6423, answer)
    assert (sc["f3"], sc["f6"]) == (1.0, 1.0), sc


def test_address_said_only_in_the_list_head_is_not_the_pick() -> None:
    sc = _score(
        R7939, f"'{ADDR}'과 같은 시군구의 어린이집 중 현원이 가장 작은 어린이집의 주소는 알 수 없습니다."
    )
    assert sc["f4"] == 0.0
    assert _score(R7939, f"현원이 가장 작은 어린이집의 주소는 {ADDR}입니다.")["f4"] == 1.0


# --- edge-s0-0000297: the department's name is inside the hospital's ("정형외과" in "365정형외과의원") --------
R0297 = [
    {
        "id": "f1",
        "description": "병원 중 의사 수가 가장 많은 병원",
        "value": "$s2.max_by(items, &to_number(drTotCnt)).yadmNm",
        "resolved": "365정형외과의원",
        "matcher": "name",
        "measure": "drTotCnt",
        "competitors": ["밝은치과의원"],
    },
    {
        "id": "f2",
        "description": "진료과목 중 전문의 수가 가장 많은 진료과목의 과목명",
        "value": "$s3.max_by(items, &to_number(dgsbjtPrSdrCnt)).dgsbjtCdNm",
        "resolved": "정형외과",
        "matcher": "name",
        "measure": "dgsbjtPrSdrCnt",
        "scope": "365정형외과의원",
        "competitors": ["내과"],
    },
]
A0297 = (
    "'동아1'과 같은 동네의 병원 중 의사 수가 가장 많은 병원은 '365정형외과의원'(의사 수 2)입니다. '365정형외과의원'의 진료과목 중 "
    "전문의 수가 가장 많은 진료과목은 '정형외과'(전문의 수 2)입니다."
)


def test_a_name_inside_another_rows_name_is_not_said() -> None:
    assert _score(R0297, A0297) == {"f1": 1.0, "f2": 1.0}
    swapped = _swap(R0297, A0297, ("f1", "f2"))
    assert _score(R0297, swapped) == {"f1": 0.0, "f2": 0.0}
    # the department said beside its hospital, in either order, still holds
    assert _score(
        R0297, "의사가 가장 많은 병원은 365정형외과의원이고, 전문의가 가장 많은 진료과목은 정형외과입니다."
    ) == {"f1": 1.0, "f2": 1.0}
    # a competitor department inside a hospital's name is not that department said
    assert (
        _score(
            R0297,
            "전문의 수가 가장 많은 진료과목은 정형외과입니다. 의사가 가장 많은 병원은 365정형외과의원입니다.",
        )["f2"]
        == 1.0
    )
