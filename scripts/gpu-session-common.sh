# Shared by the one-lease GPU scripts (gpu-session.sh, gpu-followup-session.sh):
# source it, then call
#
#   gpu_session_start NAME BUNDLE.tar.xz OUTDIR SECONDS
#
# which unpacks the bundle into a fresh work directory, puts its tools on
# PATH, finds cuBLAS/cuDNN, writes results/machine.txt and packs
# OUTDIR/results.tar.gz. Afterwards: $BUNDLE, $RESULTS, $CUDA_PATH, and
# elapsed, left (seconds of SECONDS), budget N (N, or what is left less a
# margin), pack (OUTDIR/results.tar.gz again) and log MESSAGE.

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
