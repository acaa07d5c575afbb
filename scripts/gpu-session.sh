#!/usr/bin/env bash
# One GPU lease's work for the GPU check (docs/GpuCheck.md), in one command
# that ends inside its time budget and packs everything it measured:
#
#   scripts/gpu-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]
#
# 1. gpu-check-run.sh: every op kind verified on the GPU, the default
#    schedules of the benchmark shapes timed next to cuBLAS/cuDNN and the
#    simulator;
# 2. tessel-tune --measure=cuda on the 1024^3 matmul, the BERT-base QKV
#    projection and the ResNet-50 3x3 conv with evolutionary, psa and dgd,
#    the remaining time shared out between the runs (--time-limit; a killed
#    run keeps its records);
# 3. OUTDIR/results.tar.gz after each step (results/: the check's files, one
#    records database and report per tuning run, nvidia-smi, the log).
#
# SECONDS (default 480) is the whole command's budget; the script stops
# starting work when it is spent.
set -uo pipefail

TAR="${1:?usage: gpu-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}"
OUT="${2:?usage: gpu-session.sh BUNDLE.tar.xz OUTDIR [SECONDS]}"
BUDGET="${3:-480}"
START=$(date +%s)
WORK=$(mktemp -d /tmp/tessel-gpu.XXXXXX)
RESULTS="$WORK/results"
mkdir -p "$OUT" "$RESULTS/tune"
OUT="$(cd "$OUT" && pwd)"

elapsed() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(elapsed))); }
pack() { tar -C "$WORK" -czf "$OUT/results.tar.gz" results; }
log() { echo "gpu-session [$(elapsed) s]: $*" | tee -a "$RESULTS/session.log"; }

tar xf "$TAR" -C "$WORK"
BUNDLE="$WORK/tessel-bundle"
export PATH="$BUNDLE/bin:$PATH"
export TESSEL_DEVICES_DIR="$BUNDLE/devices"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
# cuBLAS and cuDNN: the toolkit's, or the ones PyTorch's wheels carry.
TESSEL_VENDOR_LIB_PATH=$(find "$CUDA_PATH"/lib64 /usr/local/lib /opt /usr/lib \
  \( -name 'libcublas.so.*' -o -name 'libcudnn.so.*' \) 2>/dev/null |
  xargs -r -n1 dirname | sort -u | paste -sd:)
export TESSEL_VENDOR_LIB_PATH
log "vendor libraries in: $TESSEL_VENDOR_LIB_PATH"

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi
  nvidia-smi -q -d CLOCK,POWER,TEMPERATURE,PERFORMANCE
  "$CUDA_PATH/bin/ptxas" --version
  uname -a
  cat "$BUNDLE/README"
} > "$RESULTS/machine.txt" 2>&1
pack

# --- 1. Correctness and the default schedules against the vendor ------------
log "gpu-check-run.sh"
timeout $(( $(left) / 2 )) "$BUNDLE/gpu-check-run.sh" "$RESULTS/check" \
  > "$RESULTS/check.log" 2>&1
log "gpu-check-run.sh: exit $?"
pack

# --- 2. Tuning on the GPU ------------------------------------------------------
CHECK="$BUNDLE/benchmarks/gpu-check"
runs=()
for workload in matmul-1024 bert-qkv resnet-conv3x3-64; do
  for strategy in evolutionary psa dgd; do runs+=("$workload:$strategy"); done
done
remaining=${#runs[@]}
for run in "${runs[@]}"; do
  workload=${run%%:*}
  strategy=${run##*:}
  share=$(( ($(left) - 15) / remaining ))
  remaining=$((remaining - 1))
  if [ "$share" -lt 15 ]; then
    log "no time left for $workload $strategy"
    continue
  fi
  log "tune $workload $strategy: --time-limit=$share"
  timeout $((share + 30)) tessel-tune "$CHECK/$workload.mlir" --measure=cuda \
    --cuda-path="$CUDA_PATH" --strategy="$strategy" --trials=250 \
    --min-time-ms=20 --time-limit="$share" --seed=1 \
    --db="$RESULTS/tune/$workload-$strategy.db" \
    --report="$RESULTS/tune/$workload-$strategy.json" \
    > "$RESULTS/tune/$workload-$strategy.log" 2>&1
  log "tune $workload $strategy: exit $? ($(tail -1 "$RESULTS/tune/$workload-$strategy.log"))"
  pack
done

nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >> "$RESULTS/machine.txt" 2>&1
log "done"
pack
tail -25 "$RESULTS/check.log"; cat "$RESULTS/session.log"
