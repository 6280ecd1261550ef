"""llama.cpp vs transformers on the local model: prompt processing and generation tokens/s, one run.

    .venv/bin/python benchmarks/local_engine_bench.py                  # SmolLM2-135M both engines + Gemma 3 270M llama.cpp
    .venv/bin/python benchmarks/local_engine_bench.py --task 0 --gen 64 --repeats 2 --threads 2 --json

The prompt is a real KOPA-Bench first turn (system prompt, the task's tools, the Korean query)
rendered with the ChatML tool template, the same text for both engines (``hf/local`` and
``llamacpp/smollm2`` render it identically). Each engine is measured the same way:

- prompt processing (pp): the whole prompt in one forward pass from an empty cache;
- generation (tg): ``--gen`` tokens decoded one at a time, greedy, end-of-sequence suppressed so
  every run decodes the same count, on top of that prompt's cache.

transformers runs the float32 folder that ``hf/local`` uses (``prepare_local_model``, the GGUF
dequantized) with torch's threads set to ``--threads``; llama.cpp runs the packaged GGUF (Q4_1
for SmolLM2, Q4_K_M for Gemma) with ``n_threads=--threads``. Best of ``--repeats`` runs is reported
(the machine is shared). Figures go to benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from typing import Any

# Both engines' OpenMP threads wait passively: spinning at barriers on a shared 2-core machine
# slows llama.cpp by an order of magnitude (see providers/llamacpp.py); the same setting for torch.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def kopa_prompt(task_index: int) -> tuple[str, str]:
    """(task id, rendered first-turn prompt) for the task at ``task_index`` of KOPA-Bench."""
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser
    from inspect_ai.tool import ToolInfo

    from kopa_inspect.backends import BackendConfig
    from kopa_inspect.execution import Session
    from kopa_inspect.providers.local_chat import render_prompt
    from kopa_inspect.solvers.prompts import system_prompt, user_prompt
    from kopa_inspect.task_data.schema import load_tasks
    from kopa_inspect.tools import LiveSession, build_tool_set, shared_backend

    task = load_tasks()[task_index]
    live = LiveSession(Session(shared_backend(BackendConfig()), clock=task.clock, seed=0))
    tools = build_tool_set("task", live, task)
    infos = [ToolInfo(name=t.name, description=t.description, parameters=t.parameters) for t in tools]
    messages = [
        ChatMessageSystem(content=system_prompt(task.clock)),
        ChatMessageUser(content=user_prompt(task.query, None)),
    ]
    return task.id, render_prompt(messages, infos, "chatml")


def bench_transformers(prompt: str, gen: int, repeats: int, threads: int) -> dict[str, Any]:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from kopa_inspect.providers.local import prepare_local_model

    torch.set_num_threads(threads)
    folder = prepare_local_model()
    t0 = time.perf_counter()
    tok = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=torch.float32).eval()
    load_s = time.perf_counter() - t0
    ids = tok(prompt, return_tensors="pt", add_special_tokens=False).input_ids
    eos = tok.eos_token_id
    best_pp, best_tg = float("inf"), float("inf")
    with torch.inference_mode():
        for _ in range(repeats):
            t0 = time.perf_counter()
            out = model(ids, use_cache=True)
            pp = time.perf_counter() - t0
            past, logits = out.past_key_values, out.logits[:, -1, :]
            t0 = time.perf_counter()
            for _ in range(gen):
                if eos is not None:
                    logits[:, eos] = float("-inf")
                nxt = logits.argmax(-1, keepdim=True)
                out = model(nxt, past_key_values=past, use_cache=True)
                past, logits = out.past_key_values, out.logits[:, -1, :]
            tg = time.perf_counter() - t0
            best_pp, best_tg = min(best_pp, pp), min(best_tg, tg)
    return {
        "engine": "transformers (hf/local)",
        "model": "SmolLM2-135M-Instruct float32",
        "load_s": round(load_s, 2),
        "prompt_tokens": int(ids.shape[1]),
        "pp_tok_s": round(ids.shape[1] / best_pp, 1),
        "tg_tok_s": round(gen / best_tg, 1),
    }


def bench_llamacpp(
    name: str, prompt: str, gen: int, repeats: int, threads: int, n_batch: int
) -> dict[str, Any]:
    import llama_cpp
    import numpy as np
    from llama_cpp import Llama

    from kopa_inspect.providers.llamacpp import resolve_gguf

    path = resolve_gguf(name)
    t0 = time.perf_counter()
    llm = Llama(
        model_path=str(path),
        n_ctx=16384,
        n_threads=threads,
        n_threads_batch=threads,
        n_batch=n_batch,
        verbose=False,
    )
    load_s = time.perf_counter() - t0
    tokens = llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
    best_pp, best_tg = float("inf"), float("inf")
    for _ in range(repeats):
        llm.reset()  # empty cache: the whole prompt is processed
        llama_cpp.llama_perf_context_reset(llm._ctx.ctx)
        t0 = time.perf_counter()
        llm.eval(tokens)
        pp = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(gen):
            # the last token's logits straight from the context (Llama.scores keeps only n_batch rows)
            logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).copy()
            logits[llm.token_eos()] = float("-inf")
            llm.eval([int(logits.argmax())])
        tg = time.perf_counter() - t0
        best_pp, best_tg = min(best_pp, pp), min(best_tg, tg)
    meta = llm.metadata
    return {
        "engine": "llama.cpp (llamacpp/)",
        "model": f"{meta.get('general.name', name)} ({path.name})",
        "load_s": round(load_s, 2),
        "prompt_tokens": len(tokens),
        "pp_tok_s": round(len(tokens) / best_pp, 1),
        "tg_tok_s": round(gen / best_tg, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--task", type=int, default=0, help="index of the KOPA-Bench task whose first turn is the prompt"
    )
    ap.add_argument("--gen", type=int, default=64, help="tokens generated per run")
    ap.add_argument(
        "--max-chars",
        type=int,
        default=None,
        help="cut the prompt text to its first N characters (the same text for every engine)",
    )
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--n-batch", type=int, default=512)
    ap.add_argument("--no-gemma", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    task_id, prompt = kopa_prompt(a.task)
    if a.max_chars:
        prompt = prompt[: a.max_chars]
    rows = [bench_transformers(prompt, a.gen, a.repeats, a.threads)]
    rows.append(bench_llamacpp("smollm2", prompt, a.gen, a.repeats, a.threads, a.n_batch))
    rows.append(bench_llamacpp("smollm2-f32", prompt, a.gen, a.repeats, a.threads, a.n_batch))
    if not a.no_gemma:
        # Same words; Gemma's tokenizer gives its own token count, so compare tokens/s, not seconds.
        rows.append(bench_llamacpp("gemma3-270m", prompt, a.gen, a.repeats, a.threads, a.n_batch))
    base = rows[0]
    for row in rows:
        row["pp_speedup"] = round(row["pp_tok_s"] / base["pp_tok_s"], 2)
        row["tg_speedup"] = round(row["tg_tok_s"] / base["tg_tok_s"], 2)
    result = {
        "task": task_id,
        "prompt_chars": len(prompt),
        "threads": a.threads,
        "gen_tokens": a.gen,
        "repeats": a.repeats,
        "load_avg": os.getloadavg()[0],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "rows": rows,
    }
    if a.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    print(
        f"task {task_id} ({len(prompt)} prompt chars), {a.threads} threads, {a.gen} generated tokens, best of {a.repeats}, load {result['load_avg']:.1f}"
    )
    print("| engine | model | load s | prompt tokens | pp tok/s | tg tok/s | pp x | tg x |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['engine']} | {r['model']} | {r['load_s']} | {r['prompt_tokens']} | {r['pp_tok_s']} | "
            f"{r['tg_tok_s']} | {r['pp_speedup']} | {r['tg_speedup']} |"
        )


if __name__ == "__main__":
    main()
