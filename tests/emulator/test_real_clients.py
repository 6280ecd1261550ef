"""Real third-party clients (from PyPI, the ``dev`` extra) against the served emulator.

Each client runs unchanged; only where its base URL points changes:
- neispy: its base URL constant (``NeispyRequest.BASE``);
- data-go-kr-client: the module-level endpoint constant of the operation used;
- OpenDartReader: its URLs are literals inside each function, so the *transport* is pointed at
  the emulator instead (the requests adapter rewrites ``https://opendart.fss.or.kr`` to the
  loopback server, as an /etc/hosts entry plus a TLS terminator would). No client code is patched.

The server is ``kopa serve``'s app on loopback at ``clock="now"``: clients that ask for "today"
(their own wall clock) find today's data.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import requests.adapters

from _emulator_server import ServerThread
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, EmulatorConfig, create_app
from kopa_inspect.world import KST

SAMSUNG = "00126380"


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with ServerThread(create_app(EmulatorConfig(clock="now"))) as base:
        yield base


def today() -> datetime:
    return datetime.now(KST)


# --- neispy (sends lowercase type=json) ---------------------------------------------------------


async def test_neispy_reads_schools_and_calendars_and_sees_errors(
    served: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from neispy import Neispy
    from neispy.error import AuthenticationKeyInvaild, DataNotFound
    from neispy.http import NeispyRequest

    monkeypatch.setattr(NeispyRequest, "BASE", f"{served}/hub")
    async with Neispy(KEY=DEFAULT_EMULATOR_KEY) as neis:
        info = await neis.schoolInfo(SCHUL_NM="대치중학교")
        head, rows = info.schoolInfo
        school = rows.row[0]
        assert (school.SCHUL_NM, school.ATPT_OFCDC_SC_CODE, len(rows.row)) == ("대치중학교", "B10", 1)
        assert today().strftime("%Y%m%d") == school.LOAD_DTM  # the world is at today
        sched = await neis.SchoolSchedule(ATPT_OFCDC_SC_CODE="B10", SD_SCHUL_CODE=school.SD_SCHUL_CODE)
        events = sched.SchoolSchedule[1].row
        assert events and all(e.SD_SCHUL_CODE == school.SD_SCHUL_CODE for e in events)
        assert any(e.EVENT_NM == "삼일절" for e in events)
        with pytest.raises(DataNotFound):
            await neis.schoolInfo(SCHUL_NM="없는학교이름")
    async with Neispy(KEY="not-a-key") as neis:
        with pytest.raises(AuthenticationKeyInvaild):
            await neis.schoolInfo(SCHUL_NM="대치중학교")


# --- OpenDartReader (downloads and unzips corpCode.xml) ------------------------------------------


@pytest.fixture
def dart_at(served: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    real_send = requests.adapters.HTTPAdapter.send
    live = "https://opendart.fss.or.kr"

    def send(self, request, *args, **kwargs):  # noqa: ANN001, ANN202 - requests' own signature
        if request.url.startswith(live):
            request.url = served + request.url[len(live) :]
        return real_send(self, request, *args, **kwargs)

    monkeypatch.setattr(requests.adapters.HTTPAdapter, "send", send)
    monkeypatch.chdir(tmp_path)  # OpenDartReader caches the corp codes under ./docs_cache
    return served


def test_opendartreader_corp_codes_company_filings_and_accounts(dart_at: str) -> None:
    import OpenDartReader

    dart = OpenDartReader(DEFAULT_EMULATOR_KEY)
    codes = dart.corp_codes
    assert list(codes.columns) == ["corp_code", "corp_name", "corp_eng_name", "stock_code", "modify_date"]
    assert len(codes) >= 20 and codes["corp_code"].str.fullmatch(r"\d{8}").all()
    assert dart.find_corp_code("삼성전자") == dart.find_corp_code("005930") == SAMSUNG
    profile = dart.company("005930")
    assert (profile["status"], profile["corp_code"], profile["stock_code"]) == ("000", SAMSUNG, "005930")
    start = (today() - timedelta(days=365)).strftime("%Y-%m-%d")
    filings = dart.list("005930", start=start, end=today().strftime("%Y-%m-%d"))
    assert len(filings) > 0 and set(filings["corp_code"]) == {SAMSUNG}
    assert filings["rcept_dt"].max() <= today().strftime("%Y%m%d")  # nothing filed after today
    accounts = dart.finstate(
        "삼성전자", today().year - 2
    )  # a year whose annual report is filed whatever today is
    assert {"매출액", "영업이익"} <= set(accounts["account_nm"]) and set(accounts["corp_code"]) == {SAMSUNG}


def test_opendartreader_sees_a_bad_key(dart_at: str) -> None:
    import OpenDartReader

    with pytest.raises(ValueError, match="010"):
        OpenDartReader("not-a-key")


# --- data-go-kr-client (KMA 단기예보) --------------------------------------------------------------


@pytest.fixture
def kma_client(served: str, monkeypatch: pytest.MonkeyPatch):
    import data_go_kr_client.http.base_http_client as base_http
    import data_go_kr_client.http.client as endpoints

    monkeypatch.setattr(
        endpoints,
        "_VILAGE_FCST_INFO_SERVICE_2_0_GET_VILAGE_FCST",
        f"{served}/1360000/VilageFcstInfoService_2.0/getVilageFcst",
    )
    monkeypatch.setattr(base_http, "MAX_RETRIES", 0)  # a configuration value, not logic: no 1-2-4 s back-off
    return endpoints.DataGoKrClient


def latest_issue() -> tuple[str, str]:
    """The latest 단기예보 issuance a client would ask for, an hour back for margin."""
    t = today() - timedelta(hours=1)
    hours = [h for h in (2, 5, 8, 11, 14, 17, 20, 23) if h <= t.hour]
    if not hours:
        t -= timedelta(days=1)
        hours = [23]
    return t.strftime("%Y%m%d"), f"{hours[-1]:02d}00"


def test_data_go_kr_client_gets_todays_forecast(kma_client) -> None:
    base_date, base_time = latest_issue()
    doc = kma_client(api_key=DEFAULT_EMULATOR_KEY).vilage_fcst_info_service_2_0_get_vilage_fcst(
        data_type="JSON", base_date=base_date, base_time=base_time, nx="60", ny="127", page_size=50
    )
    body = doc["response"]["body"]
    assert doc["response"]["header"] == {"resultCode": "00", "resultMsg": "NORMAL_SERVICE"}
    assert body["totalCount"] > 500 and len(body["items"]["item"]) == 50
    assert {(i["baseDate"], i["baseTime"], i["nx"], i["ny"]) for i in body["items"]["item"]} == {
        (base_date, base_time, 60, 127)
    }


def test_data_go_kr_client_sees_a_bad_key_and_a_missing_parameter(kma_client) -> None:
    from data_go_kr_client import APIResponseError, NoDataFoundError

    base_date, base_time = latest_issue()
    args = {"data_type": "JSON", "base_date": base_date, "base_time": base_time, "nx": "60", "ny": "127"}
    # The gateway's JSON form with HTTP 403 (not an XML body the client cannot decode).
    with pytest.raises(APIResponseError, match="403"):
        kma_client(api_key="not-a-key").vilage_fcst_info_service_2_0_get_vilage_fcst(**args)
    # KMA answers a missing mandatory parameter with 03 NO_DATA (recorded fixture; UNCERTAIN elsewhere).
    with pytest.raises(NoDataFoundError):
        kma_client(api_key=DEFAULT_EMULATOR_KEY).vilage_fcst_info_service_2_0_get_vilage_fcst(
            **{**args, "nx": None}
        )
