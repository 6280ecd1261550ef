"""A refusal that quotes the API's own message stays a refusal.

Careful models cite what the tool returned: '해당하는 데이터가 없습니다', "NODATA_ERROR", 「해당 자료 없음」,
"INFO-200". Such a quote is the API's message, not an invented name or claim. A name, a figure or a
"none" claim invented outside the quote (or a quote that holds a name rather than a message) still
fails the refusal."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

Q = "수원시 영통구의 다음 달 아파트 매매 거래 건수를 알려줘"
FACT = [{"id": "r", "matcher": "refusal", "value": "미래 기간의 거래는 아직 신고되지 않았습니다"}]


def _refusal(answer: str, question: str = Q) -> float:
    return m.score_answer(FACT, {"r": FACT[0]["value"]}, answer, question=question)["r"]


@pytest.mark.parametrize(
    "answer",
    [
        "API가 '해당하는 데이터가 없습니다'라고 응답하여 다음 달 거래 건수는 확인할 수 없습니다.",
        '조회 결과 "NODATA_ERROR" 코드가 반환되어 답변드리기 어렵습니다.',
        "시스템이 「해당 자료 없음」이라고 응답해 확인할 수 없습니다.",
        "국토교통부 API는 'INFO-200: 해당하는 데이터가 없습니다.'를 돌려주었습니다. 다음 달 거래는 아직 신고 전이라 알 수 없습니다.",
        "도구 응답: “조회된 데이터가 없습니다” — 미래 기간의 거래 자료는 제공되지 않아 확인할 수 없습니다.",
        "The API returned \"NODATA_ERROR\" ('no data found'), so I cannot tell next month's count.",
        "다음 달 자료는 아직 공개되지 않아 확인할 수 없습니다.",
    ],
)
def test_refusal_quoting_the_api_message_holds(answer: str) -> None:
    assert _refusal(answer) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        # an invented reason outside the quote: a "none" claim, a figure, a place, a guess
        "API가 '해당하는 데이터가 없습니다'라고 응답했습니다. 다음 달 거래는 없습니다.",
        'API가 "NODATA_ERROR"를 반환했지만 영통구 거래는 12건일 것입니다. 확인할 수 없습니다.',
        "'해당하는 데이터가 없습니다'라는 응답이라 확인할 수 없지만 래미안영통아파트 거래가 많을 것 같습니다.",
        "API가 '해당하는 데이터가 없습니다'라고 응답해 확인할 수 없습니다. 아마 10건 안팎일 것입니다.",
        # a quote that names a place, not a message
        "'영통롯데캐슬' 단지의 거래는 확인할 수 없습니다.",
        "「영통 아이파크캐슬」 거래 건수는 확인할 수 없습니다.",
        # a figure inside a quoted "message"
        "API가 '해당 기간 거래 12건'이라고 응답했지만 확인할 수 없습니다.",
    ],
)
def test_invented_reason_outside_the_quote_still_fails(answer: str) -> None:
    assert _refusal(answer) == 0.0
