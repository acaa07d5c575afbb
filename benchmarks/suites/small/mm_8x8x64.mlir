// matmul 8x8 * 8x64: a small shape for the smoke test and the oracle
func.func @forward(%a: tensor<8x8xf32>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x64xf32>) outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
