"""The benchmark's shape next to the paper's figures (``kopa tasks stats``).

Static figures come from the task file (calls per task, categories, parallel share), executed
ones from a validation run of every gold plan on the embedded emulator (links consuming
multi-record outputs, records per link: :func:`validate.validate_tasks`), and the tool figures
from what ``tool_set=task`` offers (:mod:`distractors`) and what ``search_tools`` finds
(:mod:`kopa_inspect.tool_search`). The paper's numbers are quoted from the paper, arXiv 2609.05395, and its public summaries; where
the paper reports nothing comparable the column says so.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from kopa_inspect.task_data.schema import CATEGORIES, BenchTask

# What the paper reports (the paper, arXiv 2609.05395, and its public summaries); None: not reported.
PAPER: dict[str, Any] = {
    "tasks": 145,
    "platforms": 10,
    "tools_registered": 2318,
    "mean_calls": 4.92,
    "max_calls": 14,
    "parallel_share": 0.59,
    "multi_record_share": 0.812,
    "median_link_records": 27,
    "max_link_records": 224958,
}
SEARCH_K = 10


class ShapeRow(BaseModel):
    metric: str
    value: str
    paper: str
    key: str
    number: float | None = None  # the value as a number, for --json and tests


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _row(key: str, metric: str, number: float | None, shown: str, paper: str | None = None) -> ShapeRow:
    if paper is None:
        quoted = PAPER.get(key)
        paper = (
            "not reported" if quoted is None else (_pct(quoted) if key.endswith("share") else f"{quoted:,}")
        )
    return ShapeRow(key=key, metric=metric, value=shown, paper=paper, number=number)


def search_recall(tasks: Sequence[BenchTask], k: int = SEARCH_K) -> float:
    """Share of gold tools that ``search_tools`` ranks in its top ``k`` for the task's question."""
    from kopa_inspect.tool_search import search_operations

    hit = total = 0
    for t in tasks:
        gold = set(t.plan.tools())
        if gold:
            hit += len(gold & set(search_operations(t.query, k=k)))
            total += len(gold)
    return hit / total if total else 0.0


def shape_rows(tasks: Sequence[BenchTask], *, execute: bool = True, seed: int = 0) -> list[ShapeRow]:
    """The shape table: one row per figure, this benchmark beside the paper."""
    from kopa_inspect.apis import operations
    from kopa_inspect.task_data.distractors import KINDS, distractors_by_kind, offered_operations

    tasks = list(tasks)
    if not tasks:
        raise ValueError("no tasks")
    calls = [t.n_calls for t in tasks]
    platforms = {p for t in tasks for p in t.platforms}
    rows = [
        _row("tasks", "tasks", len(tasks), str(len(tasks))),
        _row("platforms", "platforms used by tasks", len(platforms), str(len(platforms))),
        _row(
            "tools_registered", "tools (operations) registered", len(operations()), f"{len(operations()):,}"
        ),
        _row(
            "mean_calls",
            "calls per task, mean (API + auth)",
            statistics.mean(calls),
            f"{statistics.mean(calls):.2f}",
        ),
        _row("max_calls", "calls per task, max", max(calls), str(max(calls))),
    ]
    share = sum(t.parallel for t in tasks) / len(tasks)
    rows.append(_row("parallel_share", "tasks with parallel calls", share, _pct(share)))
    if execute:
        from kopa_inspect.task_data.validate import validate_tasks

        report = validate_tasks(tasks, execute=True, seed=seed)
        records = list(getattr(report, "link_records", []) or [])
        multi = report.links_multi / report.links_total if report.links_total else 0.0
        rows.append(
            _row(
                "multi_record_share",
                "links consuming multi-record outputs",
                multi,
                f"{_pct(multi)} of {report.links_total}",
            )
        )
        if records:
            med = report.median_link_records
            # The paper's "median 27 records" may be over all links or over multi-record ones only
            # (UNCERTAIN): both are shown, each beside the paper's 27.
            rows.append(
                _row("median_link_records", "records at a link, median over all links", med, f"{med:g}")
            )
            if any(n > 1 for n in records):
                mmed = report.median_multi_link_records
                rows.append(
                    _row(
                        "median_multi_link_records",
                        "records at a link, median over multi-record links",
                        mmed,
                        f"{mmed:g}",
                        paper="27",
                    )
                )
            rows.append(_row("max_link_records", "records at a link, max", max(records), f"{max(records):,}"))
        rows.append(
            _row(
                "validation_issues",
                "gold plans failing validation",
                len(report.issues),
                str(len(report.issues)),
                paper="0 (all gold runs passed)",
            )
        )
    offered = [offered_operations(t) for t in tasks]
    n_offered = [len(o) for o in offered]
    wrong = [len(set(o) - set(t.plan.tools())) / len(o) for t, o in zip(tasks, offered, strict=True) if o]
    rows.append(
        _row(
            "tools_offered",
            "tools offered per task (tool_set=task), mean [min-max]",
            statistics.mean(n_offered),
            f"{statistics.mean(n_offered):.1f} [{min(n_offered)}-{max(n_offered)}]",
        )
    )
    rows.append(
        _row(
            "distractor_share",
            "offered tools not in the gold plan, mean [min]",
            statistics.mean(wrong),
            f"{_pct(statistics.mean(wrong))} [{_pct(min(wrong))}]",
        )
    )
    kinds: Counter[str] = Counter()
    for t in tasks:
        for kind, ids in distractors_by_kind(t).items():
            kinds[kind] += len(ids)
    added = sum(kinds.values()) or 1
    rows.append(
        _row(
            "distractor_kinds",
            "added distractors: same platform / near namesake / retrieved",
            None,
            " / ".join(_pct(kinds[k] / added) for k in KINDS),
        )
    )
    recall = search_recall(tasks)
    rows.append(
        _row(
            "search_recall",
            f"gold tools in search_tools top {SEARCH_K} for the question",
            recall,
            _pct(recall),
        )
    )
    counts: Counter[str] = Counter(t.category for t in tasks)
    for cat in CATEGORIES:
        rows.append(
            _row(f"category:{cat}", f"tasks in category {cat}", counts.get(cat, 0), str(counts.get(cat, 0)))
        )
    return rows
