"""열린국회정보: catalog, envelope (JSON head/row list and XML), paging, filters, errors, chains."""

from __future__ import annotations

import json
import random
import re

import xmltodict

from kopa_inspect.apis import get_operation, operations
from kopa_inspect.apis._schema import tool_schema
from kopa_inspect.backends import build_request, make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, Emulator, EmulatorConfig
from kopa_inspect.execution import Session
from kopa_inspect.world.assembly_catalog import BY_SERVICE, DATASETS, opaque_id

CLOCK = "2026-10-15T14:20:00+09:00"
EMU = Emulator(EmulatorConfig())
MEMBERS = "assembly_nwvrqwxyaytdsfvhu"
BILLS = "assembly_nzmimeepazxkubdpn"
VOTES = "assembly_nojepdqqaweusdfbi"


def raw_call(
    op_id: str,
    args: dict,
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    json_: bool = True,
    seed: str | None = None,
):
    op = get_operation(op_id)
    req = build_request(op, args, key, want_json=json_)
    return EMU.handle("GET", req.path, req.query, seed=seed, clock=CLOCK)


def rows_of(resp, service: str) -> tuple[int, list[dict]]:
    doc = json.loads(resp.body)
    head, rows = doc[service]
    total = head["head"][0]["list_total_count"]
    assert head["head"][1]["RESULT"] == {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다."}
    return total, rows["row"]


def test_catalog_scale_ids_and_schemas():
    ops = [op for op in operations().values() if op.platform == "assembly"]
    assert len(ops) >= 250
    assert {"nwvrqwxyaytdsfvhu", "nzmimeepazxkubdpn"} <= {op.name for op in ops}
    for op in ops:
        assert op.path == f"/portal/openapi/{op.name}"
        assert re.fullmatch(r"[a-z]{17}|[A-Z0-9]+", op.name), op.name
        fn = tool_schema(op)["function"]
        assert fn["name"] == f"assembly_{op.name}" and re.search("[가-힣]", fn["description"])
        props = fn["parameters"]["properties"]
        assert "KEY" not in props and "Type" not in props and {"pIndex", "pSize"} <= set(props)
    assert opaque_id("법제사법위원회 위원 명단") == opaque_id("법제사법위원회 위원 명단")
    assert len({d.service for d in DATASETS}) == len(DATASETS)


def test_json_envelope_head_and_row():
    resp = raw_call(MEMBERS, {"pSize": 5})
    assert resp.status == 200 and resp.content_type.startswith("application/json")
    doc = json.loads(resp.body)
    assert list(doc) == ["nwvrqwxyaytdsfvhu"]
    total, rows = rows_of(resp, "nwvrqwxyaytdsfvhu")
    assert total == 300 and len(rows) == 5
    assert {"HG_NM", "POLY_NM", "ORIG_NM", "MONA_CD", "CMIT_NM", "REELE_GBN_NM"} <= set(rows[0])
    assert all(isinstance(v, str) for v in rows[0].values())


def test_xml_is_the_default_format():
    resp = raw_call(MEMBERS, {"pSize": 2}, json_=False)
    assert resp.content_type.startswith("text/xml")
    doc = xmltodict.parse(resp.body)["nwvrqwxyaytdsfvhu"]
    assert doc["head"]["list_total_count"] == "300" and doc["head"]["RESULT"]["CODE"] == "INFO-000"
    assert len(doc["row"]) == 2


def test_paging_with_pindex_psize():
    _, all_rows = rows_of(raw_call(MEMBERS, {"pSize": 300}), "nwvrqwxyaytdsfvhu")
    _, page3 = rows_of(raw_call(MEMBERS, {"pIndex": 3, "pSize": 10}), "nwvrqwxyaytdsfvhu")
    assert page3 == all_rows[20:30]
    _, default_page = rows_of(raw_call(MEMBERS, {}), "nwvrqwxyaytdsfvhu")
    assert len(default_page) == 100  # pSize defaults to 100


def test_errors():
    def code(resp):
        return json.loads(resp.body)["RESULT"]["CODE"]

    assert code(raw_call(MEMBERS, {"pSize": 1001})) == "ERROR-336"
    assert code(raw_call(MEMBERS, {"pIndex": "x"})) == "ERROR-333"
    assert code(raw_call(MEMBERS, {"pIndex": 99})) == "INFO-200"
    assert code(raw_call(MEMBERS, {}, key="wrong")) == "ERROR-290"
    assert code(raw_call(MEMBERS, {"HG_NM": "없는사람"})) == "INFO-200"
    assert code(raw_call(BILLS, {})) == "ERROR-300"  # AGE is required
    xml_err = raw_call(MEMBERS, {"pSize": 1001}, json_=False)
    assert xmltodict.parse(xml_err.body)["RESULT"]["CODE"] == "ERROR-336"


def test_filters_and_cross_dataset_chain():
    """member -> bills they lead -> a processed bill's roll call, all consistent."""
    _, bills = rows_of(
        raw_call(BILLS, {"AGE": "21", "PROC_RESULT": "원안가결", "pSize": 1000}), "nzmimeepazxkubdpn"
    )
    assert bills and all(b["PROC_RESULT"] == "원안가결" and b["AGE"] == "21" for b in bills)
    bill = bills[0]
    _, votes = rows_of(
        raw_call(VOTES, {"AGE": "21", "BILL_ID": bill["BILL_ID"], "pSize": 1000}), "nojepdqqaweusdfbi"
    )
    assert len(votes) == 300 and {v["BILL_NO"] for v in votes} == {bill["BILL_NO"]}
    assert bill["RST_PROPOSER"] in {v["HG_NM"] for v in votes}
    _, current = rows_of(raw_call(MEMBERS, {"pSize": 1}), "nwvrqwxyaytdsfvhu")
    name = current[0]["HG_NM"]
    _, found = rows_of(raw_call(MEMBERS, {"HG_NM": name}), "nwvrqwxyaytdsfvhu")
    assert [m["HG_NM"] for m in found] == [name]
    _, partial = rows_of(
        raw_call(BILLS, {"AGE": "21", "BILL_NAME": "도로교통법", "pSize": 1000}), "nzmimeepazxkubdpn"
    )
    assert partial and all("도로교통법" in b["BILL_NAME"] for b in partial)


def test_committee_datasets_are_restricted_to_their_committee():
    members = BY_SERVICE[opaque_id("법제사법위원회 위원 명단")]
    _, rows = rows_of(raw_call(f"assembly_{members.service}", {"pSize": 1000}), members.service)
    assert rows and all("법제사법위원회" in r["CMITS"] for r in rows)
    pending = BY_SERVICE[opaque_id("국토교통위원회 계류 의안")]
    _, bills = rows_of(raw_call(f"assembly_{pending.service}", {"pSize": 1000}), pending.service)
    assert bills and all(b["COMMITTEE"] == "국토교통위원회" and b["PROC_RESULT"] == "" for b in bills)
    seats = BY_SERVICE[opaque_id("제22대 국회 정당별 의석수 현황")]
    _, parties = rows_of(raw_call(f"assembly_{seats.service}", {}), seats.service)
    assert sum(int(p["TOTAL_CNT"]) for p in parties) == 300


def test_sample_of_datasets_answer_with_their_columns():
    rnd = random.Random(3)
    for ds in [d for d in DATASETS if d.real and d.source != "votes"] + rnd.sample(DATASETS[5:], 30):
        args = {
            "pSize": 3,
            **({"AGE": "21"} if any(f.required and f.name == "AGE" for f in ds.filters) else {}),
        }
        resp = raw_call(f"assembly_{ds.service}", args)
        doc = json.loads(resp.body)
        if "RESULT" in doc:  # a legitimately empty generated table
            assert doc["RESULT"]["CODE"] == "INFO-200", (ds.title, doc)
            continue
        _, rows = rows_of(resp, ds.service)
        assert set(rows[0]) == {c.name for c in ds.columns}, ds.title


def test_determinism_by_seed():
    a = raw_call(MEMBERS, {"pSize": 20}, seed="1").body
    assert a == raw_call(MEMBERS, {"pSize": 20}, seed="1").body
    assert a != raw_call(MEMBERS, {"pSize": 20}, seed="2").body


async def test_session_parses_assembly_responses():
    session = Session(make_backend(), clock=CLOCK)
    res = await session.call(MEMBERS, {"pSize": 7})
    assert res.ok and res.code == "INFO-000" and len(res.parsed.items) == 7 and res.parsed.total_count == 300
    err = await session.call(BILLS, {})
    assert not err.ok and err.code == "ERROR-300"
    one = await session.call(MEMBERS, {"pSize": 1})
    assert len(one.parsed.items) == 1


def test_every_dataset_answers_or_is_legitimately_empty():
    empty = []
    for ds in DATASETS:
        if ds.source == "votes":
            continue
        args = {
            "pSize": 2,
            **({"AGE": "21"} if any(f.required and f.name == "AGE" for f in ds.filters) else {}),
        }
        doc = json.loads(raw_call(f"assembly_{ds.service}", args).body)
        if "RESULT" in doc:
            assert doc["RESULT"]["CODE"] == "INFO-200", (ds.title, doc)
            empty.append(ds.title)
            continue
        assert set(doc[ds.service][1]["row"][0]) == {c.name for c in ds.columns}, ds.title
    assert len(empty) <= 5, empty


def test_daily_quota_uses_the_portal_code():
    emu = Emulator(EmulatorConfig(daily_quota=1))
    req = build_request(get_operation(MEMBERS), {"pSize": 1}, DEFAULT_EMULATOR_KEY)
    first, second = (json.loads(emu.handle("GET", req.path, req.query, clock=CLOCK).body) for _ in range(2))
    assert "nwvrqwxyaytdsfvhu" in first and second["RESULT"]["CODE"] == "INFO-300"


def test_format_switch_and_key_are_case_insensitive():
    # Public clients of the portal send ``type=json`` and ``key=``/``Key=`` as well as ``Type``/``KEY``.
    for switch in ({"type": "json"}, {"TYPE": "JSON"}):
        for key_name in ("KEY", "key", "Key"):
            query = {key_name: DEFAULT_EMULATOR_KEY, "pSize": "2", **switch}
            resp = EMU.handle(
                "GET", f"/portal/openapi/{MEMBERS.removeprefix('assembly_')}", query, clock=CLOCK
            )
            assert resp.content_type.startswith("application/json"), (switch, key_name, resp.body[:80])
            total, rows = rows_of(resp, MEMBERS.removeprefix("assembly_"))
            assert len(rows) == 2 and total >= 2
    wrong = EMU.handle(
        "GET",
        f"/portal/openapi/{MEMBERS.removeprefix('assembly_')}",
        {"key": "wrong", "type": "json"},
        clock=CLOCK,
    )
    assert json.loads(wrong.body)["RESULT"]["CODE"] == "ERROR-290"


def test_each_committee_has_one_chair_and_one_ganssa_per_negotiating_group():
    """JOB_RES_NM is the post in the member's representative committee (CMIT_NM): a committee has exactly
    one 위원장, at most one 간사 per negotiating group (교섭단체: 20+ seats), everyone else is 위원."""
    from collections import Counter

    from kopa_inspect.world import World
    from kopa_inspect.world.assembly_catalog import COMMITTEE_NAMES, AssemblyWorld

    aw = AssemblyWorld(World(clock=CLOCK))
    for age in (22, 18):
        rows = aw.members(age)
        seats = Counter(r["POLY_NM"] for r in rows)
        groups = {p for p, n in seats.items() if n >= 20 and p != "무소속"}
        by_cmit: dict[str, list[dict]] = {}
        for r in rows:
            by_cmit.setdefault(r["CMIT_NM"], []).append(r)
        assert set(by_cmit) <= set(COMMITTEE_NAMES)
        for cmit, members in by_cmit.items():
            posts = Counter(m["JOB_RES_NM"] for m in members)
            assert set(posts) <= {"위원장", "간사", "위원"}, (age, cmit, posts)
            assert posts["위원장"] == 1, (age, cmit, posts)
            ganssa = [m["POLY_NM"] for m in members if m["JOB_RES_NM"] == "간사"]
            assert len(ganssa) == len(set(ganssa)) and set(ganssa) <= groups, (age, cmit, ganssa, groups)
            # every negotiating group that sits on the committee (beside the chair) names its 간사
            present = {m["POLY_NM"] for m in members if m["JOB_RES_NM"] != "위원장"} & groups
            assert set(ganssa) == present, (age, cmit, ganssa, present)
