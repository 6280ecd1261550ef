"""World tables read from package data (kopa_inspect/world/data/*.csv, *.json) give the records the
world is built from: notes are skipped, quoted fields keep their commas and spaces, a malformed row
or record is an error naming its file, and known rows read back with their exact values."""

from __future__ import annotations

from datetime import date
from importlib.resources import files

import pytest

from kopa_inspect.world import (
    air,
    assembly_catalog,
    businesses,
    catalog_values,
    companies,
    drugs,
    hospitals,
    laws,
    regions,
    schools,
    seoul_catalog,
    tour,
    trades,
    transit,
)
from kopa_inspect.world.tables import TableError, parse_table, read_table, record_fields

DATA = files("kopa_inspect.world").joinpath("data")


def test_notes_anywhere_are_skipped_and_quoted_fields_kept():
    text = '# a note\ncode,name,stock\n# a note between rows\n1,"a, b"," "\n2,c,\n'
    assert parse_table(text) == [
        {"code": "1", "name": "a, b", "stock": " "},
        {"code": "2", "name": "c", "stock": ""},
    ]


def test_a_row_of_the_wrong_width_names_its_file_and_line():
    text = "# a note\ncode,name\n1,a\n# another note\n2,b,extra\n"
    with pytest.raises(TableError, match=r"stations\.csv line 5: 3 fields, the header has 2"):
        parse_table(text, "stations.csv")
    with pytest.raises(TableError, match="line 3: 1 fields"):
        parse_table("code,name\n1,a\n2\n", "t.csv")


def test_a_json_record_with_missing_or_extra_keys_names_its_file_and_record():
    assert record_fields("x.json", 0, {"b": 2, "a": 1}, ("a", "b")) == [1, 2]
    with pytest.raises(TableError, match=r"laws\.json record 3: expected keys \['a', 'b'\], got \['a'\]"):
        record_fields("laws.json", 3, {"a": 1}, ("a", "b"))
    with pytest.raises(TableError, match="record 0: .* got list"):
        record_fields("x.json", 0, [1, 2], ("a", "b"))


def test_every_data_file_has_a_header_and_rows_of_its_width():
    names = sorted(p.name for p in DATA.iterdir() if p.name.endswith(".csv"))
    documents = sorted(p.name for p in DATA.iterdir() if p.name.endswith(".json"))
    assert documents == ["assembly_catalog.json", "drug_texts.json", "laws.json", "seoul_catalog.json"]
    assert all(p.name.endswith((".csv", ".json")) for p in DATA.iterdir() if p.is_file())
    assert names == [
        "air_stations.csv",
        "apartment_price_levels.csv",
        "assembly_committees.csv",
        "assembly_districts.csv",
        "business_kinds.csv",
        "companies.csv",
        "drugs.csv",
        "ecos_items.csv",
        "ecos_tables.csv",
        "hira_departments.csv",
        "hira_kinds.csv",
        "hira_sggu.csv",
        "hira_sido.csv",
        "hospitals.csv",
        "laws_index.csv",
        "name_romanization.csv",
        "pharma_companies.csv",
        "public_holidays.csv",
        "regions_sgg.csv",
        "regions_sido.csv",
        "regions_umd.csv",
        "school_dishes.csv",
        "school_dongs.csv",
        "school_offices.csv",
        "seoul_bus_stops.csv",
        "seoul_gu.csv",
        "seoul_localdata_kinds.csv",
        "seoul_subway.csv",
        "tago_cities.csv",
        "tago_landmarks.csv",
        "tax_offices.csv",
        "tour_areas.csv",
        "tour_categories.csv",
        "tour_festivals.csv",
        "tour_places.csv",
    ]
    for name in names:
        rows = read_table(name)
        assert rows, name
        assert all(None not in row and None not in row.values() for row in rows), name


