#!/usr/bin/env bash
# Regenerates the dialect and pass reference from ODS into docs/generated/.
set -euo pipefail
build=${1:-build}
ninja -C "$build" mlir-doc
cp "$build"/docs/Tessel/*.md docs/generated/
