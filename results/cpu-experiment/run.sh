#!/bin/bash
# Issue-11 CPU experiment, session 3: run from a snapshot worktree (/work/exp3) so parallel edits in /work/main cannot touch it.
set -x
cd /work/exp3
export PYTHONPATH=/work/exp3/src HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1
PY=/work/main/.venv/bin/python
OUT=/work/main/.kopa/e3/exp
DATA=/work/main/.kopa/e3/edge/dataset
date
/usr/bin/time -v $PY benchmarks/grpo_cpu_experiment.py --data $DATA --out $OUT --sft-minutes 14 --grpo-minutes 5 \
   --edge-rows 0 --bench-rows 0 --engine llamacpp --threads 2
date
for m in base sft sft+grpo; do /usr/bin/time -v $PY benchmarks/grpo_cpu_experiment.py --data $DATA --out $OUT \
   --edge-rows 100 --bench-rows 30 --engine llamacpp --threads 1 --max-tokens 128 --skip-train --only-model $m > $OUT-eval-$m.log 2>&1 & done; wait
date
$PY benchmarks/grpo_cpu_experiment.py --data $DATA --out $OUT --edge-rows 100 --bench-rows 30 --engine llamacpp --skip-train
date
