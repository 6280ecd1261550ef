"""Tool ids and the pieces of gold plans that several domains' task families share: references
into a step's rows (a stop, a city, a law, the runners-up of a ranking), the grid-table lookup,
and a count read from the world at authoring time.
"""

from __future__ import annotations

from typing import Any

from kopa_inspect.task_data.authoring import probe, step
from kopa_inspect.world.assembly_catalog import opaque_id

# --- tool ids ("<platform>_<operationName>") ------------------------------------------------------

# district administration + real estate (stanregincd, molit)
STAN = "stanregincd_getStanReginCdList"
APT_TRADE = "molit_getRTMSDataSvcAptTrade"
APT_RENT = "molit_getRTMSDataSvcAptRent"
OFFI_TRADE = "molit_getRTMSDataSvcOffiTrade"

# weather (kma, kma_mid, kasi)
NCST = "kma_getUltraSrtNcst"
USFC = "kma_getUltraSrtFcst"
VILAGE = "kma_getVilageFcst"
GRID_LOOKUP = "kma_getGridPointList"
MID_LAND = "kma_mid_getMidLandFcst"
MID_TA = "kma_mid_getMidTa"
REST = "kasi_getRestDeInfo"
HOLI = "kasi_getHoliDeInfo"

# transport (tago)
CITY = "tago_getCtyCodeList"
STTN = "tago_getSttnNoList"
ARVL = "tago_getSttnAcctoArvlPrearngeInfoList"

# tourism (tourapi)
KW = "tourapi_searchKeyword2"
DETAIL = "tourapi_detailCommon2"
NEARBY = "tourapi_locationBasedList2"
AREA = "tourapi_areaCode2"
AREA_LIST = "tourapi_areaBasedList2"
FESTIVAL = "tourapi_searchFestival2"

# education (neis; the auth-key trap: the key is a session token the agent must fetch)
SCHOOL = "neis_schoolInfo"
MEAL = "neis_mealServiceDietInfo"
SCHED = "neis_SchoolSchedule"
NEIS_KEY = "$session.neis"

# law (lawgo; held-out platform)
LAW_SEARCH = "lawgo_lawSearch"
LAW_SERVICE = "lawgo_lawService"

# politics (assembly, nec; held-out platforms)
MEMBERS = "assembly_nwvrqwxyaytdsfvhu"
BILLS = "assembly_nzmimeepazxkubdpn"
VOTES = "assembly_nojepdqqaweusdfbi"
# the portal's 정당별 의석수 현황 of the current assembly: a catalog dataset, its id fixed by its title
SEATS = "assembly_" + opaque_id("제22대 국회 정당별 의석수 현황")
SG_CODES = "nec_getCommonSgCodeList"
WINNERS = "nec_getWinnerInfoInqire"

# environment (airkorea)
TM = "airkorea_getTMStdrCrdnt"
NEAR = "airkorea_getNearbyMsrstnList"
RLTM = "airkorea_getMsrstnAcctoRltmMesureDnsty"
SIDO_RLTM = "airkorea_getCtprvnRltmMesureDnsty"

# health (hira, mfds)
HOSP = "hira_getHospBasisList"
HOSP_DTL = "hira_getDtlInfo2_7"
HOSP_SUBJ = "hira_getDgsbjtInfo2_7"
DRUG = "mfds_getDrbEasyDrugList"

# finance (dart, nts, ecos)
CORP = "dart_corpCode"
COMPANY = "dart_company"
DISCLOSURES = "dart_list"
ACCOUNTS = "dart_fnlttSinglAcnt"
NTS = "nts_status"
ECOS_TABLES = "ecos_StatisticTableList"
ECOS_ITEMS = "ecos_StatisticItemList"
ECOS_SEARCH = "ecos_StatisticSearch"
ECOS_KEY = "ecos_KeyStatisticList"

# district administration + transport (seoul open data)
STN = "seoul_SearchSTNBySubwayLineInfo"
SUBWAY_TIME = "seoul_CardSubwayTime"
PRICES = "seoul_ListNecessariesPricesService"
CHILDCARE = "seoul_ChildCareInfo"

# --- references and steps -------------------------------------------------------------------------

# A filter over bill rows: the id of the first one decided (passed or rejected).
VOTED = "[?contains(PROC_RESULT, '가결') || PROC_RESULT=='부결'] | [0].BILL_ID"


def ranked_others(objs: str, key: str, label: str, *, highest: bool = True) -> str:
    """A ``$_`` reference to every candidate but the winner: for ``competitors``."""
    order = f"reverse(sort_by([{objs}], &{key}))" if highest else f"sort_by([{objs}], &{key})"
    return f"$_.{order}[1:].{label}"


def grid(name: str) -> tuple[int, int]:
    from kopa_inspect.world.regions import search

    hits = [r for r in search(name) if r.name == name]
    return hits[0].nx, hits[0].ny


def grid_step(sid: str, region: str) -> dict:
    """The grid-table lookup of a 시군구 ("서울특별시 마포구", "경기도 성남시 분당구"): the 구 row
    and all its 동 rows, so the model picks the row (nx/ny are never given in a query)."""
    level1, level2 = region.split(maxsplit=1)
    return step(sid, GRID_LOOKUP, {"level1": level1, "level2": level2, "numOfRows": 100})


def gxy(sid: str, umd: str = "") -> dict[str, str]:
    """nx/ny references into a grid lookup: the 구 row, or the row of one of its 동."""
    sel = f"${sid}.items[?level3=='{umd}'] | [0]"
    return {"nx": f"{sel}.nx", "ny": f"{sel}.ny"}


def cat_value(step_id: str, category: str, key: str = "fcstValue", extra: str = "") -> str:
    return f"${step_id}.items[?category=='{category}'{extra}].{key} | [0]"


def city_ref(step_id: str, cityname: str) -> str:
    return f"${step_id}.items[?cityname=='{cityname}'].citycode | [0]"


def stop_args(city_code: Any, stop: str) -> dict[str, Any]:
    """A stop search the way a person types it: the landmark's word (충남대, 시청, 해운대), which
    TAGO matches partially, so every stop named after the landmark comes back (20-36 in the world);
    the stop the query names is then picked by its full name (:func:`stop_ref`)."""
    from kopa_inspect.world.transit import landmark_word

    return {"cityCode": city_code, "nodeNm": landmark_word(stop), "numOfRows": 50}


def stop_ref(step_id: str, stop: str, k: int, field: str = "nodeid", prefix: str = "$") -> str:
    """The k-th stop (one per side of the road) named exactly ``stop`` in a stop search's rows."""
    if prefix == "$":  # a step reference: "$<step>.<jmespath>"
        return f"${step_id}.items[?nodenm=='{stop}'].{field} | [{k}]"
    return f"({step_id}.items[?nodenm=='{stop}'].{field})[{k}]"  # inside a "$_." expression


def mst(step_id: str, name: str) -> str:
    return f'${step_id}.items[?"법령명한글"==\'{name}\']."법령일련번호" | [0]'


def probe_total(c: str, op: str, args: dict) -> int:
    return int(probe(c, op, args)["totalCount"])
