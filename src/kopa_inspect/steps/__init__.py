"""The step-level task ``kopa_inspect/kopa_steps``: one model turn per sample.

Given the query and the earlier calls with their results, produce the next call wave or the final
answer. Prompts are short (only the tools in play, compact results), so a small local model can be
evaluated on hundreds of steps on a CPU; training (kopa_grpo) renders the same prompts.

Modules: parsing (completion -> calls / answer), scoring (the judgement the GRPO rewards share),
build (EDGE rows and KOPA-Bench gold plans -> step examples, the held-out split), task (the @task,
solver and scorer).
"""
