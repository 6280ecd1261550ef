"""KOPA-Bench as an Inspect task: ``inspect eval kopa_inspect/kopa_bench --model ...``.

Task parameters (``-T name=value``): backend (embedded | served | live | replay), base_url
(served only), recording (replay: the file to read; others: a file to record to), categories /
ids (comma-separated or lists), held_out (true: only the held-out platforms' tasks, false: none
of them, unset: all), tool_set (tools.TOOL_SETS), language (ko | en), max_messages, max_turns,
seed (the emulated world), task_file (another JSONL in the same schema) and judge (a model for
the optional model-graded answer check).

Every parameter is checked when the task is built, before any sample starts: a bad value stops
the eval with one line naming the valid values, and a served backend must answer once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

from inspect_ai import Task, task
from inspect_ai._util.error import PrerequisiteError

from kopa_inspect.task_version import TASK_VERSION

DEFAULT_MAX_MESSAGES = 60

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}
REACHABILITY_TIMEOUT_S = 5.0


class TaskParameterError(ValueError, PrerequisiteError):
    """A task parameter Inspect must not start samples with (one line, valid values named).

    A PrerequisiteError too, so the ``inspect`` command prints the line alone, without a traceback.
    """

    def __init__(self, message: str) -> None:
        ValueError.__init__(self, message)
        self.message = message


def _as_list(name: str, value: str | list[str] | tuple[str, ...] | None) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",") if v.strip()]
    elif isinstance(value, list | tuple):
        items = [str(v).strip() for v in value]
    else:
        raise TaskParameterError(f"{name} must be a comma-separated string or a list, not {value!r}")
    if not items:
        raise TaskParameterError(f"{name} is empty; leave it unset for all tasks")
    return items


def parse_held_out(value: bool | str | None) -> bool | None:
    """True, False or None (all tasks); strings are read strictly ("False" is false, "maybe" an error)."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise TaskParameterError(
        f"held_out must be true (only held-out platforms' tasks) or false (none of them), or unset for all, "
        f"not {value!r}"
    )


def _positive_int(name: str, value: int | str) -> int:
    try:
        number = int(value) if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        number = None
    if number is None or number < 1 or (isinstance(value, float) and value != number):
        raise TaskParameterError(f"{name} must be a positive integer, not {value!r}")
    return number


def _check_language(language: str) -> None:
    from kopa_inspect.solvers.prompts import system_prompt

    try:  # the prompts module is the one place that knows which languages exist
        system_prompt(None, language)
    except ValueError as exc:
        raise TaskParameterError(str(exc)) from None


