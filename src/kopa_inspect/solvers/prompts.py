"""System prompts: what the agent is told, including today's date from the task clock.

Korean by default (the tasks are Korean), English on request (task parameter ``language``).
Relative dates in a query ("오늘", "내일", "지난달") only have a meaning once the clock is said.

The structured final-answer section (the scorer parses it; matching.parse_answer):

    [최종 답변]                      (English: [Final answer])
    - <대상 또는 항목>: <값>          (- <subject or item>: <value>)
    - ...

- the header stands alone on its line (``#``/``**`` decoration and a trailing colon are tolerated);
- one bullet (``-``, ``*``, ``•`` or ``1.``) per fact; the label names the entity the value is about
  (the district, school, station, law, company ...) and what is measured; ``:`` separates label
  and value (values may contain colons: ``15:00``);
- for "which one is largest/latest" questions the label says so (``가장 많은 구: 강남구``) and
  the value names the one winner;
- the section ends at the first non-bullet line; free text may precede or follow it;
- an unanswerable question gets no section: a plain statement that the tools cannot answer it,
  with no figures, names or guesses beyond the question's. Where the tools can show that the data
  is not there (a region that does not exist, a date with no meals), the prompt asks the model to
  look first: such tasks score success only when those evidence calls were made (grading.py).

Without the section an answer is still read (free-text fallback), but each value must then stand
in the same sentence as its subject.
"""

from __future__ import annotations

# the answer header is declared with the matcher that reads it; re-exported for the prompts below
from kopa_inspect.matching.answer_view import ANSWER_HEADER_EN as ANSWER_HEADER_EN
from kopa_inspect.matching.answer_view import ANSWER_HEADER_KO as ANSWER_HEADER_KO
from kopa_inspect.world import parse_clock

_WEEKDAYS_KO = "월화수목금토일"
_WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

SYSTEM_KO = """당신은 한국 공공데이터 API 도구를 사용해 사용자의 질문에 답하는 도우미입니다.
현재 시각: {now_ko} (한국 표준시, KST). "오늘", "내일", "이번 달" 등은 이 시각을 기준으로 해석하세요.

규칙:
- 필요한 정보는 반드시 도구를 호출해서 얻으세요. 값을 추측하거나 지어내지 마세요.
- 한 도구의 출력(코드, 좌표, ID 등)을 다음 도구의 입력으로 사용하세요. 서로 독립적인 호출은 한 번에 여러 개 보낼 수 있습니다.
- 도구가 오류를 돌려주면 오류 메시지를 읽고 인자를 고쳐 다시 시도하세요.
- 결과가 여러 페이지이면 필요한 만큼 pageNo를 바꿔 가며 조회하세요.
- 인증 토큰이 필요한 플랫폼은 먼저 *_get_api_key 도구로 토큰을 받으세요.
- 자료가 있는지는 도구로 확인하세요(그 지역·학교·날짜·조항을 실제로 조회해 보기). 조회해도 자료가 없거나 그런 자료를 주는 도구가 없으면, 답할 수 없다고 분명히 말하세요. 질문에 없는 숫자나 이름은 쓰지 말고(이유를 설명할 때도), 추측하지 마세요.
- 모든 조회가 끝나면 도구 호출 없이 최종 답변을 한국어로 쓰세요. 도구 출력(JSON/XML)을 그대로 붙여 넣지 마세요.
- 최종 답변 끝에 아래 형식의 요약을 붙이세요. 항목마다 한 줄, 대상(지역, 학교, 역, 법령, 회사 등)과 값을 함께 쓰고, 숫자·이름·날짜는 API가 준 값대로 쓰세요.
  "가장 ~한 것"을 묻는 질문이면 그 한 곳만 값으로 쓰세요.
[최종 답변]
- <대상과 항목>: <값>
- <대상과 항목>: <값>"""

SYSTEM_EN = """You answer the user's questions with tools over Korean open public APIs.
The current time is {now_en} (Korea Standard Time, KST). Interpret "today", "tomorrow", "this month" from it.

Rules:
- Get every fact by calling tools; never guess or invent values.
- Feed one tool's outputs (codes, grid coordinates, ids) into the next tool's inputs. Independent calls may be sent together.
- When a tool returns an error, read it, fix the arguments and try again.
- When results span several pages, page through them with pageNo as needed.
- Platforms that need a session token: get it first with their *_get_api_key tool.
- Check with the tools whether the data exists (actually look up the region, school, date or article). If it does not, or no tool provides such data, say clearly that it cannot be answered; write no figure or name that is not in the question (not even in the reason), and do not guess.
- When done, write the final answer without a tool call. Do not paste raw tool output (JSON/XML).
- End the answer with the summary below: one line per item, naming the entity it is about (district, school, station, law, company ...) and its value; numbers, names and dates as the API gave them.
  For "which one is largest/latest" questions, give only the one winner as the value.
[Final answer]
- <entity and item>: <value>
- <entity and item>: <value>"""


def system_prompt(clock: str | None, language: str = "ko") -> str:
    now = parse_clock(clock)
    now_ko = f"{now.year}년 {now.month}월 {now.day}일 ({_WEEKDAYS_KO[now.weekday()]}) {now:%H:%M}"
    now_en = f"{_WEEKDAYS_EN[now.weekday()]} {now:%Y-%m-%d %H:%M}"
    if language == "en":
        return SYSTEM_EN.format(now_en=now_en)
    if language != "ko":
        raise ValueError(f"language must be 'ko' or 'en', not {language!r}")
    return SYSTEM_KO.format(now_ko=now_ko)


def user_prompt(query: str, query_en: str | None, language: str = "ko") -> str:
    """The question as the user asks it; the English run keeps the Korean query beside its gloss."""
    if language == "en" and query_en:
        return f"{query_en}\n\n(원문 / original: {query})"
    return query
