"""Distractor tools: the plausible wrong tools offered beside a task's own (``tool_set=task``).

The paper's agents pick from many live tools; a task that offers only the tools its gold plan
needs tests nothing about choosing. So every task is offered its own ``tools`` plus distractors,
computed here from the task at load time (never stored in kopa_bench.jsonl, so they follow
whatever the task file says), deterministically (same task and registry, same list):

- ``platform``: the same platform's other operations (MOLIT rent beside trade, KMA observations
  beside forecasts), the most similar to the task first;
- ``namesake``: operations whose names are nearly the gold operation's name (per-district copies
  of a Seoul dataset, ``...2_7`` siblings);
- ``retrieval``: what a keyword search for the task's question finds on *other* platforms (the
  Seoul air-quality datasets beside AirKorea).

Offered in total: at least :data:`MIN_OFFERED` operations, and never fewer distractors than gold
tools (so at least half of what is offered is wrong), with at least :data:`MIN_NEW` new ones.

The substitute rule (why some close operations are never distractors)
-----------------------------------------------------------------------
A distractor must be *wrong*: a model that calls it instead of the gold tool must not be able to
answer correctly from its output, or the scorer (which requires the gold records) would fail a
correct answer. An operation ``c`` is a *substitute* for a gold step's operation ``g`` and is
never offered as a distractor when either

1. it takes ``g``'s arguments (its required parameters are among ``g``'s parameters, same
   platform) and its output carries every field the task reads from ``g`` (the field names in
   the facts' and downstream arguments' references to that step; all of ``g``'s fields when the
   task reads none or counts the records, e.g. a ``totalCount`` or ``length()`` fact): the ``Dev`` twin of the MOLIT trade path, the
   KMA ultra-short forecast beside the short-range one for the same hour, the KASI national-day
   list beside the holiday list; or
2. it is declared in :data:`SAME_RECORDS` as serving the same records under other arguments
   (AirKorea's per-province list holds every station's current reading; Seoul's city-wide
   library list holds each district's libraries).

Rule 1 is static and errs on the safe side: it also bans operations that are wrong but look
alike to it (another district's copy of a Seoul dataset: same arguments, same fields); such
near namesakes are then not offered, which costs plausibility, never validity.

Both are checked by execution (:func:`reproducing_distractors`, run on every task in
tests/tools/test_tools.py): each distractor that can be called with a gold step's arguments is called,
and its output must not contain every distinctive value the task takes from that step (fact
values and downstream arguments; small whole numbers and echoed arguments prove nothing).
Operations of other platforms come from other parts of the emulated world (their own random
streams), so a similar dataset elsewhere does not hold the gold values.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from kopa_inspect.apis import get_operation, operations
from kopa_inspect.backends import Backend
from kopa_inspect.execution import Session
from kopa_inspect.plans import Ref, execute_plan, refs_in, to_num
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.tool_search import scores, search_operations

MIN_OFFERED = 10  # operations offered per task (the issue: at least 10)
MIN_NEW = 6  # distractors added to every task, even one whose own list is long
NAMESAKE_MIN_RATIO = 0.6  # difflib ratio of two operation names to count as near namesakes
KINDS: tuple[str, ...] = ("platform", "namesake", "retrieval")

# (holder, held): patterns over "<op id> <summary>". A holder serves the records of every held
# operation under other arguments (rule 2 above); either one is a substitute for the other (a
# district's list may hold the very records a city-wide question needs). Found by
# ``reproducing_distractors`` (tests/tools/test_tools.py) or from the emulated world's make-up.
SAME_RECORDS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    # The per-province real-time list carries every station's row, same values as per station.
    (
        re.compile(r"^airkorea_getCtprvnRltmMesureDnsty "),
        re.compile(r"^airkorea_getMsrstnAcctoRltmMesureDnsty "),
    ),
    # Seoul's city-wide library and cultural-event lists hold each district's rows.
    (re.compile(r"^seoul_SeoulPublicLibraryInfo "), re.compile(r"^seoul_[A-Z]{2}LibraryInfo ")),
    (re.compile(r"^seoul_culturalEventInfo "), re.compile(r"^seoul_[A-Z]{2}CultureEventInfo ")),
    # Every Assembly's per-member bill statistics have one row per member, like the members' list
    # (their totalCount is the number of seats, 300 in every Assembly).
    (re.compile(r"의원별 법률안 발의 통계"), re.compile(r"^assembly_nwvrqwxyaytdsfvhu ")),
)


@cache
def _record_roles(op_id: str) -> tuple[frozenset[int], frozenset[int]]:
    """(SAME_RECORDS entries this operation holds for, entries it is held by)."""
    op = get_operation(op_id)
    text = f"{op.id} {op.summary}"
    holds = frozenset(i for i, (holder, _) in enumerate(SAME_RECORDS) if holder.search(text))
    held = frozenset(i for i, (_, held) in enumerate(SAME_RECORDS) if held.search(text))
    return holds, held


def _same_records(a: str, b: str) -> bool:
    (a_holds, a_held), (b_holds, b_held) = _record_roles(a), _record_roles(b)
    return bool(a_holds & b_held or b_holds & a_held)


_IDENT = re.compile(r"[A-Za-z_가-힣][\w가-힣]*")
# Paging parameters: sharing only these is not "taking the step's arguments".
_PAGING = frozenset({"numOfRows", "pageNo", "pSize", "pIndex", "START_INDEX", "END_INDEX", "display", "page"})
# Reference words that read the record list as a whole (JMESPath length(), the envelope's count).
_WHOLE_LIST = frozenset({"totalCount", "length", "list_total_count"})


def _reads(value: Any, step_id: str, *, all_outputs: bool = False) -> list[Ref]:
    """The references inside ``value`` that read a path of ``step_id``'s output; with
    ``all_outputs`` also the facts' ``$_.`` references (JMESPath over every output, so they may
    read any step). The walk is the plan's own (:func:`kopa_inspect.plans.refs_in`)."""
    steps = {step_id, "_"} if all_outputs else {step_id}
    return [r for r in refs_in(value) if r.ref in steps and r.path]


