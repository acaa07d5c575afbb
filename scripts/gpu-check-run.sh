#!/usr/bin/env bash
# Runs the GPU check from an unpacked Tessel bundle on a machine with an NVIDIA
# GPU, its driver and a CUDA toolkit (for ptxas): verifies every op kind on
# the GPU against the CPU, times the default schedules of the benchmark
# shapes (and the simulator's prediction for them) and cuBLAS/cuDNN on the
# same shapes, and writes OUTDIR/results.json (+ results.csv, calibration.txt).
#
#   tessel-bundle/gpu-check-run.sh OUTDIR
set -uo pipefail

BUNDLE="$(cd "$(dirname "$0")" && pwd)"
OUT="${1:?usage: gpu-check-run.sh OUTDIR}"
mkdir -p "$OUT/ops" "$OUT/shapes"
export PATH="$BUNDLE/bin:$PATH"
export TESSEL_DEVICES_DIR="$BUNDLE/devices"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
CHECK="$BUNDLE/benchmarks/gpu-check"

command -v nvidia-smi >/dev/null && nvidia-smi \
  --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv > "$OUT/nvidia-smi.csv" 2>&1
GPU_NAME="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
case "$GPU_NAME" in
  *H200*) SIM=h200 ;;
  *H100*) SIM=h100-sxm ;;
  *A100*) SIM=a100-sxm4-80gb ;;
  *V100*) SIM=v100 ;;
  *4090*) SIM=rtx4090 ;;
  *3090*) SIM=rtx3090 ;;
  *T4*) SIM=t4 ;;
  *) SIM=h100-sxm ;;
esac
echo "gpu-check: GPU '$GPU_NAME', simulator sim:$SIM, CUDA toolkit $CUDA_PATH"