def test_regions_read_back():
    assert len(regions.sidos()) == 17
    assert regions.SHORT_SIDO["51"] == "강원"
    dong = regions.by_code("1111010100")
    assert dong is not None and (dong.name, dong.lat, dong.lon) == (
        "서울특별시 종로구 청운동",
        37.5866,
        126.9695,
    )
    gu = regions.by_code("52111")
    assert gu is not None and gu.name == "전북특별자치도 전주시 완산구" and gu.sgg_name == "전주시 완산구"
    sejong = regions.by_code("36110")
    assert sejong is not None and sejong.name == "세종특별자치시"
    # a 법정동 listed without a centre is placed near its 구's centre
    unplaced = regions.by_code("1111010200")
    assert unplaced is not None and abs(unplaced.lat - 37.5735) < 0.02 and unplaced.lat != 37.5735


def test_air_stations_read_back():
    by_name = air.station_by_name()
    road = by_name["동작대로 중앙차로"]
    assert (road.sido, road.sgg, road.mang, road.lat) == ("서울", "동작구", "도로변대기", 37.481)
    assert by_name["백령도"].mang == "교외대기"
    # codes follow the order of the rows: 서울's 구 stations first, then the table
    assert air.stations()[0].code == "111101" and by_name["종로"].code == f"{111100 + 10 * 25 + 1:06d}"


def test_companies_read_back():
    samsung = companies.BY_CORP_CODE["00126380"]
    assert samsung.ceo_nm == "전영현, 노태문" and samsung.adres == "경기도 수원시 영통구  삼성로 129 (매탄동)"
    assert (samsung.revenue_2023, samsung.margin, samsung.real_code, samsung.listed) == (
        258.9,
        0.03,
        True,
        True,
    )
    service = companies.BY_CORP_CODE["00258999"]
    assert service.stock_code == " " and not service.listed and not service.real_code
    assert len(companies.COMPANIES) == len(companies.BY_CORP_CODE) == 20


def test_seoul_gu_read_back():
    assert len(catalog_values.SEOUL_GU) == 25
    gangnam = catalog_values.GU_BY_NAME["강남구"]
    assert (gangnam.code, gangnam.abbr, gangnam.region) == ("11680", "GN", "동남권")
    assert gangnam.dongs[0] == "신사동" and gangnam.roads == ("테헤란로", "도산대로", "압구정로", "선릉로")


def test_laws_read_back():
    civil = laws.BY_ID["001706"]
    assert (civil.name, civil.hanja, civil.kind, civil.ministry_code) == ("민법", "民法", "법률", "1270000")
    assert civil.articles[1] == (
        "2",
        "",
        "신의성실",
        "",
        ("권리의 행사와 의무의 이행은 신의에 좇아 성실히 하여야 한다.", "권리는 남용하지 못한다."),
    )
    # index-only neighbours follow the laws with texts; their ids come from their row number
    refugee = next(law for law in laws.LAWS if law.name == "난민법")
    assert (refugee.law_id, refugee.mst, refugee.articles) == ("020101", "270011", ())
    assert laws.LAWS[-1].name == "초ㆍ중등교육법 시행규칙" and laws.LAWS[-1].kind == "교육부령"
    assert sum(1 for law in laws.LAWS if law.articles) == 16 and len(laws.LAWS) == 35


def test_seoul_catalog_read_back():
    assert seoul_catalog.SUBWAY[0] == ("1", "서울역", "150") and ("2", "강남", "222") in seoul_catalog.SUBWAY
    route_no, route_nm, stops = seoul_catalog.BUS_ROUTES[-1]
    assert (route_no, route_nm, stops[0], len(stops)) == ("7016", "7016번(상명대~은평차고지)", "상명대:01", 7)
    by_service = seoul_catalog.BY_SERVICE
    bike = by_service["bikeList"]
    assert (bike.root, bike.rows, bike.real, bike.columns[2].dynamic) == ("rentBikeStatus", 2760, True, True)
    subway_day = by_service["CardSubwayStatsNew"]
    assert subway_day.rows == len(seoul_catalog.SUBWAY) and subway_day.filters[0].key
    assert by_service["CardBusStatisticsServiceNew"].rows == len(seoul_catalog.BUS_STOPS)
    # per-district families: every 인허가 kind, then every theme, each for the 25 자치구
    restaurants = by_service["LOCALDATA_072404_GN"]
    assert (restaurants.title, restaurants.gu, restaurants.rows) == (
        "서울시 강남구 일반음식점 인허가 정보",
        "강남구",
        0,
    )
    assert restaurants.theme.startswith("인허가:일반음식점:한식|")
    assert by_service["GNLibraryInfo"].gloss == "강남구 libraries"
    assert len(seoul_catalog.GENERATED) == 25 * (len(seoul_catalog.LOCALDATA_KINDS) + 5)