def fields_read(task: BenchTask, step_id: str) -> set[str]:
    """Output field names the task reads from one gold step (facts and downstream arguments)."""
    fields = set(get_operation(next(s.tool for s in task.plan.steps if s.id == step_id)).output_fields)
    refs: list[Ref] = []
    for fact in task.facts:
        refs += _reads(fact.model_dump(), step_id, all_outputs=True)
    for step in task.plan.steps:
        refs += _reads(step.args, step_id)
    names = {name for r in refs for name in _IDENT.findall(r.path or "")}
    if names & _WHOLE_LIST:
        # A count or a length reads the whole record list: only the same records reproduce it.
        return set(fields)
    return names & fields


def is_substitute(candidate: str, gold: str, read: set[str] | None = None) -> bool:
    """Whether ``candidate`` could stand in for the gold operation ``gold`` (see the module doc)."""
    if candidate == gold:
        return True
    if _same_records(candidate, gold):
        return True
    c, g = get_operation(candidate), get_operation(gold)
    if c.platform != g.platform:
        return False
    g_params = {p.name for p in g.visible_params}
    if not {p.name for p in c.visible_params if p.required} <= g_params:
        return False
    needed = set(read) if read else set(g.output_fields)
    return needed <= set(c.output_fields)


def _substitutes(task: BenchTask) -> set[str]:
    out: set[str] = set()
    known = operations()
    reads = [(s.tool, fields_read(task, s.id)) for s in task.plan.steps if s.tool in known]
    for op_id in known:
        if any(is_substitute(op_id, tool, read) for tool, read in reads):
            out.add(op_id)
    return out


def _platform_candidates(task: BenchTask, base: set[str], query: str) -> list[str]:
    plats = set(task.platforms) | {get_operation(t).platform for t in base}
    pool = [op.id for op in operations().values() if op.platform in plats and op.id not in base]
    ranked = [op_id for _, op_id in scores(query, pool)] if pool else []
    return ranked + sorted(set(pool) - set(ranked))


_AFFIX = re.compile(r"^(get)|(list|info|inqire|svc|\d+(_\d+)?)+$")


