"""NEIS 교육정보 개방 포털 (schoolInfo, mealServiceDietInfo, SchoolSchedule) over HTTP and a Session."""

from __future__ import annotations

import json

import httpx
import pytest
import xmltodict

from kopa_inspect.apis import get_operation
from kopa_inspect.apis._schema import auth_tool_schema, parameters_schema, tool_description
from kopa_inspect.backends import make_backend
from kopa_inspect.emulator import CLOCK_HEADER, DEFAULT_EMULATOR_KEY, SEED_HEADER, EmulatorConfig, create_app
from kopa_inspect.execution import Session

CLOCK = "2026-10-15T14:20:00+09:00"  # a Thursday in term time
INFO = "/hub/schoolInfo"
MEAL = "/hub/mealServiceDietInfo"
SCHED = "/hub/SchoolSchedule"
NOT_FOUND = {"RESULT": {"CODE": "INFO-200", "MESSAGE": "해당하는 데이터가 없습니다."}}
BAD_KEY = "ERROR-290"


@pytest.fixture
async def client():
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app()), base_url="https://open.neis.go.kr"
    ) as c:
        yield c


async def get(
    client: httpx.AsyncClient,
    path: str,
    *,
    key: str | None = DEFAULT_EMULATOR_KEY,
    seed: int = 0,
    clock: str = CLOCK,
    **params: str,
) -> httpx.Response:
    if key is not None:
        params["KEY"] = key
    return await client.get(path, params=params, headers={SEED_HEADER: str(seed), CLOCK_HEADER: clock})


async def get_json(client: httpx.AsyncClient, path: str, **params: str) -> dict:
    r = await get(client, path, Type="json", **params)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    return json.loads(r.text)


def rows_of(doc: dict, service: str) -> tuple[int, dict, list[dict]]:
    head, body = doc[service]
    total = head["head"][0]["list_total_count"]
    return total, head["head"][1]["RESULT"], body["row"]


async def school(client: httpx.AsyncClient, name: str) -> dict:
    total, _, rows = rows_of(await get_json(client, INFO, SCHUL_NM=name), "schoolInfo")
    assert total == 1, rows
    return rows[0]


