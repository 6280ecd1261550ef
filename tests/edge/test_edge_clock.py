"""Each KMA operation's latest issuance, and every place EDGE fills or recognises one."""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace

import pytest

from edge_synth.clock import SCHEDULES, clock_value, clock_values, issue_values, latest_issue
from edge_synth.pool import ValuePool
from kopa_inspect.apis import get_operation
from kopa_inspect.world import parse_clock

AT_1317 = "2026-12-07T13:17:00+09:00"
AT_0020 = "2026-12-08T00:20:00+09:00"
AT_0100 = "2026-12-08T01:00:00+09:00"


@pytest.mark.parametrize(
    ("op_id", "clock", "want"),
    [
        # 초단기실황: HH00 from HH:40
        ("kma_getUltraSrtNcst", AT_1317, {"date8": "20261207", "time4": "1200"}),
        ("kma_getUltraSrtNcst", "2026-12-07T13:40:00+09:00", {"date8": "20261207", "time4": "1300"}),
        ("kma_getUltraSrtNcst", "2026-12-07T13:39:00+09:00", {"date8": "20261207", "time4": "1200"}),
        ("kma_getUltraSrtNcst", AT_0020, {"date8": "20261207", "time4": "2300"}),
        # 초단기예보: HH30 from HH:45
        ("kma_getUltraSrtFcst", AT_1317, {"date8": "20261207", "time4": "1230"}),
        ("kma_getUltraSrtFcst", "2026-12-07T13:45:00+09:00", {"date8": "20261207", "time4": "1330"}),
        ("kma_getUltraSrtFcst", AT_0020, {"date8": "20261207", "time4": "2330"}),
        # 단기예보: 02,05,...,23 h from HH:10; before 02:10 the previous day's 2300
        ("kma_getVilageFcst", AT_1317, {"date8": "20261207", "time4": "1100"}),
        ("kma_getVilageFcst", AT_0100, {"date8": "20261207", "time4": "2300"}),
        ("kma_getVilageFcst", "2026-12-08T02:09:00+09:00", {"date8": "20261207", "time4": "2300"}),
        ("kma_getVilageFcst", "2026-12-08T02:10:00+09:00", {"date8": "20261208", "time4": "0200"}),
        # 중기예보: 0600/1800 from +10 min; before 06:10 the previous day's 1800
        ("kma_mid_getMidTa", "2026-12-08T06:09:00+09:00", {"tm12": "202612071800"}),
        ("kma_mid_getMidLandFcst", "2026-12-08T06:10:00+09:00", {"tm12": "202612080600"}),
        ("kma_mid_getMidLandFcst", "2026-12-08T18:10:00+09:00", {"tm12": "202612081800"}),
    ],
)
def test_each_operation_has_its_own_latest_issuance(op_id: str, clock: str, want: dict[str, str]) -> None:
    assert issue_values(op_id, parse_clock(clock)) == want


def test_the_schedules_agree_with_the_emulator_all_day() -> None:
    """The emulator answers 03 NO_DATA for an issuance not yet served: EDGE must ask for the one
    it serves, at every minute of a day (both read the reference's schedule on their own)."""
    from kopa_inspect.apis.kma import latest_ncst_base, latest_ultra_fcst_base, latest_vilage_base
    from kopa_inspect.apis.kma_mid import latest_tmfc

    start = parse_clock("2026-12-07T00:00:00+09:00")
    for minute in range(0, 24 * 60, 1):
        now = start + timedelta(minutes=minute)
        for op_id, emulator in (
            ("kma_getUltraSrtNcst", latest_ncst_base),
            ("kma_getUltraSrtFcst", latest_ultra_fcst_base),
            ("kma_getVilageFcst", latest_vilage_base),
        ):
            got = issue_values(op_id, now)
            assert (got["date8"], got["time4"]) == emulator(now), (op_id, now)
        assert issue_values("kma_mid_getMidTa", now)["tm12"] == latest_tmfc(now), now


def test_clock_value_is_per_operation() -> None:
    cv = clock_values(AT_0020)
    assert cv["date8"] == "20261208"  # today for a date without a schedule
    assert clock_value(cv, "kma_getUltraSrtNcst", "date8") == "20261207"  # the issuance's day
    assert clock_value(cv, "kma_getUltraSrtNcst", "time4") == "2300"
    assert clock_value(cv, "kasi_getRestDeInfo", "date8") == "20261208"
    assert clock_value(cv, "kasi_getRestDeInfo", "time4") is None  # no schedule, no issue time
    assert latest_issue("kasi_getRestDeInfo", parse_clock(AT_0020)) is None
    assert set(SCHEDULES) >= {"kma_getUltraSrtNcst", "kma_getUltraSrtFcst", "kma_getVilageFcst"}


