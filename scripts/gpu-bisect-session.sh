#!/usr/bin/env bash
# A prepared lease: runs the modules of scripts/gpu-bisect-modules.sh (each
# verified against its source's CPU reference and timed), compute-sanitizer's
# memcheck and racecheck on the wrong_result schedule, and a short tuning run
# of the ResNet-50 3x3 conv whose first run hit the misaligned cp.async:
#
#   BISECT_MODULES=DIR[:DIR...] scripts/gpu-bisect-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]
#
# (each DIR with a manifest of NAME MODULE SOURCE lines;
# BISECT_SANITIZE=0 and BISECT_TUNE=0 leave the last two steps out).
# Results in OUTDIR/results.tar.gz (results/bisect/NAME.json, the
# sanitizers' logs, tune/), a table in results/session.log.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/gpu-session-common.sh"
gpu_session_start gpu-bisect \
  "${1:?usage: gpu-bisect-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" \
  "${2:?usage: gpu-bisect-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" "${3:-200}"
MODULE_DIRS="${BISECT_MODULES:?BISECT_MODULES=DIR (scripts/gpu-bisect-modules.sh)}"
MODULES="${MODULE_DIRS%%:*}"
mkdir -p "$RESULTS/bisect"

for dir in ${MODULE_DIRS//:/ }; do
while read -r name module source; do
  timeout 60 tessel-run "$dir/$module" --reference="$ROOT/$source" \
    --measure=cuda --cuda-path="$CUDA_PATH" --min-time-ms=20 \
    -o "$RESULTS/bisect/$name.json" 2> "$RESULTS/bisect/$name.err"
  log "bisect $name: exit $? ($(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); t=r.get('timing') or {}; print(r.get('status'), r.get('verified'), t.get('median_us'), (r.get('message') or '')[:160])" "$RESULTS/bisect/$name.json" 2>&1 | tail -1))"
done < "$dir/manifest"
done
pack

if [ "${BISECT_SANITIZE:-1}" = 1 ] && [ -f "$MODULES/wrong-default.mlir" ] &&
   command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    timeout -k 5 60 compute-sanitizer --tool $tool --target-processes all \
      tessel-run "$MODULES/wrong-default.mlir" \
      --reference="$ROOT/benchmarks/gpu-bisect/conv3x3-64-wrong.mlir" \
      --measure=cuda --cuda-path="$CUDA_PATH" --min-time-ms=0 --timeout=50 \
      -o "$RESULTS/bisect/$tool-wrong-default.json" \
      > "$RESULTS/bisect/$tool-wrong-default.log" 2>&1
    log "$tool wrong-default: exit $? ($(grep -E 'SUMMARY' "$RESULTS/bisect/$tool-wrong-default.log" | tr '\n' ' ') $(grep -m3 -E 'Invalid|hazard|Race' "$RESULTS/bisect/$tool-wrong-default.log" | tr '\n' ' ' | cut -c1-300))"
  done
  pack
fi

[ "${BISECT_TUNE:-1}" = 1 ] && gpu_tune resnet-conv3x3-64-aligned-async 60 \
  "$BUNDLE/benchmarks/gpu-check/resnet-conv3x3-64.mlir" --measure=cuda \
  --strategy=evolutionary --trials=300 --min-time-ms=20 --max-stages=3

nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >> "$RESULTS/machine.txt" 2>&1
log "done"
pack
cat "$RESULTS/summary.txt" "$RESULTS/session.log"
