#!/usr/bin/env bash
# Writes docs/results/sim-default-configs.md: the simulated time of every kernel
# of the default schedules of examples/ on sim:h100 (SIMULATED: predictions of
# docs/SimulatedGpu.md's model, noise off), from tessel-run's JSON report.
#
#   scripts/sim-default-configs.sh [BUILD_DIR] > docs/results/sim-default-configs.md
set -euo pipefail
build=${1:-build}
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$root"/examples/*.mlir; do
  "$build/bin/tessel-run" "$f" --measure=sim:h100 --sim-noise=0 > "$work/$(basename "$f" .mlir).json"
done
python3 - "$work" "$(git -C "$root" rev-parse --short HEAD)" <<'PY'
import json, os, sys
work, commit = sys.argv[1], sys.argv[2]
reports = {n[:-5]: json.load(open(os.path.join(work, n))) for n in sorted(os.listdir(work))}
print("# Simulated times of the default schedules of examples/ (sim:h100-sxm)\n")
print("> **The judge's measured error** (issue 42; docs/SimulatedGpu.md, \"The")
print("> judge's measured error\"): on H100 kernels its fit never saw, the simulator")
print("> ranks one workload's schedules at Spearman 0.50-0.71 and its top pick")
print("> measures 1.28-3.44x the best measured; differences inside that are not")
print("> evidence about hardware.\n")
print("**Simulated, not measured**: predictions of the GPU model of docs/SimulatedGpu.md")
print("for the compiled default-config kernels (ptxas resources + kernel facts), noise off.")
print(f"Regenerate: `scripts/sim-default-configs.sh build` (this file: at {commit}).\n")
print("| example | kernels | simulated total (us) | simulated GFLOP/s |")
print("|---|---|---|---|")
for name, r in reports.items():
    total = sum(k["simulated_us"] for k in r["kernels"])
    print(f"| {name} | {len(r['kernels'])} | {total:.1f} | {r['flops'] / total / 1e3:.0f} |")
for name, r in reports.items():
    print(f"\n## {name}\n")
    print("| kernel | op | grid | block | regs | spill B | smem B | simulated us | bound |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in r["kernels"]:
        spill = k["spill_load_bytes"] + k["spill_store_bytes"]
        print(f"| {k['module']} | {k['op']} | {k['grid'][0]} | {k['block'][0]} | {k['registers']} "
              f"| {spill} | {k['shared_bytes']} | {k['simulated_us']:.1f} | {k['simulated_bound']} |")
PY