def _core_name(name: str) -> str:
    """An operation name without the affixes every portal repeats (``get...List``, ``...Info2``)."""
    core = name.lower()
    while True:
        stripped = _AFFIX.sub("", core)
        if stripped == core or not stripped:
            return core
        core = stripped


@cache
def _namesakes_of(gold: str) -> tuple[tuple[float, str], ...]:
    """(-similarity, op id) of the operations whose core name is nearly ``gold``'s."""
    target = _core_name(get_operation(gold).name)
    out = []
    for op in operations().values():
        if op.id == gold:
            continue
        m = difflib.SequenceMatcher(None, _core_name(op.name), target)
        if m.real_quick_ratio() >= NAMESAKE_MIN_RATIO and m.quick_ratio() >= NAMESAKE_MIN_RATIO:
            r = m.ratio()
            if r >= NAMESAKE_MIN_RATIO:
                out.append((-r, op.id))
    return tuple(sorted(out))


def _namesake_candidates(task: BenchTask, base: set[str]) -> list[str]:
    gold = task.plan.tools() or sorted(base)
    best: dict[str, float] = {}
    for g in gold:
        for neg, op_id in _namesakes_of(g):
            best[op_id] = min(best.get(op_id, 0.0), neg)
    return [op_id for op_id, _ in sorted(best.items(), key=lambda x: (x[1], x[0])) if op_id not in base]


def _retrieval_candidates(task: BenchTask, base: set[str], rich_query: str) -> list[str]:
    """Other platforms' operations a search finds: for the question as asked, then for the
    question plus what the gold tools do (so a short question still yields enough)."""
    plats = set(task.platforms) | {get_operation(t).platform for t in base}
    pool = [op.id for op in operations().values() if op.platform not in plats]
    if not pool:
        return []
    found = search_operations(task.query, k=40, pool=pool) + search_operations(rich_query, k=60, pool=pool)
    return list(dict.fromkeys(found))


def n_distractors(task: BenchTask) -> int:
    """How many distractors to add: enough for MIN_OFFERED and for at least half wrong tools."""
    base = [t for t in dict.fromkeys(task.tools) if t in operations()]
    gold = set(task.plan.tools())
    wrong_already = len(set(base) - gold)
    return max(MIN_OFFERED - len(base), len(gold) - wrong_already, MIN_NEW)


# The operations distractors are drawn from, frozen (task_data/distractor_pool.txt): an operation the
# emulator gains later (a client's call) changes no task's tools, and cannot answer in place of a gold
# tool by chance (the officetel lists hold counts and 동 names the apartment tasks need).
DISTRACTOR_POOL = Path(__file__).with_name("distractor_pool.txt")


@cache
def distractor_pool() -> frozenset[str]:
    return frozenset(DISTRACTOR_POOL.read_text(encoding="utf-8").split())


def distractors(task: BenchTask) -> list[str]:
    """The distractor operation ids for ``task`` (not in ``task.tools``), in a stable order."""
    return list(_distractors(task.model_dump_json()))


def distractors_by_kind(task: BenchTask) -> dict[str, list[str]]:
    """Which selection picked each distractor (for ``kopa tasks stats`` and tests)."""
    return {kind: list(ids) for kind, ids in _by_kind(task.model_dump_json()).items()}


@cache
def _by_kind(task_json: str) -> dict[str, tuple[str, ...]]:
    task = BenchTask.model_validate_json(task_json)
    known = operations()
    base = {t for t in task.tools if t in known}
    banned = base | _substitutes(task)
    # What the needed tools do (for an unanswerable task: what its own tools do).
    gold_text = " ".join(get_operation(t).summary for t in (task.plan.tools() or sorted(base)))
    query = f"{task.query} {gold_text}"
    pool = distractor_pool()
    queues = {
        "platform": _platform_candidates(task, base, query),
        "namesake": _namesake_candidates(task, base),
        "retrieval": _retrieval_candidates(task, base, query),
    }
    queues = {kind: [op for op in ids if op in pool] for kind, ids in queues.items()}
    want = n_distractors(task)
    picked: dict[str, list[str]] = {k: [] for k in KINDS}
    taken: set[str] = set()
    # Round robin over the kinds, so every task gets a mix; a kind that runs dry is skipped.
    positions = dict.fromkeys(KINDS, 0)
    while len(taken) < want and any(positions[k] < len(queues[k]) for k in KINDS):
        for kind in KINDS:
            queue = queues[kind]
            while positions[kind] < len(queue):
                op_id = queue[positions[kind]]
                positions[kind] += 1
                if op_id not in banned and op_id not in taken:
                    picked[kind].append(op_id)
                    taken.add(op_id)
                    break
            if len(taken) >= want:
                break
    return {k: tuple(v) for k, v in picked.items()}


