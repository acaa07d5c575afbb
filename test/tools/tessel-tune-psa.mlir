// tessel-tune --strategy=psa (docs/Pruner.md): target spaces pruned by the
// static analyzer, 10 candidates a round picked by a ranking model; the
// model is saved after every training and can start another run (e.g. on
// another device) as the base of continued boosting.

// RUN: rm -f %t.db %t.db-wal %t.db-shm %t.ubj %t.b.db
// RUN: tessel-tune %s --measure=sim:a100 --sim-fidelity=analytic --strategy=psa --trials=30 --psa-target-size=32 --psa-samples=128 --db=%t.db --seed=1 --save-cost-model=%t.ubj --report=%t.json 2>&1 | FileCheck %s
// CHECK: measuring on sim:a100-sxm4-80gb:analytic (SIMULATED
// CHECK: 30 trials in

// The run's options are recorded; rounds measure 10 candidates.
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select json_extract(options_json, '$.measures_per_round') || ' ' || json_extract(options_json, '$.psa.features') || ' ' || json_extract(options_json, '$.psa.target_size') || ' ' || json_extract(options_json, '$.psa.form') from runs" | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: 10 pruner 32 paper

// The saved model starts a run on another device.
// RUN: test -s %t.ubj
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=psa --trials=20 --psa-target-size=32 --psa-samples=128 --db=%t.b.db --cost-model-init=%t.ubj --psa-form=code --psa-disable=kernel,mem 2>&1 | FileCheck %s --check-prefix=TRANSFER
// TRANSFER: 20 trials in

// Misuse is diagnosed.
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=psa --psa-disable=kernels --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADPEN
// BADPEN: tessel-tune: --psa-disable: psa: unknown penalty 'kernels' (known: alpha, reg, warp, kernel, mem, compute)
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=psa --psa-form=both --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADFORM
// BADFORM: tessel-tune: --psa-form: psa: unknown form 'both' (known: paper, code)
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=psa --features=ansor --cost-model-init=%t.ubj --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: tessel-tune: strategy psa: '{{.*}}' has feature width 729, but the 'ansor' features have 545
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=evolutionary --save-cost-model=%t.x.ubj --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=NOTPSA
// NOTPSA: tessel-tune: --cost-model-init and --save-cost-model need --strategy=psa

func.func @forward(%a: tensor<64x48xf32>, %b: tensor<48x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
