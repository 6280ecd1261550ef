"""Deterministic matching: answer facts against a final answer, and tool calls against gold calls.

Framework-free (no Inspect imports) so the benchmark scorers, EDGE's answer check and GRPO's
rewards all judge with the same functions. The public entry point for answers is
:func:`score_answer` (CONTRACT item 9); everything below it is how one fact is judged.

One module per concern, each importing only the ones before it: :mod:`.numbers`, :mod:`.dates`,
:mod:`.times`, :mod:`.names`, :mod:`.romanized`, :mod:`.codes` (the value kinds and their matchers);
:mod:`.answer_view` (units of an answer), :mod:`.raw_dump`, :mod:`.refusal`, :mod:`.denials`,
:mod:`.hedges`, :mod:`.zeros` (what an answer does not state); :mod:`.winners`, :mod:`.measures`,
:mod:`.binding`, :mod:`.claimed` (which value is claimed for which subject); :mod:`.facts` and
:mod:`.answer` (a fact, an answer); :mod:`.aliases` and :mod:`.calls` (gold rows, tool calls).

The word lists the regexes are built from (superlative markers, comparative stems, runner-up words,
"or" words, denials, refusal phrases, particles and copulas, count units, scale words, time words,
measure stop words) live in :mod:`.lexicon`, each defined once as a tuple and joined into
alternations by :func:`.lexicon.alternation`; a list a module needs is imported from there, not
written inline (tests/matching/test_lexicon.py keeps it so).

How an answer is read
---------------------

1. **Raw dumps score nothing.** :func:`is_raw_dump` flags a pasted tool output: a JSON object or
   array that parses, XML elements (``<item>…</item>``), an envelope field name (``resultCode``,
   ``totalCount``, ``numOfRows`` …) beside ``key: value`` pairs, or three or more API field names
   written as ``aptNm: …`` / ``DDISH_NM: …``. Every fact of such an answer scores 0 (refusals too).
2. **The structured final-answer section** (format defined in :mod:`kopa_inspect.solvers.prompts`:
   a ``[최종 답변]`` / ``[Final answer]`` header followed by ``- <subject or item>: <value>`` lines)
   is parsed by :func:`parse_answer`. Each structured line is one unit ("label: value", however
   many sentences its value has); the free text around it is split into sentences at
   ``. ! ? ;`` and line ends, so an answer without the section is judged by the same rules
   (the free-text fallback).
3. **Facts bound to a subject** (``AnswerFact.subject``): the value must be stated next to the
   subject: in a unit that names the subject (or the subject's last word: "서울특별시 강남구" is
   said "강남구"), in the stretch from the subject to the next *other* subject of the task (the
   other facts' subjects and the candidates of "which one" facts). For numeric kinds, when that
   forward stretch states no number at all, the stretch before the subject (back to the previous
   other subject) is read instead ("120건인 강남구"). A competitor value stated in the bound
   stretch fails the fact. Facts without a subject are read against the whole answer.
4. **"Which one" facts** have competitors: given (``AnswerFact.competitors``), or inferred for an
   old-style name fact whose expression is a ``max_by``/``min_by`` over quoted literals
   (:func:`infer_competitors`), or, in grading, every other candidate of a max/min aggregate
   (:func:`competitor_expr`). Competitors equal to the expected value or to another fact's
   value are dropped, and a competitor counts as stated only when said exactly (no tolerance).
   Only the *claimed* winner counts. Claims are (i) structured lines whose label has a
   superlative marker (가장, 제일, 최고/최대/최다/최저/최소/최근, 1위, 더 …, most, largest …):
   for names the first candidate in the line's value, for figures/dates the value; (ii)
   free-text clauses (sentences split further at commas) with a superlative marker: for names,
   after dropping a leading candidate list ("A, B, C 중 …"), the candidate nearest to the marker;
   for figures/dates the clause. Units whose marker has the opposite direction ("가장 적은" for a
   max fact) are not claims for this fact; "최고기온/최저기온" are field names, not markers. The
   fact holds when some claim is the expected winner and none is a competitor. With no claim at
   all, it holds only when the answer states the winner and no competitor (so mentioning every
   candidate without a claim scores 0); a candidate said only in the list head of a claim ("'X'의
   진료과목 중 가장 …", "X와 같은 시군구의 어린이집 중 가장 …": the list's owner or anchor) is not stated.
   A candidate inside another name of the task ("정형외과" in "365정형외과의원", another row) is not
   said there (that name is masked). A claim that hides the winner in a list fails the fact:
   candidates joined only by a separator (", ", 및, 와/과, 또는, or …) or a marker clause followed
   by bare list items in its sentence ("가장 비싼 곳은 A, B, C입니다"; for figures, a claim unit
   stating the winner's and a competitor's value as a list). A denied claim ("A는 가장 비싼 곳이
   아닙니다", "가장 비싸지 않은 곳은 A", "A is not the most …") about the winner fails it; about a
   competitor it is no claim; "B가 아니라 A" claims A. In a comparison ("A가 B보다 (더) 높습니다",
   "A is higher than B") the claim is A, never the compared-with B however near the marker;
   with the opposite word ("B는 A보다 낮습니다" for a max fact) the claim is A. A unit that offers a
   competitor as an alternative ("A입니다. 아니면 B일 수도 있습니다", "B일 가능성도", "or possibly B")
   fails the fact. UNCERTAIN: word lists (markers, polarity words, separators, negations,
   alternatives), not a parser; kept as heuristics and attacked in tests/scorers/test_scoring_adversarial.py
   (h, j).
4b. **A claim is about one measure** (:func:`measure_view`). When a task has "which one" facts over
   different measures (the field a ``max_by``/``max`` ranks, an EDGE pick's ``measure`` or winner's
   ``winner_value_ref``; and the list's owner, ``scope``, for the same pick of two lists), each reads
   only the units about its own measure: a structured line or clause that names another measure's
   words (its description's content words no other measure has, or its owner) and none of its own is
   no claim for it. A clause naming no measure takes one named before it with no claim yet (in its
   sentence, or the sentence before when that one claims nothing: "A의 어린이집은 56건, B는 71건입니다.
   B 쪽이 더 많습니다."), else counts for every measure. Then a competitor that is another measure's
   winner stays a competitor, so swapping two winners ("A has more doctors, B more beds") fails.
   Measure words are found longest first ("진료" of '월요일 진료' is not said inside "진료과목"). A fact
   whose value is another pick's owner (the hospital with the most doctors, then that hospital's
   department with the most specialists) reads its value as a row's name, not as that owner: the other
   pick's clause ("'A병원'의 진료과목 중 … 진료과목은 …") is not about its measure, so the hospital said
   there, in the owner's slot or swapped into the department's, is not its pick.
   UNCERTAIN: measure words are description words, not a parser (tests/scorers/test_scoring_adversarial.py i, k).
5. **Refusals** (``matcher="refusal"``): the answer must decline (can't / 할 수 없 / 알 수는 없 /
   제공하지 않 / 불가 / 도구가 없 / 답변드리기 어려… ; a bare "없습니다" is a claim about the data,
   not a refusal), state no invented figure (no number that is not in the question, in digits or
   in words: "삼억 원", "three hundred million"), no quoted name and no school, hospital, pharmacy,
   apartment, station or bus-stop name (Korean suffixes or English "… Elementary School",
   "… Station" …) that is not in the question (grading passes the query and its English gloss), and offer no guess ("아마", "추정컨대",
   "가능성이 높", "오를 것", "probably", "likely" …). UNCERTAIN: phrase and suffix lists, not a
   classifier. "X는 없습니다" beside a decline is read as the reason ("서울에는 해운대구가 없습니다")
   unless X is a thing the question asks to count or read (거래, 급식, 기준금리, 버스 ...) and the
   clause says nothing about the source or its publication: "다음 달 거래는 없습니다" is an invented
   zero (an empty result of a future query is not a count), "다음 달 거래 자료는 아직 없습니다" a reason.
6. **Zero said in words**: a ``number``/``money`` fact whose value is 0 also holds when its
   stretch (subject-bound facts) says "none" (없습니다, 없음, 하나도, none, no …) with no figure of its
   own, or, without a subject, when a unit naming the fact's topic (a word of its description)
   says so and no unit on that topic states another figure ("주변 1km 안에는 숙소가 없습니다").
   "No information" (정보/자료/결과가 없습니다, no data) is not "none": it holds no zero.

Matchers (``AnswerFact.matcher``), each applied to the text a fact is bound to
-------------------------------------------------------------------------------

- ``number``: numbers are read on token boundaries (not after an ASCII letter or digit, not
  followed by a letter or ``.digit``: "PM2.5" states no 2, "PM10" no 10), with Korean formats
  ("790,000", "79억 5,000만", "1.2만", "12.5도", "-3℃"); numbers inside dates and clock times
  ("2026-10-15", "10월 15일", "15:00") are not figures. A number holds within ``tolerance``
  (absolute; a tolerance as large as the value itself is ignored, see :func:`check_tolerance`) or
  ``rel_tol`` (relative), or when it is the value rounded to its stated precision and that
  precision is at most 1% of the value. ``unit="만원"`` (or a number said with 원/억/만 for a
  만원 API value) compares in won. ``unit`` m / km / cm: a length; a figure said with a length unit
  (미터, 킬로미터, km …) is read in it ("3,600미터" holds 3.6 km, "3.6미터" does not).
- ``money``: like ``number`` but in won: the API value times its ``unit`` (원 default, 만원, 천원,
  억원); an amount said with 원 or a Korean scale word is read in won ("8억 2,500만 원"); a bare
  figure is read in the API's unit ("82,500" for 82,500 만원); "82,500원" for 82,500 만원 fails.
- ``date``: YYYYMMDD, YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD, "2026년 10월 15일", "10월 15일" (no
  year: month and day must match), "10/15".
- ``time``: expected HHMM or HH:MM; the answer may say "15:00", "15시", "15시 30분", "오후 3시",
  "낮 3시", "3 PM", "자정", "정오", or bare "1500" (not followed by a unit such as 원/건).
  "3시" without 오전/오후 is read as 03:00, so it does not state 15:00.
- ``month``: expected YYYYMM (or YYYY-MM); "2026년 9월", "2026-09", "2026.9", "202609", or "9월"
  with no year. A full date inside the month is not the month.
- ``date_set``: a list of dates; the answer's dates are read with the month carried over
  ("10월 16일, 19일, 20일", "19~20일"). Score = share of expected dates stated, 0 when the answer
  states more wrong dates than there are expected dates (listing the whole month is no answer).
- ``duration``: the value in ``unit`` (``s`` default, ``min``, ``h``); the answer's durations
  ("3분 20초", "200초", "1시간 5분", "약 3분") are summed per run of units. Holds within the
  tolerance, or when rounded to the stated unit (half a unit) and that unit is under a third of the
  value ("약 3분" for 200 s, not "1분" for 38 s).
- ``code_label``: a code (or a label) of the table ``labels`` (:data:`CODE_TABLES`: ``kma_sky``,
  ``kma_pty``, ``kma_mid_wf``, ``airkorea_grade``); the answer must say the code's Korean label
  or a listed synonym (맑음/맑겠/맑고 …), found longest label first, single-syllable labels (비,
  눈) only as a word (not inside 비교, 진눈깨비), and must not say another label of the table.
- ``name``: spaces and punctuation removed, sido names shortened (서울특별시 = 서울시 = 서울);
  the normalized expected name must occur in the normalized text. A numeric "name" (a route
  number "720") is matched as a number token.
- ``set``: a list; each element as a name (numbers as number tokens). Score = share present.
- ``dish_set``: a NEIS menu (``<br/>``-separated, allergy codes "(5.9.13.)" and markers */#
  dropped) or a list of dishes; each dish as a name. Score = share present.
- ``key_facts``: a long legal/drug text scored by its ``keys`` (phrases that must all appear,
  normalized like names). Score = share present. Without keys: the whole text as a name.
- ``exact``: case- and space-insensitive substring on ASCII token boundaries ("0" is not in "10").
- ``refusal``: see 5 above.

``accept`` lists more acceptable values (BFCL style); a fact holds if any of them holds.

Call matching: tool name equal and every gold argument present with an equal normalized value
("60" == 60, " 11110 " == "11110", lists order-free); arguments that carry no meaning for the
answer (service keys, session tokens, format switches) are ignored, ``pageNo`` absent equals
``pageNo=1``, and a first page at least as large as the gold one holds the gold rows. Whether the
*records* a task needs were retrieved (any page size, filter or order) is judged in
:mod:`kopa_inspect.scorers.grading` from the fingerprints (:func:`record_fingerprint`) that
``tools.call_entry`` stores for every call.
"""

