// RUN: not tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" 2>&1 | FileCheck %s

// Regression test for a tuning run that stalled on a GPU (H200,
// docs/results/gpu-h200-2026-11-26): this schedule of a ResNet-50 3x3
// convolution unrolls into 2,695 scalar loops, which LLVM's loop passes took
// 35 s to compile (others of its kind: minutes). The kernel is rejected at
// the user's op before LLVM sees it, so a tuner records a compile error and
// goes on. That schedule now reads its input through window views and is
// vectorized (docs/Materialization.md, "Window accesses"); this one keeps
// two output columns and three filter columns in the thread's innermost
// tile, an input index of two loops that stays scalar.
// CHECK: tessel-to-cuda-kernel-size.mlir:[[# @LINE + 5]]:8: error: kernel 'forward_kernel' has 1351 loops after unrolling, more than max-loops=1024
func.func @forward(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
      tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [32, 2, 1, 1, 1], [7, 4, 2, 1, 1], [7, 1, 4, 1, 2], [1, 8, 8], [1, 3, 1], [1, 1, 3]], unroll = 64, vector = [1, 1]>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%c : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
