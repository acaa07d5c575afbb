// tessel-tune --strategy=dgd and the ICS'24 variants (a strategy and a
// feature set): DGD proposes short batches (the initial samples, then one
// start point or one window of at most 3); the loop measures them as they
// come and stops a task when its strategy proposes nothing (here: the dgd
// option budget).

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="dgd initial-samples=8 budget=20" --features=af --trials=100 --db=%t.db --seed=1 --report=%t.json --quiet 2>&1 | FileCheck %s
// CHECK: 20 trials in

// The default config (trial 0) and 20 counted trials: the 7 initial
// samples left after the default config, then starts and windows.
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select count(*) from measurements where trial > 0" | FileCheck %s --check-prefix=COUNT
// COUNT: 20
// RUN: FileCheck %s --input-file=%t.json --check-prefix=REPORT
// REPORT: "strategy": "dgd",

// ansor-af: evolutionary on the analytical features.
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=evolutionary --features=af --trials=4 --measures-per-round=4 --db=%t.af.db --report=%t.af.json --quiet
// RUN: FileCheck %s --input-file=%t.af.json --check-prefix=AF
// AF: "features": "af",
// AF: "strategy": "evolutionary",
// RUN: not tessel-tune %s --strategy="dgd window=0" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADKNOB
// BADKNOB: tessel-tune: strategy 'dgd': window=0 is out of range: at least 1
// RUN: not tessel-tune %s --strategy="dgd start=middle" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADCHOICE
// BADCHOICE: tessel-tune: strategy 'dgd': start=middle is not one of: random, best

func.func @forward(%a: tensor<64x48xf32>, %b: tensor<48x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
