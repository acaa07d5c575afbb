// REQUIRES: ptxas
// The static kernel report (issue 41, item 9; include/tessel/Dialect/Tessel/
// Transforms/PtxReport.h) in tessel-run's JSON: a 1024^3 matmul pipelined
// over 3 stages (test/Pipelines/tessel-to-cuda-pipelined.mlir): one barrier,
// in the staging loop; its copies are cp.async; 128 FMAs per step fed by 16
// 128-bit shared loads (8 FMA per shared load); the register tile stored
// with 32-bit global stores; the schedule's static bank-conflict degree (4:
// a stride of 4 words between threads, blind to the 16-byte width) and the
// degrees of the kernel's own shared loads and stores (1: each quarter warp
// of its ld.shared.v4 and cp.async reads or writes 128 consecutive bytes;
// --tessel-shared-bank-conflicts); the barrier counts of one thread over the
// kernel (--tessel-count-barriers: one a step, 128 steps; none waits for a
// synchronous global load, the copies are asynchronous).
// RUN: tessel-run %s --measure=sim:h100 | FileCheck %s
// CHECK: "kernels": [
// CHECK: "kernel": "pipelined_kernel",
// CHECK: "report": {
// CHECK-NEXT: "bank_conflict_degree": 4,
// CHECK-NEXT: "bar_sync": 1,
// CHECK-NEXT: "bar_sync_in_loops": 1,
// CHECK-NEXT: "barriers_per_thread": 128,
// CHECK-NEXT: "cp_async": 6,
// CHECK-NEXT: "fma_f32": 128,
// CHECK-NEXT: "fma_f32_in_loops": 128,
// CHECK-NEXT: "fma_per_shared_load": 8,
// CHECK-NEXT: "ld_shared_128": 16,
// CHECK-NEXT: "ld_shared_in_loops": 16,
// CHECK-NEXT: "load_barriers_per_thread": 0,
// CHECK-NEXT: "shared_load_conflict_degree": 1,
// CHECK-NEXT: "shared_store_conflict_degree": 1,
// CHECK-NEXT: "st_global_32": 16
// CHECK-NEXT: },
func.func @pipelined(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[16, 1, 16, 4, 1], [16, 1, 16, 4, 1], [128, 8, 1]], unroll = 16, vector = [4, 4], stages = 3>}
    ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
