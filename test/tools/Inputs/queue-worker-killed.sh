#!/usr/bin/env bash
# A worker is killed (SIGKILL) while it holds a queue item; a second worker
# takes the item over once the lease has run out. Usage:
#   queue-worker-killed.sh DB_URL MODEL OUT_DIR
# Writes OUT_DIR/killed.db (the tuner's records) and prints the killed
# worker's claim.
set -euo pipefail
url=$1 model=$2 out=$3
tessel-tune "$model" --measure=queue:"$url" --queue-target=sim:h100 \
  --sim-fidelity=analytic --trials=30 --seed=1 --db="$out/killed.db" --quiet \
  > "$out/killed-tune.log" 2>&1 &
tune=$!
# Sleeps a minute after measuring its first item, before writing the result.
tessel-worker --db="$url" --measure=sim:h100 --name=doomed --lease=2 \
  --delay-ms=60000 --max-items=1 --quiet > /dev/null 2>&1 &
doomed=$!
for _ in $(seq 600); do
  claimed=$(psql "$url" -tAc "SELECT count(*) FROM queue_items WHERE worker = 'doomed'")
  [ "$claimed" = 1 ] && break
  sleep 0.05
done
kill -9 "$doomed"
wait "$doomed" 2> /dev/null || echo "doomed worker killed holding $claimed item"
tessel-worker --db="$url" --measure=sim:h100 --name=survivor \
  --quiet > "$out/survivor.log" 2>&1 &
survivor=$!
status=0
wait $tune || status=$?
echo "tuner exit $status"
kill -TERM $survivor
wait $survivor
cat "$out/survivor.log"
