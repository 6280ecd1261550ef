"""The law API's own no-match message quoted in a refusal ('일치하는 법령이 없습니다', "해당 조문이 없습니다")
is the tool's message like "해당하는 데이터가 없습니다": 법령/조문/법률 name the data the law API holds.
A quote that names a law or an article (「민법 제1118조」), or a figure outside the quote, still fails."""

from __future__ import annotations

import pytest

from kopa_inspect import matching as m

Q = "민법 제1200조 내용 알려줘."
FACT = [{"id": "r", "matcher": "refusal", "value": "민법은 제1118조까지만 있어 제1200조는 존재하지 않음"}]


def _refusal(answer: str) -> float:
    return m.score_answer(FACT, {"r": FACT[0]["value"]}, answer, question=Q)["r"]


@pytest.mark.parametrize(
    "answer",
    [
        "법령정보 API로 민법 제1200조를 조회했더니 '일치하는 법령이 없습니다'라는 응답이 나왔습니다. "
        "민법에는 제1200조가 없어 내용을 알려드릴 수 없습니다.",
        '조회 결과 "해당 조문이 없습니다"라는 응답이라 민법 제1200조 내용은 알려드릴 수 없습니다.',
        "API가 「일치하는 법률이 없습니다」라고 응답해 제1200조는 확인할 수 없습니다.",
    ],
)
def test_quoted_law_message_is_the_tools(answer: str) -> None:
    assert _refusal(answer) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        # a quote naming a law or an article, not a message
        "「상속법 제1200조」는 확인할 수 없습니다.",
        "'민법 제1199조'를 대신 보시면 되지만 제1200조는 알려드릴 수 없습니다.",
        # a figure in the quoted "message"
        "API가 '일치하는 법령이 3건 없습니다'라고 응답해 알려드릴 수 없습니다.",
        # a guess outside the quote
        "'일치하는 법령이 없습니다'라는 응답이지만 아마 상속에 관한 조문일 것입니다. 알려드릴 수 없습니다.",
    ],
)
def test_law_quote_attacks_fail(answer: str) -> None:
    assert _refusal(answer) == 0.0
