// matmul 64x4 * 4x8: a small shape for the smoke test and the oracle
func.func @forward(%a: tensor<64x4xf32>, %b: tensor<4x8xf32>) -> tensor<64x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x8xf32>) -> tensor<64x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x4xf32>, tensor<4x8xf32>) outs(%c : tensor<64x8xf32>) -> tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}
