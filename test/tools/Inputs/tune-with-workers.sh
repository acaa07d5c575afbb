#!/usr/bin/env bash
# Runs tessel-tune beside COUNT sim:h100 queue workers, then stops the
# workers with SIGTERM (each finishes the item it holds and prints its
# summary). Nothing here depends on how long the tuner takes between
# batches, unlike a worker that leaves after --max-idle. Usage:
#   tune-with-workers.sh COUNT DB LOG_PREFIX TESSEL_TUNE_ARGS...
# Worker i's summary goes to LOG_PREFIX-i.log (nowhere when LOG_PREFIX is
# -). Exits with the tuner's status.
set -uo pipefail
count=$1 db=$2 logs=$3
shift 3
workers=()
for i in $(seq "$count"); do
  log=/dev/null
  [ "$logs" = - ] || log="$logs-$i.log"
  tessel-worker --db="$db" --measure=sim:h100 --quiet > "$log" &
  workers+=($!)
done
tessel-tune "$@"
status=$?
kill -TERM "${workers[@]}"
for worker in "${workers[@]}"; do
  wait "$worker" || { echo "tune-with-workers: a worker failed" >&2; status=1; }
done
exit $status
