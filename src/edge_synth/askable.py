"""What a person asks of each result (issue 10): the only fields EDGE facts are read from.

Reviewers read EDGE questions that asked for things nobody wants to know: "날씨 예보 지역의 1단계
시도" (the province the user had just named), "관광지 중 'X'의 수정일시" (when the record was
edited), the number of forecast areas, "'중구'(a station)의 거리" (the distance of a station from a
grid point), "'동대문구'의 오존" answered for the row '동북권'. Picking "any declared non-code field"
cannot tell these from "the hospital's phone number". So the fields a person asks about are listed
per operation, each with the person's word for it, in ``edge_synth.lexicon.ASKABLE`` (``ask``,
``pick`` and ``name``, explained there); this module answers from that table and the rules below.

Operations not in the table: the generic Seoul and Assembly catalog datasets (hundreds, one shape
each) follow ``catalog_askable``'s rule on the field's Korean label: bookkeeping of the record
(수정/등록/갱신/작성 일시, 데이터 기준일, 관리번호, 코드, 좌표 ...) is denied, what describes the
place or thing (name, address, phone, hours, fee, capacity ...) is kept, anything else is not
asked (UNCERTAIN: the label is all the rule reads). Any other operation has nothing to ask: a
leaf of it gets no fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from edge_synth.lexicon import ASKABLE as ASKABLE
from edge_synth.lexicon import Askable as Askable
from edge_synth.lexicon import field_label
from edge_synth.lexicon import name_field as name_field
from edge_synth.natural import COUNTABLE
from kopa_inspect.apis import get_operation


@dataclass(frozen=True)
class Weather:
    value: str  # the field holding the figure
    categories: dict[str, tuple[str, str]]  # category code -> (the person's word, the unit said after it)
    when: bool  # the row has a forecast date and time (fcstDate/fcstTime) to say


# What a person asks of a forecast: the temperature, the chance of rain, the humidity, at a time.
# Codes said as words (SKY 1/3/4, PTY 0-4) and wind components are left out: the figure alone would
# be said raw. Units from the KMA guide (``kopa_inspect.apis.kma``): ℃, %, %.
WEATHER: dict[str, Weather] = {
    "kma_getVilageFcst": Weather(
        "fcstValue", {"TMP": ("기온", "도"), "POP": ("강수확률", "퍼센트"), "REH": ("습도", "퍼센트")}, True
    ),
    "kma_getUltraSrtFcst": Weather("fcstValue", {"T1H": ("기온", "도"), "REH": ("습도", "퍼센트")}, True),
    "kma_getUltraSrtNcst": Weather("obsrValue", {"T1H": ("기온", "도"), "REH": ("습도", "퍼센트")}, False),
}


# The catalog rule (Seoul and Assembly datasets outside the table), on a field's Korean label.
# Denied first: the record's bookkeeping, keys, coordinates, links and private or trivia fields.
_DENY = re.compile(
    r"코드|\bID\b|ID$|관리번호|일련번호|순번|서열|좌표|위도|경도|수정|갱신|등록일|작성일|적재|작업일|입력일|기준일|"
    r"인허가취소|한자|영문|음/양력|생년월일|보좌관|비서관|약력|링크|URL|PDF|상세페이지|우편번호|회기|차수|대수|"
    r"작성자|제안자목록"
)
# Kept: what describes the place or thing (UNCERTAIN: guessed from the label alone).
_KEEP = re.compile(
    r"명$|명칭|이름|주소|소재지|장소|전화|문의|운영|시간|시각|휴관|요일|요금|이용료|결제|정원|좌석|구획|면적|장서|"
    r"건수|인원|승객수|시작일|종료일|개최일|제안일|의결일|처리결과|결과$|상태명|업태|정당|선거구|위원회|구분|유형|"
    r"분류|종류|홈페이지|이메일|호실|직책|대상|주요시설"
)
_CATALOG_PLATFORMS = ("seoul", "assembly")


def _label(desc: str) -> str:
    return re.split(r"\s*[(\[]", desc, maxsplit=1)[0].strip()


def catalog_askable(desc: str) -> bool:
    """The rule for a catalog field, on its spec description's Korean label."""
    label = _label(desc)
    return bool(label) and not _DENY.search(label) and bool(_KEEP.search(label))


@lru_cache(maxsize=4096)
def _catalog(op_id: str) -> dict[str, str]:
    try:
        op = get_operation(op_id)
    except KeyError:
        return {}
    if op.platform not in _CATALOG_PLATFORMS:
        return {}
    return {f: field_label(op_id, f) for f, d in op.output_fields.items() if catalog_askable(d)}


def askable_fields(op_id: str) -> dict[str, str]:
    """field -> the person's word, for every field a person asks of this operation's rows."""
    entry = ASKABLE.get(op_id)
    return entry.ask if entry is not None else _catalog(op_id)


def is_askable(op_id: str, fname: str) -> bool:
    """A field a fact may be read from: the table's (or the catalog rule's), or a forecast's figure
    (asked by its category, WEATHER)."""
    return fname in askable_fields(op_id) or (op_id in WEATHER and WEATHER[op_id].value == fname)


def askable_label(op_id: str, fname: str) -> str | None:
    """The person's word for an askable field ("의사 수", "정류장 번호"); None if not askable."""
    return askable_fields(op_id).get(fname)


def picks_by(op_id: str, fname: str) -> bool:
    """May a row be picked as the largest/smallest by this field? An askable field, or a pick-only
    measure (a distance: "the nearest")."""
    entry = ASKABLE.get(op_id)
    return fname in askable_fields(op_id) or (entry is not None and fname in entry.pick)


@lru_cache(maxsize=4096)
def asks_anything(op_id: str) -> bool:
    """Can a leaf of this operation carry a fact at all? A field a person asks (the table's or the
    catalog rule's), a forecast asked by category, or a count of something a person counts. A walk
    should not end on one that cannot (a grid cell lookup, a corp-code list, an ECOS catalogue):
    its row would have nothing to ask and be dropped (the sampler avoids ending there)."""
    return bool(askable_fields(op_id)) or op_id in WEATHER or op_id in COUNTABLE