def test_a_catalog_dataset_with_an_unknown_field_names_the_file_and_dataset():
    bad = {"service": "x", "title": "t", "gloss": "g", "columns": [], "rowz": 3}
    with pytest.raises(TableError, match=r"seoul_catalog\.json dataset 7 \(x\)"):
        seoul_catalog._dataset(7, bad)
    with pytest.raises(TableError, match="dataset 2"):
        seoul_catalog._dataset(2, {**bad, "rowz": None, "columns": "no such set"})


def test_schools_read_back():
    assert [o[0] for o in schools.OFFICES][:3] == ["B10", "C10", "D10"] and len(schools.OFFICES) == 17
    seoul = schools.OFFICES[0]
    assert seoul[1:5] == ("서울특별시교육청", "서울특별시", "02", "7010")
    assert seoul[5][0] == ("종로구", "서울특별시중부교육지원청", ("청운", "혜화"))
    first = schools.SCHOOLS[0]
    assert (first.code, first.name, first.eng_name) == (
        "7010007",
        "서울청운초등학교",
        "Cheongun Elementary School",
    )
    assert schools.holiday_name(date(2031, 10, 9)) == "한글날"
    assert (
        schools.holiday_name(date(2025, 10, 6)) == "추석" and schools.holiday_name(date(2025, 10, 10)) is None
    )
    assert schools.RICE[0] == "쌀밥" and schools.SOUP[0] == ("된장찌개", "5.6.9.13")
    assert [name for name, _ in schools.KIMCHI] == ["깍두기", "배추김치", "열무김치"] and len(
        schools.SIDE
    ) == 8


def test_sido_contacts_read_back():
    assert regions.SIDO_TEL_PREFIX["11"] == "02" and regions.SIDO_TEL_PREFIX["52"] == "063"
    assert regions.SIDO_ZIP_RANGE["11"] == (1, 8) and regions.SIDO_ZIP_RANGE["50"] == (63, 63)
    assert set(regions.SIDO_TEL_PREFIX) == set(regions.SIDO_ZIP_RANGE) == set(regions.SHORT_SIDO)


def test_tour_tables_read_back():
    seoul = tour.AREA_BY_CODE["1"]
    assert (seoul.name, seoul.sido_cd, seoul.sigungu[0], len(seoul.sigungu)) == ("서울", "11", "강남구", 25)
    assert "" in tour.AREA_BY_SIDO["46"].sigungu  # retired codes keep their place
    assert tour._CATS["12"] == ("A01", "A0101", "A01010500", "NA", "NA01", "NA010100")
    assert tour._CAT_SPECIAL["beach"][4:] == ("NA04", "NA040500")
    places = read_table("tour_places.csv")
    palace = places[0]
    assert (palace["title"], palace["contentid"], palace["lat"]) == ("경복궁", "126508", "37.5796")
    assert palace["overview"].endswith("근정전, 경회루, 향원정 등이 있다.")
    festivals = read_table("tour_festivals.csv")
    assert festivals[0]["title"] == "진해군항제" and (festivals[0]["start"], festivals[0]["end"]) == (
        "0325",
        "0403",
    )


def test_hira_tables_read_back():
    assert hospitals.HIRA_SIDO["36"] == ("410000", "세종시") and len(hospitals.HIRA_SIDO) == 17
    assert (
        hospitals._HIRA_BY_NAME["부산해운대구"] == "210009"
        and hospitals._HIRA_BY_NAME["화성만세구"] == "312501"
    )
    assert hospitals.DEPTS["49"] == "치과" and hospitals.CL_NAMES["01"] == "상급종합"
    gangnam = regions.by_code("11680")
    assert gangnam is not None
    hira = hospitals.hira_region(gangnam)
    assert hira is not None and (hira.sido_cd, hira.sggu_cd, hira.sggu_nm) == ("110000", "110001", "강남구")
    first = read_table("hospitals.csv")[0]
    assert (first["name"], first["cl_cd"], first["addr"]) == (
        "서울대학교병원",
        "01",
        "서울특별시 종로구 대학로 101 (연건동)",
    )


