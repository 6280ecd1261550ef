"""Reward spread before GRPO: does a model's own sampling give GRPO anything to learn from?

GRPO's advantage is each completion's reward minus its group's mean, so a prompt whose k sampled
completions all earn the same reward gives no gradient at all (TRL logs that share per step as
``frac_reward_zero_std``). A model that always fails a step, or always passes it, cannot learn from
it. This module samples k completions per training row from a model, the way GRPOTrainer samples
them (temperature, top_k 0, the completion limit; decoded without special tokens), scores them with
the same reward functions the run will use, and reports per reward the share of prompts whose k
rewards differ. :func:`signal_rows` then picks the rows with spread in the weighted total, ordered
as a curriculum (one-call first steps before later steps, chains and answers), and writes the
``rows_file`` a GRPO config reads (``prompt.rows_file``).

    python -m kopa_grpo.signal --data EDGE/dataset --config grpo-cpu-signal --model SFT/merged \\
        --rows 64 --k 8 --out OUT/signal.json
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kopa_inspect.stats import pass_at_k
from kopa_inspect.steps.parsing import history_calls


@dataclass
class RowSignal:
    """The k rewards of one training row (None where a reward does not apply to the row's kind)."""

    step_id: str
    kind: str
    gold_calls: int
    depth: int  # calls made by the prompt's earlier turns
    rewards: dict[str, list[float | None]]
    total: list[float]
    completions: list[str] = field(default_factory=list)


def weighted_totals(rewards: dict[str, list[float | None]], weights: dict[str, float]) -> list[float]:
    """TRL's total per completion: the weighted sum of the rewards that apply (None counts as 0,
    as TRL's nansum does)."""
    k = len(next(iter(rewards.values()))) if rewards else 0
    return [sum(weights[name] * (vals[i] or 0.0) for name, vals in rewards.items()) for i in range(k)]


def has_spread(values: Sequence[float | None]) -> bool | None:
    """Whether the group's rewards differ; None where the reward applies to no completion."""
    present = [v for v in values if v is not None]
    if not present:
        return None
    return max(present) - min(present) > 1e-9


def spread_summary(rows: list[RowSignal]) -> dict[str, Any]:
    """Per reward: the share of prompts (where it applies) whose k rewards differ, and the mean reward;
    for the weighted total the same share, i.e. 1 - the frac_reward_zero_std TRL would log; for the
    outcome reward how often the model never / sometimes / always earns it."""
    names = sorted({n for r in rows for n in r.rewards})
    out: dict[str, Any] = {"prompts": len(rows), "k": len(rows[0].total) if rows else 0, "rewards": {}}
    for name in names:
        flags = [has_spread(r.rewards[name]) for r in rows if name in r.rewards]
        applies = [f for f in flags if f is not None]
        values = [v for r in rows for v in r.rewards.get(name, []) if v is not None]
        out["rewards"][name] = {
            "prompts": len(applies),
            "share_with_spread": round(sum(applies) / len(applies), 4) if applies else None,
            "mean": round(statistics.fmean(values), 4) if values else None,
        }
    totals = [has_spread(r.total) for r in rows]
    out["total_share_with_spread"] = round(sum(bool(t) for t in totals) / len(rows), 4) if rows else None
    outcome = [[v for v in r.rewards.get("outcome", []) if v is not None] for r in rows]
    outcome = [o for o in outcome if o]
    # pass@k of the outcome over the k samples (the unbiased estimator), averaged over prompts
    k = out["k"]
    out["outcome_pass_at"] = {
        str(j): round(statistics.fmean(pass_at_k(len(o), int(sum(o)), j) for o in outcome), 4)
        for j in (1, 4)
        if outcome and j <= k
    }
    out["outcome_rate"] = {
        "never": sum(max(o) == 0 for o in outcome),
        "sometimes": sum(0 < sum(o) < len(o) for o in outcome),
        "always": sum(min(o) == 1 for o in outcome),
    }
    return out


def curriculum_key(row: RowSignal) -> tuple[int, int, int, str]:
    """One-call first steps, then later steps and parallel waves, answers last; ties in hashed order."""
    return (row.depth, row.gold_calls, int(row.kind == "answer"), _hash(row.step_id))


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def signal_rows(rows: list[RowSignal]) -> list[str]:
    """The step ids whose weighted total differs within the group, in curriculum order."""
    return [r.step_id for r in sorted((r for r in rows if has_spread(r.total)), key=curriculum_key)]


def call_rewards(
    funcs: list[Any],
    names: list[str],
    prompts: list[str],
    completions: list[str],
    columns: dict[str, list[Any]],
) -> dict[str, list[float | None]]:
    """Each reward function over one group, as GRPOTrainer calls it (coroutines awaited), by the
    config's reward names."""
    out: dict[str, list[float | None]] = {}
    for name, func in zip(names, funcs, strict=True):
        value = func(prompts=prompts, completions=completions, **columns)
        if inspect.isawaitable(value):
            value = asyncio.run(_await(value))
        out[name] = list(value)
    return out


async def _await(value: Any) -> Any:
    return await value


def sample(model: Any, tokenizer: Any, prompt: str, k: int, trainer: dict[str, Any], seed: int) -> list[str]:
    """k completions of one prompt, sampled as GRPOTrainer samples them with transformers."""
    import torch

    torch.manual_seed(seed)
    ids = tokenizer(prompt, return_tensors="pt", add_special_tokens=False)
    with torch.no_grad():
        out = model.generate(
            **ids,
            do_sample=True,
            temperature=float(trainer.get("temperature", 1.0)),
            top_p=float(trainer.get("top_p", 1.0)),
            # GRPOConfig's default top_k 0 (no top-k filter), not the model's generation_config
            top_k=int(trainer.get("top_k") or 0),
            max_new_tokens=int(trainer.get("max_completion_length", 256)),
            num_return_sequences=k,
            pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id,
        )
    return tokenizer.batch_decode(out[:, ids["input_ids"].shape[1] :], skip_special_tokens=True)


def measure(
    data_dir: str | Path,
    config: str | Path,
    model: str,
    n_rows: int,
    k: int,
    threads: int | None = None,
    seed: int = 0,
    test_percent: int | None = None,
    rows_file: str | None = None,
    split: str = "train",
    rescore: str | None = None,
) -> list[RowSignal]:
    """Sample and score k completions for the first ``n_rows`` training rows (the config's row order,
    or the order of ``rows_file``). ``rescore``: an earlier report's ``.rows.jsonl``; its saved
    completions are scored again (rewards changed since) instead of sampling new ones."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from kopa_grpo import data
    from kopa_grpo.model_source import resolve_model
    from kopa_grpo.rewards import build_reward_funcs
    from kopa_grpo.train import load_run_settings

    overrides: dict[str, Any] = {"model": model}
    prompt: dict[str, Any] = {"rows_file": rows_file} if rows_file else {}
    if test_percent is not None:
        prompt["test_percent"] = test_percent
    if prompt:
        overrides["prompt"] = prompt
    settings = load_run_settings(config, overrides)
    if threads:
        torch.set_num_threads(threads)
    path = resolve_model(settings.model)
    tokenizer = AutoTokenizer.from_pretrained(path)
    lm = None if rescore else AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    rows = data.build(
        data_dir, "step", tokenizer, settings.limit, settings.prompt, "test" if split == "test" else "train"
    )
    funcs = build_reward_funcs(settings.rewards, settings.backend)
    names = list(settings.rewards)
    weights = dict(zip(names, settings.reward_weights or [1.0] * len(names), strict=True))
    saved = _saved_completions(rescore) if rescore else {}
    out: list[RowSignal] = []
    for i, row in enumerate(rows.select(range(min(n_rows, len(rows))))):
        if rescore:
            if row["step_id"] not in saved:
                raise ValueError(f"{rescore}: no completions saved for {row['step_id']}")
            completions = saved[row["step_id"]]
        else:
            completions = sample(lm, tokenizer, row["prompt"], k, settings.trainer, seed + i)
        columns = {c: [row[c]] * k for c in rows.column_names if c != "prompt"}
        rewards = call_rewards(funcs, names, [row["prompt"]] * k, completions, columns)
        out.append(
            RowSignal(
                step_id=row["step_id"],
                kind=row["kind"],
                gold_calls=len(json.loads(row["target_calls_json"] or "[]")),
                depth=len(history_calls(row["prompt"])),
                rewards=rewards,
                total=weighted_totals(rewards, weights),
                completions=completions,
            )
        )
    return out


def _saved_completions(path: str) -> dict[str, list[str]]:
    with open(path, encoding="utf-8") as f:
        return {r["step_id"]: r["completions"] for r in map(json.loads, f) if r}


def write_report(rows: list[RowSignal], out: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """OUT (JSON): the summary, the chosen rows (``step_ids``, what ``prompt.rows_file`` reads) and
    every row's rewards; beside it OUT with ``.rows.jsonl``: the sampled completions."""
    report = {**meta, "summary": spread_summary(rows), "step_ids": signal_rows(rows)}
    report["rows"] = [{k: v for k, v in asdict(r).items() if k != "completions"} for r in rows]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    with out.with_suffix(".rows.jsonl").open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(
                json.dumps({"step_id": r.step_id, "completions": r.completions}, ensure_ascii=False) + "\n"
            )
    return report


def main() -> None:
    import argparse
    import time

    ap = argparse.ArgumentParser(description="Reward spread of a model's sampled completions on GRPO rows")
    ap.add_argument("--data", required=True, help="an EDGE dataset folder")
    ap.add_argument("--config", required=True, help="the GRPO config whose rows, rewards and sampling to use")
    ap.add_argument("--model", required=True, help="the model folder that GRPO will start from")
    ap.add_argument("--rows", type=int, default=64, help="training rows probed (the config's order)")
    ap.add_argument("--k", type=int, default=8, help="completions sampled per row")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--test-percent", type=int, default=None, help="the EDGE held-out share training used")
    ap.add_argument(
        "--rescore", default=None, help="score an earlier report's saved completions (OUT.rows.jsonl) again"
    )
    ap.add_argument(
        "--held-out",
        action="store_true",
        help="probe the held-out EDGE steps instead (pass@k of a trained model on rows it never saw)",
    )
    ap.add_argument(
        "--rows-file",
        default=None,
        help="probe these rows (an earlier report): the same groups after training",
    )
    ap.add_argument("--out", required=True, help="the report (JSON); its step_ids feed prompt.rows_file")
    a = ap.parse_args()
    start = time.perf_counter()
    rows = measure(
        a.data,
        a.config,
        a.model,
        a.rows,
        a.k,
        a.threads,
        a.seed,
        a.test_percent,
        a.rows_file,
        "test" if a.held_out else "train",
        a.rescore,
    )
    meta = {
        "model": a.model,
        "config": a.config,
        "k": a.k,
        "seed": a.seed,
        "split": "test" if a.held_out else "train",
        "rescored": a.rescore,
        "seconds": round(time.perf_counter() - start, 1),
    }
    report = write_report(rows, Path(a.out), meta)
    print(json.dumps({**meta, "summary": report["summary"], "chosen": len(report["step_ids"])}, indent=1))


if __name__ == "__main__":
    main()
