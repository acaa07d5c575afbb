// tessel-tune --check-compiles: under analytic fidelity, every candidate the
// analytic space admits is also compiled (the whole pipeline and ptxas); one
// that does not compile is a compile_error that says so, and the times stay
// analytic, so a run whose candidates all compile has the records of the
// same run without the check (issue 50).
// REQUIRES: ptxas

// RUN: rm -rf %t && mkdir -p %t
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random --trials=12 --measures-per-round=4 --seed=5 -j 2 --db=%t/plain.db --quiet
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --check-compiles --strategy=random --trials=12 --measures-per-round=4 --seed=5 -j 2 --db=%t/checked.db 2>&1 | FileCheck %s
// CHECK: measuring on sim:h100-sxm:analytic (SIMULATED
// CHECK: 12 trials in {{[0-9.]+}} s on sim:h100-sxm:analytic (simulated); search {{.*}} (analytic, 13 checked by being compiled; virtual clock 0.0 s)
// RUN: tessel-tune --db=%t/plain.db --export=%t/plain.jsonl
// RUN: tessel-tune --db=%t/checked.db --export=%t/checked.jsonl
// RUN: %tessel_python %S/Inputs/same-runs.py %t/checked.jsonl %t/plain.jsonl | FileCheck %s --check-prefix=SAME
// SAME: shared: 1 runs, 13 measurements, 0 duplicates
// SAME-NEXT: random seed 5: 13 measurements, the same as alone
// RUN: %tessel_python -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t/checked.db "select json_extract(options_json, '$.check_compiles') from runs" | FileCheck %s --check-prefix=OPTION
// OPTION: 1

// Where the compiler fails (no ptxas under --cuda-path), every candidate the
// space admits is a compile_error naming the check, none is timed.
// RUN: mkdir -p %t/no-cuda
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --check-compiles --cuda-path=%t/no-cuda --strategy=random --trials=4 --measures-per-round=4 --seed=5 -j 2 --db=%t/broken.db --quiet
// RUN: %tessel_python -c "import sqlite3,sys; [print(*r) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]" %t/broken.db "select status, count(*), substr(message, 1, 49) from measurements group by 1, 3" | FileCheck %s --check-prefix=BROKEN
// BROKEN: compile_error 5 admitted by the search space, does not compile:
// BROKEN-NOT: ok

// Misuse is diagnosed.
// RUN: not tessel-tune %s --measure=sim:h100 --check-compiles --db=%t/bad.db 2>&1 | FileCheck %s --check-prefix=NOTANALYTIC
// NOTANALYTIC: tessel-tune: check-compiles needs sim-fidelity=analytic

func.func @forward(%a: tensor<64x48xf32>, %b: tensor<48x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
