"""Plans: references, slices, waves, links, and clear errors for bad plans."""

import pytest

from kopa_inspect.plans import Plan, PlanError, Ref, resolve_args

OUTPUTS = {
    "s1": {"resultCode": "00", "totalCount": 2, "items": [{"region_cd": "1111000000", "nx": 60}, {"region_cd": "1168000000", "nx": 61}]},
}


def test_reference_forms_resolve():
    assert Ref.parse("$s1.items[0].nx").resolve(OUTPUTS) == 60
    assert Ref.parse("$s1.items[1].region_cd[:5]").resolve(OUTPUTS) == "11680"
    assert Ref.parse("$s1.totalCount").resolve(OUTPUTS) == 2
    assert Ref.parse({"ref": "s1", "path": "items[0].region_cd", "slice": [0, 5], "template": "{}"}).resolve(OUTPUTS) == "11110"
    assert resolve_args({"LAWD_CD": "$s1.items[0].region_cd[:5]", "DEAL_YMD": "202609"}, OUTPUTS) == {
        "LAWD_CD": "11110", "DEAL_YMD": "202609"}


def test_reference_errors_are_clear():
    with pytest.raises(PlanError, match="no output"):
        Ref.parse("$s9.items[0]").resolve(OUTPUTS)
    with pytest.raises(PlanError, match="found nothing"):
        Ref.parse("$s1.items[5].nx").resolve(OUTPUTS)


def test_plan_waves_and_links():
    plan = Plan.model_validate({"steps": [
        {"id": "s1", "tool": "a", "args": {}},
        {"id": "s2", "tool": "b", "args": {"x": "$s1.items[0].nx"}},
        {"id": "s3", "tool": "b", "args": {"x": "$s1.items[1].nx"}},
        {"id": "s4", "tool": "c", "args": {"y": "$s2.totalCount", "z": "$s3.totalCount"}},
    ]})
    assert [[s.id for s in w] for w in plan.levels()] == [["s1"], ["s2", "s3"], ["s4"]]
    assert ("s1", "s2", "x") in plan.links() and len(plan.links()) == 4


def test_bad_plans_are_rejected():
    with pytest.raises(ValueError, match="unknown step"):
        Plan.model_validate({"steps": [{"id": "s1", "tool": "a", "args": {"x": "$s0.items"}}]})
    with pytest.raises(ValueError, match="cycle"):
        Plan.model_validate({"steps": [{"id": "s1", "tool": "a", "args": {"x": "$s2.a"}},
                                       {"id": "s2", "tool": "a", "args": {"x": "$s1.a"}}]})
    with pytest.raises(ValueError, match="duplicate"):
        Plan.model_validate({"steps": [{"id": "s1", "tool": "a"}, {"id": "s1", "tool": "b"}]})
