"""KOPA-Bench task data: the 145 tasks (kopa_bench.jsonl), their schema, authoring and validation."""

from kopa_inspect.task_data.schema import HELD_OUT_PLATFORMS, AnswerFact, BenchTask, load_tasks

__all__ = ["HELD_OUT_PLATFORMS", "AnswerFact", "BenchTask", "load_tasks"]
