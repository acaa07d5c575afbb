// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s

// A ResNet-style padded 3x3 convolution whose sketch inlines the pad: one
// kernel, which fills its accumulators itself and gathers the padded input
// tile into 1 KiB of shared memory; no kernel for the pad or the fill.
// CHECK-LABEL: llvm.func @conv_pad
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: linalg.
// CHECK: gpu.binary @conv_pad_kernel
// CHECK-SAME: shared_memory_bytes = 1024 : i64
// CHECK-SAME: bin = "\7FELF
// CHECK-NOT: gpu.binary
func.func @conv_pad(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32> {
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>,
     tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0], register_accumulator, inlined = [0]>,
     tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [2, 2, 4, 1, 1], [2, 1, 8, 1, 1], [1, 1, 4, 4, 1], [4, 2, 1], [3, 1, 1], [3, 1, 1]], unroll = 64, vector = [1]>}
     ins(%padded, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%f : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %c : tensor<1x16x16x16xf32>
}
