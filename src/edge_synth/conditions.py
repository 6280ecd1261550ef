"""Conditions a person has: the only source of COND junctions (issue 10).

A COND junction says "if <a fact about the row I care about> then look at A, else at B". It means
something only when the field is one a person decides on, the threshold has a reason a person
knows (미세먼지 '나쁨' above 80 ㎍/㎥, a 10억 원 apartment, a hospital with 10+ doctors), and the
two branches are what that person would choose between because of it. A random numeric field with
a rounded threshold ("접수연도가 2000 이상이면 전월세를, 아니면 매매를") is none of these, so the
sampler draws a COND only from this table: no entry, no COND.

Each entry: the producer operation and field, the threshold (the condition is ``value >= threshold``),
how the threshold is said, why, and the two branch operations (each must be a verified link
consumer of the producer; the taken one is executed, the other stated in the query).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Condition:
    producer: str
    field: str
    threshold: float
    said: str  # the threshold as a person says it, with its unit ("10억 원")
    holds_means: str  # the condition in a person's words when it holds ("10억 원 이상")
    fails_means: str
    then: tuple[str, ...]  # branch operations when value >= threshold (any one of them)
    otherwise: tuple[str, ...]  # branch operations otherwise
    why: str  # the reason, for the docs and the answer


_TRADES = ("molit_getRTMSDataSvcAptTrade", "molit_getRTMSDataSvcAptTradeDev")
_RENT = ("molit_getRTMSDataSvcAptRent",)

CONDITIONS: tuple[Condition, ...] = (
    # A hospital with ten or more doctors is a 병원급 institution with several departments: a
    # patient checks which departments it has; a small clinic: its hours, parking and the like.
    Condition(
        "hira_getHospBasisList",
        "drTotCnt",
        10,
        "10명",
        "10명 이상",
        "10명 미만",
        ("hira_getDgsbjtInfo2_7",),
        ("hira_getDtlInfo2_7",),
        "의사가 10명 이상인 큰 병원이면 어떤 진료과가 있는지, 작은 의원이면 진료 시간·주차 같은 이용 정보를 본다",
    ),
    # An apartment sold for 10억 원 or more: a buyer on a budget turns to leases in the same 구;
    # below it, to the other sales there.
    *(
        Condition(
            p,
            "dealAmount",
            100000,
            "10억 원",
            "10억 원 이상",
            "10억 원 미만",
            _RENT,
            tuple(t for t in _TRADES if t != p),
            "매매가가 10억 원 이상이면 같은 구의 전월세를, 그보다 낮으면 같은 구의 매매 거래를 더 알아본다",
        )
        for p in _TRADES
    ),
    Condition(
        "seoul_tbLnOpendataRtmsV",
        "THING_AMT",
        100000,
        "10억 원",
        "10억 원 이상",
        "10억 원 미만",
        _RENT,
        ("molit_getRTMSDataSvcAptTrade",),
        "거래금액이 10억 원 이상이면 같은 구의 전월세를, 그보다 낮으면 같은 구의 아파트 매매 거래를 알아본다",
    ),
)


def conditions_for(producer: str) -> list[Condition]:
    return [c for c in CONDITIONS if c.producer == producer]


def lookup(producer: str, field: str, threshold: float) -> Condition | None:
    """The table entry a COND junction came from (None: it came from nowhere)."""
    return next(
        (c for c in CONDITIONS if (c.producer, c.field, c.threshold) == (producer, field, float(threshold))),
        None,
    )
