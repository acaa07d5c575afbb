#!/usr/bin/env bash
# Submits two sim:h100 workers through the Slurm cluster of $SLURM_CONF,
# tunes through the queue, and waits for the job. Usage:
#   slurm-workers.sh DB_URL MODEL OUT_DIR TESSEL_SRC
set -euo pipefail
url=$1 model=$2 out=$3 src=$4
job=$(TESSEL_MEASURE=sim:h100 TESSEL_WORKER=$(command -v tessel-worker) \
  sbatch --parsable --ntasks=2 --output="$out/job-%j.out" \
  "$src/scripts/slurm/tessel-workers.sbatch" "$url" --quiet)
echo "submitted job $job with 2 tasks"
tessel-tune "$model" --measure=queue:"$url" --queue-target=sim:h100 \
  --sim-fidelity=analytic --trials=60 --seed=1 --db="$out/slurm.db" --quiet
echo "tuner exit $?"
# The workers finish what they hold and leave (docs/Slurm.md).
scancel --signal=TERM "$job"
for _ in $(seq 300); do
  squeue -h -j "$job" 2> /dev/null | grep -q . || break
  sleep 0.2
done
state=$(scontrol show job "$job" 2> /dev/null | grep -o 'JobState=[A-Z]*' | cut -d= -f2)
echo "job $job ${state:-COMPLETED}"
cat "$out/job-$job.out"
grep -h 'measured,' "$out/job-$job.out" | awk '{ n += $2 } END { print NR " workers measured " n }'
