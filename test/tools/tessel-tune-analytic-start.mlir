// The analytic start (TuneOptions::startSamples, issue 51): before the
// search, a task whose default the analytic simulator predicts far slower
// than the best of 256 sampled schedules also measures that schedule, so a
// task the budget never reaches keeps the better one. Here Ansor's order
// and a 4-trial budget never reach the heavy batch matmul (SIMULATED).

// RUN: rm -rf %t && mkdir -p %t
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --scheduler=gradient --trials=4 --measures-per-round=4 --seed=1 --start-samples=0 --db=%t/off.db --report=%t/off.json 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: analytic start
// OFF: 1      1 {{[0-9.]+ [0-9.]+}}       1     1.00 {{.*}} batch_matmul 1x128x768 * 1x768x768 f32
// OFF-NEXT: never searched: task 1
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --scheduler=gradient --trials=4 --measures-per-round=4 --seed=1 --db=%t/on.db --report=%t/on.json 2>&1 | FileCheck %s --check-prefix=ON
// ON: tessel-tune: 1 task(s) also measure an analytic start: a sampled schedule the simulator predicts at least 4.00x faster than the default
// ON: 1      1 {{[0-9.]+ [0-9.]+}}       2 {{.*}} batch_matmul 1x128x768 * 1x768x768 f32
// ON-NEXT: never searched: task 1
// ON: 4 trials in
// RUN: python3 %S/Inputs/analytic-start-check.py %t/off.json %t/on.json | FileCheck %s --check-prefix=COMPARE
// COMPARE: task 0: off 1 outside 4 searched; on 1 outside 4 searched, best < 4x the default
// COMPARE-NEXT: task 1: off 1 outside 0 searched; on 2 outside 0 searched, best >= 4x the default
// COMPARE-NEXT: weighted latency: lower with the start

// The start is measured outside the budget (trial 0, as the default), and
// the options say how many samples it drew; --rerun of a run stored without
// the option repeats it without a start.
// RUN: python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(*c.execute('select sum(trial = 0), sum(trial > 0) from measurements').fetchone()); print(c.execute(\"select json_extract(options_json, '$.start_samples') from runs\").fetchone()[0])" %t/on.db | FileCheck %s --check-prefix=RECORDS
// RECORDS: 3 4
// RECORDS-NEXT: 256
// RUN: python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"update runs set options_json = json_remove(options_json, '$.start_samples')\"); c.commit()" %t/on.db
// RUN: tessel-tune --db=%t/on.db --rerun=1 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN-NOT: analytic start
// AGAIN: 1      1 {{[0-9.]+ [0-9.]+}}       1     1.00 {{.*}} batch_matmul 1x128x768 * 1x768x768 f32
// AGAIN-NEXT: never searched: task 1

// A negative count is refused.
// RUN: not tessel-tune %s --start-samples=-3 --db=%t/bad.db 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: tessel-tune: start-samples=-3 is out of range: at least 0

func.func @forward(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %x: tensor<1x128x768xf32>, %w: tensor<1x768x768xf32>) -> (tensor<64x64xf32>, tensor<1x128x768xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %small = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<1x128x768xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  %heavy = linalg.batch_matmul ins(%x, %w : tensor<1x128x768xf32>, tensor<1x768x768xf32>) outs(%init2 : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  return %small, %heavy : tensor<64x64xf32>, tensor<1x128x768xf32>
}
