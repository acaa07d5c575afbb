// REQUIRES: ptxas
// tessel-run on the simulated H100: a 32x48x64 matmul with its fill (one
// kernel: the matmul fills its accumulators), default schedules. Every figure is labelled simulated; nothing is verified.
// RUN: tessel-run %s --measure=sim:h100 --seed=3 | FileCheck %s
// Same seed, same (noisy) result.
// RUN: tessel-run %s --measure=sim:h100 --seed=3 > %t.a
// RUN: tessel-run %s --measure=sim:h100 --seed=3 > %t.b
// RUN: diff %t.a %t.b

// CHECK: "device": {
// CHECK: "id": "h100-sxm",
// CHECK: "sm_count": 132,
// CHECK: "flops": 196608,
// CHECK: "function": "forward",
// CHECK: "gflops":
// CHECK: "kernels": [
// CHECK: "block": [
// CHECK-NEXT: 256,
// CHECK: "module": "forward_kernel",
// CHECK: "op": "matmul",
// CHECK: "registers": {{[1-9][0-9]*}},
// CHECK: "simulated_bound": "{{dram|l2|compute|shared}}",
// CHECK: "simulated_status": "ok",
// CHECK: "simulated_us":
// CHECK: "spill_store_bytes": 0
// CHECK: "measurer": "sim:h100-sxm",
// CHECK: "message": "simulated: 1 wave(s) of
// CHECK: "simulated": true,
// CHECK: "status": "ok",
// CHECK: "tessel_run_version": 1,
// CHECK: "timing": {
// CHECK: "median_us":
// CHECK: "repeats": 10,
// CHECK: "verification": "none: simulated timings only",
// CHECK: "verified": false

func.func @forward(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
