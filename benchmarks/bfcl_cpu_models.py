"""BFCL for the CPU models: base vs EDGE+SFT vs EDGE+SFT+GRPO SmolLM2 on a BFCL slice.

    .venv/bin/python benchmarks/bfcl_cpu_models.py --gguf-dir OUT/gguf --out results/bfcl/cpu-models \\
        --categories simple_python,multiple,parallel,irrelevance,multi_turn_base --per-category 10

The models are the GGUF exports the step experiments write (``<label>.f16.gguf`` for base, sft and
sft+grpo: the same precision for all three), run greedily through ``llamacpp/local`` on the
``kopa_inspect/bfcl`` task (BFCL's own checkers) over the first N entries of each category. Writes
OUT/bfcl-cpu.json (per entry, per category, paired tests) and OUT/summary.md; the Inspect logs go
to OUT/logs (``kopa report`` reads them). Paired tests on the same entries: exact McNemar.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

LABELS = ("base", "sft", "sft+grpo")


def run_model(
    label: str, gguf: Path, categories: str, per_category: int, log_dir: Path, args: Any
) -> dict[str, float]:
    """{sample id: 1.0 or 0.0} for one model."""
    from inspect_ai import eval as inspect_eval

    from kopa_inspect.bfcl.task import bfcl

    logs = inspect_eval(
        bfcl(categories=categories, per_category=per_category),
        model="llamacpp/local",
        model_args={"model_path": str(gguf.resolve()), "n_ctx": args.n_ctx, "n_threads": args.threads},
        max_tokens=args.max_tokens,
        temperature=0.0,
        log_dir=str(log_dir / label.replace("+", "_")),
        display="none",
        fail_on_error=False,
        max_connections=1,
        metadata={"label": label},
    )
    log = logs[0]
    if log.status != "success":
        raise RuntimeError(f"BFCL run of {label} ended {log.status}: {log.error}")
    out: dict[str, float] = {}
    for s in log.samples or []:
        score = next(iter((s.scores or {}).values()), None)
        out[str(s.id)] = 1.0 if score is not None and score.value == "C" else 0.0
    return out


def category_of(sample_id: str) -> str:
    return sample_id.rsplit("_", 1)[0]


def by_category(scores: dict[str, float]) -> dict[str, dict[str, float]]:
    cats: dict[str, list[float]] = {}
    for sid, v in scores.items():
        cats.setdefault(category_of(sid), []).append(v)
    return {c: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for c, v in sorted(cats.items())}


def paired(a: dict[str, float], b: dict[str, float]) -> dict[str, Any]:
    from kopa_inspect.stats import mcnemar_exact

    ids = sorted(set(a) & set(b))
    only_a = sum(a[i] > b[i] for i in ids)
    only_b = sum(b[i] > a[i] for i in ids)
    return {
        "n": len(ids),
        "only_first": only_a,
        "only_second": only_b,
        "mcnemar_p": mcnemar_exact(only_a, only_b),
    }


def table(results: dict[str, Any]) -> str:
    from tabulate import tabulate

    labels = [lab for lab in LABELS if lab in results["scores"]]
    cats = sorted({c for lab in labels for c in results["categories"][lab]})
    rows = []
    for c in cats:
        n = results["categories"][labels[0]][c]["n"]
        rows.append([c, n, *(results["categories"][lab][c]["accuracy"] for lab in labels)])
    overall = [
        "all entries",
        len(results["scores"][labels[0]]),
        *(round(sum(results["scores"][lab].values()) / len(results["scores"][lab]), 4) for lab in labels),
    ]
    rows.append(overall)
    text = tabulate(rows, headers=["category", "n", *labels], tablefmt="github", floatfmt=".3f")
    tests = [
        [pair, t["n"], t["only_first"], t["only_second"], f"{t['mcnemar_p']:.3g}"]
        for pair, t in results["tests"].items()
    ]
    text += "\n\n" + tabulate(
        tests,
        headers=["pair (first vs second)", "n", "only first", "only second", "exact McNemar p"],
        tablefmt="github",
    )
    return text + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--gguf-dir", required=True, help="folder with base.f16.gguf, sft.f16.gguf, sft+grpo.f16.gguf"
    )
    ap.add_argument("--out", required=True)
    ap.add_argument("--categories", default="simple_python,multiple,parallel,irrelevance,multi_turn_base")
    ap.add_argument("--per-category", type=int, default=10)
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--n-ctx", type=int, default=8192)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only-model", action="append", choices=LABELS, default=None)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"args": vars(a), "scores": {}, "categories": {}, "seconds": {}, "tests": {}}
    for label in LABELS:
        saved = out / "scores" / f"{label.replace('+', '_')}.json"
        if saved.exists():
            done = json.loads(saved.read_text())
            results["scores"][label], results["seconds"][label] = done["scores"], done["seconds"]
        elif a.only_model is None or label in a.only_model:
            gguf = Path(a.gguf_dir) / f"{label}.f16.gguf"
            if not gguf.exists():
                raise FileNotFoundError(
                    f"{gguf}: run the step experiment first (it exports the three models)"
                )
            t0 = time.perf_counter()
            scores = run_model(label, gguf, a.categories, a.per_category, out / "logs", a)
            seconds = round(time.perf_counter() - t0, 1)
            saved.parent.mkdir(parents=True, exist_ok=True)
            saved.write_text(json.dumps({"scores": scores, "seconds": seconds}), encoding="utf-8")
            results["scores"][label], results["seconds"][label] = scores, seconds
            print(f"{label}: {seconds} s", flush=True)
    for label, scores in results["scores"].items():
        results["categories"][label] = by_category(scores)
    s = results["scores"]
    for first, second in (("base", "sft"), ("sft", "sft+grpo"), ("base", "sft+grpo")):
        if first in s and second in s:
            results["tests"][f"{first} vs {second}"] = paired(s[first], s[second])
    (out / "bfcl-cpu.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    if set(LABELS) <= set(s):
        (out / "summary.md").write_text(table(results), encoding="utf-8")
        print(table(results))


if __name__ == "__main__":
    main()
