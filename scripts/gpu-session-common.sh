# Shared by the one-lease GPU scripts (gpu-session.sh, gpu-followup-session.sh):
# source it, then call
#
#   gpu_session_start NAME BUNDLE.tar.xz OUTDIR SECONDS
#
# which unpacks the bundle into a fresh work directory, puts its tools on
# PATH, finds cuBLAS/cuDNN, writes results/machine.txt and packs
# OUTDIR/results.tar.gz. Afterwards: $BUNDLE, $RESULTS, $CUDA_PATH, and
# elapsed, left (seconds of SECONDS), budget N (N, or what is left less a
# margin), pack (OUTDIR/results.tar.gz again), log MESSAGE, and
# gpu_tune NAME SECONDS ARGS... (a tessel-tune run of at most SECONDS into
# results/tune/NAME.{db,json,log}, summarized in results/summary.txt), and
# cublas_f16_4096 (cuBLAS through PyTorch on the 4096^3 f16 matmul).

# The variants the A/B section compiles each benchmarks/barriers module in
# (scripts/gpu-barrier-modules.sh here, gpu-verify-session.sh on the GPU),
# oldest first: upstream's barriers with element-wide global loads (before
# session 26), Tessel's barriers with them (docs/Barriers.md; what the
# 2026-11-27 H100 lease measured), and the default: also 128-bit loads under
# the 16-byte buffer contract (docs/Alignment.md), FMA contraction and
# accumulators started from their fill in registers (docs/Materialization.md).
KERNEL_VARIANTS="after-every-forall dependences default"
kernel_variant_options() {
  case $1 in
    after-every-forall) echo "barriers=after-every-forall buffer-alignment=0 fp-contract=0 forward-fills=0" ;;
    dependences) echo "barriers=dependences buffer-alignment=0 fp-contract=0 forward-fills=0" ;;
    default) echo "" ;;
    *) echo "kernel_variant_options: unknown variant '$1'" >&2; return 1 ;;
  esac
}

gpu_session_start() {
  GPU_SESSION_NAME=$1
  local tar=$2
  OUT=$3
  BUDGET=$4
  START=$(date +%s)
  WORK=$(mktemp -d /tmp/tessel-gpu.XXXXXX)
  RESULTS="$WORK/results"
  mkdir -p "$OUT" "$RESULTS/tune"
  OUT="$(cd "$OUT" && pwd)"

  tar xf "$tar" -C "$WORK"
  BUNDLE="$WORK/tessel-bundle"
  export PATH="$BUNDLE/bin:$PATH"
  export TESSEL_DEVICES_DIR="$BUNDLE/devices"
  CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
  # cuBLAS and cuDNN: the toolkit's, or the ones PyTorch's wheels carry.
  TESSEL_VENDOR_LIB_PATH=$(find "$CUDA_PATH"/lib64 /usr/local/lib /opt /usr/lib \
    \( -name 'libcublas.so.*' -o -name 'libcudnn.so.*' \) 2>/dev/null |
    xargs -r -n1 dirname | sort -u | paste -sd:)
  export TESSEL_VENDOR_LIB_PATH
  log "vendor libraries in: $TESSEL_VENDOR_LIB_PATH"
  {
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi
    nvidia-smi -q -d CLOCK,POWER,TEMPERATURE,PERFORMANCE
    "$CUDA_PATH/bin/ptxas" --version
    uname -a
    nproc
    cat "$BUNDLE/README"
  } > "$RESULTS/machine.txt" 2>&1
  pack
}

elapsed() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(elapsed))); }
budget() { local l=$(($(left) - 20)); [ "$1" -lt "$l" ] && echo "$1" || echo "$l"; }
pack() { tar -C "$WORK" -czf "$OUT/results.tar.gz" results; }
log() { echo "$GPU_SESSION_NAME [$(elapsed) s]: $*" | tee -a "$RESULTS/session.log"; }

# summarize DB: the statuses and targets of its measurements, and its size.
summarize() {
  python3 - "$1" <<'PY' >> "$RESULTS/summary.txt" 2>&1
import os, sqlite3, sys
db = sys.argv[1]
rows = sqlite3.connect(db).execute(
    "select target, status, count(*), min(median_us) from measurements "
    "group by 1, 2").fetchall()
print(os.path.basename(db), f"{os.path.getsize(db) / 2**20:.1f} MiB")
for target, status, n, best in rows:
    print(f"  {target}  {status}  {n}  best {best}")
PY
}

gpu_tune() { # NAME SECONDS tessel-tune-arguments...
  local name=$1 share; share=$(budget "$2"); shift 2
  if [ "$share" -lt 15 ]; then log "no time left for $name"; return; fi
  log "tune $name: --time-limit=$share"
  timeout -k 30 $((share + 40)) tessel-tune "$@" --cuda-path="$CUDA_PATH" --seed=1 \
    --time-limit="$share" --db="$RESULTS/tune/$name.db" \
    --report="$RESULTS/tune/$name.json" > "$RESULTS/tune/$name.log" 2>&1
  log "tune $name: exit $? ($(tail -1 "$RESULTS/tune/$name.log"))"
  summarize "$RESULTS/tune/$name.db"
  pack
}

cublas_f16_4096() { # times torch.matmul on 4096^3 f16 into results/cublas-f16.txt
  timeout 60 python3 - > "$RESULTS/cublas-f16.txt" 2>&1 <<'PY'
import torch
a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
b = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
for _ in range(20):
    torch.matmul(a, b)
times = []
for _ in range(100):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record(); torch.matmul(a, b); end.record()
    torch.cuda.synchronize()
    times.append(start.elapsed_time(end) * 1000)
times.sort()
median = times[len(times) // 2]
print(f"cuBLAS f16 4096^3 (torch.matmul, f16 out, {torch.__version__}): median "
      f"{median:.1f} us, {2 * 4096**3 / median / 1e6:.1f} TFLOP/s")
PY
  log "$(tail -1 "$RESULTS/cublas-f16.txt")"
}
