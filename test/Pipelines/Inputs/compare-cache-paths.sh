#!/usr/bin/env bash
# Compiles one model four ways with tessel-to-cuda (threaded and serial
# without a cache, into an empty cache and from it) and checks that all
# give the same binaries: byte for byte between cold and warm, and but for
# upstream's translation timing property otherwise.
# Usage: compare-cache-paths.sh MODEL DIR
set -euo pipefail
model=$1 dir=$2
mkdir -p "$dir"
untimed() { sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //' "$@"; }
options="chip=sm_90 format=bin"
tessel-opt "$model" --tessel-to-cuda="$options cache-dir=off" 2> /dev/null \
  | untimed > "$dir/parallel"
tessel-opt "$model" --tessel-to-cuda="$options cache-dir=off" \
  --mlir-disable-threading 2> /dev/null | untimed > "$dir/serial"
tessel-opt "$model" --tessel-to-cuda="$options cache-dir=$dir/cache" \
  -o "$dir/cold.mlir" 2> /dev/null
tessel-opt "$model" --tessel-to-cuda="$options cache-dir=$dir/cache cache-report=1" \
  -o "$dir/warm.mlir" 2> "$dir/warm.err"
grep -q "compile cache: compiled module from" "$dir/warm.err"
cmp "$dir/cold.mlir" "$dir/warm.mlir"
cmp "$dir/parallel" "$dir/serial"
untimed "$dir/warm.mlir" | cmp - "$dir/parallel"
echo "$(basename "$model"): $(grep -c 'bin = "\\7FELF' "$dir/cold.mlir") cubins;" \
  "serial, parallel, cold and warm cache identical"
