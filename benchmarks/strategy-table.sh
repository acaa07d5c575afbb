#!/usr/bin/env bash
# Issue 4's comparison: `evolutionary` against `random`, same seeds, same trial
# budget, on the 1024^3 matmul and a ResNet-50 3x3 conv, under the simulated
# H100 (SIMULATED: a model of the GPU). Prints a markdown table of the best
# simulated GFLOP/s per seed, the geomean, and the speedup over the default
# config. Not a test: it prints figures.
#
#   benchmarks/strategy-table.sh [BUILD_DIR] [TRIALS] [SEEDS] [FIDELITY]
#
# FIDELITY is `analytic` (default; no compilation, the search is the cost) or
# `compiled` (every candidate compiled with ptxas; about 1 s per candidate).
# WORKLOADS (default "matmul-1024 conv3x3-resnet") picks examples/; OUT keeps
# the reports there (runs already reported in OUT are not run again).
set -euo pipefail
build=${1:-build}
trials=${2:-1000}
seeds=${3:-5}
fidelity=${4:-analytic}
root="$(cd "$(dirname "$0")/.." && pwd)"
workloads=${WORKLOADS:-matmul-1024 conv3x3-resnet}
if [ -n "${OUT:-}" ]; then
  work=$OUT
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
# VARIANTS: "NAME:FLAG,FLAG ..." (default: random and evolutionary with
# Ansor's defaults), e.g. "evo-eps25:--strategy=evolutionary{epsilon-greedy=0.25}"
# (strategy options in braces: VARIANTS is split at spaces).
variants=${VARIANTS:-"random:--strategy=random evolutionary:--strategy=evolutionary"}
names=()
for variant in $variants; do names+=("${variant%%:*}"); done
for workload in $workloads; do
  for variant in $variants; do
    strategy=${variant%%:*}
    IFS=, read -r -a flags <<< "${variant#*:}"
    for seed in $(seq 1 "$seeds"); do
      [ -s "$work/$workload-$strategy-$seed.json" ] && continue
      start=$(date +%s.%N)
      rm -f "$work/$workload-$strategy-$seed.db"*
      "$build/bin/tessel-tune" "$root/examples/$workload.mlir" --measure=sim:h100 \
        --sim-fidelity="$fidelity" "${flags[@]}" --trials="$trials" --seed="$seed" \
        --db="$work/$workload-$strategy-$seed.db" --report="$work/$workload-$strategy-$seed.json.tmp" \
        --quiet > /dev/null
      mv "$work/$workload-$strategy-$seed.json.tmp" "$work/$workload-$strategy-$seed.json"
      end=$(date +%s.%N)
      echo "$workload $strategy $seed $(echo "$end - $start" | bc)" >> "$work/times.txt"
    done
  done
done
python3 - "$work" "$trials" "$seeds" "$fidelity" "${names[*]}" $workloads <<'PY'
import json, math, sys, os
work, trials, seeds, fidelity = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
strategies = sys.argv[5].split()
workloads = sys.argv[6:]
times = {}
for line in open(os.path.join(work, "times.txt")):
    w, s, seed, t = line.split()
    times[(w, s, int(seed))] = float(t)
print(f"SIMULATED (sim:h100-sxm, fidelity {fidelity}): best GFLOP/s after {trials} trials, seeds 1..{seeds}\n")
print("| workload | strategy | " + " | ".join(f"seed {i}" for i in range(1, seeds + 1)) +
      " | geomean | x default | wall s/run |")
print("|---|---|" + "---|" * seeds + "---|---|---|")
for w in workloads:
    for s in strategies:
        best, speed, wall = [], [], []
        for seed in range(1, seeds + 1):
            r = json.load(open(os.path.join(work, f"{w}-{s}-{seed}.json")))
            t = r["tasks"][0]
            best.append(t["best_gflops"])
            speed.append(t["default_latency_us"] / t["best_latency_us"])
            wall.append(times[(w, s, seed)])
        g = math.exp(sum(map(math.log, best)) / len(best))
        gs = math.exp(sum(map(math.log, speed)) / len(speed))
        print(f"| {w} | {s} | " + " | ".join(f"{b:.0f}" for b in best) +
              f" | {g:.0f} | {gs:.2f} | {sum(wall) / len(wall):.1f} |")
PY
