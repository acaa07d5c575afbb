#!/usr/bin/env bash
# The main job of `make tune`: compile every model of examples/ to cubins
# with default schedules and print, per kernel, what ptxas reports; then tune
# each model with tessel-tune on a small budget (TUNE_TRIALS per model,
# default 32) on the default measurer -- `cuda` when a GPU is present,
# otherwise `sim:h100` (simulated, and said so; analytic timing, 200 trials by
# default) -- print its summary and compile the best schedules.
# Usage: scripts/tune-examples.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
chip=${TESSEL_CHIP:-sm_90}
out=${TESSEL_OUT:-$build/examples}
mkdir -p "$out"
status=0
printf "%-26s %-28s %9s %12s %13s\n" model kernel registers "smem (B)" "spills (B)"
for f in examples/*.mlir; do
  b=$(basename "$f" .mlir)
  if ! "$build/bin/tessel-opt" "$f" --tessel-to-cuda="chip=$chip format=bin resources-file=$out/$b.kernels.json" \
       -o "$out/$b.cubin.mlir" 2> "$out/$b.log"; then
    echo "$b: compilation failed, see $out/$b.log" >&2
    status=1
    continue
  fi
  python3 - "$b" "$out/$b.kernels.json" <<'PY'
import json, sys
model, path = sys.argv[1], sys.argv[2]
for k in json.load(open(path)):
    spills = k["spill_store_bytes"] + k["spill_load_bytes"]
    print(f'{model:26} {k["module"]:28} {k["registers"]:9} {k["shared_memory_bytes"]:12} {spills:13}')
PY
done
echo "cubins and per-kernel JSON in $out/ (chip $chip)"

if [ -n "${TESSEL_MEASURE:-}" ]; then
  measure=$TESSEL_MEASURE
elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  measure=cuda
else
  measure=sim:h100
  echo "no GPU found: tuning on the SIMULATED H100 (sim:h100); times are model predictions, not measurements"
fi
# On the simulator, candidates are timed analytically (no compilation, see
# docs/Tuning.md) unless TESSEL_SIM_FIDELITY=compiled; the best schedules are
# then compiled to cubins with --emit, so every tuned model still goes through
# the whole pipeline.
extra=()
if [ "$measure" = cuda ]; then
  trials=${TUNE_TRIALS:-32}
else
  fidelity=${TESSEL_SIM_FIDELITY:-analytic}
  extra+=(--sim-fidelity="$fidelity")
  if [ "$fidelity" = analytic ]; then
    trials=${TUNE_TRIALS:-200}
  else
    trials=${TUNE_TRIALS:-32}
  fi
fi
for f in examples/*.mlir; do
  b=$(basename "$f" .mlir)
  echo
  echo "== tessel-tune $b: $trials trials on $measure ${extra[*]}"
  rm -rf "$out/$b.db" "$out/$b.db-wal" "$out/$b.db-shm" "$out/$b.tuned"
  if ! "$build/bin/tessel-tune" "$f" --measure="$measure" --trials="$trials" "${extra[@]}" \
       --measures-per-round=16 --db="$out/$b.db" --report="$out/$b.report.json" \
       --emit="$out/$b.tuned" --quiet; then
    if [ -s "$out/$b.report.json" ]; then
      echo "$b: tuned, but the best schedules did not compile (see above)" >&2
    else
      echo "$b: tuning failed" >&2
    fi
    status=1
  fi
done
echo "tuning records and reports in $out/"
exit $status
