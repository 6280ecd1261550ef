"""What grading reads of a task, and the one kind of task graded outside the benchmark."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kopa_inspect.plans import Plan
from kopa_inspect.task_data.schema import AnswerFact


class Gradable(Protocol):
    """What grading reads of a task: a KOPA-Bench task, or an EDGE trajectory graded as a GRPO
    episode (:class:`Episode`)."""

    @property
    def plan(self) -> Plan: ...
    @property
    def facts(self) -> Sequence[AnswerFact]: ...
    @property
    def required_state(self) -> Sequence[str]: ...
    @property
    def query(self) -> str: ...
    @property
    def query_en(self) -> str: ...
    @property
    def clock(self) -> str | None: ...


@dataclass(frozen=True)
class Episode:
    """A plan and its facts graded outside the benchmark (an EDGE row as a GRPO episode): no state
    beyond what the plan needs, the user's question as the model read it."""

    plan: Plan
    facts: Sequence[AnswerFact]
    clock: str | None = None
    query: str = ""
    query_en: str = ""
    required_state: Sequence[str] = ()
