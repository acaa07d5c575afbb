// REQUIRES: ptxas
// tessel-tune on the simulated H100: tasks, a tiny run killed with SIGKILL
// after its 4th committed trial, a resume that ends the run, and the records:
// every committed measurement survives and no config is measured twice.

// RUN: tessel-tune %s --list-tasks | FileCheck %s --check-prefix=TASKS
// TASKS: task weight        MFLOP kernel
// TASKS-NEXT: 0      2          0.2 matmul 32x48 * 48x64 f32
// TASKS-NEXT: 1 tasks, 0.0 GFLOP per model run

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: not --crash tessel-tune %s --measure=sim:h100 --strategy=random --trials=6 --measures-per-round=3 -j 2 --db=%t.db --seed=5 --quiet --crash-after-trials=4
// RUN: tessel-tune --db=%t.db --export=%t.before.jsonl
// Baseline (trial 0) + 4 trials.
// RUN: wc -l < %t.before.jsonl | FileCheck %s --check-prefix=FIVE
// FIVE: 5
// RUN: tessel-tune %s --measure=sim:h100 --strategy=random --trials=6 --measures-per-round=3 -j 2 --db=%t.db --seed=6 --resume --report=%t.json 2>&1 | FileCheck %s --check-prefix=RESUME
// RESUME: measuring on sim:h100-sxm (SIMULATED: a model of the GPU, not a measurement)
// RESUME: resumed 4 measured trials
// RESUME: 6 trials in {{.*}} on sim:h100-sxm (simulated)
// RUN: tessel-tune --db=%t.db --export=%t.after.jsonl
// RUN: wc -l < %t.after.jsonl | FileCheck %s --check-prefix=SEVEN
// SEVEN: 7
// The first five records are unchanged, and every config is measured once.
// RUN: head -n 5 %t.after.jsonl | diff - %t.before.jsonl
// RUN: grep -o '"config":"[^"]*"' %t.after.jsonl | sort | uniq -d | count 0
// One curve per run (the killed one and its resumption).
// RUN: env PYTHONPATH=%tessel_python_path /usr/bin/python3 %tessel_src_root/python/tessel/plot_tuning.py %t.db %t.png | FileCheck %s --check-prefix=PLOT
// PLOT: plot_tuning: 2 curve(s) -> {{.*}}.png
// RUN: test -s %t.png
// RUN: FileCheck %s --input-file=%t.json --check-prefix=REPORT
// REPORT: "measurer": "sim:h100-sxm",
// REPORT: "simulated": true,
// REPORT: "tasks": [
// REPORT: "best_gflops":
// REPORT: "curve": [
// REPORT: "default_latency_us":
// REPORT: "weight": 2
// REPORT: "tessel_tune_report_version": 2,

func.func @forward(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>, %c: tensor<48x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = linalg.matmul ins(%a, %c : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0, %1 : tensor<32x64xf32>, tensor<32x64xf32>
}
