// batch_matmul 2x16x8 * 2x8x8: a small shape for the smoke test and the oracle
func.func @forward(%a: tensor<2x16x8xf32>, %b: tensor<2x8x8xf32>) -> tensor<2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x16x8xf32>, tensor<2x8x8xf32>) outs(%c : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %r : tensor<2x16x8xf32>
}
