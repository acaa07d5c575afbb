#!/usr/bin/env bash
# Throughput of tessel-tune's inner loop (issue 4): configs compiled to cubins
# per second and the search overhead per round, for the 1024^3 matmul on the
# simulated H100 (the simulator costs microseconds, so the figures are
# compile + search). Not a test: it prints figures.
#
#   benchmarks/tune-throughput.sh [BUILD_DIR] [TRIALS] [JOBS] [STRATEGY]
set -euo pipefail
build=${1:-build}
trials=${2:-64}
jobs=${3:-$(nproc)}
strategy=${4:-evolutionary}
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/tessel-tune" "$root/examples/matmul-1024.mlir" --measure=sim:h100 \
  --strategy="$strategy" --trials="$trials" --measures-per-round=32 -j "$jobs" \
  --db="$work/records.db" --report="$work/report.json" --quiet > "$work/summary.txt"
python3 - "$work/report.json" "$trials" "$jobs" "$strategy" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
trials, jobs, strategy = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rounds = max(1, -(-r["trials"] // 32))
compile_measure, search = r["compile_measure_s"], r["search_s"]
print(f"machine: {jobs} compile threads; strategy {strategy}; {r['trials']} trials in {r['elapsed_s']:.1f} s")
print(f"compile+measure: {compile_measure:.1f} s -> {r['trials'] / compile_measure:.2f} candidates/s")
print(f"search: {search:.2f} s over {rounds} rounds -> {search / rounds:.3f} s/round, "
      f"{100 * search / max(search + compile_measure, 1e-9):.1f}% of the loop")
PY
