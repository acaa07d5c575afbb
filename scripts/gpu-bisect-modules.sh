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
    "$BUILD/bin/tessel-opt" "$ROOT/$source" \
      --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH format=isa $options" \
      -o "$OUT/$name.isa.mlir"
    python3 - "$module" "$OUT/$name.isa.mlir" "$CUDA_PATH/bin/ptxas" $ptxas <<'PY'
import re, subprocess, sys, tempfile, os
module, isa, ptxas, *options = sys.argv[1:]
unescape = lambda s: re.sub(rb'\\([0-9A-Fa-f]{2})', lambda m: bytes([int(m.group(1), 16)]), s)
ptx = unescape(re.search(rb'assembly = "((?:[^"\\]|\\.)*)"', open(isa, 'rb').read()).group(1))
if 'strip-maxntid' in options:
    options.remove('strip-maxntid')
    ptx = re.sub(rb'\n\.maxntid [0-9, ]+', b'', ptx)
with tempfile.TemporaryDirectory() as tmp:
    src, cubin = os.path.join(tmp, 'k.ptx'), os.path.join(tmp, 'k.cubin')
    open(src, 'wb').write(ptx)
    subprocess.run([ptxas, '-arch=sm_90', *options, src, '-o', cubin], check=True)
    data = open(cubin, 'rb').read()
escaped = ''.join(chr(b) if 32 <= b < 127 and b not in (34, 92) else '\\%02X' % b
                  for b in data)
text = open(module).read()
text, n = re.subn(r'bin = "(?:[^"\\]|\\.)*"', lambda m: 'bin = "' + escaped + '"', text, count=1)
assert n == 1, 'no cubin in ' + module
open(module, 'w').write(text)
PY
    rm "$OUT/$name.isa.mlir"
  fi
  echo "$name $name.mlir $source" >> "$OUT/manifest"
done
# The wrong_result schedule's PTX, for its SASS at two ptxas levels on the
# GPU machine (gpu-verify-session.sh, BISECT_PTX=OUTDIR/conv3x3-64-wrong.ptx).
"$BUILD/bin/tessel-opt" "$ROOT/benchmarks/gpu-bisect/conv3x3-64-wrong.mlir" \
  --tessel-to-cuda="chip=sm_90 cuda-path=$CUDA_PATH format=isa" \
  -o "$OUT/conv3x3-64-wrong.isa.mlir"
python3 - "$OUT/conv3x3-64-wrong.isa.mlir" > "$OUT/conv3x3-64-wrong.ptx" <<'PY'
import re, sys
text = open(sys.argv[1], 'rb').read()
ptx = re.search(rb'assembly = "((?:[^"\\]|\\.)*)"', text).group(1)
sys.stdout.buffer.write(
    re.sub(rb'\\([0-9A-Fa-f]{2})', lambda m: bytes([int(m.group(1), 16)]), ptx))
PY
rm "$OUT/conv3x3-64-wrong.isa.mlir"
echo "gpu-bisect-modules: $(wc -l < "$OUT/manifest") modules in $OUT"
