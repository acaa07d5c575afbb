#!/usr/bin/env bash
# The one-command GPU check.
#
#   scripts/gpu-check.sh OUTDIR
#
# Builds (here, with LLVM/MLIR installed) the self-contained bundle
# OUTDIR/tessel-bundle.tar.xz: static tessel-opt, tessel-run,
# tessel-cuda-runner, tessel-vendor-bench, the device files, the GPU check
# modules (benchmarks/gpu-check) and gpu-check-run.sh. On a machine with an
# NVIDIA GPU (driver + CUDA toolkit, nothing else) unpack it and run
#
#   tar xf tessel-bundle.tar.xz && tessel-bundle/gpu-check-run.sh RESULTS
#
# which verifies every op kind on the GPU, times the default schedules and
# cuBLAS/cuDNN on the benchmark shapes and writes RESULTS/results.json. When
# this machine has a GPU itself, the check runs right away into OUTDIR/results.
# See docs/GpuCheck.md.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: scripts/gpu-check.sh OUTDIR}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
LIMIT_MIB=60

# build-bundle.sh packs the tools, devices/, benchmarks/ (with gpu-check/),
# gpu-check-run.sh and calibrate-sim into OUTDIR/tessel-bundle.tar.xz.
"$ROOT/scripts/build-bundle.sh" "$OUT"
BUNDLE="$OUT/tessel-bundle"
for f in bin/tessel-run bin/tessel-cuda-runner bin/tessel-vendor-bench \
         bin/calibrate-sim gpu-check-run.sh benchmarks/gpu-check/shapes.txt; do
  [ -e "$BUNDLE/$f" ] || { echo "gpu-check: the bundle lacks $f" >&2; exit 1; }
done

bytes=$(stat -c %s "$OUT/tessel-bundle.tar.xz")
mib=$(python3 -c "print(f'{$bytes / 2**20:.1f}')")
echo "gpu-check: bundle $OUT/tessel-bundle.tar.xz is $mib MiB (limit $LIMIT_MIB MiB)"
if [ "$bytes" -gt $((LIMIT_MIB * 1024 * 1024)) ]; then
  echo "gpu-check: the bundle exceeds $LIMIT_MIB MiB" >&2
  exit 1
fi

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  "$BUNDLE/gpu-check-run.sh" "$OUT/results"
else
  echo "gpu-check: no GPU here; on a GPU machine run:"
  echo "  tar xf tessel-bundle.tar.xz && tessel-bundle/gpu-check-run.sh RESULTS"
fi
