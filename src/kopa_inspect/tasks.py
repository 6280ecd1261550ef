"""KOPA-Bench as an Inspect task: ``inspect eval kopa_inspect/kopa_bench --model ...``.

Task parameters (``-T name=value``): backend (embedded | served | live | replay), base_url,
recording, categories / ids (comma-separated or lists), held_out (true: only the held-out
platforms' tasks, false: none of them), tool_set (task | platforms | all | search), language
(ko | en), max_messages, max_turns, seed (the emulated world), task_file (another JSONL in the
same schema) and judge (a model for the optional model-graded answer check).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task

DEFAULT_MAX_MESSAGES = 60


def _as_list(value: str | list[str] | tuple[str, ...] | None) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


def build_dataset(
    task_file: str | None = None,
    categories: str | list[str] | None = None,
    ids: str | list[str] | None = None,
    held_out: bool | None = None,
    language: str = "ko",
) -> Any:
    from inspect_ai.dataset import MemoryDataset, Sample

    from kopa_inspect.solvers.prompts import user_prompt
    from kopa_inspect.task_data.schema import load_tasks

    tasks = load_tasks(task_file)
    cats, wanted = _as_list(categories), _as_list(ids)
    if cats is not None:
        tasks = [t for t in tasks if t.category in cats]
    if wanted is not None:
        tasks = [t for t in tasks if t.id in wanted]
    if held_out is not None:
        tasks = [t for t in tasks if t.held_out == bool(held_out)]
    samples = [
        Sample(
            id=t.id,
            input=user_prompt(t.query, t.query_en, language),
            target=[f.description for f in t.facts],
            metadata={
                "category": t.category,
                "domain": t.domain,
                "difficulty": t.difficulty,
                "held_out": t.held_out,
                "n_calls": t.n_calls,
                "task": t.model_dump(mode="json"),
            },
        )
        for t in tasks
    ]
    return MemoryDataset(samples, name="kopa_bench", location=str(task_file or "kopa_inspect/task_data/kopa_bench.jsonl"))


@task
def kopa_bench(
    backend: str = "embedded",
    base_url: str | None = None,
    recording: str | None = None,
    categories: str | list[str] | None = None,
    ids: str | list[str] | None = None,
    held_out: bool | None = None,
    tool_set: str = "task",
    language: str = "ko",
    max_messages: int = DEFAULT_MAX_MESSAGES,
    max_turns: int = 30,
    seed: int = 0,
    task_file: str | None = None,
    judge: str | None = None,
) -> Task:
    from kopa_inspect.backends import BackendConfig
    from kopa_inspect.scorers import kopa_judge, kopa_scorer
    from kopa_inspect.solvers import kopa_agent, kopa_cleanup, kopa_setup
    from kopa_inspect.tools import TOOL_SETS

    if tool_set not in TOOL_SETS:
        raise ValueError(f"tool_set must be one of {TOOL_SETS}, not {tool_set!r}")
    config = BackendConfig(kind=backend, base_url=base_url, recording=recording, seed=seed)  # type: ignore[arg-type]
    backend_args = config.model_dump(mode="json")
    scorers = [kopa_scorer(backend=backend_args)]
    if judge:
        scorers.append(kopa_judge(model=judge, backend=backend_args))
    return Task(
        dataset=build_dataset(task_file, categories, ids, held_out, language),
        setup=kopa_setup(backend=backend_args, tool_set=tool_set, language=language),
        solver=kopa_agent(max_turns=max_turns),
        scorer=scorers,
        message_limit=max_messages,
        cleanup=kopa_cleanup,
    )
