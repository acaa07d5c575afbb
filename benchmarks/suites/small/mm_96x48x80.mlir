// matmul 96x48 * 48x80: a small shape for the smoke test and the oracle
func.func @forward(%a: tensor<96x48xf32>, %b: tensor<48x80xf32>) -> tensor<96x80xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x80xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<96x80xf32>) -> tensor<96x80xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x48xf32>, tensor<48x80xf32>) outs(%c : tensor<96x80xf32>) -> tensor<96x80xf32>
  return %r : tensor<96x80xf32>
}
