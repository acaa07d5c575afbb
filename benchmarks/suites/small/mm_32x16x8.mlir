// matmul 32x8 * 8x16: a small shape for the smoke test and the oracle
func.func @forward(%a: tensor<32x8xf32>, %b: tensor<8x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x8xf32>, tensor<8x16xf32>) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}
