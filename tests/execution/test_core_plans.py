"""Plans: references, slices, waves, links, and clear errors for bad plans."""

import pytest

from kopa_inspect.plans import Plan, PlanError, Ref, resolve_args

OUTPUTS = {
    "s1": {
        "resultCode": "00",
        "totalCount": 2,
        "items": [{"region_cd": "1111000000", "nx": 60}, {"region_cd": "1168000000", "nx": 61}],
    },
}


def test_reference_forms_resolve():
    assert Ref.parse("$s1.items[0].nx").resolve(OUTPUTS) == 60
    assert Ref.parse("$s1.items[1].region_cd[:5]").resolve(OUTPUTS) == "11680"
    assert Ref.parse("$s1.totalCount").resolve(OUTPUTS) == 2
    assert (
        Ref.parse({"ref": "s1", "path": "items[0].region_cd", "slice": [0, 5], "template": "{}"}).resolve(
            OUTPUTS
        )
        == "11110"
    )
    assert resolve_args({"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": "202609"}, OUTPUTS) == {
        "LAWD_CD": "11110",
        "DEAL_YMD": "202609",
    }


def test_reference_errors_are_clear():
    with pytest.raises(PlanError, match="no output"):
        Ref.parse("$s9.items[0]").resolve(OUTPUTS)
    with pytest.raises(PlanError, match="found nothing"):
        Ref.parse("$s1.items[5].nx").resolve(OUTPUTS)


def test_plan_waves_and_links():
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "s1", "tool": "a", "args": {}},
                {"id": "s2", "tool": "b", "args": {"x": "$s1.items[0].nx"}},
                {"id": "s3", "tool": "b", "args": {"x": "$s1.items[1].nx"}},
                {"id": "s4", "tool": "c", "args": {"y": "$s2.totalCount", "z": "$s3.totalCount"}},
            ]
        }
    )
    assert [[s.id for s in w] for w in plan.levels()] == [["s1"], ["s2", "s3"], ["s4"]]
    assert ("s1", "s2", "x") in plan.links() and len(plan.links()) == 4


def test_bad_plans_are_rejected():
    with pytest.raises(ValueError, match="unknown step"):
        Plan.model_validate({"steps": [{"id": "s1", "tool": "a", "args": {"x": "$s0.items"}}]})
    with pytest.raises(ValueError, match="cycle"):
        Plan.model_validate(
            {
                "steps": [
                    {"id": "s1", "tool": "a", "args": {"x": "$s2.a"}},
                    {"id": "s2", "tool": "a", "args": {"x": "$s1.a"}},
                ]
            }
        )
    with pytest.raises(ValueError, match="duplicate"):
        Plan.model_validate({"steps": [{"id": "s1", "tool": "a"}, {"id": "s1", "tool": "b"}]})


# --- per-step accept (BFCL-style acceptable argument values) --------------------------------------


def test_step_accept_lists_are_validated() -> None:
    ok = Plan.model_validate(
        {
            "steps": [
                {
                    "id": "s1",
                    "tool": "stanregincd_getStanReginCdList",
                    "args": {"locatadd_nm": "서울특별시 마포구"},
                },
                {
                    "id": "s2",
                    "tool": "molit_getRTMSDataSvcAptTrade",
                    "args": {"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": "202610"},
                    "accept": {"DEAL_YMD": ["2026-10"], "LAWD_CD": ["$s1.items[1].region_cd[:5]"]},
                },
            ]
        }
    )
    assert ok.steps[1].accept["DEAL_YMD"] == ["2026-10"]
    # an accept key that the step's tool does not take: a clear error naming it
    with pytest.raises(ValueError, match="accept key 'nx'.*molit_getRTMSDataSvcAptTrade"):
        Plan.model_validate(
            {
                "steps": [
                    {
                        "id": "s1",
                        "tool": "molit_getRTMSDataSvcAptTrade",
                        "args": {"LAWD_CD": "11440", "DEAL_YMD": "202610"},
                        "accept": {"nx": [60]},
                    }
                ]
            }
        )
    # a tool argument the gold step does not pass: accepting other values of it means nothing
    with pytest.raises(ValueError, match="accept key 'numOfRows'.*not an argument of step s1"):
        Plan.model_validate(
            {
                "steps": [
                    {
                        "id": "s1",
                        "tool": "molit_getRTMSDataSvcAptTrade",
                        "args": {"LAWD_CD": "11440", "DEAL_YMD": "202610"},
                        "accept": {"numOfRows": [100]},
                    }
                ]
            }
        )
    with pytest.raises(ValueError, match="unknown step 's9'"):
        Plan.model_validate(
            {"steps": [{"id": "s1", "tool": "a", "args": {"x": 1}, "accept": {"x": ["$s9.items[0].x"]}}]}
        )
    with pytest.raises(ValueError, match="list"):
        Plan.model_validate({"steps": [{"id": "s1", "tool": "a", "args": {"x": 1}, "accept": {"x": 2}}]})


def test_step_accept_resolves_like_args() -> None:
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "s1", "tool": "a", "args": {}},
                {
                    "id": "s2",
                    "tool": "b",
                    "args": {"x": "$s1.items[0].region_cd[:5]"},
                    "accept": {"x": ["$s1.items[1].region_cd[:5]", "11", "$s1.items[7].region_cd"]},
                },
            ]
        }
    )
    # a reference that finds nothing is left out (like a fact's accept entry), literals stay
    assert plan.steps[1].resolve_accept(OUTPUTS) == {"x": ["11680", "11"]}
    # accept references are no data-flow links and do not reorder the plan
    assert plan.links() == [("s1", "s2", "x")]
