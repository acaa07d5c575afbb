#!/usr/bin/env bash
# One tuning run with 1, 2 and 4 measurement workers placed by a local
# single-node Slurm cluster, on sim:h100 (SIMULATED) with a fixed delay per
# measurement standing in for GPU time. Usage (from the repository root,
# as root, after `make`):
#   docs/results/queue-slurm-SIMULATED-h100/run.sh OUT_DIR [DELAY_MS] [TRIALS]
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
delay=${2:-200}
trials=${3:-384}
src=$(pwd)
export PATH=$src/build/bin:$PATH
model=$src/examples/bert-encoder-matmuls.mlir
pg=$out/pg
url=$(scripts/services/postgres-local.sh start "$pg")
trap 'scripts/services/slurm-local.sh stop "$out/slurm"; scripts/services/postgres-local.sh stop "$pg"' EXIT
export SLURM_CONF=$(scripts/services/slurm-local.sh start "$out/slurm" 4)
base=${url%/*}
for workers in 1 2 4; do
  db=queue_$workers
  scripts/services/postgres-fresh-db.sh "$url" "$db"
  job=$(TESSEL_MEASURE=sim:h100 sbatch --parsable --ntasks=$workers \
    --output="$out/job-$workers.out" scripts/slurm/tessel-workers.sbatch \
    "$base/$db" --delay-ms="$delay" --max-idle=5 --quiet)
  start=$(date +%s.%N)
  tessel-tune "$model" --measure=queue:"$base/$db" --queue-target=sim:h100 \
    --sim-fidelity=analytic --trials="$trials" --seed=1 \
    --db="$out/records-$workers.db" > "$out/tune-$workers.log" 2>&1
  end=$(date +%s.%N)
  while squeue -h -j "$job" | grep -q .; do sleep 0.5; done
  tessel-tune --db="$out/records-$workers.db" --export="$out/records-$workers.jsonl"
  echo "$workers worker(s): tuner wall $(echo "$end - $start" | bc) s; job $job: $(grep -h 'measured,' "$out/job-$workers.out" | awk '{ printf "%s%s", sep, $2; sep = "+" }') measured" | tee -a "$out/summary.txt"
done
for workers in 2 4; do
  python3 test/tools/Inputs/same-runs.py "$out/records-$workers.jsonl" \
    "$out/records-1.jsonl" | sed "s/^/$workers vs 1: /" | tee -a "$out/summary.txt"
done
