"""서울 열린데이터광장: catalog, path-style routing, envelope, paging, errors, determinism."""

from __future__ import annotations

import json
import random
import re
import urllib.parse

import pytest
import xmltodict

from kopa_inspect.apis import get_operation, operations
from kopa_inspect.apis._schema import tool_schema
from kopa_inspect.apis.seoul import PLATFORM
from kopa_inspect.backends import build_request, make_backend
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, Emulator, EmulatorConfig, routing_path
from kopa_inspect.execution import Session
from kopa_inspect.world.catalog_values import SEOUL_GU
from kopa_inspect.world.seoul_catalog import BY_SERVICE, DATASETS, LOCALDATA_KINDS

CLOCK = "2026-10-15T14:20:00+09:00"
EMU = Emulator(EmulatorConfig())
KEY_DATES = {"USE_DT": "20261001", "USE_MON": "202609", "MSRDT_DE": "20261001"}


def seoul_ops():
    return [op for op in operations().values() if op.platform == "seoul"]


def raw_call(
    op_id: str,
    args: dict,
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    fmt: str = "json",
    seed: str | None = None,
    clock: str | None = CLOCK,
):
    """Send a request the way the ASGI app receives it (decoded path, encoded '/' kept)."""
    op = get_operation(op_id)
    req = build_request(op, {"type": fmt, **args}, key, want_json=False)
    path = routing_path({"raw_path": req.path.encode()}, urllib.parse.unquote(req.path))
    return EMU.handle("GET", path, req.query, seed=seed, clock=clock)


def body(resp) -> dict:
    return json.loads(resp.body)


def test_catalog_scale_and_real_services():
    ops = seoul_ops()
    assert len(ops) >= 500
    names = {op.name for op in ops}
    for real in (
        "bikeList",
        "CardSubwayStatsNew",
        "RealtimeCityAir",
        "TbPublicWifiInfo",
        "SearchSTNBySubwayLineInfo",
        "culturalEventInfo",
        "SeoulPublicLibraryInfo",
    ):
        assert real in names
    assert BY_SERVICE["bikeList"].envelope_root == "rentBikeStatus"
    # themes x 25 자치구
    assert len(LOCALDATA_KINDS) >= 20
    assert sum(1 for d in DATASETS if d.service.startswith("LOCALDATA_")) == len(LOCALDATA_KINDS) * 25
    assert {d.gu for d in DATASETS if d.gu} == {g.name for g in SEOUL_GU}


def test_every_tool_schema_is_real_looking():
    for op in seoul_ops():
        schema = tool_schema(op)["function"]
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", schema["name"])
        props = schema["parameters"]["properties"]
        assert {"START_INDEX", "END_INDEX"} <= set(props) and "KEY" not in props and "type" not in props
        assert re.search("[가-힣]", schema["description"]) and "(" in schema["description"]
        assert op.output_fields, op.id
        assert op.path.startswith("/{KEY}/{type}/" + op.name + "/{START_INDEX}/{END_INDEX}")


def test_gu_codes_match_the_region_table():
    regions = pytest.importorskip("kopa_inspect.world.regions")
    sgg = {r.code[:5]: r.name for r in regions.sggs("11")}
    for gu in SEOUL_GU:
        assert gu.code in sgg and sgg[gu.code].endswith(gu.name), gu