from kopa_inspect.matching.aliases import row_aliases, with_row_aliases
from kopa_inspect.matching.answer import fact_holds, fact_score, score_answer
from kopa_inspect.matching.answer_view import AnswerView, parse_answer
from kopa_inspect.matching.calls import (
    DEFAULT_ARGS,
    IGNORED_ARGS,
    PAGE_SIZE_ARGS,
    PAGING_ARGS,
    ROW_NUMBER_FIELDS,
    Accepts,
    argument_match_score,
    arguments_equal,
    call_matches,
    call_prf,
    match_calls,
    normalize_args,
    normalize_value,
    record_fingerprint,
    same_query,
)
from kopa_inspect.matching.claimed import _same_value, claimed_value_score
from kopa_inspect.matching.codes import CODE_TABLES, code_label_score
from kopa_inspect.matching.dates import (
    date_score,
    date_set_score,
    month_score,
    parse_date_list,
    parse_dates,
    to_date,
)
from kopa_inspect.matching.denials import undenied
from kopa_inspect.matching.fact_fields import MATCHERS, _as_list
from kopa_inspect.matching.facts import score_fact
from kopa_inspect.matching.hedges import HEDGE, name_hedged
from kopa_inspect.matching.matchers import match_text
from kopa_inspect.matching.measures import measure_key, measure_scopes, measure_view, measure_words
from kopa_inspect.matching.names import (
    accepted_variants,
    dish_set_score,
    dishes,
    exact_score,
    expand_identifiers,
    expand_short_names,
    key_facts_score,
    name_score,
    normalize_name,
    set_score,
    short_forms,
)
from kopa_inspect.matching.numbers import (
    FoundNumber,
    check_tolerance,
    extract_numbers,
    length_score,
    money_score,
    number_score,
    to_number,
)
from kopa_inspect.matching.raw_dump import is_raw_dump
from kopa_inspect.matching.refusal import is_refusal, refusal_score
from kopa_inspect.matching.times import duration_score, parse_durations, parse_times, time_score
from kopa_inspect.matching.winners import (
    _FIELD_WORDS,
    _MARKER,
    AMBIGUOUS,
    ORDER_BREAKS_TIE,
    TieExprs,
    competitor_expr,
    infer_competitors,
    tie_exprs,
    winner_score,
)

