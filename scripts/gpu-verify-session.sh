#!/usr/bin/env bash
# A prepared lease (not yet run): checks on a GPU what sessions after the H100
# lease changed or added without one, in one command inside its budget:
#
#   scripts/gpu-verify-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]
#
# 1. gpu-check-run.sh, now with five tensor_core schedules among the ops (TF32 with --allow-tf32)
#    (ldmatrix + mma.sync have not run on a GPU before);
# 2. the queue with a CUDA worker on the BERT-base scores, which measured
#    stale data on the H100: expect no launch_error or wrong_result, the
#    records under the GPU's name, a queue database of a few MB;
# 3. --allow-tf32 tuning of the 1024^3 matmul: TF32 candidates verified with
#    the TF32 tolerance (expect ok, not wrong_result);
# 4. the 4096^3 f16 matmul tuned on tensor cores, next to cuBLAS through
#    torch.matmul on the same f16 inputs;
# 5. barriers where the dependences are (docs/Barriers.md), the default of
#    this bundle, so step 1 already checks every op kind with them: the
#    fastest measured matmul and QKV schedules and an 8-vthread QKV schedule
#    compiled in the variants of gpu-session-common.sh (upstream's barriers;
#    Tessel's, as the 2026-11-27 lease ran them; the default, which adds
#    128-bit loads, FMA and accumulators started in registers: step 1 checks
#    every op kind with it), timed in the same call; compute-sanitizer's
#    racecheck on small kernels of the same structure and on the check's op
#    kinds; the 1024^3 f32 matmul tuned again;
# 6. pipelined staging (cp.async, one barrier per step since session 28,
#    never run on a GPU): benchmarks/gpu-check/ops/matmul_pipelined_{2,3}
#    stages.mlir verified against the CPU in step 1 and racechecked in 5,
#    and the 1024^3 f32 matmul tuned with --max-stages=3 after step 5's run
#    without, for the same time;
# 7. dynamic shared memory (session 29, never run on a GPU): ops/
#    matmul_dynamic_shared.mlir (64 KiB of tiles, opted in by the runner)
#    verified in step 1 and racechecked in 5; step 6's tuning admits tiles
#    up to the opt-in limit;
# 8. cross_thread_reduction (never run on a GPU): ops/
#    row_reduction_cross_thread.mlir, BERT's softmax maximum one block per
#    row, verified in step 1 and racechecked in 5 (the candidate default
#    for long reductions, issue 41 item 8).
#
# SECONDS (default 480) is the whole command's budget. Results in
# OUTDIR/results.tar.gz; a summary of the databases in results/summary.txt.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/gpu-session-common.sh"
gpu_session_start gpu-verify \
  "${1:?usage: gpu-verify-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" \
  "${2:?usage: gpu-verify-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}" "${3:-480}"
CHECK="$BUNDLE/benchmarks/gpu-check"

# --- 1. The check, with tensor cores ----------------------------------------
log "gpu-check-run.sh"
timeout "$(budget 110)" "$BUNDLE/gpu-check-run.sh" "$RESULTS/check" \
  > "$RESULTS/check.log" 2>&1
log "gpu-check-run.sh: exit $? ($(grep 'op kinds verified' "$RESULTS/check.log"))"
pack

