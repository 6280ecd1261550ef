"""Solve a KOPA-Bench task by hand, as a careful agent would, and add the run to the answer corpus.

The calls go to the embedded emulator at the task's clock (seed 0), exactly as the Inspect tools
send them, and print what a model is shown. A trajectory is kept in ``.corpus-work/<name>.jsonl``
(``--as`` names it; default the task id), so several trajectories of one task can be written side
by side. Session tokens are handled as in the corpus replay: call ``<platform>_get_api_key`` first,
and later calls on that platform carry its token.

    python scripts/corpus_shell.py show kopa-017            # the question, its clock, the offered tools
    python scripts/corpus_shell.py tool hira_getHospBasisList
    python scripts/corpus_shell.py call kopa-017 hira_getHospBasisList '{"sidoCd": "110000"}' --turn 1
    python scripts/corpus_shell.py traj kopa-017
    python scripts/corpus_shell.py add kopa-017 --answer-file a.txt --label correct --kind prose \\
        --reason "…" --out tests/data/answer_corpus/part-a.jsonl
    python scripts/corpus_shell.py grade kopa-017 --answer-file a.txt   # the scorer's verdict
    python scripts/corpus_shell.py gold kopa-017            # the gold plan and values (after answering)
    python scripts/corpus_shell.py reset kopa-017

Write the answer and its label from the tool outputs before running ``grade`` or ``gold``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import typer

from kopa_inspect.apis import get_operation
from kopa_inspect.apis._schema import parameters_schema, tool_description
from kopa_inspect.backends import BackendConfig, make_backend
from kopa_inspect.scorers.corpus import (
    CorpusCall,
    CorpusItem,
    dump_item,
    load_corpus,
    outputs_of,
    replay_calls,
    turns_of,
)
from kopa_inspect.scorers.grading import gold_truth, grade
from kopa_inspect.task_data.schema import BenchTask, load_tasks

WORK = Path(".corpus-work")
app = typer.Typer(add_completion=False, no_args_is_help=True)


def _task(task_id: str) -> BenchTask:
    for t in load_tasks():
        if t.id == task_id:
            return t
    raise typer.BadParameter(f"no task {task_id}")


def _traj_path(task_id: str, name: str | None) -> Path:
    return WORK / f"{name or task_id}.jsonl"


def _traj(task_id: str, name: str | None) -> list[CorpusCall]:
    p = _traj_path(task_id, name)
    if not p.exists():
        return []
    return [
        CorpusCall.model_validate_json(line) for line in p.read_text(encoding="utf-8").splitlines() if line
    ]


def _backend() -> Any:
    return make_backend(BackendConfig())


@app.command()
def show(task_id: str) -> None:
    """The question as the model reads it, the clock, and the offered tools (task tool set)."""
    from kopa_inspect.solvers.prompts import user_prompt
    from kopa_inspect.tools import auth_platforms, select_operations

    t = _task(task_id)
    print(f"clock: {t.clock}\n\n{user_prompt(t.query, t.query_en, 'ko')}\n")
    ops = select_operations("task", t)
    for p in auth_platforms(ops):
        print(f"- {p}_get_api_key: session token for {p}")
    for op_id in ops:
        first = tool_description(get_operation(op_id)).splitlines()[0]
        print(f"- {op_id}: {first[:160]}")


@app.command()
def tool(name: str) -> None:
    """A tool's full description and parameter schema."""
    op = get_operation(name)
    print(tool_description(op))
    print(json.dumps(parameters_schema(op), ensure_ascii=False, indent=1))


