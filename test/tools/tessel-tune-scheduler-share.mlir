// The task scheduler under a small budget (issue 51): three light matmuls
// come first in the model and the heavy one (1024^3, most of the model's
// time under default schedules) last. With 128 trials, fewer than 4 tasks x
// 64 a round (a task's trials below count its default), Ansor's warm-up in
// task order (`--scheduler=gradient`) never reaches the heavy task;
// `gradient-share` (the default) warms up the largest share first, and the
// model's weighted latency is lower (SIMULATED: 51.9 against 276.5 us for
// the heavy task).

// RUN: rm -rf %t && mkdir -p %t
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random --start-samples=0 --trials=128 --measures-per-round=64 --seed=2 --scheduler=gradient --db=%t/ansor.db --report=%t/ansor.json --quiet
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random --start-samples=0 --trials=128 --measures-per-round=64 --seed=2 --db=%t/share.db --report=%t/share.json --quiet | FileCheck %s --check-prefix=SUMMARY
// RUN: %tessel_python %S/Inputs/weighted-latency.py %t/ansor.json %t/share.json | FileCheck %s
// CHECK: ansor.json: trials per task 65 65 1 1
// CHECK-NEXT: share.json: trials per task 65 1 1 65
// CHECK-NEXT: weighted latency: share.json is lower

// The summary gives each task's share of the model's time under the
// defaults and at the end, and the tasks the search never reached.
// SUMMARY: task weight   latency us    GFLOP/s  trials  speedup start %   end %  kernel
// SUMMARY-NEXT: 0 1 {{.*}} 65 {{[0-9.]+}}     2.5 {{[0-9.]+}}  matmul 64x32 * 32x64 f32
// SUMMARY-NEXT: 1 1 {{.*}}  1     1.00     1.6 {{[0-9.]+}}  matmul 32x16 * 16x64 f32
// SUMMARY-NEXT: 2 1 {{.*}}  1     1.00     2.0 {{[0-9.]+}}  matmul 48x32 * 32x48 f32
// SUMMARY-NEXT: 3 1 {{.*}} 65 {{[0-9.]+}}    94.0 {{[0-9.]+}}  matmul 1024x1024 * 1024x1024 f32
// SUMMARY-NEXT: never searched: tasks 1, 2 ({{[0-9.]+}}% of the model's time)

func.func @forward(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>,
                   %c: tensor<32x16xf32>, %d: tensor<16x64xf32>,
                   %e: tensor<48x32xf32>, %f: tensor<32x48xf32>,
                   %x: tensor<1024x1024xf32>, %y: tensor<1024x1024xf32>)
    -> (tensor<64x64xf32>, tensor<32x64xf32>, tensor<48x48xf32>, tensor<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%i0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<32x64xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r1 = linalg.matmul ins(%c, %d : tensor<32x16xf32>, tensor<16x64xf32>) outs(%i1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<48x48xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<48x48xf32>) -> tensor<48x48xf32>
  %r2 = linalg.matmul ins(%e, %f : tensor<48x32xf32>, tensor<32x48xf32>) outs(%i2 : tensor<48x48xf32>) -> tensor<48x48xf32>
  %e3 = tensor.empty() : tensor<1024x1024xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r3 = linalg.matmul ins(%x, %y : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%i3 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r0, %r1, %r2, %r3 : tensor<64x64xf32>, tensor<32x64xf32>, tensor<48x48xf32>, tensor<1024x1024xf32>
}
