"""Multi-turn GRPO rollouts: an environment per rollout whose methods are the real tools.

TRL's ``environment_factory`` renders an environment's public methods as the tools a rollout
may call, one instance per rollout (isolated sessions). The tools of a row are the tools of its
trajectory plus its distractors (EDGE's ``tools_json``), never a whole platform: a catalog platform
has hundreds of operations (Seoul's 746 made a 422k-token prompt). :func:`environment_factories`
builds one environment class per tool set (the row's ``environment`` column, :func:`tools_key`). Each method has the operation's real parameter
names and types in its signature and its Korean/English description in its docstring
(transformers' ``get_json_schema`` reads both), and executes through the same
:class:`~kopa_inspect.execution.Session` as the benchmark's tools.

:func:`episode_outcome_reward` is the paper's binary outcome-and-state reward: the finished
rollout is graded with the KOPA-Bench grader (facts stated, required gold calls made, state
such as session tokens reached) against the gold plan executed on the same backend.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import keyword
from functools import cache
from typing import Any

from kopa_inspect.apis import get_platform, operations
from kopa_inspect.apis._schema import auth_tool_name, schema_errors
from kopa_inspect.apis._spec import Operation
from kopa_inspect.backends import Backend, BackendConfig, make_backend
from kopa_inspect.execution import Session

_PY_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list}

_BACKENDS: dict[tuple[str, int], Backend] = {}
_BACKEND_CONFIG = BackendConfig()


def use_backend(config: BackendConfig) -> None:
    """Choose the backend every environment executes through (embedded emulator by default)."""
    global _BACKEND_CONFIG
    _BACKEND_CONFIG = config


def world_backend(seed: int = 0, config: BackendConfig | None = None) -> Backend:
    """The backend of a row's world, one per (configuration, seed): EDGE synthesizes a trajectory
    in the emulator world of its run's seed (edge_synth.pipeline: make_backend(cfg.backend,
    seed=cfg.seed)) and stores that seed in the row, so everything that executes for the row runs
    there: its episode (in the seed-0 world a seed-1 row's query names restaurants and rows that are
    not there: its gold calls and answer earned 29/200) and the step rewards' execution
    (rewards.ExecutionReward: a seed-1 row's gold call scored 0, a wrong one 1.0). ``config``: the
    backend's configuration (its seed is replaced by ``seed``); default the one use_backend chose."""
    config = config or _BACKEND_CONFIG
    key = (config.model_dump_json(exclude={"seed"}), int(seed))
    if key not in _BACKENDS:
        _BACKENDS[key] = make_backend(config, seed=int(seed))
    return _BACKENDS[key]


class KopaToolEnv:
    """Base environment; subclasses get one async method per operation."""

    platforms: tuple[str, ...] = ()

    def reset(self, **row: Any) -> str | None:
        self.row = row
        seed = int(row.get("seed", 0))
        self.session = Session(world_backend(seed), clock=row.get("clock") or None, seed=seed)
        self.call_log: list[dict[str, Any]] = []
        return None

    async def _call(self, op_id: str, args: dict[str, Any]) -> str:
        refused = schema_errors(op_id, args)
        if refused:
            # Inspect checks every call against the tool's schema before running it and answers
            # with this message; the KOPA-Bench harness never executes such a call, nor does this.
            # TRL calls an environment method with whatever arguments the rollout wrote (the
            # signature is only rendered), so without it an extra argument, a hidden parameter
            # (dataType) or "60" for an integer would run here. Gold calls are stored in the
            # schema's types (apis._schema.coerce_call), so no gold move is refused.
            self.call_log.append({"tool": op_id, "args": dict(args), "ok": False})
            return refused
        from kopa_inspect.tools import call_entry  # Inspect's tool module, loaded on first call

        args = {k: v for k, v in args.items() if v is not None}
        result = await self.session.call(op_id, args)
        # the record the Inspect tools keep (shown records' fingerprints, totalCount, API code):
        # the grader grounds facts by them
        self.call_log.append({**call_entry(result), "args": args})
        if not result.ok:
            return f"API error: {result.error_text()}"
        return result.for_model()


def _docstring(op: Operation, params: list[tuple[str, str]]) -> str:
    from kopa_inspect.apis._schema import tool_description

    summary = " ".join(tool_description(op).split("\n")[:1])
    lines = [summary, "", "Args:"]
    lines += [f"    {name}: {' '.join(desc.split())}" for name, desc in params]
    return "\n".join(lines)


def _method(op: Operation):
    platform = get_platform(op.platform)
    sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    docs: list[tuple[str, str]] = []
    visible = []
    if platform.session_token_param:
        visible.append(
            (
                platform.session_token_param,
                "string",
                True,
                f"세션 토큰 ({auth_tool_name(platform.id)} 결과) (session token)",
            )
        )
    visible += [
        (p.name, p.type, p.required, p.description)
        for p in op.visible_params
        if p.name not in platform.key_params
    ]
    for name, typ, required, desc in sorted(visible, key=lambda v: not v[2]):
        if not name.isidentifier() or keyword.iskeyword(name):
            continue  # not expressible as a Python parameter; the API default applies
        py = _PY_TYPES.get(typ, str)
        ann = py if required else (py | None)
        sig_params.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if required else None,
                annotation=ann,
            )
        )
        annotations[name] = ann
        docs.append((name, desc))

    async def method(self: KopaToolEnv, **kwargs: Any) -> str:
        return await self._call(op.id, kwargs)

    method.__name__ = op.id
    method.__qualname__ = op.id
    method.__doc__ = _docstring(op, docs)
    method.__signature__ = inspect.Signature(sig_params, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = {**annotations, "return": str}
    return method


def _auth_method(platform_id: str):
    async def method(self: KopaToolEnv) -> str:
        token = self.session.issue_token(platform_id)
        self.call_log.append({"tool": auth_tool_name(platform_id), "args": {}, "ok": True})
        return json.dumps({"token": token}, ensure_ascii=False)

    method.__name__ = auth_tool_name(platform_id)
    method.__qualname__ = method.__name__
    method.__doc__ = f"[{get_platform(platform_id).name}] API 세션 토큰 발급 (issue a session token for this platform's tools)"
    method.__annotations__ = {"return": str}
    return method


def tools_key(names: list[str] | tuple[str, ...]) -> str:
    """The environment key of a tool set: its sorted names, comma-joined."""
    return ",".join(sorted(set(names)))


_AUTH_SUFFIX = "_get_api_key"


@cache
def environment_class(key: str) -> type[KopaToolEnv]:
    """An environment whose methods are exactly the tools named in ``key`` (see tools_key)."""
    ops = operations()
    names = [n for n in key.split(",") if n]
    namespace: dict[str, Any] = {}
    platform_ids: set[str] = set()
    for name in names:
        if name in ops:
            namespace[name] = _method(ops[name])
            platform_ids.add(ops[name].platform)
        elif name.endswith(_AUTH_SUFFIX) and get_platform(name[: -len(_AUTH_SUFFIX)]).session_token_param:
            namespace[name] = _auth_method(name[: -len(_AUTH_SUFFIX)])
            platform_ids.add(name[: -len(_AUTH_SUFFIX)])
        else:
            raise ValueError(f"unknown tool {name!r} in environment key {key!r}")
    namespace["platforms"] = tuple(sorted(platform_ids))
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]
    return type(f"KopaEnv_{digest}", (KopaToolEnv,), namespace)


