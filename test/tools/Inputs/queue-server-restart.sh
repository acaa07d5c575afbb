#!/usr/bin/env bash
# The PostgreSQL server of a tuner's records and queue restarts while the
# tuner and a worker use it: both reconnect and the run completes. Usage:
#   queue-server-restart.sh POSTGRES_LOCAL_SH MODEL OUT_DIR
# Uses a server of its own (the shared test server must not restart) and
# writes OUT_DIR/restarted.jsonl, the run's records.
set -euo pipefail
pg=$1 model=$2 out=$3
# Under /tmp: the server's user must reach it.
dir=$(mktemp -d /tmp/tessel-restart-XXXXXX)
rmdir "$dir"
export TESSEL_PG_OWNER_PID=$$
url=$("$pg" start "$dir" | tail -1)
trap '"$pg" stop "$dir" > /dev/null 2>&1 || true; rm -rf "$dir"' EXIT
port=${url##*:}
port=${port%%/*}

tessel-worker --db="$url" --measure=sim:h100 --max-idle=60 --delay-ms=20 \
  --quiet > "$out/worker.log" 2>&1 &
worker=$!
tessel-tune "$model" --measure=queue:"$url" --queue-target=sim:h100 \
  --sim-fidelity=analytic --trials=300 --seed=1 --db="$url" --quiet \
  > "$out/tune.log" 2>&1 &
tune=$!
measured=0
for _ in $(seq 1200); do
  measured=$(psql "$url" -tAc "SELECT count(*) FROM measurements" \
    2> /dev/null || echo 0)
  [ "$measured" -ge 64 ] && break
  sleep 0.05
done
"$pg" stop "$dir" > /dev/null
sleep 2
"$pg" start "$dir" "$port" > /dev/null
if [ "$measured" -ge 64 ] && [ "$measured" -lt 301 ]; then
  echo "server restarted during the run"
fi
status=0
wait $tune || status=$?
echo "tuner exit $status"
if kill -0 $worker 2> /dev/null; then
  echo "worker still serving"
fi
kill -TERM $worker
wait $worker || echo "worker exit $?"
cat "$out/tune.log" "$out/worker.log"
tessel-tune --db="$url" --export="$out/restarted.jsonl"
