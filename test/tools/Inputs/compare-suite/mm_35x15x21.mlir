// A tiny matmul for the scripts/compare smoke test: 35x15 * 15x21.
func.func @forward(%a: tensor<35x15xf32>, %b: tensor<15x21xf32>) -> tensor<35x21xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<35x21xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<35x21xf32>) -> tensor<35x21xf32>
  %r = linalg.matmul ins(%a, %b : tensor<35x15xf32>, tensor<15x21xf32>) outs(%c : tensor<35x21xf32>) -> tensor<35x21xf32>
  return %r : tensor<35x21xf32>
}