@cache
def _distractors(task_json: str) -> tuple[str, ...]:
    by_kind = _by_kind(task_json)
    chosen = {op_id for ids in by_kind.values() for op_id in ids}
    # Stable order independent of the round robin: sorted ids (the tool list a model sees).
    return tuple(sorted(chosen))


def offered_operations(task: BenchTask) -> list[str]:
    """What ``tool_set=task`` offers: the task's own tools and its distractors, sorted by id, so
    a tool's place in the list says nothing about whether the gold plan uses it."""
    known = operations()
    return sorted({t for t in task.tools if t in known} | set(distractors(task)))


def substitutes_of(task: BenchTask) -> set[str]:
    """Operations never offered as distractors for ``task`` (rule 1 and 2 substitutes)."""
    return _substitutes(task)


# --- verification by execution ------------------------------------------------------------------


def _leaves(value: Any) -> Iterable[str]:
    """Every scalar inside a value, normalized (numbers without formatting, strings stripped)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    elif value is not None and not isinstance(value, bool):
        num = to_num(value)
        yield repr(num) if num is not None else str(value).strip()


def _needed_values(task: BenchTask, step_id: str, run: Any) -> set[str]:
    """Values the task takes from one gold step: the required facts that read it, the arguments
    of the steps that consume it."""
    needed: set[str] = set()
    for fact in task.facts:
        if fact.required and _reads(fact.value, step_id, all_outputs=True):
            needed |= set(_leaves(fact.resolve(run.outputs)))
    for step in task.plan.steps:
        for arg, value in step.args.items():
            if _reads(value, step_id):
                needed |= set(_leaves(run.args[step.id][arg]))
    # A value the step was given (a filter echoed in every row) proves nothing either.
    needed -= set(_leaves(run.args.get(step_id, {})))
    # Small whole numbers (counts, codes like 1) turn up in any output by chance; they decide
    # nothing. A step is reproduced when every distinctive value it gives is found.
    return {v for v in needed if _distinctive(v)}


def _distinctive(value: str) -> bool:
    num = to_num(value)
    if num is not None and not isinstance(num, str):
        return abs(num) >= 100 or not float(num).is_integer()
    return len(value) >= 2


async def reproducing_distractors(task: BenchTask, backend: Backend, seed: int = 0) -> list[tuple[str, str]]:
    """(gold step id, distractor) pairs where the distractor, called with the gold step's
    arguments (those it takes), returns every value the task needs from that step: a distractor
    that could answer in the gold tool's place. Empty for a correct distractor set."""
    session = Session(backend, clock=task.clock, seed=seed)
    run = await execute_plan(task.plan, session)
    found: list[tuple[str, str]] = []
    for step in task.plan.steps:
        needed = _needed_values(task, step.id, run)
        if not needed or step.expect_error:
            continue
        for op_id in distractors(task):
            op = get_operation(op_id)
            names = {p.name for p in op.visible_params} | {p.name for p in op.params if p.hidden}
            args = {k: v for k, v in run.args[step.id].items() if k in names}
            visible = {k for k in args if op.param(k) is not None and not op.param(k).hidden}  # type: ignore[union-attr]
            if not visible - _PAGING or any(
                p.required and not p.hidden and p.name not in args for p in op.params
            ):
                continue  # cannot be called with this step's arguments
            res = await session.call(op_id, args)
            if res.ok and needed <= set(_leaves(res.output())):
                found.append((step.id, op_id))
    return found
