#!/bin/bash
# ETO cross-model reuse (issue 16), SIMULATED (sim:h100, analytic fidelity).
# Usage: run.sh OUT_DIR   (from the repository root, after `make build`)
# The models are the eto-resnet50 / eto-resnet18 manifests combined into one
# module each (scripts/eto-sets' combine()).
set -e
OUT=${1:?output directory}
ROOT=$(pwd)
T=$ROOT/build/bin/tessel-tune
mkdir -p "$OUT" && cd "$OUT"
python3 - "$ROOT" <<'PY'
import sys
from importlib.machinery import SourceFileLoader
es = SourceFileLoader('es', sys.argv[1] + '/scripts/eto-sets').load_module()
for suite in ('eto-resnet50', 'eto-resnet18'):
    open(suite + '.mlir', 'w').write(es.combine(es.read_manifest(suite)))
PY
S="eto backend=evolutionary backend-trials=300"
common="--measure=sim:h100 --sim-fidelity=analytic --sim-trial-seconds=1 --seed=1"
rm -f r50.db* r18-fresh.db* r18-with-r50.db* r18-evo.db*
# ResNet-50 tuned by eto: its records are the database ResNet-18 reuses.
$T eto-resnet50.mlir $common --trials=100000 --strategy="$S" --db=r50.db --report=r50.json > r50.log 2>&1
cp r50.db r18-with-r50.db
$T eto-resnet18.mlir $common --trials=100000 --strategy="$S" --db=r18-with-r50.db --report=r18-with-r50.json > r18-with-r50.log 2>&1
$T eto-resnet18.mlir $common --trials=100000 --strategy="$S" --db=r18-fresh.db --report=r18-fresh.json > r18-fresh.log 2>&1
# The reference: evolutionary, 300 trials per task, round-robin.
$T eto-resnet18.mlir $common --trials=3300 --strategy=evolutionary --scheduler=round-robin --db=r18-evo.db --report=r18-evo.json > r18-evo.log 2>&1
python3 "$ROOT/docs/results/eto-SIMULATED-h100-2026-11-25/cross-model/analyse.py" "$ROOT" r18-evo r18-fresh r18-with-r50
