"""``kopa grid``: KOPA-Bench over a list of models with Inspect's eval_set (resumable).

A grid file (YAML)::

    log_dir: logs/grid-paper
    epochs: 8
    task_args: {tool_set: task}
    eval_args: {max_samples: 8}          # any other eval_set argument
    models:
      - label: Qwen3.5-9B
        model: vllm//models/Qwen3.5-9B
        args: {enable_auto_tool_choice: true, tool_call_parser: qwen3_coder}

With a ``bfcl`` section (``bfcl: {task_args: {categories: multi_turn, per_category: 20}}``) every
model also runs BFCL (``kopa_inspect/bfcl``) as its own eval_set in ``<log_dir>/bfcl/<label slug>``,
with the same label, so that ``kopa report`` puts both benchmarks side by side.

Each model runs as its own eval_set in ``<log_dir>/<label slug>``, with its label in the eval
metadata (``kopa_label``, which ``kopa report`` shows). eval_set pairs each (task, task args,
model, model args, limits) with its log, so a grid that was interrupted resumes where it stopped:
a finished model is not rerun (its logs are left untouched), a half-finished one reuses the
samples it already completed. After a change of args or epochs eval_set runs the entry again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field, model_validator


class GridModel(BaseModel):
    label: str = Field(description="the name the report shows")
    model: str = Field(
        description="an Inspect model name, e.g. vllm//models/Qwen3.5-9B, hf/local, kopa/oracle"
    )
    args: dict[str, Any] = Field(
        default_factory=dict, description="model args (-M); model_path: local = SmolLM2"
    )
    base_url: str | None = None
    epochs: int | None = Field(default=None, description="overrides the grid's epochs for this model")
    bfcl: bool = Field(default=True, description="false: not run on BFCL (e.g. the KOPA-only oracle)")


class GridBfcl(BaseModel):
    """BFCL beside KOPA-Bench for every model of the grid."""

    task: str = "kopa_inspect/bfcl"
    task_args: dict[str, Any] = Field(default_factory=dict, description="e.g. categories, per_category")
    epochs: int = 1


class Grid(BaseModel):
    log_dir: str
    epochs: int = 1
    limit: int | None = None
    task: str = "kopa_inspect/kopa_bench"
    task_args: dict[str, Any] = Field(default_factory=dict)
    eval_args: dict[str, Any] = Field(default_factory=dict, description="more eval_set arguments")
    models: list[GridModel]
    bfcl: GridBfcl | None = Field(default=None, description="also run BFCL over the same models")

    @model_validator(mode="after")
    def _unique(self) -> Grid:
        slugs = [slug(m.label) for m in self.models]
        dup = {s for s in slugs if slugs.count(s) > 1}
        if dup:
            raise ValueError(f"grid labels must be distinct (after slugging): {sorted(dup)}")
        return self


@dataclass
class GridRun:
    """What one model's eval_set did."""

    label: str
    log_dir: Path
    success: bool
    logs: list[str] = field(default_factory=list)
    reused: bool = False  # every log already existed, unchanged: nothing was rerun
    skipped: str | None = None  # why the model was not run (its weights are not there)


def load_grid(path: str | Path) -> Grid:
    """A grid file, or a built-in one by name (``paper.yaml``, ``cpu.yaml``)."""
    path = Path(path)
    if not path.exists():
        builtin = Path(__file__).parent / "grids" / path.name
        if not builtin.exists():
            known = sorted(p.name for p in (Path(__file__).parent / "grids").glob("*.yaml"))
            raise FileNotFoundError(f"grid file {path} not found (built-in grids: {', '.join(known)})")
        path = builtin
    return Grid.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def resolve_args(args: dict[str, Any]) -> dict[str, Any]:
    """``model_path: local`` means the converted local SmolLM2 folder (prepared on first use)."""
    out = dict(args)
    if out.get("model_path") == "local":
        from kopa_inspect.providers.local import prepare_local_model

        out["model_path"] = str(prepare_local_model())
    return out


def slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in label).strip("-") or "model"


def missing_weights(m: GridModel) -> str | None:
    """A local checkpoint the model needs that does not exist (not trained yet), else None.

    Checked before starting so that one missing checkpoint does not stop the rest of the grid:
    ``model_path`` args (hf/local) and ``vllm//abs/path`` model names.
    """
    path = m.args.get("model_path")
    if isinstance(path, str) and path != "local" and not Path(path).exists():
        return f"model_path {path} does not exist"
    if m.model.startswith("vllm//") and not Path(m.model[len("vllm/") :]).exists():
        return f"{m.model[len('vllm/') :]} does not exist"
    return None


def _log_files(log_dir: Path) -> dict[str, float]:
    from inspect_ai.log import list_eval_logs

    if not log_dir.exists():
        return {}
    out = {}
    for info in list_eval_logs(str(log_dir)):
        p = Path(info.name.removeprefix("file://"))
        if p.exists():
            out[str(p.resolve())] = p.stat().st_mtime
    return out


def run_grid(
    grid: Grid,
    log_dir: str | Path | None = None,
    only: list[str] | None = None,
    models: dict[str, Any] | None = None,
    **eval_kwargs: Any,
) -> list[GridRun]:
    """Run every model of ``grid`` (or the labels in ``only``), one eval_set each.

    ``models`` maps a label to a ready Inspect ``Model`` used instead of the grid's model string
    (a model built in Python, e.g. one with custom outputs); ``eval_kwargs`` go to eval_set after
    the grid's own ``eval_args``.
    """
    from inspect_ai import eval_set

    root = Path(log_dir or grid.log_dir)
    selected = grid.models
    if only:
        unknown = set(only) - {m.label for m in grid.models}
        if unknown:
            raise ValueError(f"no model labelled {sorted(unknown)} in the grid")
        selected = [m for m in grid.models if m.label in only]
    runs = []
    for m in selected:
        sub = root / slug(m.label)
        override = (models or {}).get(m.label)
        reason = None if override is not None else missing_weights(m)
        if reason:
            runs.append(GridRun(label=m.label, log_dir=sub, success=False, skipped=reason))
            continue
        before = _log_files(sub)
        model_kwargs: dict[str, Any] = (
            {"model": override}
            if override is not None
            else {"model": m.model, "model_args": resolve_args(m.args), "model_base_url": m.base_url}
        )
        kwargs = {**grid.eval_args, **eval_kwargs}
        success, logs = eval_set(
            tasks=grid.task,
            task_args=grid.task_args,
            log_dir=str(sub),
            epochs=m.epochs or grid.epochs,
            limit=grid.limit,
            metadata={"kopa_label": m.label},
            **model_kwargs,
            **kwargs,
        )
        after = _log_files(sub)
        paths = [str(Path(log.location.removeprefix("file://")).resolve()) for log in logs]
        reused = bool(paths) and all(p in before and before[p] == after.get(p) for p in paths)
        if grid.bfcl is not None and m.bfcl:
            # A sibling folder, not inside ``sub``: each eval_set reads only its own logs.
            bfcl_dir = root / "bfcl" / slug(m.label)
            bfcl_before = _log_files(bfcl_dir)
            bfcl_success, bfcl_logs = eval_set(
                tasks=grid.bfcl.task,
                task_args=grid.bfcl.task_args,
                log_dir=str(bfcl_dir),
                epochs=grid.bfcl.epochs,
                metadata={"kopa_label": m.label},
                **model_kwargs,
                **kwargs,
            )
            bfcl_after = _log_files(bfcl_dir)
            bfcl_paths = [str(Path(log.location.removeprefix("file://")).resolve()) for log in bfcl_logs]
            success = success and bfcl_success
            reused = reused and all(
                p in bfcl_before and bfcl_before[p] == bfcl_after.get(p) for p in bfcl_paths
            )
            paths += bfcl_paths
        runs.append(GridRun(label=m.label, log_dir=sub, success=bool(success), logs=paths, reused=reused))
    return runs
