#!/usr/bin/env bash
# Compiles benchmarks/barriers/*.mlir for sm_90 in every kernel variant of
# gpu-session-common.sh (barrier placements, docs/Barriers.md; buffer
# alignment, docs/Alignment.md) into OUTDIR/NAME.VARIANT.mlir,
# cubins inside, for scripts/gpu-verify-session.sh on a GPU machine whose
# bundle has no tessel-opt (BARRIER_MODULES=OUTDIR there):
#
#   scripts/gpu-barrier-modules.sh OUTDIR [BUILD_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: gpu-barrier-modules.sh OUTDIR [BUILD_DIR]}"
BUILD="${2:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
source "$ROOT/scripts/gpu-session-common.sh"
mkdir -p "$OUT"
for f in "$ROOT"/benchmarks/barriers/*.mlir; do
  name=$(basename "$f" .mlir)
  for mode in $KERNEL_VARIANTS; do
    "$BUILD/bin/tessel-opt" "$f" \
      --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH $(kernel_variant_options $mode)" \
      -o "$OUT/$name.$mode.mlir"
  done
done
echo "gpu-barrier-modules: $(ls "$OUT" | wc -l) modules in $OUT"