def test_bikelist_json_envelope_is_the_recorded_shape():
    resp = raw_call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 5})
    assert resp.status == 200 and resp.content_type.startswith("application/json")
    doc = body(resp)
    assert list(doc) == ["rentBikeStatus"]
    inner = doc["rentBikeStatus"]
    assert list(inner) == ["list_total_count", "RESULT", "row"]
    assert inner["RESULT"] == {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다."}
    assert inner["list_total_count"] > 2000 and len(inner["row"]) == 5
    row = inner["row"][0]
    assert list(row) == [
        "rackTotCnt",
        "stationName",
        "parkingBikeTotCnt",
        "shared",
        "stationLatitude",
        "stationLongitude",
        "stationId",
    ]
    assert all(isinstance(v, str) for v in row.values())
    assert re.fullmatch(r"\d+\. .+", row["stationName"]) and re.fullmatch(r"ST-\d+", row["stationId"])
    assert 37.4 < float(row["stationLatitude"]) < 37.7 and 126.7 < float(row["stationLongitude"]) < 127.2


def test_xml_envelope_repeats_row_elements():
    resp = raw_call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 3}, fmt="xml")
    assert resp.content_type.startswith("text/xml")
    doc = xmltodict.parse(resp.body)
    assert doc["rentBikeStatus"]["RESULT"]["CODE"] == "INFO-000"
    assert len(doc["rentBikeStatus"]["row"]) == 3


def test_paging_by_start_end_covers_every_station_once():
    total = body(raw_call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 1}))["rentBikeStatus"][
        "list_total_count"
    ]
    ids: list[str] = []
    for start in range(1, total + 1, 1000):
        doc = body(raw_call("seoul_bikeList", {"START_INDEX": start, "END_INDEX": start + 999}))
        ids += [r["stationId"] for r in doc["rentBikeStatus"]["row"]]
    assert len(ids) == total == len(set(ids))
    mid = body(raw_call("seoul_bikeList", {"START_INDEX": 3, "END_INDEX": 7}))["rentBikeStatus"]["row"]
    assert [r["stationId"] for r in mid] == ids[2:7]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"START_INDEX": 5, "END_INDEX": 2}, "ERROR-334"),
        ({"START_INDEX": 1, "END_INDEX": 1001}, "ERROR-336"),
        ({"START_INDEX": "a", "END_INDEX": 2}, "ERROR-333"),
        ({"START_INDEX": 0, "END_INDEX": 2}, "ERROR-331"),
        ({"START_INDEX": 5000, "END_INDEX": 5005}, "INFO-200"),
    ],
)
def test_position_errors(args, code):
    doc = body(raw_call("seoul_bikeList", args))
    assert list(doc) == ["RESULT"] and doc["RESULT"]["CODE"] == code and doc["RESULT"]["MESSAGE"]


def test_key_and_type_errors():
    assert (
        body(raw_call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2}, key="not-a-key"))["RESULT"][
            "CODE"
        ]
        == "INFO-100"
    )
    assert (
        body(raw_call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2}, key=""))["RESULT"]["CODE"]
        == "INFO-100"
    )
    bad_type = raw_call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 2}, fmt="csv")
    assert xmltodict.parse(bad_type.body)["RESULT"]["CODE"] == "ERROR-301"


def test_required_positional_filter_and_publication_lag():
    missing = EMU.handle(
        "GET", f"/{DEFAULT_EMULATOR_KEY.replace('/', '%2F')}/json/CardSubwayStatsNew/1/5", {}
    )
    assert missing.status == 404 or json.loads(missing.body)["RESULT"]["CODE"].startswith(("ERROR-3", "INFO"))
    ok = body(raw_call("seoul_CardSubwayStatsNew", {"START_INDEX": 1, "END_INDEX": 5, "USE_DT": "20261010"}))
    rows = ok["CardSubwayStatsNew"]["row"]
    assert all(r["USE_DT"] == "20261010" for r in rows)
    # the portal publishes card data three days late: the clock's yesterday has no rows yet
    late = body(
        raw_call("seoul_CardSubwayStatsNew", {"START_INDEX": 1, "END_INDEX": 5, "USE_DT": "20261014"})
    )
    assert late["RESULT"]["CODE"] == "INFO-200"
    bad = body(
        raw_call("seoul_CardSubwayStatsNew", {"START_INDEX": 1, "END_INDEX": 5, "USE_DT": "2026-10-10"})
    )
    assert bad["RESULT"]["CODE"] == "ERROR-300"