def test_drug_tables_read_back():
    rows = read_table("drugs.csv")
    assert rows[0] == {
        "item_name": "타이레놀정500밀리그람(아세트아미노펜)",
        "company": "한국존슨앤드존슨판매(유)",
        "class": "antipyretic",
        "approval_year": "1983",
    }
    assert {row["class"] for row in rows} == set(drugs._TEXT)
    efcy, _, warn, _, intrc, _ = drugs._TEXT["patch_ointment"]
    assert efcy.startswith("이 약은 근육통") and warn is None and intrc is None


def test_assembly_tables_read_back():
    assert assembly_catalog.COMMITTEES[0] == ("국회운영위원회", "house steering")
    assert assembly_catalog.COMMITTEE_NAMES[-1] == "예산결산특별위원회"
    assert assembly_catalog.DISTRICTS[0] == ("서울", "종로구") and len(assembly_catalog.DISTRICTS) == 24
    assert assembly_catalog.SURNAME_EN["김"] == "KIM" and len(assembly_catalog.SURNAME_EN) == 40
    assert len(assembly_catalog.GIVEN_EN) == 26
    members = assembly_catalog.BY_SERVICE["nwvrqwxyaytdsfvhu"]
    assert members.real and members.columns[0].name == "HG_NM" and members.filters[2].match == "contains"
    votes = assembly_catalog.BY_SERVICE["nojepdqqaweusdfbi"]
    assert [f.name for f in votes.filters if f.required] == ["AGE", "BILL_ID"]
    minutes = assembly_catalog.BY_SERVICE[assembly_catalog.opaque_id("국회운영위원회 회의록 목록")]
    assert minutes.source == "generic:minutes" and minutes.fixed == (("CMIT_NM", "국회운영위원회"),)
    assert [c.name for c in minutes.columns][:2] == ["CONF_ID", "CONF_NM"]
    with pytest.raises(TableError, match=r"assembly_catalog\.json dataset 4 \(x\)"):
        assembly_catalog._real(4, {"service": "x", "title": "t", "gloss": "g", "source": "no such source"})


def test_tago_tables_read_back():
    daejeon = transit.city(25)
    assert daejeon is not None and (daejeon.name, daejeon.prefix, daejeon.area) == ("대전광역시", "DJB", "30")
    assert transit.cities()[0].code == 12 and len(transit.cities()) == 22
    assert (
        transit._CITY_LANDMARKS["25"][:2] == ("대전역", "서대전역")
        and len(transit._CITY_LANDMARKS["25"]) == 14
    )
    assert list(transit._CITY_LANDMARKS) == ["25", "21", "39", "31100", "31010", "12"]
    assert transit.landmark_word("충남대학교") == "충남대" and transit.landmark_word("대전역") == "대전역"


def test_business_tables_read_back():
    assert businesses.PHARMA[0] == ("한국존슨앤드존슨판매(유)", "서울특별시 용산구 한강대로 92")
    assert businesses._SHOPS[0] == ("음식점업", "한식 일반 음식점업", "식당") and len(businesses._SHOPS) == 10
    assert businesses._CORP_SECTORS[-1] == ("운수업", "화물 운송업") and len(businesses._CORP_SECTORS) == 6
    assert businesses._OFFICES[:2] == (101, 104) and businesses._OFFICES[-1] == 616
    # every maker of a listed medicine is a known pharmaceutical company
    assert {row["company"] for row in read_table("drugs.csv")} <= {name for name, _ in businesses.PHARMA}


def test_apartment_price_levels_read_back():
    assert trades._PRICE_PER_M2["11680"] == 2600 and trades._PRICE_PER_M2["28237"] == 450
    assert len(trades._PRICE_PER_M2) == 41
    assert all(regions.by_code(lawd_cd) is not None for lawd_cd in trades._PRICE_PER_M2)
