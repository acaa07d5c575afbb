// Bad inputs give a located diagnostic and a non-zero exit, never a crash.
// RUN: not tessel-opt %s -split-input-file --tessel-to-cuda=format=isa 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit a bug report"
// RUN: not tessel-opt %s -split-input-file --tessel-materialize 2>&1 | FileCheck %s --check-prefix=MAT --implicit-check-not="PLEASE submit a bug report"
// RUN: tessel-opt %s -split-input-file --tessel-materialize -verify-diagnostics

func.func @dynamic(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // CHECK: bad-input.mlir:[[@LINE+3]]:8: error: cannot schedule an op with dynamic shapes: loop 0 has a dynamic extent
  // MAT: bad-input.mlir:[[@LINE+2]]:8: error: cannot schedule an op with dynamic shapes: loop 0 has a dynamic extent
  // expected-error @+1 {{cannot schedule an op with dynamic shapes: loop 0 has a dynamic extent}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>}
    ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

func.func @invalid_config(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // CHECK: bad-input.mlir:[[@LINE+3]]:8: error: tile sizes of loop 2 multiply to 128, not to the loop extent 256
  // MAT: bad-input.mlir:[[@LINE+2]]:8: error: tile sizes of loop 2 multiply to 128, not to the loop extent 256
  // expected-error @+1 {{tile sizes of loop 2 multiply to 128, not to the loop extent 256}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [16, 2, 4]]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @sketch_without_config(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // The pipeline gives the op a default config only when it has no sketch.
  // CHECK: bad-input.mlir:[[@LINE+3]]:8: error: op has a sketch but no config; run --tessel-default-config or tune it
  // MAT: bad-input.mlir:[[@LINE+2]]:8: error: op has a sketch but no config; run --tessel-default-config or tune it
  // expected-error @+1 {{op has a sketch but no config; run --tessel-default-config or tune it}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @fused_without_consumer(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // CHECK: bad-input.mlir:[[@LINE+3]]:8: error: sketch fuses 1 elementwise consumers but only 0 single-use elementwise consumers follow the op
  // MAT: bad-input.mlir:[[@LINE+2]]:8: error: sketch fuses 1 elementwise consumers but only 0 single-use elementwise consumers follow the op
  // expected-error @+1 {{sketch fuses 1 elementwise consumers but only 0 single-use elementwise consumers follow the op}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", fused_consumers = 1>,
                      tessel.config = #tessel.config<tiles = [[1, 1, 16, 4, 1], [2, 2, 16, 1, 1], [64, 2, 2]]>}
    ins(%a, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @cross_thread_reduction(%x: tensor<64x7x7xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  // CHECK: bad-input.mlir:[[@LINE+3]]:8: error: cross_thread_reduction needs exactly one reduction loop; the op has 2
  // MAT: bad-input.mlir:[[@LINE+2]]:8: error: cross_thread_reduction needs exactly one reduction loop; the op has 2
  // expected-error @+1 {{cross_thread_reduction needs exactly one reduction loop; the op has 2}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<64x7x7xf32>) outs(%init : tensor<64xf32>)
      attrs = {tessel.sketch = #tessel.sketch<cross_thread_reduction>,
               tessel.config = #tessel.config<tiles = [[64], [7, 1], [1, 7]], unroll = 16>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

func.func @cross_thread_reduction_without_neutral_element(%x: tensor<128x768xf32>, %init: tensor<128xf32>) -> tensor<128xf32> {
  // CHECK: bad-input.mlir:[[@LINE+3]]:8: error: cross_thread_reduction needs a combiner with a neutral element (such as arith.addf or arith.maximumf), not 'arith.subf'
  // MAT: bad-input.mlir:[[@LINE+2]]:8: error: cross_thread_reduction needs a combiner with a neutral element (such as arith.addf or arith.maximumf), not 'arith.subf'
  // expected-error @+1 {{cross_thread_reduction needs a combiner with a neutral element (such as arith.addf or arith.maximumf), not 'arith.subf'}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128xf32>)
      attrs = {tessel.sketch = #tessel.sketch<cross_thread_reduction>,
               tessel.config = #tessel.config<tiles = [[128], [3, 256]], unroll = 16>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.subf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
}