def test_positional_filters_trailing_omitted_and_middle_empty():
    req = build_request(
        get_operation("seoul_CardSubwayStatsNew"),
        {"START_INDEX": 1, "END_INDEX": 50, "USE_DT": "20261010", "SUB_STA_NM": "강남"},
        "K",
    )
    assert req.path.endswith("/CardSubwayStatsNew/1/50/20261010//%EA%B0%95%EB%82%A8")
    doc = body(
        raw_call(
            "seoul_CardSubwayStatsNew",
            {"START_INDEX": 1, "END_INDEX": 50, "USE_DT": "20261010", "SUB_STA_NM": "강남"},
        )
    )
    rows = doc["CardSubwayStatsNew"]["row"]
    assert rows and all(r["SUB_STA_NM"] == "강남" for r in rows)
    air = body(raw_call("seoul_RealtimeCityAir", {"START_INDEX": 1, "END_INDEX": 25, "MSRSTE_NM": "종로구"}))
    assert [r["MSRSTE_NM"] for r in air["RealtimeCityAir"]["row"]] == ["종로구"]
    region = body(
        raw_call("seoul_RealtimeCityAir", {"START_INDEX": 1, "END_INDEX": 25, "MSRRGN_NM": "동남권"})
    )
    assert {r["MSRSTE_NM"] for r in region["RealtimeCityAir"]["row"]} == {
        "서초구",
        "강남구",
        "송파구",
        "강동구",
    }


def test_trailing_slash_route_as_real_clients_send_it():
    key = urllib.parse.quote(DEFAULT_EMULATOR_KEY, safe="")
    path = routing_path(
        {"raw_path": f"/{key}/json/bikeList/1/5/".encode()}, f"/{DEFAULT_EMULATOR_KEY}/json/bikeList/1/5/"
    )
    assert body(EMU.handle("GET", path, {}))["rentBikeStatus"]["RESULT"]["CODE"] == "INFO-000"


def test_determinism_and_time_variation():
    args = {"START_INDEX": 1, "END_INDEX": 50}
    a = raw_call("seoul_bikeList", args, seed="3").body
    assert a == raw_call("seoul_bikeList", args, seed="3").body
    assert a != raw_call("seoul_bikeList", args, seed="4").body
    later = body(raw_call("seoul_bikeList", args, seed="3", clock="2026-10-15T18:20:00+09:00"))[
        "rentBikeStatus"
    ]["row"]
    now = json.loads(a)["rentBikeStatus"]["row"]
    # stations stay put; parked bikes move with the hour
    assert [r["stationName"] for r in now] == [r["stationName"] for r in later]
    assert [r["parkingBikeTotCnt"] for r in now] != [r["parkingBikeTotCnt"] for r in later]


def test_every_real_and_a_sample_of_generated_datasets_answer_with_their_columns():
    rnd = random.Random(7)
    generated = [d for d in DATASETS if not d.real]
    for ds in [d for d in DATASETS if d.real] + rnd.sample(generated, 25):
        args = {"START_INDEX": 1, "END_INDEX": 3}
        args.update({f.name: KEY_DATES[f.name] for f in ds.filters if f.required})
        doc = body(raw_call(f"seoul_{ds.service}", args))
        inner = doc.get(ds.envelope_root)
        assert inner is not None, (ds.service, doc)
        assert inner["RESULT"]["CODE"] == "INFO-000"
        assert set(inner["row"][0]) == {c.name for c in ds.columns}


def test_generated_district_dataset_rows_belong_to_their_district():
    doc = body(raw_call("seoul_LOCALDATA_072404_MP", {"START_INDEX": 1, "END_INDEX": 100}))
    rows = doc["LOCALDATA_072404_MP"]["row"]
    assert all("마포구" in r["RDNWHLADDR"] and "마포구" in r["SITEWHLADDR"] for r in rows)
    open_rows = body(
        raw_call("seoul_LOCALDATA_072404_MP", {"START_INDEX": 1, "END_INDEX": 100, "TRDSTATEGBN": "01"})
    )
    assert all(
        r["TRDSTATENM"] == "영업/정상" and r["DCBYMD"] == "" for r in open_rows["LOCALDATA_072404_MP"]["row"]
    )


