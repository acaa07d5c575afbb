// Regression test of a fixed issue: `register_accumulator` with
// `unroll = 0` (the config default) makes --tessel-materialize (and the
// replay of its script with stock mlir-opt) run forever while its memory
// grows without bound. The same schedule with unroll = 16 takes 0.1 s; the
// timeout keeps the suite from hanging.
// RUN: timeout 2 tessel-opt %s --tessel-materialize | FileCheck %s

// Blocks 4 * 4 = 16, threads 8 * 16 = 128.
// CHECK-LABEL: func @register_accumulator_no_unroll
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-NOT: linalg.
// CHECK: return
func.func @register_accumulator_no_unroll(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
