"""``kopa grid``: KOPA-Bench over a list of models with Inspect's eval_set (resumable).

A grid file (YAML)::

    log_dir: logs/grid-paper
    epochs: 8
    task_args: {tool_set: task}
    models:
      - label: Qwen3.5-9B
        model: vllm/Qwen/Qwen3.5-9B
        args: {enable_auto_tool_choice: true, tool_call_parser: qwen3_coder}

eval_set pairs each (task, model, model args) with its log, so an interrupted grid resumes and a
finished entry is not rerun.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field


class GridModel(BaseModel):
    label: str
    model: str
    args: dict[str, Any] = Field(default_factory=dict)
    epochs: int | None = None


class Grid(BaseModel):
    log_dir: str
    epochs: int = 1
    limit: int | None = None
    task: str = "kopa_inspect/kopa_bench"
    task_args: dict[str, Any] = Field(default_factory=dict)
    models: list[GridModel]
    max_tasks: int = 1


def load_grid(path: str | Path) -> Grid:
    path = Path(path)
    if not path.exists():
        builtin = Path(__file__).parent / "grids" / path.name
        if not builtin.exists():
            raise FileNotFoundError(f"grid file {path} not found")
        path = builtin
    return Grid.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def resolve_args(args: dict[str, Any]) -> dict[str, Any]:
    """``model_path: local`` means the converted local SmolLM2 folder."""
    out = dict(args)
    if out.get("model_path") == "local":
        from kopa_inspect.providers.local import prepare_local_model

        out["model_path"] = str(prepare_local_model())
    return out


def run_grid(grid: Grid, log_dir: str | None = None, **eval_kwargs: Any) -> bool:
    from inspect_ai import eval_set
    from inspect_ai.model import get_model

    log_dir = log_dir or grid.log_dir
    ok = True
    # One eval_set per distinct epoch count; each model keeps its label in the eval metadata.
    for m in grid.models:
        model = get_model(m.model, **resolve_args(m.args))
        success, _ = eval_set(
            tasks=grid.task,
            model=model,
            task_args=grid.task_args,
            log_dir=str(Path(log_dir) / _slug(m.label)),
            epochs=m.epochs or grid.epochs,
            limit=grid.limit,
            metadata={"kopa_label": m.label},
            **eval_kwargs,
        )
        ok = ok and success
    return ok


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in label).strip("-") or "model"
