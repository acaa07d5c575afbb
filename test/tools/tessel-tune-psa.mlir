// tessel-tune --strategy=psa (docs/Pruner.md): target spaces pruned by the
// static analyzer, 10 candidates a round picked by a ranking model; the
// model is saved after every training and can start another run (e.g. on
// another device) as the base of continued boosting.

// RUN: rm -f %t.db %t.db-wal %t.db-shm %t.ubj %t.b.db
// RUN: tessel-tune %s --measure=sim:a100 --sim-fidelity=analytic --strategy="psa target-size=32 samples=128" --cost-model="xgboost save=%t.ubj" --trials=30 --db=%t.db --seed=1 --report=%t.json 2>&1 | FileCheck %s
// CHECK: measuring on sim:a100-sxm4-80gb:analytic (SIMULATED
// CHECK: 30 trials in

// The run's options are recorded; rounds measure 10 candidates.
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select json_extract(options_json, '$.measures_per_round') || ' | ' || json_extract(options_json, '$.features') || ' | ' || json_extract(options_json, '$.strategy') || ' | ' || json_extract(options_json, '$.cost_model') from runs" | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: 10 | pruner | psa disable={} epsilon=0.1 form=paper generations=2 measured-share=0.1 model-generations=1 mutation-probability=0.85 prune=true regenerate-every=2 samples=128 target-size=32 uncapped-warps=false unpruned-share=0.1 | xgboost init={} objective=auto save={{.*}}.ubj threads=1 tree-method=hist

// The saved model starts a run on another device.
// RUN: test -s %t.ubj
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="psa target-size=32 samples=128 form=code disable=kernel,mem" --cost-model="xgboost init=%t.ubj" --trials=20 --db=%t.b.db 2>&1 | FileCheck %s --check-prefix=TRANSFER
// TRANSFER: 20 trials in

// Misuse is diagnosed.
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="psa disable=kernels" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADPEN
// BADPEN: tessel-tune: strategy 'psa': disable=kernels: psa: unknown penalty 'kernels' (known: alpha, reg, warp, kernel, mem, compute)
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="psa form=both" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADFORM
// BADFORM: tessel-tune: strategy 'psa': form=both is not one of: paper, code
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=psa --features=ansor --cost-model="xgboost init=%t.ubj" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: tessel-tune: cost model 'xgboost init={{.*}}' has feature width 729, but the 'ansor' features have 545
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="psa unpruned-share=1" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=SHARE
// SHARE: tessel-tune: strategy 'psa': unpruned-share=1 is out of range: 0 to below 1

func.func @forward(%a: tensor<64x48xf32>, %b: tensor<48x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
