#!/bin/bash
# The tuning runs of docs/results/psa/README.md (SIMULATED: sim:<device> with
# --sim-fidelity=analytic). One tessel-tune at a time (one core).
#   run-tuning.sh OUTDIR [workload...]
# Environment: TESSEL_TUNE (binary), PSA_TRIALS (psa runs, default 1000),
# SOURCE_TRIALS (the sim:a100 source runs, default 1000). The reference is
# evolutionary (Ansor's defaults) at 1000 trials.
set -u
out=${1:?usage: run-tuning.sh OUTDIR [workload...]}
shift
root=$(cd "$(dirname "$0")/../../.." && pwd)
tune=${TESSEL_TUNE:-$root/build/bin/tessel-tune}
psaTrials=${PSA_TRIALS:-1000}
sourceTrials=${SOURCE_TRIALS:-1000}
workloads=${*:-"resnet50-block bert-encoder-matmuls"}
mkdir -p "$out"
common="--sim-fidelity=analytic --sim-trial-seconds=0.6 --seed=0 -j=1 --quiet"
run() {  # name, device, flags...
  local name=$1 device=$2; shift 2
  [ -f "$out/$name.json" ] && return
  rm -f "$out/$name.db"
  echo "$(date -u +%T) $name: tessel-tune examples/$w.mlir --measure=sim:$device $common $*" | tee -a "$out/commands.txt"
  "$tune" "$root/examples/$w.mlir" --measure=sim:$device $common \
    --db="$out/$name.db" --report="$out/$name.json" "$@" > "$out/$name.log" 2>&1
}
# Order of importance: each workload's reference, psa, and psa with
# transfer; then the ablations.
for w in $workloads; do
  run "$w.evolutionary" h100 --strategy=evolutionary --trials=1000
  run "$w.psa" h100 --strategy=psa --trials=$psaTrials
  run "$w.a100-source" a100 --strategy=psa --trials=$sourceTrials \
    --save-cost-model="$out/$w.a100.ubj"
  run "$w.psa-transfer" h100 --strategy=psa --trials=$psaTrials \
    --cost-model-init="$out/$w.a100.ubj"
done
for w in $workloads; do
  run "$w.psa-no-dataflow" h100 --strategy=psa --trials=$psaTrials --features=ansor
  run "$w.psa-no-prune" h100 --strategy=psa --trials=$psaTrials --psa-no-prune
done
echo "$(date -u +%T) done" >> "$out/commands.txt"
