// Op kind "group_conv_2d_ngchw_gfchw" of unittests/Transforms/CpuEquivalenceTest.cpp, checked on the GPU
// against the CPU by scripts/gpu-check.sh.
func.func @f(%x: tensor<1x2x4x10x10xf32>, %w: tensor<2x8x4x3x3xf32>, %y: tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x4x10x10xf32>, tensor<2x8x4x3x3xf32>) outs(%y : tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32>
  return %0 : tensor<1x2x8x8x8xf32>
}
