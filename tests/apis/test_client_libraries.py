"""The real client libraries, where installed, against ``kopa serve``'s app on loopback.

ecos-reader and PublicDataReader are not dependencies of the project; these tests run where a
developer has installed them (``pip install ecos-reader publicdatareader``) and are skipped
otherwise. tests/apis/test_client_operations.py sends the same requests with httpx in every run.
Only where each client sends its requests changes: ecos-reader's ``EcosClient.BASE_URL``,
PublicDataReader's per-service URLs in its ``meta_dict``/``metaDict`` (they are built from its base
URL when the reader is made). The server's clock is the wall clock: both clients ask for windows
ending today.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from _emulator_server import ServerThread
from kopa_inspect.emulator import DEFAULT_EMULATOR_KEY, EmulatorConfig, create_app
from kopa_inspect.world import KST

PATH_KEY = "KOPAPATHKEY0123456789"
# ecos-reader's generic entry points, not curated getters.
GENERIC = {
    "get_api_key",
    "get_client",
    "get_disk_cache",
    "get_metrics_summary",
    "get_rate_limiter",
    "get_indicator",
    "get_series",
    "get_table_tree",
}


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    config = EmulatorConfig(clock="now", keys=frozenset({DEFAULT_EMULATOR_KEY, PATH_KEY}))
    with ServerThread(create_app(config)) as base:
        yield base


def test_every_ecos_reader_getter_returns_rows(served: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ecos = pytest.importorskip("ecos")
    if not hasattr(ecos, "get_base_rate"):  # the cone solver of the same import name
        pytest.skip("the installed 'ecos' is not ecos-reader")
    from ecos.client import EcosClient

    monkeypatch.setattr(EcosClient, "BASE_URL", f"{served}/api/")
    ecos.reset_client()
    ecos.set_api_key(PATH_KEY)
    ecos.disable_cache()
    getters = sorted(n for n in ecos.__all__ if n.startswith("get_") and n not in GENERIC)
    assert len(getters) >= 37
    empty = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in getters:
            if getattr(ecos, name)().empty:
                empty.append(name)
    assert empty == []
    ecos.reset_client()


def test_publicdatareader_reads_officetel_sales_and_leases(served: str) -> None:
    pdr = pytest.importorskip("PublicDataReader")
    reader = pdr.TransactionPrice(DEFAULT_EMULATOR_KEY)
    for trade in ("매매", "전월세"):
        service = "RTMSDataSvcOffiTrade" if trade == "매매" else "RTMSDataSvcOffiRent"
        reader.meta_dict["오피스텔"][trade]["url"] = f"{served}/1613000/{service}/get{service}"
    last_month = (datetime.now(KST).replace(day=1) - timedelta(days=1)).strftime("%Y%m")
    sales = reader.get_data("오피스텔", "매매", "11680", year_month=last_month)
    leases = reader.get_data("오피스텔", "전월세", "11680", year_month=last_month)
    assert len(sales) > 10 and len(leases) > 10
    assert set(sales["단지명"]) and (sales["거래금액"] > 0).all()


def test_publicdatareader_reads_bus_boardings(served: str) -> None:
    pdr = pytest.importorskip("PublicDataReader")
    pytest.importorskip("bs4")
    reader = pdr.Transportation(PATH_KEY)
    reader.metaDict["버스승하차"]["url"] = f"{served}/{PATH_KEY}/xml/CardBusStatisticsServiceNew/"
    day = (datetime.now(KST) - timedelta(days=5)).strftime("%Y%m%d")
    df = reader.read_data("버스승하차", USE_DT=day)
    assert not isinstance(df, str), df  # the reader returns its error text as a string
    assert len(df) > 50 and set(df["사용일자"]) == {day}
