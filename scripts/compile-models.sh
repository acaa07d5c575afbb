#!/usr/bin/env bash
# Compiles every model of ../shared/eval/frontend-ir (or the files given) with
# --tessel-to-cuda and reports, per model: exit status, wall time, number of
# ELF cubins and linalg ops left outside GPU kernels (must be 0).
# Usage: scripts/compile-models.sh [BUILD_DIR] [FILE...]
set -uo pipefail
build=${1:-build}; shift || true
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(../shared/eval/frontend-ir/*.mlir)
out=$(mktemp -d)
printf "%-40s %4s %8s %7s %10s\n" model rc seconds cubins host-linalg
for f in "${files[@]}"; do
  b=$(basename "$f" .mlir)
  start=$(date +%s.%N)
  "$build/bin/tessel-opt" "$f" --tessel-to-cuda="chip=sm_90 format=bin" \
      -o "$out/$b.mlir" 2> "$out/$b.log"
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  cubins=$(grep -c 'bin = "\\7FELF' "$out/$b.mlir" 2>/dev/null || echo 0)
  # Host code is everything outside gpu.binary / gpu.module bodies.
  host=$(grep -v '^ *gpu.binary' "$out/$b.mlir" 2>/dev/null | grep -c ' linalg\.' || true)
  printf "%-40s %4s %8.1f %7s %10s\n" "$b" "$rc" "$secs" "$cubins" "$host"
done
rm -rf "$out"
