// Op kind "conv_1d_nwc_wcf" of unittests/Transforms/CpuEquivalenceTest.cpp, checked on the GPU
// against the CPU by scripts/gpu-check.sh.
func.func @f(%x: tensor<2x34x8xf32>, %w: tensor<3x8x16xf32>, %y: tensor<2x32x16xf32>) -> tensor<2x32x16xf32> {
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<2x34x8xf32>, tensor<3x8x16xf32>) outs(%y : tensor<2x32x16xf32>) -> tensor<2x32x16xf32>
  return %0 : tensor<2x32x16xf32>
}
