"""The labelled answer corpus: how often the scorer agrees with a careful reader.

Each item is one run of a KOPA-Bench task written the way a real model writes it: the tool calls it
made (in order; replayed through the embedded emulator at the task's clock and seed 0, so the
scorer sees the real outputs, API codes and record fingerprints), its final answer, and a label a
person gave by reading the tool outputs: ``correct`` (every asked-for fact is right, and said as a
careful agent says it; a refusal where the data is absent and the calls showed it) or ``wrong``.
``kind`` groups items for the per-class rates (``prose_runner_up``, ``short_names``, ``hedge`` ...).

The grader's *false-negative rate* is the share of correct items it fails (success 0); its
*false-positive rate* the share of wrong items it passes (success 1). Both are reported overall and
per kind (:func:`agreement`), by ``kopa tasks agreement`` and held by ``tests/scorers/test_answer_corpus.py``.

Corpus files are JSON Lines (one :class:`CorpusItem` per line); a directory is read as all its
``*.jsonl`` files in name order. Session tokens are never stored: a call on a platform whose
auth tool the trajectory called before is sent with the token that call issued (a call before it,
or with no auth call at all, goes without one and fails as the API fails it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import Backend
from kopa_inspect.execution import Session
from kopa_inspect.scorers.grading import GoldTruth, Grade, gold_truth, grade
from kopa_inspect.scorers.run_view import AUTH_SUFFIX
from kopa_inspect.task_data.schema import BenchTask

Label = Literal["correct", "wrong"]


class CorpusCall(BaseModel):
    """One tool call of a trajectory: an API operation or a platform's auth tool."""

    model_config = ConfigDict(extra="forbid")

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    turn: int | None = None  # the assistant turn it was made in (calls of one turn run in parallel)


class CorpusItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    task: str
    calls: list[CorpusCall]
    answer: str
    label: Label
    kind: str
    reason: str = Field(min_length=3)
    language: Literal["ko", "en"] = "ko"


class CorpusError(ValueError):
    """A corpus file that cannot be read: names the file and line."""


def corpus_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        return sorted(p.glob("*.jsonl"))
    if p.is_file():
        return [p]
    raise CorpusError(f"no corpus at {p}: give a .jsonl file or a directory of them")


