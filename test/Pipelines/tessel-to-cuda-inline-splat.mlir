// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s

// Splat-constant weights (as in the examples): slicing a splat constant on
// tensors folds into a new, smaller constant, which shared-memory promotion
// cannot stage. The block-level cleanup therefore runs dead-code elimination,
// not canonicalization; this config (found by `make tune`) failed to apply
// before. Both staged tiles land in shared memory: the gathered input
// 1x32x4x6 (3072 bytes) and the filter 8x32x3x3 (9216 bytes).
// CHECK-LABEL: llvm.func @conv_pad_splat
// One kernel: the fill of the result is computed by the convolution's.
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @conv_pad_splat_kernel
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 alloca[3072];
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 alloca_0[9216];
// CHECK-NOT: gpu.binary
func.func @conv_pad_splat(%x: tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32> {
  %w = arith.constant dense<1.000000e-02> : tensor<128x128x3x3xf32>
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x128x28x28xf32> to tensor<1x128x30x30xf32>
  %e = tensor.empty() : tensor<1x128x28x28xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>,
     tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator, inlined = [0]>,
     tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [16, 2, 4, 1, 1], [14, 2, 1, 1, 1], [7, 1, 4, 1, 1], [4, 1, 32], [1, 3, 1], [1, 3, 1]], unroll = 1024, vector = [2, 1]>}
     ins(%padded, %w : tensor<1x128x30x30xf32>, tensor<128x128x3x3xf32>) outs(%f : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %c : tensor<1x128x28x28xf32>
}
