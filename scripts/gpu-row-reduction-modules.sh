#!/usr/bin/env bash
# Row reductions (benchmarks/row-reductions) under today's default schedule
# and under fc136a9's (NAME.previous.mlir: one thread an output, reducing its
# row serially), compiled for sm_90 into OUTDIR (modules and a manifest for
# scripts/gpu-bisect-session.sh, BISECT_MODULES=OUTDIR): whether splitting
# rows over a block's threads should stay the default (issue 52,
# docs/DefaultSchedules.md).
#
#   scripts/gpu-row-reduction-modules.sh OUTDIR [BUILD_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: gpu-row-reduction-modules.sh OUTDIR [BUILD_DIR]}"
BUILD="${2:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
: > "$OUT/manifest"
for source in "$ROOT"/benchmarks/row-reductions/*.mlir; do
  name=$(basename "$source" .mlir)
  "$BUILD/bin/tessel-opt" "$source" \
    --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH" -o "$OUT/$name.mlir"
  echo "$name $name.mlir benchmarks/row-reductions/$name.mlir" >> "$OUT/manifest"
done
echo "gpu-row-reduction-modules: $(wc -l < "$OUT/manifest") modules in $OUT"