def load_corpus(path: str | Path) -> list[CorpusItem]:
    """Every item of a corpus file or directory; a bad line or a repeated id is an error naming it."""
    items: list[CorpusItem] = []
    seen: dict[str, str] = {}
    for f in corpus_files(path):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{f.name}:{n}"
            try:
                item = CorpusItem.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                raise CorpusError(f"{where}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
            if item.id in seen:
                raise CorpusError(f"{where}: id {item.id!r} repeats {seen[item.id]}")
            seen[item.id] = where
            items.append(item)
    return items


def _auth_platform(tool: str) -> str | None:
    if not tool.endswith(AUTH_SUFFIX):
        return None
    platform = tool[: -len(AUTH_SUFFIX)]
    try:
        has_auth = get_platform(platform).session_token_param is not None
    except KeyError:
        return None
    return platform if has_auth and auth_tool_name(platform) == tool else None


async def replay_calls(
    task: BenchTask,
    backend: Backend,
    calls: Iterable[tuple[str, Mapping[str, Any]]],
    *,
    seed: int = 0,
    fake_token: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """Execute ``calls`` in order in the task's world and record each as the Inspect tools do
    (:func:`kopa_inspect.tools.call_entry`). An auth tool issues its platform's session token, which
    later calls on that platform pass (call ``k`` passes ``fake_token[k]`` instead: a made-up one).
    A tool that is neither an operation nor an auth tool is recorded as a failed call."""
    from kopa_inspect.tools import call_entry

    session = Session(backend, clock=task.clock, seed=seed)
    out: list[dict[str, Any]] = []
    for k, (tool, raw_args) in enumerate(calls):
        args = dict(raw_args)
        platform_of_auth = _auth_platform(tool)
        if platform_of_auth is not None:
            session.issue_token(platform_of_auth)
            out.append(
                {
                    "tool": tool,
                    "args": {},
                    "token_args": [],
                    "ok": True,
                    "code": "token",
                    "message": "",
                    "total_count": None,
                    "page_no": None,
                    "n_items": 0,
                    "records": [],
                }
            )
            continue
        try:
            op = get_operation(tool)
        except KeyError:
            out.append(
                {
                    "tool": tool,
                    "args": args,
                    "token_args": [],
                    "ok": False,
                    "code": "unknown_tool",
                    "message": f"no tool named {tool}",
                    "total_count": None,
                    "page_no": None,
                    "n_items": 0,
                    "records": [],
                }
            )
            continue
        param = get_platform(op.platform).session_token_param
        if param:
            token = (fake_token or {}).get(k) or session.tokens.get(op.platform)
            args.pop(param, None)
            if token:
                args[param] = token
        result = await session.call(tool, args)
        # the text the model read, beside the log record (which never holds it)
        out.append({**call_entry(result), "output": result.for_model() if result.ok else None})
    return out


def outputs_of(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """The tool outputs a replay showed the model (:func:`replay_calls`' ``output``)."""
    return [e["output"] for e in entries if e.get("output")]


def turns_of(calls: Sequence[CorpusCall]) -> list[list[dict[str, Any]]] | None:
    """The calls grouped by assistant turn (the ``parallel`` axis), or None when no turn is given."""
    if not calls or any(c.turn is None for c in calls):
        return None
    turns: dict[int, list[dict[str, Any]]] = {}
    for c in calls:
        turns.setdefault(int(c.turn or 0), []).append({"tool": c.tool, "args": dict(c.args)})
    return [turns[t] for t in sorted(turns)]


@dataclass
class ItemResult:
    item: CorpusItem
    grade: Grade

    @property
    def passed(self) -> bool:
        return self.grade.success >= 1.0

    @property
    def agrees(self) -> bool:
        return self.passed == (self.item.label == "correct")


async def grade_item(item: CorpusItem, task: BenchTask, gold: GoldTruth, backend: Backend) -> ItemResult:
    entries = await replay_calls(task, backend, [(c.tool, c.args) for c in item.calls])
    g = grade(
        task,
        gold,
        item.answer,
        entries,
        turns=turns_of(item.calls),
        records=entries,
        outputs=outputs_of(entries),
    )
    return ItemResult(item, g)


async def grade_corpus(
    items: Sequence[CorpusItem], backend: Backend, tasks: Mapping[str, BenchTask] | None = None
) -> list[ItemResult]:
    """Grade every item (the gold truth once per task); an item naming an unknown task is an error."""
    from kopa_inspect.task_data.schema import load_tasks

    by_id = dict(tasks) if tasks is not None else {t.id: t for t in load_tasks()}
    unknown = sorted({i.task for i in items if i.task not in by_id})
    if unknown:
        raise CorpusError(f"items name tasks that do not exist: {', '.join(unknown)}")
    golds: dict[str, GoldTruth] = {}
    out: list[ItemResult] = []
    for item in items:
        task = by_id[item.task]
        if task.id not in golds:
            golds[task.id] = await gold_truth(task, backend, 0)
        out.append(await grade_item(item, task, golds[task.id], backend))
    return out


@dataclass
class Agreement:
    """False-negative / false-positive counts of one class of items (or all of them)."""

    kind: str
    correct: int = 0
    wrong: int = 0
    false_negatives: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    @property
    def fn_rate(self) -> float | None:
        return len(self.false_negatives) / self.correct if self.correct else None

    @property
    def fp_rate(self) -> float | None:
        return len(self.false_positives) / self.wrong if self.wrong else None

    def add(self, r: ItemResult) -> None:
        if r.item.label == "correct":
            self.correct += 1
            if not r.passed:
                self.false_negatives.append(r.item.id)
        else:
            self.wrong += 1
            if r.passed:
                self.false_positives.append(r.item.id)


def agreement(results: Iterable[ItemResult]) -> tuple[Agreement, list[Agreement]]:
    """The overall agreement and one per ``kind`` (sorted by name)."""
    total = Agreement("all")
    per: dict[str, Agreement] = {}
    for r in results:
        total.add(r)
        per.setdefault(r.item.kind, Agreement(r.item.kind)).add(r)
    return total, [per[k] for k in sorted(per)]


def describe(results: Sequence[ItemResult]) -> dict[str, Any]:
    """A JSON-able summary: counts, rates, and each disagreement with the grader's reason."""
    total, per = agreement(results)

    def row(a: Agreement) -> dict[str, Any]:
        return {
            "kind": a.kind,
            "correct": a.correct,
            "wrong": a.wrong,
            "false_negatives": len(a.false_negatives),
            "false_positives": len(a.false_positives),
            "fn_rate": a.fn_rate,
            "fp_rate": a.fp_rate,
        }

    return {
        "items": len(results),
        "tasks": len({r.item.task for r in results}),
        "overall": row(total),
        "per_kind": [row(a) for a in per],
        "disagreements": [
            {
                "id": r.item.id,
                "task": r.item.task,
                "label": r.item.label,
                "kind": r.item.kind,
                "reason": r.item.reason,
                "grader": r.grade.missing or ["passed"],
            }
            for r in results
            if not r.agrees
        ],
    }


def dump_item(item: CorpusItem) -> str:
    return json.dumps(item.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
