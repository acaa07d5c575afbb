#!/usr/bin/env bash
# The second GPU lease's work, in one command that ends inside its budget and
# packs what it measured after each step (docs/results/gpu-h100-2026-11-26/):
#
#   scripts/gpu-followup-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]
#
# 1. gpu-check-run.sh on this GPU (op kinds verified, default schedules
#    against cuBLAS/cuDNN and the simulator);
# 2. the fixes of the first lease on hardware: the schedule that faulted with
#    CUDA_ERROR_MISALIGNED_ADDRESS (test/Pipelines/
#    tessel-to-cuda-shared-alignment.mlir) run and verified, and the ResNet-50
#    3x3 conv tuned (it stalled in compilation before the kernel-size limit);
# 3. Fasor's transfer on a real GPU: schedules of 48 random operators never
#    seen in pretraining (benchmarks/fasor-transfer/random-tasks-seed2.mlir)
#    measured, round-robin, for tessel-fasor-pretrain --records-target=cuda:..;
# 4. the measurement queue with a CUDA worker: tessel-tune --measure=queue:
#    (SQLite) and tessel-worker --measure=cuda on the BERT-base scores.
#
# SECONDS (default 420) is the whole command's budget.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/gpu-session-common.sh"
gpu_session_start gpu-followup \
  "${1:?usage: gpu-followup-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" \
  "${2:?usage: gpu-followup-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" "${3:-420}"

# --- 1. The check -----------------------------------------------------------
log "gpu-check-run.sh"
timeout "$(budget 100)" "$BUNDLE/gpu-check-run.sh" "$RESULTS/check" \
  > "$RESULTS/check.log" 2>&1
log "gpu-check-run.sh: exit $?"
pack

# --- 2. The first lease's fixes on hardware ---------------------------------
log "the schedule that faulted on the H200"
timeout "$(budget 60)" tessel-run \
  "$ROOT/test/Pipelines/tessel-to-cuda-shared-alignment.mlir" --measure=cuda \
  --cuda-path="$CUDA_PATH" --min-time-ms=20 -o "$RESULTS/aligned-qkv.json" \
  > "$RESULTS/aligned-qkv.log" 2>&1
rc=$?
log "aligned QKV: exit $rc ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["status"], d["verified"], d["verification"], d["timing"]["median_us"], d["message"])' "$RESULTS/aligned-qkv.json" 2>&1 | head -c 400))"
pack

# --- 3. Real-GPU data for Fasor's transfer ----------------------------------
gpu_tune fasor-transfer-random48 150 \
  "$ROOT/benchmarks/fasor-transfer/random-tasks-seed2.mlir" --measure=cuda \
  --strategy=random --scheduler=round-robin --measures-per-round=16 \
  --trials=1600 --min-time-ms=5

gpu_tune resnet-conv3x3-64-evolutionary 50 \
  "$BUNDLE/benchmarks/gpu-check/resnet-conv3x3-64.mlir" --measure=cuda \
  --strategy=evolutionary --trials=250 --min-time-ms=20

# --- 4. The queue with a CUDA worker ----------------------------------------
QDB="$RESULTS/tune/queue-bert-scores.db"
share=$(budget 45)
if [ "$share" -ge 15 ]; then
  timeout $((share + 60)) tessel-worker --db="$QDB" --measure=cuda \
    --max-idle=120 --name=gpu0 > "$RESULTS/tune/queue-worker.log" 2>&1 &
  worker=$!
  gpu_tune queue-bert-scores "$share" \
    "$BUNDLE/benchmarks/gpu-check/bert-scores.mlir" --measure=queue:"$QDB" \
    --queue-target=cuda:h100-sxm --strategy=evolutionary --trials=250 \
    --measures-per-round=32
  # The tuner has its results: the worker has nothing left to measure.
  kill "$worker" 2>/dev/null; wait "$worker"
  log "queue worker: exit $? ($(tail -1 "$RESULTS/tune/queue-worker.log"))"
fi

nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >> "$RESULTS/machine.txt" 2>&1
log "done"
pack
tail -14 "$RESULTS/check.log"; cat "$RESULTS/session.log"
