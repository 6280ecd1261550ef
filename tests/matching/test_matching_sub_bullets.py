"""Indented sub-bullets speak of the item named above them.

"1. 기장 먹거리축제 …" followed by "   - 주소: 부산광역시 기장군 강변로 284" gives that festival its address.
Addresses moved to another festival's sub-bullets still fail."""

from __future__ import annotations

from kopa_inspect import matching as m

FACTS = [
    {
        "id": "addr1",
        "matcher": "name",
        "value": "$d1.items[0].addr1",
        "subject": "기장 먹거리축제",
        "description": "1번째 축제 주소",
    },
    {
        "id": "addr2",
        "matcher": "name",
        "value": "$d2.items[0].addr1",
        "subject": "해운대 국화축제",
        "description": "2번째 축제 주소",
    },
]
EXPECTED = {"addr1": "부산광역시 기장군 강변로 284", "addr2": "부산광역시 해운대구 우동 310-25"}


def test_sub_bullets_bind_to_their_item() -> None:
    answer = (
        "가장 먼저 시작하는 축제입니다.\n\n1. 기장 먹거리축제 (2026.10.08~10.13)\n   - 주소: 부산광역시 기장군 강변로 284\n"
        "   - 전화: 051-425-2711\n2. 해운대 국화축제 (2026.10.12)\n   - 주소: 부산광역시 해운대구 우동 310-25"
    )
    assert m.score_answer(FACTS, EXPECTED, answer) == {"addr1": 1.0, "addr2": 1.0}


def test_addresses_swapped_between_items_fail() -> None:
    answer = (
        "1. 기장 먹거리축제 (2026.10.08~10.13)\n   - 주소: 부산광역시 해운대구 우동 310-25\n"
        "2. 해운대 국화축제 (2026.10.12)\n   - 주소: 부산광역시 기장군 강변로 284"
    )
    assert m.score_answer(FACTS, EXPECTED, answer) == {"addr1": 0.0, "addr2": 0.0}