def environment_factories(keys: list[str]) -> dict[str, type[KopaToolEnv]]:
    return {k: environment_class(k) for k in sorted(set(keys))}


# --- the binary outcome-and-state reward ----------------------------------------------------


def _final_answer(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    for m in reversed(completion or []):
        if isinstance(m, dict) and m.get("role") == "assistant" and not m.get("tool_calls"):
            content = m.get("content")
            return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return ""


def _tool_results(completion: Any) -> list[str]:
    if not isinstance(completion, list):
        return []
    return [
        m["content"]
        if isinstance(m.get("content"), str)
        else json.dumps(m.get("content"), ensure_ascii=False)
        for m in completion
        if isinstance(m, dict) and m.get("role") == "tool"
    ]


async def _grade_one(env: KopaToolEnv, completion: Any) -> float:
    from kopa_inspect.plans import Plan
    from kopa_inspect.scorers.grading import Episode, gold_truth, grade
    from kopa_inspect.steps import scoring
    from kopa_inspect.task_data.schema import AnswerFact

    row = env.row
    plan = Plan.model_validate_json(row["plan_json"])
    facts = [
        AnswerFact.model_validate({k: v for k, v in f.items() if k in AnswerFact.model_fields})
        for f in json.loads(row["facts_json"])
    ]
    question = next(
        (
            m.get("content") or ""
            for m in row.get("prompt") or []
            if isinstance(m, dict) and m.get("role") == "user"
        ),
        "",
    )
    task = Episode(plan=plan, facts=facts, clock=row.get("clock") or None, query=question)
    gold = await gold_truth(task, env.session.backend, seed=int(row.get("seed", 0)))
    answer = _final_answer(completion)
    # The step rewards' answer checks (steps.scoring.answer_well_formed: markup, code fence, paste of
    # the results the rollout saw, a field dump, a shotgun of numbers, hedges, a refusal) hold here
    # too: the grader alone reads only the facts.
    req = [
        {**f, "resolved": gold.expected.get(f["id"])}
        for f in json.loads(row["facts_json"])
        if f.get("required", True)
    ]
    if not scoring.answer_well_formed(answer, _tool_results(completion), [f["resolved"] for f in req], req):
        return 0.0
    tokens = set(env.session.tokens)
    return grade(task, gold, answer, env.call_log, tokens, outputs=_tool_results(completion)).success


async def episode_outcome_reward(
    prompts: list[Any], completions: list[Any], environments: list[KopaToolEnv] | None = None, **kwargs: Any
) -> list[float | None]:
    if not environments:
        return [None] * len(completions)
    return list(
        await asyncio.gather(*(_grade_one(e, c) for e, c in zip(environments, completions, strict=True)))
    )
