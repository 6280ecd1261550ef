"""The KOPA-Bench task families, one module per domain: each module's ``FAMILIES`` write tasks of
that domain only. :mod:`~kopa_inspect.task_data.domains.unanswerable` holds the questions no tool
can answer, whatever their domain. :mod:`kopa_inspect.task_data.build` reads :func:`families`.
"""

from __future__ import annotations

from kopa_inspect.task_data.authoring import Family
from kopa_inspect.task_data.domains import (
    district,
    education,
    environment,
    finance,
    health,
    law,
    politics,
    real_estate,
    tourism,
    transport,
    unanswerable,
    weather,
)

DOMAINS = (
    real_estate,
    district,
    weather,
    transport,
    tourism,
    education,
    law,
    politics,
    environment,
    health,
    finance,
)
MODULES = (*DOMAINS, unanswerable)

# Tasks are numbered kopa-001, kopa-002, ... in this order, the order the families were written,
# which interleaves the domains. Results and logs name tasks by these numbers, so the order is kept
# here rather than read off the modules; a new family goes at the end.
TASK_ORDER: tuple[Family, ...] = (
    real_estate.apt_trade_top,
    real_estate.apt_trade_count_compare,
    real_estate.apt_trade_all_pages,
    real_estate.apt_rent_jeonse,
    district.district_codes,
    weather.tomorrow_rain_window,
    weather.forecast_before_publication,
    weather.three_city_outlook,
    weather.holidays_count,
    transport.next_bus,
    transport.bus_both_directions,
    real_estate.latest_month_fallback,
    tourism.restaurants_near_sight,
    tourism.district_sights_tour,
    tourism.festivals_weekend,
    education.lunch_calorie_compare,
    education.exam_schedule,
    education.neis_without_key,
    education.monthly_meals,
    law.law_article_lookup,
    law.law_age_rules,
    law.law_vs_decree,
    law.law_ministry_compare,
    politics.party_seats,
    politics.committee_roster,
    politics.bill_vote_breakdown,
    politics.no_voter_profile,
    environment.dust_near_dong,
    environment.dust_three_dongs,
    environment.worst_station_in_sido,
    environment.weather_and_air,
    environment.station_name_recovery,
    health.clinic_near_sight,
    health.saturday_hospitals,
    health.drug_info,
    finance.company_profile_and_sales,
    finance.revenue_compare,
    finance.maker_business_status,
    finance.base_rate_trend,
    transport.subway_rush_hour,
    district.cabbage_prices,
    district.childcare_by_district,
    district.district_libraries,
    politics.seats_by_party_in_sido,
    politics.governors_compare,
    district.district_dashboard,
    real_estate.top_complex_air,
    tourism.day_trip_planner,
    education.school_day_check,
    finance.four_company_brief,
    transport.bus_trip_both_cities,
    law.law_and_bills,
    politics.election_and_assembly,
    weather.district_weather_fanout,
    environment.sido_air_worst_trend,
    real_estate.top_deal_dong_weather,
    weather.sido_weather_fanout,
    politics.election_sido_fanout,
    politics.governor_fanout,
    transport.bus_three_cities,
    tourism.festival_details,
    unanswerable.unanswerable,
)


def families() -> list[Family]:
    """Every module's families in task order. Fails when a family is listed in a module but not
    in :data:`TASK_ORDER`, or the other way round, or twice."""
    listed = [fam for module in MODULES for fam in module.FAMILIES]
    if len(set(listed)) != len(listed) or len(set(TASK_ORDER)) != len(TASK_ORDER):
        raise ValueError("a task family is listed twice")
    if set(listed) != set(TASK_ORDER):
        names = sorted(f.__name__ for f in set(listed) ^ set(TASK_ORDER))
        raise ValueError(f"families in a domain module or in TASK_ORDER only: {names}")
    return list(TASK_ORDER)
