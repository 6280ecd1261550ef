"""Code tables (KMA sky and precipitation, mid-range weather, AirKorea grades) and the code-label matcher."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from kopa_inspect.matching.names import name_score, normalize_name
from kopa_inspect.matching.numbers import to_number

# code -> (label, synonyms). Labels are the KMA/AirKorea Korean terms (the provider's published API guide).
CODE_TABLES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    # 단기예보 SKY: 1 맑음, 3 구름많음, 4 흐림 (2 retired in 2019).
    "kma_sky": {
        "1": ("맑음", ("맑음", "맑겠", "맑고", "맑아", "맑은", "맑습니다", "clear", "sunny")),
        "3": ("구름많음", ("구름많음", "구름 많음", "구름이 많", "구름 많", "구름많", "mostly cloudy")),
        "4": ("흐림", ("흐림", "흐리겠", "흐리고", "흐린", "흐립니다", "overcast", "cloudy")),
    },
    # 단기예보/초단기 PTY: 0 없음, 1 비, 2 비/눈, 3 눈, 4 소나기, 5 빗방울, 6 빗방울눈날림, 7 눈날림.
    "kma_pty": {
        "0": (
            "없음",
            ("강수 없음", "강수없음", "비 소식 없", "비가 오지 않", "비 안", "없음", "no precipitation"),
        ),
        "1": ("비", ("비", "rain")),
        "2": ("비/눈", ("비/눈", "비 또는 눈", "비나 눈", "눈비", "진눈깨비", "sleet", "rain/snow")),
        "3": ("눈", ("눈", "snow")),
        "4": ("소나기", ("소나기", "shower")),
        "5": ("빗방울", ("빗방울", "drizzle")),
        "6": ("빗방울눈날림", ("빗방울눈날림", "빗방울/눈날림", "빗방울과 눈날림")),
        "7": ("눈날림", ("눈날림", "flurr")),
    },
    # 중기육상예보 wf*: the label itself is the value.
    "kma_mid_wf": {
        w: (w, (w, w.replace("많고", " 많고 ").replace("흐리고", "흐리고 ")))
        for w in (
            "맑음",
            "구름많음",
            "구름많고 비",
            "구름많고 눈",
            "구름많고 비/눈",
            "구름많고 소나기",
            "흐림",
            "흐리고 비",
            "흐리고 눈",
            "흐리고 비/눈",
            "흐리고 소나기",
        )
    },
    # AirKorea 등급 (khaiGrade, pm10Grade, pm25Grade ...): 1 좋음, 2 보통, 3 나쁨, 4 매우나쁨.
    "airkorea_grade": {
        "1": ("좋음", ("좋음", "좋습니다", "좋아요", "good")),
        "2": ("보통", ("보통", "moderate")),
        "3": ("나쁨", ("나쁨", "나쁩니다", "나빠요", "unhealthy")),
        "4": ("매우나쁨", ("매우나쁨", "매우 나쁨", "매우 나쁩니다", "very unhealthy")),
    },
}
# kma_mid_wf: "맑음" also as a predicate.
CODE_TABLES["kma_mid_wf"]["맑음"] = ("맑음", ("맑음", "맑겠", "맑고", "맑아", "맑은", "맑습니다"))
CODE_TABLES["kma_mid_wf"]["흐림"] = ("흐림", ("흐림", "흐리겠", "흐린", "흐립니다"))
CODE_TABLES["kma_mid_wf"]["구름많음"] = ("구름많음", ("구름많음", "구름 많음", "구름이 많", "구름많겠"))
# kma_mid_wf in English, as KMA's English pages say the sky (longest form first in the spans, so
# "mostly cloudy" is no "cloudy")
_MID_WF_EN = {"맑음": ("clear", "sunny"), "구름많음": ("mostly cloudy",), "흐림": ("cloudy", "overcast")}
_MID_WF_EN_WITH = {
    "비": ("rain",),
    "눈": ("snow",),
    "비/눈": ("rain or snow", "rain and snow", "sleet"),
    "소나기": ("showers", "shower"),
}
for _label, (_value, _forms) in list(CODE_TABLES["kma_mid_wf"].items()):
    _sky, _, _with = _label.partition("고 ")
    _base = "흐림" if _sky == "흐리" else "구름많음" if _sky == "구름많" else _label
    _en = (
        [f"{sky} with {w}" for sky in _MID_WF_EN[_base] for w in _MID_WF_EN_WITH[_with]]
        if _with
        else list(_MID_WF_EN[_base])
    )
    CODE_TABLES["kma_mid_wf"][_label] = (_value, (*_forms, *_en))

_HANGUL = re.compile(r"[가-힣]")
# particles and endings that may follow a one-syllable label ("비가", "눈이", "비 소식")
_PARTICLE_AFTER = re.compile(r"^(?:[가이는은를을와과도로만요]|$|[^가-힣])")


def _label_spans(table: dict[str, tuple[str, tuple[str, ...]]], text: str) -> list[tuple[str, int, int]]:
    """(code, start, end) of every label of ``table`` in ``text``, longest synonym first."""
    text = unicodedata.normalize("NFKC", text).lower()
    syns = sorted(
        ((s.lower(), code) for code, (_, ss) in table.items() for s in ss), key=lambda x: -len(x[0])
    )
    taken: list[tuple[int, int]] = []
    out: list[tuple[str, int, int]] = []
    for syn, code in syns:
        pat = re.escape(syn).replace(r"\ ", r"\s*")
        for m in re.finditer(pat, text):
            a, b = m.span()
            if any(x < b and a < y for x, y in taken):
                continue
            short = len(syn.replace(" ", "")) == 1
            if short and (
                (a > 0 and _HANGUL.match(text[a - 1]))
                or not _PARTICLE_AFTER.match(text[b : b + 1])
                or (
                    b < len(text)
                    and _HANGUL.match(text[b])
                    and b + 1 < len(text)
                    and _HANGUL.match(text[b + 1])
                )
            ):
                continue
            if syn.isascii() and (
                (a > 0 and text[a - 1].isalpha()) or (b < len(text) and text[b].isalpha() and syn != "flurr")
            ):
                continue
            taken.append((a, b))
            out.append((code, a, b))
    return out


def code_label_score(expected: Any, answer: str, labels: str | None) -> float:
    if labels is None:
        return name_score(expected, answer)
    table = CODE_TABLES.get(labels)
    if table is None:
        raise ValueError(f"unknown code table {labels!r}; known: {sorted(CODE_TABLES)}")
    key = str(expected).strip()
    if key not in table:
        num = to_number(key)
        if num is not None and float(num).is_integer() and str(int(num)) in table:
            key = str(int(num))
        else:
            by_label = {normalize_name(lab): code for code, (lab, _) in table.items()}
            key = by_label.get(normalize_name(key), "")
    if not key:
        return name_score(expected, answer)
    label = table[key][0]
    stated = {table[c][0] for c, _, _ in _label_spans(table, answer)}
    return 1.0 if label in stated and stated <= {label} else 0.0
