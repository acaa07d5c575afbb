#!/usr/bin/env bash
# Tuning on a GPU after the barrier fix (docs/Barriers.md), in one command
# inside its budget (docs/results/gpu-h100-2026-11-27/, call 2):
#
#   scripts/gpu-tuning-session.sh BUNDLE.tar.xz OUTDIR [SECONDS] [MATMUL_DB]
#
# 1. the 4096^3 f16 matmul tuned on tensor cores (its CPU reference took the
#    whole share of the first call), cuBLAS through torch.matmul on the same
#    shape in the same call;
# 2. the 1024^3 f32 matmul tuned further (MATMUL_DB: the first call's
#    records, resumed) and the BERT QKV projection tuned, for the ratio to
#    cuBLAS with barriers where the dependences are.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/gpu-session-common.sh"
gpu_session_start gpu-tuning \
  "${1:?usage: gpu-tuning-session.sh BUNDLE.tar.xz OUTDIR [SECONDS] [MATMUL_DB]}" \
  "${2:?usage: gpu-tuning-session.sh BUNDLE.tar.xz OUTDIR [SECONDS] [MATMUL_DB]}" "${3:-360}"
CHECK="$BUNDLE/benchmarks/gpu-check"

gpu_tune matmul-4096-f16 110 "$CHECK/matmul-4096-f16.mlir" --measure=cuda \
  --strategy=evolutionary --trials=300 --min-time-ms=20
cublas_f16_4096

resume=()
if [ -n "${4:-}" ] && [ -f "$4" ]; then
  cp "$4" "$RESULTS/tune/matmul-1024-f32.db"
  resume=(--resume)
  log "resuming the matmul records of $4"
fi
gpu_tune matmul-1024-f32 120 "$CHECK/matmul-1024.mlir" --measure=cuda \
  --strategy=evolutionary --trials=400 --min-time-ms=20 "${resume[@]}"
gpu_tune bert-qkv-f32 90 "$CHECK/bert-qkv.mlir" --measure=cuda \
  --strategy=evolutionary --trials=300 --min-time-ms=20
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >> "$RESULTS/machine.txt" 2>&1
log "done"
pack
cat "$RESULTS/summary.txt" "$RESULTS/session.log"