@app.command()
def call(
    task_id: str,
    tool_name: str,
    args: str = typer.Argument("{}"),
    as_: str = typer.Option(None, "--as"),
    turn: int = typer.Option(None, help="the assistant turn (calls of one turn are parallel)"),
    max_chars: int = typer.Option(0, help="print at most this many characters (0: all)"),
    fields: str = typer.Option(
        None,
        help="print only these item fields (comma-separated); the model "
        "is still shown every field, and the grade reads them all",
    ),
) -> None:
    """Make one call after the trajectory's calls and print what the model is shown."""
    t = _task(task_id)
    parsed = json.loads(args)
    if not isinstance(parsed, dict):
        raise typer.BadParameter("arguments must be a JSON object")
    calls = _traj(task_id, as_)
    new = CorpusCall(tool=tool_name, args=parsed, turn=turn)

    async def run() -> str:
        from kopa_inspect.apis import get_platform
        from kopa_inspect.execution import Session

        session = Session(_backend(), clock=t.clock, seed=0)
        # earlier API calls are not re-sent; only the auth calls, for the tokens they issue
        for c in calls:
            if c.tool.endswith("_get_api_key"):
                session.issue_token(c.tool[: -len("_get_api_key")])
        if new.tool.endswith("_get_api_key"):
            session.issue_token(new.tool[: -len("_get_api_key")])
            return "token issued: later calls on this platform carry it"
        send = dict(new.args)
        param = get_platform(get_operation(new.tool).platform).session_token_param
        if param:
            send.pop(param, None)
            token = session.tokens.get(get_operation(new.tool).platform)
            if token:
                send[param] = token
        result = await session.call(new.tool, send)
        if not result.ok:
            return f"ERROR {result.error_text()}"
        text = result.for_model()
        if fields:
            keep = [f.strip() for f in fields.split(",") if f.strip()]
            shown = json.loads(text)
            shown["items"] = [{k: i.get(k) for k in keep} for i in shown.get("items") or []]
            text = json.dumps(shown, ensure_ascii=False)
        return text

    if not tool_name.endswith("_get_api_key"):
        try:
            get_operation(tool_name)
        except KeyError:
            raise typer.BadParameter(
                f"no tool {tool_name} (`show {task_id}` lists the offered ones)"
            ) from None
    text = asyncio.run(run())
    WORK.mkdir(exist_ok=True)
    with _traj_path(task_id, as_).open("a", encoding="utf-8") as f:
        f.write(new.model_dump_json(exclude_none=True) + "\n")
    print(text if not max_chars else text[:max_chars])


@app.command()
def traj(task_id: str, as_: str = typer.Option(None, "--as")) -> None:
    for c in _traj(task_id, as_):
        print(c.model_dump_json(exclude_none=True))


@app.command()
def reset(task_id: str, as_: str = typer.Option(None, "--as")) -> None:
    _traj_path(task_id, as_).unlink(missing_ok=True)


@app.command("grade")
def grade_cmd(
    task_id: str, answer_file: Path = typer.Option(...), as_: str = typer.Option(None, "--as")
) -> None:
    """The scorer's grade of the trajectory and an answer (read it after labelling)."""
    t = _task(task_id)
    calls = _traj(task_id, as_)

    async def run() -> str:
        backend = _backend()
        gold = await gold_truth(t, backend, 0)
        entries = await replay_calls(t, backend, [(c.tool, c.args) for c in calls])
        g = grade(
            t,
            gold,
            answer_file.read_text(encoding="utf-8"),
            entries,
            turns=turns_of(calls),
            records=entries,
            outputs=outputs_of(entries),
        )
        return g.explanation() + "\nfact scores: " + json.dumps(g.fact_scores, ensure_ascii=False)

    print(asyncio.run(run()))


@app.command()
def gold(task_id: str) -> None:
    """The gold plan's calls and the expected fact values (compare after answering)."""
    t = _task(task_id)

    async def run() -> Any:
        return await gold_truth(t, _backend(), 0)

    g = asyncio.run(run())
    for tool_name, args in g.calls:
        print(f"call {tool_name} {json.dumps(args, ensure_ascii=False)}")
    for f in t.facts:
        print(
            f"fact {f.id} [{f.matcher}{'' if f.required else ', optional'}] {f.description}: "
            f"{json.dumps(g.expected.get(f.id), ensure_ascii=False)[:300]}"
        )
    print("needed steps:", ", ".join(sorted(g.needs)), "| required_state:", t.required_state)


@app.command()
def add(
    task_id: str,
    answer_file: Path = typer.Option(...),
    label: str = typer.Option(...),
    kind: str = typer.Option(...),
    reason: str = typer.Option(...),
    out: Path = typer.Option(...),
    as_: str = typer.Option(None, "--as"),
    item_id: str = typer.Option(None, "--id"),
    language: str = typer.Option("ko"),
) -> None:
    """Append the trajectory and an answer, labelled, to a corpus file."""
    _task(task_id)
    existing = load_corpus(out) if out.exists() else []
    ids = {i.id for i in existing}
    if item_id is None:
        n = 1
        while f"{task_id}/{n}" in ids:
            n += 1
        item_id = f"{task_id}/{n}"
    if item_id in ids:
        raise typer.BadParameter(f"{item_id} is already in {out}")
    item = CorpusItem(
        id=item_id,
        task=task_id,
        calls=_traj(task_id, as_),
        answer=answer_file.read_text(encoding="utf-8").strip(),
        label=label,
        kind=kind,
        reason=reason,
        language=language,
    )  # type: ignore[arg-type]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as f:
        f.write(dump_item(item) + "\n")
    print(f"added {item_id} ({label}, {kind}) to {out}")


if __name__ == "__main__":
    app()