__all__ = [
    "accepted_variants",
    "ORDER_BREAKS_TIE",
    "TieExprs",
    "tie_exprs",
    "AMBIGUOUS",
    "Accepts",
    "AnswerView",
    "CODE_TABLES",
    "DEFAULT_ARGS",
    "FoundNumber",
    "HEDGE",
    "IGNORED_ARGS",
    "MATCHERS",
    "PAGE_SIZE_ARGS",
    "PAGING_ARGS",
    "ROW_NUMBER_FIELDS",
    "_FIELD_WORDS",
    "_MARKER",
    "_as_list",
    "_same_value",
    "argument_match_score",
    "arguments_equal",
    "call_matches",
    "call_prf",
    "check_tolerance",
    "claimed_value_score",
    "code_label_score",
    "competitor_expr",
    "date_score",
    "date_set_score",
    "dish_set_score",
    "dishes",
    "duration_score",
    "exact_score",
    "expand_identifiers",
    "expand_short_names",
    "extract_numbers",
    "fact_holds",
    "fact_score",
    "infer_competitors",
    "is_raw_dump",
    "is_refusal",
    "key_facts_score",
    "length_score",
    "match_calls",
    "match_text",
    "measure_key",
    "measure_scopes",
    "measure_view",
    "measure_words",
    "money_score",
    "month_score",
    "name_hedged",
    "name_score",
    "normalize_args",
    "normalize_name",
    "normalize_value",
    "number_score",
    "parse_answer",
    "parse_date_list",
    "parse_dates",
    "parse_durations",
    "parse_times",
    "record_fingerprint",
    "refusal_score",
    "row_aliases",
    "same_query",
    "score_answer",
    "score_fact",
    "set_score",
    "short_forms",
    "time_score",
    "to_date",
    "to_number",
    "undenied",
    "winner_score",
    "with_row_aliases",
]
