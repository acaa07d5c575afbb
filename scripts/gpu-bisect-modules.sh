#!/usr/bin/env bash
# Compiles the variants of benchmarks/gpu-bisect/variants.txt for sm_90 into
# OUTDIR/NAME.mlir (cubins inside) and OUTDIR/manifest (NAME MODULE SOURCE),
# for scripts/gpu-bisect-session.sh on a GPU machine without LLVM/MLIR:
#
#   scripts/gpu-bisect-modules.sh OUTDIR [BUILD_DIR]
#
# A variant with "| ptxas: OPTIONS" is compiled to PTX, assembled here with
# the toolkit's ptxas and those options ("strip-maxntid": without the
# kernel's .maxntid), and put back into the module in place of its cubin.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: gpu-bisect-modules.sh OUTDIR [BUILD_DIR]}"
BUILD="${2:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
: > "$OUT/manifest"

# ptx_of SOURCE [OPTIONS...]: the PTX of SOURCE's one kernel, on stdout.
ptx_of() {
  local source=$1; shift
  "$BUILD/bin/tessel-opt" "$source" \
    --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH format=isa $*" |
    python3 -c '
import re, sys
text = sys.stdin.buffer.read()
ptx = re.search(rb"assembly = \x22((?:[^\x22\x5c]|\x5c.)*)\x22", text).group(1)
sys.stdout.buffer.write(
    re.sub(rb"\x5c([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), ptx))'
}

grep -v '^#' "$ROOT/benchmarks/gpu-bisect/variants.txt" | while read -r line; do
  [ -n "$line" ] || continue
  spec=${line%%|*}
  ptxas=""
  [[ $line == *"| ptxas:"* ]] && ptxas=${line#*| ptxas:}
  read -r name source options <<<"$spec"
  module="$OUT/$name.mlir"
  "$BUILD/bin/tessel-opt" "$ROOT/$source" \
    --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH $options" -o "$module"
  if [ -n "$ptxas" ]; then
    ptxas_options=(${ptxas//strip-maxntid/})
    ptx_of "$ROOT/$source" $options > "$OUT/$name.ptx"
    [[ $ptxas == *strip-maxntid* ]] && sed -i '/^\.maxntid /d' "$OUT/$name.ptx"
    "$CUDA_PATH/bin/ptxas" -arch=sm_90 "${ptxas_options[@]}" "$OUT/$name.ptx" \
      -o "$OUT/$name.cubin"
    # The module's cubin replaced by this one.
    python3 - "$module" "$OUT/$name.cubin" <<'PY'
import re, sys
module, cubin = sys.argv[1:]
escaped = ''.join(chr(b) if 32 <= b < 127 and b not in (34, 92) else '\\%02X' % b
                  for b in open(cubin, 'rb').read())
text, n = re.subn(r'bin = "(?:[^"\\]|\\.)*"', lambda m: 'bin = "' + escaped + '"',
                  open(module).read(), count=1)
assert n == 1, 'no cubin in ' + module
open(module, 'w').write(text)
PY
    rm "$OUT/$name.ptx" "$OUT/$name.cubin"
  fi
  echo "$name $name.mlir $source" >> "$OUT/manifest"
done
# The wrong_result kernel's PTX, for its SASS at two ptxas levels on the
# GPU machine (gpu-verify-session.sh, BISECT_PTX=OUTDIR/conv3x3-64-wrong.ptx):
# as fc136a9 compiled its schedule. Since convolutions read window views
# (docs/Materialization.md) that schedule compiles to another kernel, so the
# PTX that ptxas miscompiled is kept in the repository.
xz -dc "$ROOT/benchmarks/gpu-bisect/conv3x3-64-wrong.fc136a9.ptx.xz" > "$OUT/conv3x3-64-wrong.ptx"
echo "gpu-bisect-modules: $(wc -l < "$OUT/manifest") modules in $OUT"
