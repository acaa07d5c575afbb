#!/bin/bash
# The evolutionary baselines of ../fasor-networks-SIMULATED-h100.md, run in
# pieces on machines that do not keep /tmp: each piece resumes from the
# compressed records committed here and leaves a new snapshot to commit.
# SIMULATED: sim:h100, analytic fidelity, one virtual second a measurement.
#
#   run-evolutionary.sh start NETWORK [BUILD]  resume (or start) in the
#                                              background, lowest priority
#   run-evolutionary.sh snapshot NETWORK       write evo-NETWORK.db.xz here
#   run-evolutionary.sh curve NETWORK          write the curve file here
#
# NETWORK: mobilenetv2 (budget 33,000: 1000 a task), mobilebert (32,000:
# 100 a task, 319 tasks), mobilebert-1000 (319,000: 1000 a task, the
# mobilebert run continued in the same records; not finished, too slow) or
# mobilebert-ifc (13,000: 1000 a task, the 13 tasks of
# --task-equality=ignore-float-constants). BUILD: a build directory
# (default: build). The run
# uses a copy of tessel-tune, so that rebuilding does not stop it. THREADS
# (default 1) is XGBoost's thread count: 2 gives one run both cores of the
# dev VM (session 22: MobileBERT went from about 130 to 350 measurements a
# minute).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=/tmp/fnet
eval_ir=$root/../shared/eval/frontend-ir

cmd=${1:?usage: $0 start|snapshot|curve NETWORK [BUILD]}
network=${2:?usage: $0 start|snapshot|curve NETWORK [BUILD]}
records=$network
extra=()
case "$network" in
mobilenetv2)
  model=tpp-mobilenetv2-nhwc.mlir trials=33000
  curve=(--every 500 --at 2048 --reach 231.2) ;;
mobilebert)
  # Runs 1-3 are the complete 100-a-task run; later ones continue it.
  model=iree-tf-mobilebert-squad.mlir trials=32000 runs=1,2,3
  curve=(--every 1000 --at 10208 --reach 5130.7) ;;
mobilebert-1000)
  model=iree-tf-mobilebert-squad.mlir trials=319000 records=mobilebert
  curve=(--every 10000 --at 10208 --reach 5130.7) ;;
mobilebert-ifc)
  # Kernels that differ only in float constants (IREE's distinct splat
  # placeholder weights, folded into bodies) are one task: 13 tasks.
  model=iree-tf-mobilebert-squad.mlir trials=13000
  extra=(--task-equality=ignore-float-constants)
  curve=(--every 500 --at 832 --reach 6063.5) ;;
*) echo "unknown network '$network'" >&2; exit 2 ;;
esac
db=$work/evo-$records.db
snapshot=$here/evo-$records.db.xz
mkdir -p "$work"

case "$cmd" in
start)
  build=${3:-$root/build}
  if [ ! -e "$db" ] && [ -e "$snapshot" ]; then
    xz -dc "$snapshot" > "$db"
  fi
  cp "$build/bin/tessel-tune" "$work/tessel-tune-evo-$records"
  resume=()
  [ -e "$db" ] && resume=(--resume)
  threads=${THREADS:-1}
  OMP_NUM_THREADS=$threads nohup nice -n 19 "$work/tessel-tune-evo-$records" \
    "$eval_ir/$model" --measure=sim:h100 --sim-fidelity=analytic \
    --sim-trial-seconds=1 --trials=$trials --seed=1 --db="$db" \
    --cost-model="xgboost threads=$threads" "${extra[@]}" \
    "${resume[@]}" >> "$work/evo-$records.log" 2>&1 &
  echo "started: $db (log $work/evo-$records.log)"
  ;;
snapshot)
  # A consistent copy while the run goes on (SQLite's online backup).
  python3 - "$db" "$work/evo-$records.snapshot.db" <<'PY'
import sqlite3, sys
source, target = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
source.backup(target)
target.close()
PY
  xz -T1 -9 -c "$work/evo-$records.snapshot.db" > "$snapshot"
  rm "$work/evo-$records.snapshot.db"
  ls -l "$snapshot"
  ;;
curve)
  [ -n "${runs:-}" ] || runs=$(python3 -c "import sqlite3,sys; print(','.join(str(r[0]) for r in sqlite3.connect(sys.argv[1]).execute('select id from runs order by id')))" "$db")
  "$root/scripts/tuning-curve" "$db" --run "$runs" "${curve[@]}" \
    > "$here/evolutionary-$network.curve.txt"
  tail -4 "$here/evolutionary-$network.curve.txt"
  ;;
*) echo "unknown command '$cmd'" >&2; exit 2 ;;
esac
