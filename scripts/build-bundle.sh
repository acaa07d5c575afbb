#!/usr/bin/env bash
# Builds the self-contained Tessel bundle: statically linked tools that run on
# a Linux x86-64 machine with only an NVIDIA driver and the CUDA toolkit (no
# LLVM, MLIR, xgboost or sqlite). See docs/Bundle.md.
#
# Usage: scripts/build-bundle.sh OUTDIR
#   writes OUTDIR/tessel-bundle/ and OUTDIR/tessel-bundle.tar.xz
# Environment: BUILD_DIR (default build-static), JOBS (default nproc).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=${BUILD_DIR:-$root/build-static}
jobs=${JOBS:-$(nproc)}
limit=$((60 * 1024 * 1024))
candidates=(tessel-opt tessel-run tessel-tune tessel-worker tessel-cuda-runner tessel-vendor-bench)
# Libraries every Linux has; anything else a tool needs goes to lib/.
system_libs='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2)$'

# libzstd.a keeps libzstd.so out of the tools (LLVM's compression support);
# without it the bundle ships libzstd.so.1 in lib/.
bash "$root/scripts/install-deps.sh" libzstd-dev ||
  echo "build-bundle: no libzstd-dev, lib/ will hold libzstd.so.1" >&2

# --- Build -------------------------------------------------------------------
start=$(date +%s)
mkdir -p "$build"
cmake -G Ninja -S "$root" -B "$build" -DTESSEL_STATIC_TOOLS=ON \
  -DCMAKE_BUILD_TYPE=Release >"$build/bundle-configure.log" 2>&1 ||
  { cat "$build/bundle-configure.log" >&2; exit 1; }
targets=$(ninja -C "$build" -t targets all | sed 's/:.*//')
tools=()
for t in "${candidates[@]}"; do
  if grep -qx "$t" <<<"$targets"; then tools+=("$t"); fi
done
[ ${#tools[@]} -gt 0 ] || { echo "build-bundle: no tool targets" >&2; exit 1; }
echo "build-bundle: building ${tools[*]} in $build"
nice ninja -C "$build" -j "$jobs" "${tools[@]}"
echo "build-bundle: built in $(($(date +%s) - start)) s"

# --- Assemble ----------------------------------------------------------------
bundle=$out/tessel-bundle
rm -rf "$bundle" "$out/tessel-bundle.tar.xz"
mkdir -p "$bundle/bin"
for t in "${tools[@]}"; do
  install -m 755 "$build/bin/$t" "$bundle/bin/$t"
  strip --strip-all "$bundle/bin/$t"
done

# Shared libraries outside glibc (libxgboost and its dependencies): found
# through the tools' $ORIGIN/../lib rpath.
for t in "${tools[@]}"; do
  while read -r name path; do
    [[ $name =~ $system_libs ]] && continue
    if [ -z "$path" ] || [ "$path" = "not" ]; then
      echo "build-bundle: $t needs $name, which is not found" >&2; exit 1
    fi
    if ! readelf -d "$bundle/bin/$t" | grep -q 'R.*PATH.*\$ORIGIN/../lib'; then
      echo "build-bundle: $t needs $name but has no \$ORIGIN/../lib rpath" >&2
      exit 1
    fi
    mkdir -p "$bundle/lib"
    [ -e "$bundle/lib/$name" ] || install -m 644 "$(readlink -f "$path")" "$bundle/lib/$name"
  done < <(ldd "$bundle/bin/$t" | awk '/=>/ {print $1, $3; next} {print $1, ""}' |
           sed 's|^/.*/||')
done

for d in devices examples benchmarks; do
  if [ -d "$root/$d" ]; then cp -r "$root/$d" "$bundle/$d"; fi
done
# The GPU check (docs/GpuCheck.md) runs from the bundle.
install -m 755 "$root/scripts/gpu-check-run.sh" "$bundle/gpu-check-run.sh"
install -m 755 "$root/scripts/calibrate-sim" "$bundle/bin/calibrate-sim"
glibc=$(for f in $(find "$bundle/bin" "$bundle/lib" -type f 2>/dev/null); do
          # ELF files only (bin/ also holds scripts).
          if [ "$(head -c 4 "$f" | tail -c 3)" = ELF ]; then objdump -T "$f"; fi
        done | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
cat >"$bundle/README" <<EOF
Tessel $commit: statically linked tools for Linux x86-64 ($glibc or newer); needs only the NVIDIA driver and the CUDA toolkit (ptxas: cuda-path=, default /usr/local/cuda). See docs/Bundle.md.
EOF

# Smoke test: runs with an empty environment, no LLVM/MLIR needed.
smoke=$(cd / && env -i "$bundle/bin/tessel-opt" "$bundle/examples/matmul-1024.mlir" \
  --tessel-to-cuda="chip=sm_90 format=isa") && grep -q gpu.binary <<<"$smoke" ||
  { echo "build-bundle: smoke test of tessel-opt failed" >&2; exit 1; }

# --- Archive -----------------------------------------------------------------
# The big tools share most of their code: a 256 MiB window (xz -9 has 64 MiB)
# lets xz see one tool while compressing the next, and the tools go first,
# next to each other. Unpacking needs about 260 MiB of memory.
echo "build-bundle: compressing (a few minutes)"
members=(tessel-bundle/README tessel-bundle/gpu-check-run.sh tessel-bundle/bin/calibrate-sim)
for t in "${tools[@]}"; do members+=("tessel-bundle/bin/$t"); done
for d in lib devices examples benchmarks; do
  if [ -d "$bundle/$d" ]; then members+=("tessel-bundle/$d"); fi
done
tar -C "$out" --owner=0 --group=0 --numeric-owner -cf - "${members[@]}" |
  xz -T1 --lzma2=preset=9,dict=256MiB >"$out/tessel-bundle.tar.xz"

echo "build-bundle: uncompressed sizes:"
for f in "$bundle"/bin/* "$bundle"/lib/*; do
  if [ -f "$f" ]; then printf '  %10d  %s\n' "$(stat -c %s "$f")" "${f#"$bundle"/}"; fi
done
size=$(stat -c %s "$out/tessel-bundle.tar.xz")
printf 'build-bundle: %s: %d bytes (%s MiB, limit 60 MiB)\n' \
  "$out/tessel-bundle.tar.xz" "$size" "$(awk "BEGIN {printf \"%.1f\", $size / 1048576}")"
if [ "$size" -gt "$limit" ]; then
  echo "build-bundle: the bundle exceeds 60 MiB" >&2
  exit 1
fi