async def test_school_info_json_and_xml(client: httpx.AsyncClient) -> None:
    total, result, rows = rows_of(await get_json(client, INFO, SCHUL_NM="대치"), "schoolInfo")
    assert result == {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다."}
    names = {r["SCHUL_NM"] for r in rows}
    assert total == len(rows) == 3 and "서울대치초등학교" in names and "대치중학교" in names
    assert all(r["ATPT_OFCDC_SC_CODE"] == "B10" and r["ATPT_OFCDC_SC_NM"] == "서울특별시교육청" for r in rows)
    assert all(len(r["SD_SCHUL_CODE"]) == 7 and r["ORG_TELNO"].startswith("02-") for r in rows)
    xml = xmltodict.parse((await get(client, INFO, SCHUL_NM="대치")).text)["schoolInfo"]
    assert xml["head"]["list_total_count"] == "3"
    assert xml["head"]["RESULT"] == {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다."}
    assert [r["SD_SCHUL_CODE"] for r in xml["row"]] == [r["SD_SCHUL_CODE"] for r in rows]
    jeju = rows_of(
        await get_json(client, INFO, ATPT_OFCDC_SC_CODE="T10", SCHUL_KND_SC_NM="고등학교"), "schoolInfo"
    )
    assert jeju[0] >= 2 and all(r["LCTN_SC_NM"] == "제주특별자치도" for r in jeju[2])


async def test_meal_on_a_school_day_and_none_on_weekends(client: httpx.AsyncClient) -> None:
    s = await school(client, "대치중학교")
    args = {"ATPT_OFCDC_SC_CODE": s["ATPT_OFCDC_SC_CODE"], "SD_SCHUL_CODE": s["SD_SCHUL_CODE"]}
    total, result, rows = rows_of(
        await get_json(client, MEAL, MLSV_YMD="20261015", **args), "mealServiceDietInfo"
    )
    assert result["CODE"] == "INFO-000" and total == 1
    meal = rows[0]
    assert (
        meal["MMEAL_SC_NM"] == "중식" and meal["MLSV_YMD"] == "20261015" and meal["SCHUL_NM"] == "대치중학교"
    )
    assert "<br/>" in meal["DDISH_NM"] and meal["CAL_INFO"].endswith(" Kcal")
    xml = xmltodict.parse((await get(client, MEAL, MLSV_YMD="20261015", **args)).text)["mealServiceDietInfo"]
    assert xml["row"]["DDISH_NM"] == meal["DDISH_NM"]  # one row in XML is one element
    assert await get_json(client, MEAL, MLSV_YMD="20261017", **args) == NOT_FOUND  # Saturday
    assert await get_json(client, MEAL, MLSV_YMD="20261009", **args) == NOT_FOUND  # 한글날
    assert (
        await get_json(client, MEAL, MLSV_YMD="2026-10-15", **args) == NOT_FOUND
    )  # malformed date finds nothing
    # High schools also serve dinner; a month query returns every school day of it.
    h = await school(client, "대치고등학교")
    hargs = {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": h["SD_SCHUL_CODE"]}
    total, _, rows = rows_of(
        await get_json(client, MEAL, MLSV_YMD="202609", pSize="1000", **hargs), "mealServiceDietInfo"
    )
    assert {r["MMEAL_SC_CODE"] for r in rows} == {"2", "3"} and total == len(rows) > 20
    # Menus are published a month ahead, not further.
    assert await get_json(client, MEAL, MLSV_YMD="20270115", **hargs) == NOT_FOUND


async def test_schedule_relative_to_the_clock(client: httpx.AsyncClient) -> None:
    s = await school(client, "대치중학교")
    args = {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": s["SD_SCHUL_CODE"], "pSize": "1000"}
    total, _, rows = rows_of(await get_json(client, SCHED, **args), "SchoolSchedule")
    assert total == len(rows) and {r["AY"] for r in rows} == {"2026"}
    events = {r["EVENT_NM"] for r in rows}
    assert {"입학식", "여름방학", "겨울방학", "1학기 중간고사", "토요휴업일", "추석"} <= events
    by_day = {r["AA_YMD"]: r for r in rows}
    assert by_day["20261009"]["EVENT_NM"] == "한글날" and by_day["20261009"]["SBTR_DD_SC_NM"] == "공휴일"
    xml = xmltodict.parse((await get(client, SCHED, **args)).text)["SchoolSchedule"]
    assert xml["head"]["list_total_count"] == str(total) and [r["AA_YMD"] for r in xml["row"]] == list(by_day)
    one = rows_of(await get_json(client, SCHED, AA_YMD="20261009", **args), "SchoolSchedule")
    assert one[0] == 1 and one[2][0]["EVENT_NM"] == "한글날"
    # Next school year's calendar does not exist yet at this clock.
    assert await get_json(client, SCHED, AA_YMD="20270402", **args) == NOT_FOUND


async def test_pagination_totals_agree(client: httpx.AsyncClient) -> None:
    s = await school(client, "대치중학교")
    args = {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": s["SD_SCHUL_CODE"]}
    full_total, _, full = rows_of(await get_json(client, SCHED, pSize="1000", **args), "SchoolSchedule")
    pages, seen = (full_total + 49) // 50, []
    for i in range(1, pages + 1):
        total, _, rows = rows_of(
            await get_json(client, SCHED, pIndex=str(i), pSize="50", **args), "SchoolSchedule"
        )
        assert total == full_total
        seen += rows
    assert seen == full
    assert await get_json(client, SCHED, pIndex=str(pages + 1), pSize="50", **args) == NOT_FOUND
    default_total, _, default_rows = rows_of(await get_json(client, SCHED, **args), "SchoolSchedule")
    assert default_total == full_total and len(default_rows) == min(100, full_total)  # pSize defaults to 100


@pytest.mark.parametrize(
    ("params", "code", "message"),
    [
        (
            {"key": None},
            BAD_KEY,
            "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
        ),
        (
            {"key": "not-a-key"},
            BAD_KEY,
            "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
        ),
        ({"SD_SCHUL_CODE": "7010049"}, "ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
        (
            {"pIndex": "x"},
            "ERROR-333",
            "요청위치 값의 타입이 유효하지 않습니다.요청위치 값은 정수를 입력하세요.",
        ),
        ({"pSize": "1001"}, "ERROR-336", "데이터요청은 한번에 최대 1,000건을 넘을 수 없습니다."),
        (
            {"ATPT_OFCDC_SC_CODE": "C10", "SD_SCHUL_CODE": "7010049"},
            "INFO-200",
            "해당하는 데이터가 없습니다.",
        ),
    ],
)
async def test_documented_failures(client: httpx.AsyncClient, params: dict, code: str, message: str) -> None:
    base = {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010049", "MLSV_YMD": "20261015"}
    if "SD_SCHUL_CODE" in params and "ATPT_OFCDC_SC_CODE" not in params:
        base.pop("ATPT_OFCDC_SC_CODE")
    merged = {**base, **params}
    key = merged.pop("key", DEFAULT_EMULATOR_KEY)
    for fmt in ("json", "xml"):
        r = await get(client, MEAL, key=key, Type=fmt, **merged)
        doc = json.loads(r.text) if fmt == "json" else xmltodict.parse(r.text)
        assert doc == {"RESULT": {"CODE": code, "MESSAGE": message}}, (fmt, r.text)


async def test_determinism_and_seed(client: httpx.AsyncClient) -> None:
    args = {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010049", "MLSV_YMD": "202610", "Type": "json"}
    a = (await get(client, MEAL, **args)).content
    assert a == (await get(client, MEAL, **args)).content
    assert a != (await get(client, MEAL, seed=7, **args)).content  # menus depend on the seed ...
    info = {"SCHUL_NM": "대치", "Type": "json"}
    assert (await get(client, INFO, **info)).content == (
        await get(client, INFO, seed=7, **info)
    ).content  # schools do not


async def test_education_key_trap_through_a_session() -> None:
    backend = make_backend()
    session = Session(backend, clock=CLOCK)
    op = get_operation("neis_schoolInfo")
    assert "KEY" in parameters_schema(op)["required"] and "neis_get_api_key" in tool_description(op)
    assert auth_tool_schema("neis")["function"]["name"] == "neis_get_api_key"
    try:
        no_token = await session.call("neis_schoolInfo", {"SCHUL_NM": "대치"})
        assert (
            not no_token.ok
            and no_token.code == BAD_KEY
            and no_token.message.startswith("인증키가 유효하지 않습니다")
        )
        wrong = await session.call("neis_schoolInfo", {"KEY": "sess-0000", "SCHUL_NM": "대치"})
        assert not wrong.ok and wrong.code == BAD_KEY
        token = session.issue_token("neis")
        assert token != DEFAULT_EMULATOR_KEY and DEFAULT_EMULATOR_KEY not in token
        ok = await session.call("neis_schoolInfo", {"KEY": token, "SCHUL_NM": "대치"})
        assert ok.ok and ok.code == "INFO-000" and ok.parsed.total_count == 3
        code = ok.parsed.items[0]["SD_SCHUL_CODE"]
        meal = await session.call(
            "neis_mealServiceDietInfo",
            {"KEY": token, "ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": code, "MLSV_YMD": "20261015"},
        )
        assert meal.ok and meal.parsed.items[0]["MLSV_YMD"] == "20261015"
        assert DEFAULT_EMULATOR_KEY not in ok.for_model() and token not in ok.for_model()
        assert [c.ok for c in session.calls] == [False, False, True, True]
    finally:
        await backend.aclose()


async def test_quota_and_restricted_key() -> None:
    other = "restricted-key"
    app = create_app(
        EmulatorConfig(
            keys=frozenset({DEFAULT_EMULATOR_KEY, other}), daily_quota=1, denied={other: frozenset({"neis"})}
        )
    )
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://open.neis.go.kr"
    ) as c:
        assert rows_of(await get_json(c, INFO, SCHUL_NM="대치"), "schoolInfo")[1]["CODE"] == "INFO-000"
        assert await get_json(c, INFO, SCHUL_NM="대치") == {
            "RESULT": {
                "CODE": "ERROR-337",
                "MESSAGE": "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다.",
            }
        }
        assert await get_json(c, INFO, key=other) == {
            "RESULT": {"CODE": "INFO-300", "MESSAGE": "관리자에 의해 인증키 사용이 제한되었습니다."}
        }


@pytest.mark.parametrize("switch", [{"type": "json"}, {"TYPE": "JSON"}, {"Type": "Json"}])
async def test_format_switch_is_case_insensitive(client: httpx.AsyncClient, switch: dict) -> None:
    # neispy (and other live clients) send lowercase ``type=json``; the portal answers JSON.
    r = await get(client, INFO, SCHUL_NM="대치", **switch)
    assert r.headers["content-type"].startswith("application/json"), r.text[:80]
    total, result, rows = rows_of(json.loads(r.text), "schoolInfo")
    assert result["CODE"] == "INFO-000" and total == len(rows) == 3


async def test_lowercase_key_is_the_key_and_a_wrong_one_still_fails(client: httpx.AsyncClient) -> None:
    headers = {CLOCK_HEADER: CLOCK}
    ok = await client.get(
        INFO, params={"key": DEFAULT_EMULATOR_KEY, "type": "json", "SCHUL_NM": "대치"}, headers=headers
    )
    assert json.loads(ok.text)["schoolInfo"][0]["head"][1]["RESULT"]["CODE"] == "INFO-000"
    bad = await client.get(
        INFO, params={"key": "not-a-key", "type": "json", "SCHUL_NM": "대치"}, headers=headers
    )
    assert json.loads(bad.text) == {"RESULT": {"CODE": BAD_KEY, "MESSAGE": ERRORS_290}}
    # The value selects the format; an unknown one falls back to the XML default.
    xml = await get(client, INFO, SCHUL_NM="대치", type="yaml")
    assert xml.headers["content-type"].startswith("text/xml")


ERRORS_290 = "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오."
