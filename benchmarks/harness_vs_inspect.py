"""The harness against Inspect itself: the oracle over KOPA-Bench beside a minimal Inspect task that
makes the same tool calls in the same turns with the same tools offered, run back to back in one
process.

    .venv/bin/python benchmarks/harness_vs_inspect.py                 # all 145 tasks, 1 and 4 epochs
    .venv/bin/python benchmarks/harness_vs_inspect.py --limit 20 --no-epochs
    .venv/bin/python benchmarks/harness_vs_inspect.py --profile oracle.prof   # + cProfile of one oracle run

Phases, each timed on its own:

1. ``warm-up``: ``kopa_bench`` with ``kopa/oracle`` once (imports, the emulator's worlds, the tool
   schemas); its trajectories are what the Inspect task replays.
2. ``inspect``: a plain Inspect task over the same samples: the same system and user prompts, the
   same tool definitions per sample (``tools.tools_for`` over the operations ``tool_set=task``
   offers, computed before the clock starts) executing on the same embedded emulator,
   ``generate(tool_calls="loop")``, a ``mockllm`` model whose outputs replay the oracle's assistant
   messages turn by turn, and a scorer that reads nothing.
3. ``kopa``: ``kopa_bench`` with ``kopa/oracle`` again, with the gold cache and the distractor lists
   emptied first, so it pays what a fresh ``inspect eval`` pays for them.
   Its golds are kept on disk (``KOPA_GOLD_CACHE_DIR``, a temporary directory).
4. ``kopa x4``: the same with ``epochs=4`` (caches emptied first, nothing read from disk).
5. ``kopa, golds on disk``: the oracle once more, in-process caches emptied, its golds read from
   the disk entries phase 3 wrote (what a second ``inspect eval`` process pays).

Both tasks run with the same sample and connection limits (``--max-samples``). The figures go to
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from kopa_inspect.backends import BackendConfig
from kopa_inspect.execution import Session
from kopa_inspect.scorers import axis_values, gold_disk
from kopa_inspect.scorers.gold_cache import GOLD_CACHE
from kopa_inspect.solvers.prompts import system_prompt, user_prompt
from kopa_inspect.task_data import distractors
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.tasks import DEFAULT_MAX_MESSAGES, select_tasks
from kopa_inspect.tools import LiveSession, select_operations, shared_backend, tools_for


def forget_task_caches() -> None:
    """Empty what a run computes once per task and keeps for the process: the golds and the
    distractor lists (a fresh ``inspect eval`` process starts without them)."""
    GOLD_CACHE.clear()
    distractors._by_kind.cache_clear()
    distractors._distractors.cache_clear()


def run_oracle(
    limit: int | None, epochs: int, log_dir: str, max_samples: int, gold_dir: str | None = None
) -> tuple[float, EvalLog]:
    """One timed ``kopa_bench`` oracle run; ``gold_dir``: keep golds on disk there (gold_disk)."""
    forget_task_caches()
    if gold_dir:
        os.environ[gold_disk.ENV] = gold_dir
    else:
        os.environ.pop(gold_disk.ENV, None)
    t0 = time.perf_counter()
    log = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        limit=limit,
        epochs=epochs,
        log_dir=log_dir,
        display="none",
        max_samples=max_samples,
        max_connections=max_samples,
    )[0]
    wall = time.perf_counter() - t0
    if log.status != "success":
        raise SystemExit(f"oracle run failed: {log.error}")
    return wall, log


# --- the minimal Inspect task -------------------------------------------------------------------


def _usage() -> ModelUsage:
    # Set, as the oracle sets it: without usage mockllm counts tokens over every prompt.
    return ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)


def trajectories(log: EvalLog) -> dict[str, list[ChatMessageAssistant]]:
    """Per sample id: the oracle's assistant messages, in order (epoch 1)."""
    return {
        str(s.id): [m for m in s.messages if isinstance(m, ChatMessageAssistant)]
        for s in log.samples or []
        if s.epoch == 1
    }


def replay_model(turns: dict[str, list[ChatMessageAssistant]]) -> Any:
    """A mockllm model that answers each sample's k-th generate with the oracle's k-th message."""
    from inspect_ai.solver._task_state import sample_state

    def next_output(messages: list[Any], *_: Any) -> ModelOutput:
        state = sample_state()
        assert state is not None
        k = sum(1 for m in messages if isinstance(m, ChatMessageAssistant))
        said = turns[str(state.sample_id)][k]
        msg = ChatMessageAssistant(
            content=said.content, tool_calls=said.tool_calls, model="mockllm/model", source="generate"
        )
        output = ModelOutput.from_message(msg, stop_reason="tool_calls" if said.tool_calls else "stop")
        output.usage = _usage()
        return output

    return get_model("mockllm/model", custom_outputs=next_output)


