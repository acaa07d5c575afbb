// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --implicit-check-not='], 16;'
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa buffer-alignment=0" | FileCheck %s --check-prefix=NONE --implicit-check-not='], 16;' --implicit-check-not='], 8;'

// A pipelined schedule of ResNet-50's 3x3 conv (64 channels, 56x56) whose
// 16-byte cp.async of the input rows faulted on the H100 with
// CUDA_ERROR_MISALIGNED_ADDRESS (8 such configs in a 193-trial tuning run,
// docs/results/gpu-h100-2026-11-27-b): each staging step moves the window
// one element (4 bytes) along the rows. The copies of the prologue's step
// are 8-byte aligned (rows of 58 floats), those of the loop's steps only
// 4-byte aligned; no 16-byte copy is left.

// CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 8;
// CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 4;
// NONE: cp.async.ca.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 4;
func.func @forward(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
      tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [16, 1, 4, 1, 1], [7, 1, 4, 2, 1], [2, 1, 14, 1, 2], [1, 64, 1], [1, 3, 1], [3, 1, 1]], unroll = 0, vector = [4, 1], stages = 2>,
      dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%c : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
