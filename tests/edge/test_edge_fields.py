"""EDGE field matching, failure typing and plan references (no model, no pipeline)."""

from __future__ import annotations

from edge_synth.fields import concept, field_format, match_fields, norm, param_format, value_format
from edge_synth.graph import Edge
from edge_synth.runner import classify
from kopa_inspect.apis._envelope import Parsed
from kopa_inspect.apis._spec import Operation, Param
from kopa_inspect.execution import CallResult
from kopa_inspect.plans import Ref


def _op(name, params, fields):
    return Operation(
        platform="x",
        name=name,
        path=f"/{name}",
        summary="s",
        params=params,
        handler=lambda w, a: [],
        output_fields=fields,
    )


def test_spelling_and_aliases():
    assert norm("LAWD_CD") == norm("lawdCd") == "lawdcd"
    assert norm("contentid") == norm("contentId")
    assert concept("region_cd") == concept("admCd") == "code10"
    assert param_format(Param("LAWD_CD", "d", pattern=r"\d{5}")) == "code5"
    assert param_format(Param("base_date", "d", pattern=r"\d{8}")) == "date8"
    assert field_format("x", "법정동코드 10자리") == "code10"
    assert value_format("1168010100") == "code10" and value_format("20261015") == "date8"


def test_ten_digit_code_feeds_lawd_cd_by_slice_and_the_ref_resolves():
    regions = _op("regions", [], {"region_cd": "법정동코드 (10-digit legal-dong code)"})
    trades = _op(
        "trades",
        [
            Param("LAWD_CD", "지역코드", required=True, pattern=r"\d{5}"),
            Param("DEAL_YMD", "YYYYMM", required=True, pattern=r"\d{6}"),
        ],
        {},
    )
    ms = [m for m in match_fields(regions, trades) if m.param == "LAWD_CD"]
    assert ms and ms[0].slice == (0, 5)
    e = Edge("x_regions", "region_cd", "x_trades", "LAWD_CD", ms[0].slice)
    ref = Ref.parse(e.ref("s1", 0))
    assert ref.resolve({"s1": {"items": [{"region_cd": "1168010100"}]}}) == "11680"
    date = _op("holidays", [], {"locdate": "날짜 YYYYMMDD"})
    ym = [m for m in match_fields(date, trades) if m.param == "DEAL_YMD"]
    assert ym and ym[0].slice == (0, 6)


def test_casing_alias_contentid():
    lst = _op("list", [], {"contentid": "콘텐츠ID"})
    detail = _op("detail", [Param("contentId", "콘텐츠ID", required=True)], {})
    assert [m.param for m in match_fields(lst, detail)] == ["contentId"]


def _res(ok, code, msg, items=(), gateway=False):
    return CallResult(
        "op", {}, Parsed(ok=ok, code=code, message=msg, items=list(items), gateway_error=gateway), 200
    )


def test_failures_are_typed():
    assert classify(_res(True, "00", "NORMAL_SERVICE", [{"a": 1}])).outcome == "ok"
    assert classify(_res(True, "00", "NORMAL_SERVICE")).reason == "empty"
    assert classify(_res(False, "03", "NODATA_ERROR")).outcome == "structural"
    assert classify(_res(False, "10", "INVALID_REQUEST_PARAMETER_ERROR")).reason == "invalid"
    assert (
        classify(_res(False, "22", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR", gateway=True)).reason
        == "rate_limit"
    )
    assert (
        classify(_res(False, "30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR", gateway=True)).outcome
        == "environmental"
    )
    assert classify(_res(False, "HTTP", "ReadTimeout")).outcome == "environmental"


def test_llm_score_parsing():
    from edge_synth.llm import parse_score

    assert parse_score("0.85") == 0.85
    assert parse_score("Score: 1") == 1.0
    assert parse_score("I'd say 0.2 because") == 0.2
    assert parse_score("Default output from mockllm/model") is None
    assert parse_score("12") is None
