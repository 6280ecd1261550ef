"""A row named from one page of a list the user did not narrow (issue 10): ``named_from_unnarrowed_list``.

edge-s0-0004798 of a 2,000-row default run: "단독다가구 부동산 거래 중 '온누리아파트'와 같은 시군구의 모범음식점은
모두 몇 곳인가요?". Its first call lists detached-house trades with no place and no month (the first page of
518 rows of all of Seoul); the user could only know '온누리아파트' because the sampler saw it on page 1.
The same list narrowed by the user's 시군구 and month ("서울특별시 중구(시군구코드 11140) 지난달 아파트 매매 거래 중
'대림1'…"), or returned whole, may be named. Hand-built drafts: no dataset, no emulator.
"""

from __future__ import annotations

from edge_synth.sample import Draft, Junction
from edge_synth.validity import narrowed, pick_problems
from kopa_inspect.plans import PlanStep

# the stored plan of edge-s0-0004798, literally
S1 = PlanStep(
    id="s1",
    tool="seoul_tbLnOpendataRtmsV",
    args={"START_INDEX": 1, "END_INDEX": 10, "BLDG_USG": "단독다가구"},
)
S2 = PlanStep(
    id="s2",
    tool="seoul_CrtfcUpsoInfo",
    args={"START_INDEX": 1, "END_INDEX": 100, "CGG_CODE_NM": "$s1.items[0].CGG_NM"},
)
TRADES = [
    {
        "CGG_CD": "11620",
        "CGG_NM": "관악구",
        "STDG_NM": "서원동",
        "BLDG_NM": "온누리아파트",
        "BLDG_USG": "단독다가구",
    },
    {
        "CGG_CD": "11305",
        "CGG_NM": "강북구",
        "STDG_NM": "삼양동",
        "BLDG_NM": "행복아파트",
        "BLDG_USG": "단독다가구",
    },
]
RESTAURANTS = {"totalCount": 27, "items": [{"UPSO_NM": "온누리식당", "CGG_CODE_NM": "관악구"}]}
COUNT = {
    "id": "f1",
    "description": "모범음식점 건수",
    "value": "$s2.totalCount",
    "step": "s2",
    "field": "__count__",
    "row": 0,
    "row_reason": "count",
}


def _draft(s1: PlanStep, s1_out: dict, s2: PlanStep = S2, s2_out: dict = RESTAURANTS) -> Draft:
    d = Draft(
        index=4798,
        steps=[s1, s2],
        outputs={"s1": s1_out, "s2": s2_out},
        args={"s1": dict(s1.args), "s2": dict(s2.args)},
    )
    d.junctions.append(Junction("SEM", "s1", ["s2"], "e_stored", {"item": 0}))
    return d


def test_a_row_named_from_an_unnarrowed_first_page_is_dropped():
    # before this change pick_problems found nothing and the row was kept
    d = _draft(S1, {"totalCount": 518, "items": TRADES})
    assert not narrowed(d, "s1")
    assert pick_problems(d, [COUNT]) == ["named_from_unnarrowed_list"]
    # a fact naming such a row is dropped for the same reason
    named = {"id": "f2", "step": "s1", "row": 0, "row_reason": "named", "field": "THING_AMT"}
    assert "named_from_unnarrowed_list" in pick_problems(d, [named])


def test_the_same_list_narrowed_by_the_users_place_and_month_may_be_named():
    # "서울특별시 중구(시군구코드 11140) 지난달 아파트 매매 거래 중 '대림1'…"
    s1 = PlanStep(
        id="s1", tool="molit_getRTMSDataSvcAptTrade", args={"LAWD_CD": "11140", "DEAL_YMD": "202611"}
    )
    s2 = PlanStep(id="s2", tool="seoul_CrtfcUpsoInfo", args={"CGG_CODE_NM": "중구"})
    rows = [{"aptNm": "대림1", "umdNm": "신당동"}, {"aptNm": "남산타운", "umdNm": "신당동"}]
    d = _draft(s1, {"totalCount": 40, "items": rows}, s2)
    assert narrowed(d, "s1")
    assert pick_problems(d, [COUNT]) == []


def test_a_list_returned_whole_may_be_named():
    d = _draft(S1, {"totalCount": 2, "items": TRADES})
    assert pick_problems(d, [COUNT]) == []
    # a list without a totalCount counts as complete (validity.partial)
    assert pick_problems(_draft(S1, {"items": TRADES}), [COUNT]) == []
