#!/usr/bin/env bash
# Compiles benchmarks/barriers/*.mlir for sm_90 with both barrier placements
# (docs/Barriers.md) into OUTDIR/NAME.{after-every-forall,dependences}.mlir,
# cubins inside, for scripts/gpu-verify-session.sh on a GPU machine whose
# bundle has no tessel-opt (BARRIER_MODULES=OUTDIR there):
#
#   scripts/gpu-barrier-modules.sh OUTDIR [BUILD_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: gpu-barrier-modules.sh OUTDIR [BUILD_DIR]}"
BUILD="${2:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
mkdir -p "$OUT"
for f in "$ROOT"/benchmarks/barriers/*.mlir; do
  name=$(basename "$f" .mlir)
  for mode in after-every-forall dependences; do
    "$BUILD/bin/tessel-opt" "$f" \
      --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH barriers=$mode" \
      -o "$OUT/$name.$mode.mlir"
  done
done
echo "gpu-barrier-modules: $(ls "$OUT" | wc -l) modules in $OUT"
