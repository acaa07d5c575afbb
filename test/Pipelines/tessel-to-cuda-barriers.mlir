// RUN: tessel-opt %s -split-input-file --tessel-fuse --tessel-materialize --tessel-forward-fills --tessel-place-barriers | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=isa barriers=after-every-forall" | FileCheck %s --check-prefix=UPSTREAM
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=isa forward-fills=0" | FileCheck %s --check-prefix=STORED

// Barriers per staging step of the fastest 1024^3 matmul schedule measured
// on the H200 (2 copy rounds of A, 8 of B a step: 11 barriers a step with
// upstream's placement) and of an 8-vthread BERT QKV schedule (25 a step):
// two each, one before the copies overwrite the tiles the last step read and
// one before the math reads the new ones. The accumulators start as the
// fill's zeros in registers (--tessel-forward-fills): no fill stored to C,
// so no barrier after it nor before the results overwrite C (two more until
// 2026-11-27).

// CHECK-LABEL: func.func @forward
// CHECK: gpu.launch
// CHECK-NOT: gpu.barrier
// CHECK-NOT: vector.store %cst
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// ISA: gpu.binary
// ISA-SAME: bar.sync
// ISA-SAME: bar.sync
// ISA-NOT: bar.sync
// STORED: gpu.binary
// STORED-COUNT-4: bar.sync
// STORED-NOT: bar.sync
// UPSTREAM: gpu.binary
// UPSTREAM-COUNT-12: bar.sync
func.func @forward(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[32, 1, 4, 8, 1], [8, 1, 64, 2, 1], [16, 16, 4]], unroll = 512, vector = [4, 4]>}
    ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

// -----

// CHECK-LABEL: func.func @forward
// CHECK: gpu.launch
// CHECK-NOT: gpu.barrier
// CHECK-NOT: vector.store %cst
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// ISA: gpu.binary
// ISA-SAME: bar.sync
// ISA-SAME: bar.sync
// ISA-NOT: bar.sync
// STORED: gpu.binary
// STORED-COUNT-4: bar.sync
// STORED-NOT: bar.sync
// UPSTREAM: gpu.binary
// UPSTREAM-COUNT-33: bar.sync
func.func @forward(%a: tensor<128x768xf32>, %b: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[16, 1, 4, 2, 1], [8, 8, 36, 1, 1], [96, 2, 4]], unroll = 512, vector = [4, 1]>}
    ins(%a, %b : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%c : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %r : tensor<128x2304xf32>
}
