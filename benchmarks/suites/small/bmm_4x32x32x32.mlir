// batch_matmul 4x32x32 * 4x32x32: a small shape for the smoke test and the oracle
func.func @forward(%a: tensor<4x32x32xf32>, %b: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%c : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  return %r : tensor<4x32x32xf32>
}
