"""Reward functions for GRPO on step rows: thin TRL adapters over kopa_inspect.steps.scoring.

Each function has TRL's signature ``(prompts, completions, **kwargs) -> list[float | None]``
(None: not applicable to this row) and is logged under its own name. The judgement itself lives
in :mod:`kopa_inspect.steps.scoring` (framework-free; the step task's scorer uses the same code,
so a verl ``compute_score`` adapter could too). Row columns used (data.step_rows writes them):
kind ("call" | "answer"), target_calls_json (token arguments kept), facts_json, tools_json (the
tools in play), tool_results_json (the earlier results the prompt showed), session_tokens_json,
clock, seed.

- outcome_reward: the paper's binary reward for one step: the exact gold call wave (no extra
  argument, tokens verbatim, no extra call), or an answer holding every required fact.
- format_reward: a well-formed move of the step's kind toward the gold step (see
  scoring.format_ok: an unrelated valid call or an unneeded auth call earns nothing).
- tool_name_reward: Jaccard of called tool names vs the gold wave's.
- argument_reward: per gold call, argument-name Jaccard and share of gold values matched
  (credentials verbatim), averaged over max(gold, made) calls.
- execution_reward: share of gold calls matched by a same-named predicted call the backend
  answers OK (an unrelated call that executes earns nothing).
- answer_reward: share of required facts the answer states (subject-bound matching), 0 for a
  paste of the tool results, markup or a shotgun of numbers.

Why every shaped reward is gated on the gold step: the weighted sum must give a move that
cannot be right nothing at all, or GRPO learns to emit the cheapest valid-looking move.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import Backend, BackendConfig, make_backend
from kopa_inspect.execution import Session
from kopa_inspect.steps import scoring
from kopa_inspect.steps.parsing import ParsedCompletion, parse_completion

Call = tuple[str, dict[str, Any]]

fact_expected = scoring.fact_expected


def _target_calls(raw: str) -> list[Call]:
    return [(name, args) for name, args in json.loads(raw or "[]")]


def _facts(raw: str) -> list[dict[str, Any]]:
    return list(json.loads(raw or "[]"))


def _list(raw: str | None) -> list[Any]:
    return list(json.loads(raw or "[]"))


def _col(kwargs: dict[str, Any], name: str, n: int, default: str = "[]") -> list[str]:
    value = kwargs.get(name)
    return list(value) if value is not None else [default] * n


def _parsed(completions: list[Any]) -> list[ParsedCompletion]:
    return [parse_completion(c) for c in completions]


# --- TRL adapters ------------------------------------------------------------------------

def format_reward(prompts: list[Any], completions: list[Any], kind: list[str], target_calls_json: list[str],
                  **kwargs: Any) -> list[float | None]:
    n = len(completions)
    tools, results, facts = (_col(kwargs, c, n) for c in ("tools_json", "tool_results_json", "facts_json"))
    out: list[float | None] = []
    for p, k, t, tl, r, f in zip(_parsed(completions), kind, target_calls_json, tools, results, facts, strict=True):
        expected = [scoring.fact_expected(x) for x in scoring.required_facts(_facts(f))]
        ok = scoring.format_ok(p, k, _list(tl), _target_calls(t), _list(r), expected)
        out.append(1.0 if ok else 0.0)
    return out


def tool_name_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                     target_calls_json: list[str], **kwargs: Any) -> list[float | None]:
    return [scoring.tool_name_score(p, k, _target_calls(t))
            for p, k, t in zip(_parsed(completions), kind, target_calls_json, strict=True)]


def argument_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                    target_calls_json: list[str], **kwargs: Any) -> list[float | None]:
    return [
        scoring.argument_score(p, _target_calls(t)) if k == "call" else None
        for p, k, t in zip(_parsed(completions), kind, target_calls_json, strict=True)
    ]


def answer_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                  facts_json: list[str], **kwargs: Any) -> list[float | None]:
    results = _col(kwargs, "tool_results_json", len(completions))
    out: list[float | None] = []
    for p, k, f, r in zip(_parsed(completions), kind, facts_json, results, strict=True):
        if k != "answer":
            out.append(None)
        elif p.calls or not p.well_formed:
            out.append(0.0)
        else:
            out.append(scoring.answer_score(p.answer, _facts(f), _list(r)))
    return out


def outcome_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                   target_calls_json: list[str], facts_json: list[str], **kwargs: Any) -> list[float | None]:
    results = _col(kwargs, "tool_results_json", len(completions))
    return [
        1.0 if scoring.outcome(p, k, _target_calls(t), _facts(f), _list(r)) else 0.0
        for p, k, t, f, r in zip(_parsed(completions), kind, target_calls_json, facts_json, results, strict=True)
    ]


def _auth_tools() -> dict[str, str]:
    from kopa_inspect.apis import platforms

    return {auth_tool_name(p.id): p.id for p in platforms().values() if p.session_token_param}


class ExecutionReward:
    """Executes the predicted calls that name a gold tool through a backend (embedded emulator by
    default); the reward is the share of gold calls matched by one that the API answered OK."""

    __name__ = "execution_reward"

    def __init__(self, backend: BackendConfig | None = None) -> None:
        self.backend_config = backend or BackendConfig()
        self._backend: Backend | None = None

    def _get_backend(self) -> Backend:
        if self._backend is None:
            self._backend = make_backend(self.backend_config)
        return self._backend

    async def _ok(self, session: Session, name: str, args: dict[str, Any], auth: dict[str, str]) -> bool:
        if name in auth:  # the auth tool always answers with a fresh token
            session.issue_token(auth[name])
            return True
        try:
            res = await session.call(name, args)
        except KeyError:  # unknown tool name (get_operation)
            return False
        except (TypeError, ValueError):  # arguments the request builder cannot even encode
            return False
        return res.ok

    async def score(self, parsed: ParsedCompletion, clock: str, seed: int, targets: list[Call] | None = None,
                    tokens: dict[str, str] | None = None) -> float:
        """``tokens``: session tokens issued earlier in the trajectory (the prompt showed them),
        valid in this session too. ``targets`` None: every predicted call counts (legacy use)."""
        if not parsed.calls:
            return 0.0
        wanted = [n for n, _ in targets] if targets is not None else [n for n, _ in parsed.calls]
        session = Session(self._get_backend(), clock=clock or None, seed=int(seed))
        session.tokens.update(tokens or {})
        auth = _auth_tools()
        pool = list(wanted)
        hits = 0
        for name, args in parsed.calls:
            if name not in pool:
                continue  # never executed: an unrelated call earns nothing
            pool.remove(name)
            hits += await self._ok(session, name, args, auth)
        return hits / max(len(wanted), len(parsed.calls))

    async def __call__(self, prompts: list[Any], completions: list[Any], kind: list[str],
                       clock: list[str], seed: list[int], target_calls_json: list[str] | None = None,
                       session_tokens_json: list[str] | None = None, **kwargs: Any) -> list[float | None]:
        parsed = _parsed(completions)
        n = len(parsed)
        tokens = [json.loads(t or "{}") for t in (session_tokens_json or ["{}"] * n)]
        targets = [_target_calls(t) for t in target_calls_json] if target_calls_json is not None else [None] * n
        coros = [self.score(p, c, s, tg, t) for p, c, s, tg, t in zip(parsed, clock, seed, targets, tokens, strict=True)]
        scores = await asyncio.gather(*coros)
        return [s if k == "call" else None for s, k in zip(scores, kind, strict=True)]


REWARDS = {
    "outcome": outcome_reward,
    "format": format_reward,
    "tool_name": tool_name_reward,
    "arguments": argument_reward,
    "answer": answer_reward,
}


def build_reward_funcs(names: list[str], backend: BackendConfig | None = None) -> list[Any]:
    funcs = []
    for name in names:
        if name == "execution":
            funcs.append(ExecutionReward(backend))
        elif name in REWARDS:
            funcs.append(REWARDS[name])
        else:
            raise ValueError(f"unknown reward {name!r}; choose from {sorted([*REWARDS, 'execution'])}")
    return funcs
