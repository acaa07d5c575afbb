// Op kind "conv_3d_ndhwc_dhwcf" of unittests/Transforms/CpuEquivalenceTest.cpp, checked on the GPU
// against the CPU by scripts/gpu-check.sh.
func.func @f(%x: tensor<1x6x6x6x4xf32>, %w: tensor<3x3x3x4x8xf32>, %y: tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32> {
  %0 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x6x6x6x4xf32>, tensor<3x3x3x4x8xf32>) outs(%y : tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32>
  return %0 : tensor<1x4x4x4x8xf32>
}
