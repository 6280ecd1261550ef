"""Real 법정동코드 regions: coverage, code structure, lookups and grid positions."""

from __future__ import annotations

import pytest

from kopa_inspect.world import regions as R

SIDO_CODES = {
    "11": "서울특별시",
    "26": "부산광역시",
    "27": "대구광역시",
    "28": "인천광역시",
    "29": "광주광역시",
    "30": "대전광역시",
    "31": "울산광역시",
    "36": "세종특별자치시",
    "41": "경기도",
    "43": "충청북도",
    "44": "충청남도",
    "46": "전라남도",
    "47": "경상북도",
    "48": "경상남도",
    "50": "제주특별자치도",
    "51": "강원특별자치도",
    "52": "전북특별자치도",
}


def test_all_seventeen_sidos_with_current_codes() -> None:
    got = {r.sido_cd: r.name for r in R.sidos()}
    assert got == SIDO_CODES
    assert all(r.code.endswith("00000000") and r.level == "sido" for r in R.sidos())


@pytest.mark.parametrize(("sido", "count"), [("11", 25), ("26", 16), ("50", 2)])
def test_every_sgg_of_seoul_busan_jeju(sido: str, count: int) -> None:
    assert len(R.sggs(sido)) == count


def test_gyeonggi_cities_and_their_gu() -> None:
    names = {r.sgg_name for r in R.sggs("41")}
    for name in (
        "수원시",
        "수원시 영통구",
        "성남시 분당구",
        "고양시 일산서구",
        "용인시 수지구",
        "안산시 단원구",
        "화성시",
        "가평군",
        "양평군",
        "연천군",
        "여주시",
        "부천시 소사구",
    ):
        assert name in names
    # 28 시 + 3 군 of 경기, plus the 구 of 수원 4, 성남 3, 안양 2, 부천 3, 안산 2, 고양 3, 용인 3.
    assert len(R.sggs("41")) == 31 + 20


def test_known_codes() -> None:
    cases = {
        "1111000000": "서울특별시 종로구",
        "1168000000": "서울특별시 강남구",
        "1165000000": "서울특별시 서초구",
        "1171000000": "서울특별시 송파구",
        "1144000000": "서울특별시 마포구",
        "2635000000": "부산광역시 해운대구",
        "4113500000": "경기도 성남시 분당구",
        "4111700000": "경기도 수원시 영통구",
        "5011000000": "제주특별자치도 제주시",
        "5013000000": "제주특별자치도 서귀포시",
        "1111010100": "서울특별시 종로구 청운동",
        "1168010100": "서울특별시 강남구 역삼동",
        "1168010600": "서울특별시 강남구 대치동",
        "1165010800": "서울특별시 서초구 서초동",
        "1171010100": "서울특별시 송파구 잠실동",
        "4113510300": "경기도 성남시 분당구 정자동",
    }
    for code, name in cases.items():
        r = R.by_code(code)
        assert r is not None and r.name == name, code


def test_umd_level_for_well_known_gu() -> None:
    for lawd, must in {
        "11110": "사직동",
        "11680": "압구정동",
        "11650": "반포동",
        "11710": "문정동",
        "11440": "상암동",
        "26350": "우동",
        "50110": "노형동",
        "41117": "매탄동",
        "41135": "서현동",
    }.items():
        names = [r.umd_name for r in R.umds(lawd)]
        assert must in names and len(names) >= 5, lawd
        assert all(r.level == "umd" and r.lawd_cd == lawd for r in R.umds(lawd))


def test_code_structure_is_consistent() -> None:
    codes = [r.code for r in R.all_regions()]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)
    for r in R.all_regions():
        assert len(r.code) == 10 and r.code.isdigit()
        assert r.code == r.sido_cd + r.sgg_cd + r.umd_cd + r.ri_cd
        assert r.lawd_cd == r.code[:5]
        assert R.by_code(r.sido_cd) is not None
        if r.level == "umd":
            parent = R.by_code(r.lawd_cd)
            assert parent is not None and r.name.startswith(parent.name + " ")
        if r.level != "sido":
            assert r.name.startswith(r.sido_name)
        assert 33.0 < r.lat < 38.7 and 124.5 < r.lon < 131.0


def test_lookups_and_search() -> None:
    assert R.by_code("11110").name == "서울특별시 종로구"  # type: ignore[union-attr]
    assert R.by_code("11").name == "서울특별시"  # type: ignore[union-attr]
    assert R.by_code("9999999999") is None
    assert [r.code for r in R.search("분당구 정자동")] == ["4113510300"]
    assert [r.code for r in R.search("분당구정자동")] == ["4113510300"]
    jongno = R.search("종로구")
    assert jongno[0].code == "1111000000" and len(jongno) > 10
    assert R.search("") == ()
    # Same short name in many 시도: 중구 exists in 서울, 부산, 대구, 인천, 대전, 울산.
    assert {r.sido_cd for r in R.search("중구") if r.level == "sgg"} >= {"11", "26", "27", "28", "30", "31"}


def test_grid_positions_match_kma_reference_points() -> None:
    jongno = R.by_code("1111000000")
    busan = R.by_code("2600000000")
    jeju = R.by_code("5011000000")
    assert jongno and (jongno.nx, jongno.ny) == (60, 127)
    assert busan and (busan.nx, busan.ny) == (98, 76)
    assert jeju and abs(jeju.nx - 52) <= 1 and jeju.ny == 38


def test_short_sido_and_names() -> None:
    assert R.by_code("1168010100").short_sido == "서울"  # type: ignore[union-attr]
    assert R.by_code("5100000000").short_sido == "강원"  # type: ignore[union-attr]
    assert R.by_code("4113500000").sgg_name == "성남시 분당구"  # type: ignore[union-attr]
    assert R.by_code("3611000000").name == "세종특별자치시"  # type: ignore[union-attr]
    assert R.all_regions() is R.all_regions()  # cached, built once