def _shown(values: list[str], limit: int = 12) -> str:
    if len(values) <= limit:
        return ", ".join(values)
    return (
        ", ".join(values[: limit // 2])
        + f", ... ({len(values) - limit} more) ..., "
        + ", ".join(values[-limit // 2 :])
    )


def _unreachable(url: str) -> str | None:
    """None when something answers at ``url`` (any HTTP status), else the transport error's name."""
    import httpx

    try:
        httpx.get(url, timeout=REACHABILITY_TIMEOUT_S)
    except httpx.HTTPError as exc:
        return type(exc).__name__
    return None


def _check_reachable(base_url: str) -> None:
    error = _unreachable(base_url)
    if error:
        raise TaskParameterError(
            f"backend=served: base_url {base_url} cannot be reached ({error}); "
            "start the emulator with `kopa serve` or fix the URL"
        )


def _check_live_hosts(platform_ids: set[str]) -> None:
    """Each real host the selected tasks call must answer once (no key is sent: a bare GET of /)."""
    from concurrent.futures import ThreadPoolExecutor

    from kopa_inspect.apis import get_platform

    roots = sorted({get_platform(p).live_base_url.rstrip("/") + "/" for p in platform_ids})
    with ThreadPoolExecutor(max_workers=8) as pool:
        errors = dict(zip(roots, pool.map(_unreachable, roots), strict=True))
    down = {root: e for root, e in errors.items() if e}
    if down:
        shown = ", ".join(f"{root} ({e})" for root, e in list(down.items())[:3])
        raise TaskParameterError(
            f"backend=live: {len(down)} of {len(roots)} real API hosts cannot be reached: {shown}; "
            "live mode needs internet access (or use backend=embedded)"
        )


def backend_config(
    backend: str, base_url: str | None, recording: str | None, seed: int, platform_ids: set[str] | None = None
) -> Any:
    """A validated BackendConfig; a served backend (or the live hosts of ``platform_ids``) must answer
    once before any sample starts."""
    from kopa_inspect.backends import BackendConfig, BackendKind, ReplayBackend

    kinds = get_args(BackendKind)
    if backend not in kinds:
        raise TaskParameterError(f"backend must be one of {', '.join(kinds)}, not {backend!r}")
    if backend == "served":
        if not base_url:
            raise TaskParameterError("backend=served needs base_url, e.g. -T base_url=http://127.0.0.1:8090")
        import httpx

        try:
            url = httpx.URL(base_url)
        except httpx.InvalidURL:
            url = None
        if url is None or url.scheme not in ("http", "https") or not url.host:
            raise TaskParameterError(
                f"base_url must be an http(s) URL like http://127.0.0.1:8090, not {base_url!r}"
            )
        _check_reachable(base_url)
    elif base_url:
        raise TaskParameterError(f"base_url is only used with backend=served, not backend={backend}")
    config = BackendConfig(kind=backend, base_url=base_url, recording=recording, seed=seed)
    if backend == "live" and platform_ids:
        _check_live_hosts(platform_ids)
    if backend == "replay":
        if not recording:
            raise TaskParameterError("backend=replay needs recording, the JSONL file a recorded run wrote")
        try:
            ReplayBackend(config)  # reads and checks the whole file now, not at the first call
        except (OSError, ValueError, KeyError) as exc:
            raise TaskParameterError(f"backend=replay: recording {recording}: {exc}") from None
    return config


def select_tasks(
    task_file: str | None = None,
    categories: str | list[str] | None = None,
    ids: str | list[str] | None = None,
    held_out: bool | str | None = None,
) -> list[Any]:
    """The tasks the parameters select; unknown names and empty selections are errors."""
    from kopa_inspect.task_data.schema import CATEGORIES, load_tasks

    if task_file is not None and not Path(task_file).is_file():
        raise TaskParameterError(f"task_file {task_file} does not exist")
    tasks = load_tasks(task_file)
    cats, wanted, held = _as_list("categories", categories), _as_list("ids", ids), parse_held_out(held_out)
    if cats is not None:
        unknown = [c for c in cats if c not in CATEGORIES]
        if unknown:
            raise TaskParameterError(f"unknown categories {unknown}; valid: {', '.join(CATEGORIES)}")
        tasks = [t for t in tasks if t.category in cats]
    if wanted is not None:
        all_ids = [t.id for t in tasks]
        unknown = [i for i in wanted if i not in all_ids]
        if unknown:
            raise TaskParameterError(
                f"unknown task ids {unknown} (after the other filters); valid: {_shown(all_ids)} (`kopa tasks list`)"
            )
        tasks = [t for t in tasks if t.id in wanted]
    if held is not None:
        tasks = [t for t in tasks if t.held_out == held]
    if not tasks:
        present = sorted({t.category for t in load_tasks(task_file)})
        raise TaskParameterError(
            f"no task matches categories={cats} ids={wanted} held_out={held}; "
            f"categories in {task_file or 'the benchmark'}: {', '.join(present)}"
        )
    return tasks


def build_dataset(
    task_file: str | None = None,
    categories: str | list[str] | None = None,
    ids: str | list[str] | None = None,
    held_out: bool | str | None = None,
    language: str = "ko",
) -> Any:
    from inspect_ai.dataset import MemoryDataset, Sample

    from kopa_inspect.solvers.prompts import user_prompt

    _check_language(language)
    tasks = select_tasks(task_file, categories, ids, held_out)
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
    return MemoryDataset(
        samples, name="kopa_bench", location=str(task_file or "kopa_inspect/task_data/kopa_bench.jsonl")
    )


@task
def kopa_bench(
    backend: str = "embedded",
    base_url: str | None = None,
    recording: str | None = None,
    categories: str | list[str] | None = None,
    ids: str | list[str] | None = None,
    held_out: bool | str | None = None,
    tool_set: str = "task",
    language: str = "ko",
    max_messages: int = DEFAULT_MAX_MESSAGES,
    max_turns: int = 30,
    seed: int = 0,
    task_file: str | None = None,
    judge: str | None = None,
) -> Task:
    from kopa_inspect.scorers import kopa_judge, kopa_scorers
    from kopa_inspect.solvers import kopa_agent, kopa_cleanup, kopa_setup
    from kopa_inspect.tools import TOOL_SETS

    if tool_set not in TOOL_SETS:
        raise TaskParameterError(f"tool_set must be one of {', '.join(TOOL_SETS)}, not {tool_set!r}")
    max_messages = _positive_int("max_messages", max_messages)
    max_turns = _positive_int("max_turns", max_turns)
    try:
        seed = int(seed)
    except (TypeError, ValueError):
        raise TaskParameterError(f"seed must be an integer, not {seed!r}") from None
    dataset = build_dataset(task_file, categories, ids, held_out, language)
    # the backend last: the reachability checks are the only slow ones
    platform_ids = {
        p for sample in dataset for p in (sample.metadata or {}).get("task", {}).get("platforms", [])
    }
    backend_args = backend_config(backend, base_url, recording, seed, platform_ids).model_dump(mode="json")
    scorers = kopa_scorers(backend=backend_args)
    if judge:
        scorers.append(kopa_judge(model=judge, backend=backend_args))
    return Task(
        dataset=dataset,
        setup=kopa_setup(backend=backend_args, tool_set=tool_set, language=language),
        solver=kopa_agent(max_turns=max_turns),
        scorer=scorers,
        message_limit=max_messages,
        cleanup=kopa_cleanup,
        version=TASK_VERSION,
        headline_metric="kopa_success",
    )
