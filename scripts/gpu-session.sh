#!/usr/bin/env bash
# One GPU lease's work for the GPU check (docs/GpuCheck.md), in one command
# that ends inside its time budget and packs everything it measured:
#
#   scripts/gpu-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]
#
# 1. gpu-check-run.sh: every op kind verified on the GPU, the default
#    schedules of the benchmark shapes timed next to cuBLAS/cuDNN and the
#    simulator;
# 2. tessel-tune --measure=cuda on the 1024^3 matmul, the BERT-base QKV
#    projection and the ResNet-50 3x3 conv with evolutionary, psa and dgd,
#    the remaining time shared out between the runs (--time-limit; a killed
#    run keeps its records);
# 3. OUTDIR/results.tar.gz after each step (results/: the check's files, one
#    records database and report per tuning run, nvidia-smi, the log).
#
# SECONDS (default 480) is the whole command's budget; the script stops
# starting work when it is spent.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/gpu-session-common.sh"
gpu_session_start gpu-session \
  "${1:?usage: gpu-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" \
  "${2:?usage: gpu-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" "${3:-480}"

# --- 1. Correctness and the default schedules against the vendor ------------
log "gpu-check-run.sh"
timeout $(( $(left) / 2 )) "$BUNDLE/gpu-check-run.sh" "$RESULTS/check" \
  > "$RESULTS/check.log" 2>&1
log "gpu-check-run.sh: exit $?"
pack

# --- 2. Tuning on the GPU ------------------------------------------------------
CHECK="$BUNDLE/benchmarks/gpu-check"
runs=()
for workload in matmul-1024 bert-qkv resnet-conv3x3-64; do
  for strategy in evolutionary psa dgd; do runs+=("$workload:$strategy"); done
done
remaining=${#runs[@]}
for run in "${runs[@]}"; do
  workload=${run%%:*}
  strategy=${run##*:}
  share=$(( ($(left) - 15) / remaining ))
  remaining=$((remaining - 1))
  if [ "$share" -lt 15 ]; then
    log "no time left for $workload $strategy"
    continue
  fi
  log "tune $workload $strategy: --time-limit=$share"
  timeout -k 30 $((share + 30)) tessel-tune "$CHECK/$workload.mlir" --measure=cuda \
    --cuda-path="$CUDA_PATH" --strategy="$strategy" --trials=250 \
    --min-time-ms=20 --time-limit="$share" --seed=1 \
    --db="$RESULTS/tune/$workload-$strategy.db" \
    --report="$RESULTS/tune/$workload-$strategy.json" \
    > "$RESULTS/tune/$workload-$strategy.log" 2>&1
  log "tune $workload $strategy: exit $? ($(tail -1 "$RESULTS/tune/$workload-$strategy.log"))"
  pack
done

nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >> "$RESULTS/machine.txt" 2>&1
log "done"
pack
tail -25 "$RESULTS/check.log"; cat "$RESULTS/session.log"
