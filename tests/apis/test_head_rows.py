"""The head/row answer NEIS and 열린국회정보 share: what render_head_rows writes, split_head_rows
reads back, in JSON and in XML."""

from __future__ import annotations

import json

import pytest
import xmltodict

from kopa_inspect.apis._envelope import JSON_CT, XML_CT, render_head_rows, split_head_rows

OK = {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다."}
ROWS = [{"SCHUL_NM": "대치중학교", "MLSV_FGR": 812, "ONE_GRADE_EVENT_YN": True, "NOTE": None}]


def test_json_is_the_service_list_of_head_then_row() -> None:
    resp = render_head_rows("schoolInfo", 31, OK, ROWS, "json")
    assert resp.status == 200 and resp.content_type == JSON_CT
    doc = json.loads(resp.body)
    assert doc == {
        "schoolInfo": [
            {"head": [{"list_total_count": 31}, {"RESULT": OK}]},
            {"row": ROWS},
        ]
    }
    assert split_head_rows(doc["schoolInfo"]) == ({"list_total_count": 31, "RESULT": OK}, ROWS)


def test_xml_has_one_head_and_text_values() -> None:
    resp = render_head_rows("ALLNAMEMBER", 300, OK, ROWS, "xml")
    assert resp.content_type == XML_CT
    root = xmltodict.parse(resp.text)["ALLNAMEMBER"]
    head, rows = split_head_rows(root)
    assert head == {"list_total_count": "300", "RESULT": OK}
    # XML carries text: numbers as digits, booleans as true/false, None as an empty element.
    assert rows == [{"SCHUL_NM": "대치중학교", "MLSV_FGR": "812", "ONE_GRADE_EVENT_YN": "true", "NOTE": None}]


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_every_row_comes_back(fmt: str) -> None:
    many = [{"HG_NM": f"의원{i}"} for i in range(3)]
    resp = render_head_rows("ALLNAMEMBER", 3, OK, many, fmt)  # type: ignore[arg-type]
    doc = json.loads(resp.body) if fmt == "json" else xmltodict.parse(resp.text)
    assert split_head_rows(doc["ALLNAMEMBER"])[1] == many
