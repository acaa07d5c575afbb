// Regression test of a fixed issue: with `register_accumulator` the
// accumulator of a matmul is not kept in registers: every staging step of
// the K loop loads and stores the C tile in global memory.
// RUN: tessel-opt %s --tessel-materialize | FileCheck %s

// "the output tile of a thread is accumulated in registers and written back
// once" (TesselAttrs.td): C is read before the K loop, carried in iter_args,
// and written after it.
// CHECK-LABEL: func @register_accumulator
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<128x64xf32>)
// CHECK: gpu.launch
// CHECK: vector.load %[[C]][
// CHECK: scf.for {{.*}} iter_args(
// CHECK-NOT: %[[C]][
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}, %[[C]][
// CHECK: gpu.terminator
func.func @register_accumulator(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