# --- argument filling ----------------------------------------------------------------------------


def _fill(clock: str, op_id: str, pool: ValuePool | None = None) -> dict:
    pool = pool or ValuePool(clock, [{"nx": 60, "ny": 127}])
    args = pool.fill(get_operation(op_id), random.Random(0))
    assert args is not None
    return args


def test_filling_gives_ncst_its_hourly_observation_not_the_3_hourly_forecast_time() -> None:
    args = _fill(AT_1317, "kma_getUltraSrtNcst")
    assert (args["base_date"], args["base_time"]) == ("20261207", "1200")
    assert args["base_time"] != "1100"  # the 단기예보 schedule's time: an hour-old observation
    assert _fill(AT_1317, "kma_getUltraSrtFcst")["base_time"] == "1230"
    assert _fill(AT_1317, "kma_getVilageFcst")["base_time"] == "1100"


def test_filling_near_midnight_asks_for_the_previous_days_issuance() -> None:
    ncst = _fill(AT_0020, "kma_getUltraSrtNcst")
    assert (ncst["base_date"], ncst["base_time"]) == ("20261207", "2300")
    vilage = _fill(AT_0100, "kma_getVilageFcst")
    assert (vilage["base_date"], vilage["base_time"]) == ("20261207", "2300")
    assert (vilage["base_date"], vilage["base_time"]) != ("20261208", "0200")  # not yet issued


def test_an_older_issuance_from_a_worked_call_or_a_record_is_not_reused() -> None:
    pool = ValuePool(AT_1317, [{"nx": 60, "ny": 127, "basetime": "1100", "basedate": "20261206"}])
    for _ in range(3):
        pool.note_worked("kma_getUltraSrtNcst", {"base_date": "20261207", "base_time": "1100"})
    for seed in range(20):
        args = pool.fill(get_operation("kma_getUltraSrtNcst"), random.Random(seed))
        assert args is not None and (args["base_date"], args["base_time"]) == ("20261207", "1200")


# --- recognising a clock value ---------------------------------------------------------------------


def test_render_value_says_only_the_operations_own_latest_issuance_is_the_latest() -> None:
    from edge_synth.query_text import render_value

    cv = clock_values(AT_1317)
    assert render_value("kma_getUltraSrtNcst", "base_time", "1200", cv) == "가장 최근 발표 시각(12시)"
    assert render_value("kma_getUltraSrtNcst", "base_time", "1100", cv) == "11시"
    assert render_value("kma_getVilageFcst", "base_time", "1100", cv) == "가장 최근 발표 시각(11시)"
    near_midnight = clock_values(AT_0020)
    said = render_value("kma_getUltraSrtNcst", "base_date", "20261207", near_midnight)
    assert said.startswith("가장 최근 발표") and not said.startswith("오늘")


def test_argument_sources_take_only_the_operations_latest_issuance_from_the_clock() -> None:
    from edge_synth.filter import argument_sources
    from kopa_inspect.plans import Plan, PlanStep

    def source(base_time: str) -> str | None:
        step = PlanStep(
            id="s1",
            tool="kma_getUltraSrtNcst",
            args={"base_date": "20261207", "base_time": base_time, "nx": 60, "ny": 127},
        )
        src = {a["arg"]: a["source"] for a in argument_sources(Plan(steps=[step]), "현재 날씨", AT_1317)}
        return src["base_time"]

    assert source("1200") == "clock"
    assert source("1100") is None


def test_the_sampler_knows_only_the_operations_latest_issuance() -> None:
    from edge_synth.sample import Sampler

    pool = ValuePool(AT_1317, [])
    me = SimpleNamespace(pool=pool)
    p = get_operation("kma_getUltraSrtNcst").param("base_time")
    assert Sampler.knowable_literal(me, "kma_getUltraSrtNcst", p, "1200")  # type: ignore[arg-type]
    assert not Sampler.knowable_literal(me, "kma_getUltraSrtNcst", p, "1100")  # type: ignore[arg-type]
    assert Sampler.person_says(me, "kma_getUltraSrtNcst", p, "1200")  # type: ignore[arg-type]
    assert not Sampler.person_says(me, "kma_getUltraSrtNcst", p, "1100")  # type: ignore[arg-type]