for f in "$CHECK"/ops/*.mlir; do
  name="$(basename "$f" .mlir)"
  # TF32 schedules compute in TF32 only when allowed (and are checked so).
  tf32=()
  case "$name" in *tf32*) tf32=(--allow-tf32) ;; esac
  tessel-run "$f" --measure=cuda --cuda-path="$CUDA_PATH" --min-time-ms=20 \
    "${tf32[@]}" -o "$OUT/ops/$name.json" 2> "$OUT/ops/$name.err"
  echo "gpu-check: op $name: exit $?"
done

grep -v '^#' "$CHECK/shapes.txt" | while read -r name vendor; do
  [ -n "$name" ] || continue
  tessel-run "$CHECK/$name.mlir" --measure=cuda --cuda-path="$CUDA_PATH" \
    -o "$OUT/shapes/$name.cuda.json" 2> "$OUT/shapes/$name.cuda.err"
  echo "gpu-check: shape $name on the GPU: exit $?"
  tessel-run "$CHECK/$name.mlir" --measure=sim:$SIM --cuda-path="$CUDA_PATH" \
    -o "$OUT/shapes/$name.sim.json" 2> "$OUT/shapes/$name.sim.err"
  # "gemm=M,N,K batch=B" -> --gemm=M,N,K --batch=B
  args=()
  for word in $vendor; do args+=("--$word"); done
  tessel-vendor-bench "${args[@]}" --json > "$OUT/shapes/$name.vendor.json" \
    2> "$OUT/shapes/$name.vendor.err"
  echo "gpu-check: shape $name with the vendor library: exit $?"
done

python3 - "$OUT" "$CHECK/shapes.txt" "$GPU_NAME" <<'PY'
import csv, datetime, json, os, sys
out, shapes_file, gpu = sys.argv[1], sys.argv[2], sys.argv[3]

def load(path):
    try:
        with open(path) as f:
            text = f.read().strip()
        return json.loads(text.splitlines()[-1] if text.startswith('{"') else text)
    except (OSError, ValueError, IndexError):
        return None

def error(path):
    try:
        with open(path) as f:
            return f.read().strip().splitlines()[-1]
    except (OSError, IndexError):
        return ""

smi = ""
if os.path.exists(os.path.join(out, "nvidia-smi.csv")):
    smi = open(os.path.join(out, "nvidia-smi.csv")).read().strip()
# Every row names the device, driver, clocks and date it was measured with.
machine = {"device": gpu, "driver": "", "clocks": "",
           "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat()}
smi_rows = list(csv.reader(smi.splitlines()))
if len(smi_rows) >= 2 and len(smi_rows[1]) >= 5:
    values = [v.strip() for v in smi_rows[1]]
    machine["driver"] = values[1]
    machine["clocks"] = f"SM {values[2]} (max {values[3]}), memory {values[4]}, not locked"
results = {"tool": "scripts/gpu-check.sh", "version": 1,
           "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
           "gpu": gpu, "nvidia_smi": smi, "device": None,
           "ops": [], "rows": []}
for name in sorted(os.listdir(os.path.join(out, "ops"))):
    if not name.endswith(".err"):
        continue
    name = name[:-4] + ".json"
    r = load(os.path.join(out, "ops", name)) or {}
    if r.get("device") and not results["device"]:
        results["device"] = r["device"]
    results["ops"].append({
        "op": name[:-5], "status": r.get("status", "no result"),
        "verified": r.get("verified", False),
        "median_us": (r.get("timing") or {}).get("median_us"),
        "message": r.get("message") or error(os.path.join(out, "ops", name[:-5] + ".err")),
        **machine})
for line in open(shapes_file):
    if not line.strip() or line.startswith("#"):
        continue
    name = line.split()[0]
    base = os.path.join(out, "shapes", name)
    cuda, sim, vendor = load(base + ".cuda.json") or {}, load(base + ".sim.json") or {}, load(base + ".vendor.json") or {}
    measured = (cuda.get("timing") or {}).get("median_us") if cuda.get("status") == "ok" else None
    vendor_us = (vendor.get("timing") or {}).get("median_us") if vendor.get("status") == "ok" else None
    results["rows"].append({
        "name": name, "group": "default-config",
        "status": cuda.get("status", error(base + ".cuda.err") or "no result"),
        "verified": cuda.get("verified", False),
        "measured_us": measured, "gflops": cuda.get("gflops") if measured else None,
        "simulated_us": (sim.get("timing") or {}).get("median_us"),
        "simulated_device": sim.get("measurer"),
        "vendor": vendor.get("library"), "vendor_algorithm": vendor.get("algorithm"),
        "vendor_status": vendor.get("status", error(base + ".vendor.err") or "no result"),
        "vendor_us": vendor_us,
        "vendor_ratio": (vendor_us / measured) if measured and vendor_us else None,
        **machine})
with open(os.path.join(out, "results.json"), "w") as f:
    json.dump(results, f, indent=2)
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    fields = ["name", "status", "verified", "measured_us", "gflops", "simulated_us",
              "vendor", "vendor_us", "vendor_ratio", "vendor_algorithm",
              "device", "driver", "clocks", "date"]
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
    w.writeheader()
    for row in results["rows"]:
        w.writerow(row)
ok = sum(1 for o in results["ops"] if o["status"] == "ok" and o["verified"])
print(f"gpu-check: {ok}/{len(results['ops'])} op kinds verified on the GPU")
print(f"{'shape':<24} {'status':<13} {'tessel us':>10} {'vendor us':>10} {'vendor/tessel':>13} {'sim us':>9}")
for r in results["rows"]:
    fmt = lambda v, p=1: "-" if v is None else f"{v:.{p}f}"
    print(f"{r['name']:<24} {r['status']:<13} {fmt(r['measured_us']):>10} {fmt(r['vendor_us']):>10} "
          f"{fmt(r['vendor_ratio'], 3):>13} {fmt(r['simulated_us']):>9}")
PY
"$BUNDLE/bin/calibrate-sim" "$OUT/results.json" > "$OUT/calibration.txt" 2>&1
cat "$OUT/calibration.txt"
echo "gpu-check: results in $OUT/results.json"
