#!/bin/bash
# Issue-11 CPU experiment, session 4: the whole run, EDGE data included, from a snapshot worktree
# (git worktree add /work/exp4 <commit>) so parallel edits in /work/main cannot touch it. Normal
# priority (everyone else runs under nice 10). Each phase under /usr/bin/time -v; the load average is
# sampled every 30 s into $OUT/load.log.
# sched_autogroup is on here: a session's nice only counts inside its own session, so the other
# engineers' nice-10 jobs still took an equal share each (this run got ~30% of a core per process
# for its first 5 minutes). At 15:26 the run's own session was set to nice -10 by hand, which
# restores the intended 1024:110 weighting:   echo -10 > /proc/<pid of this script>/autogroup
set -x
WT=${WT:-/work/exp4}
cd $WT
export PYTHONPATH=$WT/src HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 OMP_WAIT_POLICY=PASSIVE
PY=/work/main/.venv/bin/python
KOPA=/work/main/.venv/bin/kopa
ROOT=${ROOT:-/work/main/.kopa/e4}
OUT=$ROOT/exp
EDGE=$ROOT/edge
DATA=$EDGE/dataset
T="/usr/bin/time -v"
mkdir -p $OUT/phases
(while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done) > $OUT/load.log &
LOADPID=$!
EXP="$PY benchmarks/grpo_cpu_experiment.py --data $DATA --out $OUT --engine llamacpp"
EVAL="--threads 1 --max-tokens 128 --gold-caps --skip-train"
date -u +"start %H:%M:%S"

# Phase 1: EDGE synthesis (the default 2,000-row run; one core) while the base model, which needs no
# EDGE data, is evaluated on the 30 KOPA-Bench gold steps on the other core.
$T -o $OUT/phases/1-synth.time $KOPA synth --out $EDGE --n 2000 --seed 0 --fresh > $OUT/phases/1-synth.log 2>&1 &
P1=$!
$T -o $OUT/phases/1-base-bench.time $EXP $EVAL --edge-rows 0 --bench-rows 30 --only-model base \
   > $OUT/phases/1-base-bench.log 2>&1
wait $P1
date -u +"synth done %H:%M:%S"

# Phase 2: SFT (8-minute budget) then GRPO from the SFT checkpoint (6-minute budget), 2 threads.
$T -o $OUT/phases/2-train.time $EXP --sft-minutes 8 --grpo-minutes 6 --edge-rows 0 --bench-rows 0 --threads 2 \
   > $OUT/phases/2-train.log 2>&1
date -u +"train done %H:%M:%S"

# Phase 3: the three models on the 100 held-out EDGE steps (+ the trained two on the 30 bench steps),
# one process and one thread each, in parallel; then the aggregation (tables, tests, curves).
# (The run of 15:21 ended this phase with a bare `wait`, which also waited for the load sampler: it
# sat idle from 16:10:56, when the last evaluation ended, until the sampler was killed at 16:15:11.)
PIDS=""
for m in base sft sft+grpo; do
  $T -o $OUT/phases/3-eval-$m.time $EXP $EVAL --edge-rows 100 --bench-rows 30 --only-model $m \
     > $OUT/phases/3-eval-$m.log 2>&1 &
  PIDS="$PIDS $!"
done
wait $PIDS
date -u +"eval done %H:%M:%S"
$T -o $OUT/phases/4-aggregate.time $EXP --edge-rows 100 --bench-rows 30 --skip-train --max-tokens 128 \
   > $OUT/phases/4-aggregate.log 2>&1
date -u +"end %H:%M:%S"
kill $LOADPID
