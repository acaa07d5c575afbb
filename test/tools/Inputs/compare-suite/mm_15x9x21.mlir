// A tiny matmul for the scripts/compare smoke test: 15x9 * 9x21.
func.func @forward(%a: tensor<15x9xf32>, %b: tensor<9x21xf32>) -> tensor<15x21xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<15x21xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<15x21xf32>) -> tensor<15x21xf32>
  %r = linalg.matmul ins(%a, %b : tensor<15x9xf32>, tensor<9x21xf32>) outs(%c : tensor<15x21xf32>) -> tensor<15x21xf32>
  return %r : tensor<15x21xf32>
}
