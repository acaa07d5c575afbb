// Op kind "batch_matmul" of unittests/Transforms/CpuEquivalenceTest.cpp, checked on the GPU
// against the CPU by scripts/gpu-check.sh.
func.func @f(%a: tensor<4x16x24xf32>, %b: tensor<4x24x32xf32>, %c: tensor<4x16x32xf32>) -> tensor<4x16x32xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x16x24xf32>, tensor<4x24x32xf32>) outs(%c : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  return %0 : tensor<4x16x32xf32>
}
