#!/usr/bin/env bash
# Sends SIGNAL to a tessel-tune run once it has recorded a round, then a
# second signal to another run. Usage:
#   tune-interrupt.sh SIGNAL MODEL OUT_DIR
set -euo pipefail
signal=$1 model=$2 out=$3
count() {
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from measurements').fetchone()[0])" "$1" 2> /dev/null || echo 0
}
tessel-tune "$model" --measure=sim:h100 --sim-fidelity=analytic \
  --trials=100000 --seed=1 --db="$out/run.db" --report="$out/report.json" \
  > "$out/summary.txt" 2> "$out/stderr.txt" &
tune=$!
for _ in $(seq 1200); do
  [ "$(count "$out/run.db")" -ge 64 ] && break
  sleep 0.05
done
kill -"$signal" $tune
status=0
wait $tune || status=$?
echo "tuner exit $status"
grep 'stopped by' "$out/stderr.txt"
python3 - "$out/report.json" "$out/run.db" <<'PY'
import json, sqlite3, sys
report = json.load(open(sys.argv[1]))
# Trial 0 is the default schedule, measured first.
last, count = sqlite3.connect(sys.argv[2]).execute(
    'select max(trial), count(*) from measurements').fetchone()
print('report trials == recorded:', report['trials'] == last == count - 1,
      '; under the budget:', last < 100000)
PY
head -1 "$out/summary.txt"
