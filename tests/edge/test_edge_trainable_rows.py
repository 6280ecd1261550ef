"""EDGE rows a model can train on: compacted tool results, exact values, assistant-only loss markers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from edge_synth.export import to_dataset
from edge_synth.trainable import SHOWN_ROWS, compact_messages, compact_tool_result, step_uses
from kopa_inspect.steps.build import compact_result

HIRA = "hira_getHospBasisList"
PLANTED = 126.9915771784


def _hospitals(n: int) -> list[dict]:
    return [
        {
            "yadmNm": f"병원{i:02d}",
            "ykiho": f"KEY{i:03d}",
            "drTotCnt": 10 + (i * 7) % 23,
            "addr": f"서울특별시 어딘가 {i}",
            "telno": f"02-000-{i:04d}",
            "XPos": PLANTED + i,
            "clCdNm": "의원",
        }
        for i in range(n)
    ]


def _result(items: list[dict], total: int | None = None) -> str:
    return json.dumps(
        {
            "resultCode": "00",
            "resultMsg": "NORMAL SERVICE.",
            "totalCount": total or len(items),
            "pageNo": 1,
            "numOfRows": len(items),
            "items": items,
        },
        ensure_ascii=False,
    )


def _items(text: str) -> list[dict]:
    return json.loads(text)["items"]


# --- compaction ------------------------------------------------------------------------------------


def test_a_named_row_deep_in_the_list_is_kept_with_the_fields_the_chain_reads():
    items = _hospitals(30)
    plan = {
        "steps": [
            {"id": "s1", "tool": HIRA, "args": {}},
            {"id": "s2", "tool": "hira_getDtlInfo2_7", "args": {"ykiho": "$s1.items[12].ykiho"}},
        ]
    }
    uses = step_uses(plan, [])
    text = compact_tool_result(_result(items, 300), uses["s1"], "'병원12'의 진료 시간은?", HIRA)
    rows = _items(text)
    # The step form's compactor keeps rows by position and would hide the one the chain takes.
    assert "병원12" not in compact_result(_result(items, 300), 1200)
    assert [r["yadmNm"] for r in rows] == [f"병원{i:02d}" for i in [*range(SHOWN_ROWS), 12]]
    assert rows[-1]["ykiho"] == "KEY012"
    assert all(set(r) == {"yadmNm", "ykiho"} for r in rows), rows[0]  # unused fields go
    data = json.loads(text)
    assert data["totalCount"] == 300 and data["_shown"] == "300건 중 6건"
    assert "resultCode" not in data and "numOfRows" not in data


def test_a_largest_pick_shows_every_row_with_its_measure_and_name():
    items = _hospitals(40)
    best = max(items, key=lambda r: r["drTotCnt"])
    facts = [
        {
            "id": "f1",
            "value": "$s1.max_by(items, &to_number(drTotCnt)).telno",
            "step": "s1",
            "field": "telno",
            "row": items.index(best),
            "row_reason": "max",
            "measure": "drTotCnt",
            "row_label_field": "yadmNm",
        }
    ]
    uses = step_uses({"steps": [{"id": "s1", "tool": HIRA, "args": {}}]}, facts)
    rows = _items(
        compact_tool_result(_result(items), uses["s1"], f"의사가 가장 많은 병원은 '{best['yadmNm']}'", HIRA)
    )
    assert len(rows) == 40
    assert {k for r in rows for k in r} == {"yadmNm", "drTotCnt", "telno"}
    assert max(rows, key=lambda r: r["drTotCnt"])["telno"] == best["telno"]


def test_a_row_told_apart_by_no_name_keeps_its_fields():
    # KMA observations: the row is its category, a field no name check finds.
    obs = [
        {"baseDate": "20261207", "baseTime": "2000", "category": c, "nx": 62, "ny": 123, "obsrValue": v}
        for c, v in [("PTY", "0"), ("REH", "55"), ("RN1", "0"), ("T1H", "0.4")]
    ]
    facts = [
        {
            "id": "f1",
            "value": "$s2.items[1].obsrValue",
            "step": "s2",
            "field": "obsrValue",
            "row": 1,
            "row_reason": "forecast",
        }
    ]
    uses = step_uses({"steps": [{"id": "s2", "tool": "kma_getUltraSrtNcst", "args": {}}]}, facts)
    rows = _items(
        compact_tool_result(_result(obs), uses["s2"], "현재 습도는 55퍼센트입니다.", "kma_getUltraSrtNcst")
    )
    assert rows[1]["category"] == "REH" and rows[1]["obsrValue"] == "55"


def test_conversation_compaction_leaves_session_tokens_and_other_turns():
    token = json.dumps({"token": "sess-1234"})
    msgs = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "q"},
        {"role": "tool", "tool_call_id": "call_auth_neis", "name": "neis_get_api_key", "content": token},
        {"role": "tool", "tool_call_id": "call_s1", "name": HIRA, "content": _result(_hospitals(12))},
        {"role": "assistant", "content": "a"},
    ]
    out = compact_messages(msgs, {"steps": [{"id": "s1", "tool": HIRA, "args": {}}]}, [], "q", "a")
    assert out[2]["content"] == token and out[:2] == msgs[:2] and out[-1] == msgs[-1]
    assert len(_items(out[3]["content"])) == SHOWN_ROWS


# --- exact values ----------------------------------------------------------------------------------


def _fixture_row() -> dict:
    rows = json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "edge_row.json").read_text(encoding="utf-8")
    )
    return rows[0]


def _plant(row: dict) -> dict:
    """The row with a float no fast JSON parser reads back exactly, in a call and in a result."""
    row = json.loads(json.dumps(row))
    for m in row["messages"]:
        for tc in m.get("tool_calls") or []:
            args = tc["function"]["arguments"]
            args = json.loads(args) if isinstance(args, str) else args
            tc["function"]["arguments"] = {**args, "xPos": PLANTED, "tiny": 1e-12}
        if m["role"] == "tool" and m["tool_call_id"].startswith("call_s"):
            m["content"] = compact_tool_result(
                _result([{**h, "XPos": PLANTED} for h in _hospitals(3)]), None, "", None
            )
    return row


def test_floats_are_read_back_as_they_were_written(tmp_path):
    import datasets

    to_dataset([_plant(_fixture_row())]).save_to_disk(str(tmp_path / "ds"))
    row = datasets.load_from_disk(str(tmp_path / "ds"))[0]
    calls = [tc for m in row["messages"] for tc in m["tool_calls"]]
    assert calls
    for tc in calls:
        raw = tc["function"]["arguments"]
        args = raw if isinstance(raw, dict) else json.loads(raw)
        assert args["xPos"] == PLANTED and args["tiny"] == 1e-12, raw
        # The text a template writes is the text of the call (a dict would be re-encoded by tojson).
        assert isinstance(raw, str) and ("126.9915771784," in raw or "126.9915771784}" in raw)
    results = [m["content"] for m in row["messages"] if '"XPos"' in m["content"]]
    assert results and all("126.9915771784" in r and "126.99157717840001" not in r for r in results)
    for r in results:
        assert {it["XPos"] for it in json.loads(r)["items"]} == {PLANTED}


# --- the training template -------------------------------------------------------------------------


def _render(template: str, row: dict, mask: bool = False):
    from transformers.utils.chat_template_utils import render_jinja_template

    (text,), spans = render_jinja_template(
        [list(row["messages"])], tools=row["tools"], chat_template=template, return_assistant_tokens_mask=mask
    )
    return text, (spans[0] if spans else [])


@pytest.fixture(scope="module")
def stored_row() -> dict:
    return to_dataset([_fixture_row()])[0]


def test_training_template_renders_the_evaluation_text(stored_row):
    from trl.chat_template_utils import has_generation_markers

    from kopa_grpo.training_template import training_chat_template
    from kopa_inspect.providers.chat_templates import CHATML_TOOL_TEMPLATE

    train = training_chat_template()
    assert has_generation_markers(train) and not has_generation_markers(CHATML_TOOL_TEMPLATE)
    assert _render(train, stored_row)[0] == _render(CHATML_TOOL_TEMPLATE, stored_row)[0]


def test_generation_spans_are_the_assistant_turns_only(stored_row):
    from kopa_grpo.training_template import training_chat_template

    text, spans = _render(training_chat_template(), stored_row, mask=True)
    marked = [text[a:b] for a, b in spans]
    assistants = [m for m in stored_row["messages"] if m["role"] == "assistant"]
    assert len(marked) == len(assistants)
    for span, m in zip(marked, assistants, strict=True):
        assert span.endswith("<|im_end|>") and "<|im_start|>" not in span and "<tool_response>" not in span
        for tc in m["tool_calls"]:
            assert f'"name": "{tc["function"]["name"]}", "arguments": {tc["function"]["arguments"]}' in span
    assert marked[-1] == stored_row["answer"] + "<|im_end|>"
    assert stored_row["query"] not in "".join(marked)
