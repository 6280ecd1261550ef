"""ACTION and ENVIRONMENT attacks: the oracle's trajectory mutated, graded with the oracle's answer.

Every task of the benchmark (145), embedded backend, seed 0. Each attack changes only the calls
(executed and recorded as the Inspect tools record them, `_calls.py`) and keeps the oracle's
answer, so what it measures is what the ACTION/ENVIRONMENT axes give the mutated calls:

- ``repeat``: the gold trajectory with its last call repeated to 20 in all. call_f1 and efficiency
  must drop (want 0 at 1.0); success may stay (the calls are read-only and the answer is right).
- ``spray``: the gold trajectory plus one call to every offered distractor tool (the gold steps'
  arguments it takes) and each gold call again at 3 other page sizes and page 2. call_f1 and
  efficiency must drop; with a refusal instead of the oracle's answer no answerable task passes.
- ``failing``: each gold call made so that the API refuses it (a session platform's call with a
  made-up token; else a paging value ``x``; else its first required argument left out): the
  failed calls alone must earn no call_f1 (want 0 tasks with call_f1 > 0), no chain, no env.
- ``filter``: one needed call at a time gets an extra *real* filter of its operation (a parameter
  the gold leaves out, set to a junk value) that answers OK without the needed records: the step
  must not count as retrieved (want 0). Control: an extra argument the operation does not have
  (the API ignores it) still counts (want all).
- ``no_producer`` / ``producer_after``: per data-flow link, the consumer called with the gold's
  literal value (typed from memory) while the producer call is dropped, or made only as the last
  call: the link must not count as realized (want 0). Success is by outcome (task version 8): a
  value typed from memory that returned the right records is no cheat, so a dropped producer
  fails success only where a fact reads the producer's own records (counted, not wanted 0).
- ``token``: tasks with a session-token platform: the auth tool called but every call of the
  platform made with a made-up token; no auth call and made-up tokens; the auth tool only with
  the platform's calls dropped: the token state is never reached (want 0).
- ``unanswerable``: the refusal with no calls: the action axes (call_f1, chain, env, efficiency)
  are full where the gold has no needed (evidence) call and zero where it has.
- ``wander``: where the gold has no needed call, the refusal after one wandering call (the task's
  first tool, each required argument "1"): a wasted call, so efficiency must not be 1.0 (want 0).

Run: ``.venv/bin/python benchmarks/scoring_validity/action_attacks.py``
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from typing import Any

from _calls import auth_calls, run_calls  # this folder is on sys.path when run as a script

from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.backends import BackendConfig
from kopa_inspect.matching import IGNORED_ARGS, PAGING_ARGS
from kopa_inspect.plans import SESSION_STEP
from kopa_inspect.scorers.grading import gold_truth, grade, needed_steps, oracle_answer
from kopa_inspect.task_data.distractors import offered_operations
from kopa_inspect.task_data.schema import load_tasks
from kopa_inspect.tools import shared_backend

REFUSAL = "제공된 도구로는 이 질문에 답할 수 없습니다. 해당 정보를 제공하는 API가 없습니다."


def _params(tool: str) -> list[Any]:
    return [p for p in get_operation(tool).params if not p.hidden and p.name not in IGNORED_ARGS]


def failing_variant(tool: str, args: dict[str, Any]) -> tuple[dict[str, Any], str | None] | None:
    """The call made so that the API refuses it: (args, made-up token or None)."""
    op = get_operation(tool)
    if get_platform(op.platform).session_token_param:
        return dict(args), "sess-madeup0000"
    paging = [p.name for p in _params(tool) if p.name in PAGING_ARGS]
    if paging:
        return {**args, paging[0]: "x"}, None
    required = [p.name for p in _params(tool) if p.required and p.name in args]
    if required:
        return {k: v for k, v in args.items() if k != required[0]}, None
    return None


def _link_pairs(task, gold) -> list[tuple[str, str]]:
    pairs = []
    for p, c, _ in task.plan.links():
        if p != SESSION_STEP and p in gold.needs and c in gold.needs and (p, c) not in pairs:
            pairs.append((p, c))
    return pairs


async def main() -> int:
    be = shared_backend(BackendConfig())
    n = Counter()
    bad = Counter()
    show = "-v" in sys.argv
    for task in load_tasks():
        gold = await gold_truth(task, be, 0)
        answer = oracle_answer(task, gold.expected, context=gold.context)
        ids = [s.id for s in task.plan.steps]
        auth = auth_calls(task)
        gold_list = list(gold.calls)
        base = await run_calls(task, be, auth + gold_list)
        g0 = grade(task, gold, answer, base)
        n["tasks"] += 1
        n["oracle_success"] += g0.success == 1.0
        needed = needed_steps(task)
        answerable = task.category != "unanswerable"

        # repeat: the last gold call 20 times in all
        if gold_list:
            rep = await run_calls(task, be, auth + gold_list + [gold_list[-1]] * 19)
            g = grade(task, gold, answer, rep)
            n["repeat"] += 1
            bad["repeat_f1_full"] += g.call_f1 >= 1.0
            bad["repeat_eff_full"] += g.efficiency >= 1.0
            n["repeat_success"] += g.success == 1.0

        # spray: every distractor once, every gold call at other page sizes and page 2
        if gold_list:
            pool: dict[str, Any] = {}
            for _, a in gold_list:
                for k, v in a.items():
                    pool.setdefault(k, v)
            extra = []
            for op in offered_operations(task):
                if op in {t for t, _ in gold_list}:
                    continue
                names = {p.name for p in _params(op)}
                extra.append((op, {k: v for k, v in pool.items() if k in names}))
            for t, a in gold_list:
                sizes = [p.name for p in _params(t) if p.name in ("numOfRows", "pSize", "display")]
                pages = [p.name for p in _params(t) if p.name in ("pageNo", "pIndex", "page")]
                for size in ("5", "50", "500") if sizes else ():
                    extra.append((t, {**a, sizes[0]: size}))
                if pages:
                    extra.append((t, {**a, pages[0]: "2"}))
            spray = await run_calls(task, be, auth + gold_list + extra)
            g = grade(task, gold, answer, spray)
            n["spray"] += 1
            bad["spray_f1_full"] += g.call_f1 >= 1.0
            bad["spray_eff_full"] += g.efficiency >= 1.0
            n["spray_success"] += g.success == 1.0
            n["spray_calls"] += len(spray)
            if answerable:
                n["spray_refusal"] += 1
                bad["spray_refusal_success"] += grade(task, gold, REFUSAL, spray).success == 1.0

        # failing: every gold call refused by the API
        if gold_list:
            calls, fakes = [], {}
            for t, a in gold_list:
                v = failing_variant(t, a)
                if v is None:
                    continue
                if v[1]:
                    fakes[len(auth) + len(calls)] = v[1]
                calls.append((t, v[0]))
            made = await run_calls(task, be, auth + calls, fakes)
            made = [c for c in made if not c["ok"] or c["tool"].endswith("_get_api_key")]
            if any(not c["tool"].endswith("_get_api_key") for c in made):
                g = grade(task, gold, answer, made)
                n["failing"] += 1
                bad["failing_f1"] += g.call_f1 > 0
                bad["failing_chain"] += bool(g.chain)
                bad["failing_env"] += bool(g.env) and not all(
                    s.expect_error for s in task.plan.steps if s.id in needed
                )
                bad["failing_success"] += g.success == 1.0 and answerable

        # filter: one needed call with an extra real filter that drops its needed records
        for sid in needed:
            k = ids.index(sid)
            t, a = gold_list[k]
            step = task.plan.steps[k]
            if step.expect_error or not gold.needs[sid].records:
                continue
            free = [p for p in _params(t) if p.name not in a and p.name not in PAGING_ARGS and not p.enum]
            for p in free[:2]:
                junk = "99999999" if p.type in ("integer", "number") else "zzzz없는값"
                alt = {**a, p.name: junk}
                made = await run_calls(
                    task, be, auth + [c if i != k else (t, alt) for i, c in enumerate(gold_list)]
                )
                entry = made[len(auth) + k]
                others = set().union(
                    *(
                        set(m.get("records") or ())
                        for i, m in enumerate(made)
                        if i != len(auth) + k and m["tool"] == t and m["ok"]
                    )
                )
                if not entry["ok"] or gold.needs[sid].records <= set(entry.get("records") or ()) | others:
                    continue  # refused, the filter changed nothing, or another call shows the records
                n["filter"] += 1
                g = grade(task, gold, answer, made)
                if not any(m.startswith(f"records of {sid}:") for m in g.missing):
                    bad["filter_retrieved"] += 1
                    if show:
                        print("FILTER RETRIEVED", task.id, sid, t, p.name)
                bad["filter_success"] += g.success == 1.0
                # a step a required fact reads must fail success; a lookup that only fed an argument
                # need not (success by outcome: the consumer's own records ground the facts)
                if any(sid in per for per in gold.facts.values()):
                    n["filter_fact_steps"] += 1
                    bad["filter_fact_success"] += g.success == 1.0
                break
            # control: an argument the operation does not have
            made = await run_calls(
                task, be, auth + [c if i != k else (t, {**a, "fooBar": "1"}) for i, c in enumerate(gold_list)]
            )
            n["unknown_arg"] += 1
            g = grade(task, gold, answer, made)
            n["unknown_arg_retrieved"] += not any(m.startswith(f"records of {sid}:") for m in g.missing)

        # chain: the consumer with the gold's literal value, the producer dropped or moved after
        for p, _c in _link_pairs(task, gold):
            kp = ids.index(p)
            dropped = [x for i, x in enumerate(gold_list) if i != kp]
            made = await run_calls(task, be, auth + dropped)
            g = grade(task, gold, answer, made)
            n["no_producer"] += 1
            bad["no_producer_chain_full"] += (g.chain or 0) >= 1.0
            bad["no_producer_success"] += g.success == 1.0
            order = [x for i, x in enumerate(gold_list) if i != kp] + [gold_list[kp]]
            made = await run_calls(task, be, auth + order)
            g = grade(task, gold, answer, made)
            n["producer_after"] += 1
            bad["producer_after_chain_full"] += (g.chain or 0) >= 1.0
            n["producer_after_success"] += g.success == 1.0

        # token trap
        plats = sorted({x for s in task.plan.steps if s.id in needed for x in s.session_platforms()})
        if plats:
            on = [i for i, (t, _) in enumerate(gold_list) if get_operation(t).platform in plats]
            off = [x for i, x in enumerate(gold_list) if i not in on]
            n["token"] += 1
            fakes = {len(auth) + i: "sess-madeup0000" for i in on}
            for label, calls, fk in (
                ("auth_fake", auth + gold_list, fakes),
                ("no_auth_fake", gold_list, {i: "sess-madeup0000" for i in on}),
                ("auth_unused", auth + off, {}),
            ):
                made = await run_calls(task, be, calls, fk)
                g = grade(task, gold, answer, made)
                bad[f"token_{label}"] += not any(m.startswith("state token:") for m in g.missing)
                bad[f"token_{label}_success"] += g.success == 1.0

        # unanswerable: no calls and a refusal
        if not answerable:
            g = grade(task, gold, answer, [])
            key = "evidence" if needed else "no_evidence"
            n[f"unans_{key}"] += 1
            full = (
                g.call_f1 >= 1.0
                and (g.chain is None or g.chain >= 1.0)
                and (g.env is None or g.env >= 1.0)
                and g.efficiency >= 1.0
            )
            n[f"unans_{key}_action_full"] += full
            n[f"unans_{key}_success"] += g.success == 1.0
            if not needed:  # one wandering call on a task that needs none
                tool = task.tools[0]
                args = {p.name: "1" for p in get_operation(tool).params if p.required}
                g = grade(task, gold, answer, await run_calls(task, be, [(tool, args)]))
                n["wander"] += 1
                bad["wander_eff_full"] += g.efficiency >= 1.0

    print(f"tasks {n['tasks']}, oracle success {n['oracle_success']}")
    print(
        f"repeat x20 ({n['repeat']} tasks): call_f1 1.0 {bad['repeat_f1_full']} (want 0), efficiency 1.0 "
        f"{bad['repeat_eff_full']} (want 0), success {n['repeat_success']}"
    )
    print(
        f"spray ({n['spray']} tasks, {n['spray_calls']} calls): call_f1 1.0 {bad['spray_f1_full']} (want 0), "
        f"efficiency 1.0 {bad['spray_eff_full']} (want 0), success {n['spray_success']}; "
        f"spray + refusal passing {bad['spray_refusal_success']}/{n['spray_refusal']} (want 0)"
    )
    print(
        f"failing gold calls ({n['failing']} tasks): call_f1 > 0 {bad['failing_f1']}, chain > 0 "
        f"{bad['failing_chain']}, env > 0 {bad['failing_env']}, answerable success {bad['failing_success']} (want 0 each)"
    )
    print(
        f"extra real filter dropping the needed records ({n['filter']} steps): retrieved {bad['filter_retrieved']} "
        f"(want 0), success {bad['filter_success']} (by outcome), of them steps a fact reads "
        f"{bad['filter_fact_success']}/{n['filter_fact_steps']} (want 0); unknown extra argument retrieved "
        f"{n['unknown_arg_retrieved']}/{n['unknown_arg']} (want all)"
    )
    print(
        f"links ({n['no_producer']}): producer dropped: chain 1.0 {bad['no_producer_chain_full']} (want 0), "
        f"success {bad['no_producer_success']} (by outcome); producer after the consumer: chain 1.0 "
        f"{bad['producer_after_chain_full']} (want 0), success {n['producer_after_success']}"
    )
    print(
        f"token tasks ({n['token']}): made-up token after auth reaches token {bad['token_auth_fake']} "
        f"(success {bad['token_auth_fake_success']}), made-up token without auth {bad['token_no_auth_fake']} "
        f"(success {bad['token_no_auth_fake_success']}), auth without use {bad['token_auth_unused']} "
        f"(success {bad['token_auth_unused_success']}) (want 0 each)"
    )
    print(
        f"unanswerable, no calls: without evidence steps {n['unans_no_evidence']} (action axes full "
        f"{n['unans_no_evidence_action_full']}, want all; success {n['unans_no_evidence_success']}); with evidence "
        f"{n['unans_evidence']} (action axes full {n['unans_evidence_action_full']}, want 0; success "
        f"{n['unans_evidence_success']}, want 0)"
    )
    print(
        f"one wandering call where no call is needed ({n['wander']} tasks): efficiency 1.0 "
        f"{bad['wander_eff_full']} (want 0)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
