#!/usr/bin/env bash
# A worker is sent SIGTERM while it measures an item (docs/Queue.md): it
# finishes and writes that item, prints its summary and exits 0; a second
# worker measures the rest. Usage:
#   queue-worker-stop.sh MODEL OUT_DIR
set -euo pipefail
model=$1 out=$2
queue=$out/stop-queue.db
tessel-tune "$model" --measure=queue:"$queue" --queue-target=sim:h100 \
  --sim-fidelity=analytic --trials=20 --seed=1 --db="$out/stop.db" --quiet \
  > "$out/stop-tune.log" 2>&1 &
tune=$!
# Sleeps 3 s after each measurement, before writing its result.
tessel-worker --db="$queue" --measure=sim:h100 --name=stopped \
  --delay-ms=3000 > "$out/stopped.log" 2>&1 &
stopped=$!
claims() {
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from queue_items where worker = 'stopped' and state = '$1'\").fetchone()[0])" "$queue" 2> /dev/null || echo 0
}
for _ in $(seq 1200); do
  [ "$(claims claimed)" = 1 ] && break
  sleep 0.05
done
kill -TERM $stopped
status=0
wait $stopped || status=$?
echo "stopped worker exit $status, items it still holds: $(claims claimed)"
tessel-worker --db="$queue" --measure=sim:h100 --name=second --quiet \
  > "$out/second.log" &
second=$!
status=0
wait $tune || status=$?
echo "tuner exit $status"
kill -TERM $second
wait $second
cat "$out/stopped.log" "$out/second.log"
python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from measurements').fetchone()[0], 'measurements recorded')" "$out/stop.db"
