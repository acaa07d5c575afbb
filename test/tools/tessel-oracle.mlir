// tessel-oracle: every config of every sketch timed on the simulated GPU
// without noise; no tuning run can beat its optimum, and a space over the cap
// is refused with its size.

// RUN: tessel-oracle %s --report=%t.json | FileCheck %s
// CHECK: task 0: {{[1-9][0-9]*}} configs in {{[1-9]}} sketches ({{[0-9]+}} points), optimum {{[0-9.]+}} us = {{[0-9.]+}} GFLOP/s, default {{[0-9.]+}} us, median config {{[0-9.]+}} us, {{[0-9.]+}}% within 90% (SIMULATED)  matmul 15x9 * 9x21 f32
// RUN: FileCheck %s --input-file=%t.json --check-prefix=REPORT
// REPORT: "measurer": "sim:h100-sxm:analytic",
// REPORT: "noise": 0,
// REPORT: "simulated": true,
// REPORT: "optimum_gflops":
// REPORT: "optimum_latency_us":
// REPORT: "tessel_oracle_report_version": 1

// A noise-free analytic tuning run finds nothing faster than the optimum.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --sim-noise=0 --strategy=random --trials=48 --db=%t.db --seed=2 --quiet > /dev/null
// RUN: /usr/bin/python3 -c "import json,sqlite3,sys; o=json.load(open(sys.argv[1]))['tasks'][0]['optimum_latency_us']; b=sqlite3.connect(sys.argv[2]).execute(\"select min(median_us) from measurements where status='ok'\").fetchone()[0]; print('ok' if b >= o * (1 - 1e-9) else 'beaten %%g < %%g' %% (b, o))" %t.json %t.db | FileCheck %s --check-prefix=BOUND
// BOUND: ok

// RUN: not tessel-oracle %s --max-points=1000 2>&1 | FileCheck %s --check-prefix=CAP
// CAP: tessel-oracle: task 0 (matmul 15x9 * 9x21 f32), sketch #tessel.sketch<{{.*}}>: the space of {{[0-9]+}} points (tilings x unroll values x vector widths, before the constraints) exceeds the enumeration cap of 1000
// RUN: not tessel-oracle %s --measure=cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: tessel-oracle: the oracle needs a simulated measurer (sim:<device>), not 'cuda'

func.func @forward(%a: tensor<15x9xf32>, %b: tensor<9x21xf32>) -> tensor<15x21xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<15x21xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<15x21xf32>) -> tensor<15x21xf32>
  %r = linalg.matmul ins(%a, %b : tensor<15x9xf32>, tensor<9x21xf32>) outs(%c : tensor<15x21xf32>) -> tensor<15x21xf32>
  return %r : tensor<15x21xf32>
}