async def test_session_parses_seoul_responses():
    session = Session(make_backend(), clock=CLOCK)
    res = await session.call("seoul_bikeList", {"START_INDEX": 1, "END_INDEX": 10})
    assert res.ok and res.code == "INFO-000" and len(res.parsed.items) == 10 and res.parsed.total_count > 2000
    err = await session.call("seoul_bikeList", {"START_INDEX": 10, "END_INDEX": 1})
    assert not err.ok and err.code == "ERROR-334"
    nodata = await session.call(
        "seoul_CardSubwayStatsNew", {"START_INDEX": 1, "END_INDEX": 5, "USE_DT": "20991231"}
    )
    assert not nodata.ok and nodata.code == "INFO-200" and nodata.parsed.items == []
    assert PLATFORM.auth_style == "path" and PLATFORM.key_params == ("KEY",)


@pytest.mark.slow
def test_every_dataset_answers():
    """All ~750 tools: INFO-000 with exactly the declared columns (builds every table: ~10-20 s)."""
    for ds in DATASETS:
        args = {"START_INDEX": 1, "END_INDEX": 2}
        args.update({f.name: KEY_DATES[f.name] for f in ds.filters if f.required})
        doc = body(raw_call(f"seoul_{ds.service}", args))
        assert doc[ds.envelope_root]["RESULT"]["CODE"] == "INFO-000", ds.service
        assert set(doc[ds.envelope_root]["row"][0]) == {c.name for c in ds.columns}, ds.service


def test_bytes_do_not_depend_on_the_process():
    """Same seed and clock, same bytes, whatever the interpreter's hash seed (both catalogs)."""
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    script = (
        "import hashlib, sys\n"
        f"sys.path.insert(0, {here!r})\n"
        "from test_api_seoul import raw_call\n"
        "from kopa_inspect.apis import get_operation\n"
        "from kopa_inspect.backends import build_request\n"
        "from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, Emulator\n"
        "h = hashlib.sha256()\n"
        "for op, args in [('seoul_bikeList', {'START_INDEX': 1, 'END_INDEX': 40}),\n"
        "                 ('seoul_LOCALDATA_072404_GN', {'START_INDEX': 1, 'END_INDEX': 40}),\n"
        "                 ('seoul_culturalEventInfo', {'START_INDEX': 1, 'END_INDEX': 40})]:\n"
        "    h.update(raw_call(op, args).body)\n"
        "req = build_request(get_operation('assembly_nwvrqwxyaytdsfvhu'), {'pSize': 50}, DEFAULT_EMULATOR_KEY)\n"
        "h.update(Emulator().handle('GET', req.path, req.query).body)\n"
        "print(h.hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=os.path.dirname(os.path.dirname(here)),
        )
        assert out.returncode == 0, out.stderr[-2000:]
        digests.add(out.stdout.strip())
    assert len(digests) == 1 and len(next(iter(digests))) == 64


def test_daily_quota_uses_the_portal_code():
    emu = Emulator(EmulatorConfig(daily_quota=2))
    op = get_operation("seoul_bikeList")
    req = build_request(op, {"START_INDEX": 1, "END_INDEX": 1}, DEFAULT_EMULATOR_KEY)
    path = routing_path({"raw_path": req.path.encode()}, urllib.parse.unquote(req.path))
    codes = [json.loads(emu.handle("GET", path, {}, clock=CLOCK).body) for _ in range(3)]
    assert "rentBikeStatus" in codes[1] and codes[2]["RESULT"]["CODE"] == "ERROR-337"
