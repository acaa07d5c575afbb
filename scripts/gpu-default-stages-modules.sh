#!/usr/bin/env bash
# The default schedules of the GPU check's shapes with and without pipelined
# staging (stages = 2), compiled for sm_90 into OUTDIR (sources, modules and
# a manifest for scripts/gpu-bisect-session.sh, BISECT_MODULES=OUTDIR):
# whether double buffering should be the default (issue 41).
#
#   scripts/gpu-default-stages-modules.sh OUTDIR [BUILD_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: gpu-default-stages-modules.sh OUTDIR [BUILD_DIR]}"
BUILD="${2:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
rel=${OUT#"$ROOT"/}
[ "$rel" != "$OUT" ] || { echo "OUTDIR must be inside $ROOT" >&2; exit 2; }
: > "$OUT/manifest"
grep -v '^#' "$ROOT/benchmarks/gpu-check/shapes.txt" | while read -r shape _; do
  [ -n "$shape" ] || continue
  configured="$OUT/$shape.stages1.src.mlir"
  "$BUILD/bin/tessel-opt" "$ROOT/benchmarks/gpu-check/$shape.mlir" \
    --tessel-default-config -o "$configured"
  sed -E 's/(tessel\.config = #tessel\.config<[^>]*)>/\1, stages = 2>/' \
    "$configured" > "$OUT/$shape.stages2.src.mlir"
  # Default schedules without shared staging (the convolutions') have no
  # staging loop to pipeline.
  grep -q 'shared = \[' "$configured" || { rm "$OUT/$shape".stages*.src.mlir; continue; }
  for stages in 1 2; do
    name=$shape.stages$stages
    "$BUILD/bin/tessel-opt" "$OUT/$name.src.mlir" \
      --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH" -o "$OUT/$name.mlir"
    echo "$name $name.mlir $rel/$name.src.mlir" >> "$OUT/manifest"
  done
done
echo "gpu-default-stages-modules: $(wc -l < "$OUT/manifest") modules in $OUT"
