"""중앙선거관리위원회 (data.go.kr provider 9760000): 선거 코드정보와 당선인 정보.

Real contract: ``GET http://apis.data.go.kr/9760000/CommonCodeService/getCommonSgCodeList?serviceKey&pageNo
&numOfRows&resultType=json`` (선거ID sgId = 선거일 YYYYMMDD, 선거종류코드 sgTypecode, 선거명, 선거일자) and
``…/9760000/WinnerInfoInqireService2/getWinnerInfoInqire?serviceKey&sgId&sgTypecode&sdName&sggName`` in the
standard data.go.kr envelope. The NEC services answer ``resultCode "INFO-00"`` / ``resultMsg "NORMAL SERVICE"``
(checked by several public clients); the JSON switch is ``resultType=json``; gateway errors are the usual
``OpenAPI_ServiceResponse`` XML. sgTypecode: 0 대표선거명, 1 대통령, 2 국회의원, 3 시·도지사, 4 구·시·군의 장,
5 시·도의원, 6 구·시·군의회의원, 7 국회의원비례대표, 8 광역의원비례대표, 9 기초의원비례대표, 10 교육의원, 11 교육감.

Real: the elections (dates, names, which kinds each had), the parties of each era, the 선거구 names,
the winning parties of the presidential elections. SYNTHETIC: every winner's name and personal
details (birthday, address, job, education, career), vote counts and shares, and the party of each
district winner (drawn from the seed with realistic weights). Do not read them as facts.

UNCERTAIN: the no-data code and message (INFO-03 "데이터 정보가 없습니다. 입력 파라메터값을 확인해주시기
바랍니다." here), the codes for bad or missing parameters (the standard data.go.kr 10 / 11 here),
the exact sgName spellings per kind, party ballot numbers (giho). Winners are served for kinds
1, 2, 3, 4 and 11; other kinds answer no data.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from kopa_inspect.apis._envelope import DataGoKrEnvelope
from kopa_inspect.apis._spec import Operation, Param, Platform, Rows
from kopa_inspect.world import World, world_part

KIND_NAMES = {
    "0": "",
    "1": "대통령선거",
    "2": "국회의원선거",
    "3": "시·도지사선거",
    "4": "구·시·군의 장선거",
    "5": "시·도의회의원선거",
    "6": "구·시·군의회의원선거",
    "7": "국회의원비례대표선거",
    "8": "광역의원비례대표선거",
    "9": "기초의원비례대표선거",
    "10": "교육의원선거",
    "11": "교육감선거",
}

# (sgId, 대표선거명, kinds, parties with (giho, weight) for district winners)
ELECTIONS: tuple[tuple[str, str, tuple[str, ...], tuple[tuple[str, str, float], ...]], ...] = (
    ("20170509", "제19대 대통령선거", ("0", "1"), (("더불어민주당", "1", 1.0),)),
    (
        "20180613",
        "제7회 전국동시지방선거",
        ("0", "3", "4", "5", "6", "8", "9", "11"),
        (("더불어민주당", "1", 0.75), ("자유한국당", "2", 0.2), ("무소속", "", 0.05)),
    ),
    (
        "20200415",
        "제21대 국회의원선거",
        ("0", "2", "7"),
        (("더불어민주당", "1", 0.6), ("미래통합당", "2", 0.35), ("정의당", "6", 0.02), ("무소속", "", 0.03)),
    ),
    ("20220309", "제20대 대통령선거", ("0", "1"), (("국민의힘", "2", 1.0),)),
    (
        "20220601",
        "제8회 전국동시지방선거",
        ("0", "3", "4", "5", "6", "8", "9", "11"),
        (("국민의힘", "2", 0.65), ("더불어민주당", "1", 0.3), ("무소속", "", 0.05)),
    ),
    (
        "20240410",
        "제22대 국회의원선거",
        ("0", "2", "7"),
        (
            ("더불어민주당", "1", 0.58),
            ("국민의힘", "2", 0.36),
            ("개혁신당", "4", 0.02),
            ("새로운미래", "5", 0.01),
            ("진보당", "6", 0.01),
            ("무소속", "", 0.02),
        ),
    ),
    ("20250603", "제21대 대통령선거", ("0", "1"), (("더불어민주당", "1", 1.0),)),
    (
        "20260603",
        "제9회 전국동시지방선거",
        ("0", "3", "4", "5", "6", "8", "9", "11"),
        (("더불어민주당", "1", 0.55), ("국민의힘", "2", 0.4), ("무소속", "", 0.05)),
    ),
)
BY_SGID = {e[0]: e for e in ELECTIONS}

SIDOS = (
    "서울특별시",
    "부산광역시",
    "대구광역시",
    "인천광역시",
    "광주광역시",
    "대전광역시",
    "울산광역시",
    "세종특별자치시",
    "경기도",
    "강원특별자치도",
    "충청북도",
    "충청남도",
    "전북특별자치도",
    "전라남도",
    "경상북도",
    "경상남도",
    "제주특별자치도",
)
# Pre-2023/2024 names of the renamed provinces.
OLD_SIDO = {"강원특별자치도": "강원도", "전북특별자치도": "전라북도"}
SIDO_RENAMED = {"강원특별자치도": "20230611", "전북특별자치도": "20240118"}

# A subset of the real 국회의원 지역선거구 (22대 names; 21대 used the same for these) per sido.
ASSEMBLY_DISTRICTS: dict[str, tuple[str, ...]] = {
    "서울특별시": (
        "종로구",
        "중구성동구갑",
        "중구성동구을",
        "용산구",
        "광진구갑",
        "광진구을",
        "마포구갑",
        "마포구을",
        "강남구갑",
        "강남구을",
        "강남구병",
        "서초구갑",
        "서초구을",
        "송파구갑",
        "송파구을",
        "송파구병",
        "노원구갑",
        "노원구을",
    ),
    "부산광역시": ("해운대구갑", "해운대구을", "동래구", "수영구", "부산진구갑", "부산진구을"),
    "대구광역시": ("수성구갑", "수성구을", "달서구갑", "달서구을"),
    "인천광역시": ("연수구갑", "연수구을", "남동구갑", "남동구을"),
    "광주광역시": ("북구갑", "북구을", "서구갑", "서구을"),
    "대전광역시": ("유성구갑", "유성구을", "서구갑", "서구을"),
    "울산광역시": ("남구갑", "남구을"),
    "세종특별자치시": ("세종특별자치시갑", "세종특별자치시을"),
    "경기도": (
        "수원시갑",
        "수원시을",
        "수원시병",
        "수원시정",
        "수원시무",
        "성남시분당구갑",
        "성남시분당구을",
        "고양시갑",
        "고양시을",
        "용인시병",
        "용인시정",
    ),
    "강원특별자치도": ("춘천시철원군화천군양구군갑", "원주시갑", "원주시을"),
    "충청북도": ("청주시흥덕구", "청주시서원구"),
    "충청남도": ("천안시갑", "천안시을", "천안시병"),
    "전북특별자치도": ("전주시갑", "전주시을", "전주시병"),
    "전라남도": ("목포시", "순천시광양시곡성군구례군갑"),
    "경상북도": ("포항시북구", "포항시남구울릉군", "구미시갑", "구미시을"),
    "경상남도": ("창원시성산구", "창원시의창구", "김해시갑", "김해시을"),
    "제주특별자치도": ("제주시갑", "제주시을", "서귀포시"),
}
# A subset of real 구·시·군 per sido for 구·시·군의 장 elections.
LOCAL_UNITS: dict[str, tuple[str, ...]] = {
    "서울특별시": ("종로구", "중구", "용산구", "마포구", "강남구", "서초구", "송파구", "노원구"),
    "부산광역시": ("해운대구", "동래구", "수영구", "부산진구"),
    "대구광역시": ("수성구", "달서구"),
    "인천광역시": ("연수구", "남동구"),
    "광주광역시": ("북구", "서구"),
    "대전광역시": ("유성구", "서구"),
    "울산광역시": ("남구", "울주군"),
    "세종특별자치시": (),
    "경기도": ("수원시", "성남시", "고양시", "용인시"),
    "강원특별자치도": ("춘천시", "원주시"),
    "충청북도": ("청주시",),
    "충청남도": ("천안시",),
    "전북특별자치도": ("전주시",),
    "전라남도": ("목포시", "순천시"),
    "경상북도": ("포항시", "구미시"),
    "경상남도": ("창원시", "김해시"),
    "제주특별자치도": (),
}

SURNAMES = "김이박최정강조윤장임한오서신권황안송류홍"
GIVEN = "민서준지현우영수진호성은재하경동상혜원태희연석훈규정미선"
JOBS = (
    "국회의원",
    "정당인",
    "변호사",
    "대학교수",
    "전 구청장",
    "기업인",
    "시민단체 대표",
    "전 도의원",
    "의사",
    "회계사",
)
SCHOOLS = (
    "서울대학교 법과대학 졸업",
    "고려대학교 정경대학 졸업",
    "연세대학교 행정학과 졸업",
    "부산대학교 대학원 졸업",
    "경북대학교 경제학과 졸업",
    "전남대학교 법학과 졸업",
    "성균관대학교 대학원 박사과정 수료",
    "한양대학교 공과대학 졸업",
)


@dataclass(frozen=True)
class Race:
    sd_name: str
    sgg_name: str
    wiw_name: str


def sido_at(name: str, sg_id: str) -> str:
    """Province names as they were on election day (강원도 -> 강원특별자치도 in 2023 ...)."""
    renamed = SIDO_RENAMED.get(name)
    return OLD_SIDO[name] if renamed and sg_id < renamed else name


def races(sg_id: str, kind: str) -> list[Race]:
    if kind == "1":
        return [Race("전국", "대한민국", "")]
    out: list[Race] = []
    for sido in SIDOS:
        sd = sido_at(sido, sg_id)
        if kind == "2":
            if sido == "세종특별자치시" and sg_id < "20200101":
                continue
            out.extend(Race(sd, d, "") for d in ASSEMBLY_DISTRICTS[sido])
        elif kind in ("3", "11"):
            out.append(Race(sd, sd, ""))
        elif kind == "4":
            out.extend(Race(sd, u, u) for u in LOCAL_UNITS[sido])
    return out


def _winner(world: World, sg_id: str, kind: str, race: Race, num: int) -> dict[str, Any]:
    rng = world.rng("nec-winner", sg_id, kind, race.sd_name, race.sgg_name)
    parties = BY_SGID[sg_id][3]
    if kind == "11":
        party, giho = "", ""
    else:
        party, giho, _ = rng.choices(parties, weights=[p[2] for p in parties])[0]
    name = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
    vote_day = date(int(sg_id[:4]), int(sg_id[4:6]), int(sg_id[6:]))
    age = rng.randint(38, 72) if kind != "1" else rng.randint(55, 70)
    born = vote_day - timedelta(days=age * 365 + rng.randint(30, 330))
    electorate: float = {"1": 44_000_000, "2": 180_000, "3": 3_000_000, "4": 350_000, "11": 3_000_000}[kind]
    if kind != "1":
        electorate *= rng.uniform(0.5, 1.5)
    turnout = rng.uniform(0.55, 0.78) if kind != "1" else rng.uniform(0.75, 0.8)
    share = rng.uniform(0.42, 0.66) if kind != "1" else rng.uniform(0.48, 0.5)
    dugsu = round(electorate * turnout * share)
    return {
        "num": num,
        "sgId": sg_id,
        "sgTypecode": kind,
        "huboid": str(100_000_000 + rng.randint(0, 99_999_999)),
        "sggName": race.sgg_name,
        "sdName": race.sd_name,
        "wiwName": race.wiw_name,
        "giho": giho,
        "gihoSangse": "",
        "jdName": party,
        "name": name,
        "hanjaName": "",
        "gender": rng.choices(("남", "여"), weights=(4, 1))[0],
        "birthday": born.strftime("%Y%m%d"),
        "age": str(age),
        "addr": f"{race.sd_name if race.sd_name != '전국' else '서울특별시'} {race.wiw_name or ''}".strip(),
        "jobId": str(rng.randint(1, 99)),
        "job": rng.choice(JOBS),
        "eduId": str(rng.randint(60, 75)),
        "edu": rng.choice(SCHOOLS),
        "career1": f"(전) {rng.choice(JOBS)}",
        "career2": f"(현) {party} {rng.choice(('정책위원', '최고위원', '지역위원장', '대변인'))}"
        if party and party != "무소속"
        else "(현) 지역 시민단체 고문",
        "dugsu": str(dugsu),
        "dugyul": f"{share * 100:.2f}",
    }


class ElectionWorld:
    def __init__(self, world: World) -> None:
        self.world = world
        self._cache: dict[tuple[str, str], list[dict[str, Any]]] = {}

    def winners(self, sg_id: str, kind: str) -> list[dict[str, Any]]:
        key = (sg_id, kind)
        if key not in self._cache:
            self._cache[key] = [
                self._fill(_winner(self.world, sg_id, kind, r, i + 1))
                for i, r in enumerate(races(sg_id, kind))
            ]
        return self._cache[key]

    def _fill(self, row: dict[str, Any]) -> dict[str, Any]:
        # Real presidential winners' parties; names stay synthetic.
        if row["sgTypecode"] == "1":
            row["jdName"] = BY_SGID[row["sgId"]][3][0][0]
            row["giho"] = BY_SGID[row["sgId"]][3][0][1]
        return row


@world_part("elections")
def _build(world: World) -> ElectionWorld:
    return ElectionWorld(world)


def _known(world: World) -> list[tuple[str, str, tuple[str, ...], tuple[tuple[str, str, float], ...]]]:
    """Elections registered by the clock: the code list carries an election about 6 months ahead."""
    horizon = (world.clock.date() + timedelta(days=183)).strftime("%Y%m%d")
    return [e for e in ELECTIONS if e[0] <= horizon]


def get_common_sg_code_list(world: World, params: dict[str, Any]) -> Rows:
    rows: Rows = []
    for sg_id, name, kinds, _ in sorted(_known(world), key=lambda e: e[0], reverse=True):
        for kind in kinds:
            rows.append(
                {
                    "num": len(rows) + 1,
                    "sgId": sg_id,
                    "sgName": name if kind == "0" else KIND_NAMES[kind],
                    "sgTypecode": kind,
                    "sgVotedate": sg_id,
                }
            )
    return rows


def get_winner_info_inqire(world: World, params: dict[str, Any]) -> Rows:
    sg_id, kind = params["sgId"], params["sgTypecode"]
    election = BY_SGID.get(sg_id)
    if election is None or kind not in election[2] or kind not in ("1", "2", "3", "4", "11"):
        return []
    # Results exist from the day after the vote.
    if world.today <= sg_id:
        return []
    rows = world.part("elections").winners(sg_id, kind)
    if params.get("sdName"):
        rows = [r for r in rows if r["sdName"] == params["sdName"]]
    if params.get("sggName"):
        rows = [r for r in rows if r["sggName"] == params["sggName"]]
    return [{**r, "num": i + 1} for i, r in enumerate(rows)]


ENVELOPE = DataGoKrEnvelope(
    ok_code="INFO-00",
    ok_msg="NORMAL SERVICE",
    format_param="resultType",
    json_value="json",
    empty="nodata",
    nodata_with_body=False,
    errors={"nodata": ("INFO-03", "데이터 정보가 없습니다. 입력 파라메터값을 확인해주시기 바랍니다.")},
)

PLATFORM = Platform(
    id="nec",
    name="중앙선거관리위원회 선거정보 (National Election Commission election data)",
    domain="politics",
    live_base_url="http://apis.data.go.kr",
    envelope=ENVELOPE,
    description="선거 코드(선거ID·선거종류)와 당선인 정보 (election codes and election winners)",
    uncertain="no-data code/message; parameter error codes; winners are synthetic",
)

_PAGING = [
    Param("pageNo", "페이지 번호 (page number)", type="integer"),
    Param("numOfRows", "한 페이지 결과 수 (rows per page)", type="integer"),
    Param("resultType", "응답 형식 xml|json (response format)", hidden=True),
]

OPERATIONS = [
    Operation(
        platform="nec",
        name="getCommonSgCodeList",
        path="/9760000/CommonCodeService/getCommonSgCodeList",
        summary=(
            "선거코드 조회: 선거ID(sgId, 선거일 YYYYMMDD)와 선거종류코드(sgTypecode: 1 대통령, 2 국회의원, 3 시·도지사, "
            "4 구·시·군의 장, 7 국회의원비례대표, 11 교육감 …)를 조회합니다. 당선인 조회 전에 필요합니다. (Election "
            "codes: election id and kind codes, needed before querying winners.)"
        ),
        params=list(_PAGING),
        handler=get_common_sg_code_list,
        output_fields={
            "sgId": "선거ID = 선거일 YYYYMMDD (election id)",
            "sgName": "선거명 (election name)",
            "sgTypecode": "선거종류코드 (election kind code)",
            "sgVotedate": "선거일자 (election day)",
            "num": "순번 (row number)",
        },
        tags=("politics", "code-lookup", "pagination"),
    ),
    Operation(
        platform="nec",
        name="getWinnerInfoInqire",
        path="/9760000/WinnerInfoInqireService2/getWinnerInfoInqire",
        summary=(
            "당선인 정보 조회: 선거ID와 선거종류코드로 당선인의 이름, 정당, 선거구, 득표수, 득표율을 조회합니다. sdName(시도명), "
            "sggName(선거구명)으로 좁힐 수 있습니다. (Election winners by election id and kind: name, party, district, "
            "votes, vote share; filter by province or district name.)"
        ),
        params=[
            Param(
                "sgId",
                "선거ID, 예: 20240410 (election id from getCommonSgCodeList)",
                required=True,
                pattern=r"\d{8}",
            ),
            Param(
                "sgTypecode",
                "선거종류코드, 예: 2 국회의원 (election kind code)",
                required=True,
                enum=tuple(str(i) for i in range(0, 12)),
            ),
            Param("sdName", "시도명, 예: 서울특별시 (province name)"),
            Param("sggName", "선거구명, 예: 종로구, 강남구갑 (district name)"),
            *_PAGING,
        ],
        handler=get_winner_info_inqire,
        output_fields={
            "sgId": "선거ID (election id)",
            "sgTypecode": "선거종류코드 (kind)",
            "huboid": "후보자ID (candidate id)",
            "sdName": "시도명 (province)",
            "sggName": "선거구명 (district)",
            "wiwName": "구시군명 (municipality)",
            "giho": "기호 (ballot number)",
            "jdName": "정당명 (party)",
            "name": "한글성명 (name)",
            "gender": "성별 (gender)",
            "birthday": "생년월일 (birth date)",
            "age": "연령 (age)",
            "job": "직업 (job)",
            "edu": "학력 (education)",
            "career1": "경력1 (career)",
            "dugsu": "득표수 (votes)",
            "dugyul": "득표율 % (vote share)",
        },
        uncertain="winners synthetic; only kinds 1, 2, 3, 4, 11 served",
        tags=("politics", "pagination"),
    ),
]