@solver
def offer_tools(offered: dict[str, list[str]], clocks: dict[str, str | None]) -> Solver:
    """The sample's tools over the shared embedded backend at its clock, and the system prompt."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        sid = str(state.sample_id)
        live = LiveSession(Session(shared_backend(BackendConfig()), clock=clocks[sid], seed=0))
        state.tools = list(tools_for(offered[sid], live))
        state.messages.insert(0, ChatMessageSystem(content=system_prompt(clocks[sid])))
        return state

    return solve


@scorer(metrics=[mean()])
def answered() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=1.0 if state.output.completion else 0.0)

    return score


def inspect_task(tasks: list[BenchTask]) -> Task:
    offered = {t.id: select_operations("task", t) for t in tasks}
    clocks = {t.id: t.clock for t in tasks}
    samples = [Sample(id=t.id, input=user_prompt(t.query, t.query_en)) for t in tasks]
    return Task(
        dataset=MemoryDataset(samples, name="inspect_replay"),
        setup=offer_tools(offered, clocks),
        solver=generate(tool_calls="loop"),
        scorer=answered(),
        message_limit=DEFAULT_MAX_MESSAGES,
    )


def run_inspect(
    tasks: list[BenchTask], turns: dict[str, list[ChatMessageAssistant]], log_dir: str, max_samples: int
) -> tuple[float, EvalLog]:
    task, model = inspect_task(tasks), replay_model(turns)  # tool lists and model built off the clock
    t0 = time.perf_counter()
    log = inspect_eval(
        task,
        model=model,
        log_dir=log_dir,
        display="none",
        max_samples=max_samples,
        max_connections=max_samples,
    )[0]
    wall = time.perf_counter() - t0
    if log.status != "success":
        raise SystemExit(f"inspect run failed: {log.error}")
    return wall, log


# --- figures ------------------------------------------------------------------------------------


def counts(log: EvalLog) -> dict[str, int]:
    """Samples, assistant turns, tool calls and tool results of a run."""
    samples = log.samples or []
    assistants = [m for s in samples for m in s.messages if isinstance(m, ChatMessageAssistant)]
    return {
        "samples": len(samples),
        "turns": len(assistants),
        "tool_calls": sum(len(m.tool_calls or []) for m in assistants),
        "tool_results": sum(1 for s in samples for m in s.messages if m.role == "tool"),
    }


def success(log: EvalLog) -> float:
    samples = log.samples or []
    return sum(float(axis_values(s.scores)["success"]) for s in samples) / max(1, len(samples))


def profile_oracle(limit: int | None, log_dir: str, max_samples: int, path: str, top: int) -> None:
    """One oracle run under cProfile (caches emptied first); the top functions by own time."""
    profiler = cProfile.Profile()
    forget_task_caches()
    profiler.enable()
    run_oracle(limit, 1, log_dir, max_samples)
    profiler.disable()
    profiler.dump_stats(path)
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N tasks (default: all)")
    ap.add_argument("--max-samples", type=int, default=32, help="samples and model connections at once")
    ap.add_argument("--no-epochs", action="store_true", help="skip the 4-epoch oracle run")
    ap.add_argument("--no-disk", action="store_true", help="skip the run with its golds read from disk")
    ap.add_argument("--profile", default=None, help="also profile one oracle run, stats to this file")
    ap.add_argument("--top", type=int, default=30, help="functions shown from the profile")
    ap.add_argument("--json", default=None, help="write the figures to this file too")
    a = ap.parse_args()

    tasks = select_tasks()[: a.limit]
    out: dict[str, Any] = {"tasks": len(tasks), "max_samples": a.max_samples}
    with tempfile.TemporaryDirectory() as log_dir:
        warm, first = run_oracle(a.limit, 1, str(Path(log_dir) / "warm"), a.max_samples)
        out["warm_up_s"] = round(warm, 1)
        inspect_s, inspect_log = run_inspect(
            tasks, trajectories(first), str(Path(log_dir) / "inspect"), a.max_samples
        )
        gold_dir = str(Path(log_dir) / "golds")  # filled by this run, read by the last one
        kopa_s, kopa_log = run_oracle(a.limit, 1, str(Path(log_dir) / "kopa"), a.max_samples, gold_dir)
        out |= {
            "inspect_s": round(inspect_s, 1),
            "kopa_s": round(kopa_s, 1),
            "kopa_over_inspect": round(kopa_s / inspect_s, 2),
            "oracle_success": round(success(kopa_log), 4),
            "kopa_counts": counts(kopa_log),
            "inspect_counts": counts(inspect_log),
        }
        if out["kopa_counts"] != out["inspect_counts"]:
            raise SystemExit(f"the two runs differ: {out['kopa_counts']} vs {out['inspect_counts']}")
        if not a.no_epochs:
            x4_s, x4_log = run_oracle(a.limit, 4, str(Path(log_dir) / "x4"), a.max_samples)
            out |= {
                "kopa_x4_s": round(x4_s, 1),
                "x4_over_x1": round(x4_s / kopa_s, 2),
                "x4_success": round(success(x4_log), 4),
            }
        if not a.no_disk:
            disk_s, disk_log = run_oracle(a.limit, 1, str(Path(log_dir) / "disk"), a.max_samples, gold_dir)
            out |= {
                "kopa_golds_on_disk_s": round(disk_s, 1),
                "on_disk_over_inspect": round(disk_s / inspect_s, 2),
                "on_disk_success": round(success(disk_log), 4),
            }
        if a.profile:
            profile_oracle(a.limit, str(Path(log_dir) / "profile"), a.max_samples, a.profile, a.top)
    print(json.dumps(out, indent=2))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
