#!/usr/bin/env bash
# The workloads of benchmarks/default-ab under today's default schedule and
# under fc136a9's (NAME.previous.mlir: row reductions one thread an output,
# reducing its row serially; convolutions a block for the whole image of one
# output channel, unstaged), compiled for sm_90 into OUTDIR (modules and a
# manifest for scripts/gpu-bisect-session.sh, BISECT_MODULES=OUTDIR):
# whether session 31's default rules should stay (issue 52,
# docs/DefaultSchedules.md). Modules without a .previous variant (two
# kernels, the second reading the first's output; split-K) are verified and
# timed on their own.
#
#   scripts/gpu-default-ab-modules.sh OUTDIR [BUILD_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: gpu-default-ab-modules.sh OUTDIR [BUILD_DIR]}"
BUILD="${2:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
: > "$OUT/manifest"
for source in "$ROOT"/benchmarks/default-ab/*.mlir; do
  name=$(basename "$source" .mlir)
  "$BUILD/bin/tessel-opt" "$source" \
    --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH" -o "$OUT/$name.mlir"
  echo "$name $name.mlir benchmarks/default-ab/$name.mlir" >> "$OUT/manifest"
done
echo "gpu-default-ab-modules: $(wc -l < "$OUT/manifest") modules in $OUT"
