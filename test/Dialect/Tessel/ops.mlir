// RUN: tessel-opt %s | FileCheck %s
// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s -mlir-print-op-generic | tessel-opt | FileCheck %s

// CHECK-LABEL: func @matmul_schedule
// CHECK: linalg.matmul {tessel.config = #tessel.config<tiles = {{\[}}[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>}
func.func @matmul_schedule(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], unroll = 64, vector = [1, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// Threads need not divide a shared tile: the A tile (32x8 = 256 elements)
// gives each of the 128 threads 2 elements, fewer than its vector of 4; the
// cooperative load is predicated (docs/Materialization.md).
// CHECK-LABEL: func @predicated_load
// CHECK: vector = [4, 4]>
func.func @predicated_load(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], vector = [4, 4]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// A pipelined staging loop: 3 shared buffers per operand, loads 2 steps
// ahead of the math (docs/Materialization.md).
// CHECK-LABEL: func @pipelined_staging
// CHECK: vector = [4, 4], stages = 3>
func.func @pipelined_staging(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], vector = [4, 4], stages = 3>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// Padded rows of A's shared tile (docs/Materialization.md).
// CHECK-LABEL: func @padded_shared_rows
// CHECK: vector = [4, 4], stages = 2, pad = [4, 0]>
func.func @padded_shared_rows(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], vector = [4, 4], stages = 2, pad = [4, 0]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// CHECK-LABEL: func @fused_consumer
// CHECK: #tessel.config<tiles = {{\[}}[1, 1, 16, 4, 1], [2, 2, 16, 1, 1], [64, 2, 2]], unroll = 0>
// CHECK-SAME: #tessel.sketch<multi_level_tiling, "SSSRRSRS", fused_consumers = 1>
func.func @fused_consumer(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", fused_consumers = 1>,
                      tessel.config = #tessel.config<tiles = [[1, 1, 16, 4, 1], [2, 2, 16, 1, 1], [64, 2, 2]]>}
    ins(%a, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func @inlined_producer
// CHECK: #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator, inlined = [0]>
func.func @inlined_producer(%x: tensor<64x256xf32>, %b: tensor<256x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %a = tensor.pad %x low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<64x256xf32> to tensor<64x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator, inlined = [0]>}
    ins(%a, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func @reduction_schedule
// CHECK: #tessel.config<tiles = {{\[}}[128], [3, 256]], unroll = 16>
// CHECK-SAME: #tessel.sketch<cross_thread_reduction, "SRR">
#map = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @reduction_schedule(%x: tensor<128x768xf32>, %init: tensor<128xf32>) -> tensor<128xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128xf32>)
      attrs = {tessel.sketch = #tessel.sketch<cross_thread_reduction>,
               tessel.config = #tessel.config<tiles = [[128], [3, 256]], unroll = 16>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
}

// CHECK-LABEL: func @injective_schedule
// CHECK: #tessel.config<tiles = {{\[}}[128, 1], [3, 256]], unroll = 0>
// CHECK-SAME: #tessel.sketch<two_level_injective, "SS">
func.func @injective_schedule(%x: tensor<128x768xf32>, %init: tensor<128x768xf32>) -> tensor<128x768xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128x768xf32>)
      attrs = {tessel.sketch = #tessel.sketch<two_level_injective>,
               tessel.config = #tessel.config<tiles = [[128, 1], [3, 256]]>} {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %z : f32
    linalg.yield %r : f32
  } -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// A sketch alone (no config yet) is valid: the tuner fills the config in.
// CHECK-LABEL: func @sketch_only
// CHECK: linalg.batch_matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1]>}
func.func @sketch_only(%a: tensor<12x128x64xf32>, %b: tensor<12x64x128xf32>, %c: tensor<12x128x128xf32>) -> tensor<12x128x128xf32> {
  %0 = linalg.batch_matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>}
    ins(%a, %b : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%c : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  return %0 : tensor<12x128x128xf32>
}
