"""Reward functions for GRPO, reusing the scorers' matching and the backends' execution.

Each function has TRL's signature ``(prompts, completions, **kwargs) -> list[float | None]``
(None: not applicable to this row) and is logged under its own name. The math lives in the
module-level ``*_score`` functions, framework-free, so a verl ``compute_score`` adapter can call
them too. Row columns used: kind ("call" | "answer"), target_calls_json, facts_json, clock,
seed (see data.py).

- outcome_reward: the paper's binary reward (ToolRL/Tool-N1 style for one step): 1 when the
  step is exactly right: the target call(s) with matching arguments, or a final answer that
  holds every required fact.
- format_reward: a parseable tool call or a non-empty answer.
- tool_name_reward: Jaccard of called tool names vs the target's.
- argument_reward: per target call, argument-name Jaccard and share of values that match
  (normalized as the scorer normalizes), averaged.
- execution_reward: share of predicted calls the backend answers with its OK code.
- answer_reward: share of required facts the final answer states.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from kopa_grpo.parsing import ParsedCompletion, parse_completion
from kopa_inspect import matching
from kopa_inspect.backends import Backend, BackendConfig, make_backend
from kopa_inspect.execution import Session

Call = tuple[str, dict[str, Any]]


def _target_calls(raw: str) -> list[Call]:
    return [(name, args) for name, args in json.loads(raw or "[]")]


def _facts(raw: str) -> list[dict[str, Any]]:
    facts = json.loads(raw or "[]")
    return [f for f in facts if f.get("required", True)]


def fact_expected(fact: dict[str, Any]) -> Any:
    """The value a fact must state. EDGE stores the plan reference in ``value`` and what it
    resolved to in ``resolved``; ``expected`` is accepted too. A ``value`` that is still a
    reference ("$s2.items[0].x") is never a value to match; refusal facts are literals."""
    for key in ("resolved", "expected"):
        if key in fact:
            return fact[key]
    value = fact.get("value")
    return None if isinstance(value, str) and value.startswith("$") else value


# --- framework-free scores ---------------------------------------------------------------

def format_score(parsed: ParsedCompletion) -> float:
    return 1.0 if parsed.well_formed and (parsed.calls or parsed.answer) else 0.0


def tool_name_score(parsed: ParsedCompletion, kind: str, targets: list[Call]) -> float:
    if kind == "answer":
        return 1.0 if not parsed.calls and parsed.answer else 0.0
    predicted = {n for n, _ in parsed.calls}
    wanted = {n for n, _ in targets}
    if not predicted and not wanted:
        return 1.0
    return len(predicted & wanted) / len(predicted | wanted)


def argument_score(parsed: ParsedCompletion, targets: list[Call]) -> float:
    if not targets:
        return 0.0
    scores = []
    pool = list(parsed.calls)
    for name, want in targets:
        candidates = [args for n, args in pool if n == name]
        if not candidates:
            scores.append(0.0)
            continue
        best = max(candidates, key=lambda got: matching.argument_match_score(want, got))
        scores.append(matching.argument_match_score(want, best))
    return sum(scores) / len(scores)


def call_exact(parsed: ParsedCompletion, targets: list[Call]) -> bool:
    if len(parsed.calls) != len(targets):
        return False
    remaining = list(parsed.calls)
    for name, want in targets:
        hit = next((c for c in remaining if c[0] == name and matching.arguments_equal(want, c[1])), None)
        if hit is None:
            return False
        remaining.remove(hit)
    return True


def answer_score(text: str | None, facts: list[dict[str, Any]]) -> float:
    if not facts:
        return 0.0
    if not text:
        return 0.0
    held = sum(1 for f in facts if matching.fact_holds(f, fact_expected(f), text))
    return held / len(facts)


# --- TRL adapters ------------------------------------------------------------------------

def _parsed(completions: list[Any]) -> list[ParsedCompletion]:
    return [parse_completion(c) for c in completions]


def format_reward(prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float | None]:
    return [format_score(p) for p in _parsed(completions)]


def tool_name_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                     target_calls_json: list[str], **kwargs: Any) -> list[float | None]:
    return [tool_name_score(p, k, _target_calls(t)) for p, k, t in zip(_parsed(completions), kind, target_calls_json, strict=True)]


def argument_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                    target_calls_json: list[str], **kwargs: Any) -> list[float | None]:
    return [
        argument_score(p, _target_calls(t)) if k == "call" else None
        for p, k, t in zip(_parsed(completions), kind, target_calls_json, strict=True)
    ]


def answer_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                  facts_json: list[str], **kwargs: Any) -> list[float | None]:
    return [
        answer_score(p.answer, _facts(f)) if k == "answer" else None
        for p, k, f in zip(_parsed(completions), kind, facts_json, strict=True)
    ]


def outcome_reward(prompts: list[Any], completions: list[Any], kind: list[str],
                   target_calls_json: list[str], facts_json: list[str], **kwargs: Any) -> list[float | None]:
    out: list[float | None] = []
    for p, k, t, f in zip(_parsed(completions), kind, target_calls_json, facts_json, strict=True):
        if k == "call":
            out.append(1.0 if call_exact(p, _target_calls(t)) else 0.0)
        else:
            out.append(1.0 if p.answer and answer_score(p.answer, _facts(f)) == 1.0 and not p.calls else 0.0)
    return out


def _token_platforms() -> list[str]:
    from kopa_inspect.apis import platforms

    return [p.id for p in platforms().values() if p.session_token_param]


class ExecutionReward:
    """Executes predicted calls through a backend (embedded emulator by default)."""

    __name__ = "execution_reward"

    def __init__(self, backend: BackendConfig | None = None) -> None:
        self.backend_config = backend or BackendConfig()
        self._backend: Backend | None = None

    def _get_backend(self) -> Backend:
        if self._backend is None:
            self._backend = make_backend(self.backend_config)
        return self._backend

    async def score(self, parsed: ParsedCompletion, clock: str, seed: int,
                    tokens: dict[str, str] | None = None) -> float:
        """Share of the predicted calls the API accepts. ``tokens``: session tokens issued earlier
        in the trajectory (the prompt showed them), valid in this session too."""
        if not parsed.calls:
            return 0.0
        session = Session(self._get_backend(), clock=clock or None, seed=int(seed))
        session.tokens.update(tokens or {})
        auth = {f"{pid}_get_api_key": pid for pid in _token_platforms()}
        oks = []
        for name, args in parsed.calls:
            if name in auth:  # the auth tool: always answers with a fresh token
                session.issue_token(auth[name])
                oks.append(True)
                continue
            try:
                res = await session.call(name, args)
            except KeyError:  # unknown tool name (get_operation)
                oks.append(False)
                continue
            except (TypeError, ValueError):  # arguments the request builder cannot even encode
                oks.append(False)
                continue
            oks.append(res.ok)
        return sum(oks) / len(oks)

    async def __call__(self, prompts: list[Any], completions: list[Any], kind: list[str],
                       clock: list[str], seed: list[int], session_tokens_json: list[str] | None = None,
                       **kwargs: Any) -> list[float | None]:
        parsed = _parsed(completions)
        tokens = [json.loads(t or "{}") for t in (session_tokens_json or ["{}"] * len(parsed))]
        coros = [self.score(p, c, s, t) for p, c, s, t in zip(parsed, clock, seed, tokens, strict=True)]
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
