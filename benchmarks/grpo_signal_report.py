"""The GRPO-with-signal run in figures: spread before training, spread and KL during it, which rows moved.

    .venv/bin/python benchmarks/grpo_signal_report.py --run OUT --to results/grpo-signal

Reads what results/grpo-signal/run.sh leaves in OUT: ``signal-sft.json`` (the SFT model's K samples
per probed training row, before GRPO), ``signal-grpo.json`` (the same rows and seeds after GRPO),
``grpo/metrics.jsonl`` (TRL's log per step), optionally ``heldout-*.json`` and ``experiment.json``
(the greedy step evaluation). Writes to TO: ``signal.md`` (tables), ``signal.json`` (the figures),
``grpo-curves.png`` (reward, share of groups without spread, KL per step) and ``grpo-metrics.jsonl``.

"Which rows moved": per trained row, the mean outcome and weighted reward over its K samples
before and after GRPO, and a paired sign-flip permutation test over the rows (kopa_inspect.stats;
each row its own cluster). The rows are GRPO's own training rows, so this shows whether GRPO
learned what it was given, not whether it generalizes: the held-out steps answer that.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
from pathlib import Path
from typing import Any

CURVES = (
    ("reward", "weighted reward (mean)"),
    ("frac_reward_zero_std", "share of groups without spread"),
    ("kl", "KL to the SFT model"),
)


def row_means(report: dict[str, Any]) -> dict[str, dict[str, float]]:
    out = {}
    for r in report["rows"]:
        outcome = [v for v in r["rewards"].get("outcome", []) if v is not None]
        out[r["step_id"]] = {
            "outcome": statistics.fmean(outcome) if outcome else 0.0,
            "total": statistics.fmean(r["total"]),
        }
    return out


def moved(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Per-row means before / after GRPO on the rows it trained on, with a paired test per measure."""
    from kopa_inspect.stats import signflip_test

    a, b = row_means(before), row_means(after)
    ids = [i for i in before["step_ids"] if i in b]
    out: dict[str, Any] = {"rows": len(ids)}
    for key in ("outcome", "total"):
        x = [a[i][key] for i in ids]
        y = [b[i][key] for i in ids]
        out[key] = {
            "before": round(statistics.fmean(x), 4) if x else None,
            "after": round(statistics.fmean(y), 4) if y else None,
            "rows_up": sum(v > u for u, v in zip(x, y, strict=True)),
            "rows_down": sum(v < u for u, v in zip(x, y, strict=True)),
            "signflip_p": signflip_test(x, y, ids) if ids else None,
        }
    return out


def per_step(metrics: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = (
        "step",
        "reward",
        "reward_std",
        "frac_reward_zero_std",
        "kl",
        "rewards/outcome_reward/mean",
        "grad_norm",
    )
    return [{k: r[k] for k in keys if k in r} for r in metrics if "step" in r and "reward" in r]


def plot(steps: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, len(CURVES), figsize=(12, 3.6))
    for ax, (key, title) in zip(axes, CURVES, strict=True):
        pts = [(r["step"], r[key]) for r in steps if key in r]
        if pts:
            ax.plot(*zip(*pts, strict=True), marker="o", markersize=3)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("GRPO step")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def spread_table(reports: dict[str, dict[str, Any]]) -> str:
    from tabulate import tabulate

    names = sorted({n for rep in reports.values() for n in rep["summary"]["rewards"]})
    rows = []
    for label, rep in reports.items():
        s = rep["summary"]
        rows.append(
            [
                label,
                s["prompts"],
                s["k"],
                *(s["rewards"].get(n, {}).get("share_with_spread") for n in names),
                s["total_share_with_spread"],
                s["outcome_rate"]["never"],
                s["outcome_rate"]["sometimes"],
                s["outcome_rate"]["always"],
                s.get("outcome_pass_at", {}).get("1"),
                s.get("outcome_pass_at", {}).get("4"),
            ]
        )
    headers = [
        "probe",
        "rows",
        "k",
        *names,
        "weighted total",
        "never",
        "sometimes",
        "always",
        "pass@1",
        "pass@4",
    ]
    return tabulate(rows, headers=headers, tablefmt="github", floatfmt=".3f", missingval="-")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True, help="OUT of results/grpo-signal/run.sh")
    ap.add_argument("--to", required=True, help="where the figures go (results/grpo-signal)")
    a = ap.parse_args()
    run, to = Path(a.run), Path(a.to)
    to.mkdir(parents=True, exist_ok=True)
    reports = {}
    for label, name in (
        ("SFT, training rows (before GRPO)", "signal-sft.json"),
        ("SFT+GRPO, the same rows", "signal-grpo.json"),
        ("SFT, held-out steps", "heldout-sft.json"),
        ("SFT+GRPO, held-out steps", "heldout-grpo.json"),
    ):
        if (run / name).exists():
            reports[label] = json.loads((run / name).read_text(encoding="utf-8"))
    metrics = [json.loads(line) for line in (run / "grpo" / "metrics.jsonl").read_text().splitlines() if line]
    steps = per_step(metrics)
    result: dict[str, Any] = {
        "spread": {k: v["summary"] for k, v in reports.items()},
        "chosen_rows": len(reports["SFT, training rows (before GRPO)"]["step_ids"]),
        "steps": steps,
        "zero_std_mean": round(statistics.fmean(r["frac_reward_zero_std"] for r in steps), 4)
        if steps
        else None,
        "train_stats": json.loads((run / "grpo" / "train_stats.json").read_text()),
    }
    if "SFT+GRPO, the same rows" in reports:
        result["moved"] = moved(
            reports["SFT, training rows (before GRPO)"], reports["SFT+GRPO, the same rows"]
        )
    plot(steps, to / "grpo-curves.png")
    shutil.copy(run / "grpo" / "metrics.jsonl", to / "grpo-metrics.jsonl")
    (to / "signal.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    lines = [
        "## Reward spread (share of groups whose K rewards differ)\n",
        spread_table(reports),
        f"\nRows with spread in the weighted total, trained by GRPO: {result['chosen_rows']}. "
        f"Share of groups without spread during GRPO (TRL's frac_reward_zero_std), mean over "
        f"{len(steps)} steps: {result['zero_std_mean']}.\n",
    ]
    if "moved" in result:
        from tabulate import tabulate

        m = result["moved"]
        rows = [
            [k, m[k]["before"], m[k]["after"], m[k]["rows_up"], m[k]["rows_down"], m[k]["signflip_p"]]
            for k in ("outcome", "total")
        ]
        lines += [
            f"## The trained rows before and after GRPO ({m['rows']} rows, K samples each, same seeds)\n",
            tabulate(
                rows,
                headers=["mean over samples", "SFT", "SFT+GRPO", "rows up", "rows down", "sign-flip p"],
                tablefmt="github",
                floatfmt=".4g",
            ),
            "",
        ]
    (to / "signal.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
