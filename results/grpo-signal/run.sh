#!/bin/bash
# GRPO given signal (issue: "GRPO that moves beyond SFT"): SFT, a reward-spread probe of the SFT
# model, GRPO on the rows whose sampled rewards differ, then base / SFT / SFT+GRPO on the held-out
# EDGE steps and the KOPA-Bench gold-plan steps (greedy). Two lanes on a 2-core machine; every
# phase under /usr/bin/time -v (OUT/phases/*.time), the load average every 30 s in OUT/load.log.
#
#   bash results/grpo-signal/run.sh   # DATA, OUT, PY, SFT_STEPS, GRPO_STEPS, PROBE_ROWS, K, HELDOUT
#
# Sized for a 2-core AVX2 CPU (no native bf16: training in float32, ~80 s a 4-row SFT step beside
# one evaluation); a CPU with AVX512_BF16 runs the same steps several times faster.
#
# DATA is a `kopa synth` dataset folder; the committed run used
#   kopa synth --out EDGE --n 500 --seed 0 --clock 2026-12-07T21:39:00+09:00 --fresh
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
PY=${PY:-$ROOT/.venv/bin/python}
DATA=${DATA:-$ROOT/.kopa/cpu-experiment/edge/dataset}
OUT=${OUT:-$ROOT/.kopa/grpo-signal}
SFT_STEPS=${SFT_STEPS:-12}
GRPO_STEPS=${GRPO_STEPS:-16}
PROBE_ROWS=${PROBE_ROWS:-32}
K=${K:-6}          # completions per probed row; the config's num_generations
HELDOUT=${HELDOUT:-0}  # 1: also probe the held-out steps (pass@1 / pass@k; ~30 CPU-s a row here)
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 OMP_WAIT_POLICY=PASSIVE
T="/usr/bin/time -v"
mkdir -p "$OUT/phases"
(while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done) > "$OUT/load.log" &
LOADPID=$!
trap 'kill $LOADPID' EXIT
EXP="$PY benchmarks/grpo_cpu_experiment.py --data $DATA --out $OUT --engine llamacpp --test-percent 20"
EVAL="--threads 1 --max-tokens 128 --gold-caps --skip-train --edge-rows 100 --bench-rows 30"
TRAIN="$PY -m kopa_grpo.train --data $DATA --test-percent 20 --threads 1"
SIGNAL="$PY -m kopa_grpo.signal --data $DATA --config grpo-cpu-signal --test-percent 20 --k $K --threads 1"
date -u +"start %H:%M:%S"

# 1: SFT (one thread) | the base model on the held-out EDGE and bench steps
test -f "$OUT/sft/merged/config.json" ||
  $T -o "$OUT/phases/1-sft.time" $TRAIN --config sft-cpu --out "$OUT/sft" --max-steps "$SFT_STEPS" \
    > "$OUT/phases/1-sft.log" 2>&1 &
P=$!
test -f "$OUT/scores/bench/base.json" ||
  $T -o "$OUT/phases/1-eval-base.time" $EXP $EVAL --only-model base > "$OUT/phases/1-eval-base.log" 2>&1
wait $P
date -u +"sft done %H:%M:%S"

# 2: the spread probe of the SFT model (PROBE_ROWS rows x K samples), then GRPO | the SFT model's
#    evaluation, then its held-out probe
( $T -o "$OUT/phases/2-eval-sft.time" $EXP $EVAL --only-model sft > "$OUT/phases/2-eval-sft.log" 2>&1
  # pass@1 / pass@4 of the SFT model on held-out steps (K samples at the GRPO temperature)
  if [ "$HELDOUT" = 1 ]; then
    $T -o "$OUT/phases/3-heldout-sft.time" $SIGNAL --model "$OUT/sft/merged" --held-out --rows "$PROBE_ROWS" \
      --out "$OUT/heldout-sft.json" > "$OUT/phases/3-heldout-sft.log" 2>&1
  fi ) &
P=$!
test -f "$OUT/signal-sft.json" ||
  $T -o "$OUT/phases/2-signal-sft.time" $SIGNAL --model "$OUT/sft/merged" --rows "$PROBE_ROWS" \
  --out "$OUT/signal-sft.json" > "$OUT/phases/2-signal-sft.log" 2>&1
# 3: GRPO from the SFT checkpoint on the rows with spread, curriculum order
$T -o "$OUT/phases/3-grpo.time" $TRAIN --config grpo-cpu-signal --model "$OUT/sft/merged" \
  --rows-file "$OUT/signal-sft.json" --max-steps "$GRPO_STEPS" --out "$OUT/grpo" \
  > "$OUT/phases/3-grpo.log" 2>&1
wait $P
date -u +"grpo done %H:%M:%S"

# 4: SFT+GRPO evaluated | the same groups probed again with the trained model (which rows moved),
#    then its held-out probe
$T -o "$OUT/phases/4-eval-grpo.time" $EXP $EVAL --only-model sft+grpo > "$OUT/phases/4-eval-grpo.log" 2>&1 &
P=$!
$T -o "$OUT/phases/4-signal-grpo.time" $SIGNAL --model "$OUT/grpo/merged" --rows 1000 \
  --rows-file "$OUT/signal-sft.json" --out "$OUT/signal-grpo.json" > "$OUT/phases/4-signal-grpo.log" 2>&1
if [ "$HELDOUT" = 1 ]; then
  $T -o "$OUT/phases/4-heldout-grpo.time" $SIGNAL --model "$OUT/grpo/merged" --held-out --rows "$PROBE_ROWS" \
    --out "$OUT/heldout-grpo.json" > "$OUT/phases/4-heldout-grpo.log" 2>&1
fi
wait $P
# 5: tables, paired tests, curves
$T -o "$OUT/phases/5-aggregate.time" $EXP --skip-train --edge-rows 100 --bench-rows 30 --max-tokens 128 \
  > "$OUT/phases/5-aggregate.log" 2>&1
date -u +"end %H:%M:%S"
