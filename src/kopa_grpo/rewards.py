"""Reward functions for GRPO on step rows: thin TRL adapters over kopa_inspect.steps.scoring.

Each function has TRL's signature ``(prompts, completions, **kwargs) -> list[float | None]``
(None: not applicable to this row) and is logged under its own name. The judgement itself lives
in :mod:`kopa_inspect.steps.scoring` (framework-free; the step task's scorer uses the same code,
so a verl ``compute_score`` adapter could too). Row columns used (data.step_rows writes them):
kind ("call" | "answer"), target_calls_json (token arguments kept), facts_json, tools_json (the
tools in play), tool_results_json (the earlier results the prompt showed), session_tokens_json,
clock, seed.

- outcome_reward: the paper's binary reward for one step: the exact gold call wave (no extra
  argument, tokens verbatim, no extra call, every value of its schema type as Inspect checks it),
  or an answer holding every required fact.
- format_reward: a well-formed move of the step's kind toward the gold step (see
  scoring.format_ok: an unrelated valid call, an unneeded auth call, a tool called more often
  than the gold calls it, a replay of a history call, a service key or an invented session
  token earns nothing; on answer steps no paste, fence, row listing, hedge or refusal).
- tool_name_reward: multiset Jaccard of called tool names vs the gold wave's (a replay counts
  as a wrong name); on answer steps, 1 for a well-formed answer.
- argument_reward: per gold call, argument-name Jaccard and share of gold values matched
  (credentials verbatim), averaged over max(gold, made) calls; replays and calls carrying a
  service key earn nothing.
- execution_reward: share of gold calls matched by a same-named predicted call whose result is
  the gold call's result (an unrelated call, or the right tool with a value copied from another
  row, executes OK but earns nothing). A call carrying a service key, or one Inspect's schema check
  refuses ("60" for an integer: scoring.refused), is never sent.
- answer_reward: share of required facts the answer states (subject-bound matching, other shown
  rows' values as competitors), 0 for a paste of the tool results, markup, a shotgun of numbers,
  a listing of the rows' figures, a hedge or a refusal.

A move is calls or an answer, never both (steps.parsing): prose beside a call zeroes every reward,
and so does a call block the evaluation's decoder refuses (a key beside name and arguments).
The history (the calls the prompt's earlier turns made) is read from ``prompts``.

Why every shaped reward is gated on the gold step: the weighted sum must give a move that
cannot be right nothing at all, or GRPO learns to emit the cheapest valid-looking move.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from kopa_inspect.apis._schema import auth_tool_name
from kopa_inspect.backends import Backend, BackendConfig
from kopa_inspect.execution import Session
from kopa_inspect.steps import scoring
from kopa_inspect.steps.parsing import ParsedCompletion, history_calls, parse_completion

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
    # steps.parsing decodes each <tool_call> block with the evaluation's own decoder (decode_call_block,
    # what llamacpp/local and local evaluate with), so a block it refuses (a key beside name/arguments)
    # is an ill-formed move here too
    return [parse_completion(c) for c in completions]


def _histories(prompts: list[Any] | None, n: int) -> list[list[Call]]:
    return [history_calls(p) for p in prompts] if prompts is not None and len(prompts) == n else [[]] * n


def _issued(kwargs: dict[str, Any], n: int) -> list[list[str] | None]:
    """The session tokens the prompt showed, per row; None where the column is absent (not checked)."""
    col = kwargs.get("session_tokens_json")
    if col is None:
        return [None] * n
    return [list(json.loads(t or "{}").values()) for t in col]


# --- TRL adapters ------------------------------------------------------------------------


def format_reward(
    prompts: list[Any], completions: list[Any], kind: list[str], target_calls_json: list[str], **kwargs: Any
) -> list[float | None]:
    n = len(completions)
    tools, results, facts = (_col(kwargs, c, n) for c in ("tools_json", "tool_results_json", "facts_json"))
    rows = zip(
        _parsed(completions),
        kind,
        target_calls_json,
        tools,
        results,
        facts,
        _histories(prompts, n),
        _issued(kwargs, n),
        strict=True,
    )
    out: list[float | None] = []
    for p, k, t, tl, r, f, h, tok in rows:
        req = scoring.required_facts(_facts(f))
        expected = [scoring.fact_expected(x) for x in req]
        ok = scoring.format_ok(
            p, k, _list(tl), _target_calls(t), _list(r), expected, history=h, tokens=tok, facts=req
        )
        out.append(1.0 if ok else 0.0)
    return out


def tool_name_reward(
    prompts: list[Any], completions: list[Any], kind: list[str], target_calls_json: list[str], **kwargs: Any
) -> list[float | None]:
    n = len(completions)
    results, facts = _col(kwargs, "tool_results_json", n), _col(kwargs, "facts_json", n)
    out: list[float | None] = []
    for p, k, t, h, r, f in zip(
        _parsed(completions), kind, target_calls_json, _histories(prompts, n), results, facts, strict=True
    ):
        answer_ok = None
        if k == "answer":
            req = scoring.required_facts(_facts(f))
            answer_ok = scoring.answer_well_formed(
                p.answer, _list(r), [scoring.fact_expected(x) for x in req], req
            )
        out.append(scoring.tool_name_score(p, k, _target_calls(t), h, answer_ok))
    return out


def argument_reward(
    prompts: list[Any], completions: list[Any], kind: list[str], target_calls_json: list[str], **kwargs: Any
) -> list[float | None]:
    n = len(completions)
    return [
        scoring.argument_score(p, _target_calls(t), h) if k == "call" else None
        for p, k, t, h in zip(
            _parsed(completions), kind, target_calls_json, _histories(prompts, n), strict=True
        )
    ]


def answer_reward(
    prompts: list[Any], completions: list[Any], kind: list[str], facts_json: list[str], **kwargs: Any
) -> list[float | None]:
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


def outcome_reward(
    prompts: list[Any],
    completions: list[Any],
    kind: list[str],
    target_calls_json: list[str],
    facts_json: list[str],
    **kwargs: Any,
) -> list[float | None]:
    results = _col(kwargs, "tool_results_json", len(completions))
    return [
        1.0 if scoring.outcome(p, k, _target_calls(t), _facts(f), _list(r)) else 0.0
        for p, k, t, f, r in zip(
            _parsed(completions), kind, target_calls_json, facts_json, results, strict=True
        )
    ]


def _auth_tools() -> dict[str, str]:
    from kopa_inspect.apis import platforms

    return {auth_tool_name(p.id): p.id for p in platforms().values() if p.session_token_param}


class ExecutionReward:
    """Executes the predicted calls that name a gold tool through a backend (embedded emulator by
    default); the reward is the share of gold calls matched by a predicted call whose result is the
    gold call's own (same rows, same total): a wrong value the API still answers OK (another row's
    code, the other district's grid) is not the gold call. A call that carries a service key or
    replays a history call is never sent."""

    __name__ = "execution_reward"

    def __init__(self, backend: BackendConfig | None = None) -> None:
        self.backend_config = backend or BackendConfig()

    def _get_backend(self, seed: int = 0) -> Backend:
        """The row's world (its ``seed``), from the one cache the episode environments use too."""
        from kopa_grpo.env import world_backend

        return world_backend(seed, self.backend_config)

    async def _result(
        self, session: Session, name: str, args: dict[str, Any], auth: dict[str, str]
    ) -> str | None:
        """A canonical form of what the API answered, or None when it did not answer OK."""
        if name in auth:  # the auth tool always answers with a fresh token: same platform, same result
            session.issue_token(auth[name])
            return f"auth:{auth[name]}"
        try:
            res = await session.call(name, args)
        except KeyError:  # unknown tool name (get_operation)
            return None
        except (TypeError, ValueError):  # arguments the request builder cannot even encode
            return None
        if not res.ok:
            return None
        return json.dumps(
            [res.parsed.total_count, res.parsed.items], ensure_ascii=False, sort_keys=True, default=str
        )

    def _session(self, clock: str, seed: int, tokens: dict[str, str] | None) -> Session:
        session = Session(self._get_backend(int(seed)), clock=clock or None, seed=int(seed))
        session.tokens.update(tokens or {})
        return session

    async def score(
        self,
        parsed: ParsedCompletion,
        clock: str,
        seed: int,
        targets: list[Call] | None = None,
        tokens: dict[str, str] | None = None,
        history: list[Call] | None = None,
    ) -> float:
        """``tokens``: session tokens issued earlier in the trajectory (the prompt showed them),
        valid in this session too. ``targets`` None: every predicted call that the API answers OK
        counts (legacy use, no gold to compare with)."""
        if not parsed.calls or not parsed.well_formed:
            return 0.0
        auth = _auth_tools()
        rep = scoring.replays(parsed.calls, history or [], targets or [])
        # Inspect never runs a call its schema check refuses (a mistyped value, an extra argument).
        sendable = [
            c
            for c, r in zip(parsed.calls, rep, strict=True)
            if not r and not scoring.key_args(c) and not scoring.refused(c)
        ]
        if targets is None:
            session = self._session(clock, seed, tokens)
            hits = sum([await self._result(session, n, a, auth) is not None for n, a in sendable])
            return hits / len(parsed.calls)
        gold_session, session = self._session(clock, seed, tokens), self._session(clock, seed, tokens)
        gold = [await self._result(gold_session, n, a, auth) for n, a in targets]
        # Only calls to a gold tool are sent (an unrelated call is never run), each once.
        wanted = {n for n, _ in targets}
        got = [await self._result(session, n, a, auth) if n in wanted else None for n, a in sendable]
        pool = list(range(len(sendable)))
        hits = 0
        for (name, _), want in zip(targets, gold, strict=True):
            match = next(
                (i for i in pool if sendable[i][0] == name and want is not None and got[i] == want), None
            )
            if match is not None:
                pool.remove(match)
                hits += 1
        return hits / max(len(targets), len(parsed.calls))

    async def __call__(
        self,
        prompts: list[Any],
        completions: list[Any],
        kind: list[str],
        clock: list[str],
        seed: list[int],
        target_calls_json: list[str] | None = None,
        session_tokens_json: list[str] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        parsed = _parsed(completions)
        n = len(parsed)
        tokens = [json.loads(t or "{}") for t in (session_tokens_json or ["{}"] * n)]
        targets = (
            [_target_calls(t) for t in target_calls_json] if target_calls_json is not None else [None] * n
        )
        histories = _histories(prompts, n)
        coros = [
            self.score(p, c, s, tg, t, h)
            for p, c, s, tg, t, h in zip(parsed, clock, seed, targets, tokens, histories, strict=True)
        ]
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
    funcs: list[Any] = []
    for name in names:
        if name == "execution":
            funcs.append(ExecutionReward(backend))
        elif name in REWARDS:
            funcs.append(REWARDS[name])
        else:
            raise ValueError(f"unknown reward {name!r}; choose from {sorted([*REWARDS, 'execution'])}")
    return funcs