# --- 5. Barriers and vector loads: before and after, races, a tuning run ----
BARRIERS="$BUNDLE/benchmarks/barriers"
# Modules compiled elsewhere (scripts/gpu-barrier-modules.sh) when the bundle
# has no tessel-opt; otherwise compiled here.
MODULES="${BARRIER_MODULES:-$RESULTS/barriers}"
mkdir -p "$RESULTS/barriers"
log "barriers: before/after of $(ls "$BARRIERS" | grep -c 'mlir$') schedules"
for f in "$BARRIERS"/*.mlir; do
  name=$(basename "$f" .mlir)
  for mode in $KERNEL_VARIANTS; do
    out="$RESULTS/barriers/$name.$mode"
    module="$MODULES/$name.$mode.mlir"
    [ -f "$module" ] || timeout 60 tessel-opt "$f" \
      --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH $(kernel_variant_options $mode)" \
      -o "$module" 2> "$out.err"
    timeout 60 tessel-run "$module" --reference="$f" \
      --measure=cuda --cuda-path="$CUDA_PATH" --min-time-ms=20 \
      -o "$out.json" 2>> "$out.err"
    log "barriers: $name $mode: exit $? ($(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r.get('status'), r.get('verified'), (r.get('timing') or {}).get('median_us'))" "$out.json" 2>&1 | tail -1))"
  done
done
pack
# Racecheck: the sanitizer follows tessel-run's runner process.
if command -v compute-sanitizer >/dev/null; then
  for f in "$BARRIERS"/small-*.mlir "$CHECK"/ops/{matmul_pipelined_2stages,matmul_pipelined_3stages,matmul_dynamic_shared,row_reduction_cross_thread,row_reduction_generic,matmul_bias_relu_fused,conv_bias_relu_fused}.mlir; do
    [ "$(elapsed)" -lt 290 ] || break
    name=$(basename "$f" .mlir)
    input=("$f")
    [ -f "$MODULES/$name.default.mlir" ] &&
      input=("$MODULES/$name.default.mlir" --reference="$f")
    timeout -k 5 20 compute-sanitizer --tool racecheck \
      --target-processes all --racecheck-report all \
      tessel-run "${input[@]}" --measure=cuda --cuda-path="$CUDA_PATH" \
      --min-time-ms=0 --timeout=60 -o "$RESULTS/barriers/racecheck-$name.json" \
      > "$RESULTS/barriers/racecheck-$name.log" 2>&1
    log "racecheck $name: exit $? ($(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$RESULTS/barriers/racecheck-$name.log" | tr '\n' ' '))"
  done
  pack
fi
gpu_tune matmul-1024-f32 50 "$CHECK/matmul-1024.mlir" --measure=cuda \
  --strategy=evolutionary --trials=300 --min-time-ms=20
# 6. The same with pipelined staging in the space (stages 2-3, cp.async, one
# barrier per step): whether double buffering should be the default.
gpu_tune matmul-1024-f32-stages 40 "$CHECK/matmul-1024.mlir" --measure=cuda \
  --strategy=evolutionary --trials=300 --min-time-ms=20 --max-stages=3

# --- 4. f16 on tensor cores against cuBLAS ------------------------------------
gpu_tune matmul-4096-f16 60 "$CHECK/matmul-4096-f16.mlir" --measure=cuda \
  --strategy=evolutionary --trials=300 --min-time-ms=20
cublas_f16_4096

# --- 2. The queue with a CUDA worker ----------------------------------------
share=$(budget 30)
if [ "$share" -ge 15 ]; then
  timeout $((share + 60)) tessel-worker --db="$RESULTS/tune/queue-bert-scores.db" \
    --measure=cuda --max-idle=120 --name=gpu0 \
    > "$RESULTS/tune/queue-worker.log" 2>&1 &
  worker=$!
  gpu_tune queue-bert-scores "$share" "$CHECK/bert-scores.mlir" \
    --measure=queue:"$RESULTS/tune/queue-bert-scores.db" \
    --queue-target=cuda:h100-sxm --strategy=evolutionary --trials=250 \
    --measures-per-round=32
  kill "$worker" 2>/dev/null; wait "$worker"
  log "queue worker: exit $? ($(tail -1 "$RESULTS/tune/queue-worker.log"))"
fi

# --- 3. TF32 -----------------------------------------------------------------
gpu_tune matmul-1024-tf32 30 "$CHECK/matmul-1024.mlir" --measure=cuda \
  --allow-tf32 --strategy=evolutionary --trials=300 --min-time-ms=20

nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >> "$RESULTS/machine.txt" 2>&1
log "done"
pack
cat "$RESULTS/summary.txt" "$RESULTS/session.log"
