// tessel-tune --sim-fidelity=analytic: candidates are timed from their
// schedules without compiling (no ptxas needed), the records are kept apart
// from compiled ones under the target "sim:<device>:analytic", and the
// virtual clock charges --sim-trial-seconds per measured candidate.

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --sim-trial-seconds=2 --strategy=random --trials=8 --measures-per-round=4 --db=%t.db --seed=3 --report=%t.json 2>&1 | FileCheck %s
// CHECK: measuring on sim:h100-sxm:analytic (SIMULATED: a model of the GPU, not a measurement)
// CHECK: 8 trials in {{[0-9.]+}} s on sim:h100-sxm:analytic (simulated); search {{.*}} (analytic, none compiled; virtual clock 18.0 s)

// Nine records (the default config and 8 trials), all under the analytic
// target; the n-th committed candidate is at least 2n virtual seconds in.
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select count(*) from measurements where target = 'sim:h100-sxm:analytic' and simulated = 1" | FileCheck %s --check-prefix=COUNT
// COUNT: 9
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select count(*) from measurements where elapsed_s < 2 * id" | FileCheck %s --check-prefix=CLOCK
// CLOCK: 0
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" %t.db "select json_extract(options_json, '$.sim_fidelity') from runs" | FileCheck %s --check-prefix=RUNINFO
// RUNINFO: analytic
// RUN: FileCheck %s --input-file=%t.json --check-prefix=REPORT
// REPORT: "measurer": "sim:h100-sxm:analytic",
// REPORT: "sim_fidelity": "analytic",
// REPORT: "sim_trial_seconds": 2,
// REPORT: "simulated": true,

// A resumed analytic run sees the analytic records, and only them.
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random --trials=10 --measures-per-round=4 --db=%t.db --seed=4 --resume 2>&1 | FileCheck %s --check-prefix=RESUME
// RESUME: resumed 8 measured trials
// RESUME: 10 trials in

// Misuse is diagnosed.
// RUN: not tessel-tune %s --measure=sim:h100 --sim-fidelity=exact --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BADFID
// BADFID: tessel-tune: sim-fidelity=exact is not one of: compiled, analytic
// RUN: not tessel-tune %s --measure=sim:h100 --sim-trial-seconds=1 --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=NOCLOCK
// NOCLOCK: tessel-tune: sim-trial-seconds needs sim-fidelity=analytic

func.func @forward(%a: tensor<64x48xf32>, %b: tensor<48x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
